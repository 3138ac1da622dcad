// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Adam's beta1, beta2 and eps at another batch (issue 28 §3h): above the base's batch by the SDE
// rule (Malladi et al. 2022: 1 - beta by k, eps by 1/sqrt(k)) from the base's, exactly as the
// engine applies lr_rule sde; at or below it the base's own (issue 46: the rule's longer memory
// cost half the batch what brute force, with the user's moments, measured it gains). One function
// for the runs that measure the LR and the recommendation that carries it, so the LR is confirmed
// with the betas it is recommended with.

#include "core/config.hpp"
#include "core/derived.hpp"

#include <QString>

namespace ddplab::ui {

struct ScaledMoments {
    ddplab::AdamSettings settings;  // scaled, or the base's below its batch and where the rule refuses
    double k = 1.0;                 // the batch ratio: the run's effective batch over the base's
    QString refusal;                // why the base's are kept ("" when scaled): below its batch, or the engine's refusal
};

// `at`'s effective batch against `base`'s, from the settings the base's own runs applied (a base
// under lr_rule sde has them scaled already). Only for optimizers with moments (usesMoments).
ScaledMoments sdeMomentsAt(const ddplab::Config& base, const ddplab::Config& at);

}  // namespace ddplab::ui
