// SPDX-License-Identifier: GPL-3.0-or-later
#include "line_style.hpp"

#include "theme/palette.hpp"

#include <QBrush>
#include <QLegend>
#include <QLegendMarker>
#include <QObject>
#include <QPen>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

constexpr int kFaintAlpha = 70;  // the raw curve under a smoothed one
constexpr double kLineWidth = 2.0;
// A line that a later run retraces exactly (8 x 16 against 1 x 128) is drawn wider by this
// for each such run, so it shows as a rim around the other instead of vanishing under it.
constexpr double kRimWidth = 2.5;

Qt::PenStyle penStyleFor(int metricIndex)
{
    static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    return kStyles[std::min(metricIndex, 2)];
}

}  // namespace

QColor metricColor(const QColor& runColor, int metricIndex)
{
    if (metricIndex == 0)
        return runColor;
    int seen = 0;
    for (QRgb rgb : kMetricPalette) {
        if (QColor(rgb) == runColor)
            continue;
        if (++seen == metricIndex)
            return QColor(rgb);
    }
    return runColor;
}

LineStyle::LineStyle(QList<MetricInfo> metrics)
    : m_metrics(std::move(metrics))
{
}

bool LineStyle::colourByMetric() const
{
    return m_runCount == 1 && m_metrics.size() > 1 && !m_inLesson;
}

QColor LineStyle::colorOf(const ChartLine& line) const
{
    return colourByMetric() ? metricColor(line.runColor, line.metricIndex) : line.runColor;
}

QString LineStyle::legendName(const ChartLine& line) const
{
    if (m_runCount <= 1)
        return m_metrics.size() > 1 ? line.metric.label : line.runLabel;
    return line.runLabel;
}

void LineStyle::apply(ChartLine& line) const
{
    const bool byMetric = colourByMetric();
    const QColor color = colorOf(line);
    const Qt::PenStyle dash = byMetric ? Qt::SolidLine : penStyleFor(line.metricIndex);
    // Bevel joins and flat caps: a round join costs trigonometry at every one of thousands of
    // points, each frame, and looks the same at this width.
    const double width = (kLineWidth + kRimWidth * line.retracedBy) * m_lineScale;
    const QPen strong(QBrush(color), width, dash, Qt::FlatCap, Qt::BevelJoin);
    QColor faint = color;
    faint.setAlpha(kFaintAlpha);
    const bool isSmoothed = smoothed(line.metric);
    line.raw->setPen(isSmoothed ? QPen(QBrush(faint), m_lineScale, dash, Qt::FlatCap, Qt::BevelJoin) : strong);
    line.raw->setBrush(color);
    line.raw->setPointsVisible(line.metric.markers);
    line.raw->setMarkerSize(5 * m_lineScale);
    line.smooth->setPen(strong);
    line.smooth->setVisible(isSmoothed);
    const QString name = legendName(line);
    line.raw->setName(name);
    line.smooth->setName(name);
}

void LineStyle::apply(BatchLevel& level) const
{
    QColor color = level.color;
    color.setAlpha(200);
    level.line->setPen(QPen(color, 1.5 * m_lineScale, Qt::DashDotLine));
    if (level.modelled) {
        const QString rate = std::isfinite(level.value) ? QString::number(level.value, 'f', 0) : QStringLiteral("—");
        level.line->setName(QObject::tr("model: %1 GPU(s) at %2, %3/s (%4)").arg(level.gpus).arg(level.bandwidth, rate, level.runLabel));
        return;
    }
    const QString value = QString::number(level.value, 'g', 6);
    level.line->setName(m_runCount > 1 ? QObject::tr("B_eff %1 (%2)").arg(value, level.runLabel)
                                       : QObject::tr("effective batch %1").arg(value));
}

bool LineStyle::standsForItsRun(const ChartLine& line, const ChartLineList& lines) const
{
    // Several runs and several metrics: the legend names each run once (by colour) and the
    // style key says which dash is which metric, instead of runs x metrics entries.
    if (m_runCount <= 1 || m_metrics.size() <= 1)
        return true;
    return std::none_of(lines.begin(), lines.end(), [&](const auto& other) {
        return other->run == line.run && other->metricIndex < line.metricIndex;
    });
}

QStringList LineStyle::showLegend(QLegend& legend, const ChartLineList& lines, const BatchLevelList& levels, bool visible) const
{
    QStringList labels;
    for (const auto& line : lines) {
        const bool isSmoothed = smoothed(line->metric);
        const bool listed = standsForItsRun(*line, lines);
        for (QLegendMarker* marker : legend.markers(line->raw))
            marker->setVisible(listed && !isSmoothed);
        for (QLegendMarker* marker : legend.markers(line->smooth))
            marker->setVisible(listed && isSmoothed);
        if (listed)
            labels.append(legendName(*line));
    }
    for (const auto& level : levels)
        labels.append(level->line->name());
    legend.setVisible(visible);
    return labels;
}

QString LineStyle::key(const ChartLineList& lines, const QString& levels, bool html) const
{
    QStringList parts;
    if (colourByMetric()) {
        for (const auto& line : lines) {
            const QString label = m_metrics.at(line->metricIndex).label;
            parts.append(html ? QStringLiteral("<span style='color:%1'>■</span> %2")
                                    .arg(metricColor(line->runColor, line->metricIndex).name(), label.toHtmlEscaped())
                              : label);
        }
        if (!html)
            parts.clear();  // an exported chart has its own legend for these
    } else if (m_metrics.size() > 1) {
        static const QStringList kDashes{QObject::tr("solid"), QObject::tr("dashed"), QObject::tr("dotted")};
        for (int index = 0; index < m_metrics.size(); ++index) {
            const bool present = std::any_of(lines.begin(), lines.end(), [&](const auto& line) { return line->metricIndex == index; });
            if (present)
                parts.append(QStringLiteral("%1: %2").arg(kDashes.value(std::min(index, 2)),
                                                          html ? m_metrics.at(index).label.toHtmlEscaped() : m_metrics.at(index).label));
        }
        if (parts.size() < 2)
            parts.clear();
    }
    if (!levels.isEmpty())
        parts.append(html ? levels.toHtmlEscaped() : levels);
    return parts.join(html ? QStringLiteral(" &nbsp; ") : QStringLiteral(", "));
}

}  // namespace ddplab::ui
