// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Seed 000's noisy toy in closed form (docs/metrics.md): the gradient g = sign(w x - y) x of
// one neuron with x = 1 + s a, y = s b (a, b standard normal), its mean, its variance and the
// noise scale B_simple = Var(g) / E[g]^2 they give (1.171 at w = 1, s = 1).

#include <cmath>

namespace ddplab::test::toy {

inline double normalPdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2.0 * M_PI); }
inline double normalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// z = w x - y is N(w, s^2 (w^2 + 1)), and by Gaussian regression E[a sign z] = 2 w s phi(w / s_z) / s_z.
inline double meanGradient(double w, double sigma)
{
    const double sz = sigma * std::sqrt(w * w + 1.0);
    return 2.0 * normalCdf(w / sz) - 1.0 + 2.0 * w * sigma * sigma * normalPdf(w / sz) / sz;
}

inline double gradientVariance(double w, double sigma)
{
    const double mean = meanGradient(w, sigma);
    return 1.0 + sigma * sigma - mean * mean;  // E[g^2] = E[x^2] since sign^2 = 1
}

inline double noiseScale(double w, double sigma)
{
    const double mean = meanGradient(w, sigma);
    return gradientVariance(w, sigma) / (mean * mean);
}

}  // namespace ddplab::test::toy
