// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_line.hpp"

#include "client/wire.hpp"

namespace ddplab::ui {
namespace {

// A step's own mini-batch figures, measured before its update.
bool measuredBeforeTheStep(const QString& metric)
{
    return metric == wire(field::kLoss) || metric == wire(field::kAccuracy);
}

}  // namespace

const QList<QPointF>& ChartLine::points(XAxis axis) const
{
    const bool whereItBegan = measuredBeforeTheStep(metric.name) && (axis == XAxis::SamplesSeen || axis == XAxis::Epoch);
    if (!whereItBegan)
        return run->series(metric.name, axis);
    const QList<QPointF>& bySteps = run->series(metric.name, XAxis::Step);
    if (beforeStepAxis != axis || bySteps.size() < beforeStep.size()) {
        beforeStep.clear();
        beforeStepAxis = axis;
    }
    beforeStep.reserve(bySteps.size());
    for (qsizetype i = beforeStep.size(); i < bySteps.size(); ++i)
        beforeStep.append(QPointF(run->xAt(qint64(bySteps.at(i).x()) - 1, axis), bySteps.at(i).y()));
    return beforeStep;
}

}  // namespace ddplab::ui
