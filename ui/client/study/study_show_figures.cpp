// SPDX-License-Identifier: GPL-3.0-or-later
// What a study's charts can draw besides its axes: the figures of
// a run's resolved config an x can be, and the figures curves against epochs can draw.

#include "study_show_figures.hpp"

#include "client/study/study_spec.hpp"
#include "client/wire.hpp"

namespace ddplab::ui {

const QList<ResolvedFigure>& resolvedFigures()
{
    static const QList<ResolvedFigure> figures{
        {wire(field::kWeightDecayTimescale), QStringLiteral("weight decay timescale τ (epochs)")},
        {wire(field::kWeightDecayEffective), QStringLiteral("applied weight decay")},
        {wire(field::kLrEffective), QStringLiteral("applied learning rate")},
    };
    return figures;
}

const ResolvedFigure* findResolvedFigure(const QString& name)
{
    for (const ResolvedFigure& figure : resolvedFigures()) {
        if (figure.name == name)
            return &figure;
    }
    return nullptr;
}

QStringList curveFigures()
{
    return {wire(field::kTrainLoss), wire(field::kTrainAccuracy), wire(field::kValLoss), wire(field::kValAccuracy),
            wire(field::kLoss), wire(field::kAccuracy)};
}

}  // namespace ddplab::ui
