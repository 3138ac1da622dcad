// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a chart keeps per run on display (lines, batch levels, divergence and batch-change marks)
// follows the runs shown the same way: an item of a run still shown takes the run's current look,
// an item of a run no longer shown leaves the chart with its series.

#include "charts/run_model.hpp"

#include <QAbstractSeries>
#include <QChart>
#include <QList>

#include <algorithm>
#include <memory>
#include <vector>

namespace ddplab::ui {

// `keep(item, shown)` restyles an item whose run is among `runs`; `seriesOf(item)` lists the
// series of one that is not, which are taken off `chart` and deleted with it.
template <class Item, class Keep, class SeriesOf>
void keepShownRuns(std::vector<std::unique_ptr<Item>>& items, const QList<DisplayedRun>& runs, QChart* chart, Keep keep,
                   SeriesOf seriesOf)
{
    for (auto it = items.begin(); it != items.end();) {
        const auto shown = std::find_if(runs.begin(), runs.end(), [&](const DisplayedRun& run) { return run.data == (*it)->run; });
        if (shown != runs.end()) {
            keep(**it, *shown);
            ++it;
            continue;
        }
        const QList<QAbstractSeries*> series = seriesOf(**it);
        for (QAbstractSeries* one : series) {
            chart->removeSeries(one);
            delete one;
        }
        it = items.erase(it);
    }
}

}  // namespace ddplab::ui
