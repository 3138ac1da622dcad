// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lab's name and version as Qt knows them: where QSettings keeps the settings
// (~/.config/ddplab/ddplab.conf) and QStandardPaths the runs (~/.local/share/ddplab/ddplab/runs).

#include <QString>

namespace ddplab::ui {

void setLabIdentity();

// Why the lab has nowhere to keep its runs and settings, as one sentence; empty when it has.
// They live under $XDG_DATA_HOME and $XDG_CONFIG_HOME, else under $HOME (.local/share,
// .config): with HOME empty, relative or no folder and those not set in its place, Qt would
// write under /.local or make up a home folder (docs/ui.md).
QString homeProblem();

}  // namespace ddplab::ui
