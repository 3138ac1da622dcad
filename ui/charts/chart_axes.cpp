// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_axes.hpp"

#include "client/series/axis_plan.hpp"

#include <QChart>
#include <QFontMetricsF>
#include <QLogValueAxis>
#include <QPalette>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace ddplab::ui {
namespace {

constexpr int kYTickCount = 6;
constexpr int kCompactYTickCount = 3;  // six overlap in a thumbnail's 80 px: Qt Charts cut each to "…"

}  // namespace

ChartAxes::ChartAxes(QChart* chart, QString yTitle, bool fraction, bool fromZero)
    : m_chart(chart)
    , m_yTitle(std::move(yTitle))
    , m_fraction(fraction)
    , m_fromZero(fromZero)
{
    m_x = new QValueAxis;
    m_x->setTickType(QValueAxis::TicksDynamic);
    m_x->setTickAnchor(0);
    m_x->setTickInterval(1);
    m_x->setRange(0, 1);
    m_chart->addAxis(m_x, Qt::AlignBottom);
}

void ChartAxes::setXAxis(XAxis axis)
{
    m_x->setTitleText(xAxisTitle(axis));
}

void ChartAxes::makeYAxis(bool logScale, bool decorated)
{
    if (m_y) {
        for (QAbstractSeries* series : m_chart->series())
            series->detachAxis(m_y);
        m_chart->removeAxis(m_y);
        delete m_y;
    }
    if (logScale) {
        auto* axis = new QLogValueAxis;
        axis->setBase(10);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(8);
        m_y = axis;
    } else {
        auto* axis = new QValueAxis;
        axis->setLabelFormat(QStringLiteral("%g"));
        m_y = axis;
    }
    m_y->setTitleText(m_yTitle);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    setDecorated(decorated);
}

void ChartAxes::setDecorated(bool decorated)
{
    m_decorated = decorated;
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_x), m_y}) {
        axis->setTitleVisible(decorated);
        axis->setLabelsVisible(decorated);
    }
}

void ChartAxes::wrapYTitle(double plotHeight)
{
    // Until the chart is laid out at a new size its plot area is the old one's (an export
    // resizes it just before drawing): half the chart's height is then the better guess.
    plotHeight = std::max(plotHeight, m_chart->size().height() / 2);
    const QFontMetricsF metrics(m_y->titleFont());
    QString shown = m_yTitle;
    const int middle = int(m_yTitle.size() / 2);
    if (metrics.horizontalAdvance(m_yTitle) > plotHeight && m_yTitle.contains(QLatin1Char(' '))) {
        // Break at the space nearest the middle.
        int best = -1;
        for (int i = 0; i < m_yTitle.size(); ++i) {
            if (m_yTitle.at(i) == QLatin1Char(' ') && (best < 0 || std::abs(i - middle) < std::abs(best - middle)))
                best = i;
        }
        shown = m_yTitle.left(best).toHtmlEscaped() + QStringLiteral("<br>") + m_yTitle.mid(best + 1).toHtmlEscaped();
    }
    if (m_y->titleText() != shown)
        m_y->setTitleText(shown);
}

QString ChartAxes::yTitleShown() const
{
    return m_y->titleText();
}

void ChartAxes::fit(const DataRange& range, XAxis axis, bool logScale, bool compact)
{
    double xMin = range.xMin, xMax = range.xMax;
    if (xMin == xMax) {
        xMin -= 1;
        xMax += 1;
    }
    const XAxisPlan x = planXAxis(xMin, xMax, xAxisIsWhole(axis));
    // The spacing first: a long range with a short old spacing would make a tick per step.
    m_x->setTickInterval(x.interval);
    m_x->setLabelFormat(x.labelFormat);
    m_x->setRange(xMin, xMax);
    if (!std::isfinite(range.yMin) || !std::isfinite(range.yMax))
        return;  // a log axis with no positive value: the note says so
    if (logScale) {
        const LogAxisPlan y = planLogAxis(range.yMin, range.yMax);
        auto* yAxis = static_cast<QLogValueAxis*>(m_y);
        yAxis->setBase(y.base);
        yAxis->setLabelFormat(y.labelFormat);
        yAxis->setRange(y.low, y.high);
    } else {
        const double yMin = m_fromZero ? std::min(0.0, range.yMin) : range.yMin;
        const LinearAxisPlan y = planValueAxis(yMin, range.yMax, compact ? kCompactYTickCount : kYTickCount, true, m_fraction);
        auto* yAxis = static_cast<QValueAxis*>(m_y);
        yAxis->setRange(y.low, y.high);
        yAxis->setTickCount(y.tickCount);
        yAxis->setLabelFormat(y.labelFormat);
    }
}

void ChartAxes::followZoom(XAxis axis, bool logScale)
{
    const XAxisPlan x = planXAxis(m_x->min(), m_x->max(), xAxisIsWhole(axis));
    m_x->setTickInterval(x.interval);
    m_x->setLabelFormat(x.labelFormat);
    if (logScale) {
        auto* yAxis = static_cast<QLogValueAxis*>(m_y);
        const LogAxisPlan y = logAxisFor(yAxis->min(), yAxis->max());
        if (yAxis->base() != y.base)
            yAxis->setBase(y.base);
        yAxis->setLabelFormat(y.labelFormat);
    } else {
        auto* yAxis = static_cast<QValueAxis*>(m_y);
        const double step = (yAxis->max() - yAxis->min()) / std::max(1, yAxis->tickCount() - 1);
        yAxis->setLabelFormat(labelFormatFor(step, std::max(std::fabs(yAxis->min()), std::fabs(yAxis->max()))));
    }
}

QPointF ChartAxes::yRange() const
{
    if (auto* linear = qobject_cast<QValueAxis*>(m_y))
        return QPointF(linear->min(), linear->max());
    const auto* log = static_cast<QLogValueAxis*>(m_y);
    return QPointF(log->min(), log->max());
}

void ChartAxes::applyColors(const QPalette& colors, bool dark)
{
    QColor grid = colors.color(QPalette::Text);
    grid.setAlpha(dark ? 40 : 30);
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_x), m_y}) {
        axis->setLabelsColor(colors.color(QPalette::Text));
        axis->setTitleBrush(colors.color(QPalette::Text));
        axis->setGridLineColor(grid);
        axis->setMinorGridLineColor(QColor(grid.red(), grid.green(), grid.blue(), grid.alpha() / 2));
        axis->setLinePenColor(colors.color(QPalette::Mid));
    }
}

void ChartAxes::applyFont(const QFont& font)
{
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_x), m_y}) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
}

}  // namespace ddplab::ui
