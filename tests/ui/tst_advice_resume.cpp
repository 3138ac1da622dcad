// SPDX-License-Identifier: GPL-3.0-or-later
// A stopped advice resumed (docs/advisor.md): on linreg to 2 GPUs, an advice (the one advice job
// the page and --advise run) stopped in its branch test and resumed from its folder takes the base run and the branch runs that had
// finished from the run store instead of running them again (the run store gains exactly the
// runs that had not), and ends with the recommendation of the same advice run without a stop; the
// cost the plan is sized with leaves out the engine's start, live and replayed. An
// advice whose runs' disk fills up stops saying so, kept as stopped with no run left "running",
// and resumed once there is room it ends.

#include "client/advisor/advice_estimate.hpp"
#include "client/advisor/advice_job.hpp"
#include "client/advisor/advice_progress.hpp"
#include "client/advisor/advice_store.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "support/engine_process.hpp"
#include "support/full_disk.hpp"
#include "ui_test_main.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cmath>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 300000;

// The settings a person knows work: linreg at 1 GPU x 8, LR 2, 8 epochs of 512 examples.
const QJsonObject kBase{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("loss_reduction"), QStringLiteral("mean")},
                        {QStringLiteral("noise"), 0.01},  {QStringLiteral("num_examples"), 512}, {QStringLiteral("dim"), 16},
                        {QStringLiteral("batch_size"), 8}, {QStringLiteral("world_size"), 1},      {QStringLiteral("lr"), 2.0},
                        {QStringLiteral("epochs"), 8}};

// An advice of kBase for 2 GPUs with more budget than it needs (no phase is cut to the time left),
// or within `budgetSeconds`.
std::optional<AdviceRequest> linregForTwoGpus(QString* error, double budgetSeconds = 600)
{
    const std::optional<ddplab::Config> base = coreConfigOf(kBase, error);
    if (!base)
        return std::nullopt;
    AdviceRequest request;
    request.base = *base;
    request.gpus = 2;
    request.budgetSeconds = budgetSeconds;
    return request;
}

// The stored ids the progress file holds, phase by phase.
QList<QStringList> storedIds(const QString& progressFile)
{
    QFile file(progressFile);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> phases;
    for (const QJsonValue& phase : QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("phases")).toArray()) {
        QStringList ids;
        for (const QJsonValue& run : phase.toObject().value(QStringLiteral("runs_planned")).toArray())
            ids.append(run.toObject().value(QStringLiteral("run_id")).toString());
        phases.append(ids);
    }
    return phases;
}

// The base phase's seconds and, of them, the engine's start, as the progress file holds them.
std::pair<double, double> basePhaseSeconds(const QString& progressFile)
{
    QFile file(progressFile);
    if (!file.open(QIODevice::ReadOnly))
        return {0.0, 0.0};
    const QJsonObject base = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("phases")).toArray().first().toObject();
    return {base.value(QStringLiteral("ended_at_s")).toDouble() - base.value(QStringLiteral("started_at_s")).toDouble(),
            base.value(QStringLiteral("engine_start_s")).toDouble()};
}

// When the branch test's phase (the second) started, on the advice's clock.
double branchStartOf(const QString& progressFile)
{
    QFile file(progressFile);
    if (!file.open(QIODevice::ReadOnly))
        return -1.0;
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("phases")).toArray().at(1).toObject().value(QStringLiteral("started_at_s")).toDouble(-1.0);
}

constexpr double kClockSlack = 0.1;    // seconds between the phase's end and the job reading the clock

}  // namespace

class TestAdviceResume : public QObject {
    Q_OBJECT

private slots:
    void aResumedAdviceTakesTheFinishedRunsAndEndsTheSame()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const RunStore store(home.filePath(QStringLiteral("runs")));
        LabSession session(store, ddplab::test::enginePath());
        QString error;
        const std::optional<AdviceRequest> request = linregForTwoGpus(&error);
        QVERIFY2(request, qPrintable(error));

        const AdviceStore adviceStore(home.filePath(QStringLiteral("advice")));

        // Without a stop.
        AdviceJob whole(session, adviceStore);
        QSignalSpy wholeEnd(&whole, &AdviceJob::finished);
        QVERIFY2(whole.start(*request), qPrintable(whole.problem()));
        QVERIFY(wholeEnd.wait(kPatienceMs));
        QVERIFY2(wholeEnd.front().front().toBool(), qPrintable(whole.problem()));
        const Advice expected = whole.advice();
        const qsizetype allRuns = expected.evidence.size();
        QVERIFY(allRuns > 10);

        // Stopped in the branch test, once three of its runs have ended.
        AdviceJob stopped(session, adviceStore);
        QSignalSpy stoppedEnd(&stopped, &AdviceJob::finished);
        int branchRunsEnded = 0;
        connect(&session, &LabSession::runFinished, &stopped, [&] {
            if (stopped.isRunning() && stopped.progressText().startsWith(QStringLiteral("range test")) && ++branchRunsEnded == 3)
                QTimer::singleShot(0, &stopped, [&stopped] { stopped.stop(); });
        });
        QVERIFY2(stopped.start(*request), qPrintable(stopped.problem()));
        QVERIFY(stoppedEnd.wait(kPatienceMs));
        QCOMPARE(stoppedEnd.front().front().toBool(), false);
        const StoredAdvice stoppedFolder = adviceStore.open(stopped.folderId());
        QVERIFY(stoppedFolder.stopped);
        const QList<QStringList> kept = storedIds(stoppedFolder.progressFile());
        QCOMPARE(kept.size(), 2);  // the base run's phase and the branch test's
        QCOMPARE(kept[0].size(), 1);
        QVERIFY(!kept[0][0].isEmpty());
        const qsizetype keptBranchRuns = kept[1].size() - kept[1].count(QString());
        QCOMPARE(keptBranchRuns, 3);

        // The engine's start (LibTorch's load) was the base phase's, and no run's cost: the plan
        // is sized with a run's own start and end (it had been 1.1 s where later runs took 0.2 s).
        const auto [baseSeconds, engineStart] = basePhaseSeconds(stoppedFolder.progressFile());
        QVERIFY2(engineStart > 0 && engineStart < baseSeconds, qPrintable(QStringLiteral("%1 of %2 s").arg(engineStart).arg(baseSeconds)));
        const double perRun = stopped.runCost().perRun();
        QVERIFY2(perRun <= std::max(RunCost::kFewestPerRun, baseSeconds - engineStart) + kClockSlack,
                 qPrintable(QStringLiteral("%1 s a run; the base phase took %2 s, %3 of them the engine's start").arg(perRun).arg(baseSeconds).arg(engineStart)));

        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 30000);  // the stop ends the engine's run
        // Each run that ended says when, on the advice's clock.
        QString unread;
        const double stoppedClock = clockOfProgress(readProgress(stoppedFolder.progressFile(), &unread).value_or(QJsonObject()));
        QVERIFY2(stoppedClock > branchStartOf(stoppedFolder.progressFile()), qPrintable(QString::number(stoppedClock)));

        // Resumed: the base run and the three branch runs are taken from the store, and its clock
        // goes on from the last of them (it went on from the branch test's start, and a resumed
        // advice stopped 12 s in counted 0.8 s of them).
        const qsizetype storedBefore = store.listRuns().size();
        AdviceJob resumed(session, adviceStore);
        QSignalSpy resumedEnd(&resumed, &AdviceJob::finished);
        double clockAtFirstNewRun = -1;
        connect(&session, &LabSession::runStarted, &resumed, [&] {
            if (clockAtFirstNewRun < 0)
                clockAtFirstNewRun = resumed.clockSeconds();
        });
        QVERIFY2(resumed.resume(stoppedFolder.directory), qPrintable(resumed.problem()));
        QVERIFY(resumedEnd.wait(kPatienceMs));
        QVERIFY2(resumedEnd.front().front().toBool(), qPrintable(resumed.problem()));
        QCOMPARE(resumed.reusedRuns(), 4);
        QVERIFY2(clockAtFirstNewRun >= stoppedClock, qPrintable(QStringLiteral("%1 s, stopped at %2 s").arg(clockAtFirstNewRun).arg(stoppedClock)));
        QCOMPARE(store.listRuns().size() - storedBefore, allRuns - 4);  // only the runs that had not ended were run
        const Advice& got = resumed.advice();
        QCOMPARE(got.evidence.size(), allRuns);
        QCOMPARE(got.evidence.front().runId, kept[0][0]);  // the stopped advice's base run
        // Replayed, the base phase measures the same cost: its time then, its engine's start then.
        QVERIFY2(std::fabs(resumed.runCost().perRun() - perRun) <= kClockSlack,
                 qPrintable(QStringLiteral("%1 s a run resumed, %2 s before").arg(resumed.runCost().perRun()).arg(perRun)));
        qInfo("%lld runs; the resumed advice ran %lld; recommended %lld per GPU, LR %.6g (without a stop: %lld, %.6g)", qint64(allRuns),
              qint64(allRuns - 4), qint64(got.batchPerGpu), got.lr, qint64(expected.batchPerGpu), expected.lr);
        QCOMPARE(got.batchPerGpu, expected.batchPerGpu);
        QCOMPARE(got.effectiveBatch, expected.effectiveBatch);
        QCOMPARE(got.lr, expected.lr);
        QCOMPARE(got.lrRule, expected.lrRule);
        QCOMPARE(got.criticalBatch, expected.criticalBatch);
        QCOMPARE(got.warmupSteps, expected.warmupSteps);
        QCOMPARE(got.confidence, expected.confidence);
        QCOMPARE(got.horizonSamples, expected.horizonSamples);

        // Saved into its own folder, where nothing is left to resume.
        QVERIFY(adviceStore.open(stoppedFolder.id).advice);
        // A progress file that is not one is refused in a sentence.
        QVERIFY(QDir().mkpath(adviceStore.root() + QStringLiteral("/broken")));
        QFile broken(adviceStore.root() + QStringLiteral("/broken/progress.json"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"request\": ");
        broken.close();
        AdviceJob refused(session, adviceStore);
        QVERIFY(!refused.resume(QStringLiteral("broken")));
        QVERIFY2(refused.problem().contains(QStringLiteral("cannot be resumed")), qPrintable(refused.problem()));
    }

    void aFullDiskStopsTheAdviceSayingSoAndItResumesWithRoom()
    {
        // The runs' folder fills up once the base run has ended: the advice used to go on,
        // concluding "fewer than 3 of the confirmation's LRs trained without diverging" from runs
        // that measured nothing, one of them left "running" (issue 41).
        // Within 30 s with its cost pinned (advice_estimate.hpp): this case is about the full disk
        // and the resume, not the plan, so half the plan does (the advice that ran all its 50 runs
        // in 44 s of this suite's 140 ends in 29); pinned, its cuts and so its ending with an
        // LR are the same at any load.
        qputenv(kPinnedCostVariable, "1");
        const auto unpin = qScopeGuard([] { qunsetenv(kPinnedCostVariable); });
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString runsFolder = home.filePath(QStringLiteral("runs"));
        QVERIFY(QDir().mkpath(runsFolder));
        ddplab::test::FullDisk disk(runsFolder, 64 * 1024);  // room for the whole advice once the filler goes
        const RunStore store(runsFolder);
        LabSession session(store, ddplab::test::enginePath());
        QString error;
        const std::optional<AdviceRequest> request = linregForTwoGpus(&error, 30);
        QVERIFY2(request, qPrintable(error));
        const AdviceStore adviceStore(home.filePath(QStringLiteral("advice")));

        AdviceJob job(session, adviceStore);
        QSignalSpy ended(&job, &AdviceJob::finished);
        bool filled = false;
        connect(&session, &LabSession::runFinished, &job, [&] {
            if (!filled) {
                filled = true;
                disk.fill();
            }
        });
        QVERIFY2(job.start(*request), qPrintable(job.problem()));
        QVERIFY(ended.wait(kPatienceMs));
        QTRY_VERIFY_WITH_TIMEOUT(!session.isRunning(), 30000);
        disk.release();
        QCOMPARE(ended.front().front().toBool(), false);
        qInfo("stopped: %s", qPrintable(job.problem()));
        QVERIFY2(job.problem().contains(QStringLiteral("is the disk full?")), qPrintable(job.problem()));
        QVERIFY2(!job.problem().contains(QStringLiteral("diverg")), qPrintable(job.problem()));
        const StoredAdvice kept = adviceStore.open(job.folderId());
        QVERIFY(kept.stopped);
        QVERIFY(!kept.advice);
        for (const RunRecord& run : store.listRuns())
            QVERIFY2(run.status != RunStatus::Running, qPrintable(run.name));

        // With room again, it goes on from where it stopped and ends.
        AdviceJob resumed(session, adviceStore);
        QSignalSpy resumedEnd(&resumed, &AdviceJob::finished);
        QVERIFY2(resumed.resume(kept.directory), qPrintable(resumed.problem()));
        QVERIFY(resumedEnd.wait(kPatienceMs));
        QVERIFY2(resumedEnd.front().front().toBool(), qPrintable(resumed.problem()));
        QVERIFY(resumed.reusedRuns() >= 1);  // the base run, which ended before the disk filled
        QVERIFY(adviceStore.open(kept.id).advice);
    }
};

DDPLAB_UI_TEST_MAIN(TestAdviceResume)
#include "tst_advice_resume.moc"
