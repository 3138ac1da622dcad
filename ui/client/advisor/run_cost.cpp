// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_cost.hpp"

#include <algorithm>

namespace ddplab::ui {

RunCost RunCost::measured(double trainSeconds, double samples, double wallSeconds, double elapsedSeconds, qint64 evaluations)
{
    RunCost cost;
    cost.m_perSample = samples > 0 ? trainSeconds / samples : 0.0;
    cost.m_perRun = std::clamp(elapsedSeconds - std::max(trainSeconds, wallSeconds), kFewestPerRun, kMostPerRun);
    // What its steps did not take was measuring: by the evaluation, for runs that measure more or less often.
    cost.m_perEvaluation = evaluations > 0 ? std::max(0.0, wallSeconds - trainSeconds) / double(evaluations) : 0.0;
    return cost;
}

qint64 RunCost::measuringEvery(qint64 steps, double samplesPerStep, qint64 wanted, qint64 fewest) const
{
    const double trainingSeconds = double(steps) * samplesPerStep * perSample();
    const qint64 affordable = m_perEvaluation > 0 ? qint64(trainingSeconds / m_perEvaluation) : wanted;
    return std::max<qint64>(1, steps / std::clamp<qint64>(affordable, fewest, std::max(fewest, wanted)));
}

}  // namespace ddplab::ui
