// SPDX-License-Identifier: GPL-3.0-or-later
#include "export_service.hpp"

#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/io/csv_writer.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_names.hpp"
#include "client/runs/run_settings.hpp"
#include "client/runs/why_no_data.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/wire.hpp"

#include <QApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPainter>
#include <QRegularExpression>

#include <cmath>

namespace ddplab::ui {

namespace {

constexpr double kSlideReferenceHeight = 1080.0;
constexpr double kSlideMarginLines = 0.6;  // a slide's margins, in lines of its smallest text

// A slide: the title, the chart with words by the image's height, the runs' settings.
void paintSlide(ChartPanel& chart, QPainter& painter, const QRect& area, const ImageFormat& format)
{
    const QList<DisplayedRun>& runs = chart.runs();
    const ExportService::SlideLayout layout = ExportService::slideLayout(area.size(), runs.size());
    const QColor text = chart.palette().color(QPalette::Text);
    QFont font = QApplication::font();
    font.setPixelSize(layout.titlePixels);
    font.setBold(true);
    painter.save();
    painter.setFont(font);
    painter.setPen(text);
    const QString title = format.title.isEmpty() ? chart.definition().title : format.title;
    painter.drawText(layout.title, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, title);
    font.setPixelSize(layout.textPixels);
    font.setBold(false);
    painter.setFont(font);
    const int line = layout.runs > 0 ? layout.settings.height() / int(layout.runs) : 0;
    const QStringList lines = ExportService::slideRunLines(runs);
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const QRect row(layout.settings.left(), layout.settings.top() + int(i) * line, layout.settings.width(), line);
        const int swatch = layout.textPixels * 2 / 3;
        painter.fillRect(QRect(row.left(), row.center().y() - swatch / 2, swatch, swatch), runs.at(i).color);
        painter.setPen(text);
        painter.drawText(row.adjusted(swatch + layout.textPixels / 2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                         painter.fontMetrics().elidedText(lines.at(i), Qt::ElideRight,
                                                          row.width() - swatch - layout.textPixels / 2));
    }
    painter.translate(layout.chart.topLeft());
    chart.render(painter, layout.chart.size(), format.scale, layout.textPixels);
    painter.restore();
}

void paintChart(ChartPanel& chart, QPainter& painter, const QRect& area, const ImageFormat& format)
{
    if (format.slide)
        paintSlide(chart, painter, area, format);
    else
        chart.render(painter, area.size(), format.scale);
}

}  // namespace

ImageFormat ExportService::slideFormat(const QString& title)
{
    return {QSize(1920, 1080), 1.6, true, title};
}

ExportService::SlideLayout ExportService::slideLayout(QSize size, qsizetype runCount)
{
    SlideLayout layout;
    const double perPixel = size.height() / kSlideReferenceHeight;
    layout.textPixels = int(std::ceil(kSlideTextPixels * perPixel));
    layout.titlePixels = int(std::ceil(kSlideTitlePixels * perPixel));
    layout.runs = runCount;
    const int margin = int(layout.textPixels * kSlideMarginLines);
    const int lineHeight = int(layout.textPixels * 1.4);
    const QRect inner(margin, margin, size.width() - 2 * margin, size.height() - 2 * margin);
    layout.title = QRect(inner.left(), inner.top(), inner.width(), int(layout.titlePixels * 1.4));
    const int settingsHeight = int(runCount) * lineHeight;
    layout.settings = QRect(inner.left(), inner.bottom() - settingsHeight, inner.width(), settingsHeight);
    layout.chart = QRect(inner.left(), layout.title.bottom() + margin, inner.width(),
                         std::max(1, layout.settings.top() - margin - layout.title.bottom() - margin));
    return layout;
}

QString ExportService::slideRunLine(const DisplayedRun& run)
{
    const QString label = run.label.isEmpty() ? run.data->label() : run.label;
    const RunSettings settings = runSettingsOf(run.data->effectiveConfig());
    if (!settings.isKnown())
        return label;
    return QStringLiteral("%1 — %2 · lr %3 · %4").arg(label, settings.shapeText(), settings.effectiveLrText(), settings.optimizer);
}

QStringList ExportService::slideRunLines(const QList<DisplayedRun>& runs)
{
    // What the line says already: the shape, the effective LR (the rule applied) and the optimizer.
    static const QStringList kInTheLine{wire(key::kWorldSize), wire(key::kBatchSize), wire(key::kGradAccum), wire(key::kLr),
                                        wire(key::kLrRule),    wire(key::kLrPower),   wire(key::kBaseBatchSize), wire(key::kOptimizer)};
    constexpr qsizetype kMostDifferences = 3;  // more would not fit one line of a slide
    QList<QJsonObject> configs;
    for (const DisplayedRun& run : runs)
        configs.append(run.data->effectiveConfig());
    QStringList differing = differingKeys(configs);
    differing.removeIf([](const QString& key) { return kInTheLine.contains(key); });
    QStringList lines;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        QString line = slideRunLine(runs.at(i));
        for (const QString& key : differing.mid(0, kMostDifferences))
            line += QStringLiteral(" · ") + settingText(key, configs.at(i).value(key));
        lines.append(line);
    }
    return lines;
}

bool ExportService::exportChartPng(ChartPanel& chart, const QString& path, ImageFormat format, QString* error)
{
    return writePngImage(path, format.size, chart.palette().color(QPalette::Base),
                         [&](QPainter& painter, const QRect& area) { paintChart(chart, painter, area, format); }, error);
}

bool ExportService::exportChartSvg(ChartPanel& chart, const QString& path, ImageFormat format, QString* error)
{
    return writeSvgImage(path, format.size, format.title.isEmpty() ? chart.definition().title : format.title,
                         [&](QPainter& painter, const QRect& area) { paintChart(chart, painter, area, format); }, error);
}

QByteArray ExportService::metricsCsv(const RunData& run)
{
    // The step events' own integer epoch gives way to the fractional one of the x columns.
    QStringList metrics = run.metricNames();
    metrics.removeAll(wire(field::kEpoch));
    std::stable_sort(metrics.begin(), metrics.end(), [](const QString& a, const QString& b) {
        const int orderA = catalogOrder(a);
        const int orderB = catalogOrder(b);
        return orderA != orderB ? orderA < orderB : a < b;
    });

    // One row per step event; a figure reported at a step (eval, epoch) lands on its row.
    QMap<qint64, QList<QString>> rows;
    for (const qint64 step : run.steps())
        rows.insert(step, QList<QString>(metrics.size()));
    for (qsizetype column = 0; column < metrics.size(); ++column) {
        for (const QPointF& point : run.series(metrics.at(column))) {
            const auto row = rows.find(qint64(point.x()));
            if (row != rows.end())
                (*row)[column] = CsvWriter::number(point.y());
        }
    }
    QStringList header;
    for (XAxis axis : allXAxes())
        header.append(xAxisName(axis));
    CsvWriter csv(header + metrics);
    for (auto row = rows.constBegin(); row != rows.constEnd(); ++row) {
        QStringList x;
        for (XAxis axis : allXAxes())
            x.append(CsvWriter::number(run.xAt(row.key(), axis)));
        csv.addRow(x + row.value());
    }
    return csv.contents();
}

QByteArray ExportService::chartCsv(const ChartDefinition& chart, const QList<DisplayedRun>& runs)
{
    QStringList header{QStringLiteral("run"), QStringLiteral("series")};
    for (XAxis axis : allXAxes())
        header.append(xAxisName(axis));
    header.append(QStringLiteral("value"));
    CsvWriter csv(header);
    for (const DisplayedRun& shown : runs) {
        const RunData& run = *shown.data;
        for (const MetricInfo& metric : chart.metrics) {
            if (!whyNotDrawn(metric.name, run).isEmpty())
                continue;  // not on the chart either
            for (const QPointF& point : run.series(metric.name)) {
                QStringList row{shown.label.isEmpty() ? run.label() : shown.label, metric.name};
                for (XAxis axis : allXAxes())
                    row.append(CsvWriter::number(run.xAt(qint64(point.x()), axis)));
                row.append(CsvWriter::number(point.y()));
                csv.addRow(row);
            }
        }
    }
    return csv.contents();
}

bool ExportService::exportChartCsv(const ChartDefinition& chart, const QList<DisplayedRun>& runs, const QString& path, QString* error)
{
    return writeFileAtomically(path, chartCsv(chart, runs), error);
}

QByteArray ExportService::settingsJson(const RunData& run, const QString& label)
{
    QJsonObject settings = run.effectiveConfig();
    settings.insert(QStringLiteral("run_label"), label);
    settings.insert(QStringLiteral("run_status"), statusText(run.record().status));
    settings.insert(QStringLiteral("run_started"), run.record().started.toString(Qt::ISODate));
    return QJsonDocument(settings).toJson(QJsonDocument::Indented);
}

bool ExportService::exportRunCsv(const RunData& run, const QString& label, const QString& path, QString* error)
{
    const QString base = path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive) ? path.chopped(4) : path;
    return writeFileAtomically(path, metricsCsv(run), error) &&
           writeFileAtomically(base + QStringLiteral(".settings.json"), settingsJson(run, label), error);
}

bool ExportService::exportRunPreset(const RunData& run, const QString& path, QString* error)
{
    const QJsonObject preset = presetFromConfig(run.effectiveConfig());
    if (preset.isEmpty()) {
        if (error)
            *error = QStringLiteral("The run \"%1\" has no config to export.").arg(run.label());
        return false;
    }
    return writeFileAtomically(path, presetFileContents(preset), error);
}

QStringList ExportService::exportAll(const QList<ChartPanel*>& charts, const QList<DisplayedRun>& runs,
                                     const QString& directory, ImageFormat format, QString* error)
{
    QStringList written;
    if (!QDir().mkpath(directory)) {
        if (error)
            *error = QStringLiteral("Cannot create the folder %1").arg(directory);
        return written;
    }
    const QDir folder(directory);
    for (ChartPanel* chart : charts) {
        const QString base = folder.filePath(fileNameFor(chart->definition().id));
        if (!exportChartPng(*chart, base + QStringLiteral(".png"), format, error))
            return written;
        written.append(base + QStringLiteral(".png"));
        if (!exportChartSvg(*chart, base + QStringLiteral(".svg"), format, error))
            return written;
        written.append(base + QStringLiteral(".svg"));
    }
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const QString base = folder.filePath(QStringLiteral("%1-%2").arg(i + 1, 2, 10, QLatin1Char('0')).arg(fileNameFor(runs.at(i).label)));
        if (!exportRunCsv(*runs.at(i).data, runs.at(i).label, base + QStringLiteral(".csv"), error))
            return written;
        written.append(base + QStringLiteral(".csv"));
        written.append(base + QStringLiteral(".settings.json"));
    }
    return written;
}

QString ExportService::fileNameFor(const QString& label)
{
    static const QRegularExpression kNotAllowed(QStringLiteral("[^a-z0-9._]+"));
    QString name = label.toLower().replace(kNotAllowed, QStringLiteral("-"));
    while (name.startsWith(QLatin1Char('-')) || name.startsWith(QLatin1Char('.')))
        name.remove(0, 1);
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    return name.isEmpty() ? QStringLiteral("run") : name.left(80);
}

}  // namespace ddplab::ui
