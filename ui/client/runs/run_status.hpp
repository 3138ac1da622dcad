// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a run ended, as one typed value: the only list of statuses and the only place that
// spells them (meta.json, the runs list, Compare, study.csv and the headless output all use
// statusText). Which one a run gets is decided in client/runs/run_outcome.

#include <QString>

namespace ddplab::ui {

enum class RunStatus {
    Running,
    Finished,     // exit 0, summary received, every step in its events
    Failed,       // the engine reported an error, crashed, or could not start
    Cancelled,    // stopped by the user (exit code 5)
    Interrupted,  // meta.json says running, but no engine is running it (the window died)
    Damaged,      // its folder cannot be read as a run (RunRecord::error says why); it can still be deleted
    Diverged,     // finished, but its loss stopped being a number or grew by orders of magnitude
    Incomplete,   // said to have ended, but its events lack their end or some steps (RunRecord::error says what)
};

QString statusText(RunStatus status);
// The status with what it needs to be read right, for lists and tables: "diverged at step 28".
QString statusLine(RunStatus status, qint64 divergedAtStep);
// The status `text` names (as statusText spells it); Interrupted for text no status has.
RunStatus statusNamed(const QString& text);

}  // namespace ddplab::ui
