#pragma once
// How a run ended, as one typed value: the only list of statuses, the only place that spells
// them (meta.json, the runs list, Compare, study.csv and the headless output all use
// statusText), and the only place that settles a run's status from what its data shows.

#include <QString>

namespace ddplab::ui {

class RunData;

enum class RunStatus {
    Running,
    Finished,     // exit 0, summary received
    Failed,       // the engine reported an error, crashed, or could not start
    Cancelled,    // stopped by the user (exit code 5)
    Interrupted,  // meta.json says running, but no engine is running it (the window died)
    Damaged,      // its folder cannot be read as a run (RunRecord::error says why); it can still be deleted
    Diverged,     // finished, but its loss stopped being a number or grew by orders of magnitude
};

QString statusText(RunStatus status);
// The status `text` names (as statusText spells it); Interrupted for text no status has.
RunStatus statusNamed(const QString& text);

// The status a run's own data gives it, from `ended`, the status the way its engine ended gave
// it (the exit code, an error event): a finished run whose loss blew up is diverged.
RunStatus settledStatus(RunStatus ended, const RunData& run);
// Writes that status into the run's record, with what its data says about it (where and how
// it diverged).
void settleStatus(RunData& run, RunStatus ended);

}  // namespace ddplab::ui
