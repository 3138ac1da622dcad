#include "batch_evidence.hpp"

#include "client/study/scaling_fit.hpp"

#include <QPointF>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {

CriticalBatchEstimate criticalBatchFromBranches(QList<BranchResult> branches, double baseRepeat)
{
    CriticalBatchEstimate estimate;
    std::sort(branches.begin(), branches.end(), [](const BranchResult& a, const BranchResult& b) { return a.batch < b.batch; });
    if (branches.isEmpty() || !std::isfinite(branches.front().measure) || !std::isfinite(baseRepeat))
        return estimate;
    const double base = branches.front().measure;
    const double mean = (base + baseRepeat) / 2.0;
    // Two runs: the standard error of their mean is half their difference; two of them.
    estimate.tolerance = std::max(0.02, mean > 0 ? std::abs(base - baseRepeat) / mean : 0.0);
    estimate.ok = true;
    estimate.criticalBatch = branches.front().batch;
    estimate.beyondLargest = true;
    for (const BranchResult& branch : branches) {
        if (!(branch.measure <= base * (1.0 + estimate.tolerance))) {
            estimate.beyondLargest = false;
            break;
        }
        estimate.criticalBatch = branch.batch;
    }
    return estimate;
}

LrExponent fitLrExponent(const QList<BatchOptimum>& optima)
{
    LrExponent result;
    QList<QPointF> mean;
    for (const BatchOptimum& optimum : optima)
        mean.append({optimum.batch, optimum.bestLr});
    const PowerLawFit fit = fitPowerLaw(mean);
    if (!fit.ok)
        return result;
    result.ok = true;
    result.exponent = result.low = result.high = fit.exponent;
    const int seeds = optima.isEmpty() ? 0 : int(optima.front().bestLrPerSeed.size());
    if (seeds < 2) {
        // One seed per batch: no spread to give, and none is made up.
        result.low = result.high = std::nan("");
        return result;
    }
    for (int seed = 0; seed < seeds; ++seed) {
        QList<QPointF> own;
        for (const BatchOptimum& optimum : optima) {
            if (seed < optimum.bestLrPerSeed.size())
                own.append({optimum.batch, optimum.bestLrPerSeed[seed]});
        }
        const PowerLawFit seedFit = fitPowerLaw(own);
        if (seedFit.ok) {
            result.low = std::min(result.low, seedFit.exponent);
            result.high = std::max(result.high, seedFit.exponent);
        }
    }
    return result;
}

}  // namespace ddplab::ui
