// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long runs take on this machine, before they run: for a lesson (the Lessons menu, its Run
// button) and a study's plan (the Study page). (The advisor sizes its plan from its own base run:
// client/advisor/run_cost.hpp.) Your own model's runs are estimated from a training step the
// engine's inspect timed here (MeasuredSteps) once it has.
// A run costs its start-up plus its steps and evaluations at per-step costs measured with
// `ddplab --preset LESSON --run --quit` on the 2-core development machine while other programs
// used it (docs/benchmarks.md, "How long lessons take"), times this machine's speed: the median,
// over its most recent finished runs, of the seconds each took against what the constants said
// (MachineSpeed). A study in progress replaces the guess with its own measured seconds per run.
// Runs that stop at a target loss are counted to their end.

#include "client/library/lesson_library.hpp"
#include "client/study/study_plan.hpp"
#include "core/config.hpp"

#include <QHash>
#include <QJsonObject>
#include <QList>

namespace ddplab::ui {

class RunStore;
struct RunRecord;

// This machine against the development machine: measured seconds / estimated seconds.
struct MachineSpeed {
    double factor = 1.0;  // 1: as fast as the machine the constants were measured on
    int runsMeasured = 0;  // the finished runs it was measured on (0: none yet, factor 1)

    // From the most recent `recent` runs of `store` that ran to their end here (not over SSH).
    static MachineSpeed measure(const RunStore& store, int recent = 20);
    static MachineSpeed measure(const QList<RunRecord>& runs, int recent = 20);
};

// Your own model as inspect found it on this machine (OwnModelSteps): a training step's seconds
// per sample, timed here, and its data's sizes. A run of such a model is estimated from them
// instead of from the development machine's CNN and a guessed data size.
struct MeasuredModel {
    double secondsPerSample = 0.0;
    double startSeconds = 0.0;  // inspect's own start: LibTorch, the model, the data, as a run's
    qint64 trainSamples = 0;
    qint64 valSamples = 0;
};
// By measuredStepKey: its model and training data.
using MeasuredSteps = QHash<QString, MeasuredModel>;
QString measuredStepKey(const QJsonObject& settings);  // engine keys (a study point's preset)

// One run's seconds on the development machine, times `speed`; your own model `measured` by
// inspect here, its model's part and its data's sizes from that.
double estimatedSeconds(const ddplab::Config& config, double speed = 1.0, const MeasuredModel* measured = nullptr);
// A run given as engine keys (a lesson's, a preset's); unreadable settings cost a start-up.
double estimatedSeconds(const QJsonObject& config, double speed = 1.0, const MeasuredModel* measured = nullptr);
double estimatedSeconds(const StudyPoint& point, double speed = 1.0);
double estimatedSeconds(const StudyPlan& plan, double speed = 1.0, const MeasuredSteps& measured = {});
// A lesson: its runs one after the other.
double estimatedSeconds(const Lesson& lesson, double speed = 1.0);

// "about 40 s", "about 3 min", "about 2 h"
QString durationText(double seconds);

}  // namespace ddplab::ui
