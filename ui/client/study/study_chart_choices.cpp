// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_chart_choices.hpp"

#include "client/study/study_axis_text.hpp"
#include "client/study/study_figures.hpp"
#include "client/wire.hpp"

namespace ddplab::ui {

StudyChartChoices defaultChartChoices(const StoredStudy& study)
{
    StudyChartChoices choices;
    const StudySpec& spec = study.spec;
    choices.figure = !spec.figure.isEmpty() ? spec.figure
                     : spec.target.isSet()  ? kStepsToTargetFigure
                                            : wire(field::kLoss);
    choices.summary = spec.figureSummary;
    choices.colourBy = spec.colourBy;
    if (choices.colourBy.isEmpty()) {
        // The first axis that is neither the x nor the learning rate.
        const StudyXAxis axis = studyXAxis(study);
        for (const StudyAxis& candidate : spec.axes) {
            if (candidate.key != axis.key && candidate.key != wire(key::kLr) && candidate.key != kEffectiveBatchAxis) {
                choices.colourBy = candidate.key;
                break;
            }
        }
    }
    choices.heatmap = spec.heatmap;
    if (choices.heatmap.isEmpty() && spec.axis(wire(key::kLr))) {
        for (const StudyAxis& candidate : spec.axes) {
            if (candidate.key != wire(key::kLr) && candidate.values.size() > 1) {
                choices.heatmap = {candidate.key, wire(key::kLr)};
                break;
            }
        }
    }
    return choices;
}

QString colouredLabel(const QString& colourBy, const QString& value)
{
    return colourBy.isEmpty() || value.isEmpty() ? value : QStringLiteral("%1 %2").arg(axisLabel(colourBy), value);
}

QString bestSettingKey(const StudySpec& spec)
{
    return spec.best.isEmpty() ? QString(wire(key::kLr)) : spec.best;
}

std::optional<StudyXAxis> bestSettingAxis(const StoredStudy& study)
{
    const StudyXAxis axis = studyXAxis(study);
    const StudyXAxis settingAxis = axis.resolved() ? batchOrFirstAxis(study) : axis;
    const StudyAxis* setting = study.spec.axis(bestSettingKey(study.spec));
    if (!setting || setting->values.size() < 2 || settingAxis.key == setting->key)
        return std::nullopt;
    return settingAxis;
}

QString bestSettingColourBy(const StudyXAxis& axis, const StudyChartChoices& choices)
{
    const bool splitsTheBatch = axis.key == kEffectiveBatchAxis &&
                                (choices.colourBy == wire(key::kWorldSize) || choices.colourBy == wire(key::kBatchSize));
    return choices.colourBy == axis.key || splitsTheBatch ? QString() : choices.colourBy;
}

}  // namespace ddplab::ui
