// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The table of a study's figures (study_figures.cpp): what each final figure is called, which
// way is better, whether its axis is logarithmic, and how it is read from a run's result.

#include "client/study/figure_summary.hpp"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace ddplab::ui {

// A run's result, read by each figure's `value` (study_run_result.hpp).
struct StudyRunResult;

// The figures that aren't an engine field of their own (study.csv's columns of the same name).
inline const QString kStepsToTargetFigure = QStringLiteral("steps_to_target");
inline const QString kSamplesToTargetFigure = QStringLiteral("samples_to_target");

struct StudyFigure {
    QString id;     // "loss", "steps_to_target", ...
    QString title;  // "loss"
    bool lowerIsBetter = true;
    bool logScale = false;
    // NaN where the run has none; a summarised figure's under the default summary (the mean of
    // the last epoch): StudyRunResult::figure picks the others.
    double (*value)(const StudyRunResult& result) = nullptr;
    bool summarised = false;  // a series the study sums up as it is told (figure_summary.hpp)
    // "validation loss (best value)": the title with the summary, where it applies.
    QString titleFor(FigureSummary summary) const;
};
const QList<StudyFigure>& studyFigures();
const StudyFigure* findStudyFigure(const QString& id);

// The figures a study's runs can have, told from their settings alone (before any has run):
// accuracies for classifiers, validation figures where there is a validation set, the update
// variance with experiments >= 2, the noise scale with 2 ranks or more, the weight for the toy
// problem, the figures to a target when the study has one. `configs`: its points' presets.
QStringList figuresThatApply(const QList<QJsonObject>& configs, bool hasTarget);

}  // namespace ddplab::ui
