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
    explicit RunningEngine(const QStringList& arguments)
    {
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process,
                         [this] { m_stdout += m_process.readAllStandardOutput(); });
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

private:
    QString eventsPath(const char* name) const { return m_dir.filePath(QLatin1String(name) + QStringLiteral(".jsonl")); }
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

QTEST_GUILESS_MAIN(FaultsTest)
#include "tst_faults.moc"
