#include "divergence_marks.hpp"

#include "charts/axis_plan.hpp"
#include "client/runs/run_data.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QObject>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// The mark sits this far below the top of the plot (a fraction of its height), so that its
// label, drawn above it, stays inside.
constexpr double kMarkBelowTop = 0.1;
constexpr double kMarkSize = 10.0;

}  // namespace

struct DivergenceMarks::Mark {
    QSharedPointer<RunData> run;
    QColor color;
    QScatterSeries* point = nullptr;
};

qsizetype saneEnd(ChartLine& line, const QList<QPointF>& data, bool blowsUp, XAxis axis)
{
    const std::optional<Divergence>& divergence = line.run->divergence();
    if (!divergence || !blowsUp)
        return data.size();
    if (line.saneEnd < 0)
        line.saneEnd = saneCount(data, line.run->xAt(divergence->step, axis));
    return line.saneEnd;
}

DivergenceMarks::DivergenceMarks(QChart* chart)
    : m_chart(chart)
{
}

DivergenceMarks::~DivergenceMarks() = default;  // the series belong to the chart

void DivergenceMarks::setRuns(const QList<DisplayedRun>& runs)
{
    for (auto it = m_marks.begin(); it != m_marks.end();) {
        const auto shown = std::find_if(runs.begin(), runs.end(), [&](const DisplayedRun& run) { return run.data == (*it)->run; });
        if (shown != runs.end()) {
            (*it)->color = shown->color;
            ++it;
            continue;
        }
        m_chart->removeSeries((*it)->point);
        delete (*it)->point;
        it = m_marks.erase(it);
    }
}

bool DivergenceMarks::sync(const QList<DisplayedRun>& runs, const std::function<bool(const RunData&)>& hasLine,
                           QAbstractAxis* xAxis, QAbstractAxis* yAxis)
{
    bool added = false;
    for (const DisplayedRun& shown : runs) {
        const bool hasMark = std::any_of(m_marks.begin(), m_marks.end(), [&](const auto& mark) { return mark->run == shown.data; });
        if (!hasLine(*shown.data) || hasMark || !shown.data->divergence())
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

void DivergenceMarks::style(double lineScale)
{
    for (auto& mark : m_marks) {
        QScatterSeries* point = mark->point;
        point->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
        point->setMarkerSize(kMarkSize * lineScale);
        point->setColor(mark->color);
        point->setBorderColor(mark->color);
        point->setPointLabelsFormat(QObject::tr("diverged at step %1").arg(mark->run->divergence()->step));
        point->setPointLabelsColor(mark->color);
        point->setPointLabelsClipping(false);
        point->setPointLabelsVisible(true);
        QFont font = point->pointLabelsFont();
        font.setBold(true);
        point->setPointLabelsFont(font);
        point->setName(point->pointLabelsFormat());
        for (QLegendMarker* marker : m_chart->legend()->markers(point))
            marker->setVisible(false);
    }
}

void DivergenceMarks::place(double yLow, double yHigh, bool logScale, XAxis axis)
{
    const double y = logScale && yLow > 0 ? yHigh / std::pow(yHigh / yLow, kMarkBelowTop) : yHigh - (yHigh - yLow) * kMarkBelowTop;
    for (auto& mark : m_marks)
        mark->point->replace({QPointF(mark->run->xAt(mark->run->divergence()->step, axis), y)});
}

QStringList DivergenceMarks::labels() const
{
    QStringList labels;
    for (const auto& mark : m_marks)
        labels.append(mark->point->pointLabelsFormat());
    return labels;
}

}  // namespace ddplab::ui
