#include "study_plot.hpp"

#include "charts/axis_plan.hpp"
#include "study_view/chart_frame.hpp"

#include <QPainter>
#include <QPalette>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Range {
    double low = kInf;
    double high = -kInf;
    void take(double value, bool log)
    {
        if (!std::isfinite(value) || (log && value <= 0))
            return;
        low = std::min(low, value);
        high = std::max(high, value);
    }
    bool valid() const { return low <= high; }
};

// Up to this many distinct x values get a tick each; more get the decades.
constexpr qsizetype kMostChosenTicks = 12;

// Where an axis puts a value, and its ticks.
struct Axis {
    bool log = false;
    double low = 0.0, high = 1.0;  // in data units
    QList<double> ticks;
    QString format = QStringLiteral("%g");

    double fraction(double value) const
    {
        if (log)
            return (std::log10(value) - std::log10(low)) / (std::log10(high) - std::log10(low));
        return (value - low) / (high - low);
    }
};

Axis makeAxis(Range range, bool log)
{
    Axis axis;
    axis.log = log;
    if (!range.valid())
        range = log ? Range{1.0, 10.0} : Range{0.0, 1.0};
    if (log) {
        // A little room around the data; ticks at the decades inside, with 2 and 5 between
        // them when the range spans fewer than three.
        axis.low = range.low / 1.35;
        axis.high = range.high * 1.35;
        const int first = int(std::floor(std::log10(axis.low)));
        const int last = int(std::ceil(std::log10(axis.high)));
        const int decades = last - first;
        // Inside a single decade 1, 2 and 5 may leave one tick or none: every digit then.
        const QList<double> mantissas = decades <= 1   ? QList<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}
                                        : decades <= 3 ? QList<double>{1, 2, 5}
                                                       : QList<double>{1};
        const int every = std::max(1, decades / 6);
        for (int d = first; d <= last; d += (mantissas.size() > 1 ? 1 : every)) {
            for (double m : mantissas) {
                const double tick = std::pow(10.0, d) * m;
                if (tick >= axis.low && tick <= axis.high)
                    axis.ticks.append(tick);
            }
        }
        if (axis.ticks.size() < 3) {
            // A range narrower than 1 to 2 (steps of 12 to 20): evenly spaced round numbers.
            const LinearAxisPlan plan = planValueAxis(axis.low, axis.high, 5, true, false);
            axis.ticks.clear();
            const double step = (plan.high - plan.low) / std::max(1, plan.tickCount - 1);
            for (int i = 0; i < plan.tickCount; ++i) {
                const double tick = plan.low + step * i;
                if (tick >= axis.low && tick <= axis.high && tick > 0)
                    axis.ticks.append(tick);
            }
        }
        return axis;
    }
    const LinearAxisPlan plan = planValueAxis(range.low, range.high, 5, false, false);
    axis.low = plan.low;
    axis.high = plan.high;
    axis.format = plan.labelFormat;
    for (int i = 0; i < plan.tickCount; ++i)
        axis.ticks.append(plan.low + (plan.high - plan.low) * i / std::max(1, plan.tickCount - 1));
    return axis;
}

QString tickText(double value, const Axis& axis)
{
    if (axis.log) {
        if (value >= 1e5 || value < 1e-3)
            return QString::number(value, 'g', 2);
        return QString::number(value, 'g', 6);
    }
    return QString::asprintf(qPrintable(axis.format), value);
}

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

}  // namespace

QPointF plotXRange(const PlotSpec& spec)
{
    Range xs, ys;
    plotRanges(spec, &xs, &ys);
    const Axis axis = makeAxis(xs, spec.logX);
    return QPointF(axis.low, axis.high);
}

QList<int> tickLabelRows(const QList<double>& centres, const QList<double>& widths, double gap)
{
    QList<int> rows;
    double endOf[2] = {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (qsizetype i = 0; i < centres.size(); ++i) {
        const double start = centres[i] - widths[i] / 2;
        int row = -1;
        for (int candidate : {0, 1}) {
            if (start >= endOf[candidate] + gap) {
                row = candidate;
                break;
            }
        }
        if (row >= 0)
            endOf[row] = centres[i] + widths[i] / 2;
        rows.append(row);
    }
    return rows;
}

namespace {

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
// below any it would overlap. A marker outside the x range is an arrow at the edge it lies
// beyond, its label beside it: the value is shown, the axis is not stretched to reach it.
void drawMarkers(QPainter& painter, const QRectF& plot, const QList<PlotMarker>& markers, const Axis& xAxis,
                 const QFontMetricsF& metrics, double scale)
{
    QList<QRectF> taken;
    for (const PlotMarker& marker : markers) {
        if (!std::isfinite(marker.x) || (xAxis.log && marker.x <= 0))
            continue;
        const double fraction = xAxis.fraction(marker.x);
        const bool below = fraction < 0, above = fraction > 1;
        const double x = plot.left() + std::clamp(fraction, 0.0, 1.0) * plot.width();
        const QString& label = marker.label;
        const double width = metrics.horizontalAdvance(label) + 6 * scale;
        // Right of its line, unless that runs out of the plot.
        double left = above || x + width > plot.right() ? x - width : x + 3 * scale;
        left = std::max(left, plot.left() + 2 * scale);
        QRectF box(left, plot.top() + 2 * scale, width, metrics.height());
        while (std::any_of(taken.begin(), taken.end(), [&](const QRectF& other) { return other.intersects(box); }))
            box.translate(0, metrics.height());
        taken.append(box);
        painter.setPen(QPen(marker.color, 1.5 * scale, below || above ? Qt::SolidLine : Qt::DashDotLine));
        if (below || above) {
            const double tip = below ? plot.left() + 2 * scale : plot.right() - 2 * scale;
            const double back = below ? tip + 8 * scale : tip - 8 * scale;
            const double y = box.center().y();
            painter.drawLine(QPointF(tip, y), QPointF(back, y - 4 * scale));
            painter.drawLine(QPointF(tip, y), QPointF(back, y + 4 * scale));
            if (below)
                box.moveLeft(back + 2 * scale);
            else
                box.moveRight(back - 2 * scale);
        } else {
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        }
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, label);
    }
}

}  // namespace

void paintPlot(QPainter& painter, const QRect& area, const PlotSpec& spec, double scale, const QPalette* palette)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const ChartFrame frame = beginChart(painter, area, scale, palette);
    const QColor& background = frame.background;
    const QColor& text = frame.text;
    const QFont& base = frame.base;
    const QFont& small = frame.small;
    const QFontMetricsF& smallMetrics = frame.smallMetrics;
    const double pad = frame.pad;

    // Nothing to draw: the reason alone, without axes that would mean nothing.
    if (spec.lines.isEmpty() && spec.markers.isEmpty()) {
        painter.setPen(text);
        painter.setFont(base);
        painter.drawText(QRectF(area).adjusted(pad, pad, -pad, -pad), Qt::AlignCenter | Qt::TextWordWrap,
                         spec.title.isEmpty() ? spec.emptyText : spec.title + QStringLiteral("\n\n") + spec.emptyText);
        painter.restore();
        return;
    }

    const double top = drawHeading(painter, area, frame, spec.title, spec.subtitle);

    Range xs, ys;
    plotRanges(spec, &xs, &ys);
    const bool empty = !ys.valid();
    Axis xAxis = makeAxis(xs, spec.logX);
    // A study's x is a handful of chosen values (batches 32, 64, ... 256): tick at those, so
    // each point sits on a labelled line instead of between 50 and 100.
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
    const Axis yAxis = makeAxis(ys, spec.logY);

    // The legend and notes on the right, when there is room; the plot takes the rest.
    QStringList legendLabels;
    for (const PlotLine& line : spec.lines) {
        if (!line.label.isEmpty())
            legendLabels.append(line.label);
    }
    double legendWidth = 0;
    for (const QString& label : legendLabels + spec.notes)
        legendWidth = std::max(legendWidth, smallMetrics.horizontalAdvance(label) + 24 * scale);
    legendWidth = std::min(legendWidth, area.width() * 0.34);
    double yLabelWidth = 0;
    for (double tick : yAxis.ticks)
        yLabelWidth = std::max(yLabelWidth, smallMetrics.horizontalAdvance(tickText(tick, yAxis)));
    const double plotLeft = area.left() + pad + smallMetrics.height() + yLabelWidth + 6 * scale;
    const double plotWidth = area.width() - (pad * 3 + smallMetrics.height() + yLabelWidth + 6 * scale + legendWidth);
    // The x labels in one row, or two where neighbours would run into each other.
    QStringList xLabels;
    QList<double> xCentres, xWidths;
    for (double tick : xAxis.ticks) {
        xLabels.append(tickText(tick, xAxis));
        xCentres.append(plotLeft + xAxis.fraction(tick) * plotWidth);
        xWidths.append(smallMetrics.horizontalAdvance(xLabels.last()));
    }
    const QList<int> xRows = tickLabelRows(xCentres, xWidths, 4 * scale);
    const double labelRows = std::count(xRows.begin(), xRows.end(), 1) > 0 ? 2 : 1;
    const QRectF plot(plotLeft, top + pad / 2, plotWidth, area.bottom() - top - pad * 2 - smallMetrics.height() * (1.4 + labelRows));
    if (plot.width() < 40 || plot.height() < 40) {
        painter.restore();
        return;
    }
    const auto px = [&](double x) { return plot.left() + xAxis.fraction(x) * plot.width(); };
    const auto py = [&](double y) { return plot.bottom() - yAxis.fraction(y) * plot.height(); };

    // Grid, ticks and axis titles.
    QColor grid = text;
    grid.setAlpha(40);
    painter.setFont(small);
    painter.setPen(QPen(grid, 1 * scale));
    for (double tick : xAxis.ticks)
        painter.drawLine(QPointF(px(tick), plot.top()), QPointF(px(tick), plot.bottom()));
    painter.setPen(text);
    drawXTickLabels(painter, plot, xCentres, xLabels, xRows, smallMetrics, scale);
    for (double tick : yAxis.ticks) {
        painter.setPen(QPen(grid, 1 * scale));
        painter.drawLine(QPointF(plot.left(), py(tick)), QPointF(plot.right(), py(tick)));
        painter.setPen(text);
        painter.drawText(QRectF(plot.left() - yLabelWidth - 4 * scale, py(tick) - smallMetrics.height() / 2, yLabelWidth, smallMetrics.height()),
                         Qt::AlignRight | Qt::AlignVCenter, tickText(tick, yAxis));
    }
    painter.setPen(QPen(text, 1 * scale));
    painter.drawRect(plot);
    painter.drawText(QRectF(plot.left(), plot.bottom() + smallMetrics.height() * (0.2 + labelRows), plot.width(), smallMetrics.height()),
                     Qt::AlignHCenter, spec.xTitle + (spec.logX ? QStringLiteral(" (log)") : QString()));
    painter.save();
    painter.translate(area.left() + pad, plot.center().y());
    painter.rotate(-90);
    painter.drawText(QRectF(-plot.height() / 2, 0, plot.height(), smallMetrics.height()), Qt::AlignHCenter,
                     spec.yTitle + (spec.logY ? QStringLiteral(" (log)") : QString()));
    painter.restore();

    if (empty) {
        painter.setPen(text);
        painter.setFont(base);
        painter.drawText(plot, Qt::AlignCenter | Qt::TextWordWrap, spec.emptyText);
    }

    painter.setClipRect(plot.adjusted(-6 * scale, -6 * scale, 6 * scale, 6 * scale));
    // Markers first, beneath the data.
    painter.setFont(small);
    drawMarkers(painter, plot, spec.markers, xAxis, smallMetrics, scale);
    for (const PlotLine& line : spec.lines) {
        // The band of ± one standard error.
        if (!line.errors.isEmpty()) {
            QPolygonF band;
            QList<QPointF> lower;
            for (qsizetype i = 0; i < line.points.size(); ++i) {
                const QPointF p = line.points[i];
                const double error = i < line.errors.size() ? line.errors[i] : 0.0;
                if (!std::isfinite(p.y()) || error <= 0)
                    continue;
                const double below = spec.logY ? std::max(p.y() - error, p.y() * 1e-3) : p.y() - error;
                band.append(QPointF(px(p.x()), py(p.y() + error)));
                lower.prepend(QPointF(px(p.x()), py(below)));
            }
            if (band.size() > 1) {
                band += QPolygonF(lower);
                QColor fill = line.color;
                fill.setAlpha(50);
                painter.setPen(Qt::NoPen);
                painter.setBrush(fill);
                painter.drawPolygon(band);
            }
        }
        QPainterPath path;
        bool drawing = false;
        for (const QPointF& p : line.points) {
            if (!std::isfinite(p.y()) || (spec.logY && p.y() <= 0) || (spec.logX && p.x() <= 0)) {
                drawing = false;
                continue;
            }
            const QPointF at(px(p.x()), py(p.y()));
            drawing ? path.lineTo(at) : path.moveTo(at);
            drawing = true;
        }
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(line.color, (line.dashed ? 1.5 : 2.0) * scale, line.dashed ? Qt::DashLine : Qt::SolidLine));
        painter.drawPath(path);
        if (!line.markers)
            continue;
        for (qsizetype i = 0; i < line.points.size(); ++i) {
            const QPointF p = line.points[i];
            if (!std::isfinite(p.y()) || (spec.logY && p.y() <= 0))
                continue;
            const bool hollow = i < line.hollow.size() && line.hollow[i];
            painter.setPen(QPen(line.color, 1.5 * scale));
            painter.setBrush(hollow ? QBrush(background) : QBrush(line.color));
            painter.drawEllipse(QPointF(px(p.x()), py(p.y())), 3.5 * scale, 3.5 * scale);
        }
    }
    painter.setClipping(false);

    // Legend and notes.
    double y = plot.top();
    const double x = plot.right() + pad;
    painter.setFont(small);
    for (const PlotLine& line : spec.lines) {
        if (line.label.isEmpty())
            continue;
        painter.setPen(QPen(line.color, 2 * scale, line.dashed ? Qt::DashLine : Qt::SolidLine));
        painter.drawLine(QPointF(x, y + smallMetrics.height() / 2), QPointF(x + 16 * scale, y + smallMetrics.height() / 2));
        painter.setPen(text);
        painter.drawText(QRectF(x + 20 * scale, y, legendWidth - 20 * scale, smallMetrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
                         smallMetrics.elidedText(line.label, Qt::ElideRight, legendWidth - 20 * scale));
        y += smallMetrics.height() * 1.2;
    }
    y += smallMetrics.height() * 0.5;
    painter.setPen(text);
    for (const QString& note : spec.notes) {
        const QRectF box(x, y, legendWidth, area.bottom() - y);
        const QRectF used = painter.boundingRect(box, Qt::TextWordWrap, note);
        painter.drawText(box, Qt::TextWordWrap, note);
        y += used.height() + 2 * scale;
    }
    painter.restore();
}

}  // namespace ddplab::ui
