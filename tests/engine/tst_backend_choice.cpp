// SPDX-License-Identifier: GPL-3.0-or-later
// backend=auto and its refusals, in-process (comm/backend_choice): NCCL only when every rank on
// the node has a GPU of its own and the engine has NCCL; each refusal names its key and says
// what to do instead.

#include "comm/backend_choice.hpp"
#include "comm/worker_identity.hpp"
#include "core/config_error.hpp"

#include <QtTest>

using namespace ddplab;

namespace {

Config configOf(DeviceKind device, BackendKind backend)
{
    Config config;
    config.device = device;
    config.backend = backend;
    return config;
}

// `localRanks` ranks on every node, no GPUs bound per task (those: tst_rank_placement).
WorkerIdentity nodeOf(int localRanks)
{
    WorkerIdentity identity;
    identity.worldSize = localRanks;
    identity.localWorldSize = localRanks;
    return identity;
}

}  // namespace

class TestBackendChoice : public QObject {
    Q_OBJECT

private slots:
    void chooses_data()
    {
        QTest::addColumn<int>("device");
        QTest::addColumn<int>("backend");
        QTest::addColumn<int>("localRanks");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("nccl");
        QTest::addColumn<int>("chosen");
        QTest::addColumn<QString>("reasonContains");
        const int cpu = int(DeviceKind::Cpu), cuda = int(DeviceKind::Cuda);
        const int autoB = int(BackendKind::Auto), gloo = int(BackendKind::Gloo), ncclB = int(BackendKind::Nccl);
        QTest::newRow("cpu ranks") << cpu << autoB << 8 << 0 << true << gloo << QStringLiteral("CPU ranks");
        QTest::newRow("cpu ignores gpus") << cpu << autoB << 2 << 8 << true << gloo << QStringLiteral("Gloo");
        QTest::newRow("a gpu each") << cuda << autoB << 4 << 8 << true << ncclB << QStringLiteral("each of the 4 ranks has its own GPU");
        QTest::newRow("sharing gpus") << cuda << autoB << 8 << 4 << true << gloo << QStringLiteral("8 ranks share 4 GPUs");
        QTest::newRow("no nccl built") << cuda << autoB << 2 << 2 << false << gloo << QStringLiteral("built without NCCL");
        QTest::newRow("gloo asked on gpus") << cuda << gloo << 2 << 2 << true << gloo << QStringLiteral("backend gloo was asked for");
        QTest::newRow("nccl asked") << cuda << ncclB << 1 << 1 << true << ncclB << QStringLiteral("backend nccl was asked for");
    }

    void chooses()
    {
        QFETCH(int, device);
        QFETCH(int, backend);
        QFETCH(int, localRanks);
        QFETCH(int, gpus);
        QFETCH(bool, nccl);
        QFETCH(int, chosen);
        QFETCH(QString, reasonContains);
        const BackendChoice choice = chooseBackend(configOf(DeviceKind(device), BackendKind(backend)), nodeOf(localRanks), gpus, true, nccl);
        QCOMPARE(int(choice.backend), chosen);
        QVERIFY2(QString::fromStdString(choice.reason).contains(reasonContains), choice.reason.c_str());
    }

    void refuses_data()
    {
        QTest::addColumn<int>("backend");
        QTest::addColumn<int>("localRanks");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<bool>("torchCuda");
        QTest::addColumn<bool>("nccl");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("messageContains");
        const int autoB = int(BackendKind::Auto), ncclB = int(BackendKind::Nccl);
        QTest::newRow("cpu-only libtorch") << autoB << 1 << 1 << false << true << QStringLiteral("device") << QStringLiteral("CPU-only");
        QTest::newRow("no gpu visible") << autoB << 1 << 0 << true << true << QStringLiteral("device") << QStringLiteral("no GPU is visible");
        QTest::newRow("nccl not built") << ncclB << 1 << 1 << true << false << QStringLiteral("backend") << QStringLiteral("built without NCCL");
        QTest::newRow("nccl, ranks share") << ncclB << 4 << 2 << true << true << QStringLiteral("backend") << QStringLiteral("4 ranks share 2 GPUs");
    }

    void refuses()
    {
        QFETCH(int, backend);
        QFETCH(int, localRanks);
        QFETCH(int, gpus);
        QFETCH(bool, torchCuda);
        QFETCH(bool, nccl);
        QFETCH(QString, key);
        QFETCH(QString, messageContains);
        try {
            chooseBackend(configOf(DeviceKind::Cuda, BackendKind(backend)), nodeOf(localRanks), gpus, torchCuda, nccl);
            QFAIL("no ConfigError");
        } catch (const ConfigError& error) {
            QCOMPARE(QString::fromStdString(error.key()), key);
            QVERIFY2(QString::fromUtf8(error.what()).contains(messageContains), error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestBackendChoice)
#include "tst_backend_choice.moc"
