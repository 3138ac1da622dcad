#pragma once
// Run directories under the user's data location (QStandardPaths::AppDataLocation/runs):
//   config.json   the preset the engine was given (--config)
//   events.jsonl  the raw event stream, appended by the engine itself (--events), line by line
//   meta.json     name, label, lesson, status, exit code (replaced atomically)
//   stderr.log    the engine's human-readable messages
// so a crash of the window or the engine loses at most the last line.

#include "client/run_record.hpp"

#include <QJsonObject>
#include <QList>
#include <QSharedPointer>
#include <QString>

#include <optional>

namespace ddplab::ui {

class RunData;

class RunStore {
public:
    explicit RunStore(QString root = defaultRoot());

    static QString defaultRoot();
    const QString& root() const { return m_root; }

    static QString configPath(const RunRecord& run);
    static QString eventsPath(const RunRecord& run);
    static QString metaPath(const RunRecord& run);
    static QString stderrPath(const RunRecord& run);

    // Makes a fresh directory for `draft` (its id and directory are filled in) and writes
    // config.json and meta.json.
    std::optional<RunRecord> createRun(const RunRecord& draft, const QJsonObject& config, QString* error) const;
    bool saveMeta(const RunRecord& run, QString* error) const;
    bool renameRun(RunRecord& run, const QString& name, QString* error) const;
    bool removeRun(const RunRecord& run, QString* error) const;

    // Newest first. A run whose meta.json says running while no engine runs it is reported
    // as interrupted.
    QList<RunRecord> listRuns() const;
    // The run with its events read back from events.jsonl (a cut-off last line is ignored).
    QSharedPointer<RunData> loadRun(const RunRecord& run) const;

private:
    QString m_root;
};

}  // namespace ddplab::ui
