// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Help menu's windows: Getting Started (what to try first), Keyboard and Mouse (from the
// actions themselves), About (versions, the engine, where runs are kept).

#include <QString>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class DeviceInventory;
struct LabActions;

// The lesson a newcomer should start with (Help and the first Run both point at it).
QString firstLessonId();

void showGettingStarted(QWidget* parent);
void showShortcuts(QWidget* parent, const LabActions& actions);
void showAbout(QWidget* parent, const DeviceInventory& inventory, const QString& enginePath, const QString& runsFolder);

}  // namespace ddplab::ui
