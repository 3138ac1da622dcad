// SPDX-License-Identifier: GPL-3.0-or-later
#include "decimation.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {

QList<QPointF> decimateForColumns(const QList<QPointF>& points, double xMin, double xMax, int columns)
{
    const auto byX = [](const QPointF& point, double x) { return point.x() < x; };
    auto first = std::lower_bound(points.begin(), points.end(), xMin, byX);
    auto last = std::upper_bound(points.begin(), points.end(), xMax, [](double x, const QPointF& point) { return x < point.x(); });
    if (first != points.begin())
        --first;
    if (last != points.end())
        ++last;
    const qsizetype count = last - first;
    columns = std::max(columns, 1);
    if (count <= 4 * qsizetype(columns) || !(xMax > xMin))
        return QList<QPointF>(first, last);

    QList<QPointF> reduced;
    reduced.reserve(4 * columns + 2);
    const double columnWidth = (xMax - xMin) / columns;
    auto column = [&](const QPointF& point) {
        return std::clamp<qint64>(qint64(std::floor((point.x() - xMin) / columnWidth)), -1, columns);
    };
    auto it = first;
    while (it != last) {
        const qint64 current = column(*it);
        const QPointF* firstInColumn = &*it;
        const QPointF* lowest = firstInColumn;
        const QPointF* highest = firstInColumn;
        const QPointF* lastInColumn = firstInColumn;
        for (++it; it != last && column(*it) == current; ++it) {
            lastInColumn = &*it;
            if (it->y() < lowest->y())
                lowest = lastInColumn;
            if (it->y() > highest->y())
                highest = lastInColumn;
        }
        // In x order, each point once.
        const QPointF* picks[] = {firstInColumn, lowest, highest, lastInColumn};
        std::sort(std::begin(picks), std::end(picks), [](const QPointF* a, const QPointF* b) { return a < b; });
        const QPointF* previous = nullptr;
        for (const QPointF* pick : picks) {
            if (pick != previous)
                reduced.append(*pick);
            previous = pick;
        }
    }
    return reduced;
}

}  // namespace ddplab::ui
