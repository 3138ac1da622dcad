// SPDX-License-Identifier: GPL-3.0-or-later
#include "adam_moments.hpp"

#include "core/config_keys.hpp"
#include "core/config_validate.hpp"

namespace ddplab::ui {

ScaledMoments sdeMomentsAt(const ddplab::Config& base, const ddplab::Config& at)
{
    ScaledMoments moments;
    moments.settings = appliedAdamSettings(base);
    ddplab::Config rule = at;
    rule.beta1 = moments.settings.beta1;
    rule.beta2 = moments.settings.beta2;
    rule.eps = moments.settings.eps;
    rule.lrRule = LrRule::Sde;
    rule.baseBatchSize = effectiveBatchSize(base);
    moments.k = batchRatio(rule);
    for (const ConfigProblem& problem : findProblems(rule)) {
        if (problem.key == key::kLrRule)
            moments.refusal = QString::fromStdString(problem.message);
    }
    if (moments.refusal.isEmpty())
        moments.settings = appliedAdamSettings(rule);
    return moments;
}

}  // namespace ddplab::ui
