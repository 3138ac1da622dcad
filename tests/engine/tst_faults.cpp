// SPDX-License-Identifier: GPL-3.0-or-later
// A failing or killed rank stops the whole run promptly, the error names the rank, the exit
// code says what happened, the metrics already streamed stay in the events file, and no
// process of the run is left behind; SIGINT/SIGTERM cancel cleanly and SIGKILL of the
// launcher takes every worker with it.

#include "core/protocol.hpp"
#include "support/engine_process.hpp"
#include "support/process_table.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace ddplab;
using ddplab::test::EngineResult;

namespace {

// A safety net for waiting on the engine: generous, since no test may depend on speed.
constexpr int kPatienceMs = 60000;
// Cancel ends every rank and the launcher within 5 s whatever state the ranks are in.
constexpr qint64 kCancelBoundMs = 5000;

// A run that would go on for hours: stopping it is the point of each test.
QStringList endlessRun(int worldSize, const QString& eventsPath)
{
    return {QStringLiteral("run"),          QStringLiteral("--world-size"),   QString::number(worldSize),
            QStringLiteral("--batch-size"), QStringLiteral("1"),              QStringLiteral("--num-examples"),
            QStringLiteral("64"),           QStringLiteral("--epochs"),       QStringLiteral("1000000"),
            QStringLiteral("--lr"),         QStringLiteral("1e-6"),           QStringLiteral("--events"),
            eventsPath};
}

class RunningEngine {
public:
    explicit RunningEngine(const QStringList& arguments, const QString& tmpdir = QString())
    {
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process,
                         [this] { m_stdout += m_process.readAllStandardOutput(); });
        if (!tmpdir.isEmpty()) {
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(QStringLiteral("TMPDIR"), tmpdir);
            m_process.setProcessEnvironment(environment);
        }
        m_process.start(ddplab::test::enginePath(), arguments);
    }
    ~RunningEngine()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    bool waitForSteps(int count)
    {
        QElapsedTimer timer;
        timer.start();
        while (m_stdout.count("\"type\":\"step\"") < count && timer.elapsed() < kPatienceMs) {
            if (m_process.state() == QProcess::NotRunning)
                return false;
            m_process.waitForReadyRead(200);
        }
        return m_stdout.count("\"type\":\"step\"") >= count;
    }

    qint64 pid() const { return m_process.processId(); }

    qint64 rankPid(int rank) const
    {
        const QString name = QStringLiteral("ddplab-rank%1").arg(rank);
        for (qint64 child : ddplab::test::childrenOf(pid())) {
            if (ddplab::test::processName(child) == name)
                return child;
        }
        return -1;
    }

    // How long the engine takes to end from now (-1: not within `limitMs`).
    qint64 msUntilFinished(int limitMs)
    {
        QElapsedTimer clock;
        clock.start();
        if (!m_process.waitForFinished(limitMs))
            return -1;
        return clock.elapsed();
    }

    EngineResult finish()
    {
        m_process.waitForFinished(kPatienceMs);
        m_stdout += m_process.readAllStandardOutput();
        EngineResult result;
        result.exitCode = m_process.exitCode();
        result.crashed = m_process.exitStatus() == QProcess::CrashExit;
        result.events = ddplab::test::parseEvents(m_stdout, &result.badLines);
        result.stderrText = m_process.readAllStandardError();
        return result;
    }

private:
    QProcess m_process;
    QByteArray m_stdout;
};

int countOfType(const QList<QJsonObject>& events, const QString& type)
{
    return int(std::count_if(events.begin(), events.end(),
                             [&](const QJsonObject& e) { return e.value(QStringLiteral("type")).toString() == type; }));
}

}  // namespace

class FaultsTest : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(m_dir.isValid()); }
    void injectedErrorNamesRank_data();
    void injectedErrorNamesRank();
    void injectedCrashNamesRank();
    void killedWorkerStopsRun();
    void cancelStopsEveryWorker_data();
    void cancelStopsEveryWorker();
    void killedLauncherLeavesNoWorker();
    void cancelWithAStoppedRank();
    void cancelWithAHungRank_data();
    void cancelWithAHungRank();
    void stalledReaderDoesNotHoldUpCancel();
    void rankThatStopsMakingProgressIsNamed_data();
    void rankThatStopsMakingProgressIsNamed();
    void aLoneRankThatStopsMakingProgressIsNamed();
    void aRankOutOfMemoryIsNamedInOneSentence();
    void fullDiskStopsTheRun();
    void killedLauncherDirectoryIsRemovedByTheNextRun();

private:
    QString eventsPath(const char* name) const { return m_dir.filePath(QLatin1String(name) + QStringLiteral(".jsonl")); }
    // A TMPDIR of the test's own, so that run directories left behind can be seen.
    QString tmpdir() const
    {
        const QString path = m_dir.filePath(QStringLiteral("tmp"));
        QDir().mkpath(path);
        return path;
    }
    QStringList runDirectories() const
    {
        return QDir(tmpdir()).entryList({QStringLiteral("ddplab-run-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
    }
    static void verifyNothingLeft(const QString& marker)
    {
        QTRY_VERIFY_WITH_TIMEOUT(ddplab::test::processesWithArgument(marker).isEmpty(), kPatienceMs);
    }

    QTemporaryDir m_dir;
};

void FaultsTest::injectedErrorNamesRank_data()
{
    QTest::addColumn<int>("worldSize");
    QTest::addColumn<int>("rank");
    QTest::addColumn<int>("step");
    // The peers of the failing rank fail a moment later ("connection reset"); the launcher
    // must still name the rank that failed first, whichever it is.
    QTest::newRow("2 ranks, rank 1 at step 2") << 2 << 1 << 2;
    QTest::newRow("2 ranks, rank 1 at step 2 again") << 2 << 1 << 2;
    QTest::newRow("3 ranks, rank 2 at step 1") << 3 << 2 << 1;
    QTest::newRow("4 ranks, rank 2 at step 3") << 4 << 2 << 3;
    QTest::newRow("4 ranks, rank 0 at step 2") << 4 << 0 << 2;
}

void FaultsTest::injectedErrorNamesRank()
{
    QFETCH(int, worldSize);
    QFETCH(int, rank);
    QFETCH(int, step);
    const QString events = eventsPath("injected-error");
    QFile::remove(events);
    const EngineResult result = ddplab::test::runEngine(
        endlessRun(worldSize, events) + QStringList{QStringLiteral("--fail-at"), QStringLiteral("%1:%2").arg(rank).arg(step)});
    QCOMPARE(result.exitCode, int(kExitRankFailed));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), rank);
    const QString expected = QStringLiteral("rank %1 failed: injected failure at step %2").arg(rank).arg(step);
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(expected), qPrintable(result.summaryText()));
    QCOMPARE(countOfType(result.events, QStringLiteral("error")), 1);  // one error, about the culprit
    // The steps completed everywhere before the failure stay on disk, and the error ends the file.
    const QList<QJsonObject> onDisk = ddplab::test::readEventsFile(events);
    QCOMPARE(countOfType(onDisk, QStringLiteral("step")), step - 1);
    QCOMPARE(onDisk.last().value(QStringLiteral("rank")).toInt(), rank);
    verifyNothingLeft(events);
}

void FaultsTest::injectedCrashNamesRank()
{
    const QString events = eventsPath("injected-crash");
    const EngineResult result =
        ddplab::test::runEngine(endlessRun(4, events) + QStringList{QStringLiteral("--fail-at"), QStringLiteral("1:2:crash")});
    QCOMPARE(result.exitCode, int(kExitRankFailed));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 1);
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("killed by signal 9 (SIGKILL)")),
             qPrintable(result.summaryText()));
    verifyNothingLeft(events);
}

void FaultsTest::killedWorkerStopsRun()
{
    const QString events = eventsPath("killed-worker");
    RunningEngine engine(endlessRun(4, events));
    QVERIFY(engine.waitForSteps(5));
    const qint64 victim = engine.rankPid(3);
    QVERIFY(victim > 0);
    QCOMPARE(::kill(pid_t(victim), SIGKILL), 0);
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitRankFailed));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("type")).toString(), QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 3);
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("rank 3 failed")),
             qPrintable(result.summaryText()));
    QVERIFY(countOfType(ddplab::test::readEventsFile(events), QStringLiteral("step")) >= 5);
    verifyNothingLeft(events);
}

void FaultsTest::cancelStopsEveryWorker_data()
{
    QTest::addColumn<int>("signalNumber");
    QTest::addColumn<QString>("name");
    QTest::newRow("SIGTERM (the window's Stop)") << int(SIGTERM) << "SIGTERM";
    QTest::newRow("SIGINT (Ctrl-C)") << int(SIGINT) << "SIGINT";
}

void FaultsTest::cancelStopsEveryWorker()
{
    QFETCH(int, signalNumber);
    QFETCH(QString, name);
    const QString events = eventsPath(signalNumber == SIGTERM ? "sigterm" : "sigint");
    RunningEngine engine(endlessRun(3, events));
    QVERIFY(engine.waitForSteps(3));
    QCOMPARE(ddplab::test::childrenOf(engine.pid()).size(), 3);
    QCOMPARE(::kill(pid_t(engine.pid()), signalNumber), 0);
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitCancelled));
    const QString message = result.events.last().value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(QStringLiteral("cancelled by ") + name), qPrintable(message));
    QVERIFY(!result.events.last().contains(QStringLiteral("rank")));
    const QList<QJsonObject> onDisk = ddplab::test::readEventsFile(events);
    QVERIFY(countOfType(onDisk, QStringLiteral("step")) >= 3);
    QCOMPARE(onDisk.last().value(QStringLiteral("type")).toString(), QStringLiteral("error"));
    verifyNothingLeft(events);
}

void FaultsTest::killedLauncherLeavesNoWorker()
{
    const QString events = eventsPath("killed-launcher");
    RunningEngine engine(endlessRun(4, events));
    QVERIFY(engine.waitForSteps(3));
    QCOMPARE(ddplab::test::processesWithArgument(events).size(), 5);  // the launcher and 4 ranks
    QCOMPARE(::kill(pid_t(engine.pid()), SIGKILL), 0);
    verifyNothingLeft(events);
    QVERIFY(countOfType(ddplab::test::readEventsFile(events), QStringLiteral("step")) >= 3);
}

void FaultsTest::cancelWithAStoppedRank()
{
    // SIGTERM used to be sent again every 250 ms and SIGKILL never came: with one rank stopped,
    // Ctrl-C hung for ever.
    const QString events = eventsPath("stopped-rank");
    RunningEngine engine(endlessRun(4, events), tmpdir());
    QVERIFY(engine.waitForSteps(3));
    const qint64 stopped = engine.rankPid(2);
    QVERIFY(stopped > 0);
    QCOMPARE(::kill(pid_t(stopped), SIGSTOP), 0);
    QCOMPARE(::kill(pid_t(engine.pid()), SIGTERM), 0);
    const qint64 took = engine.msUntilFinished(kPatienceMs);
    QVERIFY2(took >= 0 && took < kCancelBoundMs, qPrintable(QStringLiteral("took %1 ms").arg(took)));
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitCancelled));
    verifyNothingLeft(events);
    QVERIFY(runDirectories().isEmpty());
}

void FaultsTest::cancelWithAHungRank_data()
{
    QTest::addColumn<int>("interrupts");
    QTest::addColumn<qint64>("boundMs");
    // A rank that ignores SIGTERM is killed after the 2 s grace; a second Ctrl-C kills at once.
    QTest::newRow("one Ctrl-C") << 1 << kCancelBoundMs;
    QTest::newRow("two Ctrl-C") << 2 << qint64(1500);
}

void FaultsTest::cancelWithAHungRank()
{
    QFETCH(int, interrupts);
    QFETCH(qint64, boundMs);
    const QString events = eventsPath("hung-rank");
    RunningEngine engine(endlessRun(4, events) + QStringList{QStringLiteral("--fail-at"), QStringLiteral("2:3:hang")}, tmpdir());
    QVERIFY(engine.waitForSteps(2));
    QTest::qWait(300);  // rank 2 is at step 3 now, ignoring SIGTERM
    QCOMPARE(::kill(pid_t(engine.pid()), SIGINT), 0);
    if (interrupts == 2) {
        QTest::qWait(200);
        QCOMPARE(::kill(pid_t(engine.pid()), SIGINT), 0);
    }
    const qint64 took = engine.msUntilFinished(kPatienceMs);
    QVERIFY2(took >= 0 && took < boundMs, qPrintable(QStringLiteral("took %1 ms").arg(took)));
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitCancelled));
    QVERIFY2(result.events.last().value(QStringLiteral("message")).toString().contains(QStringLiteral("cancelled by SIGINT")),
             qPrintable(result.summaryText()));
    verifyNothingLeft(events);
    QVERIFY(runDirectories().isEmpty());
}

void FaultsTest::stalledReaderDoesNotHoldUpCancel()
{
    // stdout is a pipe nobody reads: the launcher's writes used to block, and SIGTERM did
    // nothing for 20 s and more. Every event still reaches the events file.
    const QString events = eventsPath("stalled-reader");
    QProcess pipeline;
    const QString command = QStringLiteral("exec %1 2>/dev/null | sleep 600")
                                .arg((QStringList{ddplab::test::enginePath()} + endlessRun(4, events)).join(QLatin1Char(' ')));
    pipeline.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    QVERIFY(pipeline.waitForStarted());
    // Long enough for the pipe (64 KiB) to fill and the launcher's own buffer to hold more.
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(events).size() > 512 * 1024, kPatienceMs);
    qint64 launcherPid = -1;
    for (qint64 pid : ddplab::test::processesWithArgument(events)) {
        if (ddplab::test::processName(pid) == QLatin1String("ddplab-engine"))
            launcherPid = pid;
    }
    QVERIFY(launcherPid > 0);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(::kill(pid_t(launcherPid), SIGTERM), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!ddplab::test::isRunning(launcherPid), kPatienceMs);
    QVERIFY2(clock.elapsed() < kCancelBoundMs, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    // The pipe's idle reader is the shell's child: killing the shell alone left it to outlive the
    // suite by 10 minutes, holding whatever the suite inherited (a build slot's lock among it).
    for (const qint64 pid : ddplab::test::descendantsOf(pipeline.processId())) {
        if (ddplab::test::processName(pid) == QLatin1String("sleep"))
            ::kill(pid_t(pid), SIGKILL);
    }
    pipeline.kill();
    pipeline.waitForFinished();
    verifyNothingLeft(events);
    const QList<QJsonObject> onDisk = ddplab::test::readEventsFile(events);
    QCOMPARE(onDisk.last().value(QStringLiteral("type")).toString(), QStringLiteral("error"));
    QVERIFY(onDisk.last().value(QStringLiteral("message")).toString().contains(QStringLiteral("cancelled by SIGTERM")));
}

void FaultsTest::rankThatStopsMakingProgressIsNamed_data()
{
    QTest::addColumn<QString>("how");
    QTest::newRow("stopped with SIGSTOP") << QStringLiteral("stop");
    QTest::newRow("stuck, ignoring SIGTERM") << QStringLiteral("hang");
}

void FaultsTest::rankThatStopsMakingProgressIsNamed()
{
    // Its peers time out in a collective after collective_timeout; the launcher names the rank
    // they waited for (it named one of the peers, after a fixed 300 s).
    QFETCH(QString, how);
    const QString events = eventsPath("stalled-rank");
    QStringList arguments = endlessRun(4, events) + QStringList{QStringLiteral("--collective-timeout"), QStringLiteral("3")};
    if (how == QLatin1String("hang"))
        arguments += QStringList{QStringLiteral("--fail-at"), QStringLiteral("2:4:hang")};
    RunningEngine engine(arguments, tmpdir());
    QVERIFY(engine.waitForSteps(3));
    if (how == QLatin1String("stop"))
        QCOMPARE(::kill(pid_t(engine.rankPid(2)), SIGSTOP), 0);
    const qint64 took = engine.msUntilFinished(kPatienceMs);
    // The timeout, a second of grace for the peers, a moment to stop the rest.
    QVERIFY2(took >= 0 && took < 3000 + kCancelBoundMs, qPrintable(QStringLiteral("took %1 ms").arg(took)));
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitRankFailed));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 2);
    const QString message = error.value(QStringLiteral("message")).toString();
    QVERIFY2(message.startsWith(QStringLiteral("rank 2 stopped making progress")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("waited 3 s")), qPrintable(message));
    verifyNothingLeft(events);
    QVERIFY(runDirectories().isEmpty());
}

void FaultsTest::aLoneRankThatStopsMakingProgressIsNamed()
{
    // One rank has no peer to time it out in a collective: the run never ended. The launcher
    // watches it itself.
    const QString events = eventsPath("stalled-lone-rank");
    RunningEngine engine(endlessRun(1, events) + QStringList{QStringLiteral("--collective-timeout"), QStringLiteral("3"),
                                                             QStringLiteral("--fail-at"), QStringLiteral("0:20:hang")},
                         tmpdir());
    QVERIFY(engine.waitForSteps(19));
    const qint64 took = engine.msUntilFinished(kPatienceMs);
    // The timeout, then SIGTERM (ignored by the stuck rank) and SIGKILL 2 s later.
    QVERIFY2(took >= 0 && took < 3000 + kCancelBoundMs, qPrintable(QStringLiteral("took %1 ms").arg(took)));
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitRankFailed));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 0);
    const QString message = error.value(QStringLiteral("message")).toString();
    QVERIFY2(message.startsWith(QStringLiteral("rank 0 stopped making progress after step 19; it made no step for 3 s (collective_timeout)")),
             qPrintable(message));
    QCOMPARE(countOfType(ddplab::test::readEventsFile(events), QStringLiteral("step")), 19);
    verifyNothingLeft(events);
    QVERIFY(runDirectories().isEmpty());
}

void FaultsTest::aRankOutOfMemoryIsNamedInOneSentence()
{
    // A failed allocation was reported as LibTorch's 38-line backtrace.
    const QString events = eventsPath("out-of-memory");
    const EngineResult result =
        ddplab::test::runEngine(endlessRun(2, events) + QStringList{QStringLiteral("--fail-at"), QStringLiteral("1:5:oom")});
    QCOMPARE(result.exitCode, int(kExitRankFailed));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 1);
    const QString message = error.value(QStringLiteral("message")).toString();
    QVERIFY2(message.startsWith(QStringLiteral("rank 1 ran out of memory at step 5 (batch 1): DefaultCPUAllocator: can't allocate memory")),
             qPrintable(message));
    QVERIFY2(!message.contains(QLatin1Char('\n')) && !message.contains(QStringLiteral("frame #")), qPrintable(message));
    // The backtrace is kept where the lab keeps a run's messages: stderr (the run's stderr.log).
    QVERIFY2(result.stderrText.contains("frame #"), result.stderrText.constData());
    verifyNothingLeft(events);
}

void FaultsTest::fullDiskStopsTheRun()
{
    // It said "the reader of the event stream went away" with exit 5.
    RunningEngine engine({QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("2"), QStringLiteral("--epochs"),
                          QStringLiteral("1000000"), QStringLiteral("--batch-size"), QStringLiteral("1"),
                          QStringLiteral("--events"), QStringLiteral("/dev/full")},
                         tmpdir());
    const qint64 took = engine.msUntilFinished(kPatienceMs);
    QVERIFY2(took >= 0 && took < kCancelBoundMs * 4, qPrintable(QStringLiteral("took %1 ms").arg(took)));
    const EngineResult result = engine.finish();
    QCOMPARE(result.exitCode, int(kExitOutputError));
    const QJsonObject error = result.events.last();
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("events"));
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("the disk is full")),
             qPrintable(result.summaryText()));
    QCOMPARE(countOfType(result.events, QStringLiteral("step")), 0);  // nothing the file could not keep
    QVERIFY(runDirectories().isEmpty());
}

void FaultsTest::killedLauncherDirectoryIsRemovedByTheNextRun()
{
    const QString events = eventsPath("killed-launcher-directory");
    {
        RunningEngine engine(endlessRun(2, events), tmpdir());
        QVERIFY(engine.waitForSteps(2));
        QCOMPARE(runDirectories().size(), 1);
        QCOMPARE(::kill(pid_t(engine.pid()), SIGKILL), 0);
        engine.msUntilFinished(kPatienceMs);
        verifyNothingLeft(events);
    }
    QCOMPARE(runDirectories().size(), 1);  // SIGKILL leaves no chance to clean up
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TMPDIR"), tmpdir());
    const EngineResult next = ddplab::test::runEngine({QStringLiteral("run"), QStringLiteral("--num-examples"), QStringLiteral("8")},
                                                      kPatienceMs, environment);
    QVERIFY2(next.exitCode == 0, qPrintable(next.summaryText()));
    QVERIFY2(runDirectories().isEmpty(), qPrintable(runDirectories().join(QLatin1Char(' '))));
}

QTEST_GUILESS_MAIN(FaultsTest)
#include "tst_faults.moc"
