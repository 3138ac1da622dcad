#pragma once
// Writing what the lab shows to files: charts as PNG (at a chosen size, on screen or for
// slides) and SVG, a run's metrics as CSV (one row per step: the four x axes, then one column
// per metric) with its settings beside it as JSON, a run's config as a preset, and all of it
// at once into a folder (the command line's --export).

#include "export/image_writer.hpp"

#include <QList>
#include <QSharedPointer>
#include <QSize>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class ChartPanel;
class RunData;
struct DisplayedRun;

class ExportService {
public:
    static constexpr QSize kDefaultImageSize{1200, 800};
    // For slides: a 1080p slide, with the fonts and lines of presentation mode.
    static constexpr ImageFormat kSlideFormat{QSize(1920, 1080), 1.6};

    static bool exportChartPng(ChartPanel& chart, const QString& path, ImageFormat format, QString* error);
    static bool exportChartSvg(ChartPanel& chart, const QString& path, ImageFormat format, QString* error);

    // step, epoch, samples_seen, wall_s, then every metric the run has (eval and epoch figures
    // on the row of their step).
    static QByteArray metricsCsv(const RunData& run);
    // What the run was: its resolved settings (ranks, batch, effective batch, LR rule,
    // effective LR, optimizer and every other key), its name and outcome, as JSON.
    static QByteArray settingsJson(const RunData& run, const QString& label);
    // The CSV, and its settings beside it (the same name, .settings.json).
    static bool exportRunCsv(const RunData& run, const QString& label, const QString& path, QString* error);
    static bool exportRunPreset(const RunData& run, const QString& path, QString* error);

    // Every chart as <id>.png and <id>.svg, every run as NN-<label>.csv (and its settings);
    // returns the files written, or stops at the first failure with `error` set.
    static QStringList exportAll(const QList<ChartPanel*>& charts, const QList<DisplayedRun>& runs,
                                 const QString& directory, ImageFormat format, QString* error);

    // A file name made from a label ("8 GPUs x 16, sqrt rule" -> "8-gpus-x-16-sqrt-rule").
    static QString fileNameFor(const QString& label);
};

}  // namespace ddplab::ui
