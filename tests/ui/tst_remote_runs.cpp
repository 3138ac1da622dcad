// SPDX-License-Identifier: GPL-3.0-or-later
// Runs on another machine over SSH, through a real OpenSSH server this suite starts on
// 127.0.0.1 (tests/support/test_sshd): devices over ssh; seed 004's lesson run remotely gives
// the same step losses as locally, its events kept here; Stop, a killed local ssh and a killed
// lab each leave no engine process on the remote side; an unknown host key, a wrong engine
// path and a closed port each give their one clear sentence within seconds; a missing remote
// engine ends the headless lab with the lab's own exit code, not ssh's 127; the window's
// inspection of one's own model runs on the host, whatever the paths are called, and a forward
// that never returns there is stopped and leaves nothing running; an advice whose runs go to
// the host times each batch per GPU there and confirms the one with the most goodput, its
// phases asked of one engine there, which is let go with the lab and started again when its
// connection drops between phases.

#include "client/engine/engine_query.hpp"
#include "client/engine/engine_target.hpp"
#include "client/engine/model_inspector.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/preset_resolver.hpp"
#include "support/forked_python.hpp"
#include "support/process_table.hpp"
#include "support/test_sshd.hpp"
#include "short_phases.hpp"
#include "ui_test_main.hpp"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>
#include <csignal>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 120000;
constexpr int kLeftoverPatienceMs = 20000;  // the remote side must be empty within this

EngineTarget remote(const QString& host, const QString& engine = ddplab::test::enginePath())
{
    EngineTarget target;
    target.host = host;
    target.remoteEngine = engine;
    return target;
}

// `text` written as home/`name`: the preset a headless lab is given; its path.
QString writePreset(const QTemporaryDir& home, const QString& name, const QByteArray& text)
{
    QFile file(home.filePath(name));
    if (file.open(QIODevice::WriteOnly))
        file.write(text);
    return file.fileName();
}

// The headless lab (`ddplab` beside the engine) with `arguments` and every run on labtest, the
// engine there at `engine`; its data and settings in `home`.
void startLabOnHost(QProcess& process, const QTemporaryDir& home, QStringList arguments, const QString& engine = ddplab::test::enginePath())
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    process.setProcessEnvironment(environment);
    arguments << QStringLiteral("--run-on") << QStringLiteral("labtest") << QStringLiteral("--remote-engine") << engine;
    process.start(QFileInfo(ddplab::test::enginePath()).dir().filePath(QStringLiteral("ddplab")), arguments);
}

// The engine at `engine` behind a script in `home` that notes in `starts`, a line a start, what
// it was asked (its first argument: runs, inspect, ...); the script's path.
QString countingEngine(const QTemporaryDir& home, const QString& starts, const QString& engine = ddplab::test::enginePath())
{
    const QString script = writePreset(home, QStringLiteral("engine.sh"),
                                       QStringLiteral("#!/bin/sh\necho \"$1\" >> '%1'\nexec '%2' \"$@\"\n").arg(starts, engine).toUtf8());
    QFile::setPermissions(script, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return script;
}

// How many times the script of countingEngine started the engine to be asked `what`.
qsizetype enginesStarted(const QString& starts, const QString& what)
{
    QFile file(starts);
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).count(what);
}

// The engine processes the server runs for us: everything below sshd but its own sessions' shells.
QList<qint64> remoteEngines(qint64 sshd)
{
    QList<qint64> engines;
    for (qint64 pid : ddplab::test::descendantsOf(sshd)) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains("ddplab"))
            engines.append(pid);
    }
    return engines;
}

bool waitUntilNoRemoteEngine(qint64 sshd)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < kLeftoverPatienceMs) {
        if (remoteEngines(sshd).isEmpty())
            return true;
        QTest::qWait(100);
    }
    return false;
}

QList<RunRequest> longRun()
{
    RunRequest request;
    request.name = QStringLiteral("long");
    request.config.workload = ddplab::WorkloadKind::Toy;
    request.config.worldSize = 2;
    request.config.batchSize = 1;
    request.config.numExamples = 256;
    request.config.experiments = 10;
    request.config.epochs = 100000;
    return {request};
}

}  // namespace

class TestRemoteRuns : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ddplab::test::TestSshd> m_sshd;
    QTemporaryDir m_runs;

    // Starts a long remote run and waits for its first steps.
    bool startLongRun(LabSession& session)
    {
        session.start(longRun());
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < kPatienceMs && !(session.currentRun() && session.currentRun()->stepCount() > 5))
            QTest::qWait(50);
        return session.currentRun() && session.currentRun()->stepCount() > 5 && !remoteEngines(m_sshd->processId()).isEmpty();
    }

private slots:
    void initTestCase()
    {
        m_sshd = std::make_unique<ddplab::test::TestSshd>();
        QVERIFY2(m_sshd->isRunning(), qPrintable(m_sshd->problem()));
        qputenv("DDPLAB_SSH", QFile::encodeName(m_sshd->sshProgram()));
    }

    // The window's background inspection (Setup's model and data) over SSH: the files live in a
    // folder named to break out of quotes and run commands; a model that prints is inspected
    // as any other; one that never returns is stopped by model_check_timeout on the host.
    void theModelIsInspectedOnTheHost()
    {
        // The files are made here, by tools forked from one python3 that has imported torch
        // (tests/support/forked_python.hpp); only the inspection goes through the host.
        ddplab::test::ForkedPython python;
        const QString missing = python.start(QStringLiteral(DDPLAB_SOURCE_DIR "/tests/tools/forked_python.py"));
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("it's \"q\" $(touch pwned) `touch pwned`; x"));
        QVERIFY(QDir().mkpath(folder));
        for (const char* tool : {"make_own_model_case.py", "make_hostile_model_case.py"}) {
            const ddplab::test::PythonExit made = python.run({QStringLiteral(DDPLAB_SOURCE_DIR "/tests/tools/") + QLatin1String(tool), folder}, kPatienceMs / 1000);
            QVERIFY2(made.code == 0, qPrintable(made.err));
        }
        ModelInspector inspector{QString()};
        inspector.setTarget(remote(QStringLiteral("labtest")));
        auto inspect = [&](const QString& model) {
            inspector.inspect(QJsonObject{{QStringLiteral("workload"), QStringLiteral("torchscript")},
                                          {QStringLiteral("model_file"), folder + QLatin1Char('/') + model},
                                          {QStringLiteral("train_data"), folder + QStringLiteral("/train.pt")},
                                          {QStringLiteral("batch_size"), 16},
                                          {QStringLiteral("model_check_timeout"), 3}});
            QTRY_VERIFY_WITH_TIMEOUT(!inspector.isRunning() && (inspector.inspection() || inspector.problem()), kPatienceMs);
        };
        for (const QString& model : {QStringLiteral("mlp.pt"), QStringLiteral("prints.pt")}) {
            inspect(model);
            QVERIFY2(inspector.inspection().has_value(), qPrintable(inspector.problem() ? inspector.problem()->message : model));
            QCOMPARE(inspector.inspection()->parameterCount, 4772);  // 144 x 32 + 32 + 32 x 4 + 4
            QCOMPARE(inspector.inspection()->trainSamples, 100);
        }
        QElapsedTimer clock;
        clock.start();
        inspect(QStringLiteral("forever.pt"));
        QVERIFY(inspector.problem().has_value());
        QCOMPARE(inspector.problem()->key, QStringLiteral("model_file"));
        QVERIFY2(inspector.problem()->message.contains(QStringLiteral("still being checked after 3 s")), qPrintable(inspector.problem()->message));
        QVERIFY2(clock.elapsed() < 60000, qPrintable(QString::number(clock.elapsed())));
        QVERIFY(waitUntilNoRemoteEngine(m_sshd->processId()));
        QVERIFY(!QFileInfo::exists(QStringLiteral("pwned")) && QDir(dir.path()).entryList({QStringLiteral("pwned*")}).isEmpty());
    }

    void devicesOverSsh()
    {
        const EngineCommand command = engineCommand(remote(QStringLiteral("labtest")), QString(), {QStringLiteral("devices")});
        QCOMPARE(command.program, m_sshd->sshProgram());
        QVERIFY(command.arguments.contains(QStringLiteral("BatchMode=yes")));
        const QueryResult there = EngineQuery::runBlocking(command.program, command.arguments);
        QVERIFY2(there.ok, qPrintable(there.error + there.stderrText));
        const QueryResult here = EngineQuery::runBlocking(ddplab::test::enginePath(), {QStringLiteral("devices")});
        QVERIFY(here.ok);
        QCOMPARE(there.object.value(QStringLiteral("protocol")), here.object.value(QStringLiteral("protocol")));
        QCOMPARE(there.object.value(QStringLiteral("torch_version")), here.object.value(QStringLiteral("torch_version")));
    }

    void aRemoteLessonMatchesTheLocalOneStepForStep()
    {
        const ResolvedPreset lesson = resolvePreset(QStringLiteral("seed004-sgd-scaling"), LessonLibrary::load(), PresetLibrary::load());
        QVERIFY2(lesson.error.isEmpty(), qPrintable(lesson.error));
        const RunStore store(m_runs.filePath(QStringLiteral("match")));
        QList<QList<QPointF>> losses[2];
        for (int where = 0; where < 2; ++where) {
            LabSession session(store, ddplab::test::enginePath());
            if (where == 1)
                session.setTarget(remote(QStringLiteral("labtest")));
            QSignalSpy done(&session, &LabSession::sequenceFinished);
            session.start(lesson.runs);
            QVERIFY(done.wait(kPatienceMs));
            QVERIFY2(done.first().first().toBool(), qPrintable(session.runs().last()->record().error));
            for (const QSharedPointer<RunData>& run : session.runs())
                losses[where].append(run->series(QStringLiteral("loss")));
            if (where == 1) {
                // Kept here as they arrived, and marked with where they ran.
                const RunRecord& record = session.runs().first()->record();
                QCOMPARE(record.host, QStringLiteral("labtest"));
                const QSharedPointer<RunData> reloaded = store.loadRun(record);
                QCOMPARE(reloaded->series(QStringLiteral("loss")), losses[1].first());
                QVERIFY(reloaded->hasSummary());
            }
        }
        QCOMPARE(losses[0].size(), lesson.runs.size());
        QVERIFY(!losses[0].first().isEmpty());
        QCOMPARE(losses[1], losses[0]);
        QVERIFY(waitUntilNoRemoteEngine(m_sshd->processId()));
    }

    void theTorchrunTemplateRunsThroughTheSameServer()
    {
        const ResolvedPreset lesson = resolvePreset(QStringLiteral("seed004-sgd-scaling"), LessonLibrary::load(), PresetLibrary::load());
        QVERIFY(lesson.error.isEmpty());
        const RunStore store(m_runs.filePath(QStringLiteral("torchrun")));
        QList<QPointF> losses[2];
        for (int where = 0; where < 2; ++where) {
            LabSession session(store, ddplab::test::enginePath());
            if (where == 1) {
                EngineTarget target = remote(QStringLiteral("labtest"));
                // Debian's torchrun by its full path: the remote PATH of a non-login shell is short.
                target.launcher = launchTemplates().at(1).command;
                target.launcher.replace(QStringLiteral("torchrun "), QStringLiteral("/usr/bin/torchrun "));
                session.setTarget(target);
            }
            QSignalSpy done(&session, &LabSession::sequenceFinished);
            session.start({lesson.runs.last()});  // two processes
            QVERIFY(done.wait(kPatienceMs));
            QVERIFY2(done.first().first().toBool(), qPrintable(session.runs().last()->record().error));
            losses[where] = session.runs().first()->series(QStringLiteral("loss"));
        }
        QVERIFY(!losses[0].isEmpty());
        QCOMPARE(losses[1], losses[0]);
    }

    void stopLeavesNothingRunningThere()
    {
        const RunStore store(m_runs.filePath(QStringLiteral("stop")));
        LabSession session(store, ddplab::test::enginePath());
        session.setTarget(remote(QStringLiteral("labtest")));
        QSignalSpy done(&session, &LabSession::sequenceFinished);
        QVERIFY(startLongRun(session));
        QElapsedTimer clock;
        clock.start();
        session.stop();
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(session.runs().first()->record().status, RunStatus::Cancelled);
        QVERIFY2(waitUntilNoRemoteEngine(m_sshd->processId()), "an engine process is still running on the remote side");
        QVERIFY2(clock.elapsed() < 15000, qPrintable(QString::number(clock.elapsed())));
    }

    void aKilledSshLeavesNothingRunningThere()
    {
        const RunStore store(m_runs.filePath(QStringLiteral("ssh")));
        LabSession session(store, ddplab::test::enginePath());
        session.setTarget(remote(QStringLiteral("labtest")));
        QSignalSpy done(&session, &LabSession::sequenceFinished);
        QVERIFY(startLongRun(session));
        const qint64 steps = session.currentRun()->stepCount();
        ::kill(pid_t(session.engineProcessId()), SIGKILL);  // the connection drops
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(session.runs().first()->record().status, RunStatus::Failed);
        QVERIFY(session.runs().first()->stepCount() >= steps);  // what arrived is kept
        QVERIFY2(waitUntilNoRemoteEngine(m_sshd->processId()), "an engine process is still running on the remote side");
    }

    void aKilledLabLeavesNothingRunningThere()
    {
        QTemporaryDir home;
        const QString config = writePreset(home, QStringLiteral("long.json"), presetFileContents(presetFromCoreConfig(longRun().first().config)));
        QProcess process;
        startLabOnHost(process, home, {QStringLiteral("--preset"), config, QStringLiteral("--run"), QStringLiteral("--quit")});
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < kPatienceMs && remoteEngines(m_sshd->processId()).size() < 3)
            QTest::qWait(100);
        QVERIFY2(remoteEngines(m_sshd->processId()).size() >= 3, qPrintable(QString::fromUtf8(process.readAllStandardError())));
        QTest::qWait(500);
        ::kill(pid_t(process.processId()), SIGKILL);
        process.waitForFinished(5000);
        QVERIFY2(waitUntilNoRemoteEngine(m_sshd->processId()), "an engine process is still running on the remote side");
    }

    void anAdviceOnTheHostChoosesTheBatchPerGpuByTheGoodputTimedThere()
    {
        // linreg known to train at 1 GPU x 16, planned for 4 GPUs, with every run on the host: the
        // batches per GPU the branch test allows are timed there and the one with the most
        // goodput, samples/s x (phi + B0) / (phi + B), is the one confirmed (issue 28 §3i).
        QTemporaryDir home;
        const QString preset = writePreset(home, QStringLiteral("linreg.json"),
                                           R"({"workload": "linreg", "loss_reduction": "mean", "noise": 0.01, "num_examples": 512, "dim": 16,
                                               "batch_size": 16, "world_size": 1, "lr": 0.5, "epochs": 4})");
        const QString folder = home.filePath(QStringLiteral("advice"));
        const QString starts = home.filePath(QStringLiteral("engine-starts"));
        QProcess process;
        startLabOnHost(process, home,
                       {QStringLiteral("--advise"), QStringLiteral("--preset"), preset, QStringLiteral("--gpus"), QStringLiteral("4"), QStringLiteral("--budget-min"),
                        QStringLiteral("2"), QStringLiteral("--export"), folder, QStringLiteral("--quit")},
                       countingEngine(home, starts));
        QVERIFY(process.waitForFinished(4 * kPatienceMs));
        const QString out = QString::fromUtf8(process.readAllStandardOutput()) + QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitCode() == 0, qPrintable(out));
        QFile written(folder + QStringLiteral("/advice.json"));
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QJsonObject advice = QJsonDocument::fromJson(written.readAll()).object();
        const QJsonObject goodput = advice.value(QStringLiteral("goodput")).toObject();
        QVERIFY2(goodput.value(QStringLiteral("timed_on")).toString().startsWith(QStringLiteral("labtest")), qPrintable(out));
        const double phi = goodput.value(QStringLiteral("noise_scale")).toDouble();
        QVERIFY2(phi > 0, QJsonDocument(goodput).toJson().constData());
        QCOMPARE(goodput.value(QStringLiteral("base_batch")).toDouble(), 16.0);
        // phi is never below what the branch test measured: every batch up to its critical batch
        // Bc within a tolerance eps of 16's loss at equal samples needs phi >= (Bc - (1 + eps) 16) / eps.
        const QJsonObject critical = advice.value(QStringLiteral("critical_batch")).toObject();
        const double bc = critical.value(QStringLiteral("value")).toDouble(), eps = critical.value(QStringLiteral("tolerance")).toDouble();
        QVERIFY2(phi >= (bc - (1.0 + eps) * 16.0) / eps * (1.0 - 1e-12), qPrintable(QStringLiteral("phi %1, Bc %2, eps %3").arg(phi).arg(bc).arg(eps)));
        QVERIFY(goodput.value(QStringLiteral("chosen")).toBool());
        qInfo("%s", qPrintable(goodput.value(QStringLiteral("verdict")).toString()));
        qInfo("critical batch %g; trimmed: %s", advice.value(QStringLiteral("critical_batch")).toObject().value(QStringLiteral("value")).toDouble(),
              QJsonDocument(advice.value(QStringLiteral("trimmed")).toArray()).toJson(QJsonDocument::Compact).constData());

        // Each timed batch's samples/s is the median of its run's own steps after the first five,
        // per rank: read back here from the stored runs the host streamed.
        RunStore store(home.filePath(QStringLiteral("data/ddplab/ddplab/runs")));
        QMap<QString, RunRecord> records;
        for (const RunRecord& record : store.listRuns())
            records.insert(record.id, record);
        QMap<qint64, double> perGpu;
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray()) {
            const QJsonObject run = item.toObject();
            if (run.value(QStringLiteral("phase")).toString() != QStringLiteral("throughput"))
                continue;
            QVERIFY(records.contains(run.value(QStringLiteral("run_id")).toString()));
            const QSharedPointer<RunData> data = store.loadRun(records.value(run.value(QStringLiteral("run_id")).toString()));
            QVERIFY(data);
            QList<double> paces;
            for (const QPointF& point : data->series(QStringLiteral("samples_per_sec")))
                if (point.x() > 5)
                    paces.append(point.y());
            QCOMPARE(paces.size(), 25);  // 30 steps
            std::sort(paces.begin(), paces.end());
            perGpu.insert(run.value(QStringLiteral("batch_per_gpu")).toInteger(), paces[12] / double(run.value(QStringLiteral("gpus")).toInt()));
        }
        // Those timed: the largest batch per GPU the branch test allows on 4 GPUs (its critical
        // batch over 4: past 16 only where it measured 4 GPUs at 32 and 64 within its tolerance)
        // and its halves while 4 GPUs' batch stays at the base's 16 or above, at most four.
        QList<qint64> expected;
        for (qint64 b = qint64(bc) / 4; b >= 4 && expected.size() < 4; b /= 2)
            expected.prepend(b);
        QCOMPARE(perGpu.keys(), expected);

        // goodput = 4 x samples/s per GPU x (phi + 16) / (phi + 4b); the most of it is recommended.
        qint64 best = 0;
        double most = 0.0;
        const QJsonArray points = goodput.value(QStringLiteral("points")).toArray();
        QCOMPARE(points.size(), expected.size());
        for (const QJsonValue& item : points) {
            const QJsonObject point = item.toObject();
            const qint64 b = point.value(QStringLiteral("batch_per_gpu")).toInteger();
            const double pace = point.value(QStringLiteral("samples_per_sec_per_gpu")).toDouble();
            QVERIFY2(std::abs(pace / perGpu.value(b) - 1.0) < 1e-9, qPrintable(QStringLiteral("%1: %2 against %3").arg(b).arg(pace).arg(perGpu.value(b))));
            const double expected = 4.0 * pace * (phi + 16.0) / (phi + 4.0 * double(b));
            QVERIFY(std::abs(point.value(QStringLiteral("goodput")).toDouble() / expected - 1.0) < 1e-9);
            if (expected > most) {
                most = expected;
                best = b;
            }
        }
        QCOMPARE(goodput.value(QStringLiteral("best_batch_per_gpu")).toInteger(), best);
        QCOMPARE(advice.value(QStringLiteral("batch_per_gpu")).toInteger(), best);
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray())
            if (item.toObject().value(QStringLiteral("phase")).toString() == QStringLiteral("confirmation"))
                QCOMPARE(item.toObject().value(QStringLiteral("batch_per_gpu")).toInteger(), best);
        QFile markdown(folder + QStringLiteral("/advice.md"));
        QVERIFY(markdown.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(markdown.readAll()).contains(QStringLiteral("Speed: timed on labtest")));
        QVERIFY(QFileInfo::exists(folder + QStringLiteral("/advice-goodput.png")));
        QVERIFY(waitUntilNoRemoteEngine(m_sshd->processId()));

        // Every phase (base, branch test, timing, confirmation, ...) was asked of one engine on
        // the host: one SSH connection and one engine start for the whole advice, not one a phase.
        QSet<QString> phases;
        for (const QJsonValue& item : advice.value(QStringLiteral("evidence")).toArray())
            phases.insert(item.toObject().value(QStringLiteral("phase")).toString());
        QVERIFY2(phases.size() >= 4, qPrintable(QStringList(phases.values()).join(QLatin1Char(' '))));
        QCOMPARE(enginesStarted(starts, QStringLiteral("runs")), 1);
    }

    void anAdvicesPhasesShareOneEngineOnTheHostUntilItLetsGo()
    {
        // While an advice (or a study) holds the lab, the host's engine of a sequence that ended
        // stays, idle, with its connection, and the next phase is asked of it; when the lab is let
        // go its stdin ends and it is gone from the host, with the window still open.
        const RunStore store(m_runs.filePath(QStringLiteral("kept")));
        LabSession session(store, ddplab::test::enginePath());
        session.setTarget(remote(QStringLiteral("labtest")));
        ddplab::ui::test::ShortPhases phases(session, kPatienceMs);
        QVERIFY(session.claim(Busy::Advice));
        QVERIFY(phases.run(QStringLiteral("phase 1")));
        QVERIFY(session.engineStartSeconds() > 0);
        const QList<qint64> there = remoteEngines(m_sshd->processId());
        QVERIFY2(!there.isEmpty(), "the host's engine was not kept");
        QVERIFY(phases.run(QStringLiteral("phase 2")));
        QCOMPARE(session.engineStartSeconds(), 0.0);  // asked of the kept engine
        QCOMPARE(remoteEngines(m_sshd->processId()), there);
        // The connection drops while the engine waits between phases: the host's engine goes
        // with it, and the next phase, asked at once (its exit maybe not yet delivered here),
        // starts another.
        ::kill(pid_t(session.engineProcessId()), SIGKILL);
        QVERIFY(waitUntilNoRemoteEngine(m_sshd->processId()));
        QVERIFY2(phases.run(QStringLiteral("phase 3")), qPrintable(session.runs().isEmpty() ? QStringLiteral("no run") : session.runs().last()->record().error));
        QVERIFY(session.engineStartSeconds() > 0);
        QVERIFY(!remoteEngines(m_sshd->processId()).isEmpty());
        session.release(Busy::Advice);
        QVERIFY(waitUntilNoRemoteEngine(m_sshd->processId()));
        QTRY_COMPARE_WITH_TIMEOUT(session.engineProcessId(), qint64(0), kLeftoverPatienceMs);
        // Runs started on their own are not kept: their engine ends with them.
        QVERIFY(phases.run(QStringLiteral("a run alone")));
        QVERIFY(session.engineStartSeconds() > 0);
        QVERIFY(waitUntilNoRemoteEngine(m_sshd->processId()));
    }

    void aMissingRemoteEngineEndsTheHeadlessLabWithItsOwnCode()
    {
        // ssh passes the remote shell's 127 on; the lab said "exit code 127", no code of its own.
        QTemporaryDir home;
        const QString config = writePreset(home, QStringLiteral("short.json"), R"({"workload": "toy", "world_size": 1, "batch_size": 4, "num_examples": 16, "epochs": 1})");
        QProcess process;
        startLabOnHost(process, home, {QStringLiteral("--preset"), config, QStringLiteral("--run"), QStringLiteral("--quit")}, QStringLiteral("/no/such/ddplab-engine"));
        QVERIFY(process.waitForFinished(kPatienceMs));
        const QString out = QString::fromUtf8(process.readAllStandardOutput());
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 1, qPrintable(QString::number(process.exitCode()) + QLatin1Char(' ') + out + err));
        QVERIFY2(out.contains(QStringLiteral("[1/1] short: failed, 0 steps — There is no engine at \"/no/such/ddplab-engine\" on labtest")),
                 qPrintable(out));
        QVERIFY2(err.contains(QStringLiteral("not every run succeeded (exit code 1)")), qPrintable(err));
    }

    void failuresSayWhatToDo_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown host key") << QStringLiteral("unknownkey") << ddplab::test::enginePath()
                                          << QStringLiteral("The host key of unknownkey is not known");
        QTest::newRow("wrong engine path") << QStringLiteral("labtest") << QStringLiteral("/nowhere/ddplab-engine")
                                           << QStringLiteral("There is no engine at \"/nowhere/ddplab-engine\" on labtest");
        QTest::newRow("closed port") << QStringLiteral("closedport") << ddplab::test::enginePath() << QStringLiteral("Cannot reach closedport");
    }

    void failuresSayWhatToDo()
    {
        QFETCH(QString, host);
        QFETCH(QString, engine);
        QFETCH(QString, expected);
        const EngineTarget target = remote(host, engine);
        QElapsedTimer clock;
        clock.start();
        const EngineCommand command = engineCommand(target, QString(), {QStringLiteral("devices")});
        const QueryResult result = EngineQuery::runBlocking(command.program, command.arguments, 20000);
        QVERIFY(!result.ok);
        const QString why = explainRemoteFailure(target, result.exitCode, result.stderrText);
        QVERIFY2(why.startsWith(expected), qPrintable(why + QStringLiteral(" | ") + result.stderrText));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));

        // A run says the same, as its error.
        const RunStore store(m_runs.filePath(QStringLiteral("fail")));
        LabSession session(store, ddplab::test::enginePath());
        session.setTarget(target);
        QSignalSpy done(&session, &LabSession::sequenceFinished);
        session.start(longRun());
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY2(session.runs().first()->record().error.startsWith(expected), qPrintable(session.runs().first()->record().error));
    }

    void hostsAndPathsAreChecked_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("expected");
        QTest::newRow("option as host") << QStringLiteral("-oProxyCommand=x") << QString() << QStringLiteral("is not a host");
        QTest::newRow("shell in host") << QStringLiteral("gpu1;reboot") << QString() << QStringLiteral("is not a host");
        QTest::newRow("bad port") << QStringLiteral("gpu1:99999") << QString() << QStringLiteral("port");
        QTest::newRow("shell in path") << QStringLiteral("gpu1") << QStringLiteral("ddplab-engine; rm -rf ~") << QStringLiteral("not an engine path");
        QTest::newRow("fine") << QStringLiteral("me@gpu-1.lab:2222") << QStringLiteral("/opt/ddplab/bin/ddplab-engine") << QString();
    }

    void hostsAndPathsAreChecked()
    {
        QFETCH(QString, text);
        QFETCH(QString, engine);
        QFETCH(QString, expected);
        QString error;
        const EngineTarget target = parseEngineTarget(text, engine, &error);
        if (expected.isEmpty()) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QCOMPARE(target.port, 2222);
            const EngineCommand command = engineCommand(target, QString(), {QStringLiteral("runs"), QStringLiteral("it's")});
            QCOMPARE(command.arguments.last(), QStringLiteral("'/opt/ddplab/bin/ddplab-engine' 'runs' 'it'\\''s'"));
            QCOMPARE(command.arguments.at(command.arguments.size() - 2), QStringLiteral("me@gpu-1.lab"));
            QCOMPARE(command.arguments.at(command.arguments.size() - 3), QStringLiteral("--"));
        } else {
            QVERIFY2(error.contains(expected), qPrintable(error));
        }
    }

    void cleanupTestCase()
    {
        m_sshd.reset();
    }
};

DDPLAB_UI_TEST_MAIN(TestRemoteRuns)
#include "tst_remote_runs.moc"
