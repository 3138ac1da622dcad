// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a run ended: the one place that decides a run's status and the sentence that explains it,
// from what the engine said about the run and, when the engine process went before the run
// ended, how it went. LabSession gathers the facts; this decides.

#include "client/engine/engine_process.hpp"
#include "client/runs/divergence.hpp"
#include "client/runs/run_record.hpp"

#include <QString>

#include <optional>

namespace ddplab::ui {

class RunData;

struct RunEnding {
    int exitCode = -1;          // the run's run_end code, or the engine's own exit code
    bool hasSummary = false;    // the run's summary event arrived
    QString reportedError;      // its `error` event's message, if any
    QString protocolProblem;    // the engine speaks another protocol version
    // Set when the engine process ended with the run unfinished (crashed, killed, could not
    // start, a dropped connection), rather than reporting the run's end itself.
    std::optional<EngineExit> engineGone;
    QString remoteFailure;      // over SSH: why the connection or the remote engine failed
    bool sawEngineHello = true; // the engine printed its hello: it is a ddplab-engine
    QString engineWhere;        // for the sentence when it is not (engineWhere())
    std::optional<Divergence> divergence;  // where the run's loss blew up (RunData::divergence)
};

struct RunOutcome {
    RunStatus status = RunStatus::Failed;
    int exitCode = -1;
    QString error;  // empty when it finished; how its loss blew up when it diverged
    qint64 divergedAtStep = -1;
};

RunOutcome decideOutcome(const RunEnding& ending);

// A run that ended finished or diverged, as `run`'s events show it: incomplete when they lack
// the summary a run ends with, or hold another number of steps than its summary (or its
// record) counts: a stream cut short (a copy, a disk, a hand) must not pass for the whole run,
// its last figures taken for the run's. Any other outcome is returned as it is.
RunOutcome settleCompleteness(const RunOutcome& outcome, const RunData& run);

// Writes an outcome into the run's record (status, exit code, error, where it diverged).
void recordOutcome(RunRecord& record, const RunOutcome& outcome);

}  // namespace ddplab::ui
