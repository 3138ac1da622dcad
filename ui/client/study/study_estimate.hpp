#pragma once
// A rough time for a plan before it runs, so the Study page can say "about 3 min" next to the
// run count: each run's start-up plus its steps at a per-step cost that grows with the ranks
// sharing the CPU (measured on a 2-core machine; a study in progress replaces the guess with
// its own measured seconds per run). Runs that stop at a target loss are counted to their end.

#include "client/study/study_plan.hpp"

namespace ddplab::ui {

double estimatedSeconds(const StudyPoint& point);
double estimatedSeconds(const StudyPlan& plan);

// "about 40 s", "about 3 min", "about 2 h"
QString durationText(double seconds);

}  // namespace ddplab::ui
