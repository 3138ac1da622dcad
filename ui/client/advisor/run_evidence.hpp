// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the advice keeps of a finished run (advice.json's `evidence`): its planned settings, the
// measure it reached (the validation loss when there is validation data, else the noise-free
// training loss; +inf when it diverged or failed), its training loss along the way, a timing
// run's pace; and a range test's curve. Read from the run's data once, so every decision after it
// is a function of the evidence alone.

#include "advice.hpp"
#include "advice_plan.hpp"
#include "client/runs/run_status.hpp"

namespace ddplab::ui {

class RunData;

// `checkpointStep` and `checkpointMeasure` (NaN: not measured there): a branch's curve counts its
// steps from the checkpoint and starts at the checkpoint's measure.
AdviceEvidence evidenceOf(const PlannedRun& planned, const RunData& run, const ddplab::Config& base, qint64 checkpointStep, double checkpointMeasure);
// The measure a run of the advice is judged on.
double measureOf(const RunData& run, const ddplab::Config& base);
// What the decisions take of it: +inf for a run that diverged or failed, else its measure. A run
// that diverged (its loss grew by orders of magnitude) can end on a finite validation loss, and is
// diverged still: no LR is advised next to it.
double judgedMeasure(RunStatus status, double measure);
QString measureNameOf(const ddplab::Config& base);
// A range test's smoothed loss against the LR, and where it ran away when it did.
RangeCurve rangeCurveOf(double batch, const RunData& run);

}  // namespace ddplab::ui
