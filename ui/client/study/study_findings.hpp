// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a study found, in words, in the order findings.txt and the Study page list it: the
// charted figure against the x (its fitted log-log slopes, or where each line starts and ends),
// the axes of words head to head, the other figures, runs that evaluate far worse than they
// train (study_word_findings.hpp); with a target, the critical batch from McCandlish's fit
// against the measured B_simple and Zhang et al.'s excess steps; the best setting's exponent.
// The study charts (ui/study/study_charts.cpp) draw the same fits; nothing here draws.

#include "client/study/study_chart_choices.hpp"
#include "client/study/study_finding.hpp"

#include <QList>

namespace ddplab::ui {

QList<StudyFinding> studyFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices);

// A line of the figure chart fitted as a power law of x through its means (on log-log axes).
PowerLawFit figureLineFit(const StudySeries& line);
// "label: log-log slope 0.52", as the chart's note and the finding both say it.
QString slopeText(const QString& label, const PowerLawFit& fit);

}  // namespace ddplab::ui
