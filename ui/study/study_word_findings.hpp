// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The findings a study's charts do not draw, in words beside the ones they do (study_charts.hpp
// gathers both): its axes of words (a rule, a schedule, warmup on and off) head to head, value by
// value; where each figure the charts do not show was best; and runs that evaluate far worse
// than they train. Also how every finding writes its numbers and keeps its cautions.

#include "study/study_charts.hpp"

#include <initializer_list>

namespace ddplab::ui {

// A figure as findings print it: `digits` significant digits, floating-point rounding noise
// (a difference of equal figures, -1e-32) as 0.
QString findingNumber(double value, int digits = 3);
// The cautions that say something: empty texts left out.
QStringList cautionsThatSay(std::initializer_list<QString> texts);

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
