// SPDX-License-Identifier: GPL-3.0-or-later
// The lab under a real Slurm: its own munged, slurmctld and three slurmd on this machine
// (tests/support/test_slurm.hpp), and through them
//   - what tasks really see, for several srun layouts, read by the engine's worker as Slurm
//     placed them (tasks per node, local ranks, the busiest node, per-task GPU binding);
//   - the lab's Slurm launch template, run as the window runs it (`ddplab-engine runs
//     --stop-when-input-ends --launcher TEMPLATE --run-dir ...`, the config on stdin): 2 tasks
//     whose every step equals the built-in launcher's;
//   - a task killed mid-run ends the whole step within seconds, and the run's last event
//     names it; a task that stalls ends it after collective_timeout;
//   - stopping from the lab, and scancel, leave no task running and no job in the queue.

#include "client/engine/engine_target.hpp"
#include "support/engine_process.hpp"
#include "support/process_table.hpp"
#include "support/test_slurm.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <functional>
#include <map>
#include <memory>
#include <set>

using ddplab::test::TestSlurm;

namespace {

// Generous bounds: the machine is shared; a run that never ended would take forever.
constexpr int kEndsWithinMs = 15000;
constexpr int kPatienceMs = 120000;

const QJsonObject kToy{{QStringLiteral("world_size"), 2}, {QStringLiteral("batch_size"), 16}, {QStringLiteral("noise"), 1},
                       {QStringLiteral("experiments"), 32}, {QStringLiteral("epochs"), 2}};

QJsonObject endless(QJsonObject config)
{
    config.insert(QStringLiteral("batch_size"), 1);
    config.insert(QStringLiteral("epochs"), 1000000);
    return config;
}

QString slurmTemplate()
{
    for (const ddplab::ui::LaunchTemplate& launch : ddplab::ui::launchTemplates()) {
        if (launch.command.startsWith(QLatin1String("srun ")))
            return launch.command;
    }
    return {};
}

// `ddplab-engine runs` as the window starts it for a Slurm target, given this Slurm.
class LabRuns {
public:
    LabRuns(const TestSlurm& slurm, const QString& runDirectory)
    {
        ddplab::ui::EngineTarget target;
        target.launcher = slurmTemplate();
        target.runDirectory = runDirectory;
        m_process.setProcessEnvironment(slurm.environment());
        m_process.start(ddplab::test::enginePath(), ddplab::ui::runsArguments(target));
    }
    ~LabRuns()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    void request(const QJsonObject& config)
    {
        const QJsonObject line{{QStringLiteral("config"), config}};
        m_process.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
    }
    void write(const QByteArray& line) { m_process.write(line); }

    // Reads until `done` holds for what came so far, or `ms` passed; whether it held.
    bool readUntil(const std::function<bool(const QList<QJsonObject>&)>& done, int ms)
    {
        QElapsedTimer clock;
        clock.start();
        while (true) {
            m_output += m_process.readAllStandardOutput();
            m_errors += m_process.readAllStandardError();
            m_events = ddplab::test::parseEvents(m_output);
            if (done(m_events))
                return true;
            if (clock.elapsed() > ms)
                return false;
            m_process.waitForReadyRead(100);
        }
    }
    bool readUntilRunEnd(int ms)
    {
        return readUntil([](const QList<QJsonObject>& events) { return ofType(events, "run_end") > 0; }, ms);
    }

    static int ofType(const QList<QJsonObject>& events, const char* type)
    {
        int count = 0;
        for (const QJsonObject& event : events)
            count += event.value(QStringLiteral("type")).toString() == QLatin1String(type);
        return count;
    }
    QJsonObject last(const char* type) const
    {
        for (auto it = m_events.rbegin(); it != m_events.rend(); ++it) {
            if (it->value(QStringLiteral("type")).toString() == QLatin1String(type))
                return *it;
        }
        return {};
    }
    QList<double> losses() const
    {
        QList<double> values;
        for (const QJsonObject& event : m_events) {
            if (event.value(QStringLiteral("type")).toString() == QLatin1String("step"))
                values.append(event.value(QStringLiteral("loss")).toDouble());
        }
        return values;
    }
    QString said() const { return QString::fromLocal8Bit(m_errors.right(3000)); }

private:
    QProcess m_process;
    QByteArray m_output, m_errors;
    QList<QJsonObject> m_events;
};

}  // namespace

class SlurmTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void cleanup();
    void tasksAreReadAsSlurmPlacedThem_data();
    void tasksAreReadAsSlurmPlacedThem();
    void templateRunEqualsTheBuiltInLauncher();
    void killedTaskEndsTheStepAndIsNamed();
    void stalledTaskEndsTheStepAfterTheTimeout();
    void stopFromTheLabLeavesNoTask();
    void scancelLeavesNoTask();

private:
    void verifyNothingLeft();

    std::unique_ptr<TestSlurm> m_slurm;
    QTemporaryDir m_runDirectory;
};

void SlurmTest::initTestCase()
{
    m_slurm = std::make_unique<TestSlurm>();
    if (!m_slurm->isRunning()) {
        // Whole, with every daemon's log: QtTest cuts a failure's message at 1,024 characters,
        // which once left only munged's and slurmctld's first lines to go by.
        qWarning().noquote() << m_slurm->problem();
        if (::geteuid() != 0)
            QSKIP("the test Slurm needs root (its daemons' logs above)");
    }
    QVERIFY2(m_slurm->isRunning(), "the test Slurm did not start (why, and its daemons' logs, above)");
    QVERIFY2(slurmTemplate().contains(QLatin1String("--kill-on-bad-exit")), qPrintable(slurmTemplate()));
}

void SlurmTest::cleanupTestCase()
{
    m_slurm.reset();  // every job cancelled, every daemon and task ended
}

void SlurmTest::cleanup()
{
    // Whatever a test left (it failed half-way): the next one starts from an empty queue.
    const QStringList jobs = m_slurm->activeJobs();
    if (!jobs.isEmpty())
        m_slurm->run(QStringLiteral("scancel"), jobs);
}

void SlurmTest::verifyNothingLeft()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_slurm->jobProcesses().isEmpty(), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_slurm->activeJobs().isEmpty(), 15000);
    QCOMPARE(m_slurm->tasks(QStringLiteral("ddplab-engine"), 0).size(), 0);
}

void SlurmTest::tasksAreReadAsSlurmPlacedThem_data()
{
    QTest::addColumn<QStringList>("layout");
    QTest::newRow("one node, 2 tasks") << QStringList{QStringLiteral("-N1"), QStringLiteral("-n2")};
    QTest::newRow("two nodes, 6 tasks, no --ntasks-per-node") << QStringList{QStringLiteral("-N2"), QStringLiteral("-n6")};
    QTest::newRow("two nodes, --ntasks-per-node 2") << QStringList{QStringLiteral("-N2"), QStringLiteral("--ntasks-per-node"), QStringLiteral("2")};
    QTest::newRow("three nodes, 11 tasks: 4(x2),3") << QStringList{QStringLiteral("-N3"), QStringLiteral("-n11")};
    QTest::newRow("two nodes, --gpus-per-task 1") << QStringList{QStringLiteral("-N2"), QStringLiteral("-n4"), QStringLiteral("--gpus-per-task"), QStringLiteral("1")};
    QTest::newRow("one node, 2 tasks sharing --gres gpu:2") << QStringList{QStringLiteral("-N1"), QStringLiteral("-n2"), QStringLiteral("--gres"), QStringLiteral("gpu:2")};
}

void SlurmTest::tasksAreReadAsSlurmPlacedThem()
{
    // Each task writes where the worker would place it to a file of its own (srun -o DIR/%t).
    QFETCH(QStringList, layout);
    QTemporaryDir out;
    QProcess srun;
    QProcessEnvironment environment = m_slurm->environment();
    environment.insert(QStringLiteral("MASTER_ADDR"), QStringLiteral("127.0.0.1"));
    environment.insert(QStringLiteral("MASTER_PORT"), QStringLiteral("29500"));
    srun.setProcessEnvironment(environment);
    srun.setProcessChannelMode(QProcess::MergedChannels);
    srun.start(QStringLiteral("srun"), QStringList{QStringLiteral("-p"), QStringLiteral("cluster"), QStringLiteral("-o"),
                                                   out.filePath(QStringLiteral("%t"))} +
                                           layout + QStringList{QStringLiteral(DDPLAB_SLURM_PROBE), QString::number(TestSlurm::kGpusPerNode)});
    QVERIFY(srun.waitForFinished(kPatienceMs));
    QVERIFY2(srun.exitCode() == 0, srun.readAll().constData());

    QList<QJsonObject> tasks;
    for (const QString& name : QDir(out.path()).entryList(QDir::Files)) {
        QFile file(out.filePath(name));
        QVERIFY(file.open(QIODevice::ReadOnly));
        tasks.append(QJsonDocument::fromJson(file.readAll()).object());
        QVERIFY2(!tasks.last().contains(QStringLiteral("error")), qPrintable(tasks.last().value(QStringLiteral("error")).toString()));
    }
    QVERIFY(tasks.size() >= 2);
    // What Slurm did: how many tasks each node ran.
    std::map<QString, int> onNode;
    for (const QJsonObject& task : tasks)
        ++onNode[task.value(QStringLiteral("node")).toString()];
    int busiest = 0;
    for (const auto& [node, count] : onNode)
        busiest = std::max(busiest, count);
    std::set<int> ranks;
    std::set<QString> backends;
    std::set<std::pair<QString, QString>> gpus;
    const bool bound = layout.contains(QLatin1String("--gpus-per-task"));
    for (const QJsonObject& task : tasks) {
        const QString node = task.value(QStringLiteral("node")).toString();
        QCOMPARE(task.value(QStringLiteral("world_size")).toInt(), int(tasks.size()));
        QCOMPARE(task.value(QStringLiteral("local_world_size")).toInt(), onNode.at(node));
        QCOMPARE(task.value(QStringLiteral("busiest_node")).toInt(), busiest);
        QCOMPARE(task.value(QStringLiteral("gpus_bound_per_task")).toBool(), bound);
        QVERIFY(task.value(QStringLiteral("local_rank")).toInt() < onNode.at(node));
        ranks.insert(task.value(QStringLiteral("rank")).toInt());
        backends.insert(task.value(QStringLiteral("backend")).toString());
        gpus.insert({node, task.value(QStringLiteral("gpu")).toString()});
    }
    QCOMPARE(int(ranks.size()), int(tasks.size()));  // every rank once
    QCOMPARE(int(backends.size()), 1);               // every rank chooses alike
    const QString expected = bound || busiest <= TestSlurm::kGpusPerNode ? QStringLiteral("nccl") : QStringLiteral("gloo");
    QCOMPARE(*backends.begin(), expected);
    if (expected == QLatin1String("nccl"))
        QCOMPARE(int(gpus.size()), int(tasks.size()));  // each rank its own GPU
}

void SlurmTest::templateRunEqualsTheBuiltInLauncher()
{
    QTemporaryDir dir;
    QFile file(dir.filePath(QStringLiteral("toy.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(kToy).toJson());
    file.close();
    const ddplab::test::EngineResult builtIn =
        ddplab::test::runEngine({QStringLiteral("run"), QStringLiteral("--config"), file.fileName()});
    QVERIFY2(builtIn.exitCode == 0, qPrintable(builtIn.summaryText()));
    QList<double> expected;
    for (const QJsonObject& step : builtIn.ofType(QStringLiteral("step")))
        expected.append(step.value(QStringLiteral("loss")).toDouble());

    LabRuns runs(*m_slurm, m_runDirectory.path());
    runs.request(kToy);
    QVERIFY2(runs.readUntilRunEnd(kPatienceMs), qPrintable(runs.said()));
    QCOMPARE(runs.last("run_end").value(QStringLiteral("exit_code")).toInt(), 0);
    const QJsonObject config = runs.last("config");
    QCOMPARE(config.value(QStringLiteral("launched_by")).toString(), QStringLiteral("slurm"));
    QCOMPARE(config.value(QStringLiteral("world_size")).toInt(), 2);
    QVERIFY(!expected.isEmpty());
    QCOMPARE(runs.losses(), expected);  // exactly: the same arithmetic, in the same order
    QCOMPARE(runs.last("summary").value(QStringLiteral("loss")).toDouble(),
             builtIn.last(QStringLiteral("summary")).value(QStringLiteral("loss")).toDouble());
    verifyNothingLeft();
}

void SlurmTest::killedTaskEndsTheStepAndIsNamed()
{
    LabRuns runs(*m_slurm, m_runDirectory.path());
    runs.request(endless(kToy));
    QVERIFY2(runs.readUntil([](const QList<QJsonObject>& events) { return LabRuns::ofType(events, "step") >= 5; }, kPatienceMs),
             qPrintable(runs.said()));
    const QList<qint64> victim = m_slurm->tasks(QStringLiteral("ddplab-engine"), 1);
    QCOMPARE(victim.size(), 1);
    QElapsedTimer clock;
    clock.start();
    QCOMPARE(::kill(pid_t(victim.front()), SIGKILL), 0);
    QVERIFY2(runs.readUntilRunEnd(kEndsWithinMs), qPrintable(runs.said()));
    const qint64 took = clock.elapsed();
    QVERIFY2(took < kEndsWithinMs, qPrintable(QStringLiteral("%1 ms").arg(took)));
    const QJsonObject error = runs.last("error");
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 1);
    QVERIFY2(error.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("rank 1 died without a word (srun: \"task 1: Killed\"")),
             qPrintable(error.value(QStringLiteral("message")).toString()));
    QCOMPARE(runs.last("run_end").value(QStringLiteral("exit_code")).toInt(), 4);
    verifyNothingLeft();
    qInfo("a killed task ended the step %lld ms later", took);
}

void SlurmTest::stalledTaskEndsTheStepAfterTheTimeout()
{
    // Rank 1 stops at step 3 for good; rank 0 gives up after collective_timeout, srun
    // (--kill-on-bad-exit) then ends rank 1, which ignores SIGTERM, with SIGKILL.
    QJsonObject config = endless(kToy);
    config.insert(QStringLiteral("collective_timeout"), 3);
    config.insert(QStringLiteral("fail_at"), QStringLiteral("1:3:hang"));
    LabRuns runs(*m_slurm, m_runDirectory.path());
    runs.request(config);
    QVERIFY2(runs.readUntil([](const QList<QJsonObject>& events) { return LabRuns::ofType(events, "step") >= 2; }, kPatienceMs),
             qPrintable(runs.said()));
    QVERIFY2(runs.readUntilRunEnd(3000 + kEndsWithinMs), qPrintable(runs.said()));
    const QJsonObject error = runs.last("error");
    QCOMPARE(error.value(QStringLiteral("rank")).toInt(), 0);
    QVERIFY2(error.value(QStringLiteral("message")).toString().startsWith(
                 QStringLiteral("rank 0 waited longer than collective_timeout (3 s) for all-reduce #4 (gloo)")),
             qPrintable(error.value(QStringLiteral("message")).toString()));
    QVERIFY(runs.last("run_end").value(QStringLiteral("exit_code")).toInt() != 0);
    verifyNothingLeft();
}

void SlurmTest::stopFromTheLabLeavesNoTask()
{
    LabRuns runs(*m_slurm, m_runDirectory.path());
    runs.request(endless(kToy));
    QVERIFY2(runs.readUntil([](const QList<QJsonObject>& events) { return LabRuns::ofType(events, "step") >= 5; }, kPatienceMs),
             qPrintable(runs.said()));
    QCOMPARE(m_slurm->activeJobs().size(), 1);
    runs.write("{\"stop\": true}\n");
    QVERIFY2(runs.readUntilRunEnd(kEndsWithinMs), qPrintable(runs.said()));
    QCOMPARE(runs.last("run_end").value(QStringLiteral("exit_code")).toInt(), 5);  // cancelled
    verifyNothingLeft();
}

void SlurmTest::scancelLeavesNoTask()
{
    LabRuns runs(*m_slurm, m_runDirectory.path());
    runs.request(endless(kToy));
    QVERIFY2(runs.readUntil([](const QList<QJsonObject>& events) { return LabRuns::ofType(events, "step") >= 5; }, kPatienceMs),
             qPrintable(runs.said()));
    const QStringList jobs = m_slurm->activeJobs();
    QCOMPARE(jobs.size(), 1);
    m_slurm->run(QStringLiteral("scancel"), jobs);
    QVERIFY2(runs.readUntilRunEnd(kEndsWithinMs), qPrintable(runs.said()));
    const QJsonObject error = runs.last("error");
    QVERIFY2(error.value(QStringLiteral("message")).toString().startsWith(QStringLiteral("Slurm cancelled the run (")),
             qPrintable(error.value(QStringLiteral("message")).toString()));
    QVERIFY(!error.contains(QStringLiteral("rank")));
    QCOMPARE(runs.last("run_end").value(QStringLiteral("exit_code")).toInt(), 5);
    verifyNothingLeft();
}

QTEST_GUILESS_MAIN(SlurmTest)
#include "tst_slurm.moc"
