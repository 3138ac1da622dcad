// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab --export-script RUN_OR_PRESET FILE --quit`: a stored run's or a preset's settings as a
// PyTorch DDP script for torchrun (client/script, docs/pytorch-script.md), no window. Prints
// the file and the command that runs it; the exit code is 0 when written, 2 when NAME names no
// settings or the settings cannot be such a script (the sentence says why), 1 when the file
// could not be written.

#include "client/session/launch_options.hpp"

#include <QTextStream>

namespace ddplab::ui {

int exportScriptHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err);

}  // namespace ddplab::ui
