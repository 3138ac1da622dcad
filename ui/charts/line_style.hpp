// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a chart's lines look. Colour tells runs apart, or metrics when one run is on display;
// dashes tell a run's metrics apart; the legend names each run once; the style key says in
// words what a dash or colour means ("dashed: validation"). Nothing is told apart by dash
// pattern alone.

#include "charts/chart_line.hpp"
#include "client/series/chart_catalog.hpp"

#include <QColor>
#include <QList>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QLegend;
QT_END_NAMESPACE

namespace ddplab::ui {

// One run, several metrics: the colour of its metricIndex-th line (the first keeps the run's).
QColor metricColor(const QColor& runColor, int metricIndex);

class LineStyle {
public:
    explicit LineStyle(QList<MetricInfo> metrics);

    void setRunCount(qsizetype runs) { m_runCount = runs; }
    // A lesson's runs come one after another: its first run alone is already drawn as the
    // others will be (colour for the run, dash for the metric), so no colour changes meaning
    // when the second arrives.
    void setInLesson(bool inLesson) { m_inLesson = inLesson; }
    void setSmoothingSpan(double span) { m_span = span; }  // in the x axis's units; 0: none
    void setLineScale(double scale) { m_lineScale = scale; }
    double smoothingSpan() const { return m_span; }
    double lineScale() const { return m_lineScale; }

    bool smoothed(const MetricInfo& metric) const { return m_span > 0 && metric.smoothable; }
    // One run with several metrics (not a lesson's): colours tell the metrics apart, not the runs.
    bool colourByMetric() const;
    QColor colorOf(const ChartLine& line) const;
    QString legendName(const ChartLine& line) const;

    void apply(ChartLine& line) const;
    void apply(BatchLevel& level) const;
    // Shows in `legend` (drawn in exports when `visible`) one entry per run, or per metric of
    // one run, and each level; returns their names in order.
    QStringList showLegend(QLegend& legend, const ChartLineList& lines, const BatchLevelList& levels, bool visible) const;
    // What dash or colour means, as HTML for the title bar or as plain text for an export's title.
    // `levels`: what the dash-dot levels are, if any are drawn.
    QString key(const ChartLineList& lines, const QString& levels, bool html) const;

private:
    bool standsForItsRun(const ChartLine& line, const ChartLineList& lines) const;

    QList<MetricInfo> m_metrics;
    qsizetype m_runCount = 0;
    bool m_inLesson = false;
    double m_span = 0.0;
    double m_lineScale = 1.0;
};

}  // namespace ddplab::ui
