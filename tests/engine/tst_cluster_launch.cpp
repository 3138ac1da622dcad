// SPDX-License-Identifier: GPL-3.0-or-later
// `ddplab-engine worker` runs one rank under a cluster launcher: two ranks under Debian's
// torchrun, and two ranks given Slurm's environment, give exactly what the built-in launcher
// gives; without a launcher's environment the worker says what it needs.

#include "core/protocol.hpp"
#include "support/engine_process.hpp"
#include "support/loopback_port.hpp"
#include "support/prerequisites.hpp"
#include "support/process_table.hpp"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/socket.h>
#include <unistd.h>

using ddplab::test::EngineResult;
using ddplab::test::freeLoopbackPort;
using ddplab::test::runEngine;

namespace {

const QStringList kRun{QStringLiteral("--world-size"), QStringLiteral("2"),       QStringLiteral("--batch-size"),
                       QStringLiteral("16"),           QStringLiteral("--noise"), QStringLiteral("1"),
                       QStringLiteral("--experiments"), QStringLiteral("32"),     QStringLiteral("--epochs"),
                       QStringLiteral("2")};

void compareRuns(const QList<QJsonObject>& events, const EngineResult& reference, const QString& launchedBy)
{
    QVERIFY(!events.isEmpty());
    QCOMPARE(events.first().value(QStringLiteral("role")).toString(), QStringLiteral("worker"));
    const QJsonObject config = events[1];
    QCOMPARE(config.value(QStringLiteral("type")).toString(), QStringLiteral("config"));
    QCOMPARE(config.value(QStringLiteral("launched_by")).toString(), launchedBy);
    QCOMPARE(config.value(QStringLiteral("world_size")).toInt(), 2);
    const QJsonObject summary = events.last();
    const QJsonObject expected = reference.last(QStringLiteral("summary"));
    QCOMPARE(summary.value(QStringLiteral("type")).toString(), QStringLiteral("summary"));
    QCOMPARE(summary.value(QStringLiteral("steps")).toInt(), expected.value(QStringLiteral("steps")).toInt());
    for (const char* field : {"w_mean", "update_var", "loss", "noise_scale"})
        QCOMPARE(summary.value(QLatin1String(field)).toDouble(), expected.value(QLatin1String(field)).toDouble());
}

// Rank `rank` of `ranks` given Slurm's environment and MASTER_ADDR=127.0.0.1:port.
QProcessEnvironment slurmEnvironment(int rank, int ranks, int port)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("SLURM_PROCID"), QString::number(rank));
    environment.insert(QStringLiteral("SLURM_LOCALID"), QString::number(rank));
    environment.insert(QStringLiteral("SLURM_NTASKS"), QString::number(ranks));
    environment.insert(QStringLiteral("SLURM_NTASKS_PER_NODE"), QString::number(ranks));
    environment.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
    environment.insert(QStringLiteral("MASTER_PORT"), QString::number(port));
    return environment;
}

}  // namespace

class ClusterLaunchTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void torchrunEqualsBuiltInLauncher();
    void slurmEnvironmentEqualsBuiltInLauncher();
    void workerWithoutEnvironmentExplains();
    void storeListensOnMasterAddressOnly();
    void masterPortInUseIsASetupError();

private:
    EngineResult m_reference;
};

void ClusterLaunchTest::initTestCase()
{
    m_reference = runEngine(QStringList{QStringLiteral("run")} + kRun);
    QVERIFY2(m_reference.exitCode == 0, qPrintable(m_reference.summaryText()));
}

void ClusterLaunchTest::torchrunEqualsBuiltInLauncher()
{
    QTemporaryDir dir;
    const QString events = dir.filePath(QStringLiteral("torchrun.jsonl"));
    QProcess torchrun;
    torchrun.setProcessChannelMode(QProcess::MergedChannels);
    // Debian's torchrun (PyTorch 1.13) spells its options with underscores, and on Python 3.11
    // it cannot parse the default "0" of --redirects/--tee, hence the explicit "1".
    const QString missing = ddplab::test::missingTorchrun();
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    torchrun.start(ddplab::test::torchrunProgram(),
                   QStringList{QStringLiteral("--standalone"), QStringLiteral("--nproc_per_node"), QStringLiteral("2"),
                               QStringLiteral("--redirects"), QStringLiteral("1"), QStringLiteral("--tee"), QStringLiteral("1"),
                               QStringLiteral("--no_python"), ddplab::test::enginePath(), QStringLiteral("worker")} +
                       kRun + QStringList{QStringLiteral("--events"), events});
    QVERIFY2(torchrun.waitForStarted(), qPrintable(torchrun.errorString()));
    QVERIFY(torchrun.waitForFinished(300000));
    QVERIFY2(torchrun.exitCode() == 0, torchrun.readAll().right(3000).constData());
    compareRuns(ddplab::test::readEventsFile(events), m_reference, QStringLiteral("torchrun"));
}

void ClusterLaunchTest::slurmEnvironmentEqualsBuiltInLauncher()
{
    QTemporaryDir dir;
    const QString events = dir.filePath(QStringLiteral("slurm.jsonl"));
    const int port = freeLoopbackPort();
    QList<QProcess*> ranks;
    for (int rank = 0; rank < 2; ++rank) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("SLURM_PROCID"), QString::number(rank));
        environment.insert(QStringLiteral("SLURM_LOCALID"), QString::number(rank));
        environment.insert(QStringLiteral("SLURM_NTASKS"), QStringLiteral("2"));
        environment.insert(QStringLiteral("SLURM_NTASKS_PER_NODE"), QStringLiteral("2"));
        environment.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
        environment.insert(QStringLiteral("MASTER_PORT"), QString::number(port));
        auto* process = new QProcess(this);
        process->setProcessEnvironment(environment);
        process->start(ddplab::test::enginePath(), QStringList{QStringLiteral("worker")} + kRun +
                                                       QStringList{QStringLiteral("--events"), events});
        ranks.append(process);
    }
    for (QProcess* process : ranks) {
        QVERIFY(process->waitForFinished(300000));
        QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
    }
    // Rank 0 alone speaks on stdout; rank 1 stays silent there.
    QVERIFY(ranks[1]->readAllStandardOutput().isEmpty());
    compareRuns(ddplab::test::readEventsFile(events), m_reference, QStringLiteral("slurm"));
    qDeleteAll(ranks);
}

void ClusterLaunchTest::workerWithoutEnvironmentExplains()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"RANK", "WORLD_SIZE", "SLURM_PROCID", "SLURM_NTASKS"})
        environment.remove(QLatin1String(name));
    const EngineResult result = runEngine({QStringLiteral("worker")}, 60000, environment);
    QCOMPARE(result.exitCode, int(ddplab::kExitInvalidInput));
    const QString message = result.last(QStringLiteral("error")).value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(QStringLiteral("RANK and WORLD_SIZE")) && message.contains(QStringLiteral("ddplab-engine run")),
             qPrintable(message));
}

void ClusterLaunchTest::storeListensOnMasterAddressOnly()
{
    // c10d's TCPStore listened on 0.0.0.0 and [::] whatever MASTER_ADDR said, for the whole
    // run, unauthenticated. Rank 0's store now listens where MASTER_ADDR points: loopback.
    QTemporaryDir dir;
    const QString events = dir.filePath(QStringLiteral("store.jsonl"));
    const int port = freeLoopbackPort();
    QList<QProcess*> ranks;
    for (int rank = 0; rank < 2; ++rank) {
        auto* process = new QProcess(this);
        process->setProcessEnvironment(slurmEnvironment(rank, 2, port));
        process->start(ddplab::test::enginePath(),
                       {QStringLiteral("worker"), QStringLiteral("--batch-size"), QStringLiteral("1"), QStringLiteral("--epochs"),
                        QStringLiteral("1000000"), QStringLiteral("--events"), events});
        ranks.append(process);
    }
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(events).size() > 4096, 60000);  // training: the store is up
    QList<qint64> pids;
    for (QProcess* process : ranks)
        pids.append(process->processId());
    const QList<ddplab::test::TcpSocket> sockets = ddplab::test::tcpSocketsOf(pids);
    bool storeSeen = false;
    for (const ddplab::test::TcpSocket& socket : sockets) {
        if (!socket.listening)
            continue;
        QVERIFY2(socket.localAddress == QLatin1String("127.0.0.1"),
                 qPrintable(QStringLiteral("a rank listens on %1:%2").arg(socket.localAddress).arg(socket.localPort)));
        storeSeen = storeSeen || socket.localPort == port;
    }
    QVERIFY2(storeSeen, "rank 0's store was not seen listening on MASTER_PORT");
    for (QProcess* process : ranks) {
        process->kill();
        process->waitForFinished();
    }
    qDeleteAll(ranks);
}

void ClusterLaunchTest::masterPortInUseIsASetupError()
{
    // Someone else holds MASTER_PORT: a set-up error (exit 2) that names the port, not "a rank failed".
    const int port = freeLoopbackPort();
    const int holder = ddplab::test::loopbackSocket(port, false);
    QVERIFY(holder >= 0);
    QCOMPARE(::listen(holder, 1), 0);
    const EngineResult result = runEngine({QStringLiteral("worker"), QStringLiteral("--num-examples"), QStringLiteral("8")}, 60000,
                                          slurmEnvironment(0, 1, port));
    ::close(holder);
    QCOMPARE(result.exitCode, int(ddplab::kExitInvalidInput));
    const QJsonObject error = result.last(QStringLiteral("error"));
    QCOMPARE(error.value(QStringLiteral("key")).toString(), QStringLiteral("environment"));
    QVERIFY2(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("MASTER_PORT %1 is in use").arg(port)),
             qPrintable(result.summaryText()));
}

QTEST_GUILESS_MAIN(ClusterLaunchTest)
#include "tst_cluster_launch.moc"
