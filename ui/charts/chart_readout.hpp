// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The hover read-out of a live chart: where the pointer is on the x axis ("step 1,200",
// "epoch 3.50"), and each line's value nearest to it, with where that value lies when it is
// not at the pointer's place.

#include "charts/chart_canvas.hpp"
#include "client/series/x_axis.hpp"

#include <QList>
#include <QString>

namespace ddplab::ui {

// An x value in the words of its axis.
QString xValueText(double x, XAxis axis);

// `lines` (ChartLines::readout at `x`) with " at step 1,180" added where a value lies elsewhere.
QList<ReadoutLine> placedReadout(QList<ReadoutLine> lines, double x, XAxis axis);

}  // namespace ddplab::ui
