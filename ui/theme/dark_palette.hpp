// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The dark theme's colours: the whole QPalette the window takes when Dark is chosen
// (window/theme.cpp applies it with the Fusion style). The light theme is Fusion's own.

#include <QPalette>

namespace ddplab::ui {

QPalette darkPalette();

}  // namespace ddplab::ui
