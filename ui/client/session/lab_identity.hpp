#pragma once
// The lab's name and version as Qt knows them: where QSettings keeps the settings
// (~/.config/ddplab/ddplab.conf) and QStandardPaths the runs (~/.local/share/ddplab/ddplab/runs).

namespace ddplab::ui {

void setLabIdentity();

}  // namespace ddplab::ui
