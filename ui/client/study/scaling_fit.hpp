// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The fits a study's charts draw. Pure arithmetic, tested on data with a known answer.
//
// McCandlish et al. 2018 ("An Empirical Model of Large-Batch Training"): the optimizer steps S
// and the samples E = S·B needed to reach a target follow
//     S = S_min (1 + B_crit / B)        E = E_min (1 + B / B_crit),    E_min = S_min · B_crit,
// so below the critical batch B_crit doubling the batch halves the steps, and above it the
// steps stop falling while the samples grow. The fit minimises the squared error of log S
// (steps span decades; each point counts the same).

#include <QList>
#include <QPointF>

namespace ddplab::ui {

struct CriticalBatchFit {
    bool ok = false;      // at least 3 points at 2 batch sizes or more
    double sMin = 0.0;    // steps at an infinite batch
    double bCrit = 0.0;   // the critical batch
    double eMin() const { return sMin * bCrit; }  // samples at a batch of 1
    double rmsLogError = 0.0;  // of log S, natural log
    double stepsAt(double batch) const { return sMin * (1.0 + bCrit / batch); }
    double samplesAt(double batch) const { return stepsAt(batch) * batch; }
};
// Points are (batch, steps), batch > 0, steps > 0.
CriticalBatchFit fitCriticalBatch(const QList<QPointF>& batchAndSteps);

// Zhang et al. 2024 ("How Does Critical Batch Size Scale in Pre-training?"): the critical
// batch is where the steps to the target exceed perfect linear scaling by a share (20 %).
// Perfect scaling runs from the smallest batch measured: S_lin(B) = S(B0) · B0 / B, so the
// excess S(B) / S_lin(B) - 1 is how many more samples B needs than B0. It is read from the
// measured points, not from a fit: the first batch where the excess reaches the share,
// interpolated on log B between the measured batches around it.
struct ExcessStepsBatch {
    bool ok = false;        // at least 2 batches measured
    bool beyond = false;    // no measured batch exceeds it: the critical batch lies above `batch`
    double batch = 0.0;     // the critical batch (or, when beyond, the largest batch measured)
    double referenceBatch = 0.0;  // B0
};
// Points are (batch, steps); several at one batch are averaged.
ExcessStepsBatch batchAtExcessSteps(const QList<QPointF>& batchAndSteps, double excess);

// y = prefactor · x^exponent by least squares on log x, log y (positive points only).
struct PowerLawFit {
    bool ok = false;  // at least 2 points at 2 x values or more
    double exponent = 0.0;
    double prefactor = 0.0;
    double rSquared = 0.0;
};
PowerLawFit fitPowerLaw(const QList<QPointF>& points);

// Mean and standard error (sample standard deviation / sqrt(n)) of the finite values.
struct MeanAndError {
    double mean = 0.0;
    double standardError = 0.0;
    int count = 0;  // finite values; 0: mean is NaN
};
MeanAndError meanAndError(const QList<double>& values);

}  // namespace ddplab::ui
