// The arithmetic that follows from a config: effective batch and LR under each rule,
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

QTEST_GUILESS_MAIN(LrRulesTest)
#include "tst_lr_rules.moc"
