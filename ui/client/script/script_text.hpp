// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pieces a PyTorch script is written from (script/pytorch_script.cpp assembles them): Python
// literals of the lab's values, and the script's sections for the settings at hand, each
// written for exactly these settings (no branch the settings do not take).

#include "core/config.hpp"

#include <QString>

#include <cstdint>
#include <initializer_list>
#include <utility>

namespace ddplab::ui::script {

// Python literals: the shortest text that reads back as the same double ("0.005", "1e-08",
// "2.0"), an integer, True/False, and a double-quoted string that reads back as exactly the
// code points of `text` (any of them: quotes, backslashes, newlines, NUL, lone surrogates),
// escaped as Python's repr() escapes them.
QString pyFloat(double value);
QString pyInt(int64_t value);
QString pyBool(bool value);
QString pyString(const QString& text);

// A name or sentence (a run's name, a note) fit for a comment or a docstring's line: quotes and
// backslashes escaped, line breaks and tabs as spaces, any other character Python would not
// print as itself (NUL, controls, bidirectional overrides, lone surrogates) as U+FFFD.
QString proseText(const QString& text);

// `text` with each @NAME@ of `values` replaced ("@LR@" -> "0.002") in one pass: the values are
// written as they are, never searched for placeholders again. Python's own braces stay.
QString filled(const QString& text, std::initializer_list<std::pair<const char*, QString>> values);

// The optimizer with the LR (and betas, eps, weight decay) the lab applies, its rule as comments.
QString learningRateSettings(const Config& config);
QString optimizerFunction(const Config& config);
// Warmup and schedule as torch.optim.lr_scheduler; empty for a constant LR.
QString schedulerFunction(const Config& config);
bool hasScheduler(const Config& config);
// The functions that give each step's LR: make_scheduler (schedulerFunction), or where each
// step sets its own, range_test_lr (lr_range_test) or scheduled_lr (a batch that grows by plan).
QString learningRateFunctions(const Config& config);

}  // namespace ddplab::ui::script
