// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a study's charts and findings are about, as the Study page chooses it (the figure, how a
// series figure is summed up, the colour axis, the heatmap's two axes), its defaults from the
// study, and the choices both the best-setting chart and its findings make the same way.

#include "client/study/figure_summary.hpp"
#include "client/study/study_results.hpp"

#include <QString>
#include <QStringList>

#include <optional>

namespace ddplab::ui {

struct StudyChartChoices {
    QString figure;       // a StudyFigure id
    FigureSummary summary = FigureSummary::LastEpochMean;  // how a series figure is summed up
    QString colourBy;     // an axis, or "" for none
    QStringList heatmap;  // {columns, rows}, or empty for none
};
StudyChartChoices defaultChartChoices(const StoredStudy& study);

// "GPUs (ranks) 4": a line's label from its colour axis and value; the value alone without an axis.
QString colouredLabel(const QString& colourBy, const QString& value);

// The axis whose best value the best-setting chart draws: the study's `best`, else the LR.
QString bestSettingKey(const StudySpec& spec);
// What the best setting is drawn against: the batch even where the study's x is a resolved
// figure (the best λ against B); none where the setting has one value or is that x itself.
std::optional<StudyXAxis> bestSettingAxis(const StoredStudy& study);
// The best-setting chart's colour axis: none where the chosen one is its x, or only splits the
// batch into ranks x batch per rank (a study whose one batch axis is world_size), else each
// colour would hold one batch and fit nothing.
QString bestSettingColourBy(const StudyXAxis& axis, const StudyChartChoices& choices);

}  // namespace ddplab::ui
