// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reduces a long series to what a plot area can show: per pixel column its first, lowest,
// highest and last point (M4), so spikes survive and the drawn line is the same as drawing
// every point, at a cost bounded by the width instead of the length.

#include <QList>
#include <QPointF>

namespace ddplab::ui {

// `points` sorted by x. Keeps the points in [xMin, xMax] plus one neighbour on each side (so
// lines run to the edges); returns them unchanged when there are at most 4 per column.
QList<QPointF> decimateForColumns(const QList<QPointF>& points, double xMin, double xMax, int columns);

}  // namespace ddplab::ui
