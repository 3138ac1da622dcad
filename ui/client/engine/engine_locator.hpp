// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where ddplab-engine is: the --engine option, else the DDPLAB_ENGINE environment variable,
// else beside the ddplab executable (both land in build/bin).

#include <QString>

namespace ddplab::ui {

QString locateEngine(const QString& commandLineOverride = QString());

}  // namespace ddplab::ui
