// SPDX-License-Identifier: GPL-3.0-or-later
// Reading what srun and the ranks said on stderr to name the rank that failed first. The texts
// are what Slurm 22.05 (Debian 12) printed running the lab's launch template (tests/slurm): a
// task killed mid-run (in both orders srun reported it), a rank failing with its own error, a
// stalled task, scancel; two rows show srun's lists of more tasks.

#include "launch/launcher_report.hpp"

#include <QtTest>

using namespace ddplab;

Q_DECLARE_METATYPE(std::optional<int>)

class LauncherReportTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void namesTheRankThatFailedFirst_data();
    void namesTheRankThatFailedFirst();
};

void LauncherReportTest::namesTheRankThatFailedFirst_data()
{
    QTest::addColumn<QStringList>("stderrLines");
    QTest::addColumn<bool>("reported");
    QTest::addColumn<std::optional<int>>("rank");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");

    QTest::newRow("task 1 killed, rank 0 loses its connection")
        << QStringList{QStringLiteral("ddplab-engine: rank 0: error: [./gloo/transport/tcp/pair.cc:589] Read error [127.0.0.1]:26518: Connection reset by peer"),
                       QStringLiteral("srun: error: vm: task 1: Killed"),
                       QStringLiteral("srun: launch/slurm: _step_signal: Terminating StepId=1002.0"),
                       QStringLiteral("slurmstepd-vm: error: *** STEP 1002.0 ON vm CANCELLED AT 2026-11-25T00:11:03 ***"),
                       QStringLiteral("srun: error: vm: task 0: Exited with exit code 4"),
                       QStringLiteral("srun: Force Terminated StepId=1002.0")}
        << true << std::optional<int>(1) << 4 << QStringLiteral("rank 1 died without a word (srun: \"task 1: Killed\" on vm)");
    // The same kill, srun quicker to see rank 0's exit than the killed task (as on a loaded CI
    // machine): rank 0 only lost its connection, the task killed after it is named.
    QTest::newRow("task 1 killed, rank 0's exit reported first")
        << QStringList{QStringLiteral("ddplab-engine: rank 0: error: [./gloo/transport/tcp/pair.cc:589] Read error [127.0.0.1]:26518: Connection reset by peer"),
                       QStringLiteral("srun: error: vm: task 0: Exited with exit code 4"),
                       QStringLiteral("srun: launch/slurm: _step_signal: Terminating StepId=1002.0"),
                       QStringLiteral("slurmstepd-vm: error: *** STEP 1002.0 ON vm CANCELLED AT 2026-11-25T00:11:03 ***"),
                       QStringLiteral("srun: error: vm: task 1: Killed"),
                       QStringLiteral("srun: Force Terminated StepId=1002.0")}
        << true << std::optional<int>(1) << 4 << QStringLiteral("rank 1 died without a word (srun: \"task 1: Killed\" on vm)");
    QTest::newRow("rank 1 fails with its own error, reported with rank 0")
        << QStringList{QStringLiteral("ddplab-engine: rank 1: error: injected failure at step 3 (--fail-at)"),
                       QStringLiteral("ddplab-engine: rank 0: error: [./gloo/transport/tcp/pair.cc:589] Read error [127.0.0.1]:4495: Connection reset by peer"),
                       QStringLiteral("srun: error: vm: tasks 0-1: Exited with exit code 4"),
                       QStringLiteral("srun: launch/slurm: _step_signal: Terminating StepId=1006.0")}
        << true << std::optional<int>(1) << 4 << QStringLiteral("rank 1 failed: injected failure at step 3 (--fail-at)");
    // Lists as srun writes them for more tasks (none of these said anything first).
    QTest::newRow("several tasks in one line, none spoke: the first listed")
        << QStringList{QStringLiteral("srun: error: labnode3: tasks 5,7-8: Segmentation fault")}
        << true << std::optional<int>(5) << 4 << QStringLiteral("rank 5 died without a word (srun: \"task 5: Segmentation fault\" on labnode3)");
    QTest::newRow("several tasks in one line, rank 8 spoke first")
        << QStringList{QStringLiteral("ddplab-engine: rank 8: error: NCCL failed"), QStringLiteral("ddplab-engine: rank 7: error: lost"),
                       QStringLiteral("srun: error: labnode3: tasks 5,7-8: Exited with exit code 4")}
        << true << std::optional<int>(8) << 4 << QStringLiteral("rank 8 failed: NCCL failed");
    QTest::newRow("rank 0 gives up on a stalled rank first: its own event says it")
        << QStringList{QStringLiteral("ddplab-engine: rank 0: error: rank 0 waited longer than collective_timeout (3 s) for all-reduce #4 (gloo) "
                                      "to finish: a peer has stopped or died; this rank stops (a Gloo collective cannot be called off)"),
                       QStringLiteral("srun: error: vm: task 0: Exited with exit code 4"),
                       QStringLiteral("srun: launch/slurm: _step_signal: Terminating StepId=1007.0"),
                       QStringLiteral("slurmstepd-vm: error: *** STEP 1007.0 ON vm CANCELLED AT 2026-11-25T00:27:42 ***"),
                       QStringLiteral("srun: error: vm: task 1: Killed"),
                       QStringLiteral("srun: Force Terminated StepId=1007.0")}
        << false << std::optional<int>() << 0 << QString();
    QTest::newRow("scancel")
        << QStringList{QStringLiteral("srun: Job step aborted: Waiting up to 4 seconds for job step to finish."),
                       QStringLiteral("slurmstepd-vm: error: *** STEP 1005.0 ON vm CANCELLED AT 2026-11-25T00:17:39 ***"),
                       QStringLiteral("srun: error: vm: tasks 0-1: Terminated"),
                       QStringLiteral("srun: launch/slurm: _step_signal: Terminating StepId=1005.0")}
        << true << std::optional<int>() << 5
        << QStringLiteral("Slurm cancelled the run (slurmstepd-vm: error: *** STEP 1005.0 ON vm CANCELLED AT 2026-11-25T00:17:39 ***)");
    QTest::newRow("a clean run") << QStringList{QStringLiteral("ddplab-engine runs: launching: srun ...")} << false
                                 << std::optional<int>() << 0 << QString();
    QTest::newRow("not srun's words") << QStringList{QStringLiteral("error: task 1: Killed"), QStringLiteral("srun: error: task x: Killed")}
                                      << false << std::optional<int>() << 0 << QString();
}

void LauncherReportTest::namesTheRankThatFailedFirst()
{
    QFETCH(QStringList, stderrLines);
    QFETCH(bool, reported);
    QFETCH(std::optional<int>, rank);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    LauncherReport report;
    for (const QString& line : stderrLines)
        report.addLine(line.toStdString());
    const auto failure = report.firstFailure();
    QCOMPARE(failure.has_value(), reported);
    if (!failure)
        return;
    QCOMPARE(QString::fromStdString(failure->message), message);
    QCOMPARE(failure->rank.has_value(), rank.has_value());
    if (rank)
        QCOMPARE(int(*failure->rank), *rank);
    QCOMPARE(failure->exitCode, exitCode);
}

QTEST_APPLESS_MAIN(LauncherReportTest)
#include "tst_launcher_report.moc"
