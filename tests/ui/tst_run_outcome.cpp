// SPDX-License-Identifier: GPL-3.0-or-later
// How a run ended is decided in one place (client/runs/run_outcome): from the run's own
// end (run_end with its code, summary, error event) and, when the engine went first, from how
// its process went. Every branch, with the status, code and sentence a person then sees.

#include "client/engine/engine_target.hpp"
#include "client/runs/run_outcome.hpp"
#include "core/protocol_names.hpp"
#include "ui_test_main.hpp"

using namespace ddplab::ui;

namespace {

EngineExit engineExit(int code, bool crashed = false, bool failedToStart = false, bool stopRequested = false,
                      const QString& message = {})
{
    EngineExit exit;
    exit.exitCode = code;
    exit.crashed = crashed;
    exit.failedToStart = failedToStart;
    exit.stopRequested = stopRequested;
    exit.message = message;
    return exit;
}

}  // namespace

class TestRunOutcome : public QObject {
    Q_OBJECT

private slots:
    void aFinishedRunWhoseLossBlewUpDiverged()
    {
        // It trained to its end (exit 0, a summary): diverged, not failed, with where and how.
        RunEnding ending;
        ending.exitCode = 0;
        ending.hasSummary = true;
        ending.divergence = Divergence{28, 3e27, 2.3};
        const RunOutcome outcome = decideOutcome(ending);
        QCOMPARE(outcome.status, RunStatus::Diverged);
        QCOMPARE(outcome.exitCode, 0);
        QCOMPARE(outcome.divergedAtStep, qint64(28));
        QCOMPARE(outcome.error, QStringLiteral("the loss grew from 2.3 to 3e+27 at step 28"));
        RunRecord record;
        recordOutcome(record, outcome);
        QCOMPARE(record.statusLine(), QStringLiteral("diverged at step 28"));
        // A run that failed or was stopped keeps that status, whatever its loss did.
        ending.exitCode = int(ddplab::kExitCancelled);
        ending.hasSummary = false;
        QCOMPARE(decideOutcome(ending).status, RunStatus::Cancelled);
    }

    void decides_data()
    {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("hasSummary");
        QTest::addColumn<QString>("reported");
        QTest::addColumn<QString>("protocolProblem");
        QTest::addColumn<bool>("engineGone");
        QTest::addColumn<bool>("crashed");
        QTest::addColumn<bool>("failedToStart");
        QTest::addColumn<bool>("stopRequested");
        QTest::addColumn<QString>("remoteFailure");
        QTest::addColumn<bool>("sawHello");
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("errorContains");

        const int finished = int(RunStatus::Finished), failed = int(RunStatus::Failed), cancelled = int(RunStatus::Cancelled);
        const QString none;
        // name                             code hasSum reported  protocol  gone   crash  noStart stopReq remote  hello  status     code  error
        QTest::newRow("run_end 0 with summary") << 0 << true << none << none << false << false << false << false << none << true << finished << 0 << none;
        QTest::newRow("run_end 0 without summary") << 0 << false << none << none << false << false << false << false << none << true << failed << 0
                                                   << QStringLiteral("ended with code 0 without reporting an error or a summary");
        QTest::newRow("cancelled, nothing said") << int(ddplab::kExitCancelled) << false << none << none << false << false << false << false << none
                                                 << true << cancelled << 5 << QStringLiteral("cancelled");
        QTest::newRow("cancelled, reason said") << int(ddplab::kExitCancelled) << false << QStringLiteral("stopped by the reader") << none << false
                                                << false << false << false << none << true << cancelled << 5 << QStringLiteral("stopped by the reader");
        QTest::newRow("rank failed, reported") << int(ddplab::kExitRankFailed) << false << QStringLiteral("rank 1 failed at step 3") << none << false
                                               << false << false << false << none << true << failed << 4 << QStringLiteral("rank 1 failed at step 3");
        QTest::newRow("other protocol wins") << 0 << true << none << QStringLiteral("speaks event protocol 9") << false << false << false << false
                                             << none << true << failed << -1 << QStringLiteral("protocol 9");
        QTest::newRow("engine could not start") << -1 << false << none << none << true << false << true << false << none << false << failed << -1
                                                << QStringLiteral("no such program");
        QTest::newRow("ssh failed") << 255 << false << none << none << true << false << false << false << QStringLiteral("Cannot reach gpu-box")
                                    << false << failed << -1 << QStringLiteral("Cannot reach gpu-box");
        QTest::newRow("no engine there") << 127 << false << none << none << true << false << false << false
                                         << QStringLiteral("There is no engine at \"/no/such\" on gpu-box") << false << failed << -1
                                         << QStringLiteral("There is no engine at \"/no/such\" on gpu-box");
        QTest::newRow("killed while stopping") << -1 << false << none << none << true << true << false << true << none << true << cancelled << -1
                                               << QStringLiteral("no such program");
        QTest::newRow("killed unasked") << -1 << false << none << none << true << true << false << false << none << true << failed << -1
                                        << QStringLiteral("no such program");
        QTest::newRow("not an engine") << 3 << false << none << none << true << false << false << false << none << false << failed << 3
                                       << QStringLiteral("The program at /opt/x (--engine, DDPLAB_ENGINE) exited with code 3 without printing a single engine event");
        QTest::newRow("engine went, error reported") << 4 << false << QStringLiteral("rank 0 ran out of memory") << none << true << false << false
                                                     << false << none << true << failed << 4 << QStringLiteral("ran out of memory");
    }

    void decides()
    {
        QFETCH(int, exitCode);
        QFETCH(bool, hasSummary);
        QFETCH(QString, reported);
        QFETCH(QString, protocolProblem);
        QFETCH(bool, engineGone);
        QFETCH(bool, crashed);
        QFETCH(bool, failedToStart);
        QFETCH(bool, stopRequested);
        QFETCH(QString, remoteFailure);
        QFETCH(bool, sawHello);
        QFETCH(int, status);
        QFETCH(int, code);
        QFETCH(QString, errorContains);

        RunEnding ending;
        ending.exitCode = exitCode;
        ending.hasSummary = hasSummary;
        ending.reportedError = reported;
        ending.protocolProblem = protocolProblem;
        if (engineGone)
            ending.engineGone = engineExit(exitCode, crashed, failedToStart, stopRequested, QStringLiteral("no such program"));
        ending.remoteFailure = remoteFailure;
        ending.sawEngineHello = sawHello;
        ending.engineWhere = QStringLiteral("at /opt/x (--engine, DDPLAB_ENGINE)");

        const RunOutcome outcome = decideOutcome(ending);
        QCOMPARE(int(outcome.status), status);
        QCOMPARE(outcome.exitCode, code);
        if (errorContains.isEmpty())
            QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
        else
            QVERIFY2(outcome.error.contains(errorContains), qPrintable(outcome.error));
    }

    void aRemoteEngineIsNamedWithItsHostAndOption()
    {
        // A remote engine that spoke another protocol was named by the local path, with the
        // local options (--engine, DDPLAB_ENGINE): the one to change was the remote one.
        EngineTarget target;
        QCOMPARE(engineWhere(target, QStringLiteral("/here/ddplab-engine")), QStringLiteral("at /here/ddplab-engine (--engine, DDPLAB_ENGINE)"));
        QString error;
        target = parseEngineTarget(QStringLiteral("me@gpu1:2222"), QStringLiteral("/opt/lab/ddplab-engine"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString where = engineWhere(target, QStringLiteral("/here/ddplab-engine"));
        QCOMPARE(where, QStringLiteral("at \"/opt/lab/ddplab-engine\" on me@gpu1:2222 (--remote-engine, or Run on in Setup)"));
        RunEnding ending;
        ending.exitCode = 0;
        ending.sawEngineHello = false;
        ending.engineWhere = where;
        QVERIFY(decideOutcome(ending).error.startsWith(QStringLiteral("The program ") + where + QStringLiteral(" exited with code 0")));
    }
};

DDPLAB_UI_TEST_MAIN(TestRunOutcome)
#include "tst_run_outcome.moc"
