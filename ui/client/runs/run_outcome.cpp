// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_outcome.hpp"

#include "client/runs/run_data.hpp"
#include "client/wire.hpp"
#include "core/protocol_names.hpp"

namespace ddplab::ui {

RunOutcome decideOutcome(const RunEnding& ending)
{
    const auto failed = [](int code, const QString& why) { return RunOutcome{RunStatus::Failed, code, why}; };
    // Its events may mean something else than this lab reads into them.
    if (!ending.protocolProblem.isEmpty())
        return failed(-1, ending.protocolProblem);
    if (const std::optional<EngineExit>& gone = ending.engineGone) {
        if (gone->failedToStart)
            return failed(-1, gone->message);
        // ssh's own codes (255: no connection; 127, 126: no engine at that path there) are no
        // code of the lab's: the engine could not be started, as when it is missing here.
        if (!ending.remoteFailure.isEmpty())
            return failed(-1, ending.remoteFailure);
        if (gone->crashed)
            return {gone->stopRequested ? RunStatus::Cancelled : RunStatus::Failed, -1, gone->message};
    }
    const int code = ending.exitCode;
    if (code == 0 && ending.hasSummary) {
        // It trained to its end; a loss that blew up on the way makes that no success.
        if (const std::optional<Divergence>& divergence = ending.divergence)
            return {RunStatus::Diverged, 0, divergence->describe(), divergence->step};
        return {RunStatus::Finished, 0, QString()};
    }
    if (code == kExitCancelled)
        return {RunStatus::Cancelled, code, ending.reportedError.isEmpty() ? QStringLiteral("cancelled") : ending.reportedError};
    if (!ending.reportedError.isEmpty())
        return failed(code, ending.reportedError);
    if (!ending.sawEngineHello)
        return failed(code, QStringLiteral("The program %1 exited with code %2 without printing a single engine event: "
                                           "it is not a working ddplab-engine (its messages are in the log).")
                                .arg(ending.engineWhere)
                                .arg(code));
    return failed(code, QStringLiteral("The run ended with code %1 without reporting an error or a summary; "
                                       "the engine's messages are in the log.")
                            .arg(code));
}

namespace {

// Why `run` lacks part of its events; empty when they are whole.
QString whyIncomplete(const RunData& run)
{
    if (!run.hasSummary())
        return QStringLiteral("its events end after step %1 without the summary a finished run ends with").arg(run.lastStep());
    // A run resumed from a checkpoint counts the steps before it too; its events hold the rest.
    const qint64 resumedAfter = run.config().value(wire(field::kResumedStep)).toInteger(0);
    const qint64 summarySteps = run.summary().value(wire(field::kSteps)).toInteger(-1);
    if (summarySteps >= 0 && summarySteps - resumedAfter != run.stepCount())
        return QStringLiteral("its events hold %1 of the %2 steps its summary counts").arg(run.stepCount()).arg(summarySteps - resumedAfter);
    if (run.record().steps > 0 && run.record().steps != run.stepCount())
        return QStringLiteral("its events hold %1 steps, its record says %2").arg(run.stepCount()).arg(run.record().steps);
    return {};
}

}  // namespace

RunOutcome settleCompleteness(const RunOutcome& outcome, const RunData& run)
{
    if (outcome.status != RunStatus::Finished && outcome.status != RunStatus::Diverged)
        return outcome;
    const QString why = whyIncomplete(run);
    if (why.isEmpty())
        return outcome;
    return {RunStatus::Incomplete, outcome.exitCode, why};
}

void recordOutcome(RunRecord& record, const RunOutcome& outcome)
{
    record.status = outcome.status;
    record.exitCode = outcome.exitCode;
    record.error = outcome.error;
    record.divergedAtStep = outcome.divergedAtStep;
}

}  // namespace ddplab::ui
