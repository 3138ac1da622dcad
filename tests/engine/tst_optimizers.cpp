// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's optimizers step for step: SGD, Adam and AdamW against PyTorch's own (golden
// trajectories from tests/tools/make_optimizer_goldens.py); NovoGrad, LAMB and LARS against
// steps worked out here from each paper's formulas.

#include "core/config_keys.hpp"
#include "core/json.hpp"
#include "optim/optimizer_factory.hpp"

#include <ATen/ATen.h>
#include <torch/optim/optimizer.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

#include <array>
#include <cmath>

using namespace ddplab;

namespace {

using Vec = std::array<double, 2>;

double norm(const Vec& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1]); }

// Runs the engine optimizer named by `keys` over `gradients`, returning the parameter after each step.
std::vector<std::vector<double>> engineTrajectory(const Json& keys, const std::vector<double>& start,
                                                  const std::vector<std::vector<double>>& gradients,
                                                  const std::vector<double>& lrs)
{
    Config config;
    applyJson(config, keys, "test");
    config.lr = lrs.front();
    at::Tensor parameter = at::tensor(start, at::TensorOptions().dtype(at::kFloat)).set_requires_grad(true);
    auto optimizer = makeOptimizer(config, {parameter});
    std::vector<std::vector<double>> trajectory;
    for (size_t step = 0; step < gradients.size(); ++step) {
        setLearningRate(*optimizer, lrs[step]);
        parameter.mutable_grad() = at::tensor(gradients[step], at::TensorOptions().dtype(at::kFloat));
        optimizer->step();
        const at::Tensor now = parameter.detach().to(at::kDouble);
        trajectory.emplace_back(now.data_ptr<double>(), now.data_ptr<double>() + now.numel());
    }
    return trajectory;
}

std::vector<double> toVector(const QJsonArray& array)
{
    std::vector<double> values;
    for (const QJsonValue& v : array)
        values.push_back(v.toDouble());
    return values;
}

void compareTrajectories(const std::vector<std::vector<double>>& actual, const std::vector<Vec>& expected, double tolerance)
{
    QCOMPARE(actual.size(), expected.size());
    for (size_t step = 0; step < expected.size(); ++step) {
        for (size_t i = 0; i < 2; ++i) {
            const double diff = std::fabs(actual[step][i] - expected[step][i]);
            QVERIFY2(diff <= tolerance * std::max(1.0, std::fabs(expected[step][i])),
                     qPrintable(QStringLiteral("step %1 [%2]: %3 vs %4").arg(step).arg(i)
                                    .arg(actual[step][i], 0, 'g', 9).arg(expected[step][i], 0, 'g', 9)));
        }
    }
}

const std::vector<std::vector<double>> kGradients{{0.2, -0.4}, {0.1, 0.3}, {-0.5, 0.05}};
const std::vector<double> kStart{0.5, -1.0};

}  // namespace

class OptimizersTest : public QObject {
    Q_OBJECT

private slots:
    void matchesPyTorch_data();
    void matchesPyTorch();
    void novogradFollowsPaper();
    void lambFollowsPaper();
    void larsFollowsPaper();
    void plainSgdIsRecognised();
};

void OptimizersTest::matchesPyTorch_data()
{
    QTest::addColumn<QJsonObject>("golden");
    QTest::addColumn<QJsonObject>("shared");
    QFile file(QStringLiteral(DDPLAB_TEST_DATA_DIR "/optimizer_golden.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    for (const QJsonValue& value : root.value(QStringLiteral("cases")).toArray())
        QTest::newRow(qPrintable(value.toObject().value(QStringLiteral("name")).toString())) << value.toObject() << root;
}

void OptimizersTest::matchesPyTorch()
{
    QFETCH(QJsonObject, golden);
    QFETCH(QJsonObject, shared);
    std::vector<std::vector<double>> gradients;
    for (const QJsonValue& row : shared.value(QStringLiteral("gradients")).toArray())
        gradients.push_back(toVector(row.toArray()));
    const Json keys = Json::parse(QJsonDocument(golden.value(QStringLiteral("config")).toObject()).toJson().toStdString());
    const auto actual = engineTrajectory(keys, toVector(shared.value(QStringLiteral("start")).toArray()), gradients,
                                         toVector(shared.value(QStringLiteral("lrs")).toArray()));
    const QJsonArray expected = golden.value(QStringLiteral("trajectory")).toArray();
    QCOMPARE(actual.size(), size_t(expected.size()));
    for (size_t step = 0; step < actual.size(); ++step) {
        const std::vector<double> row = toVector(expected[int(step)].toArray());
        for (size_t i = 0; i < row.size(); ++i)
            QVERIFY2(std::fabs(actual[step][i] - row[i]) <= 2e-6 * std::max(1.0, std::fabs(row[i])),
                     qPrintable(QStringLiteral("step %1 [%2]: engine %3, PyTorch %4").arg(step).arg(i)
                                    .arg(actual[step][i], 0, 'g', 9).arg(row[i], 0, 'g', 9)));
    }
}

void OptimizersTest::novogradFollowsPaper()
{
    // Ginsburg et al. 2019, Algorithm 1, with grad_averaging as torch_optimizer.NovoGrad:
    //   v_t = |g|^2 (t = 1), else beta2 v + (1 - beta2) |g|^2
    //   d   = (g / (sqrt(v_t) + eps) + wd w) * (1 - beta1);  m = beta1 m + d;  w -= lr m
    const double lr = 0.1, beta1 = 0.95, beta2 = 0.98, eps = 1e-8, wd = 0.001;
    Vec w{kStart[0], kStart[1]}, m{0, 0};
    double v = 0;
    std::vector<Vec> expected;
    for (size_t t = 0; t < kGradients.size(); ++t) {
        const Vec g{kGradients[t][0], kGradients[t][1]};
        const double squared = g[0] * g[0] + g[1] * g[1];
        v = t == 0 ? squared : beta2 * v + (1 - beta2) * squared;
        for (int i = 0; i < 2; ++i) {
            const double d = (g[i] / (std::sqrt(v) + eps) + wd * w[i]) * (1 - beta1);
            m[i] = beta1 * m[i] + d;
            w[i] -= lr * m[i];
        }
        expected.push_back(w);
    }
    const Json keys = {{"optimizer", "novograd"}, {"beta1", beta1}, {"beta2", beta2}, {"eps", eps},
                       {"weight_decay", wd}, {"grad_averaging", true}};
    compareTrajectories(engineTrajectory(keys, kStart, kGradients, std::vector<double>(3, lr)), expected, 1e-6);
}

void OptimizersTest::lambFollowsPaper()
{
    // You et al. 2019, Algorithm 2 (LAMB), phi = identity:
    //   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2;  r = m^/(sqrt(v^) + eps) + wd w
    //   w -= lr |w| / |r| * r
    const double lr = 0.1, beta1 = 0.9, beta2 = 0.999, eps = 1e-6, wd = 0.01;
    Vec w{kStart[0], kStart[1]}, m{0, 0}, v{0, 0};
    std::vector<Vec> expected;
    for (size_t t = 1; t <= kGradients.size(); ++t) {
        const Vec g{kGradients[t - 1][0], kGradients[t - 1][1]};
        Vec r{};
        for (int i = 0; i < 2; ++i) {
            m[i] = beta1 * m[i] + (1 - beta1) * g[i];
            v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i];
            const double mHat = m[i] / (1 - std::pow(beta1, t));
            const double vHat = v[i] / (1 - std::pow(beta2, t));
            r[i] = mHat / (std::sqrt(vHat) + eps) + wd * w[i];
        }
        const double trust = norm(w) / norm(r);
        for (int i = 0; i < 2; ++i)
            w[i] -= lr * trust * r[i];
        expected.push_back(w);
    }
    const Json keys = {{"optimizer", "lamb"}, {"beta1", beta1}, {"beta2", beta2}, {"eps", eps}, {"weight_decay", wd}};
    compareTrajectories(engineTrajectory(keys, kStart, kGradients, std::vector<double>(3, lr)), expected, 1e-6);
}

void OptimizersTest::larsFollowsPaper()
{
    // You et al. 2017, Algorithm 1 (LARS):
    //   local = eta |w| / (|g| + beta |w|);  v = m v + lr local (g + beta w);  w -= v
    const double lr = 0.5, eta = 0.001, wd = 0.0005, momentum = 0.9;
    Vec w{kStart[0], kStart[1]}, velocity{0, 0};
    std::vector<Vec> expected;
    for (const auto& gradient : kGradients) {
        const Vec g{gradient[0], gradient[1]};
        const double local = eta * norm(w) / (norm(g) + wd * norm(w));
        for (int i = 0; i < 2; ++i) {
            velocity[i] = momentum * velocity[i] + lr * local * (g[i] + wd * w[i]);
            w[i] -= velocity[i];
        }
        expected.push_back(w);
    }
    const Json keys = {{"optimizer", "lars"}, {"trust_coefficient", eta}, {"weight_decay", wd}, {"momentum", momentum}};
    compareTrajectories(engineTrajectory(keys, kStart, kGradients, std::vector<double>(3, lr)), expected, 1e-6);
}

void OptimizersTest::plainSgdIsRecognised()
{
    Config config;
    QVERIFY(appliesPlainGradientStep(config));
    config.momentum = 0.9;
    QVERIFY(!appliesPlainGradientStep(config));
    config.momentum = 0;
    config.optimizer = OptimizerKind::Adam;
    QVERIFY(!appliesPlainGradientStep(config));
}

QTEST_GUILESS_MAIN(OptimizersTest)
#include "tst_optimizers.moc"
