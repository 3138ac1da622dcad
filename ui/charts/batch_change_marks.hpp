// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a run's batch grew (batch_schedule): a thin dashed vertical line in the run's colour
// across each chart it has a line on, at the step after which the batch grew
// (RunData::batchChanges). Series of the chart, so PNG and SVG exports show them as the screen
// does; they stay out of the legend and out of the y range.

#include "charts/run_model.hpp"
#include "client/series/x_axis.hpp"

#include <QList>
#include <QPointF>

#include <functional>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
QT_END_NAMESPACE

namespace ddplab::ui {

class BatchChangeMarks {
public:
    explicit BatchChangeMarks(QChart* chart);
    ~BatchChangeMarks();

    // Drops the marks of runs no longer on display and gives the rest their run's colour.
    void setRuns(const QList<DisplayedRun>& runs);
    // A mark for each change of each run on display that has a line here; true when one was added.
    bool sync(const QList<DisplayedRun>& runs, const std::function<bool(const RunData&)>& hasLine, QAbstractAxis* xAxis,
              QAbstractAxis* yAxis);
    void style(double lineScale);
    // Each mark from the bottom to the top of the y range shown, at its step on `axis`.
    void place(double yLow, double yHigh, XAxis axis);
    // For tests: each mark's two ends, in the order added.
    QList<QList<QPointF>> drawn() const;

private:
    struct Mark;

    QChart* m_chart;
    std::vector<std::unique_ptr<Mark>> m_marks;
};

}  // namespace ddplab::ui
