// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_plot.hpp"

#include "plots/chart_frame.hpp"
#include "client/series/plot_axis.hpp"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// Up to this many distinct x values get a tick each; more get the decades.
constexpr qsizetype kMostChosenTicks = 12;

// The ranges the axes must show: every line's points (fits and reference slopes are drawn over
// the data's own x), never a marker's x. A fitted B_crit far outside the batches studied would
// otherwise squeeze every point into a corner; drawMarkers points at it from the edge instead.
void plotRanges(const PlotSpec& spec, Range* xs, Range* ys)
{
    for (const PlotLine& line : spec.lines) {
        for (qsizetype i = 0; i < line.points.size(); ++i) {
            const QPointF point = line.points[i];
            if (!std::isfinite(point.y()))
                continue;
            xs->take(point.x(), spec.logX);
            const double error = i < line.errors.size() ? line.errors[i] : 0.0;
            ys->take(point.y() + error, spec.logY);
            ys->take(point.y() - error > 0 || !spec.logY ? point.y() - error : point.y(), spec.logY);
        }
    }
}

// Where everything goes: the axes, the plot's rectangle, the x labels in their rows, the
// legend's column on the right.
struct PlotLayout {
    Axis xAxis;
    Axis yAxis;
    QRectF plot;
    QStringList xLabels;
    QList<double> xCentres;
    QList<int> xRows;
    double labelRows = 1;
    double yLabelWidth = 0;
    double legendWidth = 0;
    QStringList yTitleLines;  // the y axis's title, on two lines where one is longer than the plot is high
    bool empty = false;  // no point to draw: the axes alone, with the reason

    double px(double x) const { return plot.left() + xAxis.fraction(x) * plot.width(); }
    double py(double y) const { return plot.bottom() - yAxis.fraction(y) * plot.height(); }
};

// A study's x is a handful of chosen values (batches 32, 64, ... 256): ticks at those, so each
// point sits on a labelled line instead of between 50 and 100.
void tickAtChosenValues(const PlotSpec& spec, Axis& xAxis)
{
    QList<double> chosen;
    for (const PlotLine& line : spec.lines) {
        if (line.dashed)
            continue;  // fits and reference slopes are drawn at many x of their own
        for (const QPointF& point : line.points) {
            if (std::isfinite(point.x()) && !chosen.contains(point.x()))
                chosen.append(point.x());
        }
    }
    if (spec.logX && chosen.size() >= 2 && chosen.size() <= kMostChosenTicks) {
        std::sort(chosen.begin(), chosen.end());
        xAxis.ticks = chosen;
    }
}

// A y title on one line where it fits `height`, else on two, broken at the space that leaves the
// longer line shortest; a line still too long keeps its start ("loss over the tr…").
QStringList titleLines(const QString& title, const QFontMetricsF& metrics, double height)
{
    if (metrics.horizontalAdvance(title) <= height || !title.contains(QLatin1Char(' ')))
        return {metrics.elidedText(title, Qt::ElideRight, height)};
    QStringList best{title.section(QLatin1Char(' '), 0, 0), title.section(QLatin1Char(' '), 1)};
    double bestLonger = 1e300;
    for (qsizetype space = title.indexOf(QLatin1Char(' ')); space > 0; space = title.indexOf(QLatin1Char(' '), space + 1)) {
        const QString first = title.left(space);
        const QString second = title.mid(space + 1);
        const double longer = std::max(metrics.horizontalAdvance(first), metrics.horizontalAdvance(second));
        if (longer < bestLonger) {
            bestLonger = longer;
            best = {first, second};
        }
    }
    for (QString& line : best)
        line = metrics.elidedText(line, Qt::ElideRight, height);
    return best;
}

// A note's height wrapped at `width`: what layOut plans with and drawLegend draws.
double noteHeight(const QString& note, double width, const QFontMetricsF& metrics)
{
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, note).height();
}

// The legend column's height at `width`: its labels, then each note wrapped.
double legendHeight(const QStringList& labels, const QStringList& notes, double width, const QFontMetricsF& metrics, double scale)
{
    double height = double(labels.size()) * metrics.height() * 1.2 + metrics.height() * 0.5;
    for (const QString& note : notes)
        height += noteHeight(note, width, metrics) + 2 * scale;
    return height;
}

PlotLayout layOut(const PlotSpec& spec, const QRect& area, double top, const ChartFrame& frame, double scale)
{
    const QFontMetricsF& metrics = frame.smallMetrics;
    const double pad = frame.pad;
    PlotLayout layout;
    Range xs, ys;
    plotRanges(spec, &xs, &ys);
    layout.empty = !ys.valid();
    layout.xAxis = makeAxis(xs, spec.logX);
    tickAtChosenValues(spec, layout.xAxis);
    layout.yAxis = makeAxis(ys, spec.logY);

    // The legend and notes on the right, when there is room; the plot takes the rest.
    QStringList legendLabels;
    for (const PlotLine& line : spec.lines) {
        if (!line.label.isEmpty())
            legendLabels.append(line.label);
    }
    for (const QString& label : legendLabels + spec.notes)
        layout.legendWidth = std::max(layout.legendWidth, metrics.horizontalAdvance(label) + 24 * scale);
    const double widest = layout.legendWidth;
    layout.legendWidth = std::min(layout.legendWidth, area.width() * 0.34);
    // Notes that would run off the chart's foot wrapped at a third of its width widen the column,
    // up to half the chart, so that they wrap into fewer lines: at 1280 x 720 in presentation mode
    // the last of five ("LR rule sqrt: log-log slope -0.0324", the lesson's claim) was cut.
    const double room = area.bottom() - (top + pad / 2);
    while (layout.legendWidth < std::min(widest, area.width() * 0.5) &&
           legendHeight(legendLabels, spec.notes, layout.legendWidth, metrics, scale) > room)
        layout.legendWidth = std::min({widest, area.width() * 0.5, layout.legendWidth + area.width() * 0.04});
    for (double tick : layout.yAxis.ticks)
        layout.yLabelWidth = std::max(layout.yLabelWidth, metrics.horizontalAdvance(tickText(tick, layout.yAxis)));
    // The plot's height with two rows of x labels, the least it can have: a title that fits it
    // fits whatever the rows (at 1280 x 720 in presentation mode "update variance (pooled) (log)"
    // did not, and lost its end).
    const double leastHeight = area.bottom() - top - pad * 2 - metrics.height() * 3.4;
    layout.yTitleLines = titleLines(spec.yTitle + (spec.logY ? QStringLiteral(" (log)") : QString()), metrics, leastHeight);
    const double yTitleWidth = metrics.height() * double(layout.yTitleLines.size());
    const double plotLeft = area.left() + pad + yTitleWidth + layout.yLabelWidth + 6 * scale;
    const double plotWidth = area.width() - (pad * 3 + yTitleWidth + layout.yLabelWidth + 6 * scale + layout.legendWidth);
    // The x labels in one row, or two where neighbours would run into each other.
    QList<double> xWidths;
    for (double tick : layout.xAxis.ticks) {
        layout.xLabels.append(tickText(tick, layout.xAxis));
        layout.xCentres.append(plotLeft + layout.xAxis.fraction(tick) * plotWidth);
        xWidths.append(metrics.horizontalAdvance(layout.xLabels.last()));
    }
    layout.xRows = tickLabelRows(layout.xCentres, xWidths, 4 * scale);
    layout.labelRows = std::count(layout.xRows.begin(), layout.xRows.end(), 1) > 0 ? 2 : 1;
    layout.plot = QRectF(plotLeft, top + pad / 2, plotWidth, area.bottom() - top - pad * 2 - metrics.height() * (1.4 + layout.labelRows));
    return layout;
}

// The x tick labels under the plot, in the rows tickLabelRows gave them.
void drawXTickLabels(QPainter& painter, const QRectF& plot, const QList<double>& centres, const QStringList& labels,
                     const QList<int>& rows, const QFontMetricsF& metrics, double scale)
{
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (rows[i] < 0)
            continue;
        const double width = metrics.horizontalAdvance(labels[i]) + 4 * scale;
        painter.drawText(QRectF(centres[i] - width / 2, plot.bottom() + 2 * scale + rows[i] * metrics.height(), width, metrics.height()),
                         Qt::AlignHCenter | Qt::AlignTop, labels[i]);
    }
}

// Vertical markers (B_crit, B_simple) with their labels at the top of the plot, each label
// below any it would overlap. A marker outside the x range is not drawn (an arrow at the edge
// with "B_simple 6.39e+03 >" read as a point of the chart): the notes say where it lies instead
// (outsideMarkerNotes), and the axis is not stretched to reach it.
void drawMarkers(QPainter& painter, const QRectF& plot, const QList<PlotMarker>& markers, const Axis& xAxis,
                 const QFontMetricsF& metrics, double scale)
{
    QList<QRectF> taken;
    for (const PlotMarker& marker : markers) {
        if (!std::isfinite(marker.x) || (xAxis.log && marker.x <= 0))
            continue;
        const double fraction = xAxis.fraction(marker.x);
        if (fraction < 0 || fraction > 1)
            continue;
        const double x = plot.left() + fraction * plot.width();
        const QString& label = marker.label;
        const double width = metrics.horizontalAdvance(label) + 6 * scale;
        // Right of its line, unless that runs out of the plot.
        double left = x + width > plot.right() ? x - width : x + 3 * scale;
        left = std::max(left, plot.left() + 2 * scale);
        QRectF box(left, plot.top() + 2 * scale, width, metrics.height());
        while (std::any_of(taken.begin(), taken.end(), [&](const QRectF& other) { return other.intersects(box); }))
            box.translate(0, metrics.height());
        taken.append(box);
        painter.setPen(QPen(marker.color, 1.5 * scale, Qt::DashDotLine));
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    }
}


// Bands of x shaded from the top of the plot to its bottom, clipped to it.
void drawSpans(QPainter& painter, const QRectF& plot, const QList<PlotSpan>& spans, const Axis& xAxis)
{
    for (const PlotSpan& span : spans) {
        if (!(span.low < span.high) || (xAxis.log && span.low <= 0))
            continue;
        const double left = plot.left() + std::clamp(xAxis.fraction(span.low), 0.0, 1.0) * plot.width();
        const double right = plot.left() + std::clamp(xAxis.fraction(span.high), 0.0, 1.0) * plot.width();
        QColor shade = span.color;
        shade.setAlpha(40);
        painter.fillRect(QRectF(left, plot.top(), right - left, plot.height()), shade);
    }
}

// The grid, the ticks and their labels, the frame and both axis titles.
void drawAxes(QPainter& painter, const QRect& area, const PlotSpec& spec, const PlotLayout& layout, const ChartFrame& frame,
              double scale)
{
    const QRectF& plot = layout.plot;
    const QFontMetricsF& metrics = frame.smallMetrics;
    QColor grid = frame.text;
    grid.setAlpha(40);
    painter.setFont(frame.small);
    painter.setPen(QPen(grid, 1 * scale));
    for (double tick : layout.xAxis.ticks)
        painter.drawLine(QPointF(layout.px(tick), plot.top()), QPointF(layout.px(tick), plot.bottom()));
    painter.setPen(frame.text);
    drawXTickLabels(painter, plot, layout.xCentres, layout.xLabels, layout.xRows, metrics, scale);
    for (double tick : layout.yAxis.ticks) {
        painter.setPen(QPen(grid, 1 * scale));
        painter.drawLine(QPointF(plot.left(), layout.py(tick)), QPointF(plot.right(), layout.py(tick)));
        painter.setPen(frame.text);
        painter.drawText(QRectF(plot.left() - layout.yLabelWidth - 4 * scale, layout.py(tick) - metrics.height() / 2,
                                layout.yLabelWidth, metrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, tickText(tick, layout.yAxis));
    }
    painter.setPen(QPen(frame.text, 1 * scale));
    painter.drawRect(plot);
    // Centred under the plot. One wider than the plot (centred and clipped to it, "effective
    // batch (log)" read "ffective batch (log" at 1280 x 720 in presentation mode) moves left, under
    // the y axis's numbers, to end where the plot ends; under the legend only where the chart's
    // left part cannot hold it, and shortened only where the whole chart cannot.
    const double leftMost = area.left() + frame.pad;
    const double room = area.width() - 2 * frame.pad;
    const QString xTitle = metrics.elidedText(spec.xTitle + (spec.logX ? QStringLiteral(" (log)") : QString()), Qt::ElideRight, room);
    const double xTitleWidth = metrics.horizontalAdvance(xTitle);
    const double rightMost = xTitleWidth <= plot.right() - leftMost ? plot.right() : leftMost + room;
    const double xTitleLeft = std::clamp(plot.center().x() - xTitleWidth / 2, leftMost, std::max(leftMost, rightMost - xTitleWidth));
    painter.drawText(QRectF(xTitleLeft, plot.bottom() + metrics.height() * (0.2 + layout.labelRows), xTitleWidth + 1, metrics.height()),
                     Qt::AlignLeft, xTitle);
    painter.save();
    painter.translate(area.left() + frame.pad, plot.center().y());
    painter.rotate(-90);
    // Each line centred; one longer than the plot is high keeps its start (centred and clipped, a
    // title lost both ends, "loss" first, on a 1280 x 720 screen).
    for (qsizetype i = 0; i < layout.yTitleLines.size(); ++i)
        painter.drawText(QRectF(-plot.height() / 2, metrics.height() * double(i), plot.height(), metrics.height()), Qt::AlignHCenter,
                         metrics.elidedText(layout.yTitleLines.at(i), Qt::ElideRight, plot.height()));
    painter.restore();
}

// The band of ± one standard error around a line.
void drawErrorBand(QPainter& painter, const PlotLine& line, const PlotLayout& layout, bool logY)
{
    if (line.errors.isEmpty())
        return;
    QPolygonF band;
    QList<QPointF> lower;
    for (qsizetype i = 0; i < line.points.size(); ++i) {
        const QPointF p = line.points[i];
        const double error = i < line.errors.size() ? line.errors[i] : 0.0;
        if (!std::isfinite(p.y()) || error <= 0)
            continue;
        const double below = logY ? std::max(p.y() - error, p.y() * 1e-3) : p.y() - error;
        band.append(QPointF(layout.px(p.x()), layout.py(p.y() + error)));
        lower.prepend(QPointF(layout.px(p.x()), layout.py(below)));
    }
    if (band.size() < 2)
        return;
    band += QPolygonF(lower);
    QColor fill = line.color;
    fill.setAlpha(50);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawPolygon(band);
}

// A line through its points (a gap at each missing one), and its points: filled, or hollow
// where the run never reached the target or diverged.
void drawLine(QPainter& painter, const PlotLine& line, const PlotSpec& spec, const PlotLayout& layout, const QColor& background,
              double scale)
{
    QPainterPath path;
    bool drawing = false;
    for (const QPointF& p : line.points) {
        if (!std::isfinite(p.y()) || (spec.logY && p.y() <= 0) || (spec.logX && p.x() <= 0)) {
            drawing = false;
            continue;
        }
        const QPointF at(layout.px(p.x()), layout.py(p.y()));
        drawing ? path.lineTo(at) : path.moveTo(at);
        drawing = true;
    }
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(line.color, (line.dashed ? 1.5 : 2.0) * scale, line.dashed ? Qt::DashLine : Qt::SolidLine));
    painter.drawPath(path);
    if (!line.markers)
        return;
    for (qsizetype i = 0; i < line.points.size(); ++i) {
        const QPointF p = line.points[i];
        if (!std::isfinite(p.y()) || (spec.logY && p.y() <= 0))
            continue;
        // A point with no place (an x of NaN, or not above 0 on a log axis) is not drawn: Qt
        // would draw its circle from NaN arcs and say so on stderr ("QPainterPath::arcTo … NaN").
        const QPointF at(layout.px(p.x()), layout.py(p.y()));
        if (!std::isfinite(at.x()) || !std::isfinite(at.y()))
            continue;
        const bool hollow = i < line.hollow.size() && line.hollow[i];
        painter.setPen(QPen(line.color, 1.5 * scale));
        painter.setBrush(hollow ? QBrush(background) : QBrush(line.color));
        painter.drawEllipse(at, 3.5 * scale, 3.5 * scale);
    }
}

// The legend (each labelled line's stroke and label) and the notes below it, right of the plot.
void drawLegend(QPainter& painter, const QRect& area, const PlotSpec& spec, const PlotLayout& layout, const ChartFrame& frame,
                double scale)
{
    const QFontMetricsF& metrics = frame.smallMetrics;
    const double width = layout.legendWidth;
    double y = layout.plot.top();
    const double x = layout.plot.right() + frame.pad;
    painter.setFont(frame.small);
    for (const PlotLine& line : spec.lines) {
        if (line.label.isEmpty())
            continue;
        painter.setPen(QPen(line.color, 2 * scale, line.dashed ? Qt::DashLine : Qt::SolidLine));
        painter.drawLine(QPointF(x, y + metrics.height() / 2), QPointF(x + 16 * scale, y + metrics.height() / 2));
        painter.setPen(frame.text);
        painter.drawText(QRectF(x + 20 * scale, y, width - 20 * scale, metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(line.label, Qt::ElideRight, width - 20 * scale));
        y += metrics.height() * 1.2;
    }
    y += metrics.height() * 0.5;
    painter.setPen(frame.text);
    for (qsizetype i = 0; i < spec.notes.size(); ++i) {
        const QRectF box(x, y, width, area.bottom() - y);
        const double height = noteHeight(spec.notes[i], width, metrics);
        if (height > box.height()) {
            // No room left even at half the chart: what is left on one line, its end elided,
            // rather than a note cut through its letters.
            const QString rest = spec.notes.mid(i).join(QStringLiteral("; "));
            painter.drawText(QRectF(x, y, width, metrics.height()), Qt::AlignLeft | Qt::AlignTop, metrics.elidedText(rest, Qt::ElideRight, width));
            break;
        }
        painter.drawText(box, Qt::TextWordWrap, spec.notes[i]);
        y += height + 2 * scale;
    }
}

}  // namespace

// The markers the x axis does not reach, as notes: "B_simple 6390: beyond the x axis (16 to 1024)".
QStringList outsideMarkerNotes(const PlotSpec& spec)
{
    QStringList notes;
    const QPointF range = plotXRange(spec);
    for (const PlotMarker& marker : spec.markers) {
        if (!std::isfinite(marker.x) || (spec.logX && marker.x <= 0) || (marker.x >= range.x() && marker.x <= range.y()))
            continue;
        notes.append(QStringLiteral("%1: beyond the x axis (%2 to %3), not drawn")
                         .arg(marker.label, QString::number(range.x(), 'g', 4), QString::number(range.y(), 'g', 4)));
    }
    return notes;
}

QPointF plotXRange(const PlotSpec& spec)
{
    Range xs, ys;
    plotRanges(spec, &xs, &ys);
    const Axis axis = makeAxis(xs, spec.logX);
    return QPointF(axis.low, axis.high);
}

void paintPlot(QPainter& painter, const QRect& area, const PlotSpec& given, double scale, const QPalette* palette)
{
    PlotSpec spec = given;
    spec.notes += outsideMarkerNotes(given);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const ChartFrame frame = beginChart(painter, area, scale, palette);

    // Nothing to draw: the reason alone, without axes that would mean nothing.
    if (spec.lines.isEmpty() && spec.markers.isEmpty()) {
        painter.setPen(frame.text);
        painter.setFont(frame.base);
        painter.drawText(QRectF(area).adjusted(frame.pad, frame.pad, -frame.pad, -frame.pad), Qt::AlignCenter | Qt::TextWordWrap,
                         spec.title.isEmpty() ? spec.emptyText : spec.title + QStringLiteral("\n\n") + spec.emptyText);
        painter.restore();
        return;
    }

    const double top = drawHeading(painter, area, frame, spec.title, spec.subtitle);
    const PlotLayout layout = layOut(spec, area, top, frame, scale);
    if (layout.plot.width() < 40 || layout.plot.height() < 40) {
        painter.restore();
        return;
    }
    drawAxes(painter, area, spec, layout, frame, scale);
    if (layout.empty) {
        painter.setPen(frame.text);
        painter.setFont(frame.base);
        painter.drawText(layout.plot, Qt::AlignCenter | Qt::TextWordWrap, spec.emptyText);
    }

    painter.setClipRect(layout.plot.adjusted(-6 * scale, -6 * scale, 6 * scale, 6 * scale));
    // Bands and markers first, beneath the data.
    drawSpans(painter, layout.plot, spec.spans, layout.xAxis);
    painter.setFont(frame.small);
    drawMarkers(painter, layout.plot, spec.markers, layout.xAxis, frame.smallMetrics, scale);
    for (const PlotLine& line : spec.lines) {
        drawErrorBand(painter, line, layout, spec.logY);
        drawLine(painter, line, spec, layout, frame.background, scale);
    }
    painter.setClipping(false);
    drawLegend(painter, area, spec, layout, frame, scale);
    painter.restore();
}

}  // namespace ddplab::ui
