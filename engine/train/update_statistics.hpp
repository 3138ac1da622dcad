#pragma once
// The variance of applied updates over independent experiments (seed 000's "update step
// variance"): per step over experiments, and pooled over every step and experiment.
// Welford's recurrences, so identical updates give exactly zero, as torch.var does.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace ddplab {

class UpdateStatistics {
public:
    struct StepFigures {
        double mean = 0.0;      // mean update over experiments and coordinates
        double variance = 0.0;  // unbiased variance over experiments, averaged over coordinates
    };

    // `updates`: [experiments, coordinates], one row per experiment.
    StepFigures add(const at::Tensor& updates);

    int64_t count() const { return m_count; }
    double pooledMean() const;
    double pooledVariance() const;  // unbiased; NaN with fewer than two values

private:
    int64_t m_count = 0;
    std::vector<double> m_mean;  // per coordinate
    std::vector<double> m_m2;
};

}  // namespace ddplab
