// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab --advise [--preset FILE] --gpus N [--max-batch-per-gpu B] [--budget-min M] [--horizon-samples S] --export DIR
// --quit`: the advisor without a window (docs/advisor.md); `--advise --resume ADVICE --export DIR
// --quit` goes on with a stopped one, taking the runs it finished. Prints what it measures as it goes,
// writes advice.json and advice.md into DIR, and ends with the recommendation in words. Exit
// code 0 with a recommendation, 2 for bad input (one sentence), else the failure's.

#include "client/session/launch_options.hpp"

#include <QTextStream>

namespace ddplab::ui {

int adviseHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err);

}  // namespace ddplab::ui
