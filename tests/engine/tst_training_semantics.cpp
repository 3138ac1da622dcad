// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's numbers are PyTorch's: seed 004's linear model under DDP matches PyTorch's own
// DDP step for step (golden losses from tests/tools/make_linreg_goldens.py), the seed's
// equivalences hold and its counterexamples differ, gradient accumulation equals the larger
// batch, overlapped and non-overlapped bucket all-reduces agree, the LR in every step event
// follows warmup and schedule, and the noise-scale estimate finds the toy problem's B_simple.

#include "support/engine_process.hpp"
#include "support/prerequisites.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using ddplab::test::EngineResult;
using ddplab::test::maxRelativeDifference;
using ddplab::test::stepValues;
using ddplab::test::runConfig;
using ddplab::test::runEngine;

namespace {

QJsonObject linreg(const QJsonObject& overrides)
{
    QJsonObject config{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("num_examples"), 100},
                       {QStringLiteral("dim"), 8},                             {QStringLiteral("epochs"), 3},
                       {QStringLiteral("shuffle"), false},                      {QStringLiteral("noise"), 0.1}};
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        config.insert(it.key(), it.value());
    return config;
}

}  // namespace

class TrainingSemanticsTest : public QObject {
    Q_OBJECT

private slots:
    void linregMatchesPyTorchDdp_data();
    void linregMatchesPyTorchDdp();
    void seed004Equivalences();
    void gradAccumulationEqualsLargerBatch();
    void bucketsAndOverlap();
    void stepEventsCarryScheduledLr();
    void noiseScaleOfNoisyToy();
    void updateVarianceOverExperiments();
    void stopAtLossEndsAtTheFirstStepThatMeetsIt_data();
    void stopAtLossEndsAtTheFirstStepThatMeetsIt();
};

void TrainingSemanticsTest::linregMatchesPyTorchDdp_data()
{
    QTest::addColumn<QJsonObject>("golden");
    QFile file(QStringLiteral(DDPLAB_TEST_DATA_DIR "/linreg_golden.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("cases")).toArray();
    QVERIFY(cases.size() >= 8);
    for (const QJsonValue& value : cases)
        QTest::newRow(qPrintable(value.toObject().value(QStringLiteral("name")).toString())) << value.toObject();
}

void TrainingSemanticsTest::linregMatchesPyTorchDdp()
{
    QFETCH(QJsonObject, golden);
    const EngineResult result = runConfig(golden.value(QStringLiteral("config")).toObject());
    REQUIRE_OK(result);
    QList<double> expected;
    for (const QJsonValue& loss : golden.value(QStringLiteral("losses")).toArray())
        expected.append(loss.toDouble());
    const QList<double> actual = stepValues(result, "loss");
    QCOMPARE(actual.size(), expected.size());
    // Float32 sums in another order (DDP's bucket vs ours, Linear's matmul vs a product-sum).
    const double worst = maxRelativeDifference(actual, expected);
    qInfo("%lld steps, largest relative difference to PyTorch %.2e", qlonglong(actual.size()), worst);
    QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
}

void TrainingSemanticsTest::seed004Equivalences()
{
    auto losses = [](const QJsonObject& overrides) {
        const EngineResult result = runConfig(linreg(overrides));
        return result.exitCode == 0 ? stepValues(result, "loss") : QList<double>();
    };
    const QString ws = QStringLiteral("world_size"), bs = QStringLiteral("batch_size"), lr = QStringLiteral("lr"),
                  opt = QStringLiteral("optimizer"), eps = QStringLiteral("eps");

    // SGD: w - lr g = w - (K lr)(g / K): 2 ranks need twice the LR.
    const auto sgd1x10 = losses({{ws, 1}, {bs, 10}, {lr, 1.0}});
    const auto sgd2x5lr2 = losses({{ws, 2}, {bs, 5}, {lr, 2.0}});
    const auto sgd2x5lr1 = losses({{ws, 2}, {bs, 5}, {lr, 1.0}});
    QCOMPARE(sgd1x10.size(), 30);
    QCOMPARE(sgd2x5lr2.size(), 30);
    QVERIFY2(maxRelativeDifference(sgd2x5lr2, sgd1x10) < 1e-5, "SGD 2x5 lr 2 should equal 1x10 lr 1");
    QVERIFY2(maxRelativeDifference(sgd2x5lr1, sgd1x10) > 0.05, "SGD 2x5 lr 1 should visibly differ");

    // Adam with eps 0 is invariant to the gradient's scale: the same LR is right.
    const auto adam1x10 = losses({{ws, 1}, {bs, 10}, {lr, 1.0}, {opt, QStringLiteral("adam")}, {eps, 0.0}});
    const auto adam2x5lr1 = losses({{ws, 2}, {bs, 5}, {lr, 1.0}, {opt, QStringLiteral("adam")}, {eps, 0.0}});
    const auto adam2x5lr2 = losses({{ws, 2}, {bs, 5}, {lr, 2.0}, {opt, QStringLiteral("adam")}, {eps, 0.0}});
    QCOMPARE(adam1x10.size(), 30);
    QVERIFY2(maxRelativeDifference(adam2x5lr1, adam1x10) < 1e-4, "Adam eps 0: 2x5 lr 1 should equal 1x10 lr 1");
    QVERIFY2(maxRelativeDifference(adam2x5lr2, adam1x10) > 0.05, "Adam 2x5 lr 2 should visibly differ");

    // loss_reduction mean: the step no longer grows with the batch, so the same LR serves
    // 1 x 10 and 2 x 5, and a summed loss at lr 1 is a mean loss at lr 10.
    const QString mean = QStringLiteral("loss_reduction");
    const auto mean1x10 = losses({{ws, 1}, {bs, 10}, {lr, 10.0}, {mean, QStringLiteral("mean")}});
    const auto mean2x5 = losses({{ws, 2}, {bs, 5}, {lr, 10.0}, {mean, QStringLiteral("mean")}});
    QCOMPARE(mean1x10.size(), 30);
    QVERIFY2(maxRelativeDifference(mean1x10, sgd1x10) < 1e-5, "mean loss at lr 10 should equal summed loss at lr 1 (batch 10)");
    QVERIFY2(maxRelativeDifference(mean2x5, mean1x10) < 1e-5, "mean loss: 2x5 should equal 1x10 at the same LR");
}

void TrainingSemanticsTest::gradAccumulationEqualsLargerBatch()
{
    // Mean loss (toy): 4 micro-batches of 16 = one batch of 64, at the same LR.
    const QStringList toy{QStringLiteral("run"), QStringLiteral("--noise"), QStringLiteral("1"), QStringLiteral("--experiments"),
                          QStringLiteral("8"), QStringLiteral("--lr"), QStringLiteral("0.01"), QStringLiteral("--epochs"),
                          QStringLiteral("2"), QStringLiteral("--world-size"), QStringLiteral("2")};
    const EngineResult large = runEngine(toy + QStringList{QStringLiteral("--batch-size"), QStringLiteral("32")});
    const EngineResult accumulated = runEngine(toy + QStringList{QStringLiteral("--batch-size"), QStringLiteral("8"),
                                                                 QStringLiteral("--grad-accum"), QStringLiteral("4")});
    REQUIRE_OK(large);
    REQUIRE_OK(accumulated);
    QCOMPARE(accumulated.first(QStringLiteral("config")).value(QStringLiteral("effective_batch_size")).toInt(), 64);
    QCOMPARE(stepValues(accumulated, "w_mean").size(), stepValues(large, "w_mean").size());
    QVERIFY(maxRelativeDifference(stepValues(accumulated, "w_mean"), stepValues(large, "w_mean")) < 1e-6);
    QVERIFY(maxRelativeDifference(stepValues(accumulated, "loss"), stepValues(large, "loss")) < 1e-6);

    // Summed loss (linreg): micro-batches are averaged like ranks, so twice the LR again.
    const auto big = runConfig(linreg({{QStringLiteral("batch_size"), 10}, {QStringLiteral("lr"), 1.0}}));
    const auto micro = runConfig(linreg({{QStringLiteral("batch_size"), 5}, {QStringLiteral("grad_accum"), 2},
                                         {QStringLiteral("lr"), 2.0}}));
    REQUIRE_OK(big);
    REQUIRE_OK(micro);
    QVERIFY(maxRelativeDifference(stepValues(micro, "loss"), stepValues(big, "loss")) < 1e-5);
}

void TrainingSemanticsTest::bucketsAndOverlap()
{
    // The MLP (784-256-128-10: six tensors, 235,146 parameters, 0.9 MiB) on a slice of
    // Fashion-MNIST, with small buckets so that backward fills several of them.
    const QString missing = ddplab::test::missingFashionMnist();
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    const QJsonObject base{{QStringLiteral("workload"), QStringLiteral("fashion_mnist")}, {QStringLiteral("model"), QStringLiteral("mlp")},
                           {QStringLiteral("world_size"), 2}, {QStringLiteral("batch_size"), 32},
                           {QStringLiteral("train_subset"), 640}, {QStringLiteral("epochs"), 1},
                           {QStringLiteral("lr"), 0.05}, {QStringLiteral("momentum"), 0.9},
                           {QStringLiteral("bucket_cap_mb"), 0.2}};
    const EngineResult overlapped = runConfig(base);
    const EngineResult sequential = runConfig(base, {QStringLiteral("--no-overlap")});
    REQUIRE_OK(overlapped);
    REQUIRE_OK(sequential);

    // Reverse registration order, as DDP: the last layer's bias and weight fill the first bucket.
    const QJsonObject config = overlapped.first(QStringLiteral("config"));
    QCOMPARE(config.value(QStringLiteral("parameter_count")).toInt(), 784 * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10);
    const QJsonArray buckets = config.value(QStringLiteral("buckets")).toArray();
    // 0.2 MiB holds fc3.b, fc3.w, fc2.b, fc2.w and fc1.b (34,442 floats); fc1.w (0.77 MiB)
    // is bigger than the cap and gets a bucket of its own, as in DDP.
    QCOMPARE(buckets.size(), 2);
    QCOMPARE(buckets[0].toObject().value(QStringLiteral("parameters")).toArray(), QJsonDocument::fromJson("[5,4,3,2,1]").array());
    QCOMPARE(buckets[1].toObject().value(QStringLiteral("parameters")).toArray(), QJsonDocument::fromJson("[0]").array());
    int elements = 0;
    for (const QJsonValue& bucket : buckets)
        elements += bucket.toObject().value(QStringLiteral("elements")).toInt();
    QCOMPARE(elements, config.value(QStringLiteral("parameter_count")).toInt());

    // Overlapped or not, the same numbers.
    QCOMPARE(sequential.first(QStringLiteral("config")).value(QStringLiteral("overlap")).toBool(), false);
    QCOMPARE(stepValues(sequential, "loss").size(), 10);
    QVERIFY(maxRelativeDifference(stepValues(sequential, "loss"), stepValues(overlapped, "loss")) < 1e-5);
    QVERIFY(maxRelativeDifference(stepValues(sequential, "grad_norm"), stepValues(overlapped, "grad_norm")) < 1e-5);
    // Deterministic kernels only: the run says it asked for them, and a CPU, whose kernels are
    // deterministic already, trains the same numbers (on a GPU they make a resume bit-exact:
    // docs/gpu-validation.md, where a BatchNorm CNN's two default runs parted by 1.5e-2).
    const EngineResult deterministic = runConfig(base, {QStringLiteral("--deterministic")});
    REQUIRE_OK(deterministic);
    QCOMPARE(deterministic.first(QStringLiteral("config")).value(QStringLiteral("deterministic")).toBool(), true);
    QCOMPARE(overlapped.first(QStringLiteral("config")).value(QStringLiteral("deterministic")).toBool(), false);
    QVERIFY(maxRelativeDifference(stepValues(deterministic, "loss"), stepValues(overlapped, "loss")) < 1e-5);
    // Every step reports its compute and communication time.
    const QJsonObject step = overlapped.first(QStringLiteral("step"));
    QVERIFY(step.value(QStringLiteral("compute_ms")).toDouble() > 0);
    QVERIFY(step.contains(QStringLiteral("comm_ms")));
}

void TrainingSemanticsTest::stepEventsCarryScheduledLr()
{
    // Seed 003's warmup: LinearLR from lr / world_size over 4 steps, then cosine to 0.01.
    const EngineResult result = runConfig(linreg({{QStringLiteral("world_size"), 2}, {QStringLiteral("batch_size"), 5},
                                                  {QStringLiteral("lr"), 0.2}, {QStringLiteral("warmup_steps"), 4},
                                                  {QStringLiteral("schedule"), QStringLiteral("cosine")},
                                                  {QStringLiteral("min_lr"), 0.01}}));
    REQUIRE_OK(result);
    const QList<double> lrs = stepValues(result, "lr");
    QCOMPARE(lrs.size(), 30);
    for (int t = 0; t < 4; ++t)
        QVERIFY(std::fabs(lrs[t] - 0.2 * (0.5 + 0.5 * t / 4.0)) < 1e-12);
    QVERIFY(std::fabs(lrs[4] - 0.2) < 1e-12);
    const double progress = (29 - 4) / 26.0;  // cosine over the 26 steps after warmup
    QVERIFY(std::fabs(lrs[29] - (0.01 + 0.19 * 0.5 * (1 + std::cos(M_PI * progress)))) < 1e-12);
    for (int t = 5; t < 30; ++t)
        QVERIFY(lrs[t] < lrs[t - 1]);
}

void TrainingSemanticsTest::noiseScaleOfNoisyToy()
{
    // For g = sign(w x - y) x at w = 1, sigma = 1: B_simple = Var(g) / E[g]^2 = 1.07861 / 0.92139.
    const double expected = 1.078609 / (0.959891 * 0.959891);
    const EngineResult result = runEngine({QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("8"),
                                           QStringLiteral("--batch-size"), QStringLiteral("16"), QStringLiteral("--noise"),
                                           QStringLiteral("1"), QStringLiteral("--experiments"), QStringLiteral("1000")});
    REQUIRE_OK(result);
    const double measured = result.last(QStringLiteral("summary")).value(QStringLiteral("noise_scale")).toDouble();
    qInfo("B_simple measured %.4f, expected %.4f", measured, expected);
    QVERIFY2(std::fabs(measured - expected) < 0.05 * expected, qPrintable(QString::number(measured)));
    // The update variance it implies for SGD agrees with the one measured over experiments.
    const QJsonObject step = result.last(QStringLiteral("step"));
    const double estimate = step.value(QStringLiteral("update_var_estimate")).toDouble();
    const double empirical = step.value(QStringLiteral("update_var")).toDouble();
    QVERIFY2(std::fabs(estimate - empirical) < 0.15 * empirical,
             qPrintable(QStringLiteral("%1 vs %2").arg(estimate).arg(empirical)));
}

void TrainingSemanticsTest::updateVarianceOverExperiments()
{
    const EngineResult result = runConfig(linreg({{QStringLiteral("experiments"), 50}, {QStringLiteral("batch_size"), 10},
                                                  {QStringLiteral("lr"), 0.5}, {QStringLiteral("shuffle"), true}}));
    REQUIRE_OK(result);
    const QList<double> perStep = stepValues(result, "update_var");
    QCOMPARE(perStep.size(), 30);
    for (double variance : perStep)
        QVERIFY(variance > 0);
    const QJsonObject summary = result.last(QStringLiteral("summary"));
    QCOMPARE(summary.value(QStringLiteral("update_count")).toInt(), 50 * 30);
    QVERIFY(summary.value(QStringLiteral("update_var")).toDouble() > 0);
}

void TrainingSemanticsTest::stopAtLossEndsAtTheFirstStepThatMeetsIt_data()
{
    // stop_measure, and the step event's field it judges.
    QTest::addColumn<QString>("measure");
    QTest::addColumn<QString>("field");
    QTest::newRow("training set (the default)") << QString() << QStringLiteral("train_loss");
    QTest::newRow("the step's mini-batch") << QStringLiteral("batch_loss") << QStringLiteral("loss");
}

void TrainingSemanticsTest::stopAtLossEndsAtTheFirstStepThatMeetsIt()
{
    QFETCH(QString, measure);
    QFETCH(QString, field);
    // linreg (mean loss) on 2 ranks: the same run without and with stop_at_loss.
    const QJsonObject base{{QStringLiteral("loss_reduction"), QStringLiteral("mean")}, {QStringLiteral("lr"), 5.0},
                           {QStringLiteral("world_size"), 2}, {QStringLiteral("batch_size"), 5}, {QStringLiteral("experiments"), 16}};
    const EngineResult whole = runConfig(linreg(base));
    REQUIRE_OK(whole);
    const QList<double> losses = stepValues(whole, qPrintable(field));
    QVERIFY(losses.size() == 30);
    // A target the run meets about half-way.
    const double target = losses.at(14);
    qsizetype firstMet = 0;
    while (losses.at(firstMet) > target)
        ++firstMet;
    QJsonObject stopping = base;
    stopping.insert(QStringLiteral("stop_at_loss"), target);
    if (!measure.isEmpty())
        stopping.insert(QStringLiteral("stop_measure"), measure);
    const EngineResult stopped = runConfig(linreg(stopping));
    REQUIRE_OK(stopped);
    const QList<double> stoppedLosses = stepValues(stopped, qPrintable(field));
    QCOMPARE(stoppedLosses.size(), firstMet + 1);
    QVERIFY(stoppedLosses.last() <= target);
    QCOMPARE(stopped.last(QStringLiteral("summary")).value(QStringLiteral("steps")).toInt(), int(firstMet + 1));
    QVERIFY(maxRelativeDifference(stoppedLosses, losses.mid(0, firstMet + 1)) < 1e-6);
}

QTEST_GUILESS_MAIN(TrainingSemanticsTest)
#include "tst_training_semantics.moc"
