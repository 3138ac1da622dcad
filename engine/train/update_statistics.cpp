#include "update_statistics.hpp"

#include <ATen/ATen.h>

#include <cmath>
#include <limits>

namespace ddplab {

UpdateStatistics::StepFigures UpdateStatistics::add(const at::Tensor& updates)
{
    const at::Tensor table = updates.to(at::kDouble).contiguous().cpu();
    const int64_t experiments = table.size(0);
    const int64_t coordinates = table.size(1);
    const double* values = table.data_ptr<double>();
    if (m_mean.empty()) {
        m_mean.assign(size_t(coordinates), 0.0);
        m_m2.assign(size_t(coordinates), 0.0);
    }

    StepFigures step;
    double varianceSum = 0.0;
    for (int64_t c = 0; c < coordinates; ++c) {
        double stepMean = 0.0, stepM2 = 0.0;
        int64_t pooled = m_count;
        double& mean = m_mean[size_t(c)];
        double& m2 = m_m2[size_t(c)];
        for (int64_t e = 0; e < experiments; ++e) {
            const double x = values[e * coordinates + c];
            const double stepDelta = x - stepMean;
            stepMean += stepDelta / double(e + 1);
            stepM2 += stepDelta * (x - stepMean);
            ++pooled;
            const double delta = x - mean;
            mean += delta / double(pooled);
            m2 += delta * (x - mean);
        }
        step.mean += stepMean;
        varianceSum += experiments > 1 ? stepM2 / double(experiments - 1) : std::numeric_limits<double>::quiet_NaN();
    }
    m_count += experiments;
    step.mean /= double(coordinates);
    step.variance = varianceSum / double(coordinates);
    return step;
}

double UpdateStatistics::pooledMean() const
{
    double sum = 0.0;
    for (double mean : m_mean)
        sum += mean;
    return m_mean.empty() ? std::numeric_limits<double>::quiet_NaN() : sum / double(m_mean.size());
}

double UpdateStatistics::pooledVariance() const
{
    if (m_count < 2 || m_m2.empty())
        return std::numeric_limits<double>::quiet_NaN();
    double sum = 0.0;
    for (double m2 : m_m2)
        sum += m2 / double(m_count - 1);
    return sum / double(m_m2.size());
}

}  // namespace ddplab
