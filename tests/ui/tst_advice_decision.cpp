// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's decision rules on recorded evidence, without a process (docs/advisor.md): each
// rule is a function of measured runs, fed here the failure shapes issue 46 found and what real
// advices measured:
//   - the batches are compared at your horizon, never a longer one, and a budget that cannot hold
//     it shortens them and says so;
//   - every batch is judged against yours over the same data orders (paired), so a batch whose
//     orders are 6 % apart is within noise, not worse, and the closest call gets more orders;
//   - an LR is advised only where it trained in every seed with no LR one step above it diverged,
//     the ladder extends down until its best is interior, the safe range has two ends around it,
//     and a rule in the band is named while the measured LR is given;
//   - a slow branch test leaves the confirmation its share of the budget (the reduced Fashion
//     CNN's measured costs);
//   - a trimmed plan lowers the confidence and names what it skipped; the confidence is read
//     from the panel's calibration table;
//   - the cautions come from the model's own layers.
// How long an advice takes, and what its plan does with the time, are tst_advice_time's.

#include "client/advisor/advice.hpp"
#include "client/advisor/advice_decision.hpp"
#include "client/advisor/advice_estimate.hpp"
#include "client/advisor/advice_progress.hpp"
#include "client/advisor/advice_phases.hpp"
#include "client/advisor/advice_plan.hpp"
#include "client/advisor/advice_request.hpp"
#include "client/advisor/batch_verdict.hpp"
#include "client/advisor/confidence.hpp"
#include "client/advisor/lr_choice.hpp"
#include "client/advisor/run_evidence.hpp"
#include "client/library/preset_file.hpp"
#include "client/study/study_estimate.hpp"
#include "core/derived.hpp"
#include "advice_recorded_evidence.hpp"
#include "advice_test_requests.hpp"
#include "ui_test_main.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ddplab::ui;
using namespace ddplab::ui::test;

namespace {

constexpr double kDiverged = std::numeric_limits<double>::infinity();

AdviceEvidence run(const QString& phase, int gpus, qint64 perGpu, double lr, qint64 seed, double measure)
{
    AdviceEvidence evidence;
    evidence.phase = phase;
    evidence.gpus = gpus;
    evidence.batchPerGpu = perGpu;
    evidence.lr = lr;
    evidence.seed = seed;
    evidence.measure = measure;
    return evidence;
}

// A batch's bracket (½, 1 and 2 x `lr`) in data orders 0.. with `atBest` the measures at `lr`
// (the bracket's best) and the other two LRs 10 % worse.
QList<AdviceEvidence> bracket(int gpus, qint64 perGpu, double lr, const QList<double>& atBest, const QString& phase = advice_phase::kBranch)
{
    QList<AdviceEvidence> runs;
    for (qsizetype order = 0; order < atBest.size(); ++order) {
        runs.append(run(phase, gpus, perGpu, lr / 2, order, atBest[order] * 1.1));
        runs.append(run(phase, gpus, perGpu, lr, order, atBest[order]));
        runs.append(run(phase, gpus, perGpu, lr * 2, order, atBest[order] * 1.1));
    }
    return runs;
}

}  // namespace

class TestAdviceDecision : public QObject {
    Q_OBJECT

private slots:
    // Issue 46: the branch test trained 54,272 samples where the training is 16,384. Now every
    // branch trains your training's samples, no more: from the start when the budget holds it
    // (as the truth does), else from the base run's checkpoint to your horizon's end.
    void batchesAreComparedAtYourHorizon()
    {
        // 1e-5 s a sample: everything fits.
        PlanContext context = planContextAfterBase(fashionMlpRequest(), RunCost::measured(1.0, 1e5, 1.2, 2.0, 5), 300);
        QCOMPARE(context.checkpointStep, qint64(100));
        const double horizon = 16384.0;
        const BranchPlan plan = planBranchTest(context);
        QVERIFY(!plan.shortened);
        QVERIFY(plan.fromStart);
        QCOMPARE(plan.horizon, horizon);
        int branches = 0;
        for (const PlannedRun& run : plan.runs) {
            if (run.phase != advice_phase::kBranch)
                continue;
            ++branches;
            QVERIFY(run.config.resumeFrom.empty());
            const double batch = double(run.gpus) * double(run.batch);
            const double samples = double(run.config.maxSteps) * batch;
            QVERIFY2(samples <= horizon + batch / 2 && samples >= horizon - batch / 2, qPrintable(QStringLiteral("%1 samples at batch %2").arg(samples).arg(batch)));
            QVERIFY(run.seed == context.request.base.seed || run.seed == context.request.base.seed + 1);  // the same two orders at every batch
        }
        QCOMPARE(branches, 6 * 3 * 2);  // batches 16 (half yours), 32, 64, 128 and 256, and 8 GPUs x 64 (the most per GPU): 3 LRs, 2 orders
        QCOMPARE(plan.batches.front().effective(), 16.0);
        QCOMPARE(plan.batches.front().gpus, 1);
        // Half your batch runs after your batch's and N GPUs' first order, around half your LR.
        QList<double> halfLrs;
        for (qsizetype i = 0; i < plan.runs.size(); ++i)
            if (plan.runs[i].phase == advice_phase::kBranch && plan.runs[i].gpus == 1 && plan.runs[i].batch == 16) {
                QVERIFY2(i >= plan.firstRuns, qPrintable(QString::number(i)));
                halfLrs.append(plan.runs[i].lr);
            }
        QCOMPARE(halfLrs.size(), 6);
        QVERIFY(std::abs(halfLrs[1] - 0.0585 / 2) < 1e-12);
        // The closest call's orders and a bracket's extension train as the branches do.
        const PlannedRun more = branchTestRun(context, plan, advice_phase::kRefinement, {1, 16}, 0.03, 7);
        QVERIFY(more.config.resumeFrom.empty() && more.config.maxSteps == 1024 && more.seed == 7);
        // A budget that cannot hold your horizon from the start branches from the checkpoint
        // first (said), then shortens the branches, never lengthens them, and says so.
        context.cost = RunCost::measured(1.0, 1e3, 1.2, 2.0, 5);  // 1e-3 s a sample
        context.secondsLeft = 60;
        const BranchPlan cut = planBranchTest(context);
        QVERIFY(!cut.fromStart);
        QCOMPARE(cut.horizon, 16384.0 - 100.0 * 32.0);
        QVERIFY(cut.shortened);
        QVERIFY(cut.samples < cut.horizon);
        for (const PlannedRun& run : cut.runs)
            if (run.phase == advice_phase::kBranch)
                QVERIFY(run.config.resumeFrom == "/tmp/step.pt" && run.config.maxSteps > context.checkpointStep);
        QVERIFY(std::any_of(cut.trimmed.begin(), cut.trimmed.end(), [](const QString& s) { return s.contains(QStringLiteral("not from the start")); }));
        QVERIFY(std::any_of(cut.trimmed.begin(), cut.trimmed.end(), [](const QString& s) { return s.contains(QStringLiteral("shorter horizon than yours")); }));
        // A batch per GPU above yours is measured only where your horizon holds two of its steps
        // (a new user's 3-sample horizon was measured over 512).
        const auto mostPerGpu = [](const BranchPlan& plan) {
            qint64 most = 0;
            for (const BranchBatch& batch : plan.batches)
                most = std::max(most, batch.perGpu);
            return most;
        };
        AdviceRequest stated = fashionMlpRequest();
        stated.horizonSamples = 1024;  // two steps of 8 GPUs x 64
        QCOMPARE(mostPerGpu(planBranchTest(planContextAfterBase(stated, RunCost::measured(1.0, 1e5, 1.2, 2.0, 5), 300))), qint64(64));
        stated.horizonSamples = 1000;
        QCOMPARE(mostPerGpu(planBranchTest(planContextAfterBase(stated, RunCost::measured(1.0, 1e5, 1.2, 2.0, 5), 300))), qint64(32));
    }

    // The panel's autoencoder (1 x 32, Adam at 0.005, 8,192 samples; the base run's checkpoint at
    // step 100 of 256): branched from that checkpoint, half your batch measured -1.4 % (interval
    // -3.1 % to +0.3 % over 8 orders), where the truth from the start has 32 at +8.9 % over 16.
    // With the time for it, half your batch and every batch compared with it now train your
    // 8,192 samples from the start, in the same orders.
    void halfYourBatchIsComparedFromTheStart()
    {
        const PlanContext context = planContextAfterBase(adamOverTwoEpochsOf4096(), RunCost::measured(1.0, 6400, 1.5, 3.0, 9), 280);
        QCOMPARE(horizonOf(context.request), 8192.0);
        QCOMPARE(context.checkpointStep, qint64(100));
        const BranchPlan plan = planBranchTest(context);
        QVERIFY2(plan.fromStart, qPrintable(plan.trimmed.join(QStringLiteral("; "))));
        QCOMPARE(plan.batches.front().effective(), 16.0);
        QMap<double, QSet<qint64>> ordersAt;
        for (const PlannedRun& run : plan.runs) {
            if (run.phase != advice_phase::kBranch)
                continue;
            QVERIFY(run.config.resumeFrom.empty());
            QCOMPARE(double(run.config.maxSteps) * double(run.gpus) * double(run.batch), 8192.0);
            ordersAt[double(run.gpus) * double(run.batch)].insert(run.seed);
        }
        QCOMPARE(ordersAt.value(16.0), ordersAt.value(32.0));
        QCOMPARE(ordersAt.value(16.0).size(), 2);
    }

    // Both brackets of the panel's autoencoder (from the checkpoint, recorded at 2a3e736) had their
    // best LR at their top edge: 16 at 0.005 of 0.00125-0.005, 32 at 0.01 of 0.0025-0.01. Each gets
    // one LR 2x past it in both orders, the half first; once that LR is worse, none more. The
    // panel's tabular_adamw (recorded at 2a3e736): 4 x 64 and 8 x 128 had their best at the lowest
    // LR (every LR above it far worse), 8 x 256 and 8 x 64 trained at fewer than 3 LRs, and the
    // others' best were interior.
    void aBracketWhoseBestSitsAtItsEdgeIsExtendedPastIt()
    {
        AdviceRequest request = fashionMlpRequest();
        request.base.optimizer = ddplab::OptimizerKind::Adam;
        request.base.lr = 0.005;
        QList<AdviceEvidence> runs;
        const auto add = [&runs](int gpus, qint64 perGpu, double lr, const QList<double>& measures) {
            for (qsizetype order = 0; order < measures.size(); ++order)
                runs.append(run(advice_phase::kBranch, gpus, perGpu, lr, order, measures[order]));
        };
        add(1, 32, 0.0025, {0.01719922, 0.01726163});
        add(1, 32, 0.005, {0.01644931, 0.01664684});
        add(1, 32, 0.01, {0.01638099, 0.01579863});
        add(1, 16, 0.00125, {0.01754814, 0.01757309});
        add(1, 16, 0.0025, {0.01654715, 0.01686349});
        add(1, 16, 0.005, {0.01594586, 0.01603630});
        QList<BracketExtension> edges = bracketEdgeExtensions(request, runs);
        QCOMPARE(edges.size(), 2);
        QVERIFY(edges[0].gpus == 1 && edges[0].perGpu == 16 && edges[0].up && std::abs(edges[0].lr - 0.01) < 1e-12);
        QVERIFY(edges[1].gpus == 1 && edges[1].perGpu == 32 && edges[1].up && std::abs(edges[1].lr - 0.02) < 1e-12);
        QCOMPARE(edges[0].seeds, (QList<qint64>{0, 1}));
        // The LRs past the edges trained worse: both bests are interior now.
        add(1, 16, 0.01, {0.0163, 0.0164});
        add(1, 32, 0.02, {0.0170, 0.0168});
        QVERIFY(bracketEdgeExtensions(request, runs).isEmpty());
        // A closest call's extra order at one LR does not count as the bracket's.
        runs.append(run(advice_phase::kRefinement, 1, 16, 0.00125, 2, 0.0100));
        QVERIFY(bracketEdgeExtensions(request, runs).isEmpty());

        AdviceRequest tabular = fashionMlpRequest();
        tabular.base.batchSize = 64;
        tabular.base.optimizer = ddplab::OptimizerKind::AdamW;
        tabular.base.lr = 0.006;
        runs.clear();
        add(1, 64, 0.003, {0.35983490, 0.36718019});
        add(1, 64, 0.006, {0.33877788, 0.35758483});
        add(1, 64, 0.012, {0.49885920, 0.36533225});
        add(8, 64, 0.024, {1.73463141, 1.69017944});
        add(8, 64, 0.048, {kDiverged, kDiverged});
        add(8, 64, 0.096, {kDiverged, kDiverged});
        add(1, 32, 0.0015, {0.36898574, 0.36934968});
        add(1, 32, 0.003, {0.35867763, 0.35778648});
        add(1, 32, 0.006, {0.39271292, 0.35435580});
        add(2, 64, 0.006, {0.36737503, 0.36805535});
        add(2, 64, 0.012, {0.36564775, 0.35476092});
        add(2, 64, 0.024, {0.50853030, 0.41421127});
        add(4, 64, 0.012, {0.46816441, 0.54846764});
        add(4, 64, 0.024, {0.69773795, 1.02581686});
        add(4, 64, 0.048, {1.52991870, 1.66986894});
        add(8, 128, 0.048, {0.75033344, 0.70245107});
        add(8, 128, 0.096, {2.27904177, 2.96410859});
        add(8, 128, 0.192, {4.06462574, 4.16692239});
        add(8, 256, 0.096, {0.66721551, 2.27604014});
        add(8, 256, 0.192, {8.02888942, 20.34393167});
        add(8, 256, 0.384, {kDiverged, kDiverged});
        edges = bracketEdgeExtensions(tabular, runs);
        QCOMPARE(edges.size(), 2);
        QVERIFY(edges[0].gpus == 4 && edges[0].perGpu == 64 && !edges[0].up && std::abs(edges[0].lr - 0.006) < 1e-12);
        QVERIFY(edges[1].gpus == 8 && edges[1].perGpu == 128 && !edges[1].up && std::abs(edges[1].lr - 0.024) < 1e-12);
    }

    // The panel's gru (1 x 16, Adam at 0.01, 8,192 samples, at bc18c9c): the branch test with half
    // your batch took its share, the closest call the rest, and the budget ended with 7 of the
    // confirmation's 10 runs. The branch test now never takes the ladder's 10 runs over your
    // horizon (up to half the time left): it is cut instead, and says what it left out.
    void theBranchTestNeverTakesTheLaddersRuns()
    {
        PlanContext context;
        context.request = adamOverTwoEpochsOf4096();
        context.request.base.batchSize = 16;
        context.request.base.lr = 0.01;
        context.request.maxBatchPerGpu = 16;
        context.checkpointStep = planBase(context.request).checkpointStep;
        QCOMPARE(context.checkpointStep, qint64(100));
        context.checkpoint = QStringLiteral("/tmp/step.pt");
        // The base run's 200 steps of 16 (3,200 samples) took 29 s on the advice's clock.
        context.cost = RunCost::measured(8.0, 3200, 11.0, 29.0, 9);
        context.secondsLeft = 300 - 29;
        const BranchPlan plan = planBranchTest(context);
        const double reserve = ladderReserveSeconds(context, 16);
        QVERIFY2(plan.seconds <= context.secondsLeft - reserve + 1e-9, qPrintable(QStringLiteral("%1 of %2, ladder %3").arg(plan.seconds).arg(context.secondsLeft).arg(reserve)));
        QCOMPARE(reserve, 0.5 * context.secondsLeft);  // the ladder over your horizon needs more
        QVERIFY(plan.thinned && !plan.trimmed.isEmpty());
        // What it leaves holds the ladder's 10 runs at the steps the confirmation is given.
        context.secondsLeft -= plan.seconds;
        bool along = true;
        const qint64 steps = confirmationSteps(context, 16, kLadderRungs, nullptr, &along);
        const double ladder = double(kLadderRungs * kSeeds) * context.cost.seconds(double(steps) * 128.0, along ? 5.0 : 1.0);
        QVERIFY2(ladder <= context.secondsLeft, qPrintable(QStringLiteral("%1 s for the ladder, %2 s left").arg(ladder).arg(context.secondsLeft)));
        // At 70dadd7 under load 7-9 the runs took longer than the base run said, and the ladder
        // sized at its pace lost 5 of its 10 runs: sized at the pace measured, they fit at it.
        context.secondsLeft = 300;
        const qint64 atOne = confirmationSteps(context, 16, kLadderRungs, nullptr, &along);
        QVERIFY2(atOne > 20 && atOne < 64, qPrintable(QString::number(atOne)));
        const double pace = 1.8;
        const qint64 slower = confirmationStepsAtPace(context, 16, kLadderRungs, pace, nullptr, &along);
        QVERIFY2(slower < atOne, qPrintable(QStringLiteral("%1 steps at pace 1.8, %2 at 1").arg(slower).arg(atOne)));
        const double atPace = pace * double(kLadderRungs * kSeeds) * context.cost.seconds(double(slower) * 128.0, along ? 5.0 : 1.0);
        QVERIFY2(atPace <= context.secondsLeft, qPrintable(QStringLiteral("%1 s for the ladder at pace 1.8, %2 s left").arg(atPace).arg(context.secondsLeft)));
        QCOMPARE(confirmationStepsAtPace(context, 16, kLadderRungs, 0.5, nullptr), atOne);  // never more for a faster pace
    }

    // The reduced Fashion CNN of tst_advisor_headless on 4 GPUs in 90 s, with the costs its base
    // run measured here (64 steps: 2.4 s of training, 19.8 s in all with 8 evaluations of 2,000
    // validation images, 21.5 s with the process): the branch test's floors took 62 s of the 69 s
    // left, no confirmation ran, and the LR was the branch bracket's edge from the checkpoint
    // (0.025, validation loss 1.055 from the start against 0.919 at 0.05). Now the plan drops the
    // measurements along the way first (each branch measured at its end), orders the branches data
    // order by data order (a cut leaves every batch paired), and gives the branch test a share the
    // job cuts it at, leaving the confirmation its runs.
    void aSlowBranchTestLeavesTheConfirmationItsShare()
    {
        PlanContext context;
        QString error;
        const std::optional<ddplab::Config> base = coreConfigOf(QJsonObject{{QStringLiteral("workload"), QStringLiteral("fashion_mnist")},
                                                                            {QStringLiteral("model"), QStringLiteral("cnn")},
                                                                            {QStringLiteral("train_subset"), 2048},
                                                                            {QStringLiteral("epochs"), 1},
                                                                            {QStringLiteral("batch_size"), 32},
                                                                            {QStringLiteral("world_size"), 1},
                                                                            {QStringLiteral("optimizer"), QStringLiteral("sgd")},
                                                                            {QStringLiteral("momentum"), 0.9},
                                                                            {QStringLiteral("lr"), 0.05}},
                                                                &error);
        QVERIFY2(base, qPrintable(error));
        context.request.base = *base;
        context.request.gpus = 4;
        context.request.maxBatchPerGpu = 512;
        context.request.budgetSeconds = 90;
        context.checkpointStep = planBase(context.request).checkpointStep;
        context.checkpoint = QStringLiteral("/tmp/step.pt");
        context.cost = RunCost::measured(2.4326, 2048, 19.763, 21.5, 8);
        context.secondsLeft = 90 - 21.5;
        QCOMPARE(context.checkpointStep, qint64(32));
        const BranchPlan plan = planBranchTest(context);
        QVERIFY(!plan.measureAlong);
        QVERIFY(std::any_of(plan.trimmed.begin(), plan.trimmed.end(), [](const QString& s) { return s.contains(QStringLiteral("only at their end")); }));
        QVERIFY2(plan.seconds > 0.25 * context.secondsLeft && plan.seconds < 0.75 * context.secondsLeft, qPrintable(QStringLiteral("%1 of %2, ladder %3").arg(plan.seconds).arg(context.secondsLeft).arg(ladderReserveSeconds(context, 8))));
        QVERIFY(!plan.shortened);  // your horizon before the fit's measurements
        // The first data order of your batch (32) and N GPUs' (128), then the range test at 128
        // (never cut for the share: it bounds the LRs), then the second order.
        QCOMPARE(plan.firstRuns, 7);
        QList<std::pair<double, qint64>> firstSeven;
        for (qsizetype i = 0; i < 7; ++i)
            firstSeven.append({double(plan.runs[i].gpus) * double(plan.runs[i].batch), plan.runs[i].seed});
        QCOMPARE(firstSeven, (QList<std::pair<double, qint64>>{{32, 0}, {32, 0}, {32, 0}, {128, 0}, {128, 0}, {128, 0}, {128, 0}}));
        QCOMPARE(plan.runs[6].phase, advice_phase::kRangeTest);
        QCOMPARE(plan.runs[7].seed, qint64(1));
        for (const PlannedRun& run : plan.runs)
            if (run.phase == advice_phase::kBranch)
                QVERIFY(run.config.evalEvery.value_or(-1) == 0);
        // The confirmation with what the branch test leaves: your horizon cut to its fewest steps,
        // measured at the end only (the LR is chosen on that), said.
        context.secondsLeft -= plan.seconds;
        QStringList trimmed;
        bool along = true;
        const qint64 steps = confirmationSteps(context, 8, kLadderRungs, &trimmed, &along);
        QVERIFY(!along);
        QCOMPARE(steps, qint64(20));
        QCOMPARE(trimmed.size(), 2);
        QVERIFY(confirmationRun(context, advice_phase::kConfirmation, 4, 8, 0.05, 0, steps, along).config.evalEvery.value_or(-1) == 0);
        // With time enough, it measures along the way as before.
        context.secondsLeft = 3000;
        QVERIFY(confirmationSteps(context, 8, kLadderRungs, nullptr, &along) == 64 && along);
    }

    // Issue 46's residual MLP: your batch's two orders 0.8 % apart, the larger batch's 6 %. Paired
    // over the orders, the larger batch is within noise (not worse), and it is the closest call.
    void aBatchWhoseOrdersDisagreeIsWithinNoiseNotWorse()
    {
        QList<AdviceEvidence> runs = bracket(1, 32, 0.05, {1.000, 1.008});
        runs += bracket(2, 32, 0.1, {1.010, 1.070});
        runs += bracket(4, 32, 0.2, {1.30, 1.32});  // clearly worse
        const BatchJudgement judged = judgeBatches(runs, 32);
        QVERIFY(judged.ok);
        QCOMPARE(judged.batches.size(), 3);
        const BatchVerdict& doubled = judged.batches[1];
        QCOMPARE(doubled.orders, 2);
        QCOMPARE(doubled.lr, 0.1);
        const double d0 = 1.010 / 1.000 - 1.0, d1 = 1.070 / 1.008 - 1.0;
        QVERIFY(std::abs(doubled.difference - (d0 + d1) / 2) < 1e-12);
        const double half = tQuantile90(1) * std::abs(d1 - d0) / 2.0;
        QVERIFY(std::abs(doubled.high - (doubled.difference + half)) < 1e-12);
        QCOMPARE(doubled.call, BatchCall::WithinNoise);
        QCOMPARE(judged.batches[2].call, BatchCall::Worse);
        // The old rule (the mean against max(2 %, your orders' 0.8 %)) called it past the critical
        // batch; here the mean (+3.6 %) still decides, but it is the closest call.
        QCOMPARE(judged.criticalBatch, 32.0);
        QCOMPARE(judged.closestCall, 1);

        // More orders for the closest call (the sequential part): a batch whose two orders were 3 %
        // apart (+2.6 % on their mean, past the old rule's 2 %) is within the tolerance once six
        // more orders, each about +0.2 %, narrow its interval.
        QList<AdviceEvidence> closer = bracket(1, 32, 0.05, {1.000, 1.008});
        closer += bracket(2, 32, 0.1, {1.015, 1.045});
        QCOMPARE(judgeBatches(closer, 32).batches[1].call, BatchCall::WithinNoise);
        for (const auto& [order, ours, theirs] : {std::tuple{2, 1.004, 1.006}, std::tuple{3, 1.001, 1.003}, std::tuple{4, 1.006, 1.008},
                                                  std::tuple{5, 1.003, 1.005}, std::tuple{6, 1.002, 1.004}, std::tuple{7, 1.005, 1.007}}) {
            closer.append(run(advice_phase::kRefinement, 1, 32, 0.05, order, ours));
            closer.append(run(advice_phase::kRefinement, 2, 32, 0.1, order, theirs));
        }
        const BatchJudgement refined = judgeBatches(closer, 32);
        QCOMPARE(refined.batches[1].orders, 8);
        QVERIFY2(refined.batches[1].call == BatchCall::Within, qPrintable(verdictWords(refined.batches[1], refined.tolerance)));
        QCOMPARE(refined.criticalBatch, 64.0);
        QCOMPARE(refined.closestCall, -1);
    }

    // The panel's logreg (1 x 8 at LR 0.8, to 8 GPUs; main @ 643c994), its branch test and
    // refinement as recorded: 8 x 8 stayed within noise after 8 orders (+1.9 %, interval +0.7 % to
    // +3.1 %) while 4 x 8 was within (+1.1 %, +0.4 % to +1.9 % over 3 orders). The advice was
    // 8 x 8; the truth put batch 64 +2.6 % ± 0.8 over the best, outside the right set {8, 16, 32}.
    // A batch within noise is never advised over a smaller one known good: 8 GPUs x 4.
    void aBatchWithinNoiseIsNotAdvisedOverOneKnownGood()
    {
        QList<AdviceEvidence> runs;
        const auto branch = [&](int gpus, qint64 perGpu, double lr, const QList<double>& byOrder, const QString& phase = advice_phase::kBranch) {
            for (qsizetype order = 0; order < byOrder.size(); ++order)
                runs.append(run(phase, gpus, perGpu, lr, order, byOrder[order]));
        };
        branch(1, 8, 0.4, {0.8386, 0.8375});
        branch(1, 8, 0.8, {0.8304, 0.8246});
        branch(1, 8, 1.6, {0.8890, 0.8549});
        branch(2, 8, 0.8, {0.8414, 0.8372});
        branch(2, 8, 1.6, {0.8403, 0.8239});
        branch(2, 8, 3.2, {0.9155, 0.8713});
        branch(4, 8, 1.6, {0.8407, 0.8414});
        branch(4, 8, 3.2, {0.8357, 0.8374});
        branch(4, 8, 6.4, {0.9174, 0.9141});
        branch(8, 8, 3.2, {0.8419, 0.8649});
        branch(8, 8, 6.4, {0.8725, 0.9672});
        branch(8, 8, 12.8, {1.2633, 1.5278});
        branch(8, 16, 6.4, {0.8709, 0.8697});
        branch(8, 16, 12.8, {0.8987, 1.0081});
        branch(8, 16, 25.6, {1.2963, 3.3799});
        const double base[] = {0.8304, 0.8246, 0.7959, 0.8680, 0.8300, 0.8545, 0.8670, 0.8324};
        const double wide[] = {0.8419, 0.8649, 0.8280, 0.8658, 0.8381, 0.8582, 0.8798, 0.8498};
        for (int order = 2; order < 8; ++order) {
            runs.append(run(advice_phase::kRefinement, 1, 8, 0.8, order, base[order]));
            runs.append(run(advice_phase::kRefinement, 8, 8, 3.2, order, wide[order]));
        }
        runs.append(run(advice_phase::kRefinement, 2, 8, 1.6, 2, 0.8019));
        runs.append(run(advice_phase::kRefinement, 4, 8, 3.2, 2, 0.8053));
        const BatchJudgement judged = judgeBatches(runs, 8);
        QCOMPARE(judged.batches.size(), 5);
        const BatchVerdict& four = judged.batches[2];
        const BatchVerdict& eight = judged.batches[3];
        QCOMPARE(four.batch, 32.0);
        QCOMPARE(four.orders, 3);
        QCOMPARE(four.call, BatchCall::Within);
        QCOMPARE(eight.batch, 64.0);
        QCOMPARE(eight.orders, 8);
        QVERIFY2(eight.call == BatchCall::WithinNoise && eight.difference < judged.tolerance, qPrintable(verdictWords(eight, judged.tolerance)));
        QCOMPARE(judged.criticalBatch, 32.0);  // was 64: the mean (+1.9 %) under 2 % passed it
        QCOMPARE(judged.closestCall, 3);       // the orders left in the budget go to it
        AdviceRequest request = fashionMlpRequest();
        request.base.batchSize = 8;
        request.base.lr = 0.8;
        const BranchConclusion c = concludeBranches(request, runs, {});
        QVERIFY(c.dontScale);
        QCOMPARE(c.chosenPerGpu, qint64(4));
    }

    // The panel's autoencoder (1 x 32, Adam at 0.005, to 8 GPUs): the truth's right set is {16},
    // 32 is +8.9 % ± 1.8 over it, so no verdict on 32 and larger could be right. The branch at half
    // your batch shows it: 16 better than yours by more than the tolerance over its whole interval,
    // the critical batch 16, 8 GPUs x 2. Where the half is within noise of being better, nothing
    // moves and it is the closest call (its orders decide); where it is no better, yours stands.
    void aBatchBelowYoursShowsYoursIsPastTheCriticalBatch()
    {
        AdviceRequest request = fashionMlpRequest();
        request.base.batchSize = 32;
        request.base.optimizer = ddplab::OptimizerKind::Adam;
        request.base.lr = 0.005;
        QList<AdviceEvidence> runs = bracket(1, 16, 0.0025, {0.01500, 0.01520});
        runs += bracket(1, 32, 0.005, {0.01635, 0.01650});  // +9.0 % and +8.6 %
        runs += bracket(2, 32, 0.01, {0.01650, 0.01660});
        runs += bracket(4, 32, 0.02, {0.01700, 0.01710});
        runs += bracket(8, 32, 0.04, {0.02000, 0.02100});
        BatchJudgement judged = judgeBatches(runs, 32);
        QCOMPARE(judged.batches.size(), 5);
        QCOMPARE(judged.yours, 1);
        QVERIFY(judged.batches[1].yours && !judged.batches[0].yours);
        QVERIFY2(judged.batches[0].call == BatchCall::Better, qPrintable(verdictWords(judged.batches[0], judged.tolerance)));
        QVERIFY(judged.batches[0].high < betterThan(judged.tolerance));
        QVERIFY(verdictWords(judged.batches[0], judged.tolerance).startsWith(QStringLiteral("better: yours is worse than it by more than 2 %")));
        QVERIFY(judged.pastCritical);
        QCOMPARE(judged.criticalBatch, 16.0);
        QVERIFY(!judged.beyondLargest);
        QCOMPARE(judged.closestCall, -1);  // nothing within noise moves that answer
        BranchConclusion c = concludeBranches(request, runs, {});
        QVERIFY(c.dontScale);
        QCOMPARE(c.chosenPerGpu, qint64(2));  // 8 GPUs x 2 = 16
        QVERIFY(std::abs(c.ladderCenter - 0.0025) < 1e-12);  // your LR x the branch optima's ratio at 16 and at 32
        // Half within noise of better (-1.5 % and -2.5 %: the interval reaches past -1.96 % and
        // above it): yours is not moved, and the half is the closest call.
        QList<AdviceEvidence> close = bracket(1, 16, 0.0025, {0.01611, 0.01609});
        close += bracket(1, 32, 0.005, {0.01635, 0.01650});
        close += bracket(2, 32, 0.01, {0.01636, 0.01651});
        judged = judgeBatches(close, 32);
        QVERIFY2(judged.batches[0].call == BatchCall::Within, qPrintable(verdictWords(judged.batches[0], judged.tolerance)));
        QVERIFY(!judged.pastCritical);
        QCOMPARE(judged.criticalBatch, 64.0);
        QVERIFY(judged.beyondLargest);
        QCOMPARE(judged.closestCall, 0);
        // A half no better than yours leaves the verdicts above it as they were.
        QList<AdviceEvidence> same = bracket(1, 16, 0.0025, {0.01640, 0.01652});
        same += bracket(1, 32, 0.005, {0.01635, 0.01650});
        same += bracket(2, 32, 0.01, {0.01900, 0.01950});
        judged = judgeBatches(same, 32);
        QVERIFY(!judged.pastCritical);
        QCOMPARE(judged.criticalBatch, 32.0);
        QCOMPARE(judged.closestCall, -1);
    }

    // The closest call's orders come before the larger batches' brackets. The panel's autoencoder
    // at 509f47b (1 x 32, Adam at 0.005, 8,192 samples, 300 s under load 5-6): the branch test's
    // share was cut after 32 of its 49 runs, the closest call never ran, and half your batch stayed
    // at -2.4 % over 2 orders (-7.4 % and +2.6 %) where the truth has 32 +8.9 % +- 1.8 over 16;
    // its larger batches had one order each. tabular_adamw at 70dadd7: after 5 orders 32 was at
    // -10.2 % (-23.4 % to +3.1 %), and the closest call's last three orders went to 128. Now the
    // plan keeps kReservedOrders orders at two batches out of the branch test's share (its larger
    // batches' later orders are cut instead), a cut branch test still gets its closest call, the
    // closest call need leave only the ladder's reserve, and a smaller batch within noise of being
    // better is the closest call before any larger one.
    void theClosestCallsOrdersComeBeforeTheLargerBatches()
    {
        QList<AdviceEvidence> runs = autoencoderBranchesAt509f47b();
        BatchJudgement judged = judgeBatches(runs, 32);
        QCOMPARE(judged.batches[0].batch, 16.0);
        QVERIFY2(judged.batches[0].call == BatchCall::WithinNoise && std::abs(judged.batches[0].difference + 0.0241) < 5e-4,
                 qPrintable(verdictWords(judged.batches[0], judged.tolerance)));
        QCOMPARE(judged.batches[2].orders, 1);  // 64: one order, within noise, nearer than anything in its own errors
        QCOMPARE(judged.closestCall, 0);        // was 64 or 128 (distance 0 with one order)

        runs = tabularAdamwBranchesAt70dadd7();
        judged = judgeBatches(runs, 64);
        const BatchVerdict& half = judged.batches[0];
        QCOMPARE(half.batch, 32.0);
        QCOMPARE(half.orders, 5);
        QVERIFY2(half.call == BatchCall::WithinNoise && std::abs(half.difference + 0.1016) < 5e-4 && half.low < -0.2 && half.high > 0.02,
                 qPrintable(verdictWords(half, judged.tolerance)));
        QCOMPARE(judged.batches[2].call, BatchCall::WithinNoise);  // 128, nearer its own threshold in its own errors
        QCOMPARE(judged.closestCall, 0);                           // was 2: its three orders went to 128

        // The plan: the autoencoder's base run (200 steps of 32: 6,400 samples, 2.0 s of training,
        // 3.0 s with its 9 evaluations, 6 s with the process), 280 s left of 300.
        const PlanContext context = planContextAfterBase(adamOverTwoEpochsOf4096(), RunCost::measured(2.0, 6400, 3.0, 6.0, 9), 280);
        const BranchPlan plan = planBranchTest(context);
        const double order = 2.0 * context.cost.seconds(8192.0, 5.0);  // two runs over your horizon
        QVERIFY2(plan.closestCallSeconds >= kReservedOrders * order - 1e-9, qPrintable(QStringLiteral("%1 s kept for %2 orders of %3 s").arg(plan.closestCallSeconds).arg(kReservedOrders).arg(order)));
        QVERIFY(plan.seconds + plan.ladderSeconds + plan.closestCallSeconds <= context.secondsLeft + 1e-9);
        QVERIFY2(plan.fromStart && plan.batches.front().effective() == 16.0, qPrintable(plan.trimmed.join(QStringLiteral("; "))));
        // The branch test's runs in order: your batch's, N GPUs' and the half's orders come before
        // the larger batches' second order, which a cut at the share loses first.
        qsizetype lastHalf = -1, firstLargerSecond = plan.runs.size();
        for (qsizetype i = 0; i < plan.runs.size(); ++i) {
            const PlannedRun& r = plan.runs[i];
            const double batch = double(r.gpus) * double(r.batch);
            if (r.phase == advice_phase::kBranch && batch == 16.0)
                lastHalf = i;
            if (r.phase == advice_phase::kBranch && batch > 32.0 && batch < 256.0 && r.seed != context.request.base.seed)
                firstLargerSecond = std::min(firstLargerSecond, i);
        }
        QVERIFY2(lastHalf < firstLargerSecond, qPrintable(QStringLiteral("%1, %2").arg(lastHalf).arg(firstLargerSecond)));
        // The branch test is cut at its share (the job). What is left holds the reserved orders
        // one by one beside the ladder's reserve at the base run's pace, fewer at a slower one (the
        // ladder's reserve grows with the pace); the whole confirmation (its ladder and an
        // extension, 14 runs) as the reserve, as before, held none of them.
        const auto ordersFitting = [&](double pace) {
            double left = context.secondsLeft - plan.seconds;
            int fitted = 0;
            while (fitted < kMostOrders && closestCallOrderFits(plan, order * pace, left, pace)) {
                left -= order * pace;
                ++fitted;
            }
            return fitted;
        };
        QVERIFY2(ordersFitting(1.0) >= kReservedOrders, qPrintable(QString::number(ordersFitting(1.0))));
        QVERIFY2(ordersFitting(1.3) >= 2, qPrintable(QString::number(ordersFitting(1.3))));
        const double pace = 1.3;
        QVERIFY2(order * pace + confirmationSeconds(context, 32) * pace > context.secondsLeft - plan.seconds,
                 qPrintable(QStringLiteral("branch %1 s, confirmation %2 s").arg(plan.seconds).arg(confirmationSeconds(context, 32))));
        // Your batch, N GPUs' and the half from the start; the batches between left out first (said).
        QVERIFY(std::any_of(plan.trimmed.begin(), plan.trimmed.end(), [](const QString& t) { return t.contains(QStringLiteral("left out batches 64, 128")); }));
    }

    // The confirmation's ladder under a rising load: run rung by rung, the pace measured again
    // after each, the next rung the nearest untried one to the best so far (the higher of two as
    // near). The panel's gru at 945ab76 (load 5.2 to 7.3): its ladder around 0.01, sized at the
    // pace measured, ran in the order planned (0.01, 0.00707 in both seeds, 0.0141 in one) and lost
    // its other 5 runs; the advice was 0.0141, at the ladder's edge with one seed. Now the rung
    // above the best comes next, then the one above that, and the far rungs are the ones left out.
    void theLadderKeepsTheRungsAroundItsBestUnderARisingLoad()
    {
        const QList<double> rungs = ladderAround(0.01);
        QCOMPARE(rungs.size(), 5);
        QVERIFY(std::abs(nextLadderRung(rungs, {}, 0.0, 30.0) - 0.01) < 1e-12);  // the first runs whatever is left
        QList<BracketPoint> ran = ladderOf({{0.01, {0.0047155945, 0.0049827485}}});
        const double second = nextLadderRung(rungs, ran, 60.0, 25.0);
        QVERIFY2(std::abs(second - 0.01 * kLadderStep) < 1e-12, qPrintable(QString::number(second)));  // was 0.00707
        // 0.0141's first seed as recorded (0.004521); its second seed was cut, taken here as 0.0046.
        ran = ladderOf({{0.01, {0.0047155945, 0.0049827485}}, {0.01 * kLadderStep, {0.0045211192, 0.0046}}});
        const double third = nextLadderRung(rungs, ran, 35.0, 25.0);
        QVERIFY2(std::abs(third - 0.02) < 1e-12, qPrintable(QString::number(third)));  // the rung above the best, not 0.00707
        ran.append({0.02, {0.0047, 0.0048}});
        QVERIFY(std::isnan(nextLadderRung(rungs, ran, 24.0, 25.0)));  // the load rose: no fourth rung
        QCOMPARE(untriedRungs(rungs, ran).size(), 2);
        QVERIFY(untriedRungs(rungs, ran).front() < 0.0071);  // 0.005 and 0.00707 left out
        // Three rungs, the best interior, trained in both seeds with the rung above it trained too.
        const LrChoice kept = chooseLr(ran);
        QVERIFY(kept.ok && !kept.atHighEdge && !kept.atLowEdge);
        QVERIFY(std::abs(kept.lr - 0.01 * kLadderStep) < 1e-12);
        QVERIFY(kept.safeLow < kept.lr && kept.lr < kept.safeHigh);
        // The old order's five runs as recorded: its best at the edge.
        const LrChoice old = chooseLr(ladderOf({{0.01 / kLadderStep, {0.0050192459, 0.0050439308}}, {0.01, {0.0047155945, 0.0049827485}}, {0.01 * kLadderStep, {0.0045211192}}}));
        QVERIFY(!old.ok || old.atHighEdge);
        // A centre that diverged: the next rung is below it, never above.
        const double below = nextLadderRung(rungs, ladderOf({{0.01, {kDiverged, 0.0049}}}), 60.0, 25.0);
        QVERIFY2(std::abs(below - 0.01 / kLadderStep) < 1e-12, qPrintable(QString::number(below)));
        // Every rung ran: none next.
        QList<BracketPoint> all;
        for (double lr : rungs)
            all.append({lr, {0.005, 0.005}});
        QVERIFY(std::isnan(nextLadderRung(rungs, all, 600.0, 25.0)));
    }

    // A batch whose every LR diverged in some order is worse, and the critical batch stays below it.
    // A difference that rounds to zero reads "0.0 %", never "-0.0 %" (the card showed both).
    void aDifferenceRoundingToZeroHasNoSign()
    {
        BatchVerdict v;
        v.orders = 2;
        v.difference = -0.00001;
        v.low = -0.0004;
        v.high = 0.0011;
        v.call = BatchCall::Within;
        QCOMPARE(verdictWords(v, 0.02), QStringLiteral("within 2 % (0.0 %, interval 0.0 % to +0.1 % over 2 orders)"));
        v.difference = -0.0123;
        QVERIFY(verdictWords(v, 0.02).startsWith(QStringLiteral("within 2 % (-1.2 %, ")));
    }

    void aDivergedBatchIsWorse()
    {
        QList<AdviceEvidence> runs = bracket(1, 32, 0.05, {1.0, 1.0});
        runs += bracket(2, 32, 0.1, {kDiverged, 1.0});
        const BatchJudgement judged = judgeBatches(runs, 32);
        QVERIFY(judged.batches[1].diverged);
        QCOMPARE(judged.batches[1].call, BatchCall::Worse);
        QCOMPARE(judged.criticalBatch, 32.0);
        QVERIFY(!judged.beyondLargest);
    }

    // A 1-minute advice for 64 GPUs from 1 x 4 (tst_advisor_headless's linreg) had time for your
    // batch and 64 x 4 only, every LR of which diverged: the critical batch is at least 4, not 4
    // (a grid study puts it near 35); next to a failing batch at twice it, it is 4 itself.
    void aGapAboveTheCriticalBatchMakesItALowerBound()
    {
        QList<AdviceEvidence> runs = bracket(1, 4, 2.5, {0.010337, 0.010360});
        runs += bracket(64, 4, 5.0, {kDiverged, kDiverged});
        BatchJudgement judged = judgeBatches(runs, 4);
        QCOMPARE(judged.criticalBatch, 4.0);
        QVERIFY(!judged.beyondLargest);
        QVERIFY(judged.unmeasuredAbove);
        runs = bracket(1, 4, 2.5, {0.010337, 0.010360});
        runs += bracket(2, 4, 5.0, {kDiverged, kDiverged});
        judged = judgeBatches(runs, 4);
        QCOMPARE(judged.criticalBatch, 4.0);
        QVERIFY(!judged.unmeasuredAbove);
    }

    // The batch chosen is never one the branch test did not pass: wider batches per GPU only where
    // it measured N GPUs at them within the tolerance; past the critical batch, a smaller one.
    void theBatchStaysWhereTheBranchTestMeasured()
    {
        AdviceRequest request = fashionMlpRequest();
        request.gpus = 4;
        QList<AdviceEvidence> runs = bracket(1, 32, 0.05, {1.0, 1.0});
        runs += bracket(2, 32, 0.1, {1.001, 1.002});
        runs += bracket(4, 32, 0.2, {1.002, 1.001});
        runs += bracket(4, 64, 0.4, {1.003, 1.002});
        BranchConclusion c = concludeBranches(request, runs, {});
        QCOMPARE(c.chosenPerGpu, qint64(64));  // 4 x 64 passed
        QVERIFY(!c.dontScale);
        runs += bracket(4, 128, 0.8, {1.005, 1.004});  // 4 x 128 measured and passed too: the largest
        c = concludeBranches(request, runs, {});
        QCOMPARE(c.chosenPerGpu, qint64(128));
        // N GPUs of your batch worse: a smaller batch per GPU at the critical batch.
        QList<AdviceEvidence> worse = bracket(1, 32, 0.05, {1.0, 1.0});
        worse += bracket(2, 32, 0.1, {1.001, 1.002});
        worse += bracket(4, 32, 0.2, {1.2, 1.21});
        c = concludeBranches(request, worse, {});
        QVERIFY(c.dontScale);
        QCOMPARE(c.judgement.criticalBatch, 64.0);
        QCOMPARE(c.chosenPerGpu, qint64(16));
        // Where the ladder is centred: the branch test's own best LR at the chosen batch, kept
        // below half the range test's runaway.
        const BranchConclusion bounded = concludeBranches(request, worse, {RangeCurve{128.0, 0.12, {}}});
        QVERIFY(bounded.ladderCenter <= 0.06 + 1e-12);
    }

    // Issue 46's Fashion-MNIST MLP (momentum 0.9, 1 x 32 to 8 GPUs): the ladder's rungs from 0.39
    // up diverged in a seed and its lowest rung was 0.197; the advice was 0.234, between rungs,
    // with lr_safe_range [0.278, 0.278]. Now: 0.278 is passed over (0.39 above it diverged), 0.197
    // is the ladder's lowest, so the ladder extends down; then 0.139, trained, interior, two-ended.
    void theFashionMlpCaseAdvisesAnLrItTrainedAwayFromDivergence()
    {
        // The ladder as the advisor plans it, sqrt(2) apart around 0.39: 0.195, 0.276, 0.39, 0.55, 0.78.
        const QList<double> rung = ladderAround(0.39);
        QList<BracketPoint> ladder = ladderOf({{rung[0], {0.600, 0.610}},
                                               {rung[1], {0.590, 0.600}},
                                               {rung[2], {kDiverged, 1.12}},
                                               {rung[3], {kDiverged, kDiverged}},
                                               {rung[4], {kDiverged, kDiverged}}});
        LrChoice choice = chooseLr(ladder);
        QVERIFY(choice.ok);
        QCOMPARE(choice.lr, rung[0]);
        QVERIFY(choice.atLowEdge);
        QCOMPARE(choice.passedOver, QList<double>{rung[1]});  // better, but 0.39 above it diverged
        QCOMPARE(choice.lowestDiverged, rung[2]);
        const LadderNext next = nextOnLadder(choice, ladder, 0.0, 0);
        QVERIFY(next.down);
        QCOMPARE(next.lrs.size(), 2);
        QVERIFY(std::abs(next.lrs[0] - rung[0] / std::sqrt(2.0)) < 1e-12);
        ladder += ladderOf({{next.lrs[0], {0.583, 0.587}}, {next.lrs[1], {0.600, 0.605}}});
        choice = chooseLr(ladder);
        QVERIFY(choice.ok);
        QCOMPARE(choice.lr, next.lrs[0]);  // 0.138: a rung the ladder trained in both seeds
        QVERIFY(!choice.atLowEdge && !choice.atHighEdge);
        QVERIFY(nextOnLadder(choice, ladder, 0.0, 1).lrs.isEmpty());
        // The safe range: two distinct ends around the LR, not reaching the rung next to divergence.
        QVERIFY(choice.safeLow < choice.lr && choice.lr < choice.safeHigh);
        QVERIFY(choice.safeHigh <= rung[0] * (1 + 1e-12));
        // The square-root rule's 0.234 (from 0.0585 at 16 x the batch) is outside it: not named.
        QCOMPARE(ruleInBand(choice.lr, choice.safeLow, choice.safeHigh, 0.0585, 16.0), QString());
    }

    // The Fashion-MNIST MLP again, as the runs reported it: at LR 0.39 one seed diverged
    // (its loss grew by orders of magnitude) yet ended on a finite validation loss, 1.12. A run that
    // diverged is diverged whatever it ended on: it counts as +inf, so 0.276 below it is passed over
    // as before and no LR is advised next to a divergence.
    void aDivergedRunWithAFiniteMeasureIsStillDiverged()
    {
        QVERIFY(std::isinf(judgedMeasure(RunStatus::Diverged, 1.12)));
        QVERIFY(std::isinf(judgedMeasure(RunStatus::Failed, 0.5)));
        QCOMPARE(judgedMeasure(RunStatus::Incomplete, 0.5), 0.5);  // a branch from a checkpoint lacks its early steps' events
        QVERIFY(std::isinf(judgedMeasure(RunStatus::Finished, std::nan(""))));
        QCOMPARE(judgedMeasure(RunStatus::Finished, 0.61), 0.61);
        const QList<double> rung = ladderAround(0.39);
        const auto ladderWith = [&](double atRung2) {
            return ladderOf({{rung[0], {0.600, 0.610}},
                             {rung[1], {0.590, 0.600}},
                             {rung[2], {atRung2, 0.61}},
                             {rung[3], {0.65, 0.66}},
                             {rung[4], {0.70, 0.72}}});
        };
        // Taken at its word (1.12), the diverged seed left 0.276 the best, right under it.
        QCOMPARE(chooseLr(ladderWith(1.12)).lr, rung[1]);
        const LrChoice choice = chooseLr(ladderWith(judgedMeasure(RunStatus::Diverged, 1.12)));
        QVERIFY(choice.ok);
        QCOMPARE(choice.lr, rung[0]);
        QCOMPARE(choice.passedOver, QList<double>{rung[1]});
        QCOMPARE(choice.lowestDiverged, rung[2]);
        QVERIFY(choice.safeHigh < rung[1]);
    }

    // A rule whose value lies in the measured band is named; the LR given is the one trained.
    void aRuleInTheBandIsNamedButTheMeasuredLrIsGiven()
    {
        const QList<BracketPoint> ladder = ladderOf({{0.1, {1.10, 1.11}}, {0.141, {1.02, 1.03}}, {0.2, {1.00, 1.01}}, {0.283, {1.04, 1.05}}, {0.4, {1.3, 1.31}}});
        const LrChoice choice = chooseLr(ladder);
        QCOMPARE(choice.lr, 0.2);
        QVERIFY(choice.safeLow <= 0.141 && choice.safeHigh >= 0.283);
        // 0.05 x sqrt(16) = 0.2 exactly: sqrt; linear's 0.8 is outside.
        QCOMPARE(ruleInBand(choice.lr, choice.safeLow, choice.safeHigh, 0.05, 16.0), QStringLiteral("sqrt"));
        // 0.017 x 16 = 0.272 lies in the band too: the nearest to the LR is named.
        QCOMPARE(ruleInBand(0.2, choice.safeLow, choice.safeHigh, 0.017, 16.0), QStringLiteral("linear"));
    }

    // A ladder whose every rung diverged somewhere advises nothing, and extends below its lowest.
    void aLadderThatDivergedEverywhereExtendsDown()
    {
        const QList<BracketPoint> ladder = ladderOf({{0.5, {kDiverged, 1.0}}, {0.7, {kDiverged, kDiverged}}, {1.0, {kDiverged, kDiverged}}});
        const LrChoice choice = chooseLr(ladder);
        QVERIFY(!choice.ok);
        const LadderNext next = nextOnLadder(choice, ladder, 0.0, 0);
        QVERIFY(next.down);
        QCOMPARE(next.lrs.last(), 0.25);
        // At the top edge it extends up only while below half the runaway LR.
        const QList<BracketPoint> rising = ladderOf({{0.1, {1.3, 1.3}}, {0.141, {1.2, 1.2}}, {0.2, {1.1, 1.1}}});
        const LrChoice top = chooseLr(rising);
        QVERIFY(top.atHighEdge);
        QCOMPARE(nextOnLadder(top, rising, 0.0, 0).lrs.size(), 2);
        QVERIFY(nextOnLadder(top, rising, 0.3, 0).lrs.isEmpty());
        QVERIFY(!nextOnLadder(top, rising, 0.3, 0).why.isEmpty());
    }

    // A plan trimmed by the budget lowers the confidence and says what it skipped; the level comes
    // from the panel's table when it has measured that many weaknesses.
    void aTrimmedPlanLowersTheConfidence()
    {
        const AdviceRequest request = fashionMlpRequest();
        const auto conclude = [&](bool branchesShort, bool planTrimmed) {
            Advice a;
            a.gpus = 8;
            a.batchPerGpu = 32;
            a.measureName = QStringLiteral("validation loss");
            a.horizonSamples = horizonOf(request);
            a.branchTolerance = kBatchTolerance;
            a.evidence.append(run(advice_phase::kBase, 1, 32, 0.0585, 0, 0.9));
            FinalInputs in;
            in.ladder = ladderOf({{0.07, {0.70, 0.71}}, {0.1, {0.60, 0.61}}, {0.141, {0.50, 0.50}}, {0.2, {0.60, 0.60}}, {0.283, {0.7, 0.7}}});
            in.choice = chooseLr(in.ladder);
            in.confirmationSteps = 400;
            in.branchesShort = branchesShort;
            in.planTrimmed = planTrimmed;
            in.budgetSeconds = 300;
            concludeAdvice(a, request, in);
            return a;
        };
        const Advice whole = conclude(false, false);
        QCOMPARE(whole.lr, 0.141);
        QVERIFY2(whole.confidenceWeaknesses.isEmpty(), qPrintable(whole.confidenceWeaknesses.join(QLatin1Char(','))));
        // No weakness, but the panel has no advice without one: never "high" without its evidence.
        QCOMPARE(whole.confidence, QStringLiteral("moderate"));
        QVERIFY(!whole.confidenceCalibrated);
        QVERIFY2(whole.confidenceReason.contains(QStringLiteral("not yet calibrated: the ground-truth panel has no advice with 0 kinds of weakness")),
                 qPrintable(whole.confidenceReason));
        const Advice trimmed = conclude(true, true);
        QCOMPARE(trimmed.confidenceWeaknesses, (QStringList{weakness::kBranchesShort, weakness::kPlanTrimmed}));
        QCOMPARE(trimmed.confidence, QStringLiteral("low"));
        QVERIFY(trimmed.confidenceReason.contains(QStringLiteral("not your horizon's")));
        QCOMPARE(trimmed.lr, whole.lr);  // the same evidence of the LR: the same LR, less sure
        // The calibration table decides where the panel measured enough cases.
        const QList<CalibrationRow> table{{0, 10, 9, {}}, {1, 10, 7, {}}, {2, 6, 2, {}}};
        QCOMPARE(judgeConfidence({}, {}, table).level, QStringLiteral("high"));
        QCOMPARE(judgeConfidence({weakness::kLrAtEdge}, {QStringLiteral("x")}, table).level, QStringLiteral("moderate"));
        QCOMPARE(judgeConfidence({weakness::kLrAtEdge, weakness::kPlanTrimmed, weakness::kBranchesShort}, {}, table).level, QStringLiteral("low"));
        QVERIFY(judgeConfidence({}, {}, table).calibrated);
        const Confidence few = judgeConfidence({}, {}, {{0, 3, 3, {}}});  // too few cases: the uncalibrated rule, never high
        QVERIFY(!few.calibrated);
        QCOMPARE(few.level, QStringLiteral("moderate"));
        QVERIFY2(few.reason.contains(QStringLiteral("3 of 3 advices with 0 kinds of weakness right, too few to calibrate")), qPrintable(few.reason));
        // The panel's own table (its eight advices at 60c767e on 16 held-out seeds, seven right):
        // two weaknesses of the kinds its five cases had are calibrated, 4 of 5 right: moderate.
        const Confidence twoWeak = judgeConfidence({weakness::kBatchWithinNoise, weakness::kShortTraining}, {QStringLiteral("x")});
        QVERIFY(twoWeak.calibrated);
        QCOMPARE(twoWeak.level, QStringLiteral("moderate"));
        QVERIFY2(twoWeak.reason.contains(QStringLiteral("on the ground-truth panel, 4 of 5 advices with 2 kinds of weakness had the batch right")),
                 qPrintable(twoWeak.reason));
        // As many weaknesses, of a kind none of those cases had (the trimmed plan above): not
        // calibrated by them, low, and the kind named.
        QVERIFY(!trimmed.confidenceCalibrated);
        QVERIFY2(trimmed.confidenceReason.contains(QStringLiteral("the ground-truth panel's 5 advices with 2 kinds of weakness had none of kind "
                                                                  "branches_short, plan_trimmed")),
                 qPrintable(trimmed.confidenceReason));
        const Confidence edge = judgeConfidence({weakness::kLrWithinNoise, weakness::kLrAtEdge}, {});
        QVERIFY(!edge.calibrated);
        QCOMPARE(edge.level, QStringLiteral("low"));
        QVERIFY2(edge.reason.contains(QStringLiteral("had none of kind lr_at_edge")), qPrintable(edge.reason));
        QVERIFY(judgeConfidence({weakness::kLrWithinNoise}, {}).reason.contains(QStringLiteral("3 of 3 advices with 1 kind of weakness right, too few")));
        // The last row (3 or more) has no case: said as none, not as "0 of 0".
        const QString five = judgeConfidence(QStringList(5, weakness::kLrAtEdge), {}).reason;
        QVERIFY2(five.contains(QStringLiteral("the ground-truth panel has no advice with 5 kinds of weakness")), qPrintable(five));
    }

    // A ladder the budget cut to its centre rung, as the panel recorded it under load (846ffba):
    // tabular_adamw's confirmation ran 2 of its 10 runs (LR 0.006 in both seeds) and advised
    // lr_safe_range [0.006, 0.006], one end; gru's ran 1 (LR 0.0104 in one seed, 97 steps). The trim
    // keeps the LR the ladder trained (it never moves into a region the plan did not test), lowers
    // the confidence and says what it skipped; the safe range is a measured band with two distinct
    // ends holding the LR: the branch test's bracket at that batch (from the checkpoint), said so.
    void aLadderCutToItsCentreKeepsItsLrWithATwoEndedRange()
    {
        struct Recorded {
            const char* model;
            QString optimizer;
            qint64 base, perGpu;
            QList<BracketPoint> ladder, bracket;
            double safeHigh;
        };
        const QList<Recorded> recorded{
            {"tabular_adamw", QStringLiteral("adamw"), 64, 8, ladderOf({{0.006, {0.3387778773903847, 0.3890802636742592}}}),
             ladderOf({{0.003, {0.3598349019885063, 0.3671801909804344}},
                       {0.006, {0.3387778773903847, 0.3575848266482353}},
                       {0.012, {0.4988591969013214, 0.3653322458267212}}}),
             0.0079994},  // where the mean crosses 1.1 x 0.006's, between 0.006 and 0.012 in log LR
            {"gru", QStringLiteral("adam"), 16, 4, ladderOf({{0.010375212630852814, {0.011682888492941856}}}),
             ladderOf({{0.01, {0.00445729709463194, 0.0047476174077019095}},
                       {0.02, {0.00491071620490402, 0.005227360757999122}},
                       {0.04, {0.004938710597343743, 0.005282623576931655}}}),
             0.0198126},
        };
        for (const Recorded& r : recorded) {
            AdviceRequest request = fashionMlpRequest();
            request.base.batchSize = r.base;
            request.base.optimizer = r.optimizer == QStringLiteral("adamw") ? ddplab::OptimizerKind::AdamW : ddplab::OptimizerKind::Adam;
            Advice a;
            a.gpus = 8;
            a.batchPerGpu = r.perGpu;
            a.measureName = QStringLiteral("validation loss");
            a.horizonSamples = horizonOf(request);
            a.branchTolerance = kBatchTolerance;
            FinalInputs in;
            in.ladder = r.ladder;
            in.choice = chooseLr(in.ladder);
            in.bracket = r.bracket;
            in.confirmationSteps = 128;
            in.planTrimmed = true;
            in.ladderStopped = QStringLiteral("the budget was spent before the ladder could be extended past its edge");
            in.budgetSeconds = 300;
            concludeAdvice(a, request, in);
            QCOMPARE(a.lr, r.ladder.front().lr);  // the rung it trained, not one it did not
            QCOMPARE(a.batchPerGpu, r.perGpu);
            QVERIFY2(a.safeLow < a.lr && a.lr < a.safeHigh, r.model);  // two distinct ends, holding the LR (was [lr, lr])
            QCOMPARE(a.safeLow, r.bracket.front().lr);
            QVERIFY2(std::abs(a.safeHigh / r.safeHigh - 1.0) < 1e-4, qPrintable(QString::number(a.safeHigh)));
            QVERIFY(a.confidenceWeaknesses.contains(weakness::kPlanTrimmed));
            QVERIFY(a.confidenceWeaknesses.contains(weakness::kLrAtEdge));
            QCOMPARE(a.confidence, QStringLiteral("low"));
            QVERIFY(std::any_of(a.cautions.begin(), a.cautions.end(),
                                [](const QString& c) { return c.contains(QStringLiteral("is the branch test's measured band at this batch")); }));
            // Where nothing measured a second end, the range is said unmeasured, not invented.
            in.bracket.clear();
            Advice lone = a;
            lone.cautions.clear();
            concludeAdvice(lone, request, in);
            QCOMPARE(lone.safeLow, lone.lr);
            QCOMPARE(lone.safeHigh, lone.lr);
            QVERIFY(std::any_of(lone.cautions.begin(), lone.cautions.end(),
                                [](const QString& c) { return c.contains(QStringLiteral("The safe LR range was not measured")); }));
            for (const auto kind : {ddplab::WorkloadKind::Linreg, ddplab::WorkloadKind::FashionMnist}) {  // loss_reduction: linreg's own key
                AdviceRequest asked = request;
                std::tie(asked.base.workload, asked.base.lossReduction) = std::tuple{kind, ddplab::LossReduction::Sum};
                Advice said = a;
                concludeAdvice(said, asked, in);
                QCOMPARE(said.cautions.join(QLatin1Char('\n')).contains(QStringLiteral("The loss is summed over each GPU's batch")), kind == ddplab::WorkloadKind::Linreg);
            }
        }
    }

    // Cautions come from the model's own layers: none for a model without them (the built-in
    // workloads), BatchNorm's and Dropout's for one that has them.
    void cautionsComeFromTheModelsLayers()
    {
        QVERIFY(layerCautions(builtInLayers(fashionMlpRequest().base), 32, 32).isEmpty());
        const QStringList withBoth = layerCautions(ModelLayers{true, true, true, false}, 64, 32);
        QCOMPARE(withBoth.size(), 2);
        QVERIFY(withBoth[0].contains(QStringLiteral("BatchNorm")) && withBoth[0].contains(QStringLiteral("64 per GPU instead of your 32")));
        QVERIFY(withBoth[1].contains(QStringLiteral("Dropout")));
        QVERIFY(layerCautions(ModelLayers{false, true, true, true}, 32, 32).isEmpty());  // not inspected: nothing claimed
        QVERIFY(layerCautions(ModelLayers{true, false, false, true}, 32, 32).front().contains(QStringLiteral("LayerNorm")));
    }
};

DDPLAB_UI_TEST_MAIN(TestAdviceDecision)
#include "tst_advice_decision.moc"
