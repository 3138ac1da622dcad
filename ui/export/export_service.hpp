#pragma once
// Writing what the lab shows to files: charts as PNG (at a chosen size) and SVG, a run's
// metrics as CSV (one row per step, one column per metric, a header row), a run's config as
// a preset, and all of it at once into a folder (the command line's --export).

#include <QList>
#include <QSharedPointer>
#include <QSize>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class ChartPanel;
class RunData;

class ExportService {
public:
    static constexpr QSize kDefaultImageSize{1200, 800};

    static bool exportChartPng(ChartPanel& chart, const QString& path, QSize size, QString* error);
    static bool exportChartSvg(ChartPanel& chart, const QString& path, QSize size, QString* error);

    // step, epoch, then every metric the run has (eval and epoch figures on the row of their step).
    static QByteArray metricsCsv(const RunData& run);
    static bool exportRunCsv(const RunData& run, const QString& path, QString* error);
    static bool exportRunPreset(const RunData& run, const QString& path, QString* error);

    // Every chart as <id>.png and <id>.svg, every run as NN-<label>.csv; returns the files
    // written, or stops at the first failure with `error` set.
    static QStringList exportAll(const QList<ChartPanel*>& charts, const QList<QSharedPointer<RunData>>& runs,
                                 const QString& directory, QSize imageSize, QString* error);

    // A file name made from a label ("8 GPUs x 16, sqrt rule" -> "8-gpus-x-16-sqrt-rule").
    static QString fileNameFor(const QString& label);
};

}  // namespace ddplab::ui
