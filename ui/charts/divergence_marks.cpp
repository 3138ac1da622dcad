// SPDX-License-Identifier: GPL-3.0-or-later
#include "divergence_marks.hpp"

#include "client/series/axis_plan.hpp"
#include "charts/run_items.hpp"
#include "client/runs/run_data.hpp"

#include <QChart>
#include <QGraphicsSimpleTextItem>
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
constexpr double kLabelGap = 3.0;  // pixels between a label and its triangle, or the plot's edge

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

DivergenceMarks::~DivergenceMarks()
{
    // The series belong to the chart; the labels are ours, but drawn by the chart's scene.
    for (auto& label : m_labels)
        label->setParentItem(nullptr);
}

void DivergenceMarks::setRuns(const QList<DisplayedRun>& runs)
{
    keepShownRuns(
        m_marks, runs, m_chart, [](Mark& mark, const DisplayedRun& shown) { mark.color = shown.color; },
        [](Mark& mark) { return QList<QAbstractSeries*>{mark.point}; });
    if (m_marks.empty())
        m_labels.clear();
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
        point->setPointLabelsVisible(false);  // one label per place, drawn by place()
        point->setName(QObject::tr("diverged at step %1").arg(mark->run->divergence()->step));
        for (QLegendMarker* marker : m_chart->legend()->markers(point))
            marker->setVisible(false);
    }
}

void DivergenceMarks::setLabelFont(const QFont& font)
{
    m_labelFont = font;
    m_labelFont.setBold(true);
    for (auto& label : m_labels)
        label->setFont(m_labelFont);
}

void DivergenceMarks::setLabelsVisible(bool visible)
{
    m_labelsVisible = visible;
    for (auto& label : m_labels)
        label->setVisible(visible);
}

void DivergenceMarks::place(double yLow, double yHigh, bool logScale, XAxis axis)
{
    const double y = logScale && yLow > 0 ? yHigh / std::pow(yHigh / yLow, kMarkBelowTop) : yHigh - (yHigh - yLow) * kMarkBelowTop;
    // One label per place: runs that diverged at the same x share it (two labels drawn over
    // each other read as one doubled, smeared word).
    struct Place {
        double x = 0;
        qint64 step = 0;
        int runs = 0;
        QColor color;
    };
    QList<Place> places;
    for (auto& mark : m_marks) {
        const qint64 step = mark->run->divergence()->step;
        const double x = mark->run->xAt(step, axis);
        mark->point->replace({QPointF(x, y)});
        const auto same = std::find_if(places.begin(), places.end(), [&](const Place& place) { return place.x == x; });
        if (same != places.end())
            ++same->runs;
        else
            places.append({x, step, 1, mark->color});
    }
    while (m_labels.size() > size_t(places.size()))
        m_labels.pop_back();
    const QRectF plot = m_chart->plotArea();
    for (qsizetype i = 0; i < places.size(); ++i) {
        const Place& place = places.at(i);
        if (size_t(i) >= m_labels.size()) {
            auto label = std::make_unique<QGraphicsSimpleTextItem>(m_chart);
            label->setZValue(m_chart->zValue() + 10);
            m_labels.push_back(std::move(label));
        }
        QGraphicsSimpleTextItem& label = *m_labels.at(size_t(i));
        label.setFont(m_labelFont);
        label.setBrush(place.color);
        label.setText(place.runs == 1 ? QObject::tr("diverged at step %1").arg(place.step)
                                      : QObject::tr("%1 runs diverged at step %2").arg(place.runs).arg(place.step));
        label.setVisible(m_labelsVisible);
        // Above its triangle, centred on it, but never past the plot's edges: a run that stops
        // where it diverged has its mark at the right edge.
        const QPointF at = m_chart->mapToPosition(QPointF(place.x, y), m_marks.front()->point);
        const QRectF box = label.boundingRect();
        const double left = std::clamp(at.x() - box.width() / 2, plot.left() + kLabelGap,
                                       std::max(plot.left() + kLabelGap, plot.right() - box.width() - kLabelGap));
        const double top = std::max(plot.top() + kLabelGap, at.y() - kMarkSize - box.height());
        label.setPos(left, top);
    }
}

QStringList DivergenceMarks::labels() const
{
    QStringList labels;
    for (const auto& label : m_labels)
        labels.append(label->text());
    return labels;
}

QList<QRectF> DivergenceMarks::labelRects() const
{
    QList<QRectF> rects;
    for (const auto& label : m_labels)
        rects.append(label->mapRectToParent(label->boundingRect()));
    return rects;
}

}  // namespace ddplab::ui
