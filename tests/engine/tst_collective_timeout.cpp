// SPDX-License-Identifier: GPL-3.0-or-later
// A rank that stalls under an outside launcher (no built-in launcher watching progress) ends
// its peers' wait after collective_timeout, through the deadline every backend shares
// (CollectiveDeadline, comm/communicator.hpp; the NCCL communicator aborts at the same point):
// two workers given a cluster's environment, rank 1 stuck at step 3, Gloo between them.

#include "support/engine_process.hpp"
#include "support/loopback_port.hpp"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {

QProcessEnvironment taskEnvironment(int rank, int port)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SLURM_PROCID"), QString::number(rank));
    environment.insert(QStringLiteral("SLURM_LOCALID"), QString::number(rank));
    environment.insert(QStringLiteral("SLURM_NODEID"), QStringLiteral("0"));
    environment.insert(QStringLiteral("SLURM_NTASKS"), QStringLiteral("2"));
    environment.insert(QStringLiteral("SLURM_STEP_TASKS_PER_NODE"), QStringLiteral("2"));
    environment.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
    environment.insert(QStringLiteral("MASTER_PORT"), QString::number(port));
    return environment;
}

}  // namespace

class CollectiveTimeoutTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stalledPeerEndsTheWaitAfterTheTimeout();
};

void CollectiveTimeoutTest::stalledPeerEndsTheWaitAfterTheTimeout()
{
    constexpr int kTimeoutSeconds = 2;
    const int port = ddplab::test::freeLoopbackPort();
    const QStringList run{QStringLiteral("worker"), QStringLiteral("--world-size"), QStringLiteral("2"),
                          QStringLiteral("--batch-size"), QStringLiteral("4"), QStringLiteral("--epochs"), QStringLiteral("1000"),
                          QStringLiteral("--collective-timeout"), QString::number(kTimeoutSeconds),
                          QStringLiteral("--fail-at"), QStringLiteral("1:3:hang")};
    QProcess ranks[2];
    for (int rank = 0; rank < 2; ++rank) {
        ranks[rank].setProcessEnvironment(taskEnvironment(rank, port));
        ranks[rank].start(ddplab::test::enginePath(), run);
        QVERIFY(ranks[rank].waitForStarted());
    }
    QElapsedTimer clock;
    clock.start();
    // Generous: start-up, two steps, the timeout; a rank that never gave up would stay.
    const bool ended = ranks[0].waitForFinished(60000);
    const qint64 took = clock.elapsed();
    ::kill(pid_t(ranks[1].processId()), SIGKILL);  // stuck for good: only SIGKILL ends it
    ranks[1].waitForFinished(10000);
    QVERIFY2(ended, "rank 0 still waits for its stalled peer after 60 s");
    QVERIFY2(took >= kTimeoutSeconds * 1000, qPrintable(QStringLiteral("rank 0 gave up after %1 ms").arg(took)));

    const ddplab::test::EngineResult result = ddplab::test::collect(ranks[0]);
    QCOMPARE(result.exitCode, 4);  // a rank failed
    const QJsonObject error = result.last(QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 0);
    const QString message = error.value(QStringLiteral("message")).toString();
    // Its parameter broadcast is collective 1, steps 1 and 2 are 2 and 3: step 3's all-reduce
    // is the one rank 1 never joined.
    QVERIFY2(message.startsWith(QStringLiteral("rank 0 waited longer than collective_timeout (2 s) for all-reduce #4 (gloo)")),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("a peer has stopped or died")), qPrintable(message));
    QCOMPARE(result.ofType(QStringLiteral("step")).size(), 2);
}

QTEST_GUILESS_MAIN(CollectiveTimeoutTest)
#include "tst_collective_timeout.moc"
