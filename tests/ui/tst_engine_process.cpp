// SPDX-License-Identifier: GPL-3.0-or-later
// The engine client against the real engine: events stream in batches, Stop ends every
// process of the run, a failing rank or a broken or missing engine ends in a clear message,
// and one-shot queries (devices) are read.

#include "client/engine/device_inventory.hpp"
#include "client/engine/engine_environment.hpp"
#include "client/engine/engine_process.hpp"
#include "client/engine/engine_query.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "core/limits.hpp"
#include "core/protocol_names.hpp"
#include "support/process_table.hpp"
#include "short_phases.hpp"
#include "ui_test_main.hpp"

#include <QRegularExpression>
#include <QScopeGuard>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 120000;  // a safety net only: nothing here depends on speed

QString writeExecutable(const QTemporaryDir& dir, const QString& name, const QByteArray& contents, bool executable = true)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(contents);
    file.close();
    QFile::Permissions permissions = QFile::ReadOwner | QFile::WriteOwner;
    if (executable)
        permissions |= QFile::ExeOwner;
    file.setPermissions(permissions);
    return path;
}

struct Collected {
    QList<QJsonObject> events;
    int batches = 0;
    QStringList warnings;
    QByteArray stderrText;
};

void collect(EngineProcess& engine, Collected& into)
{
    QObject::connect(&engine, &EngineProcess::eventsReceived, &engine, [&into](const QList<QJsonObject>& events) {
        into.events += events;
        ++into.batches;
    });
    QObject::connect(&engine, &EngineProcess::outputWarning, &engine, [&into](const QString& warning) { into.warnings.append(warning); });
    QObject::connect(&engine, &EngineProcess::stderrReceived, &engine, [&into](const QByteArray& text) { into.stderrText += text; });
}

int countOfType(const QList<QJsonObject>& events, const char* type)
{
    return int(std::count_if(events.begin(), events.end(),
                             [&](const QJsonObject& event) { return event.value(QStringLiteral("type")).toString() == QLatin1String(type); }));
}

}  // namespace

class TestEngineProcess : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // The spies below keep LabSession's run arguments.
        qRegisterMetaType<QSharedPointer<RunData>>();
    }

    void realRunStreamsEveryEventInOrder()
    {
        EngineProcess engine;
        Collected collected;
        collect(engine, collected);
        QSignalSpy finished(&engine, &EngineProcess::finished);
        engine.start(ddplab::test::enginePath(), {QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("2"),
                                                   QStringLiteral("--batch-size"), QStringLiteral("8"), QStringLiteral("--num-examples"),
                                                   QStringLiteral("160"), QStringLiteral("--epochs"), QStringLiteral("2")});
        QVERIFY(finished.wait(kPatienceMs));
        const EngineExit exit = finished.first().first().value<EngineExit>();
        QCOMPARE(exit.exitCode, 0);
        QVERIFY(!exit.crashed && !exit.failedToStart);
        QCOMPARE(collected.events.first().value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
        QCOMPARE(collected.events.at(1).value(QStringLiteral("type")).toString(), QStringLiteral("config"));
        QCOMPARE(collected.events.last().value(QStringLiteral("type")).toString(), QStringLiteral("summary"));
        QCOMPARE(countOfType(collected.events, "step"), 20);  // 160 / (2 x 8) = 10 a epoch, 2 epochs
        QVERIFY(collected.batches >= 1 && collected.batches <= collected.events.size());
        QVERIFY(collected.warnings.isEmpty());
        QVERIFY(!engine.isRunning());
    }

    void stopEndsTheEngineAndEveryRank()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("stop-marker.jsonl"));
        EngineProcess engine;
        Collected collected;
        collect(engine, collected);
        QSignalSpy finished(&engine, &EngineProcess::finished);
        engine.start(ddplab::test::enginePath(),
                     {QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("3"), QStringLiteral("--batch-size"),
                      QStringLiteral("1"), QStringLiteral("--num-examples"), QStringLiteral("64"), QStringLiteral("--epochs"),
                      QStringLiteral("1000000"), QStringLiteral("--events"), marker});
        QTRY_VERIFY_WITH_TIMEOUT(countOfType(collected.events, "step") >= 3, kPatienceMs);
        const qint64 launcher = engine.processId();
        const QList<qint64> ranks = ddplab::test::childrenOf(launcher);
        QCOMPARE(ranks.size(), 3);
        engine.stop();
        QVERIFY(finished.wait(kPatienceMs));
        const EngineExit exit = finished.first().first().value<EngineExit>();
        QVERIFY(exit.stopRequested);
        QCOMPARE(exit.exitCode, 5);  // the engine's own "cancelled", not a kill
        QVERIFY(!exit.crashed);
        QCOMPARE(collected.events.last().value(QStringLiteral("type")).toString(), QStringLiteral("error"));
        QVERIFY(collected.events.last().value(QStringLiteral("message")).toString().contains(QStringLiteral("SIGTERM")));
        for (const qint64 rank : ranks)
            QVERIFY2(!ddplab::test::isRunning(rank), qPrintable(QStringLiteral("rank process %1 survived").arg(rank)));
        QVERIFY(ddplab::test::processesWithArgument(marker).isEmpty());
    }

    void anEngineThatIgnoresStopIsKilled()
    {
        QTemporaryDir dir;
        // It says when its TERM handler is in place, and again each time it shrugs SIGTERM off.
        const QString stubborn = writeExecutable(dir, QStringLiteral("stubborn"),
                                                 "#!/bin/sh\n"
                                                 "trap 'echo {\\\"type\\\":\\\"ignored-term\\\"}' TERM\n"
                                                 "echo '{\"type\":\"ready\"}'\n"
                                                 "while :; do sleep 0.1; done\n");
        EngineProcess engine;
        Collected collected;
        collect(engine, collected);
        QSignalSpy finished(&engine, &EngineProcess::finished);
        engine.start(stubborn, {});
        QTRY_VERIFY_WITH_TIMEOUT(countOfType(collected.events, "ready") == 1, kPatienceMs);
        const qint64 pid = engine.processId();
        engine.stop();
        QVERIFY(finished.wait(kPatienceMs));
        QVERIFY(countOfType(collected.events, "ignored-term") >= 1);  // asked first
        const EngineExit exit = finished.first().first().value<EngineExit>();
        QVERIFY(exit.crashed);  // then killed
        QVERIFY(exit.stopRequested);
        QVERIFY(exit.message.contains(QStringLiteral("did not stop when asked")));
        QVERIFY(!ddplab::test::isRunning(pid));
    }

    void missingOrUnrunnableEngineSaysWhatIsWrong_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << QStringLiteral("missing") << QStringLiteral("there is no file at");
        QTest::newRow("not executable") << QStringLiteral("plain") << QStringLiteral("is not executable");
        QTest::newRow("not a program") << QStringLiteral("garbage") << QStringLiteral("could not be run");
        QTest::newRow("a folder") << QStringLiteral("folder") << QStringLiteral("is a folder");
    }
    void missingOrUnrunnableEngineSaysWhatIsWrong()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QString path = dir.filePath(QStringLiteral("ddplab-engine"));
        if (kind == QLatin1String("plain"))
            path = writeExecutable(dir, QStringLiteral("ddplab-engine"), "#!/bin/sh\necho hi\n", false);
        else if (kind == QLatin1String("garbage"))
            path = writeExecutable(dir, QStringLiteral("ddplab-engine"), QByteArray("\x7f" "ELF garbage, not a real program\x01\x02", 36));
        else if (kind == QLatin1String("folder"))
            path = dir.path();
        EngineProcess engine;
        QSignalSpy finished(&engine, &EngineProcess::finished);
        engine.start(path, {QStringLiteral("run")});
        QVERIFY(finished.wait(kPatienceMs));
        const EngineExit exit = finished.first().first().value<EngineExit>();
        QVERIFY(exit.failedToStart);
        QVERIFY2(exit.message.contains(expected), qPrintable(exit.message));
        QVERIFY(exit.message.contains(QStringLiteral("DDPLAB_ENGINE")));
    }

    void aProgramThatIsNotTheEngineFailsTheRunClearly()
    {
        QTemporaryDir dir;
        const QString impostor = writeExecutable(dir, QStringLiteral("impostor"),
                                                 "#!/bin/sh\necho 'Usage: something else entirely'\necho 'oops' >&2\nexit 1\n");
        const RunStore store(dir.filePath(QStringLiteral("runs")));
        LabSession sequence(store, impostor);
        QSignalSpy warnings(&sequence, &LabSession::logMessage);
        QSignalSpy done(&sequence, &LabSession::sequenceFinished);
        QSignalSpy finishedRuns(&sequence, &LabSession::runFinished);
        sequence.start({{QStringLiteral("x"), QStringLiteral("x"), QString(), coreConfigOf({{QStringLiteral("world_size"), 1}}).value()}});
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(done.first().first().toBool(), false);
        const auto run = finishedRuns.first().at(1).value<QSharedPointer<RunData>>();
        QCOMPARE(run->record().status, RunStatus::Failed);
        QVERIFY2(run->record().error.contains(QStringLiteral("not a working ddplab-engine")), qPrintable(run->record().error));
        QCOMPARE(run->record().exitCode, 1);
        bool warnedAboutOutput = false;
        for (const QList<QVariant>& message : warnings)
            warnedAboutOutput = warnedAboutOutput || message.first().toString().contains(QStringLiteral("malformed"));
        QVERIFY(warnedAboutOutput);
        QFile stderrLog(RunStore::stderrPath(run->record()));
        QVERIFY(stderrLog.open(QIODevice::ReadOnly));
        QCOMPARE(stderrLog.readAll(), QByteArray("oops\n"));
        QCOMPARE(store.listRuns().first().status, RunStatus::Failed);
    }

    void theEnginesStderrArrivesAsWholeCappedLines()
    {
        // Through the one line reader: a line written in two pieces is one line, a line past
        // 64 KiB is its first 4 KiB and a note, and the last line without its newline still comes.
        QTemporaryDir dir;
        const QString chatty = writeExecutable(dir, QStringLiteral("chatty"),
                                               "#!/bin/sh\nprintf 'first ' >&2\nsleep 0.2\nprintf 'half\\nsecond\\n' >&2\n"
                                               "head -c 70000 /dev/zero | tr '\\000' x >&2\nprintf '\\nlast, no newline' >&2\nexit 1\n");
        const RunStore store(dir.filePath(QStringLiteral("runs")));
        LabSession session(store, chatty);
        QSignalSpy batches(&session, &LabSession::stderrLines);
        QSignalSpy done(&session, &LabSession::sequenceFinished);
        session.start({{QStringLiteral("x"), QStringLiteral("x"), QString(), coreConfigOf({{QStringLiteral("world_size"), 1}}).value()}});
        QVERIFY(done.wait(kPatienceMs));
        QStringList lines;
        for (const QList<QVariant>& batch : batches)
            lines += batch.first().toStringList();
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("first half"));
        QCOMPARE(lines[1], QStringLiteral("second"));
        QVERIFY2(lines[2].startsWith(QString(4096, QLatin1Char('x')) + QStringLiteral("… (a line of ")), qPrintable(lines[2].right(80)));
        QVERIFY2(lines[2].endsWith(QStringLiteral(" bytes, cut)")) && lines[2].size() < 4200, qPrintable(lines[2].right(80)));
        QCOMPARE(lines[3], QStringLiteral("last, no newline"));
    }

    void aFailingRankEndsTheRunWithTheEnginesMessage()
    {
        QTemporaryDir dir;
        const RunStore store(dir.filePath(QStringLiteral("runs")));
        LabSession sequence(store, ddplab::test::enginePath());
        QSignalSpy done(&sequence, &LabSession::sequenceFinished);
        QSignalSpy finishedRuns(&sequence, &LabSession::runFinished);
        const QJsonObject config = QJsonDocument::fromJson(R"({"world_size": 2, "batch_size": 4, "num_examples": 64,
            "fail_at": "1:3"})").object();
        sequence.start({{QStringLiteral("doomed"), QStringLiteral("doomed"), QString(), coreConfigOf(config).value()}});
        QVERIFY(done.wait(kPatienceMs));
        const auto run = finishedRuns.first().at(1).value<QSharedPointer<RunData>>();
        QCOMPARE(run->record().status, RunStatus::Failed);
        QCOMPARE(run->record().exitCode, 4);
        // The engine's sentence, as it wrote it in its error event, naming the failed rank.
        QVERIFY2(run->record().error.startsWith(QStringLiteral("rank 1 failed: injected failure at step 3")),
                 qPrintable(run->record().error));
        QCOMPARE(run->record().error, run->error().value(QStringLiteral("message")).toString());
        // The two steps every rank completed before the failure are kept.
        QCOMPARE(run->stepCount(), 2);
        const QList<RunRecord> stored = store.listRuns();
        QCOMPARE(stored.first().exitCode, 4);
        QCOMPARE(store.loadRun(stored.first())->stepCount(), run->stepCount());
    }

    // An advice's phases (sequences while it holds the lab) are asked of one engine, which stays
    // idle between them and ends when the lab is let go; a sequence nobody holds the lab for ends
    // its engine as it ends.
    void anAdvicesSequencesShareOneEngine()
    {
        QTemporaryDir dir;
        const RunStore store(dir.filePath(QStringLiteral("runs")));
        LabSession session(store, ddplab::test::enginePath());
        QSignalSpy finishedRuns(&session, &LabSession::runFinished);
        ddplab::ui::test::ShortPhases phases(session, kPatienceMs);
        QVERIFY(session.claim(Busy::Advice));
        QVERIFY(phases.run(QStringLiteral("phase 1")));
        const qint64 engine = session.engineProcessId();
        QVERIFY(engine > 0);  // kept, idle
        QVERIFY(phases.run(QStringLiteral("phase 2")));
        QCOMPARE(session.engineProcessId(), engine);
        QCOMPARE(finishedRuns.size(), 2);
        for (const QList<QVariant>& finished : finishedRuns) {
            const auto run = finished.at(1).value<QSharedPointer<RunData>>();
            QCOMPARE(run->record().status, RunStatus::Finished);
            QCOMPARE(run->record().enginePid, engine);
        }
        // Let go, the engine ends; a sequence started at once (the next advice) waits for it to
        // be gone and starts its own ("QProcess::start: Process is already running" before).
        QTest::failOnWarning(QRegularExpression(QStringLiteral("already running")));
        session.release(Busy::Advice);
        QVERIFY(phases.run(QStringLiteral("a run alone")));
        QVERIFY(finishedRuns.last().at(1).value<QSharedPointer<RunData>>()->record().enginePid != engine);
        QTRY_COMPARE_WITH_TIMEOUT(session.engineProcessId(), qint64(0), kPatienceMs);
        QCOMPARE(session.activity().busy(), Busy::Idle);
    }

    // The kept engine dies as the next phase's run is asked of it (a host's engine whose dropped
    // connection this side had not yet seen): the run never began, and is asked of a new engine
    // instead of failing the phase as "killed by a signal".
    void aKeptEngineGoneWithoutAWordIsReplacedForTheRun()
    {
        QTemporaryDir dir;
        // The first engine passes the first run on and dies, without a word, at the second ask;
        // any later start is the engine itself.
        const QString engine = writeExecutable(dir, QStringLiteral("engine.sh"), QStringLiteral(R"(#!/bin/sh
if [ -e '%1/used' ]; then exec '%2' "$@"; fi
: > '%1/used'
mkfifo '%1/input'
'%2' "$@" < '%1/input' &
exec 3> '%1/input'
IFS= read -r ask && printf '%s\n' "$ask" >&3
IFS= read -r ask
kill -9 $!
exit 1
)").arg(dir.path(), ddplab::test::enginePath()).toUtf8());
        const RunStore store(dir.filePath(QStringLiteral("runs")));
        LabSession session(store, engine);
        QSignalSpy finishedRuns(&session, &LabSession::runFinished);
        QSignalSpy log(&session, &LabSession::logMessage);
        ddplab::ui::test::ShortPhases phases(session, kPatienceMs);
        QVERIFY(session.claim(Busy::Advice));
        QVERIFY2(phases.run(QStringLiteral("phase 1")), qPrintable(session.runs().last()->record().error));
        const qint64 first = session.engineProcessId();
        QVERIFY(first > 0);  // kept
        QVERIFY2(phases.run(QStringLiteral("phase 2")), qPrintable(session.runs().last()->record().error));
        QCOMPARE(finishedRuns.size(), 2);
        const auto run = finishedRuns.last().at(1).value<QSharedPointer<RunData>>();
        QCOMPARE(run->record().status, RunStatus::Finished);
        QVERIFY(run->record().enginePid != first);
        QCOMPARE(run->record().enginePid, session.engineProcessId());
        QVERIFY(session.engineStartSeconds() > 0);  // the phase paid a start: the advice's pace leaves it out
        QCOMPARE(store.listRuns().size(), 2);       // asked again in its own folder, not as another run
        const bool said = std::any_of(log.begin(), log.end(), [](const QList<QVariant>& message) {
            return message.first().toString().startsWith(QStringLiteral("The engine kept from the sequence before had gone (exit code 1); \"phase 2\""));
        });
        QVERIFY(said);
        session.release(Busy::Advice);
        QTRY_COMPARE_WITH_TIMEOUT(session.engineProcessId(), qint64(0), kPatienceMs);
    }

    void anEngineThatNeverSpeaksIsStoppedAndNamed()
    {
        // A program that prints nothing (a wrong binary, a remote command that hangs) kept
        // `ddplab --quit` waiting for good: without a hello in time, the run fails, naming it.
        QTemporaryDir dir;
        const QString silent = dir.filePath(QStringLiteral("silent-engine"));
        QFile script(silent);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\nexec sleep 600\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const RunStore store(dir.filePath(QStringLiteral("runs")));
        LabSession sequence(store, silent);
        sequence.setHelloPatience(300);
        QSignalSpy done(&sequence, &LabSession::sequenceFinished);
        QSignalSpy finishedRuns(&sequence, &LabSession::runFinished);
        QElapsedTimer clock;
        clock.start();
        sequence.start({{QStringLiteral("mute"), QStringLiteral("mute"), QString(), ddplab::Config{}}});
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
        QCOMPARE(done.first().first().toBool(), false);
        const auto run = finishedRuns.first().at(1).value<QSharedPointer<RunData>>();
        QCOMPARE(run->record().status, RunStatus::Failed);
        QVERIFY2(run->record().error.startsWith(QStringLiteral("The engine at %1 (--engine, DDPLAB_ENGINE) printed nothing within 0.3 s")
                                                    .arg(silent)),
                 qPrintable(run->record().error));
        QCOMPARE(store.listRuns().first().status, RunStatus::Failed);
    }

    void devicesQueryIsRead()
    {
        const QueryResult result = EngineQuery::runBlocking(ddplab::test::enginePath(), {QStringLiteral("devices")});
        QVERIFY2(result.ok, qPrintable(result.error));
        const DeviceInventory inventory = DeviceInventory::fromJson(result.object);
        QVERIFY(inventory.isKnown());
        QCOMPARE(inventory.engineVersion(), QStringLiteral(DDPLAB_VERSION));
        QVERIFY(!inventory.torchVersion().isEmpty());
        QCOMPARE(inventory.cudaDeviceCount(), result.object.value(QStringLiteral("cuda_device_count")).toInt());
        // One limit for ranks, the engine's own (the panel said 16 while the engine took 128).
        QCOMPARE(inventory.maxRanks(QStringLiteral("cpu")), int(ddplab::limits::kMaxRanks));
        QCOMPARE(inventory.protocolVersion(), ddplab::kProtocolVersion);
        QVERIFY(inventory.machine().cpuCores > 0 && inventory.machine().memoryAvailableBytes > 0);

        EngineQuery query;
        QSignalSpy finished(&query, &EngineQuery::finished);
        query.start(QStringLiteral("/nonexistent/ddplab-engine"), {QStringLiteral("devices")});
        QVERIFY(finished.wait(kPatienceMs));
        const QueryResult failed = finished.first().first().value<QueryResult>();
        QVERIFY(!failed.ok);
        QVERIFY(failed.error.contains(QStringLiteral("/nonexistent/ddplab-engine")));
    }

    // Every engine the lab starts, a run's or a query's, gets glibc's huge-page heap added to
    // the tunables the lab has, and one the lab already names keeps its value.
    void anEngineStartsWithTheHugePageHeap()
    {
        QCOMPARE(withHugePageHeap(QString()), QStringLiteral("glibc.malloc.hugetlb=1"));
        QCOMPARE(withHugePageHeap(QStringLiteral("glibc.malloc.arena_max=2")),
                 QStringLiteral("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"));
        QCOMPARE(withHugePageHeap(QStringLiteral("glibc.malloc.hugetlb=0")), QStringLiteral("glibc.malloc.hugetlb=0"));
        QCOMPARE(withHugePageHeap(QStringLiteral("glibc.malloc.hugetlb_x=1")),
                 QStringLiteral("glibc.malloc.hugetlb_x=1:glibc.malloc.hugetlb=1"));

        // A stand-in engine says what it was given: as a query's answer, and as a run's event.
        QTemporaryDir dir;
        const QString engine = writeExecutable(dir, QStringLiteral("ddplab-engine"),
                                               "#!/bin/sh\nprintf '{\"type\": \"tunables\", \"value\": \"%s\"}\\n' \"$GLIBC_TUNABLES\"\n");
        const QByteArray before = qgetenv("GLIBC_TUNABLES");
        const auto restore = qScopeGuard([&] {
            if (before.isNull())
                qunsetenv("GLIBC_TUNABLES");
            else
                qputenv("GLIBC_TUNABLES", before);
        });
        qputenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2");  // set after the lab started: still passed on
        const QString expected = QStringLiteral("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");

        const QueryResult answer = EngineQuery::runBlocking(engine, {QStringLiteral("devices")});
        QVERIFY2(answer.ok, qPrintable(answer.error));
        QCOMPARE(answer.object.value(QStringLiteral("value")).toString(), expected);

        EngineProcess run;
        Collected collected;
        collect(run, collected);
        QSignalSpy finished(&run, &EngineProcess::finished);
        run.start(engine, {QStringLiteral("run")});
        QVERIFY(finished.wait(kPatienceMs));
        QCOMPARE(countOfType(collected.events, "tunables"), 1);
        QCOMPARE(collected.events.first().value(QStringLiteral("value")).toString(), expected);
    }

    // Issue 41: an inspect that died of SIGSEGV was reported through --advise as "exit code 11".
    void aQueryKilledByASignalSaysTheSignal()
    {
        const QueryResult result = EngineQuery::runBlocking(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("kill -SEGV $$")},
                                                            kPatienceMs, QStringLiteral("inspection"));
        QVERIFY(!result.ok);
        QVERIFY2(result.error.contains(QStringLiteral("failed (killed by signal 11, SIGSEGV)")), qPrintable(result.error));
        QVERIFY2(!result.error.contains(QStringLiteral("exit code")), qPrintable(result.error));
    }
};

DDPLAB_UI_TEST_MAIN(TestEngineProcess)
#include "tst_engine_process.moc"
