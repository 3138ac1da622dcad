// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the mouse and keys do on a chart (ChartCanvas), in words, for the window's help: one
// list, kept beside the code that implements them.

#include <QList>
#include <QString>

#include <utility>

namespace ddplab::ui {

QList<std::pair<QString, QString>> chartGestures();

}  // namespace ddplab::ui
