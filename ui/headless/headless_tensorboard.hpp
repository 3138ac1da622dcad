// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab --export-tensorboard RUN_OR_STUDY... DIR --quit`: stored runs and studies written as
// TensorBoard runs (study/study_tensorboard.hpp), no window. Prints what it wrote and how to
// open it; the exit code is 0 when every file was written, 2 when a name is neither a run nor a
// study, 1 when a file could not be written. Warnings (a folder renamed, a value beyond
// float32, several studies in DIR) go to stderr and leave the exit code 0.

#include "client/session/launch_options.hpp"

#include <QTextStream>

namespace ddplab::ui {

int exportTensorBoardHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err);

}  // namespace ddplab::ui
