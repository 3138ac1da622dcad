// SPDX-License-Identifier: GPL-3.0-or-later
// Run directories: written so a crash loses at most the last line, listed newest first,
// renamed and deleted safely, and read back into the same series; a new run's default name.

#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_comparison.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "support/full_disk.hpp"
#include "support/test_data.hpp"
#include "ui_test_main.hpp"

#include <sys/stat.h>

using namespace ddplab::ui;
using ddplab::test::writeFile;

namespace {

RunRecord draft(const QString& name, const QDateTime& started = QDateTime::currentDateTime())
{
    RunRecord run;
    run.name = name;
    run.label = name;
    run.started = started;
    return run;
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

void writeEvents(const RunRecord& run, const QByteArray& events)
{
    QVERIFY(!writeFile(RunStore::eventsPath(run), events).isEmpty());
}

QByteArray recordedEvents()
{
    QFile file(QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/linreg-b32-lr10.events.jsonl"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A finished run whose events are the recorded linreg run's (11 steps, then its summary).
RunRecord finishedRun(const RunStore& store, const QByteArray& events)
{
    RunRecord run = *store.createRun(draft(QStringLiteral("recorded")), {}, nullptr);
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.steps = 11;
    store.saveMeta(run, nullptr);
    writeEvents(run, events);
    return run;
}

}  // namespace

class TestRunStore : public QObject {
    Q_OBJECT

private slots:
    void defaultRootIsUnderTheUsersDataLocation()
    {
        // main() points XDG_DATA_HOME at a temporary folder: the store must follow it.
        QVERIFY2(RunStore::defaultRoot().startsWith(qEnvironmentVariable("XDG_DATA_HOME")), qPrintable(RunStore::defaultRoot()));
        QVERIFY(RunStore::defaultRoot().endsWith(QStringLiteral("/ddplab/runs")));
    }

    void createWritesConfigAndMeta()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        const QJsonObject config{{QStringLiteral("world_size"), 8}, {QStringLiteral("batch_size"), 16}, {QStringLiteral("events"), QStringLiteral("x")}};
        QString error;
        const std::optional<RunRecord> run = store.createRun(draft(QStringLiteral("first")), coreConfigOf(config).value(), &error);
        QVERIFY2(run, qPrintable(error));
        QVERIFY(QFileInfo(run->directory).isDir());
        const QJsonObject written = readJson(RunStore::configPath(*run));
        QCOMPARE(written.value(QStringLiteral("world_size")).toInt(), 8);
        QVERIFY(!written.contains(QStringLiteral("events")));  // the run's own --events decides that
        const QJsonObject meta = readJson(RunStore::metaPath(*run));
        QCOMPARE(meta.value(QStringLiteral("name")).toString(), QStringLiteral("first"));
        QCOMPARE(meta.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
    }

    // The settings become JSON once, here: the text handed back is the file the engine reads,
    // the same as the preset writer makes through Qt's JSON; an unnamed run is named from it.
    void settingsBecomeJsonOnceAndNameAnUnnamedRun()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        const QJsonObject config{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("world_size"), 4},
                                 {QStringLiteral("batch_size"), 8}, {QStringLiteral("lr"), 0.05}, {QStringLiteral("lr_rule"), QStringLiteral("sqrt")},
                                 {QStringLiteral("optimizer"), QStringLiteral("adam")}, {QStringLiteral("seed"), 7}};
        const ddplab::Config typed = coreConfigOf(config).value();
        QByteArray settings;
        QString error;
        const std::optional<RunRecord> run = store.createRun(draft(QString()), typed, &error, &settings);
        QVERIFY2(run, qPrintable(error));
        QFile file(RunStore::configPath(*run));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), settings);
        QCOMPARE(settings, presetFileContents(presetFromCoreConfig(typed)));
        QCOMPARE(run->name, QStringLiteral("4×8 · lr 0.05 sqrt adam · linreg"));
        QCOMPARE(run->legendLabel(), run->name);
        QCOMPARE(readJson(RunStore::metaPath(*run)).value(QStringLiteral("name")).toString(), run->name);
    }

    void sameMillisecondRunsGetTheirOwnFolders()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        QSet<QString> ids;
        for (int i = 0; i < 5; ++i) {
            const std::optional<RunRecord> run = store.createRun(draft(QStringLiteral("r%1").arg(i)), {}, nullptr);
            QVERIFY(run);
            ids.insert(run->id);
        }
        QCOMPARE(ids.size(), 5);
    }

    void listIsNewestFirstAndRunningWithoutEngineIsInterrupted()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        const QDateTime now = QDateTime::currentDateTime();
        RunRecord old = *store.createRun(draft(QStringLiteral("old"), now.addSecs(-60)), {}, nullptr);
        old.status = RunStatus::Finished;
        old.exitCode = 0;
        QVERIFY(store.saveMeta(old, nullptr));
        writeEvents(old, "{\"type\":\"hello\",\"protocol\":2}\n"
                         "{\"type\":\"step\",\"step\":1,\"loss\":0.5}\n"
                         "{\"type\":\"summary\",\"steps\":1,\"loss\":0.5}\n");
        RunRecord died = *store.createRun(draft(QStringLiteral("died"), now), {}, nullptr);
        died.enginePid = 999'999'999;  // no such process
        QVERIFY(store.saveMeta(died, nullptr));
        const QList<RunRecord> runs = store.listRuns();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs.at(0).name, QStringLiteral("died"));
        QCOMPARE(runs.at(0).status, RunStatus::Interrupted);
        QCOMPARE(runs.at(1).name, QStringLiteral("old"));
        QCOMPARE(runs.at(1).status, RunStatus::Finished);
        QCOMPARE(runs.at(1).exitCode, 0);
    }

    void damagedRunsAreListedWithTheReason_data()
    {
        QTest::addColumn<QByteArray>("meta");
        QTest::addColumn<QByteArray>("events");
        QTest::addColumn<QString>("reason");
        const QByteArray finished = R"({"name":"n","status":"finished","started":"2026-11-23T10:00:00.000"})";
        const QByteArray hello = R"({"type":"hello","protocol":2})" "\n";
        QTest::newRow("truncated meta") << finished.left(20) << hello << QStringLiteral("its meta.json is not valid JSON");
        QTest::newRow("garbage meta") << QByteArray("\x01\x02garbage") << hello << QStringLiteral("its meta.json is not valid JSON");
        QTest::newRow("empty meta") << QByteArray() << hello << QStringLiteral("its meta.json is not valid JSON");
        QTest::newRow("meta of the wrong type") << QByteArray("[1, 2, 3]") << hello << QStringLiteral("its meta.json holds no object");
        QTest::newRow("deeply nested meta") << QByteArray(5000, '[') << hello << QStringLiteral("its meta.json is not valid JSON");
        QTest::newRow("no meta") << QByteArray("MISSING") << hello << QStringLiteral("it has no meta.json");
        QTest::newRow("empty events") << finished << QByteArray() << QStringLiteral("its events.jsonl is empty");
        QTest::newRow("garbage events") << finished << QByteArray("not an event\n") << QStringLiteral("does not start with an engine's hello");
    }

    void damagedRunsAreListedWithTheReason()
    {
        // They used to vanish from the list, or show as finished with empty charts.
        QFETCH(QByteArray, meta);
        QFETCH(QByteArray, events);
        QFETCH(QString, reason);
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord run = *store.createRun(draft(QStringLiteral("n")), {}, nullptr);
        QFile::remove(RunStore::metaPath(run));
        if (meta != "MISSING")
            QVERIFY(!writeFile(RunStore::metaPath(run), meta).isEmpty());
        writeEvents(run, events);
        const QList<RunRecord> runs = store.listRuns();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().status, RunStatus::Damaged);
        QVERIFY2(runs.first().error.contains(reason), qPrintable(runs.first().error));
        QCOMPARE(runs.first().id, run.id);
        // Still deletable, and it opens as far as it reads.
        QVERIFY(!store.loadRun(runs.first()).isNull());
        QString error;
        QVERIFY2(store.removeRun(runs.first(), &error), qPrintable(error));
        QVERIFY(store.listRuns().isEmpty());
    }

    void loadingSaysWhatCouldNotBeRead()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord run = *store.createRun(draft(QStringLiteral("cut")), {}, nullptr);
        run.status = RunStatus::Finished;
        QVERIFY(store.saveMeta(run, nullptr));
        QVERIFY(!writeFile(RunStore::configPath(run), "{not json").isEmpty());
        writeEvents(run, R"({"type":"hello","protocol":2})" "\nnot an event\n" R"({"type":"step","step":1,"loss":0.5})" "\n");
        const QSharedPointer<RunData> data = store.loadRun(run);
        QCOMPARE(data->stepCount(), 1);
        const QString problems = data->loadProblems().join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("config.json cannot be read")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("malformed")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("it is marked finished, but its events end after step 1 without the summary")),
                 qPrintable(problems));
    }

    void defaultNameTellsRunsApart()
    {
        QJsonObject config{{QStringLiteral("workload"), QStringLiteral("toy")}, {QStringLiteral("world_size"), 8},
                           {QStringLiteral("batch_size"), 16}, {QStringLiteral("lr"), 0.0028284271},
                           {QStringLiteral("lr_rule"), QStringLiteral("sqrt")}, {QStringLiteral("optimizer"), QStringLiteral("sgd")}};
        QCOMPARE(defaultRunName(config), QStringLiteral("8×16 · lr 0.002828 sqrt · toy"));
        // The defaults (no rule, plain SGD) are left out; anything else is named.
        config[QStringLiteral("lr_rule")] = QStringLiteral("none");
        config[QStringLiteral("optimizer")] = QStringLiteral("novograd");
        QCOMPARE(defaultRunName(config), QStringLiteral("8×16 · lr 0.002828 novograd · toy"));
    }

    void renameIsPersisted()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord run = *store.createRun(draft(QStringLiteral("before")), {}, nullptr);
        QVERIFY(store.renameRun(run, QStringLiteral("  after  "), nullptr));
        QCOMPARE(store.listRuns().first().name, QStringLiteral("after"));
        QCOMPARE(store.listRuns().first().label, QStringLiteral("after"));
        QString error;
        QVERIFY(!store.renameRun(run, QStringLiteral("   "), &error));
        QCOMPARE(run.name, QStringLiteral("after"));
        QVERIFY(!error.isEmpty());
    }

    void removeDeletesOnlyRunFolders()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        const RunRecord run = *store.createRun(draft(QStringLiteral("doomed")), {}, nullptr);
        QVERIFY(store.removeRun(run, nullptr));
        QVERIFY(!QFileInfo::exists(run.directory));
        QVERIFY(store.listRuns().isEmpty());

        QTemporaryDir elsewhere;
        QFile keep(elsewhere.filePath(QStringLiteral("meta.json")));
        QVERIFY(keep.open(QIODevice::WriteOnly));
        keep.close();
        RunRecord outside;
        outside.id = QDir(elsewhere.path()).dirName();
        outside.directory = elsewhere.path();
        QString error;
        QVERIFY(!store.removeRun(outside, &error));
        QVERIFY(QFileInfo::exists(elsewhere.path()));
        QVERIFY(error.contains(QStringLiteral("not a run folder")));
    }

    void aFullDiskKeepsTheOldMetaAndSaysSo()
    {
        // With the data folder on a full 256 KiB file system, meta.json went from 238 bytes to
        // none (QSaveFile called it saved): the run was damaged, its status and error lost.
        QTemporaryDir root;
        ddplab::test::FullDisk disk(root.path());
        const RunStore store(root.filePath(QStringLiteral("runs")));
        RunRecord run = *store.createRun(draft(QStringLiteral("kept")), coreConfigOf({{QStringLiteral("lr"), 0.5}}).value(), nullptr);
        QFile meta(RunStore::metaPath(run));
        QVERIFY(meta.open(QIODevice::ReadOnly));
        const QByteArray before = meta.readAll();
        meta.close();
        QVERIFY(before.size() > 100);

        disk.fill();
        run.status = RunStatus::Failed;
        run.error = QStringLiteral("x").repeated(300);  // more than a few bytes, whatever the disk
        QString error;
        const bool saved = store.saveMeta(run, &error);
        disk.release();
        QVERIFY(!saved);
        QVERIFY2(error.contains(RunStore::metaPath(run)) && error.contains(QStringLiteral("it keeps what it held before")), qPrintable(error));
        QVERIFY(meta.open(QIODevice::ReadOnly));
        QCOMPARE(meta.readAll(), before);
        QCOMPARE(QDir(run.directory).entryList(QDir::Files).size(), 2);  // config.json, meta.json: no half-written copy left
        const QList<RunRecord> listed = store.listRuns();
        QCOMPARE(listed.size(), 1);
        QCOMPARE(listed.first().status, RunStatus::Interrupted);  // as meta.json says: running, no engine
        QCOMPARE(listed.first().name, QStringLiteral("kept"));

        // With room again, the same save goes through.
        QVERIFY2(store.saveMeta(run, &error), qPrintable(error));
        QCOMPARE(store.listRuns().first().status, RunStatus::Failed);
        QCOMPARE(store.listRuns().first().error, run.error);
    }

    void storedFilesThatAreNoFilesAreDamagedNotWaitedOn_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("what");  // "zero": a link to /dev/zero; "fifo": a named pipe
        QTest::addColumn<QString>("reason");
        QTest::newRow("meta.json, a link to /dev/zero") << QStringLiteral("meta.json") << QStringLiteral("zero")
                                                        << QStringLiteral("its meta.json is a device");
        QTest::newRow("meta.json, a FIFO") << QStringLiteral("meta.json") << QStringLiteral("fifo")
                                           << QStringLiteral("its meta.json is a named pipe (FIFO)");
        QTest::newRow("events.jsonl, a FIFO") << QStringLiteral("events.jsonl") << QStringLiteral("fifo")
                                              << QStringLiteral("its events.jsonl is a named pipe (FIFO)");
        QTest::newRow("events.jsonl, a link to /dev/zero") << QStringLiteral("events.jsonl") << QStringLiteral("zero")
                                                           << QStringLiteral("its events.jsonl is a device");
        QTest::newRow("meta.json, a folder") << QStringLiteral("meta.json") << QStringLiteral("folder")
                                             << QStringLiteral("its meta.json is a folder");
    }

    void storedFilesThatAreNoFilesAreDamagedNotWaitedOn()
    {
        // A link to /dev/zero ended in std::bad_alloc (exit 134); a FIFO kept the window from
        // ever appearing and --resume waiting for good: their size() is 0, then readAll() or a
        // blocking open. Each is a damaged run with the reason, listed at once.
        QFETCH(QString, file);
        QFETCH(QString, what);
        QFETCH(QString, reason);
        QTemporaryDir root;
        const RunStore store(root.path());
        const RunRecord run = finishedRun(store, recordedEvents());
        const QString path = run.directory + QLatin1Char('/') + file;
        QVERIFY(QFile::remove(path));
        if (what == QLatin1String("zero"))
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        else if (what == QLatin1String("fifo"))
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        else
            QVERIFY(QDir().mkdir(path));
        const QList<RunRecord> runs = store.listRuns();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.first().status, RunStatus::Damaged);
        QVERIFY2(runs.first().error.contains(reason), qPrintable(runs.first().error));
        // Opening it reads what can be read and says what could not; never waits on the file.
        const QSharedPointer<RunData> data = store.loadRun(runs.first());
        QVERIFY(!data.isNull());
        if (file == QLatin1String("events.jsonl"))
            QVERIFY2(data->loadProblems().join(QLatin1Char('\n')).contains(reason), qPrintable(data->loadProblems().join(QLatin1Char('\n'))));
    }

    void aConfigThatIsADeviceIsALoadProblem()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        const RunRecord run = finishedRun(store, recordedEvents());
        QVERIFY(QFile::remove(RunStore::configPath(run)));
        QVERIFY(QFile::link(QStringLiteral("/dev/zero"), RunStore::configPath(run)));
        const QSharedPointer<RunData> data = store.loadRun(store.listRuns().first());
        QCOMPARE(data->stepCount(), 11);
        QVERIFY2(data->loadProblems().join(QLatin1Char('\n')).contains(QStringLiteral("its config.json is a device")),
                 qPrintable(data->loadProblems().join(QLatin1Char('\n'))));
    }

    void truncatedEventsMakeAnIncompleteRun()
    {
        // A finished run whose events were cut in half was listed "finished", compared and
        // exported with 6 of its steps and the wrong final loss.
        QTemporaryDir root;
        const RunStore store(root.path());
        const QByteArray whole = recordedEvents();
        QVERIFY(whole.endsWith('\n'));
        const RunRecord intact = finishedRun(store, whole);
        QCOMPARE(store.listRuns().first().status, RunStatus::Finished);
        QCOMPARE(store.loadRun(store.listRuns().first())->record().status, RunStatus::Finished);

        writeEvents(intact, whole.left(whole.size() / 2));
        const RunRecord listed = store.listRuns().first();
        QCOMPARE(listed.status, RunStatus::Incomplete);
        QVERIFY2(listed.error.contains(QStringLiteral("without the summary a finished run ends with")), qPrintable(listed.error));
        const QSharedPointer<RunData> data = store.loadRun(listed);
        QCOMPARE(data->record().status, RunStatus::Incomplete);
        QVERIFY2(data->record().error.contains(QStringLiteral("its events end after step")), qPrintable(data->record().error));
        QVERIFY(data->stepCount() < 11);

        // Compare says so, with the reason beside it, in the window and headless.
        const Comparison comparison = compareRuns({data});
        QCOMPARE(comparison.rows.first().quantity, QStringLiteral("status"));
        QCOMPARE(comparison.rows.first().values.first(), QStringLiteral("incomplete"));
        QCOMPARE(comparison.rows.first().notes.first(), data->record().error);
        QVERIFY(comparisonText(comparison).contains(QStringLiteral("incomplete (") + data->record().error + QLatin1Char(')')));
    }

    void eventsMissingStepsInTheMiddleMakeAnIncompleteRun()
    {
        // The summary is there, the steps between are not: the list cannot tell from the last
        // line, opening the run does.
        QTemporaryDir root;
        const RunStore store(root.path());
        QList<QByteArray> lines = recordedEvents().split('\n');
        lines.erase(std::remove_if(lines.begin(), lines.end(), [](const QByteArray& line) {
                        return line.contains("\"type\":\"step\",\"step\":4,") || line.contains("\"type\":\"step\",\"step\":5,");
                    }),
                    lines.end());
        finishedRun(store, lines.join('\n'));
        const QSharedPointer<RunData> data = store.loadRun(store.listRuns().first());
        QCOMPARE(data->stepCount(), 9);
        QCOMPARE(data->record().status, RunStatus::Incomplete);
        QCOMPARE(data->record().error, QStringLiteral("its events hold 9 of the 11 steps its summary counts"));
    }

    // A run resumed from a checkpoint (a branch, the run after a failed rank's) counts the steps
    // before it in its summary, its record and its events only its own: a-rank-fails' resumed run
    // says 48 in its summary and 28 in its record. Listed as cut, every resumed run read
    // "incomplete" once the lab was opened again, and the estimator (which measures only runs
    // that ran to their end) never measured one. A summary that counts more than the steps
    // before the checkpoint and the run's own is still cut.
    void aResumedRunsSummaryCountsTheStepsBeforeItsCheckpoint()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        QByteArray events = recordedEvents();
        QVERIFY(events.contains("{\"type\":\"config\","));
        QVERIFY(events.contains("{\"type\":\"summary\",\"steps\":11,"));
        // Its 11 steps after a checkpoint written after step 20: the summary counts 31.
        events.replace("{\"type\":\"config\",", "{\"type\":\"config\",\"resumed_from\":\"run-1/step-000020.pt\",\"resumed_step\":20,");
        events.replace("{\"type\":\"summary\",\"steps\":11,", "{\"type\":\"summary\",\"steps\":31,");
        const RunRecord resumed = finishedRun(store, events);
        const RunRecord listed = store.listRuns().first();
        QCOMPARE(listed.id, resumed.id);
        QVERIFY2(listed.status == RunStatus::Finished, qPrintable(statusText(listed.status) + QStringLiteral(": ") + listed.error));
        QCOMPARE(store.loadRun(listed)->record().status, RunStatus::Finished);

        events.replace("{\"type\":\"summary\",\"steps\":31,", "{\"type\":\"summary\",\"steps\":32,");
        writeEvents(resumed, events);
        QCOMPARE(store.listRuns().first().status, RunStatus::Incomplete);
        QCOMPARE(store.listRuns().first().error, QStringLiteral("its summary counts 32 steps, its record 11"));
    }

    void writesAreWholeOrNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("file.json"));
        QString error;
        QVERIFY2(writeFileAtomically(path, "first", &error), qPrintable(error));
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
        QVERIFY2(writeFileAtomically(path, "second", &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("second"));
        QCOMPARE(QFile::permissions(path) & (QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther),
                 QFile::ReadOwner | QFile::WriteOwner);  // a replaced file keeps its permissions
        QVERIFY(!writeFileAtomically(dir.filePath(QStringLiteral("no-such-folder/file.json")), "x", &error));
        QVERIFY2(error.contains(QStringLiteral("No such file or directory")), qPrintable(error));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("file.json")});
    }

    void aDivergedRunIsListedWithItsStep()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord run = *store.createRun(draft(QStringLiteral("no warmup")), {}, nullptr);
        run.status = RunStatus::Diverged;
        run.exitCode = 0;
        run.divergedAtStep = 10;
        run.error = QStringLiteral("the loss grew from 2.31 to 71.2 at step 10");
        QVERIFY(store.saveMeta(run, nullptr));
        writeEvents(run, "{\"type\":\"hello\",\"protocol\":2}\n"
                         "{\"type\":\"step\",\"step\":10,\"loss\":71.2}\n"
                         "{\"type\":\"summary\",\"steps\":1,\"loss\":71.2}\n");
        QCOMPARE(readJson(RunStore::metaPath(run)).value(QStringLiteral("status")).toString(), QStringLiteral("diverged"));
        const RunRecord listed = store.listRuns().first();
        QCOMPARE(listed.status, RunStatus::Diverged);
        QCOMPARE(listed.statusLine(), QStringLiteral("diverged at step 10"));
        QCOMPARE(listed.error, run.error);
    }

    void aRunStoredAsFinishedWhoseLossBlewUpIsReadAsDiverged()
    {
        // Stored by a lab that did not tell them apart: its events say what it was.
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord run = *store.createRun(draft(QStringLiteral("old")), {}, nullptr);
        run.status = RunStatus::Finished;
        run.exitCode = 0;
        QVERIFY(store.saveMeta(run, nullptr));
        writeEvents(run, "{\"type\":\"hello\",\"protocol\":2}\n"
                         "{\"type\":\"step\",\"step\":1,\"loss\":2.3}\n"
                         "{\"type\":\"step\",\"step\":2,\"loss\":null}\n"
                         "{\"type\":\"summary\",\"steps\":2,\"loss\":null}\n");
        const QSharedPointer<RunData> data = store.loadRun(run);
        QCOMPARE(data->record().status, RunStatus::Diverged);
        QCOMPARE(data->record().statusLine(), QStringLiteral("diverged at step 2"));
    }

    void eventsAreReadBackAndACutLastLineIsIgnored()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        const RunRecord run = *store.createRun(draft(QStringLiteral("crashed")), coreConfigOf({{QStringLiteral("lr"), 0.5}}).value(), nullptr);
        QFile events(RunStore::eventsPath(run));
        QVERIFY(events.open(QIODevice::WriteOnly));
        events.write("{\"type\":\"hello\",\"protocol\":1}\n"
                     "{\"type\":\"step\",\"step\":1,\"loss\":2.0}\n"
                     "{\"type\":\"step\",\"step\":2,\"loss\":1.0}\n"
                     "{\"type\":\"step\",\"step\":3,\"lo");  // the engine died mid-write
        events.close();
        const QSharedPointer<RunData> data = store.loadRun(run);
        QCOMPARE(data->stepCount(), 2);
        QCOMPARE(data->series(QStringLiteral("loss")), (QList<QPointF>{{1, 2.0}, {2, 1.0}}));
        QCOMPARE(data->requestedConfig().value(QStringLiteral("lr")).toDouble(), 0.5);
        QCOMPARE(data->record().name, QStringLiteral("crashed"));
    }
};

DDPLAB_UI_TEST_MAIN(TestRunStore)
#include "tst_run_store.moc"
