// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_estimate.hpp"

#include "advice_plan.hpp"
#include "advice_progress.hpp"
#include "advice_time.hpp"
#include "run_cost.hpp"
#include "client/study/study_estimate.hpp"
#include "client/library/preset_file.hpp"
#include "core/derived.hpp"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// A resumption whose finished runs' estimate leaves less than this share of the plan is past it.
constexpr double kPlanFinishedShare = 0.05;

}  // namespace

EstimatedBase estimatedBaseCost(const AdviceRequest& request, const MachineSpeed& speed)
{
    // The base run, and the cost it would measure: its steps' seconds with and without its
    // evaluations, its samples, its whole time.
    const RunParts parts = runParts(planBase(request).run.config);
    const double steps = stepSecondsHere(parts, speed);
    const double baseSeconds = startSecondsHere(parts, speed) + steps;
    return {RunCost::measured((parts.stepSeconds - parts.evaluationSeconds) * speed.stepFactor(parts.kind), parts.samples, steps, baseSeconds,
                              qint64(parts.evaluations)),
            baseSeconds};
}

std::optional<RunCost> pinnedRunCost(const AdviceRequest& request)
{
    bool isNumber = false;
    const double factor = qEnvironmentVariable(kPinnedCostVariable).toDouble(&isNumber);
    if (!isNumber || !(factor > 0) || !std::isfinite(factor))
        return std::nullopt;
    return estimatedBaseCost(request, MachineSpeed::uniform(factor)).cost;
}

double expectedAdviceSeconds(const AdviceRequest& request, const MachineSpeed& speed)
{
    const BasePlan base = planBase(request);
    const auto [cost, baseSeconds] = estimatedBaseCost(request, speed);
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

QString adviceDurationText(double expected, double budgetSeconds)
{
    // A plan within 10 % of the budget: the budget is what it takes.
    if (!(expected < 0.9 * budgetSeconds))
        return durationText(std::min(expected, budgetSeconds));
    // The budget as it was given: minutes (1, 7.5) where they are whole or tenths, else seconds.
    const double tenthsOfMinutes = budgetSeconds / 6.0;
    const bool inMinutes = budgetSeconds >= 60 && std::fabs(tenthsOfMinutes - std::round(tenthsOfMinutes)) < 1e-6;
    const QString budget = inMinutes ? QStringLiteral("%1 min").arg(QString::number(budgetSeconds / 60.0, 'g', 4))
                                     : QStringLiteral("%1 s").arg(std::lround(budgetSeconds));
    return QStringLiteral("%1, up to %2").arg(durationText(expected), budget);
}

double resumedBudgetSeconds(const AdviceRequest& request, const QJsonObject& progress)
{
    return std::max(0.0, request.budgetSeconds - clockOfProgress(progress));
}

double expectedResumedAdviceSeconds(const AdviceRequest& request, const QJsonObject& progress, const MachineSpeed& speed)
{
    using namespace advice_progress;
    // The runs the progress file names by their stored run are taken as they are: their share of
    // the plan is not run again. The advice's clock goes on from where the stopped one's ended.
    double finished = 0.0;
    for (const QJsonValue& phase : progress.value(kPhases).toArray()) {
        const QJsonObject phaseObject = phase.toObject();
        for (const QJsonValue& run : phaseObject.value(kRuns).toArray()) {
            if (run.toObject().value(kRunId).toString().isEmpty())
                continue;
            if (const std::optional<ddplab::Config> config = coreConfigOf(run.toObject().value(kSettings).toObject()))
                finished += estimatedSeconds(*config, speed);
        }
    }
    const double planned = expectedAdviceSeconds(request, speed);
    const double left = planned - finished;
    // It had finished what the plan holds: it was in its rounds of more data orders and seeds,
    // which go on until the verdict or the LR is clear or the budget ends ("about 1 s" before, for
    // a resumption that took the 56 s left).
    if (left < kPlanFinishedShare * planned)
        return resumedBudgetSeconds(request, progress);
    return std::min(left, resumedBudgetSeconds(request, progress));
}

}  // namespace ddplab::ui
