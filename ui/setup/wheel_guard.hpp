// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Scrolling a panel with the mouse wheel must not change the chooser (a combo box or a spin
// box) that happens to pass under the pointer: the batch split of a study, the optimizer of a
// run. A guarded chooser takes the wheel only once it has the focus (a click or Tab gives it);
// until then the wheel scrolls the nearest scroll area around it that can scroll.

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

void guardAgainstStrayWheel(QWidget* chooser);

}  // namespace ddplab::ui
