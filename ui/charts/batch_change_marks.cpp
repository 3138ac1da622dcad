// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_change_marks.hpp"

#include "charts/run_items.hpp"
#include "client/runs/run_data.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QObject>
#include <QPen>

#include <algorithm>

namespace ddplab::ui {

struct BatchChangeMarks::Mark {
    QSharedPointer<RunData> run;
    qint64 step = 0;  // the batch grew after this step
    QColor color;
    QLineSeries* line = nullptr;
};

BatchChangeMarks::BatchChangeMarks(QChart* chart)
    : m_chart(chart)
{
}

BatchChangeMarks::~BatchChangeMarks() = default;  // the series belong to the chart

void BatchChangeMarks::setRuns(const QList<DisplayedRun>& runs)
{
    keepShownRuns(
        m_marks, runs, m_chart, [](Mark& mark, const DisplayedRun& shown) { mark.color = shown.color; },
        [](Mark& mark) { return QList<QAbstractSeries*>{mark.line}; });
}

bool BatchChangeMarks::sync(const QList<DisplayedRun>& runs, const std::function<bool(const RunData&)>& hasLine,
                            QAbstractAxis* xAxis, QAbstractAxis* yAxis)
{
    bool added = false;
    for (const DisplayedRun& shown : runs) {
        if (!hasLine(*shown.data))
            continue;
        for (const RunData::BatchChange& change : shown.data->batchChanges()) {
            const qint64 step = change.step;
            const bool marked = std::any_of(m_marks.begin(), m_marks.end(),
                                            [&](const auto& mark) { return mark->run == shown.data && mark->step == step; });
            if (marked)
                continue;
            auto mark = std::make_unique<Mark>();
            mark->run = shown.data;
            mark->step = step;
            mark->color = shown.color;
            mark->line = new QLineSeries;
            m_chart->addSeries(mark->line);
            mark->line->attachAxis(xAxis);
            mark->line->attachAxis(yAxis);
            m_marks.push_back(std::move(mark));
            added = true;
        }
    }
    return added;
}

void BatchChangeMarks::style(double lineScale)
{
    for (auto& mark : m_marks) {
        QPen pen(mark->color, lineScale, Qt::DashLine);
        mark->line->setPen(pen);
        mark->line->setName(QObject::tr("batch grew after step %1").arg(mark->step));
        for (QLegendMarker* marker : m_chart->legend()->markers(mark->line))
            marker->setVisible(false);
    }
}

void BatchChangeMarks::place(double yLow, double yHigh, XAxis axis)
{
    for (auto& mark : m_marks) {
        const double x = mark->run->xAt(mark->step, axis);
        mark->line->replace({QPointF(x, yLow), QPointF(x, yHigh)});
    }
}

QList<QList<QPointF>> BatchChangeMarks::drawn() const
{
    QList<QList<QPointF>> lines;
    for (const auto& mark : m_marks)
        lines.append(mark->line->points());
    return lines;
}

}  // namespace ddplab::ui
