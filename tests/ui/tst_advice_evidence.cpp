// The advisor's arithmetic on data with a known answer: a bracket's best LR refined by a
// parabola in log LR (exact on a bowl that is quadratic in log LR, off the grid), its safe range
// (every LR within 10 % of the best), an optimum at the ladder's edge said as such, near-ties said
// as noise; the branch test's critical batch with its calibrated tolerance; the LR's exponent in
// the batch with the spread of the seeds' own fits.

#include "client/advisor/batch_evidence.hpp"
#include "client/advisor/lr_bracket.hpp"
#include "ui_test_main.hpp"

#include <cmath>

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

    void branchTestFindsTheLargestBatchWithinTolerance()
    {
        const QList<BranchResult> branches{{32, 1.00}, {64, 1.01}, {128, 1.015}, {256, 1.10}};
        const CriticalBatchEstimate estimate = criticalBatchFromBranches(branches, 1.005);
        QVERIFY(estimate.ok);
        QCOMPARE(estimate.tolerance, 0.02);  // the repeat differs by 0.5 %: the floor holds
        QCOMPARE(estimate.criticalBatch, 128.0);
        QVERIFY(!estimate.beyondLargest);
        // A noisy repeat widens the tolerance to its difference: 256 is then within it.
        const CriticalBatchEstimate noisy = criticalBatchFromBranches(branches, 1.12);
        QVERIFY(std::abs(noisy.tolerance - 0.12 / 1.06) < 1e-12);
        QCOMPARE(noisy.criticalBatch, 256.0);
        QVERIFY(noisy.beyondLargest);
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
        for (BatchOptimum& optimum : optima)
            optimum.bestLrPerSeed = {optimum.bestLr};
        const LrExponent oneSeed = fitLrExponent(optima);
        QVERIFY(oneSeed.ok && std::isnan(oneSeed.low) && std::isnan(oneSeed.high));  // no spread is made up
    }
};

DDPLAB_UI_TEST_MAIN(TestAdviceEvidence)
#include "tst_advice_evidence.moc"
