// ChartLines, continued: where runs diverged. A run whose loss blew up (RunData::divergence)
// gets a triangle at the top edge of each chart it has a line on, at the step it diverged,
// labelled "diverged at step N"; its line counts for the y range only while it is sane, so one
// value of 3e27 does not flatten every other curve. The mark is a series of the chart, so PNG
// and SVG exports show it as the screen does.

#include "charts/axis_plan.hpp"
#include "charts/chart_line_parts.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QObject>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// The mark sits this far below the top of the plot (a fraction of its height), so that its
// label, drawn above it, stays inside.
constexpr double kMarkBelowTop = 0.1;
constexpr double kMarkSize = 10.0;

}  // namespace

qsizetype ChartLines::saneEnd(Line& line, const QList<QPointF>& data) const
{
    const std::optional<Divergence>& divergence = line.run->divergence();
    if (!divergence || !m_definition.blowsUp)
        return data.size();
    if (line.saneEnd < 0)
        line.saneEnd = saneCount(data, line.run->xAt(divergence->step, m_axis));
    return line.saneEnd;
}

bool ChartLines::syncMarks(QAbstractAxis* xAxis, QAbstractAxis* yAxis)
{
    bool added = false;
    for (const DisplayedRun& shown : m_runs) {
        const bool hasLine = std::any_of(m_lines.begin(), m_lines.end(), [&](const auto& line) { return line->run == shown.data; });
        const bool hasMark = std::any_of(m_marks.begin(), m_marks.end(), [&](const auto& mark) { return mark->run == shown.data; });
        if (!hasLine || hasMark || !shown.data->divergence())
            continue;
        auto mark = std::make_unique<Mark>();
        mark->run = shown.data;
        mark->color = shown.color;
        mark->point = new QScatterSeries;
        m_chart->addSeries(mark->point);
        mark->point->attachAxis(xAxis);
        mark->point->attachAxis(yAxis);
        m_marks.push_back(std::move(mark));
        added = true;
    }
    return added;
}

void ChartLines::styleMark(Mark& mark)
{
    mark.point->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    mark.point->setMarkerSize(kMarkSize * m_lineScale);
    mark.point->setColor(mark.color);
    mark.point->setBorderColor(mark.color);
    mark.point->setPointLabelsFormat(QObject::tr("diverged at step %1").arg(mark.run->divergence()->step));
    mark.point->setPointLabelsColor(mark.color);
    mark.point->setPointLabelsClipping(false);
    mark.point->setPointLabelsVisible(true);
    QFont font = mark.point->pointLabelsFont();
    font.setBold(true);
    mark.point->setPointLabelsFont(font);
    mark.point->setName(mark.point->pointLabelsFormat());
    for (QLegendMarker* marker : m_chart->legend()->markers(mark.point))
        marker->setVisible(false);
}

void ChartLines::placeDivergenceMarks(double yLow, double yHigh, bool logScale)
{
    const double y = logScale && yLow > 0 ? yHigh / std::pow(yHigh / yLow, kMarkBelowTop) : yHigh - (yHigh - yLow) * kMarkBelowTop;
    for (auto& mark : m_marks)
        mark->point->replace({QPointF(mark->run->xAt(mark->run->divergence()->step, m_axis), y)});
}

QStringList ChartLines::divergenceLabels() const
{
    QStringList labels;
    for (const auto& mark : m_marks)
        labels.append(mark->point->pointLabelsFormat());
    return labels;
}

}  // namespace ddplab::ui
