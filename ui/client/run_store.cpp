#include "run_store.hpp"

#include "client/event_stream_parser.hpp"
#include "client/preset_file.hpp"
#include "client/run_data.hpp"
#include "client/save_file.hpp"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>

namespace ddplab::ui {
namespace {

// Whether an engine process is still running this run: its command line names the run's
// events file (Linux /proc; elsewhere a run left "running" is taken as interrupted).
bool engineStillRuns(const RunRecord& run)
{
    if (run.enginePid <= 0)
        return false;
    QFile commandLine(QStringLiteral("/proc/%1/cmdline").arg(run.enginePid));
    if (!commandLine.open(QIODevice::ReadOnly))
        return false;
    return commandLine.readAll().contains(RunStore::eventsPath(run).toLocal8Bit());
}

}  // namespace

RunStore::RunStore(QString root)
    : m_root(std::move(root))
{
}

QString RunStore::defaultRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/runs");
}

QString RunStore::configPath(const RunRecord& run)
{
    return run.directory + QStringLiteral("/config.json");
}

QString RunStore::eventsPath(const RunRecord& run)
{
    return run.directory + QStringLiteral("/events.jsonl");
}

QString RunStore::metaPath(const RunRecord& run)
{
    return run.directory + QStringLiteral("/meta.json");
}

QString RunStore::stderrPath(const RunRecord& run)
{
    return run.directory + QStringLiteral("/stderr.log");
}

std::optional<RunRecord> RunStore::createRun(const RunRecord& draft, const QJsonObject& config, QString* error) const
{
    if (!QDir().mkpath(m_root)) {
        if (error)
            *error = QStringLiteral("Cannot create the run folder %1").arg(m_root);
        return std::nullopt;
    }
    RunRecord run = draft;
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    // Two runs started in the same millisecond (a fast lesson) get a suffix; mkdir is the lock.
    for (int attempt = 1;; ++attempt) {
        run.id = attempt == 1 ? stamp : QStringLiteral("%1-%2").arg(stamp).arg(attempt);
        if (QDir(m_root).mkdir(run.id))
            break;
        if (attempt > 1000) {
            if (error)
                *error = QStringLiteral("Cannot create a run folder in %1").arg(m_root);
            return std::nullopt;
        }
    }
    run.directory = QDir(m_root).absoluteFilePath(run.id);
    if (!writeFileAtomically(configPath(run), presetFileContents(config), error) || !saveMeta(run, error))
        return std::nullopt;
    return run;
}

bool RunStore::saveMeta(const RunRecord& run, QString* error) const
{
    return writeFileAtomically(metaPath(run), QJsonDocument(run.toMetaJson()).toJson(), error);
}

bool RunStore::renameRun(RunRecord& run, const QString& name, QString* error) const
{
    const QString previous = run.name;
    run.name = name.trimmed();
    if (run.name.isEmpty()) {
        run.name = previous;
        if (error)
            *error = QStringLiteral("A run needs a name.");
        return false;
    }
    if (run.lessonId.isEmpty())
        run.label = run.name;  // the legend follows the name unless a lesson gave the run its label
    if (saveMeta(run, error))
        return true;
    run.name = previous;
    return false;
}

bool RunStore::removeRun(const RunRecord& run, QString* error) const
{
    // Only ever delete a folder inside the store that holds a run.
    const QDir directory(run.directory);
    const bool insideStore = QDir(m_root).absoluteFilePath(directory.dirName()) == directory.absolutePath();
    if (run.id.isEmpty() || !insideStore || !QFile::exists(metaPath(run))) {
        if (error)
            *error = QStringLiteral("%1 is not a run folder of this lab").arg(run.directory);
        return false;
    }
    if (QDir(run.directory).removeRecursively())
        return true;
    if (error)
        *error = QStringLiteral("Cannot delete %1").arg(run.directory);
    return false;
}

QList<RunRecord> RunStore::listRuns() const
{
    QList<RunRecord> runs;
    const QDir root(m_root);
    const QStringList names = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& name : names) {
        const QString directory = root.absoluteFilePath(name);
        QFile meta(directory + QStringLiteral("/meta.json"));
        if (!meta.open(QIODevice::ReadOnly))
            continue;
        const QJsonDocument document = QJsonDocument::fromJson(meta.readAll());
        if (!document.isObject())
            continue;
        RunRecord run = RunRecord::fromMetaJson(document.object(), directory);
        if (run.status == RunStatus::Running && !engineStillRuns(run))
            run.status = RunStatus::Interrupted;
        runs.append(run);
    }
    std::stable_sort(runs.begin(), runs.end(),
                     [](const RunRecord& a, const RunRecord& b) { return a.started > b.started; });
    return runs;
}

QSharedPointer<RunData> RunStore::loadRun(const RunRecord& run) const
{
    auto data = QSharedPointer<RunData>::create(run);
    QFile config(configPath(run));
    if (config.open(QIODevice::ReadOnly))
        data->setRequestedConfig(QJsonDocument::fromJson(config.readAll()).object());
    QFile events(eventsPath(run));
    if (events.open(QIODevice::ReadOnly)) {
        EventStreamParser parser;
        constexpr qint64 kChunkBytes = 1 << 20;
        while (!events.atEnd())
            data->appendEvents(parser.feed(events.read(kChunkBytes)).events);
        // A line without its newline was being written when something died: it is not trusted.
    }
    return data;
}

}  // namespace ddplab::ui
