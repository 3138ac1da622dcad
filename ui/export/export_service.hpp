// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writing what the lab shows to files: charts as PNG (at a chosen size, on screen or for
// slides) and SVG, a run's metrics as CSV (one row per step: the four x axes, then one column
// per metric) with its settings beside it as JSON, a run's config as a preset, and all of it
// at once into a folder (the command line's --export).

#include "plots/image_writer.hpp"

#include <QList>
#include <QSharedPointer>
#include <QSize>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

class ChartPanel;
class RunData;
struct ChartDefinition;
struct DisplayedRun;

class ExportService {
public:
    static constexpr QSize kDefaultImageSize{1200, 800};
    // For slides: a 1080p slide, the lines of presentation mode, words by the image's height.
    static ImageFormat slideFormat(const QString& title = QString());
    // A slide's smallest words (tick labels, legend, settings) and its title, in pixels per
    // 1080 pixels of image height.
    static constexpr double kSlideTextPixels = ::ddplab::ui::kSlideTextPixels;  // the study charts' too
    static constexpr double kSlideTitlePixels = 46.0;
    // Where a slide's parts go: its title, the chart, one line of settings per run.
    struct SlideLayout {
        QRect title, chart, settings;
        int textPixels = 0, titlePixels = 0;
        qsizetype runs = 0;
    };
    static SlideLayout slideLayout(QSize size, qsizetype runCount);
    // "8 GPUs x 16, linear rule — 8 × 16 · lr 0.008 · sgd": a run's line under a slide's chart.
    static QString slideRunLine(const DisplayedRun& run);
    // Each run's line, with what else differs between the slide's runs said in Setup's words
    // ("… · lr 0.5 · sgd · Warmup epochs 5"): two runs are never read as the same settings.
    static QStringList slideRunLines(const QList<DisplayedRun>& runs);

    static bool exportChartPng(ChartPanel& chart, const QString& path, ImageFormat format, QString* error);
    static bool exportChartSvg(ChartPanel& chart, const QString& path, ImageFormat format, QString* error);

    // step, epoch, samples_seen, wall_s, then every metric the run has (eval and epoch figures
    // on the row of their step).
    static QByteArray metricsCsv(const RunData& run);
    // What the run was: its resolved settings (ranks, batch, effective batch, LR rule,
    // effective LR, optimizer and every other key), its name and outcome, as JSON.
    static QByteArray settingsJson(const RunData& run, const QString& label);
    // What one chart draws, as data: one row per point of each run's line (run, series, the
    // four x axes, value), every point, not the few a screen's width shows.
    static QByteArray chartCsv(const ChartDefinition& chart, const QList<DisplayedRun>& runs);
    static bool exportChartCsv(const ChartDefinition& chart, const QList<DisplayedRun>& runs, const QString& path, QString* error);
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
