// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a study's page and its exports draw, made from its results: the chosen figure against
// the effective batch (mean ± standard error over repeats, a line per value of the colour axis,
// fitted log-log slopes); steps and samples to the target with McCandlish's fit, its critical
// batch and the measured B_simple; the best learning rate against the batch with the linear
// and square-root slopes; and the figure over two axes. Also writes them, and study.csv. The
// fits are the client's (client/study/study_results.hpp), and so are the findings in words
// beside the charts (client/study/study_findings.hpp); this only draws.

#include "client/study/study_chart_choices.hpp"
#include "client/study/study_finding.hpp"
#include "client/study/study_results.hpp"
#include "plots/image_writer.hpp"
#include "plots/study_heatmap.hpp"
#include "plots/study_plot.hpp"

#include <QList>
#include <QSize>
#include <QStringList>

namespace ddplab::ui {

struct StudyCharts {
    // In order: the figure, steps to target, samples to target, the best LR (or the study's
    // `best` axis), then the `curves` figure against epochs, one chart per colour.
    QList<PlotSpec> plots;
    QList<HeatmapSpec> heatmaps;
    QString provisional;    // while runs are missing, says that every finding will change
    QList<StudyFinding> findings;  // studyFindings(): the client's
    // The provisional note, then each finding's line: findings.txt and the headless output.
    QStringList findingLines() const;
};
StudyCharts buildStudyCharts(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices);

// Every chart as <id>.png and <id>.svg, study.csv and findings.txt into `directory`; returns the
// files written, or stops at the first failure with `error` set.
QStringList exportStudy(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyCharts& charts,
                        const QString& directory, QSize imageSize, double scale, QString* error);
// As above at `format`; a slide (format.slide) sizes the words by the image's height as the live
// charts' slides do (30 px at 1080: kSlideTextPixels) and heads each chart with the study's title.
QStringList exportStudy(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyCharts& charts,
                        const QString& directory, const ImageFormat& format, QString* error);
// The drawing scale at which a study chart's smallest words are `pixels` high.
double studyScaleForTextPixels(double pixels);

}  // namespace ddplab::ui
