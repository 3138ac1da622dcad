// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long an advice takes here, said before it starts (the first line of `ddplab --advise`, as
// lessons and studies say theirs): its base run by the one estimator (study_estimate.hpp), then
// the branch test and the confirmation as the plan sizes them (advice_plan.hpp) at the cost that
// estimate gives the base run, never past the budget. Once the base run has run, the job says the
// time left from what it measured instead (advice_time.hpp).

#include "advice_request.hpp"

#include <QJsonObject>

namespace ddplab::ui {

struct MachineSpeed;

double expectedAdviceSeconds(const AdviceRequest& request, const MachineSpeed& speed);
// A stopped advice resumed from its progress file (advice_progress.hpp): the same plan less the
// runs it had finished (taken from the run store, not run again), never past what its budget
// leaves after the time its clock had reached.
double expectedResumedAdviceSeconds(const AdviceRequest& request, const QJsonObject& progress, const MachineSpeed& speed);

}  // namespace ddplab::ui
