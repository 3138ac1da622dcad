// SPDX-License-Identifier: GPL-3.0-or-later
#include "noise_scale.hpp"

#include <cmath>
#include <limits>

namespace ddplab {

void NoiseScaleEstimator::add(double smallSquaredNorm, double bigSquaredNorm, double smallBatch, double bigBatch)
{
    if (!(bigBatch > smallBatch) || smallBatch <= 0)
        return;  // one rank: there is no second batch size to compare with
    const double squaredNorm = (bigBatch * bigSquaredNorm - smallBatch * smallSquaredNorm) / (bigBatch - smallBatch);
    const double trace = (smallSquaredNorm - bigSquaredNorm) / (1.0 / smallBatch - 1.0 / bigBatch);
    if (!std::isfinite(squaredNorm) || !std::isfinite(trace))
        return;
    m_squaredNorm = m_smoothing * m_squaredNorm + (1.0 - m_smoothing) * squaredNorm;
    m_trace = m_smoothing * m_trace + (1.0 - m_smoothing) * trace;
    ++m_updates;
}

double NoiseScaleEstimator::debiased(double average) const
{
    if (m_updates == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return average / (1.0 - std::pow(m_smoothing, double(m_updates)));
}

double NoiseScaleEstimator::traceSigma() const { return debiased(m_trace); }

double NoiseScaleEstimator::gradSquaredNorm() const { return debiased(m_squaredNorm); }

double NoiseScaleEstimator::simpleNoiseScale() const
{
    const double trace = traceSigma();
    const double squaredNorm = gradSquaredNorm();
    // A gradient estimated at no size or below, or a noise estimated below zero, is no
    // measurement; noise-free data (tr(S) exactly 0) is: B_simple 0.
    if (!(squaredNorm > 0) || trace < 0)
        return std::numeric_limits<double>::quiet_NaN();
    return trace / squaredNorm;
}

}  // namespace ddplab
