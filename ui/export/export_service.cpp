#include "export_service.hpp"

#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/io/csv_writer.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/why_no_data.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/wire.hpp"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPainter>
#include <QRegularExpression>

namespace ddplab::ui {

bool ExportService::exportChartPng(ChartPanel& chart, const QString& path, ImageFormat format, QString* error)
{
    return writePngImage(path, format.size, chart.palette().color(QPalette::Base),
                         [&](QPainter& painter, const QRect& area) { chart.render(painter, area.size(), format.scale); }, error);
}

bool ExportService::exportChartSvg(ChartPanel& chart, const QString& path, ImageFormat format, QString* error)
{
    return writeSvgImage(path, format.size, chart.definition().title,
                         [&](QPainter& painter, const QRect& area) { chart.render(painter, area.size(), format.scale); }, error);
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
