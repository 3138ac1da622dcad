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
    if (moments.k == 1.0) {
        moments.refusal = QStringLiteral("the batch is yours");
        return moments;
    }
    if (moments.k < 1.0) {
        // Below your batch the rule would lengthen the moments' memory (1 - beta by k < 1); the
        // advisor keeps yours there, as brute force and Optuna train every batch (docs/advisor.md,
        // "Adam's moments below your batch").
        moments.refusal = QStringLiteral("the batch is below yours, where the advisor trains with your own moments and recommends them "
                                         "(the SDE rule would lengthen their memory %1-fold; on the panel that cost half the batch most of "
                                         "what brute force measured it gains)")
                              .arg(1.0 / moments.k, 0, 'g', 4);
        return moments;
    }
    for (const ConfigProblem& problem : findProblems(rule)) {
        if (problem.key == key::kLrRule)
            moments.refusal = QString::fromStdString(problem.message);
    }
    if (moments.refusal.isEmpty())
        moments.settings = appliedAdamSettings(rule);
    return moments;
}

}  // namespace ddplab::ui
