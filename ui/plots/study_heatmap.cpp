// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_heatmap.hpp"

#include "theme/palette.hpp"
#include "plots/chart_frame.hpp"

#include "client/wire.hpp"

#include <QPainter>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

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
        const QColor patch = QColor::fromRgba(text.lightnessF() > 0.5 ? kDarkPatchRgba : kLightPatchRgba);
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

// The cells' colours: viridis over the finite values' range (log where asked and possible),
// the best end always yellow; grey for a cell without a value.
struct Shading {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    bool log = false;
    bool lowerIsBetter = false;

    QColor of(const HeatmapCell& cell) const
    {
        if (!std::isfinite(cell.value))
            return QColor(kNoValueRgb);
        double t = 0.5;
        if (high > low)
            t = log ? (std::log10(cell.value) - std::log10(low)) / (std::log10(high) - std::log10(low))
                    : (cell.value - low) / (high - low);
        return viridis(lowerIsBetter ? 1.0 - t : t);
    }
};

Shading shadingFor(const HeatmapSpec& spec)
{
    Shading shading;
    for (const QList<HeatmapCell>& row : spec.map.cells) {
        for (const HeatmapCell& cell : row) {
            if (std::isfinite(cell.value) && (!spec.logValues || cell.value > 0)) {
                shading.low = std::min(shading.low, cell.value);
                shading.high = std::max(shading.high, cell.value);
            }
        }
    }
    shading.log = spec.logValues && shading.low > 0;
    shading.lowerIsBetter = spec.lowerIsBetter;
    return shading;
}

// The grid of cells and where each one lies; rows go up (the first value at the bottom, as on
// an axis).
struct CellGrid {
    QRectF rect;
    double cellWidth = 0;
    double cellHeight = 0;
    double rowLabelWidth = 0;

    QRectF cell(qsizetype row, qsizetype column) const
    {
        return QRectF(rect.left() + column * cellWidth, rect.bottom() - (row + 1) * cellHeight, cellWidth, cellHeight);
    }
};

CellGrid layOutGrid(const QRect& area, double top, const StudyHeatmap& map, const ChartFrame& frame, double scale)
{
    const QFontMetricsF& metrics = frame.smallMetrics;
    CellGrid grid;
    grid.rowLabelWidth = metrics.horizontalAdvance(map.rowKey);
    for (const QJsonValue& row : map.rows)
        grid.rowLabelWidth = std::max(grid.rowLabelWidth, metrics.horizontalAdvance(valueText(row)));
    const double legendWidth = 56 * scale;
    grid.rect = QRectF(area.left() + frame.pad + grid.rowLabelWidth + 6 * scale, top + metrics.height(),
                       area.width() - 3 * frame.pad - grid.rowLabelWidth - 6 * scale - legendWidth,
                       area.bottom() - top - frame.pad - metrics.height() * 3.4);
    grid.cellWidth = grid.rect.width() / map.columns.size();
    grid.cellHeight = grid.rect.height() / map.rows.size();
    return grid;
}

// Each measured cell in its colour, hatched where its run diverged.
void drawCells(QPainter& painter, const StudyHeatmap& map, const CellGrid& grid, const Shading& shading)
{
    for (qsizetype row = 0; row < map.rows.size(); ++row) {
        for (qsizetype column = 0; column < map.columns.size(); ++column) {
            const HeatmapCell& cell = map.cells[row][column];
            if (!cell.present)
                continue;
            const QRectF box = grid.cell(row, column).adjusted(1, 1, -1, -1);
            painter.fillRect(box, shading.of(cell));
            if (!std::isfinite(cell.value) && cell.diverged)
                painter.fillRect(box, QBrush(QColor(kDivergedHatchRgb), Qt::BDiagPattern));
        }
    }
}

// Each cell's number on a patch of its own colour (where the cell has room for one; a cell
// without a value always says why), and an outline round the best cell of each column.
void drawCellNumbers(QPainter& painter, const StudyHeatmap& map, const CellGrid& grid, const Shading& shading,
                     const ChartFrame& frame, double scale)
{
    const CellFont cellFont = cellFontFor(frame, grid.cellWidth, grid.cellHeight);
    painter.setFont(cellFont.font);
    for (qsizetype row = 0; row < map.rows.size(); ++row) {
        for (qsizetype column = 0; column < map.columns.size(); ++column) {
            const HeatmapCell& cell = map.cells[row][column];
            if (!cell.present)
                continue;
            const QRectF box = grid.cell(row, column).adjusted(1, 1, -1, -1);
            const QColor fill = shading.of(cell);
            const QString label = std::isfinite(cell.value) ? QString::number(cell.value, 'g', 3)
                                                            : (cell.diverged ? QStringLiteral("diverged") : QStringLiteral("—"));
            if (cellFont.fits || !std::isfinite(cell.value)) {
                const QString shown = cellFont.metrics.elidedText(label, Qt::ElideRight, box.width());
                const double width = cellFont.metrics.horizontalAdvance(shown) + 6 * scale;
                painter.fillRect(QRectF(box.center().x() - width / 2, box.center().y() - cellFont.metrics.height() / 2, width,
                                        cellFont.metrics.height()),
                                 fill);
                painter.setPen(textOn(fill));
                painter.drawText(box, Qt::AlignCenter, shown);
            }
            if (cell.bestInColumn) {
                painter.setPen(QPen(frame.text, 3 * scale));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(box.adjusted(1.5 * scale, 1.5 * scale, -1.5 * scale, -1.5 * scale));
            }
        }
    }
}

// The columns' and rows' values and the two axes' keys.
void drawAxisLabels(QPainter& painter, const QRect& area, const StudyHeatmap& map, const CellGrid& grid, const ChartFrame& frame,
                    double scale)
{
    const QFontMetricsF& metrics = frame.smallMetrics;
    painter.setFont(frame.small);
    painter.setPen(frame.text);
    for (qsizetype column = 0; column < map.columns.size(); ++column)
        painter.drawText(QRectF(grid.rect.left() + column * grid.cellWidth, grid.rect.bottom() + 2 * scale, grid.cellWidth, metrics.height()),
                         Qt::AlignHCenter | Qt::AlignTop, valueText(map.columns[column]));
    for (qsizetype row = 0; row < map.rows.size(); ++row) {
        const QRectF box = grid.cell(row, 0);
        painter.drawText(QRectF(area.left() + frame.pad, box.top(), grid.rowLabelWidth, box.height()), Qt::AlignRight | Qt::AlignVCenter,
                         valueText(map.rows[row]));
    }
    painter.drawText(QRectF(grid.rect.left(), grid.rect.bottom() + metrics.height() * 1.2, grid.rect.width(), metrics.height()),
                     Qt::AlignHCenter, map.columnKey);
    painter.drawText(QRectF(area.left() + frame.pad, grid.rect.top() - metrics.height(), grid.rowLabelWidth, metrics.height()),
                     Qt::AlignRight, map.rowKey);
}

// The colour bar right of the grid with its best and worst values, and what the colours show.
void drawColourLegend(QPainter& painter, const HeatmapSpec& spec, const CellGrid& grid, const Shading& shading, const ChartFrame& frame,
                      double scale)
{
    const QFontMetricsF& metrics = frame.smallMetrics;
    const QRectF bar(grid.rect.right() + frame.pad, grid.rect.top(), 12 * scale, grid.rect.height());
    for (int i = 0; i < 64; ++i) {
        const double t = i / 63.0;
        painter.fillRect(QRectF(bar.left(), bar.bottom() - (i + 1) * bar.height() / 64, bar.width(), bar.height() / 64 + 1), viridis(t));
    }
    painter.setPen(frame.text);
    if (shading.low <= shading.high) {
        const QString best = QString::number(spec.lowerIsBetter ? shading.low : shading.high, 'g', 3);
        const QString worst = QString::number(spec.lowerIsBetter ? shading.high : shading.low, 'g', 3);
        painter.drawText(QPointF(bar.right() + 3 * scale, bar.top() + metrics.ascent()), best);
        painter.drawText(QPointF(bar.right() + 3 * scale, bar.bottom()), worst);
    }
    painter.drawText(QRectF(grid.rect.left(), grid.rect.bottom() + metrics.height() * 2.3, grid.rect.width(), metrics.height()),
                     Qt::AlignLeft, spec.figureTitle + QStringLiteral(" · outlined: the best in each column"));
}

}  // namespace

void paintHeatmap(QPainter& painter, const QRect& area, const HeatmapSpec& spec, double scale, const QPalette* palette)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const ChartFrame frame = beginChart(painter, area, scale, palette);
    const double top = drawHeading(painter, area, frame, spec.title, spec.subtitle);
    const StudyHeatmap& map = spec.map;
    if (map.rows.isEmpty() || map.columns.isEmpty()) {
        painter.drawText(QRectF(area).adjusted(frame.pad, top - area.top(), -frame.pad, -frame.pad), Qt::AlignCenter | Qt::TextWordWrap,
                         spec.emptyText);
        painter.restore();
        return;
    }
    const CellGrid grid = layOutGrid(area, top, map, frame, scale);
    if (grid.rect.width() < 40 || grid.rect.height() < 30) {
        painter.restore();
        return;
    }
    const Shading shading = shadingFor(spec);
    drawCells(painter, map, grid, shading);
    // The rules run beneath the cells' numbers, which sit on a patch of their cell's colour.
    drawScalingRules(painter, grid.rect, map, grid.cellWidth, grid.cellHeight, frame.text, frame.smallMetrics, scale);
    drawCellNumbers(painter, map, grid, shading, frame, scale);
    drawAxisLabels(painter, area, map, grid, frame, scale);
    drawColourLegend(painter, spec, grid, shading, frame, scale);
    painter.restore();
}

}  // namespace ddplab::ui
