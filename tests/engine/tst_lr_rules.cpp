// SPDX-License-Identifier: GPL-3.0-or-later
// The arithmetic that follows from a config: effective batch and LR under each rule (Adam's
// beta1, beta2, eps under the SDE rule, AdamW's weight decay under its timescale rule),
// DistributedSampler's split of an epoch, and the LR at each step with warmup and schedules.

#include "core/config.hpp"
#include "core/derived.hpp"

#include <QtTest>

#include <cmath>

using namespace ddplab;

namespace {
Config ranks(int64_t worldSize, int64_t batchSize, double lr, LrRule rule)
{
    Config c;
    c.worldSize = worldSize;
    c.batchSize = batchSize;
    c.lr = lr;
    c.lrRule = rule;
    return c;
}
}  // namespace

class LrRulesTest : public QObject {
    Q_OBJECT

private slots:
    void effectiveLearningRate_data();
    void effectiveLearningRate();
    void gradAccumCountsInEffectiveBatch();
    void shardPlan_data();
    void shardPlan();
    void warmupIsLinearFromStartFactor();
    void cosineEndsAtMinLr();
    void stepScheduleDecaysPerEpochs();
    void sdeRuleScalesAdamsSettings_data();
    void sdeRuleScalesAdamsSettings();
    void otherRulesLeaveAdamsSettings();
    void timescaleRuleKeepsTauAcrossBatches_data();
    void timescaleRuleKeepsTauAcrossBatches();
    void noRuleShowsTheTimescaleItRuns();
    void evalIntervalDefaultsByWorkload();
};

void LrRulesTest::effectiveLearningRate_data()
{
    QTest::addColumn<int>("worldSize");
    QTest::addColumn<int>("batchSize");
    QTest::addColumn<int>("baseBatch");  // 0 = default (batch_size)
    QTest::addColumn<int>("rule");
    QTest::addColumn<double>("power");
    QTest::addColumn<double>("expectedLr");

    // Seed 000: lr 1e-3 tuned for 16, 8 GPUs x 16: linear 8e-3, sqrt 2.8284e-3.
    QTest::newRow("none 8x16") << 8 << 16 << 0 << int(LrRule::None) << 0.0 << 1e-3;
    QTest::newRow("linear 8x16") << 8 << 16 << 0 << int(LrRule::Linear) << 0.0 << 8e-3;
    QTest::newRow("sqrt 8x16") << 8 << 16 << 0 << int(LrRule::Sqrt) << 0.0 << 1e-3 * std::sqrt(8.0);
    QTest::newRow("power 0.25 8x16") << 8 << 16 << 0 << int(LrRule::Power) << 0.25 << 1e-3 * std::pow(8.0, 0.25);
    // Tuned for the full batch of 128 already: no change under any rule.
    QTest::newRow("linear base 128") << 8 << 16 << 128 << int(LrRule::Linear) << 0.0 << 1e-3;
    // Seed 002: base 32, 2 ranks x 32: linear doubles it.
    QTest::newRow("linear 2x32 base 32") << 2 << 32 << 32 << int(LrRule::Linear) << 0.0 << 2e-3;
    QTest::newRow("sqrt shrinking batch") << 1 << 4 << 16 << int(LrRule::Sqrt) << 0.0 << 0.5e-3;
}

void LrRulesTest::effectiveLearningRate()
{
    QFETCH(int, worldSize);
    QFETCH(int, batchSize);
    QFETCH(int, baseBatch);
    QFETCH(int, rule);
    QFETCH(double, power);
    QFETCH(double, expectedLr);
    Config c = ranks(worldSize, batchSize, 1e-3, LrRule(rule));
    c.lrPower = power;
    if (baseBatch > 0)
        c.baseBatchSize = baseBatch;
    QCOMPARE(effectiveBatchSize(c), int64_t(worldSize) * batchSize);
    QVERIFY2(std::fabs(effectiveLr(c) - expectedLr) < 1e-15, qPrintable(QString::number(effectiveLr(c), 'g', 17)));
    // Without warmup the schedule is flat at the effective LR.
    QVERIFY(std::fabs(learningRateAt(c, 0) - expectedLr) < 1e-15);
    QVERIFY(std::fabs(learningRateAt(c, 5) - expectedLr) < 1e-15);
}

void LrRulesTest::gradAccumCountsInEffectiveBatch()
{
    Config c = ranks(2, 8, 0.1, LrRule::Linear);
    c.gradAccum = 4;
    QCOMPARE(effectiveBatchSize(c), int64_t(64));
    QCOMPARE(effectiveLr(c), 0.1 * 8);  // base batch = batch_size = 8
    c.numExamples = 100;              // 50 per rank, 7 micro-batches, 2 optimizer steps
    QCOMPARE(stepsPerEpoch(c), int64_t(2));
}

void LrRulesTest::shardPlan_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("b");
    QTest::addColumn<bool>("dropLast");
    QTest::addColumn<int>("perRank");
    QTest::addColumn<int>("padded");
    QTest::addColumn<int>("dropped");
    QTest::addColumn<int>("batches");
    QTest::addColumn<int>("lastBatch");
    // Seed 004's table: 9 examples, 2 processes, batch 3.
    QTest::newRow("seed004 padded") << 9 << 2 << 3 << false << 5 << 1 << 0 << 2 << 2;
    QTest::newRow("seed004 drop_last") << 9 << 2 << 3 << true << 4 << 0 << 1 << 2 << 1;
    QTest::newRow("seed000 1x128") << 256 << 1 << 128 << false << 256 << 0 << 0 << 2 << 128;
    QTest::newRow("seed000 8x16") << 256 << 8 << 16 << false << 32 << 0 << 0 << 2 << 16;
    QTest::newRow("fewer examples than ranks") << 3 << 8 << 4 << false << 1 << 5 << 0 << 1 << 1;
    QTest::newRow("fashion 60000 over 7") << 60000 << 7 << 128 << false << 8572 << 4 << 0 << 67 << 124;
    QTest::newRow("fashion 60000 over 7 drop") << 60000 << 7 << 128 << true << 8571 << 0 << 3 << 67 << 123;
}

void LrRulesTest::shardPlan()
{
    QFETCH(int, n);
    QFETCH(int, k);
    QFETCH(int, b);
    QFETCH(bool, dropLast);
    const ShardPlan plan = planShards(n, k, b, dropLast);
    QTEST(int(plan.samplesPerRank), "perRank");
    QTEST(int(plan.paddedSamples), "padded");
    QTEST(int(plan.droppedSamples), "dropped");
    QTEST(int(plan.batchesPerEpoch), "batches");
    QTEST(int(plan.lastBatchSize), "lastBatch");
}

void LrRulesTest::warmupIsLinearFromStartFactor()
{
    // Seed 003: LinearLR(start_factor = 1 / num_gpus, total_iters = 5) on lr 0.08 with 4 GPUs.
    Config c = ranks(4, 32, 0.08, LrRule::None);
    c.warmupSteps = 5;
    QCOMPARE(learningRateAt(c, 0), 0.08 / 4);
    QVERIFY(std::fabs(learningRateAt(c, 1) - 0.08 * (0.25 + 0.75 * 1 / 5)) < 1e-15);
    QVERIFY(std::fabs(learningRateAt(c, 4) - 0.08 * (0.25 + 0.75 * 4 / 5)) < 1e-15);
    QCOMPARE(learningRateAt(c, 5), 0.08);
    QCOMPARE(learningRateAt(c, 500), 0.08);

    c.warmupStartFactor = 0.5;
    QCOMPARE(learningRateAt(c, 0), 0.04);

    // Warmup in epochs: 2 epochs of 10 steps.
    Config e = ranks(1, 10, 1.0, LrRule::None);
    e.numExamples = 100;
    e.warmupEpochs = 2;
    e.warmupStartFactor = 0.1;
    QCOMPARE(warmupStepCount(e), int64_t(20));
    QVERIFY(std::fabs(learningRateAt(e, 10) - 0.55) < 1e-12);
}

void LrRulesTest::cosineEndsAtMinLr()
{
    Config c = ranks(1, 10, 1.0, LrRule::None);
    c.numExamples = 100;  // 10 steps per epoch
    c.epochs = 2;         // 20 steps
    c.schedule = ScheduleKind::Cosine;
    c.minLr = 0.1;
    c.warmupSteps = 4;
    QCOMPARE(learningRateAt(c, 4), 1.0);
    QVERIFY(std::fabs(learningRateAt(c, 12) - (0.1 + 0.9 * 0.5)) < 1e-12);  // halfway through 16 steps
    QVERIFY(std::fabs(learningRateAt(c, 20) - 0.1) < 1e-12);
}

void LrRulesTest::stepScheduleDecaysPerEpochs()
{
    Config c = ranks(1, 10, 1.0, LrRule::None);
    c.numExamples = 100;  // 10 steps per epoch
    c.epochs = 5;
    c.schedule = ScheduleKind::Step;
    c.stepSize = 2;
    c.gamma = 0.5;
    QCOMPARE(learningRateAt(c, 19), 1.0);
    QCOMPARE(learningRateAt(c, 20), 0.5);
    QCOMPARE(learningRateAt(c, 40), 0.25);
}

void LrRulesTest::sdeRuleScalesAdamsSettings_data()
{
    QTest::addColumn<int>("worldSize");
    QTest::addColumn<int>("baseBatch");
    QTest::addColumn<double>("beta1");
    QTest::addColumn<double>("beta2");
    QTest::addColumn<double>("eps");
    // k = world_size * 16 / base.
    QTest::newRow("k 1") << 1 << 16 << 0.9 << 0.999 << 1e-8;
    QTest::newRow("k 2") << 2 << 16 << 0.9 << 0.999 << 1e-8;
    QTest::newRow("k 4") << 4 << 16 << 0.9 << 0.999 << 1e-8;
    QTest::newRow("k 8") << 8 << 16 << 0.9 << 0.999 << 1e-8;
    QTest::newRow("k 9.5, just inside") << 19 << 32 << 0.9 << 0.999 << 1e-8;
    QTest::newRow("k 1/4, a smaller batch") << 1 << 64 << 0.9 << 0.999 << 1e-8;
    QTest::newRow("k 3, other betas") << 3 << 16 << 0.8 << 0.99 << 1e-6;
    QTest::newRow("k 6, eps 0") << 6 << 16 << 0.95 << 0.9999 << 0.0;
}

void LrRulesTest::sdeRuleScalesAdamsSettings()
{
    QFETCH(int, worldSize);
    QFETCH(int, baseBatch);
    QFETCH(double, beta1);
    QFETCH(double, beta2);
    QFETCH(double, eps);
    Config c = ranks(worldSize, 16, 1e-3, LrRule::Sde);
    c.optimizer = OptimizerKind::Adam;
    c.baseBatchSize = baseBatch;
    c.beta1 = beta1;
    c.beta2 = beta2;
    c.eps = eps;
    // Malladi et al.: lr * sqrt(k), 1 - beta -> k (1 - beta), eps -> eps / sqrt(k).
    const double k = double(worldSize) * 16.0 / double(baseBatch);
    QVERIFY(std::fabs(batchRatio(c) - k) < 1e-15);
    QVERIFY(std::fabs(effectiveLr(c) - 1e-3 * std::sqrt(k)) < 1e-15);
    const AdamSettings applied = appliedAdamSettings(c);
    QVERIFY2(std::fabs((1.0 - applied.beta1) - k * (1.0 - beta1)) < 1e-12, qPrintable(QString::number(applied.beta1)));
    QVERIFY2(std::fabs((1.0 - applied.beta2) - k * (1.0 - beta2)) < 1e-12, qPrintable(QString::number(applied.beta2)));
    QVERIFY(std::fabs(applied.eps - eps / std::sqrt(k)) <= 1e-12 * eps);
    QVERIFY(applied.beta1 > 0 && applied.beta1 < 1 && applied.beta2 > applied.beta1);
    QVERIFY(std::fabs(sdeRatioLimit(c) - 1.0 / (1.0 - beta1)) < 1e-9);
    // The formulas the window shows evaluate to the same numbers.
    QCOMPARE(QString::fromStdString(sdeBetaFormula(c, beta1)),
             QStringLiteral("1 - (%1 / %2) * (1 - %3)").arg(worldSize * 16).arg(baseBatch).arg(beta1));
    QCOMPARE(QString::fromStdString(sdeEpsFormula(c)), QStringLiteral("%1 / (%2 / %3)^0.5").arg(eps).arg(worldSize * 16).arg(baseBatch));
}

void LrRulesTest::otherRulesLeaveAdamsSettings()
{
    for (LrRule rule : {LrRule::None, LrRule::Linear, LrRule::Sqrt, LrRule::Power}) {
        Config c = ranks(8, 16, 1e-3, rule);
        c.optimizer = OptimizerKind::Adam;
        const AdamSettings applied = appliedAdamSettings(c);
        QCOMPARE(applied.beta1, 0.9);
        QCOMPARE(applied.beta2, 0.999);
        QCOMPARE(applied.eps, 1e-8);
    }
}

void LrRulesTest::timescaleRuleKeepsTauAcrossBatches_data()
{
    QTest::addColumn<int>("rule");
    QTest::newRow("lr rule none: lambda grows with k") << int(LrRule::None);
    QTest::newRow("lr rule linear: lambda stays") << int(LrRule::Linear);
    QTest::newRow("lr rule sqrt: lambda grows with sqrt k") << int(LrRule::Sqrt);
    QTest::newRow("lr rule sde") << int(LrRule::Sde);
}

void LrRulesTest::timescaleRuleKeepsTauAcrossBatches()
{
    QFETCH(int, rule);
    // AdamW tuned at 1 x 32 with lr 1e-3 and weight decay 0.05 on 6000 examples.
    const auto at = [rule](int worldSize) {
        Config c = ranks(worldSize, 32, 1e-3, LrRule(rule));
        c.optimizer = OptimizerKind::AdamW;
        c.baseBatchSize = 32;
        c.numExamples = 6000;
        c.weightDecay = 0.05;
        c.weightDecayRule = WeightDecayRule::Timescale;
        return c;
    };
    // tau = B / (lr lambda N) epochs, at the base batch: 32 / (1e-3 * 0.05 * 6000).
    const double tau = 32.0 / (1e-3 * 0.05 * 6000.0);
    for (int worldSize : {1, 2, 3, 8, 9}) {
        const Config c = at(worldSize);
        const double k = double(worldSize);
        const double lr = effectiveLr(c);
        // lambda' = lambda * k * lr / lr', so that B' / (lr' lambda' N) = B / (lr lambda N).
        QVERIFY(std::fabs(appliedWeightDecay(c) - 0.05 * k * 1e-3 / lr) < 1e-15);
        QVERIFY2(std::fabs(weightDecayTimescaleEpochs(c) - tau) < 1e-9 * tau,
                 qPrintable(QStringLiteral("%1 ranks: tau %2, not %3").arg(worldSize).arg(weightDecayTimescaleEpochs(c)).arg(tau)));
        const double direct = 32.0 * k / (lr * appliedWeightDecay(c) * 6000.0);
        QVERIFY(std::fabs(direct - tau) < 1e-9 * tau);
    }
}

void LrRulesTest::noRuleShowsTheTimescaleItRuns()
{
    Config c = ranks(4, 32, 2e-3, LrRule::Linear);
    c.optimizer = OptimizerKind::AdamW;
    c.numExamples = 6000;
    c.weightDecay = 0.01;
    // The LR grows 4-fold, the decay stays: tau = 128 / (8e-3 * 0.01 * 6000).
    QCOMPARE(appliedWeightDecay(c), 0.01);
    QVERIFY(std::fabs(weightDecayTimescaleEpochs(c) - 128.0 / (8e-3 * 0.01 * 6000.0)) < 1e-9);
    c.weightDecay = 0;
    QVERIFY(std::isinf(weightDecayTimescaleEpochs(c)));
}

void LrRulesTest::evalIntervalDefaultsByWorkload()
{
    Config c;
    c.workload = WorkloadKind::Linreg;
    QCOMPARE(evalInterval(c), int64_t(1));
    c.workload = WorkloadKind::Toy;
    QCOMPARE(evalInterval(c), int64_t(1));
    c.workload = WorkloadKind::FashionMnist;
    QCOMPARE(evalInterval(c), int64_t(0));
    c.evalEvery = 25;
    QCOMPARE(evalInterval(c), int64_t(25));
}

QTEST_GUILESS_MAIN(LrRulesTest)
#include "tst_lr_rules.moc"
