#include "export_service.hpp"

#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/wire.hpp"

#include <QDir>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>

namespace ddplab::ui {
namespace {

bool validSize(QSize size, QString* error)
{
    constexpr int kMaxSide = 16384;  // larger images stop fitting in memory comfortably
    if (size.width() >= 16 && size.height() >= 16 && size.width() <= kMaxSide && size.height() <= kMaxSide)
        return true;
    if (error)
        *error = QStringLiteral("An image must be between 16 and %1 pixels on each side (asked for %2 × %3).")
                     .arg(kMaxSide)
                     .arg(size.width())
                     .arg(size.height());
    return false;
}

constexpr int kCssPixelsPerInch = 96;

QString csvNumber(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

}  // namespace

bool ExportService::exportChartPng(ChartPanel& chart, const QString& path, ImageFormat format, QString* error)
{
    if (!validSize(format.size, error))
        return false;
    QImage image(format.size, QImage::Format_ARGB32_Premultiplied);
    image.fill(chart.palette().color(QPalette::Base));
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        chart.render(painter, format.size, format.scale);
    }
    if (image.save(path, "PNG"))
        return true;
    if (error)
        *error = QStringLiteral("Cannot write the image %1").arg(path);
    return false;
}

bool ExportService::exportChartSvg(ChartPanel& chart, const QString& path, ImageFormat format, QString* error)
{
    if (!validSize(format.size, error))
        return false;
    const QSize size = format.size;
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setResolution(kCssPixelsPerInch);  // browsers then show it at `size` CSS pixels
    generator.setTitle(chart.definition().title);
    generator.setDescription(QStringLiteral("DDP Lab chart"));
    QPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = QStringLiteral("Cannot write the SVG file %1").arg(path);
        return false;
    }
    chart.render(painter, size, format.scale);
    painter.end();
    return true;
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
                (*row)[column] = csvNumber(point.y());
        }
    }
    QStringList header;
    for (XAxis axis : allXAxes())
        header.append(xAxisName(axis));
    QByteArray csv = (header + metrics).join(QLatin1Char(',')).toUtf8() + '\n';
    for (auto row = rows.constBegin(); row != rows.constEnd(); ++row) {
        QStringList x;
        for (XAxis axis : allXAxes())
            x.append(csvNumber(run.xAt(row.key(), axis)));
        csv += (x + row.value()).join(QLatin1Char(',')).toUtf8() + '\n';
    }
    return csv;
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
