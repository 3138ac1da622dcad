// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The findings a study's charts do not draw, in words beside the ones they do
// (study_findings.hpp gathers both): its axes of words (a rule, a schedule, warmup on and off)
// head to head, value by value; where each figure the charts do not show was best; and runs
// that evaluate far worse than they train.

#include "client/study/study_chart_choices.hpp"
#include "client/study/study_finding.hpp"

#include <QList>

namespace ddplab::ui {

// For each axis of words, at each combination of the other axes: `figureId` at each value, mean
// ± standard error over repeats, and which is best, with a caution where that is within noise.
void headToHeadFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const QString& figureId,
                        FigureSummary summary, QList<StudyFinding>* findings);
// Each summarised figure other than the charted one: where it was best.
void otherFigureFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                         QList<StudyFinding>* findings);
// Finished runs whose eval-mode training-set loss is over twice their mini-batch loss: one
// finding with the BatchNorm caution; nothing where there are none.
void evalModeFinding(const QList<StudyRunResult>& results, QList<StudyFinding>* findings);

}  // namespace ddplab::ui
