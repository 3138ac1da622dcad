// SPDX-License-Identifier: GPL-3.0-or-later
#include "update_statistics.hpp"

#include <ATen/ATen.h>

#include <limits>

namespace ddplab {

at::Tensor UpdateStatistics::add(const at::Tensor& updates)
{
    const at::Tensor table = updates.to(at::kDouble);
    const int64_t experiments = table.size(0);
    const auto [biasedVariance, stepMean] = at::var_mean(table, {0}, /*unbiased=*/false);
    const at::Tensor stepM2 = biasedVariance * double(experiments);
    if (m_count == 0) {
        m_mean = stepMean.clone();
        m_m2 = stepM2.clone();
    } else {
        // Chan, Golub and LeVeque's pairwise update of (count, mean, M2).
        const double before = double(m_count), added = double(experiments), total = before + added;
        const at::Tensor delta = stepMean - m_mean;
        m_mean.add_(delta * (added / total));
        m_m2.add_(stepM2 + delta * delta * (before * added / total));
    }
    m_count += experiments;

    const at::Tensor variance = experiments > 1 ? (stepM2 / double(experiments - 1)).mean()
                                                : at::full({}, std::numeric_limits<double>::quiet_NaN(), stepMean.options());
    return at::stack({stepMean.mean(), variance});
}

double UpdateStatistics::pooledMean() const
{
    return m_count == 0 ? std::numeric_limits<double>::quiet_NaN() : m_mean.mean().item<double>();
}

double UpdateStatistics::pooledVariance() const
{
    if (m_count < 2)
        return std::numeric_limits<double>::quiet_NaN();
    return (m_m2 / double(m_count - 1)).mean().item<double>();
}

}  // namespace ddplab
