// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a study's charts can draw besides its axes (study_show_figures.cpp): the figures of a
// run's resolved config an x can be, and the figures curves against epochs can draw.

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

// A figure of a run's resolved config (its `config` event) that a study's x can be, with how a
// chart names it: the weight decay's timescale in epochs, the applied LR or weight decay.
struct ResolvedFigure {
    QString name;   // the config event's field
    QString title;  // "weight decay timescale τ (epochs)"
};
const QList<ResolvedFigure>& resolvedFigures();
const ResolvedFigure* findResolvedFigure(const QString& name);
// The figures a run measures over time, which `curves` can draw against epochs.
QStringList curveFigures();

}  // namespace ddplab::ui
