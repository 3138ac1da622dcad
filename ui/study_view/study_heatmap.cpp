#include "study_heatmap.hpp"

#include "study_view/chart_frame.hpp"

#include "client/wire.hpp"

#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// Viridis, sampled: dark for one end, yellow for the other, readable in grey too.
QColor viridis(double t)
{
    static const QColor kStops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c),
                                    QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25)};
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(t));
    const double f = t - i;
    const QColor& a = kStops[i];
    const QColor& b = kStops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f), float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QString valueText(const QJsonValue& value)
{
    return value.isDouble() ? QString::number(value.toDouble(), 'g', 4) : value.toVariant().toString();
}

// log10 of the axis's values when they are all positive numbers, else nothing.
std::optional<QList<double>> logsOf(const QList<QJsonValue>& values)
{
    QList<double> logs;
    for (const QJsonValue& value : values) {
        if (!value.isDouble() || value.toDouble() <= 0)
            return std::nullopt;
        logs.append(std::log10(value.toDouble()));
    }
    return logs;
}

// Where log value `v` falls among the cells' centres (by linear interpolation between them).
double position(const QList<double>& logs, double v)
{
    if (logs.size() == 1)
        return 0.0;
    for (qsizetype i = 0; i + 1 < logs.size(); ++i) {
        const bool last = i + 2 == logs.size();
        if (v <= logs[i + 1] || last)
            return i + (v - logs[i]) / (logs[i + 1] - logs[i]);
    }
    return 0.0;
}

// The linear and square-root rules through the best cell of the smallest batch that has one,
// when the map is LR over a batch axis: lines clipped to the grid, each named near its end.
void drawScalingRules(QPainter& painter, const QRectF& grid, const StudyHeatmap& map, double cellWidth, double cellHeight,
                      const QColor& text, const QFontMetricsF& metrics, double scale)
{
    const std::optional<QList<double>> columnLogs = logsOf(map.columns);
    const std::optional<QList<double>> rowLogs = logsOf(map.rows);
    const bool rulesApply = columnLogs && rowLogs && map.columns.size() > 1 && map.rows.size() > 1 &&
                            (map.rowKey == wire(key::kLr)) &&
                            (map.columnKey == kEffectiveBatchAxis || map.columnKey == wire(key::kBatchSize) ||
                             map.columnKey == wire(key::kWorldSize));
    if (!rulesApply)
        return;
    qsizetype startColumn = -1, startRow = -1;
    for (qsizetype column = 0; column < map.columns.size() && startColumn < 0; ++column) {
        for (qsizetype row = 0; row < map.rows.size(); ++row) {
            if (map.cells[row][column].bestInColumn) {
                startColumn = column;
                startRow = row;
            }
        }
    }
    if (startColumn < 0)
        return;
    painter.save();
    painter.setClipRect(grid);
    const double x0 = (*columnLogs)[startColumn], y0 = (*rowLogs)[startRow];
    const double xEnd = columnLogs->last();
    for (const auto& [slope, name] : {std::pair{1.0, QStringLiteral("linear")}, std::pair{0.5, QStringLiteral("square root")}}) {
        const auto at = [&](double logBatch) {
            const double column = position(*columnLogs, logBatch);
            const double row = position(*rowLogs, y0 + slope * (logBatch - x0));
            return QPointF(grid.left() + (column + 0.5) * cellWidth, grid.bottom() - (row + 0.5) * cellHeight);
        };
        const QPointF start = at(x0), end = at(xEnd);
        painter.setPen(QPen(text, 2 * scale, slope == 1.0 ? Qt::DashLine : Qt::DotLine));
        painter.drawLine(start, end);
        // The name where the line ends or leaves the grid, just inside it.
        constexpr int kSteps = 200;
        QPointF last = start;
        for (int i = 1; i <= kSteps; ++i) {
            const QPointF point = start + (end - start) * (double(i) / kSteps);
            if (!grid.contains(point))
                break;
            last = point;
        }
        const double width = metrics.horizontalAdvance(name) + 4 * scale;
        const QRectF box(std::clamp(last.x() - width - 4 * scale, grid.left(), grid.right() - width),
                         std::clamp(last.y() + 2 * scale, grid.top(), grid.bottom() - metrics.height()), width, metrics.height());
        QColor patch = text.lightnessF() > 0.5 ? QColor(0, 0, 0, 160) : QColor(255, 255, 255, 190);
        painter.fillRect(box, patch);
        painter.setPen(text);
        painter.drawText(box, Qt::AlignCenter, name);
    }
    painter.restore();
}

// The cells' numbers in the chart's base font where a cell has room for one, else its small
// font, else (`fits` false) none: at 1920 pixels a cell is large, and its number should read so.
struct CellFont {
    QFont font;
    QFontMetricsF metrics;
    bool fits;
};

CellFont cellFontFor(const ChartFrame& frame, double cellWidth, double cellHeight)
{
    const QString widest = QStringLiteral("0.000e-00");
    for (const QFont& font : {frame.base, frame.small}) {
        const QFontMetricsF metrics(font);
        if (cellWidth > metrics.horizontalAdvance(widest) + 8 && cellHeight > metrics.height() * 1.4)
            return {font, metrics, true};
    }
    return {frame.small, frame.smallMetrics, false};
}

}  // namespace

void paintHeatmap(QPainter& painter, const QRect& area, const HeatmapSpec& spec, double scale, const QPalette* palette)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const ChartFrame frame = beginChart(painter, area, scale, palette);
    const QColor& text = frame.text;
    const QFontMetricsF& smallMetrics = frame.smallMetrics;
    const double pad = frame.pad;
    const double top = drawHeading(painter, area, frame, spec.title, spec.subtitle);
    const StudyHeatmap& map = spec.map;
    if (map.rows.isEmpty() || map.columns.isEmpty()) {
        painter.drawText(QRectF(area).adjusted(pad, top - area.top(), -pad, -pad), Qt::AlignCenter | Qt::TextWordWrap, spec.emptyText);
        painter.restore();
        return;
    }

    // Value range for the colours.
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const QList<HeatmapCell>& row : map.cells) {
        for (const HeatmapCell& cell : row) {
            if (std::isfinite(cell.value) && (!spec.logValues || cell.value > 0)) {
                low = std::min(low, cell.value);
                high = std::max(high, cell.value);
            }
        }
    }
    const bool logColours = spec.logValues && low > 0;
    const auto shade = [&](double value) {
        double t = 0.5;
        if (high > low)
            t = logColours ? (std::log10(value) - std::log10(low)) / (std::log10(high) - std::log10(low)) : (value - low) / (high - low);
        return viridis(spec.lowerIsBetter ? 1.0 - t : t);  // the best end is always yellow
    };

    double rowLabelWidth = smallMetrics.horizontalAdvance(map.rowKey);
    for (const QJsonValue& row : map.rows)
        rowLabelWidth = std::max(rowLabelWidth, smallMetrics.horizontalAdvance(valueText(row)));
    const double legendWidth = 56 * scale;
    const QRectF grid(area.left() + pad + rowLabelWidth + 6 * scale, top + smallMetrics.height(),
                      area.width() - 3 * pad - rowLabelWidth - 6 * scale - legendWidth,
                      area.bottom() - top - pad - smallMetrics.height() * 3.4);
    if (grid.width() < 40 || grid.height() < 30) {
        painter.restore();
        return;
    }
    const double cellWidth = grid.width() / map.columns.size();
    const double cellHeight = grid.height() / map.rows.size();
    // Rows go up: the first value at the bottom, as on an axis.
    const auto cellRect = [&](qsizetype row, qsizetype column) {
        return QRectF(grid.left() + column * cellWidth, grid.bottom() - (row + 1) * cellHeight, cellWidth, cellHeight);
    };
    const auto fillOf = [&](const HeatmapCell& cell) { return std::isfinite(cell.value) ? shade(cell.value) : QColor(0x99, 0x99, 0x99); };
    for (qsizetype row = 0; row < map.rows.size(); ++row) {
        for (qsizetype column = 0; column < map.columns.size(); ++column) {
            const HeatmapCell& cell = map.cells[row][column];
            if (!cell.present)
                continue;
            const QRectF box = cellRect(row, column).adjusted(1, 1, -1, -1);
            painter.fillRect(box, fillOf(cell));
            if (!std::isfinite(cell.value) && cell.diverged)
                painter.fillRect(box, QBrush(QColor(0x55, 0x55, 0x55), Qt::BDiagPattern));
        }
    }
    // The rules run beneath the cells' numbers, which sit on a patch of their cell's colour.
    drawScalingRules(painter, grid, map, cellWidth, cellHeight, text, smallMetrics, scale);
    const CellFont cellFont = cellFontFor(frame, cellWidth, cellHeight);
    painter.setFont(cellFont.font);
    for (qsizetype row = 0; row < map.rows.size(); ++row) {
        for (qsizetype column = 0; column < map.columns.size(); ++column) {
            const HeatmapCell& cell = map.cells[row][column];
            if (!cell.present)
                continue;
            const QRectF box = cellRect(row, column).adjusted(1, 1, -1, -1);
            const QColor fill = fillOf(cell);
            const QString label = std::isfinite(cell.value) ? QString::number(cell.value, 'g', 3)
                                                            : (cell.diverged ? QStringLiteral("diverged") : QStringLiteral("—"));
            if (cellFont.fits || !std::isfinite(cell.value)) {
                const QString shown = cellFont.metrics.elidedText(label, Qt::ElideRight, box.width());
                const double width = cellFont.metrics.horizontalAdvance(shown) + 6 * scale;
                painter.fillRect(QRectF(box.center().x() - width / 2, box.center().y() - cellFont.metrics.height() / 2, width,
                                        cellFont.metrics.height()),
                                 fill);
                painter.setPen(fill.lightnessF() > 0.55 ? Qt::black : Qt::white);
                painter.drawText(box, Qt::AlignCenter, shown);
            }
            if (cell.bestInColumn) {
                painter.setPen(QPen(text, 3 * scale));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(box.adjusted(1.5 * scale, 1.5 * scale, -1.5 * scale, -1.5 * scale));
            }
        }
    }
    painter.setFont(frame.small);
    // Axis labels.
    painter.setPen(text);
    for (qsizetype column = 0; column < map.columns.size(); ++column)
        painter.drawText(QRectF(grid.left() + column * cellWidth, grid.bottom() + 2 * scale, cellWidth, smallMetrics.height()),
                         Qt::AlignHCenter | Qt::AlignTop, valueText(map.columns[column]));
    for (qsizetype row = 0; row < map.rows.size(); ++row) {
        const QRectF box = cellRect(row, 0);
        painter.drawText(QRectF(area.left() + pad, box.top(), rowLabelWidth, box.height()), Qt::AlignRight | Qt::AlignVCenter,
                         valueText(map.rows[row]));
    }
    painter.drawText(QRectF(grid.left(), grid.bottom() + smallMetrics.height() * 1.2, grid.width(), smallMetrics.height()), Qt::AlignHCenter,
                     map.columnKey);
    painter.drawText(QRectF(area.left() + pad, grid.top() - smallMetrics.height(), rowLabelWidth, smallMetrics.height()), Qt::AlignRight,
                     map.rowKey);

    // Colour legend.
    const QRectF bar(grid.right() + pad, grid.top(), 12 * scale, grid.height());
    for (int i = 0; i < 64; ++i) {
        const double t = i / 63.0;
        painter.fillRect(QRectF(bar.left(), bar.bottom() - (i + 1) * bar.height() / 64, bar.width(), bar.height() / 64 + 1), viridis(t));
    }
    painter.setPen(text);
    if (low <= high) {
        const QString best = QString::number(spec.lowerIsBetter ? low : high, 'g', 3);
        const QString worst = QString::number(spec.lowerIsBetter ? high : low, 'g', 3);
        painter.drawText(QPointF(bar.right() + 3 * scale, bar.top() + smallMetrics.ascent()), best);
        painter.drawText(QPointF(bar.right() + 3 * scale, bar.bottom()), worst);
    }
    painter.drawText(QRectF(grid.left(), grid.bottom() + smallMetrics.height() * 2.3, grid.width(), smallMetrics.height()), Qt::AlignLeft,
                     spec.figureTitle + QStringLiteral(" · outlined: the best in each column"));
    painter.restore();
}

}  // namespace ddplab::ui
