// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Light, dark or the desktop's own look. Light and dark use the Fusion style with a palette of
// their own, so both read the same on any desktop (and under Xvfb); charts follow the palette.

#include <QString>

namespace ddplab::ui {

enum class ThemeChoice { System, Light, Dark };

void applyTheme(ThemeChoice choice);
QString themeName(ThemeChoice choice);
ThemeChoice themeFromName(const QString& name);

}  // namespace ddplab::ui
