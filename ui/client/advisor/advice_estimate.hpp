// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long an advice takes here, said before it starts (the first line of `ddplab --advise`, as
// lessons and studies say theirs): its base run by the one estimator (study_estimate.hpp), then
// the branch test and the confirmation as the plan sizes them (advice_plan.hpp) at the cost that
// estimate gives the base run, never past the budget. Once the base run has run, the job says the
// time left from what it measured instead (advice_time.hpp).

#include "advice_request.hpp"
#include "run_cost.hpp"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct MachineSpeed;

// The cost the estimator gives the base run of `request` at `speed` (what the base run would
// measure there), and that base run's seconds.
struct EstimatedBase {
    RunCost cost;
    double seconds = 0.0;
};
EstimatedBase estimatedBaseCost(const AdviceRequest& request, const MachineSpeed& speed);

// A test hook, never set in normal use: the environment variable DDPLAB_ADVICE_PINNED_COST=F
// (a number > 0) pins what the advice's runs cost to the estimator's cost for its base run on a
// machine F times as slow as the development machine (MachineSpeed::uniform(F)), instead of the
// base run's measured cost, and the advice's clock (AdviceRunner) counts that cost of every run
// that ended instead of wall time. The plan, the budget's cuts and the decisions then follow the
// evidence alone, whatever else the machine runs: tst_advisor_headless shares the CI's machine
// with it. Unset, empty or not a number > 0: nullopt, the advice measures as always. Read here
// and nowhere else (docs/advisor.md, "A pinned cost for tests").
std::optional<RunCost> pinnedRunCost(const AdviceRequest& request);
inline constexpr char kPinnedCostVariable[] = "DDPLAB_ADVICE_PINNED_COST";

double expectedAdviceSeconds(const AdviceRequest& request, const MachineSpeed& speed);
// The estimate in words, as Start and the first line of `ddplab --advise` say it: "about 31 s, up
// to 1 min". The plan takes about `expected`; where a verdict or the LR is still within noise
// after it, rounds of more data orders and seeds go on until it is clear or the budget is spent,
// so the advice may take up to `budgetSeconds` (at a decision point, within 10 %). The budget
// alone when the plan already fills it.
QString adviceDurationText(double expected, double budgetSeconds);
// A stopped advice resumed from its progress file (advice_progress.hpp): the same plan less the
// runs it had finished (taken from the run store, not run again), never past what its budget
// leaves after the time its clock had reached.
double expectedResumedAdviceSeconds(const AdviceRequest& request, const QJsonObject& progress, const MachineSpeed& speed);
// What its budget leaves after the stopped advice's clock: what a resumed advice may take at most
// (adviceDurationText's "up to").
double resumedBudgetSeconds(const AdviceRequest& request, const QJsonObject& progress);

}  // namespace ddplab::ui
