// SPDX-License-Identifier: GPL-3.0-or-later
// The scaling rules reach the optimizer: a run under lr_rule sde is step for step the run with
// lr_rule none and the scaled LR, beta1, beta2 and eps written out by hand, and a run under
// weight_decay_rule timescale the one with the scaled weight decay written out; the `config`
// event carries the values applied (also the timescale without a rule), computed here from the
// papers' formulas.

#include "support/engine_process.hpp"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using ddplab::test::EngineResult;
using ddplab::test::maxRelativeDifference;
using ddplab::test::runConfig;
using ddplab::test::withOverrides;

namespace {

// linreg on 4 ranks x 8, tuned for a batch of 8: k = 4.
QJsonObject linreg(const QJsonObject& overrides)
{
    const QJsonObject base{{QStringLiteral("workload"), QStringLiteral("linreg")}, {QStringLiteral("loss_reduction"), QStringLiteral("mean")},
                           {QStringLiteral("num_examples"), 256}, {QStringLiteral("noise"), 0.1}, {QStringLiteral("world_size"), 4},
                           {QStringLiteral("batch_size"), 8}, {QStringLiteral("base_batch_size"), 8}, {QStringLiteral("epochs"), 2},
                           {QStringLiteral("lr"), 0.02}};
    return withOverrides(base, overrides);
}

QList<double> trainLosses(const EngineResult& result)
{
    QList<double> values;
    for (const QJsonObject& step : result.ofType(QStringLiteral("step")))
        values.append(step.value(QStringLiteral("train_loss")).toDouble(NAN));
    return values;
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 1e-12 * std::max(1.0, std::fabs(expected));
}

}  // namespace

class ScalingRulesTest : public QObject {
    Q_OBJECT

private slots:
    void sdeRuleAppliesScaledBetasAndEps();
    void timescaleRuleAppliesScaledWeightDecay();
    void timescaleIsReportedWithoutARule();
};

void ScalingRulesTest::sdeRuleAppliesScaledBetasAndEps()
{
    const double k = 4, beta1 = 0.8, beta2 = 0.99, eps = 1e-3;  // eps large enough to matter
    const QJsonObject adam{{QStringLiteral("optimizer"), QStringLiteral("adam")}, {QStringLiteral("beta1"), beta1},
                           {QStringLiteral("beta2"), beta2}, {QStringLiteral("eps"), eps}};
    const EngineResult ruled = runConfig(linreg(withOverrides(adam, {{QStringLiteral("lr_rule"), QStringLiteral("sde")}})));
    REQUIRE_OK(ruled);
    const QJsonObject config = ruled.first(QStringLiteral("config"));
    const double lr = 0.02 * std::sqrt(k), appliedBeta1 = 1 - k * (1 - beta1), appliedBeta2 = 1 - k * (1 - beta2),
                 appliedEps = eps / std::sqrt(k);
    QVERIFY(near(config.value(QStringLiteral("lr_effective")).toDouble(), lr));
    QVERIFY(near(config.value(QStringLiteral("beta1_effective")).toDouble(), appliedBeta1));
    QVERIFY(near(config.value(QStringLiteral("beta2_effective")).toDouble(), appliedBeta2));
    QVERIFY(near(config.value(QStringLiteral("eps_effective")).toDouble(), appliedEps));
    // The config keys themselves stay the base batch's.
    QCOMPARE(config.value(QStringLiteral("beta1")).toDouble(), beta1);

    const EngineResult byHand = runConfig(linreg({{QStringLiteral("optimizer"), QStringLiteral("adam")}, {QStringLiteral("lr"), lr},
                                                  {QStringLiteral("beta1"), appliedBeta1}, {QStringLiteral("beta2"), appliedBeta2},
                                                  {QStringLiteral("eps"), appliedEps}}));
    REQUIRE_OK(byHand);
    const double same = maxRelativeDifference(trainLosses(ruled), trainLosses(byHand));
    QVERIFY2(same < 1e-6, qPrintable(QString::number(same)));
    // ... and the rule changed something: Adam with the base batch's settings takes other steps.
    const EngineResult unscaled = runConfig(linreg(adam));
    REQUIRE_OK(unscaled);
    QVERIFY(maxRelativeDifference(trainLosses(ruled), trainLosses(unscaled)) > 0.01);
}

void ScalingRulesTest::timescaleRuleAppliesScaledWeightDecay()
{
    // AdamW under the square-root LR rule: lambda' = lambda * k * lr / (lr sqrt k) = lambda sqrt k.
    const double k = 4, decay = 0.5;
    const QJsonObject adamw{{QStringLiteral("optimizer"), QStringLiteral("adamw")}, {QStringLiteral("lr_rule"), QStringLiteral("sqrt")},
                            {QStringLiteral("weight_decay"), decay}};
    const EngineResult ruled = runConfig(linreg(withOverrides(adamw, {{QStringLiteral("weight_decay_rule"), QStringLiteral("timescale")}})));
    REQUIRE_OK(ruled);
    const QJsonObject config = ruled.first(QStringLiteral("config"));
    const double lr = 0.02 * std::sqrt(k), applied = decay * std::sqrt(k);
    QVERIFY(near(config.value(QStringLiteral("weight_decay_effective")).toDouble(), applied));
    // tau = B / (lr lambda N): as at the base batch, 8 / (0.02 * 0.5 * 256).
    QVERIFY(near(config.value(QStringLiteral("weight_decay_timescale_epochs")).toDouble(), 8.0 / (0.02 * decay * 256)));
    QVERIFY(near(config.value(QStringLiteral("weight_decay_timescale_epochs")).toDouble(), 32.0 / (lr * applied * 256)));

    const EngineResult byHand = runConfig(linreg(withOverrides(adamw, {{QStringLiteral("weight_decay"), applied}})));
    REQUIRE_OK(byHand);
    const double same = maxRelativeDifference(trainLosses(ruled), trainLosses(byHand));
    QVERIFY2(same < 1e-6, qPrintable(QString::number(same)));
    const EngineResult unscaled = runConfig(linreg(adamw));
    REQUIRE_OK(unscaled);
    QVERIFY(maxRelativeDifference(trainLosses(ruled), trainLosses(unscaled)) > 0.01);
}

void ScalingRulesTest::timescaleIsReportedWithoutARule()
{
    const EngineResult result = runConfig(linreg({{QStringLiteral("optimizer"), QStringLiteral("adamw")},
                                                  {QStringLiteral("lr_rule"), QStringLiteral("linear")},
                                                  {QStringLiteral("weight_decay"), 0.01}, {QStringLiteral("max_steps"), 1}}));
    REQUIRE_OK(result);
    const QJsonObject config = result.first(QStringLiteral("config"));
    QCOMPARE(config.value(QStringLiteral("weight_decay_effective")).toDouble(), 0.01);
    QVERIFY(near(config.value(QStringLiteral("weight_decay_timescale_epochs")).toDouble(), 32.0 / (0.08 * 0.01 * 256)));
    // SGD has no beta or eps to report.
    const EngineResult sgd = runConfig(linreg({{QStringLiteral("max_steps"), 1}}));
    REQUIRE_OK(sgd);
    QVERIFY(!sgd.first(QStringLiteral("config")).contains(QStringLiteral("beta1_effective")));
    QVERIFY(sgd.first(QStringLiteral("config")).value(QStringLiteral("weight_decay_timescale_epochs")).isNull());
}

QTEST_GUILESS_MAIN(ScalingRulesTest)
#include "tst_scaling_rules.moc"
