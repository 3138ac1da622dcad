// ChartLines, continued: how its lines look. Colour tells runs apart, or metrics when one run
// is on display; dashes tell a run's metrics apart; the legend names each run once.

#include "charts/chart_line_parts.hpp"
#include "theme/palette.hpp"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QObject>
#include <QPen>

#include <algorithm>

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

bool ChartLines::colourByMetric() const
{
    return m_runs.size() == 1 && m_definition.metrics.size() > 1;
}

void ChartLines::style(Line& line)
{
    const bool byMetric = colourByMetric();
    const QColor color = byMetric ? metricColor(line.runColor, line.metricIndex) : line.runColor;
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

void ChartLines::styleLevel(Level& level)
{
    QColor color = level.color;
    color.setAlpha(200);
    level.line->setPen(QPen(color, 1.5 * m_lineScale, Qt::DashDotLine));
    const QString value = QString::number(level.value, 'g', 6);
    level.line->setName(m_runs.size() > 1 ? QObject::tr("B_eff %1 (%2)").arg(value, level.runLabel)
                                          : QObject::tr("effective batch %1").arg(value));
}

QString ChartLines::legendName(const Line& line) const
{
    if (m_runs.size() <= 1)
        return m_definition.metrics.size() > 1 ? line.metric.label : line.runLabel;
    return line.runLabel;
}

bool ChartLines::standsForItsRun(const Line& line) const
{
    // Several runs and several metrics: the legend names each run once (by colour) and the
    // style key says which dash is which metric, instead of runs x metrics entries.
    if (m_runs.size() <= 1 || m_definition.metrics.size() <= 1)
        return true;
    return std::none_of(m_lines.begin(), m_lines.end(), [&](const auto& other) {
        return other->run == line.run && other->metricIndex < line.metricIndex;
    });
}

void ChartLines::restyle()
{
    for (auto& line : m_lines)
        style(*line);
    for (auto& level : m_levels)
        styleLevel(*level);
    for (auto& mark : m_marks)
        styleMark(*mark);
    setLegendVisible(m_legendInExports);
}

void ChartLines::setLegendVisible(bool inExports)
{
    m_legendInExports = inExports;
    QLegend* legend = m_chart->legend();
    m_legendLabels.clear();
    for (auto& line : m_lines) {
        const bool isSmoothed = smoothed(line->metric);
        const bool listed = standsForItsRun(*line);
        for (QLegendMarker* marker : legend->markers(line->raw))
            marker->setVisible(listed && !isSmoothed);
        for (QLegendMarker* marker : legend->markers(line->smooth))
            marker->setVisible(listed && isSmoothed);
        if (listed)
            m_legendLabels.append(legendName(*line));
    }
    for (const auto& level : m_levels)
        m_legendLabels.append(level->line->name());
    legend->setVisible(inExports);
}

QString ChartLines::styleKey(bool html) const
{
    QStringList parts;
    if (colourByMetric()) {
        for (const auto& line : m_lines) {
            const QString label = m_definition.metrics.at(line->metricIndex).label;
            parts.append(html ? QStringLiteral("<span style='color:%1'>■</span> %2")
                                    .arg(metricColor(line->runColor, line->metricIndex).name(), label.toHtmlEscaped())
                              : label);
        }
        if (!html)
            parts.clear();  // an exported chart has its own legend for these
    } else if (m_definition.metrics.size() > 1) {
        static const QStringList kDashes{QObject::tr("solid"), QObject::tr("dashed"), QObject::tr("dotted")};
        for (int index = 0; index < m_definition.metrics.size(); ++index) {
            const bool present = std::any_of(m_lines.begin(), m_lines.end(), [&](const auto& line) { return line->metricIndex == index; });
            if (present)
                parts.append(QStringLiteral("%1: %2").arg(kDashes.value(std::min(index, 2)),
                                                          html ? m_definition.metrics.at(index).label.toHtmlEscaped()
                                                               : m_definition.metrics.at(index).label));
        }
        if (parts.size() < 2)
            parts.clear();
    }
    if (!m_levels.empty())
        parts.append(QObject::tr("dash-dot: effective batch"));
    return parts.join(html ? QStringLiteral(" &nbsp; ") : QStringLiteral(", "));
}

}  // namespace ddplab::ui
