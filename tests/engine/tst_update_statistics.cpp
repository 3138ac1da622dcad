// SPDX-License-Identifier: GPL-3.0-or-later
// The variance of applied updates over experiments (train/update_statistics), in-process:
// per step against torch.var over experiments, pooled over steps against the variance of all
// of them at once (Chan's combination), and exactly zero for identical updates (Welford, as
// torch.var).

#include "train/update_statistics.hpp"

#include <ATen/ATen.h>
#include <QtTest>

#include <cmath>

using namespace ddplab;

namespace {

// add() leaves a step's figures on the updates' device, for the trainer's one read per step.
struct Step {
    double mean;
    double variance;
};

Step read(const at::Tensor& figures)
{
    const at::Tensor host = figures.cpu();
    return {host[kUpdateMean].item<double>(), host[kUpdateVariance].item<double>()};
}

}  // namespace

class TestUpdateStatistics : public QObject {
    Q_OBJECT

private slots:
    void aStepAgainstTorchVar()
    {
        const at::Tensor updates = at::tensor({1.0, 10.0, 2.0, 20.0, 4.0, 60.0}, at::kDouble).reshape({3, 2});  // 3 experiments, 2 coordinates
        UpdateStatistics statistics;
        const Step step = read(statistics.add(updates));
        QCOMPARE(step.mean, updates.mean().item<double>());
        // Unbiased over experiments, per coordinate, then averaged: (7/3 + 700) / 2.
        QCOMPARE(step.variance, at::var(updates, 0, /*unbiased=*/true).mean().item<double>());
        QCOMPARE(step.variance, (7.0 / 3.0 + 700.0) / 2.0);
        QCOMPARE(statistics.count(), 3);
    }

    void pooledOverSteps()
    {
        const at::Tensor first = at::randn({50, 4}, at::kDouble);
        const at::Tensor second = at::randn({50, 4}, at::kDouble) * 3.0 + 1.0;
        UpdateStatistics statistics;
        statistics.add(first);
        statistics.add(second);
        const at::Tensor all = at::cat({first, second}, 0);
        QCOMPARE(statistics.count(), 100);
        QVERIFY(std::abs(statistics.pooledMean() - all.mean().item<double>()) < 1e-12);
        QVERIFY(std::abs(statistics.pooledVariance() - at::var(all, 0, true).mean().item<double>()) < 1e-12);
    }

    void identicalUpdatesHaveNoVariance()
    {
        UpdateStatistics statistics;
        const Step step = read(statistics.add(at::full({8, 3}, 0.1, at::kDouble)));
        QCOMPARE(step.variance, 0.0);
        QCOMPARE(statistics.pooledVariance(), 0.0);
    }

    void oneExperimentHasNoStepVariance()
    {
        UpdateStatistics statistics;
        QVERIFY(std::isnan(statistics.pooledVariance()));
        const Step step = read(statistics.add(at::ones({1, 2}, at::kFloat)));
        QVERIFY(std::isnan(step.variance));
        QVERIFY(std::isnan(statistics.pooledVariance()));  // one value so far
    }
};

QTEST_GUILESS_MAIN(TestUpdateStatistics)
#include "tst_update_statistics.moc"
