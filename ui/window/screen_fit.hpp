// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window on the screen it opens on. The first time (nothing remembered), it takes most of
// that screen and arranges its panes to fit it: on a narrow screen the lesson and the runs
// share one pane as tabs, and Setup and the right-hand panes take what a 1280 x 720 projector
// can spare. A remembered geometry larger than the screen (another monitor) is brought back.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMainWindow;
QT_END_NAMESPACE

namespace ddplab::ui {

struct DockSet {
    QDockWidget* setup = nullptr;
    QDockWidget* lesson = nullptr;
    QDockWidget* runs = nullptr;
    QDockWidget* log = nullptr;
};

void arrangeForScreen(QMainWindow& window, const DockSet& docks);
void keepOnScreen(QMainWindow& window);

}  // namespace ddplab::ui
