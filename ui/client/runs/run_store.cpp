// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_store.hpp"

#include "client/engine/event_stream_parser.hpp"
#include "client/io/read_file.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_outcome.hpp"
#include "client/wire.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>
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

std::optional<RunRecord> RunStore::createRun(const RunRecord& draft, const Config& config, QString* error, QByteArray* settings) const
{
    Config copy = config;
    return createRun(draft, copy, false, error, settings);
}

std::optional<RunRecord> RunStore::createRunWithCheckpoints(const RunRecord& draft, Config& config, QString* error, QByteArray* settings) const
{
    return createRun(draft, config, true, error, settings);
}

std::optional<RunRecord> RunStore::createRun(const RunRecord& draft, Config& config, bool checkpointsInside, QString* error,
                                             QByteArray* settings) const
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
    if (checkpointsInside)
        config.checkpointDir = QDir(run.directory).filePath(QStringLiteral("checkpoints")).toStdString();
    run.settings = runSettingsOf(config);
    // The one place a run's settings become JSON (once per run started): its config.json, which
    // the engine reads, the session holds (RunData's requested settings) and a remote engine is sent.
    const QByteArray text = runConfigFileText(config);
    if (run.name.isEmpty()) {
        run.name = defaultRunName(QJsonDocument::fromJson(text).object());
        run.label = run.label.isEmpty() ? run.name : run.label;
    }
    if (!writeFileAtomically(configPath(run), text, error) || !saveMeta(run, error))
        return std::nullopt;
    if (settings)
        *settings = text;
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
    // Only ever delete a folder inside the store that holds a run: its meta.json, or (a damaged
    // run) nothing but the files a run has.
    const QDir directory(run.directory);
    const bool insideStore = QDir(m_root).absoluteFilePath(directory.dirName()) == directory.absolutePath();
    const QStringList runFiles{QFileInfo(configPath(run)).fileName(), QFileInfo(eventsPath(run)).fileName(),
                               QFileInfo(metaPath(run)).fileName(), QFileInfo(stderrPath(run)).fileName()};
    const QStringList entries = directory.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
    const bool onlyRunFiles = std::all_of(entries.begin(), entries.end(), [&](const QString& entry) {
        return std::any_of(runFiles.begin(), runFiles.end(), [&](const QString& file) { return entry.startsWith(file); });
    });
    if (run.id.isEmpty() || !insideStore || !(QFile::exists(metaPath(run)) || onlyRunFiles)) {
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
        RunRecord run = readRecord(directory);
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
    QString why;
    if (const std::optional<QByteArray> config = readRegularFile(configPath(run), kMaxMetaBytes, &why)) {
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(*config, &error);
        if (error.error != QJsonParseError::NoError || !document.isObject())
            data->addLoadProblem(QStringLiteral("its config.json cannot be read (%1); the settings come from its events")
                                     .arg(error.error != QJsonParseError::NoError ? error.errorString()
                                                                                  : QStringLiteral("not an object")));
        else
            data->setRequestedConfig(document.object());
    } else if (run.status != RunStatus::Damaged) {
        data->addLoadProblem(QStringLiteral("its config.json %1").arg(why));
    }
    RegularFile events;
    if (events.open(eventsPath(run), &why)) {
        EventStreamParser parser;
        constexpr qint64 kChunkBytes = 1 << 20;
        QStringList warnings;
        qint64 read = 0;
        while (read < kMaxEventsBytes) {
            const QByteArray chunk = events.read(std::min(kChunkBytes, kMaxEventsBytes - read));
            if (chunk.isEmpty())
                break;
            read += chunk.size();
            const StreamBatch batch = parser.feed(chunk);
            data->appendEvents(batch.events);
            warnings += batch.warnings;
        }
        // A line without its newline was being written when something died: it is not trusted.
        for (const QString& warning : warnings)
            data->addLoadProblem(QStringLiteral("its events: %1").arg(warning));
        if (!events.error().isEmpty())
            data->addLoadProblem(QStringLiteral("its events.jsonl %1").arg(events.error()));
        if (read >= kMaxEventsBytes && events.size() > kMaxEventsBytes)
            data->addLoadProblem(QStringLiteral("its events.jsonl is %1 bytes; only the first %2 were read").arg(events.size()).arg(kMaxEventsBytes));
    } else {
        data->addLoadProblem(QStringLiteral("its events.jsonl %1").arg(why));
    }
    // A run stored as finished before the lab told a diverged run from a finished one: decided
    // again from its events, as it would be now.
    if (run.status == RunStatus::Finished && data->hasSummary() && data->divergence()) {
        RunEnding stored;
        stored.exitCode = run.exitCode;
        stored.hasSummary = true;
        stored.divergence = data->divergence();
        recordOutcome(data->record(), decideOutcome(stored));
    }
    // One that ended whole must have all of its events (the list looks at their last line
    // only, and may have called it incomplete already: here it says exactly why).
    const RunRecord& decided = data->record();
    if (decided.status == RunStatus::Finished || decided.status == RunStatus::Diverged || decided.status == RunStatus::Incomplete) {
        RunOutcome ended{decided.status, decided.exitCode, decided.error, decided.divergedAtStep};
        if (ended.status == RunStatus::Incomplete)
            ended.status = RunStatus::Finished;  // as stored; only its events are in question
        const RunOutcome outcome = settleCompleteness(ended, *data);
        if (outcome.status == RunStatus::Incomplete) {
            data->addLoadProblem(decided.status == RunStatus::Incomplete
                                     ? QStringLiteral("its events are incomplete: %1").arg(outcome.error)
                                     : QStringLiteral("it is marked %1, but %2").arg(statusText(decided.status), outcome.error));
            recordOutcome(data->record(), outcome);
        }
    }
    return data;
}

RunRecord RunStore::readRecord(const QString& directory)
{
    // Whatever is wrong with it, the folder is listed: as damaged, with the reason, and
    // deletable. A run that vanished from the list without a word would be lost twice.
    const auto damaged = [&](const QString& reason) {
        RunRecord run;
        run.directory = directory;
        run.id = QDir(directory).dirName();
        run.name = run.id;
        run.status = RunStatus::Damaged;
        run.error = reason;
        run.started = QFileInfo(directory).lastModified();
        return run;
    };
    const QString metaPath = directory + QStringLiteral("/meta.json");
    if (!QFileInfo::exists(metaPath) && !QFileInfo(metaPath).isSymLink())
        return damaged(QStringLiteral("it has no meta.json"));
    QString why;
    const std::optional<QByteArray> meta = readRegularFile(metaPath, kMaxMetaBytes, &why);
    if (!meta)
        return damaged(QStringLiteral("its meta.json %1; a run's is a few hundred bytes of JSON").arg(why));
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(*meta, &error);
    if (error.error != QJsonParseError::NoError)
        return damaged(QStringLiteral("its meta.json is not valid JSON (%1 at byte %2)").arg(error.errorString()).arg(error.offset));
    if (!document.isObject())
        return damaged(QStringLiteral("its meta.json holds no object"));
    RunRecord run = RunRecord::fromMetaJson(document.object(), directory);
    // A finished run has an engine's stream (a failed one may have none: the engine could not
    // start), and that stream ends as a finished run's does.
    if (run.status == RunStatus::Finished || run.status == RunStatus::Diverged) {
        const QString problem = eventsProblem(eventsPath(run));
        if (!problem.isEmpty()) {
            RunRecord broken = damaged(problem);
            broken.name = run.name;
            broken.label = run.label;
            broken.lessonId = run.lessonId;
            broken.started = run.started.isValid() ? run.started : broken.started;
            return broken;
        }
        const QString cut = eventsEndProblem(eventsPath(run), run.steps);
        if (!cut.isEmpty()) {
            run.status = RunStatus::Incomplete;
            run.error = cut;
        }
    }
    run.settings = readRunSettings(configPath(run));
    return run;
}

QString RunStore::eventsProblem(const QString& path)
{
    // The first line only: listing must stay quick with many long runs.
    QString why;
    RegularFile events;
    if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink())
        return QStringLiteral("it has no events.jsonl");
    if (!events.open(path, &why))
        return QStringLiteral("its events.jsonl %1").arg(why);
    if (events.size() == 0)
        return QStringLiteral("its events.jsonl is empty: the engine never wrote an event");
    const QByteArray head = events.read(kMaxMetaBytes);
    const QJsonObject hello = QJsonDocument::fromJson(head.left(head.indexOf('\n'))).object();
    if (hello.value(wire(field::kType)).toString() != wire(type::kHello))
        return QStringLiteral("its events.jsonl does not start with an engine's hello: it is not an event stream");
    return QString();
}

QString RunStore::eventsEndProblem(const QString& path, qint64 steps)
{
    // The last line only (settleCompleteness checks every step when the run is opened): a finished
    // run's events end with its summary, which counts the steps its record counts.
    QString why;
    RegularFile events;
    if (!events.open(path, &why))
        return QStringLiteral("its events.jsonl %1").arg(why);
    constexpr qint64 kTailBytes = 64 * 1024;  // a summary is a few hundred bytes
    const qint64 from = std::max<qint64>(0, events.size() - kTailBytes);
    QByteArray tail = events.readAt(from, events.size() - from);
    const bool endsWithNewline = tail.endsWith('\n');
    tail.chop(endsWithNewline ? 1 : 0);
    const QJsonObject last = QJsonDocument::fromJson(tail.mid(tail.lastIndexOf('\n') + 1)).object();
    if (!endsWithNewline || last.value(wire(field::kType)).toString() != wire(type::kSummary))
        return QStringLiteral("its events end without the summary a finished run ends with: they were cut short");
    const qint64 counted = last.value(wire(field::kSteps)).toInteger(-1);
    if (steps > 0 && counted >= 0 && counted != steps && counted != steps + resumedStepIn(events))
        return QStringLiteral("its summary counts %1 steps, its record %2").arg(counted).arg(steps);
    return QString();
}

qint64 RunStore::resumedStepIn(RegularFile& events)
{
    // A run resumed from a checkpoint (a branch, the run after a failed rank's) counts the steps
    // before it in its summary, and its record the steps its events hold: 48 against 28 for
    // a-rank-fails' resumed run. Read as cut, every such run was listed incomplete, and the
    // estimator, which measures only runs that ran to their end, never measured one: in a fresh
    // data folder critical-batch-branches' estimate rested on one start-up (docs/lessons.md).
    // Its config event, the line after the hello, says after which step it resumed.
    const QByteArray head = events.readAt(0, kMaxMetaBytes);
    const QList<QByteArray> lines = head.split('\n');
    for (qsizetype i = 0; i < std::min<qsizetype>(lines.size() - 1, 3); ++i) {
        const QJsonObject event = QJsonDocument::fromJson(lines.at(i)).object();
        if (event.value(wire(field::kType)).toString() == wire(type::kConfig))
            return event.value(wire(field::kResumedStep)).toInteger(0);
    }
    return 0;
}

}  // namespace ddplab::ui
