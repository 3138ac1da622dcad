// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_estimate.hpp"

#include "advice_plan.hpp"
#include "advice_time.hpp"
#include "run_cost.hpp"
#include "client/study/study_estimate.hpp"
#include "core/derived.hpp"

#include <algorithm>

namespace ddplab::ui {

double expectedAdviceSeconds(const AdviceRequest& request, const MachineSpeed& speed)
{
    // The base run, and the cost it would measure: its steps' seconds with and without its
    // evaluations, its samples, its whole time.
    const BasePlan base = planBase(request);
    const RunParts parts = runParts(base.run.config);
    const double factor = speed.stepFactor(parts.kind);
    const double steps = parts.stepSeconds * factor;
    const double baseSeconds = parts.startSeconds * speed.start + steps;
    const RunCost cost = RunCost::measured((parts.stepSeconds - parts.evaluationSeconds) * factor, parts.samples, steps, baseSeconds,
                                           qint64(parts.evaluations));
    // What the job plans after it, sized to the budget it leaves (the checkpoint's path is the
    // job's to know; the plan only carries it).
    PlanContext context{request, cost, std::max(0.0, request.budgetSeconds - baseSeconds), QString(), base.checkpointStep};
    const BranchPlan branches = planBranchTest(context);
    AdviceTime time;
    time.setCost(cost, base.checkpointStep);
    const double branchSeconds = std::min(time.runsSeconds(branches.runs), branches.seconds > 0 ? branches.seconds : context.secondsLeft);
    context.secondsLeft = std::max(0.0, context.secondsLeft - branchSeconds);
    // The confirmation at your batch per GPU (the one the branch test most often keeps), over
    // your horizon or what is left.
    const qint64 perGpu = request.maxBatchPerGpu > 0 ? std::min<qint64>(request.base.batchSize, request.maxBatchPerGpu) : request.base.batchSize;
    const double confirmation = std::min(confirmationSeconds(context, perGpu), context.secondsLeft);
    return std::min(request.budgetSeconds, baseSeconds + branchSeconds + confirmation);
}

}  // namespace ddplab::ui
