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
// "2.0"), an integer, True/False, a double-quoted string.
QString pyFloat(double value);
QString pyInt(int64_t value);
QString pyBool(bool value);
QString pyString(const QString& text);

// `text` with every @NAME@ replaced ("@LR@" -> "0.002"): Python's own braces stay as they are.
QString filled(QString text, std::initializer_list<std::pair<const char*, QString>> values);

// The optimizer with the LR (and betas, eps, weight decay) the lab applies, its rule as comments.
QString learningRateSettings(const Config& config);
QString optimizerFunction(const Config& config);
// Warmup and schedule as torch.optim.lr_scheduler; empty for a constant LR.
QString schedulerFunction(const Config& config);
bool hasScheduler(const Config& config);

}  // namespace ddplab::ui::script
