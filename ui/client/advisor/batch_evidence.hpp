// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the advisor concludes about the LR's scaling with the batch from the branch test (Merrill
// et al. 2025, "Critical batch size revisited": from one checkpoint, branches at k times the base
// batch train on the same samples): the best LR's exponent in the batch with the data orders'
// spread, and McCandlish's saturating fit of the steps to a target. The verdict on each batch is
// batch_verdict.hpp's. Pure arithmetic, tested on data with a known answer (docs/advisor.md).

#include "client/study/scaling_fit.hpp"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

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
// Which LR rules the exponent's interval holds, in advice.json's words: "linear" (exponent 1)
// and "sqrt" (1/2) when inside [low, high]; with no interval, the rule nearest the exponent
// within 0.15, else none.
QStringList rulesWithinInterval(const LrExponent& exponent);

// McCandlish et al. 2018's saturating model over the branch test: S = S_min (1 + B_crit / B),
// S the optimizer steps a branch takes from the checkpoint to reach a target measure, its LR
// tuned per batch (the best of its bracket for that target). The target is the measure every
// batch and data order reached (the highest of their best final measures), so no point is
// censored. Each batch and data order gives one point.
struct BranchCurve {
    double batch = 0.0;      // effective
    double lr = 0.0;
    int seed = 0;            // the data order (0, 1, ...)
    QList<QPointF> curve;    // (optimizer steps since the checkpoint, measure), by steps
};
struct StepsToTarget {
    bool ok = false;             // the fit was made
    double target = 0.0;
    QList<QPointF> points;       // (batch, steps to the target), one per batch and data order
    CriticalBatchFit fit;
    double smallestBatch = 0.0, largestBatch = 0.0;
    // Why it cannot be trusted, each a sentence (S_min under 2 steps, B_crit outside the batches
    // measured, a batch whose best LR was at its bracket's edge, two batches only, a poor fit);
    // empty when none applies.
    QStringList doubts;
};
// `edgeBatches`: the batches whose best LR sat at the edge of their bracket.
StepsToTarget fitStepsToTarget(const QList<BranchCurve>& curves, const QList<double>& edgeBatches);
// The first steps at which `curve` reaches `target`, linear between its points; -1 never.
double stepsToReach(const QList<QPointF>& curve, double target);

}  // namespace ddplab::ui
