// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Run directories under the user's data location (QStandardPaths::AppDataLocation/runs):
//   config.json   the preset the engine was given (--config)
//   events.jsonl  the raw event stream, appended by the engine itself (--events), line by line
//   meta.json     name, label, lesson, status, exit code (replaced atomically)
//   stderr.log    the engine's human-readable messages
// so a crash of the window or the engine loses at most the last line. Stored files are read
// only when they are regular files, without blocking, within a bound (io/read_file.hpp):
// anything else lists the run as damaged, with the reason.

#include "client/runs/run_record.hpp"

#include <QJsonObject>
#include <QList>
#include <QSharedPointer>
#include <QString>

#include <optional>

namespace ddplab::ui {

class RegularFile;
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
    // config.json (every key of `config`, in the key table's order) and meta.json. This is the
    // one place a run's settings become JSON: that file is what the engine reads, and
    // *settings (when given) is its text, which the session holds and sends a remote engine.
    // A draft without a name is named from those settings (defaultRunName).
    std::optional<RunRecord> createRun(const RunRecord& draft, const ddplab::Config& config, QString* error,
                                       QByteArray* settings = nullptr) const;
    // As above, its checkpoints (config.checkpointDir) put into its own folder, `checkpoints`:
    // `config` is what its config.json then says.
    std::optional<RunRecord> createRunWithCheckpoints(const RunRecord& draft, ddplab::Config& config, QString* error,
                                                      QByteArray* settings = nullptr) const;
    bool saveMeta(const RunRecord& run, QString* error) const;
    bool renameRun(RunRecord& run, const QString& name, QString* error) const;
    bool removeRun(const RunRecord& run, QString* error) const;

    // Newest first. A run whose meta.json says running while no engine runs it is reported
    // as interrupted; a finished one whose events do not end with its summary as incomplete;
    // a folder that cannot be read as a run is listed as damaged, with why.
    QList<RunRecord> listRuns() const;
    // The run with its events read back from events.jsonl (a cut-off last line is ignored), as
    // far as it reads; what could not be read is in RunData::loadProblems(). Its status is
    // settled from what was read (settleCompleteness: a finished run missing steps is incomplete).
    QSharedPointer<RunData> loadRun(const RunRecord& run) const;

    // A million steps are a few hundred MB of events; beyond this a file is read only so far
    // (here and by the TensorBoard export, which reads events.jsonl itself).
    static constexpr qint64 kMaxEventsBytes = qint64(4) << 30;

private:
    std::optional<RunRecord> createRun(const RunRecord& draft, ddplab::Config& config, bool checkpointsInside, QString* error,
                                       QByteArray* settings) const;

    // meta.json, config.json and an events file's first or last line are a few hundred bytes
    // (a config event a few hundred KiB); beyond this they are not.
    static constexpr qint64 kMaxMetaBytes = 1 << 20;
    static RunRecord readRecord(const QString& directory);
    static QString eventsProblem(const QString& path);
    static QString eventsEndProblem(const QString& path, qint64 steps);
    static qint64 resumedStepIn(RegularFile& events);  // its config event's resumed_step; 0 without

    QString m_root;
};

}  // namespace ddplab::ui
