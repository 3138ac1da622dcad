// SPDX-License-Identifier: GPL-3.0-or-later
// Where a rank runs, decided from its launcher's environment: the environments real Slurm gave
// the tasks of several srun layouts (tests/data/slurm_environments.json, recorded with
// tests/tools/record_slurm_environments.py: one node; two nodes with and without
// --ntasks-per-node; uneven 4(x2),3; --gpus-per-task; a step inside a batch job) read as the
// worker reads them, checked against what the recording itself shows (how many tasks each node
// really ran); the backend every rank then chooses, and its GPU; Slurm's counts written wrong;
// and the memory check of a CUDA run against its GPU's free memory.

#include "comm/backend_choice.hpp"
#include "comm/worker_identity.hpp"
#include "core/config_error.hpp"
#include "core/config_validate.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cstdlib>
#include <map>
#include <set>

using namespace ddplab;

namespace {

// Every GPU node of the recording's cluster has two (gres), as tests/support/test_slurm.cpp
// declares them.
constexpr int kGpusPerNode = 2;

QJsonArray recordedCases()
{
    QFile file(QStringLiteral(DDPLAB_TEST_DATA_DIR "/slurm_environments.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("cases")).toArray();
}

// The process environment becomes `variables` plus a rendezvous address, and nothing of any
// launcher besides.
void becomeTask(const QJsonObject& variables)
{
    for (const QString& name : QProcessEnvironment::systemEnvironment().keys()) {
        if (name.startsWith(QLatin1String("SLURM")) || name == QLatin1String("CUDA_VISIBLE_DEVICES") ||
            name == QLatin1String("RANK") || name == QLatin1String("WORLD_SIZE") || name.startsWith(QLatin1String("LOCAL_")) ||
            name.startsWith(QLatin1String("TORCHELASTIC")))
            ::unsetenv(name.toLocal8Bit().constData());
    }
    for (auto it = variables.begin(); it != variables.end(); ++it)
        ::setenv(it.key().toLocal8Bit().constData(), it.value().toString().toLocal8Bit().constData(), 1);
    ::setenv("MASTER_ADDR", "127.0.0.1", 1);
    ::setenv("MASTER_PORT", "29500", 1);
}

QString variable(const QJsonObject& task, const char* name)
{
    return task.value(QLatin1String(name)).toString();
}

// How many tasks of the case ran on each node, by the node's name: what really happened.
std::map<QString, int> tasksByNode(const QJsonArray& tasks)
{
    std::map<QString, int> count;
    for (const QJsonValue& task : tasks)
        ++count[variable(task.toObject(), "SLURMD_NODENAME")];
    return count;
}

// The GPUs a task may use: CUDA_VISIBLE_DEVICES, or every GPU of its node when Slurm set none.
QStringList visibleGpus(const QJsonObject& task)
{
    const QString visible = variable(task, "CUDA_VISIBLE_DEVICES");
    if (!visible.isEmpty())
        return visible.split(QLatin1Char(','));
    QStringList all;
    for (int gpu = 0; gpu < kGpusPerNode; ++gpu)
        all << QString::number(gpu);
    return all;
}

Config cudaRun(BackendKind backend)
{
    Config config;
    config.device = DeviceKind::Cuda;
    config.backend = backend;
    return config;
}

}  // namespace

class RankPlacementTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void slurmEnvironmentIsReadAsSlurmRanTheTasks_data();
    void slurmEnvironmentIsReadAsSlurmRanTheTasks();
    void everyRankChoosesTheSameBackendAndItsOwnGpu_data();
    void everyRankChoosesTheSameBackendAndItsOwnGpu();
    void wrongTasksPerNodeIsNamed_data();
    void wrongTasksPerNodeIsNamed();
    void cudaRunIsCheckedAgainstGpuMemory();
};

void RankPlacementTest::slurmEnvironmentIsReadAsSlurmRanTheTasks_data()
{
    QTest::addColumn<QJsonObject>("task");
    QTest::addColumn<int>("tasks");
    QTest::addColumn<int>("tasksOnItsNode");
    QTest::addColumn<int>("busiestNode");
    QTest::addColumn<bool>("ownGpus");
    const QJsonArray cases = recordedCases();
    QVERIFY2(cases.size() >= 8, "tests/data/slurm_environments.json is missing or has too few cases");
    for (const QJsonValue& value : cases) {
        const QJsonObject recorded = value.toObject();
        const QJsonArray tasks = recorded.value(QStringLiteral("tasks")).toArray();
        const std::map<QString, int> byNode = tasksByNode(tasks);
        int busiest = 0;
        for (const auto& [node, count] : byNode)
            busiest = std::max(busiest, count);
        for (const QJsonValue& task : tasks) {
            const QJsonObject variables = task.toObject();
            const QString name = recorded.value(QStringLiteral("name")).toString() + QStringLiteral(", task ") +
                                 variable(variables, "SLURM_PROCID");
            QTest::newRow(qPrintable(name)) << variables << int(tasks.size())
                                            << byNode.at(variable(variables, "SLURMD_NODENAME")) << busiest
                                            << recorded.value(QStringLiteral("gpu_bound_per_task")).toBool();
        }
    }
}

void RankPlacementTest::slurmEnvironmentIsReadAsSlurmRanTheTasks()
{
    QFETCH(QJsonObject, task);
    QFETCH(int, tasks);
    QFETCH(int, tasksOnItsNode);
    QFETCH(int, busiestNode);
    QFETCH(bool, ownGpus);
    becomeTask(task);
    const WorkerIdentity identity = identityFromEnvironment();
    QCOMPARE(identity.launchedBy, std::string("slurm"));
    QCOMPARE(identity.worldSize, tasks);
    QCOMPARE(identity.rank, variable(task, "SLURM_PROCID").toInt());
    QCOMPARE(identity.localRank, variable(task, "SLURM_LOCALID").toInt());
    QCOMPARE(identity.localWorldSize, tasksOnItsNode);
    QCOMPARE(identity.busiestNodeRanks(), busiestNode);
    QCOMPARE(identity.gpusBoundPerTask, ownGpus);
}

void RankPlacementTest::everyRankChoosesTheSameBackendAndItsOwnGpu_data()
{
    QTest::addColumn<QJsonObject>("recorded");
    for (const QJsonValue& value : recordedCases())
        QTest::newRow(qPrintable(value.toObject().value(QStringLiteral("name")).toString())) << value.toObject();
}

void RankPlacementTest::everyRankChoosesTheSameBackendAndItsOwnGpu()
{
    // backend auto with device cuda, every rank deciding alone from its own environment. NCCL
    // deadlocks unless all ranks choose it, and needs every rank of a node on another GPU.
    QFETCH(QJsonObject, recorded);
    const QJsonArray tasks = recorded.value(QStringLiteral("tasks")).toArray();
    // What the recording says: do the tasks of each node see disjoint GPUs, or are there at
    // most as many tasks on each node as it has GPUs?
    std::map<QString, std::set<QString>> gpusSeenOnNode;
    bool disjoint = true;
    for (const QJsonValue& value : tasks) {
        const QJsonObject task = value.toObject();
        const QString visible = variable(task, "CUDA_VISIBLE_DEVICES");
        if (visible.isEmpty() || visible.contains(QLatin1Char(',')))
            disjoint = false;
        else if (!gpusSeenOnNode[variable(task, "SLURMD_NODENAME")].insert(visible).second)
            disjoint = false;
    }
    int busiest = 0;
    for (const auto& [node, count] : tasksByNode(tasks))
        busiest = std::max(busiest, count);
    const BackendKind expected = disjoint || busiest <= kGpusPerNode ? BackendKind::Nccl : BackendKind::Gloo;

    std::set<std::pair<QString, QString>> physicalGpus;  // (node, GPU) of each rank
    for (const QJsonValue& value : tasks) {
        const QJsonObject task = value.toObject();
        becomeTask(task);
        const WorkerIdentity identity = identityFromEnvironment();
        const QStringList visible = visibleGpus(task);
        const BackendChoice choice = chooseBackend(cudaRun(BackendKind::Auto), identity, int(visible.size()), true, true);
        QVERIFY2(choice.backend == expected, choice.reason.c_str());
        const int index = rankGpuIndex(identity, int(visible.size()));
        QVERIFY(index >= 0 && index < visible.size());
        physicalGpus.insert({variable(task, "SLURMD_NODENAME"), visible[index]});
        // Asked for by name, NCCL is refused exactly where auto would not choose it.
        bool refused = false;
        try {
            chooseBackend(cudaRun(BackendKind::Nccl), identity, int(visible.size()), true, true);
        } catch (const ConfigError& error) {
            refused = true;
            QCOMPARE(error.key(), std::string("backend"));
        }
        QCOMPARE(refused, expected == BackendKind::Gloo);
    }
    if (expected == BackendKind::Nccl)
        QCOMPARE(int(physicalGpus.size()), int(tasks.size()));  // no two ranks on one GPU
}

void RankPlacementTest::wrongTasksPerNodeIsNamed_data()
{
    QTest::addColumn<QString>("tasksPerNode");
    QTest::addColumn<QString>("nodeId");
    QTest::addColumn<QString>("expected");
    const QString format = QStringLiteral("must be Slurm's tasks per node");
    QTest::newRow("unclosed repeat") << QStringLiteral("2(x2") << QStringLiteral("0") << format;
    QTest::newRow("repeat without x") << QStringLiteral("2(2)") << QStringLiteral("0") << format;
    QTest::newRow("empty count") << QStringLiteral("2,,2") << QStringLiteral("0") << format;
    QTest::newRow("zero tasks") << QStringLiteral("0,4") << QStringLiteral("0") << format;
    QTest::newRow("words") << QStringLiteral("four") << QStringLiteral("0") << format;
    QTest::newRow("huge repeat") << QStringLiteral("1(x99999999999)") << QStringLiteral("0") << format;
    QTest::newRow("counts another world") << QStringLiteral("3(x2)") << QStringLiteral("0") << QStringLiteral("counts 6 tasks but SLURM_NTASKS is 4");
    QTest::newRow("node beyond the list") << QStringLiteral("2(x2)") << QStringLiteral("2") << QStringLiteral("SLURM_NODEID must be an integer from 0 to 1");
    QTest::newRow("local id beyond the node") << QStringLiteral("1,3") << QStringLiteral("0") << QStringLiteral("SLURM_LOCALID is 1 but");
}

void RankPlacementTest::wrongTasksPerNodeIsNamed()
{
    QFETCH(QString, tasksPerNode);
    QFETCH(QString, nodeId);
    QFETCH(QString, expected);
    QJsonObject task{{QStringLiteral("SLURM_PROCID"), QStringLiteral("1")},
                     {QStringLiteral("SLURM_LOCALID"), QStringLiteral("1")},
                     {QStringLiteral("SLURM_NTASKS"), QStringLiteral("4")},
                     {QStringLiteral("SLURM_NODEID"), nodeId},
                     {QStringLiteral("SLURM_STEP_TASKS_PER_NODE"), tasksPerNode}};
    becomeTask(task);
    try {
        identityFromEnvironment();
        QFAIL("a wrong SLURM_STEP_TASKS_PER_NODE was accepted");
    } catch (const ConfigError& error) {
        QCOMPARE(error.key(), std::string("environment"));
        const QString message = QString::fromStdString(error.what());
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("SLURM_")), qPrintable(message));
    }
}

void RankPlacementTest::cudaRunIsCheckedAgainstGpuMemory()
{
    Config config;
    config.workload = WorkloadKind::FashionMnist;
    config.worldSize = 4;
    config.device = DeviceKind::Cuda;
    constexpr int64_t GiB = int64_t(1) << 30;
    // Little host memory does not matter to a CUDA run; little GPU memory does.
    MachineResources machine;
    machine.memoryAvailableBytes = 1 << 20;
    QVERIFY(findProblems(config, &machine, 4).empty());
    machine.gpus = 4;
    machine.gpuMemoryFreeBytes = 40 * GiB;
    QVERIFY(findProblems(config, &machine, 4).empty());
    machine.gpuMemoryFreeBytes = GiB / 4;
    ConfigProblems problems = findProblems(config, &machine, 4);
    QCOMPARE(int(problems.size()), 1);
    QVERIFY2(problems.front().message.find("of GPU memory (1 rank per GPU") != std::string::npos, problems.front().message.c_str());
    QVERIFY2(problems.front().message.find("0.25 GiB free") != std::string::npos, problems.front().message.c_str());
    // Four ranks sharing one GPU need four times one rank's share of it.
    machine.gpus = 1;
    machine.gpuMemoryFreeBytes = 2 * GiB;
    problems = findProblems(config, &machine, 4);
    QCOMPARE(int(problems.size()), 1);
    QVERIFY2(problems.front().message.find("4 ranks per GPU") != std::string::npos, problems.front().message.c_str());
    machine.gpus = 4;
    QVERIFY(findProblems(config, &machine, 4).empty());
    // A process holds 1.25 GiB beyond its tensors (measured on an H200, docs/gpu-validation.md):
    // a GiB free does not hold one rank of the CNN, whose tensors take far less.
    machine.gpuMemoryFreeBytes = GiB;
    problems = findProblems(config, &machine, 4);
    QCOMPARE(int(problems.size()), 1);
    QVERIFY2(problems.front().message.find("1 rank per GPU x 1.") != std::string::npos, problems.front().message.c_str());
    // A CPU run is still held to the host's memory.
    config.device = DeviceKind::Cpu;
    QCOMPARE(int(findProblems(config, &machine, 4).size()), 1);
}

QTEST_APPLESS_MAIN(RankPlacementTest)
#include "tst_rank_placement.moc"
