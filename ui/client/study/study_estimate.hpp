#pragma once
// How long runs take on this machine, before they run: the one estimator of the lab, for a
// lesson (the Lessons menu, its Run button), a study's plan (the Study page) and the advisor.
// A run costs its start-up plus its steps and evaluations at per-step costs measured with
// `ddplab --preset LESSON --run --quit` on the 2-core development machine while other programs
// used it (docs/benchmarks.md, "How long lessons take"), times this machine's speed: the median,
// over its most recent finished runs, of the seconds each took against what the constants said
// (MachineSpeed). A study in progress replaces the guess with its own measured seconds per run.
// Runs that stop at a target loss are counted to their end.

#include "client/library/lesson_library.hpp"
#include "client/study/study_plan.hpp"
#include "core/config.hpp"

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

// One run's seconds on the development machine, times `speed`.
double estimatedSeconds(const ddplab::Config& config, double speed = 1.0);
// A run given as engine keys (a lesson's, a preset's); unreadable settings cost a start-up.
double estimatedSeconds(const QJsonObject& config, double speed = 1.0);
double estimatedSeconds(const StudyPoint& point, double speed = 1.0);
double estimatedSeconds(const StudyPlan& plan, double speed = 1.0);
// A lesson: its runs one after the other.
double estimatedSeconds(const Lesson& lesson, double speed = 1.0);

// "about 40 s", "about 3 min", "about 2 h"
QString durationText(double seconds);

}  // namespace ddplab::ui
