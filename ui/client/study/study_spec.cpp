// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_spec.hpp"

#include "client/study/study_fields.hpp"

#include <QJsonArray>

#include <algorithm>

namespace ddplab::ui {
namespace {

namespace name = studyField;

}  // namespace

bool sameAxisValue(const QJsonValue& a, const QJsonValue& b)
{
    return a.isDouble() && b.isDouble() ? a.toDouble() == b.toDouble() : a == b;
}

bool conditionsHold(const QList<AxisCondition>& conditions, const QJsonObject& values)
{
    return std::all_of(conditions.begin(), conditions.end(), [&](const AxisCondition& condition) {
        const QJsonValue value = values.value(condition.key);
        return std::any_of(condition.values.begin(), condition.values.end(),
                           [&](const QJsonValue& wanted) { return !value.isUndefined() && sameAxisValue(value, wanted); });
    });
}

const StudyAxis* StudySpec::axis(const QString& key) const
{
    for (const StudyAxis& candidate : axes) {
        if (candidate.key == key)
            return &candidate;
    }
    return nullptr;
}

QJsonObject conditionsJson(const QList<AxisCondition>& conditions)
{
    QJsonObject object;
    for (const AxisCondition& condition : conditions) {
        QJsonArray values;
        for (const QJsonValue& value : condition.values)
            values.append(value);
        object.insert(condition.key, values);
    }
    return object;
}

QJsonObject StudySpec::toJson() const
{
    QJsonObject object;
    const auto put = [&](const QString& field, const QString& value) {
        if (!value.isEmpty())
            object.insert(field, value);
    };
    put(name::kId, id);
    put(name::kTitle, title);
    put(name::kSource, source);
    put(name::kSummary, summary);
    put(name::kLookFor, lookFor);
    object.insert(name::kBase, base);  // the preset's settings included: the folder stands alone
    QJsonArray axisList;
    for (const StudyAxis& axis : axes) {
        QJsonObject entry{{name::kKey, axis.key}};
        QJsonArray values;
        for (const QJsonValue& value : axis.values)
            values.append(value);
        entry.insert(name::kValues, values);
        if (axis.key == kEffectiveBatchAxis) {
            entry.insert(name::kSplit, kSplitNames.at(int(axis.split)));
            entry.insert(name::kMaxRanks, axis.maxRanks);
            entry.insert(name::kMaxBatch, axis.maxBatch);
        }
        if (!axis.when.isEmpty())
            entry.insert(name::kWhen, conditionsJson(axis.when));
        axisList.append(entry);
    }
    object.insert(name::kAxes, axisList);
    if (!zips.isEmpty()) {
        QJsonArray groups;
        for (const QStringList& group : zips)
            groups.append(QJsonArray::fromStringList(group));
        object.insert(name::kZip, groups);
    }
    object.insert(name::kRepeats, repeats);
    if (target.isSet()) {
        QJsonObject written{{name::kMetric, target.metric}, {target.atMost ? name::kAtMost : name::kAtLeast, target.value}};
        if (target.stop)
            written.insert(name::kStop, true);
        if (target.stop && target.trainedShare > 0.0)
            written.insert(name::kTrainedShare, target.trainedShare);
        object.insert(name::kTarget, written);
    }
    QJsonObject show;
    if (!figure.isEmpty())
        show.insert(name::kFigure, figure);
    if (!colourBy.isEmpty())
        show.insert(name::kColour, colourBy);
    if (!heatmap.isEmpty())
        show.insert(name::kHeatmap, QJsonArray::fromStringList(heatmap));
    if (figureSummary != FigureSummary::LastEpochMean)
        show.insert(name::kSummarise, summaryName(figureSummary));
    for (const auto& [field, value] : {std::pair{name::kX, x}, std::pair{name::kCurves, curves}, std::pair{name::kBest, best}}) {
        if (!value.isEmpty())
            show.insert(field, value);
    }
    if (!show.isEmpty())
        object.insert(name::kShow, show);
    return object;
}

}  // namespace ddplab::ui
