// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The variance of applied updates over independent experiments (seed 000's "update step
// variance"): per step over experiments, and pooled over every step and experiment. Kept on the
// updates' device: each step's figures come back as a tensor the trainer reads with the rest of
// the step, and the pooled moments are read once, for the summary. Welford's mean and variance
// within a step (ATen's var_mean), Chan et al.'s combination across steps, so identical updates
// give exactly zero, as torch.var does.

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace ddplab {

// The elements of the tensor add() returns (double, on the updates' device).
enum UpdateFigure : int64_t {
    kUpdateMean,      // mean update over experiments and coordinates
    kUpdateVariance,  // unbiased variance over experiments, averaged over coordinates; NaN with one experiment
    kUpdateFigureCount
};

class UpdateStatistics {
public:
    // `updates`: [experiments, coordinates], one row per experiment. Nothing is read back.
    at::Tensor add(const at::Tensor& updates);

    int64_t count() const { return m_count; }
    double pooledMean() const;      // reads the device
    double pooledVariance() const;  // unbiased; NaN with fewer than two values

    // What a checkpoint keeps of it: the count and the per-coordinate moments (undefined
    // before the first add).
    struct Moments {
        int64_t count = 0;
        at::Tensor mean, m2;
    };
    Moments moments() const { return {m_count, m_mean, m_m2}; }
    void restore(const Moments& moments)
    {
        m_count = moments.count;
        m_mean = moments.mean;
        m_m2 = moments.m2;
    }

private:
    int64_t m_count = 0;
    at::Tensor m_mean;  // per coordinate, double
    at::Tensor m_m2;    // per coordinate: the sum of squared deviations from m_mean
};

}  // namespace ddplab
