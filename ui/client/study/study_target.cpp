// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_target.hpp"

#include "client/study/study_fields.hpp"

#include "client/wire.hpp"

namespace ddplab::ui {

const QList<TargetMeasure>& targetMeasures()
{
    namespace measure = choice::stop_measure;
    static const QList<TargetMeasure> measures{
        {wire(field::kTrainLoss), wire(field::kTrainLoss), QStringLiteral("loss over the training set (noise-free)"), true, false,
         wire(measure::kTrainLoss)},
        {wire(field::kTrainAccuracy), wire(field::kTrainAccuracy), QStringLiteral("accuracy over the training set (noise-free)"), false,
         false, QString()},
        {wire(field::kValLoss), wire(field::kValLoss), QStringLiteral("validation loss"), true, false, wire(measure::kValLoss)},
        {wire(field::kValAccuracy), wire(field::kValAccuracy), QStringLiteral("validation accuracy"), false, false, QString()},
        {wire(measure::kBatchLoss), wire(field::kLoss), QStringLiteral("the step's mini-batch loss (noisy)"), true, true,
         wire(measure::kBatchLoss)},
        {studyField::kBatchAccuracy, wire(field::kAccuracy), QStringLiteral("the step's mini-batch accuracy (noisy)"), false, true,
         QString()},
    };
    return measures;
}

const TargetMeasure* findTargetMeasure(const QString& name)
{
    // A file's "loss" meant the loss before there was a choice: now the noise-free one.
    const QString canonical = name == wire(field::kLoss)       ? wire(field::kTrainLoss)
                              : name == wire(field::kAccuracy) ? wire(field::kTrainAccuracy)
                                                               : name;
    for (const TargetMeasure& measure : targetMeasures()) {
        if (measure.name == canonical)
            return &measure;
    }
    return nullptr;
}

QString StudyTarget::describe() const
{
    return isSet() ? QStringLiteral("%1 %2 %3").arg(metric, atMost ? QStringLiteral("≤") : QStringLiteral("≥")).arg(value) : QString();
}

}  // namespace ddplab::ui
