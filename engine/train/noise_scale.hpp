// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The gradient noise scale B_simple = tr(Sigma) / |G|^2 of McCandlish et al. 2018
// ("An Empirical Model of Large-Batch Training", appendix A.1), from the unbiased two-batch
// estimator: a small batch (one rank's gradient) and a big batch (the all-reduced one).
//
//   |G|^2  ~ (B_big |G_big|^2 - B_small |G_small|^2) / (B_big - B_small)
//   tr(S)  ~ (|G_small|^2 - |G_big|^2) / (1 / B_small - 1 / B_big)
//
// Each estimate is noisy, so both are smoothed by an exponential moving average (debiased
// as Adam's moments are) before their ratio is taken, as the paper recommends. Either smoothed
// estimate can still be negative while the signal is small against its noise: the noise scale
// is then not measurable (NaN), never a negative batch size.

#include <cstdint>

namespace ddplab {

class NoiseScaleEstimator {
public:
    explicit NoiseScaleEstimator(double smoothing = 0.9) : m_smoothing(smoothing) {}

    // smallSquaredNorm: |G_small|^2 averaged over ranks; bigSquaredNorm: |G_big|^2.
    void add(double smallSquaredNorm, double bigSquaredNorm, double smallBatch, double bigBatch);

    bool ready() const { return m_updates > 0; }
    double traceSigma() const;        // smoothed tr(Sigma), per-sample gradient covariance trace
    double gradSquaredNorm() const;   // smoothed |G|^2, the true gradient's squared norm
    // traceSigma / gradSquaredNorm; NaN (not measurable yet) unless |G|^2 is positive and
    // tr(Sigma) is not negative.
    double simpleNoiseScale() const;

    // What a checkpoint keeps of it.
    struct State {
        int64_t updates = 0;
        double trace = 0.0, squaredNorm = 0.0;
    };
    State state() const { return {m_updates, m_trace, m_squaredNorm}; }
    void restore(const State& state)
    {
        m_updates = state.updates;
        m_trace = state.trace;
        m_squaredNorm = state.squaredNorm;
    }

private:
    double debiased(double average) const;

    double m_smoothing;
    int64_t m_updates = 0;
    double m_trace = 0.0;
    double m_squaredNorm = 0.0;
};

}  // namespace ddplab
