#pragma once
// How a run stands: one typed status, one place that names it (statusText, statusNamed: the
// words of meta.json, the Runs list, study.csv and the headless output), and one place that
// decides it from what the run's data shows (settledStatus). A new status is one enumerator
// here, one line in the name table and one branch in settledStatus.

#include <QString>

#include <optional>

namespace ddplab::ui {

class RunData;

enum class RunStatus {
    Running,
    Finished,     // exit 0, summary received, every step in its events
    Failed,       // the engine reported an error, crashed, or could not start
    Cancelled,    // stopped by the user (exit code 5)
    Interrupted,  // meta.json says running, but no engine is running it (the window died)
    Damaged,      // its folder cannot be read as a run (RunRecord::error says why); it can still be deleted
    Incomplete,   // said to have finished, but its events lack their end or some steps (RunRecord::error says what)
};

QString statusText(RunStatus status);
std::optional<RunStatus> statusNamed(const QString& text);

// What `run` really is, given how it `ended` (the engine's word, or meta.json's): a run that
// ended finished is incomplete when its events lack their summary or hold another number of
// steps than the summary (or its record) counts; `reason` (when given) then says which.
RunStatus settledStatus(RunStatus ended, const RunData& run, QString* reason = nullptr);

}  // namespace ddplab::ui
