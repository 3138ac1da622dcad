// SPDX-License-Identifier: GPL-3.0-or-later
// The gradient noise scale estimator (train/noise_scale), in-process: fed the expected squared
// norms of a known problem (|G_B|^2 = |G|^2 + tr(S)/B), it recovers tr(S), |G|^2 and their
// ratio exactly, debiased from the first step; one rank (no second batch) is not a measurement,
// and neither is a ratio whose |G|^2 estimate is not positive or whose tr(S) estimate is
// negative (never a negative batch); noise-free data measures 0.

#include "train/noise_scale.hpp"

#include <QtTest>

#include <cmath>

using namespace ddplab;

namespace {

constexpr double kTrace = 12.0;       // tr(Sigma)
constexpr double kSquaredNorm = 0.5;  // |G|^2

double expectedSquaredNorm(double batch)
{
    return kSquaredNorm + kTrace / batch;
}

}  // namespace

class TestNoiseScale : public QObject {
    Q_OBJECT

private slots:
    void recoversAKnownProblem_data()
    {
        QTest::addColumn<double>("small");
        QTest::addColumn<double>("big");
        QTest::newRow("2 ranks x 16") << 16.0 << 32.0;
        QTest::newRow("8 ranks x 4") << 4.0 << 32.0;
        QTest::newRow("4 ranks x 128") << 128.0 << 512.0;
    }

    void recoversAKnownProblem()
    {
        QFETCH(double, small);
        QFETCH(double, big);
        NoiseScaleEstimator estimator;
        QVERIFY(!estimator.ready());
        for (int step = 1; step <= 5; ++step) {
            estimator.add(expectedSquaredNorm(small), expectedSquaredNorm(big), small, big);
            QVERIFY(estimator.ready());
            // Debiased: right from the first step, not 10 % of it.
            QVERIFY2(std::abs(estimator.traceSigma() - kTrace) < 1e-9, qPrintable(QString::number(estimator.traceSigma())));
            QVERIFY(std::abs(estimator.gradSquaredNorm() - kSquaredNorm) < 1e-12);
            QVERIFY(std::abs(estimator.simpleNoiseScale() - kTrace / kSquaredNorm) < 1e-8);
        }
    }

    void smoothsNoisyEstimates()
    {
        // Alternating over- and under-estimates of the big batch's norm average out.
        NoiseScaleEstimator estimator(0.9);
        for (int step = 0; step < 400; ++step) {
            const double wobble = step % 2 == 0 ? 0.01 : -0.01;
            estimator.add(expectedSquaredNorm(8.0), expectedSquaredNorm(64.0) + wobble, 8.0, 64.0);
        }
        QVERIFY(std::abs(estimator.simpleNoiseScale() - kTrace / kSquaredNorm) / (kTrace / kSquaredNorm) < 0.05);
    }

    void aSignalBelowItsNoiseIsNotMeasurableNeverNegative_data()
    {
        QTest::addColumn<double>("small");  // |G_small|^2 at batch 16
        QTest::addColumn<double>("big");    // |G_big|^2 at batch 64
        // The big batch's norm above the small one's: tr(S) estimated below zero.
        QTest::newRow("negative trace") << 0.50 << 0.52;
        // The small batch's norm far above: |G|^2 estimated below zero (as issue 19's -9748).
        QTest::newRow("negative squared norm") << 2.0 << 0.1;
    }

    void aSignalBelowItsNoiseIsNotMeasurableNeverNegative()
    {
        QFETCH(double, small);
        QFETCH(double, big);
        NoiseScaleEstimator estimator;
        for (int step = 0; step < 10; ++step)
            estimator.add(small, big, 16.0, 64.0);
        QVERIFY(estimator.ready());
        QVERIFY(estimator.traceSigma() < 0 || !(estimator.gradSquaredNorm() > 0));
        QVERIFY2(std::isnan(estimator.simpleNoiseScale()), qPrintable(QString::number(estimator.simpleNoiseScale())));
    }

    void noiseFreeDataHasNoiseScaleZero()
    {
        // Every rank's gradient the same: no noise at all, which is a measurement.
        NoiseScaleEstimator estimator;
        estimator.add(0.25, 0.25, 16.0, 64.0);
        QCOMPARE(estimator.simpleNoiseScale(), 0.0);
    }

    void oneRankIsNoMeasurement()
    {
        NoiseScaleEstimator estimator;
        estimator.add(1.0, 1.0, 32.0, 32.0);
        QVERIFY(!estimator.ready());
        QVERIFY(std::isnan(estimator.simpleNoiseScale()));
    }
};

QTEST_GUILESS_MAIN(TestNoiseScale)
#include "tst_noise_scale.moc"
