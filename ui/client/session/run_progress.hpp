// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "step 120 / 469 · epoch 1 / 3 · 0:42 left": where a run is and, from the pace of its steps
// so far, how long it has to go.

#include <QString>

namespace ddplab::ui {

class RunData;

struct RunProgress {
    int percent = 0;  // 0..100; 0 while the total is unknown
    QString text;
};

RunProgress describeProgress(const RunData& run, qint64 msSinceFirstStep);

// Samples per second over the last few steps (one slow step should not make the figure
// jump); 0 before the first step.
double recentThroughput(const RunData& run);

// 75 -> "1:15", 3725 -> "1:02:05".
QString formatDuration(qint64 seconds);

}  // namespace ddplab::ui
