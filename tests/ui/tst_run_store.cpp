// Run directories: written so a crash loses at most the last line, listed newest first,
// renamed and deleted safely, and read back into the same series; a new run's default name.

#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "ui_test_main.hpp"

using namespace ddplab::ui;

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

void writeFile(const QString& path, const QByteArray& content)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        file.write(content);
}

void writeEvents(const RunRecord& run, const QByteArray& events)
{
    writeFile(RunStore::eventsPath(run), events);
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
        const std::optional<RunRecord> run = store.createRun(draft(QStringLiteral("first")), config, &error);
        QVERIFY2(run, qPrintable(error));
        QVERIFY(QFileInfo(run->directory).isDir());
        const QJsonObject written = readJson(RunStore::configPath(*run));
        QCOMPARE(written.value(QStringLiteral("world_size")).toInt(), 8);
        QVERIFY(!written.contains(QStringLiteral("events")));  // the run's own --events decides that
        const QJsonObject meta = readJson(RunStore::metaPath(*run));
        QCOMPARE(meta.value(QStringLiteral("name")).toString(), QStringLiteral("first"));
        QCOMPARE(meta.value(QStringLiteral("status")).toString(), QStringLiteral("running"));
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
        writeEvents(old, R"({"type":"hello","protocol":2})" "\n");
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
            writeFile(RunStore::metaPath(run), meta);
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
        writeFile(RunStore::configPath(run), "{not json");
        writeEvents(run, R"({"type":"hello","protocol":2})" "\nnot an event\n" R"({"type":"step","step":1,"loss":0.5})" "\n");
        const QSharedPointer<RunData> data = store.loadRun(run);
        QCOMPARE(data->stepCount(), 1);
        const QString problems = data->loadProblems().join(QLatin1Char('\n'));
        QVERIFY2(problems.contains(QStringLiteral("config.json cannot be read")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("malformed")), qPrintable(problems));
        QVERIFY2(problems.contains(QStringLiteral("without a summary")), qPrintable(problems));
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
        writeEvents(run, R"({"type":"hello","protocol":2})" "\n");
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
        const RunRecord run = *store.createRun(draft(QStringLiteral("crashed")), {{QStringLiteral("lr"), 0.5}}, nullptr);
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
