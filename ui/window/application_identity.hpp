// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Names the application (settings and the run store live under "ddplab"), its version, its
// display name and icon. Called once, right after the QApplication exists.

namespace ddplab::ui {

void setApplicationIdentity();

}  // namespace ddplab::ui
