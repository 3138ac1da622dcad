#pragma once
// What the advisor concludes about the batch and the LR's scaling from its measurements. Pure
// arithmetic, tested on data with a known answer (docs/advisor.md).
//
// The branch test (Merrill et al. 2025, "Critical batch size revisited"): from one checkpoint,
// branches at k times the base batch train on the same samples; the largest batch whose measure
// stays within a tolerance of the base batch's branch is the local critical batch. The
// tolerance is calibrated on the base batch itself, run twice with two data orders:
// max(2 %, 2 standard errors of their mean), relative.

#include <QList>

namespace ddplab::ui {

struct BranchResult {
    double batch = 0.0;    // effective batch
    double measure = 0.0;  // its best measure over its LR bracket, at the branches' common samples
};

struct CriticalBatchEstimate {
    bool ok = false;
    double criticalBatch = 0.0;
    double tolerance = 0.0;        // relative
    bool beyondLargest = false;    // every branch stayed within: the critical batch is at least criticalBatch
};

// `branches` includes the base batch's; `baseRepeat` is the base batch's measure with the other
// data order.
CriticalBatchEstimate criticalBatchFromBranches(QList<BranchResult> branches, double baseRepeat);

// How the best LR grows with the batch: lr ∝ batch^exponent by least squares on logs over the
// batches' optima (at least 2 batches). The interval is the range of the same fit done for each
// seed alone (each seed's own best LR at every batch); NaN with fewer than 2 seeds.
struct LrExponent {
    bool ok = false;
    double exponent = 0.0;
    double low = 0.0, high = 0.0;
};
struct BatchOptimum {
    double batch = 0.0;
    double bestLr = 0.0;              // from the seeds' mean
    QList<double> bestLrPerSeed;      // each seed's own argmin
};
LrExponent fitLrExponent(const QList<BatchOptimum>& optima);

}  // namespace ddplab::ui
