// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's arithmetic on data with a known answer: a bracket's best LR refined by a
// parabola in log LR (exact on a bowl that is quadratic in log LR, off the grid), its safe range
// (every LR within 10 % of the best), an optimum at the ladder's edge said as such, near-ties said
// as noise; the LR's exponent in the batch with the spread of the seeds' own fits; goodput's
// choice of the batch per GPU. The decision rules on recorded evidence: tst_advice_decision.

#include "client/advisor/advice.hpp"
#include "client/advisor/advice_lock.hpp"
#include "client/advisor/advice_progress.hpp"
#include "client/advisor/advice_request.hpp"
#include "client/advisor/advice_store.hpp"
#include "client/advisor/batch_evidence.hpp"
#include "client/advisor/batch_memory.hpp"
#include "client/advisor/goodput.hpp"
#include "client/engine/device_inventory.hpp"
#include "client/engine/model_inspection.hpp"
#include "client/advisor/lr_bracket.hpp"
#include "client/script/script_text.hpp"
#include "core/derived.hpp"
#include "ui_test_main.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <vector>

using namespace ddplab::ui;

namespace {

// A bowl in log LR: 1 + curvature * (ln lr - ln best)^2, the same for every seed but for `noise`.
QList<BracketPoint> bowl(double best, double curvature, const QList<double>& lrs, const QList<double>& noise = {0.0})
{
    QList<BracketPoint> points;
    for (double lr : lrs) {
        BracketPoint point{lr, {}};
        for (double offset : noise)
            point.measures.append(1.0 + curvature * std::pow(std::log(lr / best), 2.0) + offset);
        points.append(point);
    }
    return points;
}

QList<double> ladder(double first, double ratio, int count)
{
    QList<double> lrs;
    for (int i = 0; i < count; ++i)
        lrs.append(first * std::pow(ratio, i));
    return lrs;
}

// A branch's curve that falls linearly from 1 at the checkpoint to `final` after `steps` steps,
// measured at 16 points.
BranchCurve linearCurve(double batch, double lr, int seed, double steps, double final)
{
    BranchCurve curve{batch, lr, seed, {}};
    for (int j = 0; j <= 16; ++j)
        curve.curve.append({steps * j / 16.0, 1.0 - (1.0 - final) * j / 16.0});
    return curve;
}

// Branches whose best LR reaches 0.2 after exactly S_min (1 + B_crit / B) steps, a slower LR
// reaching it after twice as many, and a worse LR that never does.
QList<BranchCurve> mcCandlishBranches(double sMin, double bCrit, const QList<double>& batches)
{
    QList<BranchCurve> curves;
    for (double batch : batches) {
        const double steps = sMin * (1.0 + bCrit / batch);
        for (int seed : {0, 1}) {
            curves.append(linearCurve(batch, 0.1, seed, steps, 0.2));
            curves.append(linearCurve(batch, 0.05, seed, 2.0 * steps, 0.2));
            curves.append(linearCurve(batch, 0.2, seed, steps, 0.5));
        }
    }
    return curves;
}

bool anyContains(const QStringList& sentences, const QString& part)
{
    return std::any_of(sentences.cbegin(), sentences.cend(), [&part](const QString& sentence) { return sentence.contains(part); });
}

}  // namespace

class TestAdviceEvidence : public QObject {
    Q_OBJECT

private slots:
    void parabolaFindsTheBottomBetweenGridPoints()
    {
        // Best at 0.12, between the ladder's 0.1 and 0.141.
        const BracketOptimum optimum = findBracketOptimum(bowl(0.12, 0.5, ladder(0.025, std::sqrt(2.0), 9), {-0.001, 0.001}));
        QVERIFY(optimum.ok);
        QVERIFY(std::abs(optimum.measuredBestLr - 0.1 * std::sqrt(2.0)) < 1e-12 || std::abs(optimum.measuredBestLr - 0.1) < 1e-12);
        QVERIFY2(std::abs(optimum.bestLr - 0.12) < 1e-9, qPrintable(QString::number(optimum.bestLr)));
        QVERIFY(!optimum.atLowEdge && !optimum.atHighEdge);
        QCOMPARE(optimum.seeds, 2);
    }

    void safeRangeHoldsTheLrsWithinTenPercent()
    {
        // 1 + 0.5 (ln r)^2 <= 1.1 for |ln r| <= 0.447: the neighbours at sqrt(2) (0.347) are in,
        // those at 2 (0.693) are out.
        const BracketOptimum optimum = findBracketOptimum(bowl(0.1, 0.5, ladder(0.025, std::sqrt(2.0), 9)));
        QVERIFY(std::abs(optimum.bestLr - 0.1) < 1e-9);
        QVERIFY(std::abs(optimum.safeLow - 0.1 / std::sqrt(2.0)) < 1e-12);
        QVERIFY(std::abs(optimum.safeHigh - 0.1 * std::sqrt(2.0)) < 1e-12);
    }

    void anOptimumAtTheLadderEdgeIsSaid()
    {
        const BracketOptimum high = findBracketOptimum(bowl(10.0, 0.5, ladder(0.025, 2.0, 5)));
        QVERIFY(high.atHighEdge);
        QCOMPARE(high.bestLr, 0.025 * 16);
        const BracketOptimum low = findBracketOptimum(bowl(1e-4, 0.5, ladder(0.025, 2.0, 5)));
        QVERIFY(low.atLowEdge);
    }

    void aDivergedSeedSpoilsItsLr()
    {
        QList<BracketPoint> points = bowl(0.1, 0.5, ladder(0.025, 2.0, 5), {0.0, 0.0});
        points[2].measures[1] = INFINITY;  // 0.1 diverged once
        const BracketOptimum optimum = findBracketOptimum(points);
        QVERIFY(optimum.ok);
        QVERIFY(optimum.measuredBestLr != 0.1);
    }

    void nearTiesAreNoise()
    {
        // Seeds spread by 0.1 around a bowl whose neighbours differ by 0.06: within noise.
        const BracketOptimum noisy = findBracketOptimum(bowl(0.1, 0.5, ladder(0.025, std::sqrt(2.0), 9), {-0.1, 0.1}));
        QVERIFY(noisy.withinNoise);
        const BracketOptimum clear = findBracketOptimum(bowl(0.1, 0.5, ladder(0.025, std::sqrt(2.0), 9), {-0.001, 0.001}));
        QVERIFY(!clear.withinNoise);
        const BracketOptimum oneSeed = findBracketOptimum(bowl(0.1, 0.5, ladder(0.025, std::sqrt(2.0), 9)));
        QVERIFY(oneSeed.withinNoise);  // one seed cannot tell noise from a difference
    }

    void lrExponentWithTheSeedsSpread()
    {
        QList<BatchOptimum> optima;
        for (double batch : {32.0, 64.0, 128.0, 256.0}) {
            const double k = batch / 32.0;
            optima.append({batch, 0.05 * std::pow(k, 0.5), {0.05 * std::pow(k, 0.4), 0.05 * std::pow(k, 0.6)}});
        }
        const LrExponent exponent = fitLrExponent(optima);
        QVERIFY(exponent.ok);
        QVERIFY(std::abs(exponent.exponent - 0.5) < 1e-9);
        QVERIFY(std::abs(exponent.low - 0.4) < 1e-9);
        QVERIFY(std::abs(exponent.high - 0.6) < 1e-9);
        QVERIFY(!fitLrExponent({optima.front()}).ok);  // one batch: no exponent
        // The mean's optimum outside the orders' own: the interval is still theirs alone.
        QList<BatchOptimum> apart;
        for (double batch : {32.0, 64.0, 128.0, 256.0}) {
            const double k = batch / 32.0;
            apart.append({batch, 0.05 * std::pow(k, 0.17), {0.05 * std::pow(k, 0.224), 0.05 * std::pow(k, 0.247)}});
        }
        const LrExponent outside = fitLrExponent(apart);
        QVERIFY(std::abs(outside.exponent - 0.17) < 1e-9);
        QVERIFY2(std::abs(outside.low - 0.224) < 1e-9 && std::abs(outside.high - 0.247) < 1e-9, qPrintable(QStringLiteral("%1 to %2").arg(outside.low).arg(outside.high)));
        for (BatchOptimum& optimum : optima)
            optimum.bestLrPerSeed = {optimum.bestLr};
        const LrExponent oneSeed = fitLrExponent(optima);
        QVERIFY(oneSeed.ok && std::isnan(oneSeed.low) && std::isnan(oneSeed.high));  // no spread is made up
    }

    void rulesInsideTheExponentsInterval()
    {
        QCOMPARE(rulesWithinInterval({true, 0.5, 0.4, 0.6}), QStringList{QStringLiteral("sqrt")});
        QCOMPARE(rulesWithinInterval({true, 1.0, 0.8, 1.2}), QStringList{QStringLiteral("linear")});
        QCOMPARE(rulesWithinInterval({true, 0.8, 0.4, 1.1}), (QStringList{QStringLiteral("linear"), QStringLiteral("sqrt")}));
        QVERIFY(rulesWithinInterval({true, 0.75, 0.7, 0.8}).isEmpty());
        QCOMPARE(rulesWithinInterval({true, 0.95, std::nan(""), std::nan("")}), QStringList{QStringLiteral("linear")});
        QVERIFY(rulesWithinInterval({false, 1.0, 1.0, 1.0}).isEmpty());
    }

    void stepsToReachInterpolatesBetweenMeasurements()
    {
        const QList<QPointF> curve{{0, 1.0}, {10, 0.6}, {20, 0.4}, {30, 0.35}};
        QCOMPARE(stepsToReach(curve, 0.5), 15.0);
        QCOMPARE(stepsToReach(curve, 0.6), 10.0);
        QCOMPARE(stepsToReach(curve, 1.2), 0.0);
        QCOMPARE(stepsToReach(curve, 0.3), -1.0);
    }

    void mcCandlishsFitRecoversTheCriticalBatch()
    {
        const StepsToTarget result = fitStepsToTarget(mcCandlishBranches(10.0, 100.0, {32, 64, 128, 256, 512}), {});
        QVERIFY(result.ok);
        QCOMPARE(result.target, 0.2);
        QCOMPARE(result.points.size(), 10);  // 5 batches x 2 data orders, each its best LR's steps
        QVERIFY2(std::abs(result.fit.bCrit - 100.0) < 0.5, qPrintable(QString::number(result.fit.bCrit)));
        QVERIFY2(std::abs(result.fit.sMin - 10.0) < 0.05, qPrintable(QString::number(result.fit.sMin)));
        QVERIFY2(result.doubts.isEmpty(), qPrintable(result.doubts.join(QLatin1Char('\n'))));
        QCOMPARE(result.smallestBatch, 32.0);
        QCOMPARE(result.largestBatch, 512.0);
    }

    void mcCandlishsFitSaysWhenItCannotBeTrusted()
    {
        // Perfect scaling over the batches measured: the steps never flatten, B_crit is extrapolated.
        const StepsToTarget perfect = fitStepsToTarget(mcCandlishBranches(0.01, 100000.0, {32, 64, 128, 256}), {});
        QVERIFY(perfect.ok);
        QVERIFY(perfect.fit.bCrit > 256.0);
        QVERIFY2(anyContains(perfect.doubts, QStringLiteral("above the largest batch measured (256): it is extrapolated")), qPrintable(perfect.doubts.join(QLatin1Char('\n'))));
        QVERIFY(anyContains(perfect.doubts, QStringLiteral("under 2")));
        // S_min of one step: whole-step counts.
        const StepsToTarget tiny = fitStepsToTarget(mcCandlishBranches(1.0, 64.0, {16, 32, 64, 128, 256}), {});
        QVERIFY(tiny.ok && tiny.fit.sMin < 2.0);
        QVERIFY(anyContains(tiny.doubts, QStringLiteral("S_min is 1 steps, under 2")));
        QVERIFY(!anyContains(tiny.doubts, QStringLiteral("extrapolated")));
        // A batch whose best LR was at its bracket's edge, and two batches only.
        const StepsToTarget edge = fitStepsToTarget(mcCandlishBranches(10.0, 100.0, {32, 64, 128, 256}), {128.0, 256.0});
        QVERIFY(anyContains(edge.doubts, QStringLiteral("At batch 128, 256 the best LR was at the edge of its bracket")));
        const StepsToTarget two = fitStepsToTarget(mcCandlishBranches(10.0, 100.0, {32, 64}), {});
        QVERIFY(two.ok);
        QVERIFY(anyContains(two.doubts, QStringLiteral("Only two batches")));
        // One batch: no fit, said.
        const StepsToTarget one = fitStepsToTarget(mcCandlishBranches(10.0, 100.0, {32}), {});
        QVERIFY(!one.ok);
        QVERIFY(anyContains(one.doubts, QStringLiteral("Too few branches")));
    }

    void warmupArmAgainstTheLadder()
    {
        const QList<BracketPoint> ladder{{0.4, {1.00, 1.02}}, {0.57, {0.90, 0.92}}, {0.8, {0.95, 0.97}}};
        // Clearly lower with warmup, at the higher LR.
        const WarmupComparison helped = compareWarmup(ladder, {{0.57, {0.88, 0.90}}, {0.8, {0.70, 0.72}}});
        QVERIFY(helped.ok && helped.helped && !helped.hurt);
        QCOMPARE(helped.lrWith, 0.8);
        QCOMPARE(helped.lrWithout, 0.57);
        QVERIFY(std::abs(helped.bestWith - 0.71) < 1e-12 && std::abs(helped.bestWithout - 0.91) < 1e-12);
        // Within two standard errors: no measurable difference.
        const WarmupComparison same = compareWarmup(ladder, {{0.57, {0.89, 0.925}}, {0.8, {1.0, 1.1}}});
        QVERIFY(same.ok && !same.helped && !same.hurt);
        // Clearly higher: it hurt.
        const WarmupComparison hurt = compareWarmup(ladder, {{0.57, {1.10, 1.12}}, {0.8, {1.20, 1.22}}});
        QVERIFY(hurt.ok && hurt.hurt && !hurt.helped);
        // Every arm LR had a diverged seed: no verdict.
        QVERIFY(!compareWarmup(ladder, {{0.57, {0.5, INFINITY}}, {0.8, {INFINITY, 0.5}}}).ok);
    }

    void goodputChoosesTheBatchThatTrainsYourSamplesFastest()
    {
        // Pollux's goodput on 8 GPUs from a base batch of 32, noise scale 100: the per-GPU pace
        // grows with the batch, the efficiency (100 + 32) / (100 + 8b) falls, and the product
        // peaks in between: 8000, 11590, 12042, 8899 samples/s of the base's worth.
        const QList<GoodputPoint> timed{{32, 3000.0}, {4, 1000.0}, {8, 1800.0}, {16, 2600.0}, {64, 0.0}};
        const Goodput g = goodputOf(timed, 8, 32.0, 100.0);
        QVERIFY(g.chosen);
        QCOMPARE(g.bestBatchPerGpu, qint64(16));
        QCOMPARE(g.points.size(), 4);  // the batch without a pace is left out
        QCOMPARE(g.points.front().batchPerGpu, qint64(4));
        QCOMPARE(g.points.front().efficiency, 1.0);
        QVERIFY(std::abs(g.points[1].goodput - 14400.0 * 132.0 / 164.0) < 1e-9);
        QVERIFY(std::abs(g.points[2].goodput - 20800.0 * 132.0 / 228.0) < 1e-9);
        QVERIFY(std::abs(g.points[3].goodput - 24000.0 * 132.0 / 356.0) < 1e-9);
        QVERIFY(g.verdict.startsWith(QStringLiteral("16 per GPU has the most goodput")));
        // A large noise scale makes every batch nearly as efficient: the fastest pace wins.
        QCOMPARE(goodputOf(timed, 8, 32.0, 1e9).bestBatchPerGpu, qint64(32));
        // No noise scale, or one batch: nothing is chosen, and the verdict says why.
        const Goodput unknown = goodputOf(timed, 8, 32.0, 0.0);
        QVERIFY(!unknown.chosen);
        QVERIFY(unknown.verdict.contains(QStringLiteral("no noise scale")));
        QVERIFY(!goodputOf({{16, 2600.0}}, 8, 32.0, 100.0).chosen);
        // The candidates halve from the most the branch test allows while N x b stays at the base's batch or above.
        QCOMPARE(goodputCandidates(32, 8, 32, 4), (QList<qint64>{4, 8, 16, 32}));
        QCOMPARE(goodputCandidates(16, 4, 16, 4), (QList<qint64>{4, 8, 16}));
        QCOMPARE(goodputCandidates(256, 8, 8, 4), (QList<qint64>{32, 64, 128, 256}));
        QCOMPARE(goodputCandidates(8, 1, 8, 4), (QList<qint64>{8}));
        // The pace: the median after the first steps (a slow first step and a hiccup change nothing).
        const QList<QPointF> paces{{1, 10.0}, {2, 500.0}, {3, 900.0}, {4, 990.0}, {5, 1000.0}, {6, 1010.0}, {7, 990.0}, {8, 20.0}, {9, 1005.0}};
        QCOMPARE(steadySamplesPerSecond(paces, 5), (990.0 + 1005.0) / 2.0);
        QCOMPARE(steadySamplesPerSecond(paces, 9), 0.0);
        // The branch test's floor under the noise scale: batch 256 within 5 % of batch 16's loss
        // needs (256 - 1.05 x 16) / 0.05 = 4784, at which the efficiency there is 1 / 1.05.
        QVERIFY(std::abs(noiseScaleFloor(256.0, 0.05, 16.0) - 4784.0) < 1e-9);
        QVERIFY(std::abs((4784.0 + 16.0) / (4784.0 + 256.0) - 1.0 / 1.05) < 1e-12);
        QCOMPARE(noiseScaleFloor(16.0, 0.05, 16.0), 0.0);  // only the base batch: no floor
        QCOMPARE(noiseScaleFloor(256.0, 0.0, 16.0), 0.0);
        // advice.json keeps it whole.
        const std::optional<Goodput> back = goodputFromJson(goodputJson(g));
        QVERIFY(back);
        QCOMPARE(back->bestBatchPerGpu, qint64(16));
        QCOMPARE(back->points.size(), 4);
        QCOMPARE(back->points[2].goodput, g.points[2].goodput);
        QCOMPARE(back->verdict, g.verdict);
        QVERIFY(!goodputFromJson(QJsonValue()));
    }

    void adviceJsonIsReadBackWhole()
    {
        Advice a;
        a.gpus = 8;
        a.batchPerGpu = 32;
        a.effectiveBatch = 256;
        a.lr = 0.4;
        a.lrRule = QStringLiteral("linear");
        a.lrExponent = 0.9;
        a.lrExponentLow = 0.8;
        a.lrExponentHigh = 1.05;
        a.lrExponentRules = {QStringLiteral("linear")};
        a.lrOptima = {{32, 0.05, {0.045, 0.055}}, {256, 0.4, {0.38, 0.42}}};
        a.branchSeeds = 2;
        a.warmup.tested = true;
        a.warmup.steps = 12;
        a.warmup.startFactor = 0.125;
        a.warmup.lrs = {0.4, 0.57};
        a.warmup.lrWith = 0.57;
        a.warmup.measureWith = 0.31;
        a.warmup.helped = true;
        a.warmup.verdict = QStringLiteral("a linear warmup over 12 steps helped");
        a.rangeTests = {{32, 2.5, {{0.01, 1.0}, {0.1, 0.8}, {2.5, 4.0}}}, {256, 0.0, {{0.01, 1.0}}}};
        a.noiseScale = {{1000, 20}, {2000, 35}};
        a.criticalBatch = 512;
        a.criticalBatchBeyond = true;
        a.branchTolerance = 0.02;
        a.stepsFit = fitStepsToTarget(mcCandlishBranches(10.0, 100.0, {32, 64, 128, 256, 512}), {});
        a.criticalBatchFinding = criticalBatchWords(a);
        a.stepsToMatch = 40;
        a.baseSteps = 300;
        a.horizonSamples = 8192;
        a.plannedSamples = 60000;
        a.safeLow = 0.2;
        a.safeHigh = 0.8;
        a.confidence = QStringLiteral("moderate");
        a.cautions = {QStringLiteral("one caution")};
        a.evidence.append({QStringLiteral("confirmation"), QStringLiteral("run-1"), QStringLiteral("label"), 8, 32, 0.4, 1, 8192, INFINITY,
                           QStringLiteral("diverged"), {{0, 2.3}, {20, 0.9}}, 0.0});
        a.evidence.append({QStringLiteral("throughput"), QStringLiteral("run-2"), QStringLiteral("label"), 2, 64, 0.4, 0, 1920, INFINITY,
                           QStringLiteral("finished"), {}, 5120.0});
        // What issue 46 added: the model and data named, each batch's paired verdict, the
        // confidence's weaknesses, the rule named beside the measured LR.
        a.model = QStringLiteral("linreg (dim 16)");
        a.data = QStringLiteral("512 generated examples (data seed 0)");
        BatchVerdict verdict;
        verdict.batch = 64;
        verdict.gpus = 2;
        verdict.batchPerGpu = 32;
        verdict.lr = 0.1;
        verdict.orders = 3;
        verdict.mean = 0.61;
        verdict.spread = 0.004;
        verdict.difference = 0.012;
        verdict.low = -0.004;
        verdict.high = 0.028;
        verdict.call = BatchCall::WithinNoise;
        BatchVerdict yours = verdict;  // your batch, and half of it better than yours
        yours.batch = 32;
        yours.gpus = 1;
        yours.difference = yours.low = yours.high = 0.0;
        yours.call = BatchCall::Within;
        yours.yours = true;
        BatchVerdict half = verdict;
        half.batch = 16;
        half.gpus = 1;
        half.batchPerGpu = 16;
        half.difference = -0.08;
        half.low = -0.09;
        half.high = -0.07;
        half.call = BatchCall::Better;
        a.batchVerdicts = {half, yours, verdict};
        a.refinementOrders = 1;
        a.branchSamples = 4096;
        a.branchHorizon = 8192;
        a.confidenceWeaknesses = {QStringLiteral("branches_short")};
        a.lrRule = QStringLiteral("sqrt");
        a.ruleLr = 0.38;
        a.lowestMeanLr = 0.57;
        a.quietLow = 0.28;
        a.quietHigh = 0.57;
        a.recommended.worldSize = 8;
        a.recommended.batchSize = 32;
        a.recommended.lr = 0.4;
        a.recommended.warmupSteps = 12;
        a.snippet = QStringLiteral("print('hello')\n");
        QVERIFY(a.criticalBatchFinding.contains(QStringLiteral("gives B_crit 100")));
        QVERIFY(a.criticalBatchFinding.contains(QStringLiteral("B_simple read 35")));

        QString error;
        const std::optional<Advice> back = Advice::fromJson(a.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->toJson(), a.toJson());  // every field survives the round trip
        QCOMPARE(back->warmup.verdict, a.warmup.verdict);
        QCOMPARE(back->rangeTests.size(), 2);
        QCOMPARE(back->rangeTests[0].points[2], QPointF(2.5, 4.0));
        QVERIFY(std::isinf(back->evidence[0].measure));  // a diverged run's null measure
        QCOMPARE(back->recommended.warmupSteps, 12);
        QCOMPARE(back->recommended.worldSize, 8);
        QCOMPARE(back->evidence[0].curve, (QList<QPointF>{{0, 2.3}, {20, 0.9}}));
        QCOMPARE(back->evidence[1].samplesPerSecond, 5120.0);
        QCOMPARE(back->model, a.model);
        QCOMPARE(back->batchVerdicts.size(), 3);
        QCOMPARE(back->batchVerdicts[0].call, BatchCall::Better);
        QVERIFY(back->batchVerdicts[1].yours && !back->batchVerdicts[0].yours && !back->batchVerdicts[2].yours);
        QCOMPARE(back->batchVerdicts[2].call, BatchCall::WithinNoise);
        QCOMPARE(back->batchVerdicts[2].high, 0.028);
        QCOMPARE(back->lowestMeanLr, 0.57);
        QCOMPARE(back->quietLow, 0.28);
        QCOMPARE(back->quietHigh, 0.57);
        {
            // An advice written before the half batch was measured has no "yours": its first batch is.
            QJsonObject older = a.toJson();
            QJsonArray verdicts = older.value(QStringLiteral("batch_verdicts")).toArray();
            verdicts.removeFirst();
            for (qsizetype i = 0; i < verdicts.size(); ++i) {
                QJsonObject v = verdicts[i].toObject();
                v.remove(QStringLiteral("yours"));
                verdicts[i] = v;
            }
            older.insert(QStringLiteral("batch_verdicts"), verdicts);
            const std::optional<Advice> read = Advice::fromJson(older, &error);
            QVERIFY2(read, qPrintable(error));
            QVERIFY(read->batchVerdicts[0].yours && !read->batchVerdicts[1].yours);
        }
        QCOMPARE(back->confidenceWeaknesses, a.confidenceWeaknesses);
        QCOMPARE(back->ruleLr, 0.38);
        // A crafted lowest mean or run (text, negative, a run that does not hold the LR, one end
        // missing) is read as not known, the rest of the advice as it was.
        for (const auto& [lowest, run] : QList<std::pair<QJsonValue, QJsonValue>>{{QStringLiteral("0.57"), QJsonArray{0.28, 0.57}},
                                                                                {-0.57, QJsonArray{0.28, 0.57}},
                                                                                {0.57, QJsonArray{0.45, 0.57}},
                                                                                {0.57, QJsonArray{0.28}},
                                                                                {0.57, QJsonArray{0.28, QStringLiteral("x")}}}) {
            QJsonObject crafted = a.toJson();
            crafted.insert(QStringLiteral("lr_lowest_mean"), lowest);
            crafted.insert(QStringLiteral("lr_within_noise_of_lowest"), run);
            const std::optional<Advice> read = Advice::fromJson(crafted, &error);
            QVERIFY2(read, qPrintable(error));
            QCOMPARE(read->lowestMeanLr, 0.0);
            QCOMPARE(read->quietLow, 0.0);
            QCOMPARE(read->quietHigh, 0.0);
            QVERIFY(!read->lrIsMiddleOfNoise());
            QCOMPARE(read->lr, 0.4);
        }

        QJsonObject damaged = a.toJson();
        damaged.remove(QStringLiteral("lr"));
        QVERIFY(!Advice::fromJson(damaged, &error));
        QVERIFY2(error.contains(QStringLiteral("\"lr\"")), qPrintable(error));
        damaged = a.toJson();
        damaged.insert(QStringLiteral("gpus"), QStringLiteral("eight"));
        QVERIFY(!Advice::fromJson(damaged, &error));
        QVERIFY(error.contains(QStringLiteral("not a positive number")));
    }

    void adamAdviceCarriesTheSdeRulesBetas()
    {
        // The base: Adam, 1 GPU x 16, its betas and eps; the advice: 4 GPUs x 16, so k = 4.
        ddplab::Config base;
        base.optimizer = ddplab::OptimizerKind::Adam;
        base.worldSize = 1;
        base.batchSize = 16;
        base.gradAccum = 1;
        base.lr = 1e-3;
        base.beta1 = 0.9;
        base.beta2 = 0.999;
        base.eps = 1e-8;
        Advice a;
        a.gpus = 4;
        a.batchPerGpu = 16;
        a.effectiveBatch = 64;
        a.lr = 2e-3;
        putRecommendation(a, base);
        // The engine's own numbers for lr_rule sde from base_batch_size 16 to 4 x 16.
        ddplab::Config rule = base;
        rule.worldSize = 4;
        rule.lrRule = ddplab::LrRule::Sde;
        rule.baseBatchSize = 16;
        const ddplab::AdamSettings engine = ddplab::appliedAdamSettings(rule);
        QVERIFY(std::abs(engine.beta1 - 0.6) < 1e-12 && std::abs(engine.beta2 - 0.996) < 1e-12 && std::abs(engine.eps - 5e-9) < 1e-20);
        QCOMPARE(a.betasRule, QStringLiteral("sde"));
        QCOMPARE(a.beta1, engine.beta1);
        QCOMPARE(a.beta2, engine.beta2);
        QCOMPARE(a.eps, engine.eps);
        // The settings Use these settings puts in Setup carry them, with no rule left to rescale them.
        QCOMPARE(a.recommended.beta1, engine.beta1);
        QCOMPARE(a.recommended.eps, engine.eps);
        QVERIFY(a.recommended.lrRule == ddplab::LrRule::None);
        QCOMPARE(ddplab::appliedAdamSettings(a.recommended).beta2, engine.beta2);
        const QJsonObject json = a.toJson();
        QCOMPARE(json.value(QStringLiteral("beta1")).toDouble(), engine.beta1);
        QCOMPARE(json.value(QStringLiteral("beta2")).toDouble(), engine.beta2);
        QCOMPARE(json.value(QStringLiteral("eps")).toDouble(), engine.eps);
        QCOMPARE(json.value(QStringLiteral("betas_rule")).toString(), QStringLiteral("sde"));
        QCOMPARE(json.value(QStringLiteral("recommended_settings")).toObject().value(QStringLiteral("beta1")).toDouble(), engine.beta1);
        // The snippet passes them to the optimizer.
        const QString betas = QStringLiteral("torch.optim.Adam(parameters, lr=LR, betas=(%1, %2), eps=%3,")
                                  .arg(script::pyFloat(engine.beta1), script::pyFloat(engine.beta2), script::pyFloat(engine.eps));
        QVERIFY2(a.snippet.contains(betas), qPrintable(a.snippet));
        QVERIFY(anyContains(a.cautions, QStringLiteral("by the SDE rule (Malladi et al. 2022) at k = 4")));
        QVERIFY(anyContains(a.cautions, QStringLiteral("so the LR was confirmed with these")));
        QVERIFY(a.toMarkdown().contains(QStringLiteral("scaled from yours by the SDE rule; the LR was confirmed with them")));
        QString error;
        const std::optional<Advice> back = Advice::fromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->beta1, engine.beta1);
        QCOMPARE(back->toJson(), json);

        // k = 16 would make beta1 1 - 16 x 0.1 < 0: the engine refuses the rule, the advice keeps the base's and says why.
        Advice far;
        far.gpus = 16;
        far.batchPerGpu = 16;
        far.effectiveBatch = 256;
        far.lr = 4e-3;
        putRecommendation(far, base);
        QCOMPARE(far.betasRule, QStringLiteral("none"));
        QCOMPARE(far.beta1, 0.9);
        QCOMPARE(far.recommended.beta2, 0.999);
        QVERIFY2(anyContains(far.cautions, QStringLiteral("kept at yours")), qPrintable(far.cautions.join(QLatin1Char('\n'))));
        QVERIFY(far.snippet.contains(QStringLiteral("betas=(0.9, 0.999), eps=1e-08")));

        // SGD has none of these.
        base.optimizer = ddplab::OptimizerKind::Sgd;
        Advice sgd = a;
        sgd.cautions.clear();
        putRecommendation(sgd, base);
        QVERIFY(sgd.betasRule.isEmpty());
        const QJsonObject sgdJson = sgd.toJson();
        for (const char* name : {"beta1", "beta2", "eps", "betas_rule"})
            QVERIFY2(!sgdJson.contains(QLatin1String(name)), name);
        QVERIFY(!anyContains(sgd.cautions, QStringLiteral("beta1")));
        QVERIFY(sgd.snippet.contains(QStringLiteral("torch.optim.SGD(")));
    }

    // A stopped advice on your own model resumes with the data size inspect read when it began
    // (a preset does not carry it, and the advisor refuses an own model of unknown size).
    void aProgressFileKeepsYourDatasSize()
    {
        AdviceRequest request;
        request.base.workload = ddplab::WorkloadKind::TorchScript;
        request.base.modelFile = "/models/mlp.pt";
        request.base.trainData = "/models/train.pt";
        request.base.trainSamples = 100;
        request.gpus = 4;
        request.budgetSeconds = 60;
        QString error;
        const std::optional<AdviceRequest> back = requestOfProgress(progressJson(request, {}), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->base.trainSamples, qint64(100));
        QCOMPARE(back->gpus, 4);
        QVERIFY2(adviceRequestProblem(*back).isEmpty(), qPrintable(adviceRequestProblem(*back)));
        // A request the command line would refuse is refused from the file too, naming its field
        // (a crafted budget_s of 1e300 was taken, and ran past the budget asked).
        request.budgetSeconds = 1e300;
        QVERIFY(!requestOfProgress(progressJson(request, {}), &error));
        QVERIFY2(error.contains(QStringLiteral("its request's budget_s is 1e+300, where a budget is 10 to 86400 s")), qPrintable(error));
        request.budgetSeconds = 60;
        request.gpus = 0;
        QVERIFY(!requestOfProgress(progressJson(request, {}), &error));
        QVERIFY2(error.contains(QStringLiteral("its request's gpus is 0, where an advice plans for 1 to 4096 GPUs")), qPrintable(error));
        request.gpus = 4;
        request.base.trainSamples = 0;
        QVERIFY(adviceRequestProblem(request).contains(QStringLiteral("the size of your training data is not known yet")));
    }

    // An advice names the model and the data in its workload row's words (workload_table.cpp).
    void anAdviceNamesTheModelAndTheDataByTheWorkloadsRow()
    {
        ddplab::Config linreg;
        linreg.workload = ddplab::WorkloadKind::Linreg;
        linreg.dim = 16;
        linreg.numExamples = 512;
        linreg.seed = 3;
        linreg.trainSubset = 100;  // not linreg's: its data are generated, num_examples long
        QCOMPARE(modelNameOf(linreg), QStringLiteral("linreg (dim 16)"));
        QCOMPARE(dataNameOf(linreg), QStringLiteral("512 generated examples (data seed 3)"));
        ddplab::Config fashion;
        fashion.workload = ddplab::WorkloadKind::FashionMnist;
        fashion.model = ddplab::ModelKind::MlpBatchNorm;
        fashion.trainSubset = 16384;
        QCOMPARE(modelNameOf(fashion), QStringLiteral("Fashion-MNIST MLP with BatchNorm"));
        QCOMPARE(dataNameOf(fashion), QStringLiteral("Fashion-MNIST (16384 training images)"));
        fashion.trainSubset = 0;
        QCOMPARE(dataNameOf(fashion), QStringLiteral("Fashion-MNIST (60000 training images)"));
        ddplab::Config own;
        own.workload = ddplab::WorkloadKind::TorchScript;
        own.modelFile = "~/models/mlp.pt";
        own.trainData = "/data/train.pt";
        own.trainSamples = 900;
        own.trainSubset = 1000;  // more than there is: all 900
        QCOMPARE(modelNameOf(own), QStringLiteral("mlp.pt"));
        QCOMPARE(dataNameOf(own), QStringLiteral("train.pt (900 samples)"));
    }

    void mostBatchPerGpuFromMemory()
    {
        constexpr double kMiB = 1 << 20, kGiB = double(1 << 30);
        // 80 GiB, 1 GiB per rank whatever the batch, 10 MiB a sample: 8089 fit, 4096 as a power of two.
        const BatchMemory need{1 * kGiB, 10 * kMiB, QStringLiteral("a test")};
        const MostBatch most = mostBatchPerGpu(need, {80 * kGiB, QStringLiteral("an 80 GiB GPU")}, 32);
        QCOMPARE(most.batch, qint64(4096));
        QVERIFY2(most.source.contains(QStringLiteral("4096 samples per GPU fit in an 80 GiB GPU")), qPrintable(most.source));
        QCOMPARE(most.brief, QStringLiteral("what fits in an 80 GiB GPU"));
        // Never below the base's batch per GPU, which trains for the user.
        QCOMPARE(mostBatchPerGpu(need, {80 * kGiB, {}}, 8192).batch, qint64(8192));
        const MostBatch tight = mostBatchPerGpu(need, {0.5 * kGiB, QStringLiteral("half a GiB")}, 16);
        QCOMPARE(tight.batch, qint64(16));
        QVERIFY2(tight.source.contains(QStringLiteral("holds fewer")), qPrintable(tight.source));
        // Unknown on either side: the base's.
        const MostBatch noSample = mostBatchPerGpu({1 * kGiB, 0.0, {}}, {80 * kGiB, {}}, 32);
        QCOMPARE(noSample.batch, qint64(32));
        QVERIFY(noSample.source.contains(QStringLiteral("inspect")));
        QCOMPARE(mostBatchPerGpu(need, {0.0, {}}, 32).batch, qint64(32));

        // Your own model: inspect's step (64 MiB over 16 samples: 4 MiB each) against the Run-on
        // host's smallest GPU (16 GiB): (16 GiB - 100 MiB) / 4 MiB = 4071, so 2048.
        ddplab::Config own;
        own.workload = ddplab::WorkloadKind::TorchScript;
        own.device = ddplab::DeviceKind::Cuda;
        own.batchSize = 16;
        ModelInspection inspection;
        inspection.fixedBytes = qint64(100 * kMiB);
        inspection.stepBytes = qint64(64 * kMiB);
        inspection.stepSamples = 16;
        const BatchMemory measured = batchMemoryOf(own, &inspection);
        QCOMPARE(measured.bytesPerSample, 4 * kMiB);
        QCOMPARE(batchMemoryOf(own, nullptr).bytesPerSample, 0.0);  // not inspected yet: not known
        const QJsonObject devices{{QStringLiteral("memory_available_bytes"), 64 * kGiB},
                                  {QStringLiteral("cuda_devices"),
                                   QJsonArray{QJsonObject{{QStringLiteral("index"), 0}, {QStringLiteral("name"), QStringLiteral("Big")}, {QStringLiteral("memory_mib"), 24576}},
                                              QJsonObject{{QStringLiteral("index"), 1}, {QStringLiteral("name"), QStringLiteral("Small")}, {QStringLiteral("memory_mib"), 16384}}}}};
        const DeviceInventory host = DeviceInventory::fromJson(devices);
        const GpuMemory gpu = memoryPerGpu(own, host, 8);
        QCOMPARE(gpu.bytes, 16 * kGiB);
        QVERIFY2(gpu.from.contains(QStringLiteral("Small (16.0 GiB)")), qPrintable(gpu.from));
        QCOMPARE(mostBatchPerGpu(measured, gpu, 16).batch, qint64(2048));
        // On the CPU the host's available memory over the ranks: 64 GiB over 8.
        own.device = ddplab::DeviceKind::Cpu;
        const GpuMemory shared = memoryPerGpu(own, host, 8);
        QCOMPARE(shared.bytes, 8 * kGiB);
        QVERIFY2(shared.from.contains(QStringLiteral("over 8 ranks")), qPrintable(shared.from));

        // A built-in workload: the slope of the engine's own estimate.
        ddplab::Config fashion;
        fashion.workload = ddplab::WorkloadKind::FashionMnist;
        fashion.batchSize = 32;
        const BatchMemory estimate = batchMemoryOf(fashion, nullptr);
        // Its activations: 32 x 28 x 28 floats, 3 copies, an image (engine/core/derived.cpp).
        QCOMPARE(estimate.bytesPerSample, 32.0 * 28 * 28 * 4 * 3);
        ddplab::Config large = fashion;
        large.batchSize = 1000;
        QCOMPARE(estimate.fixedBytes + 1000 * estimate.bytesPerSample, double(ddplab::estimatedRankBytes(large)));
        // 80 GiB hold (80 GiB - fixed) / 301 KiB = about 278,000 images: 262,144 as a power of two.
        QCOMPARE(mostBatchPerGpu(estimate, {80 * kGiB, {}}, 32).batch, qint64(262144));

        // The data set caps it where memory would hold more: Fashion-MNIST's 60,000 images over 8
        // GPUs are 7,500 each, so 4,096; linreg's 512 examples over 8 GPUs, 64.
        QCOMPARE(trainingSamplesPerGpu(fashion, 8), qint64(7500));
        const MostBatch byData = mostBatchPerGpu(estimate, {80 * kGiB, {}}, 32, trainingSamplesPerGpu(fashion, 8));
        QCOMPARE(byData.batch, qint64(4096));
        QVERIFY2(byData.source.contains(QStringLiteral("the training set's 7500 samples per GPU")), qPrintable(byData.source));
        QCOMPARE(byData.brief, QStringLiteral("the training set over your GPUs (memory holds more)"));
        ddplab::Config linreg;
        linreg.workload = ddplab::WorkloadKind::Linreg;
        linreg.numExamples = 512;
        linreg.batchSize = 8;
        QCOMPARE(mostBatchPerGpu(batchMemoryOf(linreg, nullptr), {8 * kGiB, {}}, 8, trainingSamplesPerGpu(linreg, 8)).batch, qint64(64));
        // Never below the base's, and not known for your own data before inspect has read it.
        QCOMPARE(mostBatchPerGpu(estimate, {80 * kGiB, {}}, 32, 20).batch, qint64(32));
        QCOMPARE(trainingSamplesPerGpu(own, 8), qint64(0));
        // Memory the tighter of the two: memory decides, as before.
        QCOMPARE(mostBatchPerGpu(need, {80 * kGiB, {}}, 32, 1'000'000).batch, qint64(4096));
    }

    void storedAdviceIsListedAndDamagedOnesSayWhy()
    {
        QTemporaryDir root;
        const AdviceStore store(root.path());
        QVERIFY(store.list().isEmpty());
        Advice a;
        a.gpus = 4;
        a.batchPerGpu = 16;
        a.lr = 0.2;
        a.confidence = QStringLiteral("high");
        QString error;
        const QString first = store.save(a, &error);
        QVERIFY2(!first.isEmpty(), qPrintable(error));
        a.gpus = 8;
        const QString second = store.save(a, &error);  // the same second: a folder of its own
        QVERIFY(!second.isEmpty() && second != first);
        QVERIFY(QFile::exists(QDir(root.path()).filePath(second + QStringLiteral("/advice.md"))));
        // Damaged: not JSON, no object, no advice, no file at all.
        for (const auto& [name, contents] : {std::pair<const char*, QByteArray>{"20200101-000000-broken", "{\"gpus\": 8, "},
                                             {"20200101-000001-array", "[1, 2]"},
                                             {"20200101-000002-empty", "{}"}}) {
            QVERIFY(QDir(root.path()).mkdir(QString::fromLatin1(name)));
            QFile file(QDir(root.path()).filePath(QString::fromLatin1(name) + QStringLiteral("/advice.json")));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(contents);
        }
        QVERIFY(QDir(root.path()).mkdir(QStringLiteral("20200101-000003-nofile")));
        const QList<StoredAdvice> all = store.list();
        QCOMPARE(all.size(), 6);
        QVERIFY(all[0].advice && all[1].advice);  // the two saved today, before 2020's
        QCOMPARE(all[0].advice->gpus + all[1].advice->gpus, 12);
        QCOMPARE(all[0].title().contains(QStringLiteral("GPUs: 16 per GPU, LR 0.2 (high)")), true);
        QCOMPARE(all[2].id, QStringLiteral("20200101-000003-nofile"));
        QVERIFY2(!all[2].advice && all[2].problem.contains(QStringLiteral("it holds neither advice.json (a finished advice) nor progress.json")),
                 qPrintable(all[2].problem));
        QVERIFY(!all[3].advice && all[3].problem.contains(QStringLiteral("no advice: it has no \"gpus\"")));
        QVERIFY(!all[4].advice && all[4].problem.contains(QStringLiteral("holds no object")));
        QVERIFY(!all[5].advice && all[5].problem.contains(QStringLiteral("is not JSON")));
        QVERIFY(all[5].title().startsWith(QStringLiteral("damaged: advice.json is not JSON")));
        QCOMPARE(all[4].created, QDateTime(QDate(2020, 1, 1), QTime(0, 0, 1)));
        QVERIFY(store.open(first).advice);
    }

    // Issue 41 item 4: begin() checked exists() then mkpath(), and two advisors started together
    // got one folder. Eight threads begin 40 advices each at once: 320 folders, none shared.
    void advisorsStartedTogetherGetAFolderEach()
    {
        QTemporaryDir root;
        const AdviceStore store(root.path());
        constexpr int kThreads = 8, kEach = 40;
        std::atomic<int> ready{0};
        std::vector<QStringList> ids(kThreads);
        std::vector<QThread*> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.push_back(QThread::create([&, t] {
                ++ready;
                while (ready.load() < kThreads) {
                }
                for (int i = 0; i < kEach; ++i) {
                    QString error;
                    ids[size_t(t)].append(store.begin(8, &error));
                }
            }));
        for (QThread* thread : threads)
            thread->start();
        for (QThread* thread : threads) {
            QVERIFY(thread->wait(60000));
            delete thread;
        }
        std::set<QString> distinct;
        for (const QStringList& list : ids)
            for (const QString& id : list) {
                QVERIFY(!id.isEmpty());
                distinct.insert(id);
            }
        QCOMPARE(int(distinct.size()), kThreads * kEach);
        QCOMPARE(int(QDir(root.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size()), kThreads * kEach);
    }

    // Issue 41 items 2-4 and 10: an advice's folder is its own. A running advice is listed as
    // running and its lock refuses a second holder; a resumed copy is saved where it is, never
    // over the store's advice of the same name; a progress file addresses its checkpoints
    // relative to its folder and a resume never takes the folder from it; a damaged progress
    // file is said as such; a name that would leave the store is refused.
    void anAdvicesFolderIsItsOwn()
    {
        QTemporaryDir root, elsewhere;
        const AdviceStore store(root.path());
        QString error;
        const QString id = store.begin(4, &error);
        QVERIFY2(!id.isEmpty(), qPrintable(error));
        const QString folder = QDir(root.path()).filePath(id);

        // The progress file: checkpoint_folder relative, and not read back (a crafted one wrote anywhere).
        AdviceRequest request;
        request.base.workload = ddplab::WorkloadKind::Linreg;
        request.gpus = 4;
        request.budgetSeconds = 60;
        request.progressFile = store.open(id).progressFile();
        request.checkpointFolder = store.open(id).checkpointFolder();
        QJsonObject progress = progressJson(request, {});
        QCOMPARE(progress.value(QStringLiteral("request")).toObject().value(QStringLiteral("checkpoint_folder")).toString(), QStringLiteral("checkpoints"));
        QJsonObject crafted = progress.value(QStringLiteral("request")).toObject();
        crafted.insert(QStringLiteral("checkpoint_folder"), QStringLiteral("/tmp/elsewhere"));
        progress.insert(QStringLiteral("request"), crafted);
        const std::optional<AdviceRequest> back = requestOfProgress(progress, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY(back->checkpointFolder.isEmpty());
        QFile file(request.progressFile);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(progress).toJson());
        file.close();
        QVERIFY(store.open(id).stopped);

        // Running: the lock is held, and a second holder (another advisor, or --resume) is refused.
        {
            AdviceLock running;
            QVERIFY2(running.take(folder, &error), qPrintable(error));
            const StoredAdvice listed = store.open(id);
            QVERIFY(listed.running && !listed.stopped);
            QCOMPARE(listed.runningPid, QCoreApplication::applicationPid());
            QVERIFY(listed.title().startsWith(QStringLiteral("running: 4 GPUs")));
            AdviceLock second;
            QVERIFY(!second.take(folder, &error));
            QVERIFY2(error.contains(QStringLiteral("is running now (process %1 holds it)").arg(QCoreApplication::applicationPid())), qPrintable(error));
        }
        QVERIFY(store.open(id).stopped && !store.open(id).running);  // released: stopped again

        // A copy elsewhere, resumed and finished, is saved into the copy; the store's advice of that name stays.
        Advice finished;
        finished.gpus = 4;
        finished.batchPerGpu = 16;
        finished.lr = 0.4;
        const QString copy = QDir(elsewhere.path()).filePath(id);
        QVERIFY(QDir().mkpath(QDir(copy).filePath(QStringLiteral("checkpoints"))));
        QVERIFY(QFile::copy(request.progressFile, QDir(copy).filePath(QStringLiteral("progress.json"))));
        QCOMPARE(store.save(finished, &error, copy), id);
        QVERIFY(store.open(copy).advice && !QFile::exists(QDir(copy).filePath(QStringLiteral("progress.json"))));
        QVERIFY(!QFileInfo::exists(QDir(copy).filePath(QStringLiteral("checkpoints"))));
        QVERIFY2(store.open(id).stopped && QFile::exists(request.progressFile), "the store's advice of the same name was overwritten");

        // A damaged progress file is said as such, and it is no stopped advice to resume.
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{\"request\": {\"gpus\": 4");
        file.close();
        const StoredAdvice damaged = store.open(id);
        QVERIFY(!damaged.stopped && !damaged.advice);
        QVERIFY2(damaged.problem.startsWith(QStringLiteral("its progress file is damaged: ")) && damaged.problem.contains(QStringLiteral("is not JSON")),
                 qPrintable(damaged.problem));

        // A name is one folder's: "../x" would leave the store.
        for (const QString& name : {QStringLiteral(".."), QStringLiteral("../") + QFileInfo(elsewhere.path()).fileName() + QStringLiteral("/") + id,
                                    QStringLiteral("a/b")}) {
            const StoredAdvice outside = store.open(name);
            QVERIFY(!outside.stopped && !outside.advice && outside.directory.isEmpty());
            QVERIFY2(outside.problem.contains(QStringLiteral("is no advice's name under")), qPrintable(outside.problem));
        }
    }
};

DDPLAB_UI_TEST_MAIN(TestAdviceEvidence)
#include "tst_advice_evidence.moc"
