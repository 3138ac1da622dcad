// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_plan.hpp"

#include "client/io/json_text.hpp"
#include "client/library/preset_file.hpp"
#include "client/study/study_axis_text.hpp"
#include "client/wire.hpp"
#include "core/config_keys.hpp"
#include "core/limits.hpp"

#include <QJsonDocument>

namespace ddplab::ui {
namespace {

const QString kRepeatField = QStringLiteral("repeat");
const QString kIndexField = QStringLiteral("point");
const QString kValuesField = QStringLiteral("values");
const QString kConfigField = QStringLiteral("config");

QString valueText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 6);
    return jsonText(value);
}

// One dimension of the product: a lone axis, or a zipped group advancing together.
struct Dimension {
    QList<const StudyAxis*> axes;
    qsizetype size() const { return axes.first()->values.size(); }
};

QList<Dimension> dimensionsOf(const StudySpec& spec)
{
    QList<Dimension> dimensions;
    QStringList placed;
    for (const StudyAxis& axis : spec.axes) {
        if (placed.contains(axis.key))
            continue;
        Dimension dimension;
        for (const QStringList& group : spec.zips) {
            if (group.contains(axis.key)) {
                for (const QString& key : group)
                    dimension.axes.append(spec.axis(key));
            }
        }
        if (dimension.axes.isEmpty())
            dimension.axes.append(&axis);
        for (const StudyAxis* member : dimension.axes)
            placed.append(member->key);
        dimensions.append(dimension);
    }
    return dimensions;
}

// Sets the point's values into its config; false (with `error`) when the batch cannot be split.
bool apply(const StudySpec& spec, StudyPoint& point, QString* error)
{
    point.config = spec.base;
    for (auto it = point.values.begin(); it != point.values.end(); ++it) {
        if (it.key() != kEffectiveBatchAxis) {
            point.config.insert(it.key(), it.value());
            continue;
        }
        const BatchSplitResult split = splitEffectiveBatch(it.value().toInteger(), *spec.axis(kEffectiveBatchAxis), spec.base);
        if (!split.error.isEmpty()) {
            *error = split.error;
            return false;
        }
        point.config.insert(wire(key::kWorldSize), split.worldSize);
        point.config.insert(wire(key::kBatchSize), split.batchSize);
    }
    if (spec.target.stop) {
        // The engine stops on the measure the study reads its steps from.
        point.config.insert(wire(key::kStopAtLoss), spec.target.value);
        point.config.insert(wire(key::kStopMeasure), spec.target.measure()->stopMeasure);
    }
    if (point.repeat > 0) {
        const qint64 seed = point.config.value(wire(key::kSeed)).toInteger(0) + point.repeat;
        point.config.insert(wire(key::kSeed), seed);
    }
    return true;
}

// Leaves out of `values` each conditional axis that does not apply there (and, in turn, axes
// whose condition named one left out). False when the combination is one already planned: an
// axis left out at any but its first value makes the same run again.
bool leaveOutInapplicableAxes(const StudySpec& spec, const QList<Dimension>& dimensions, const QList<qsizetype>& at,
                              QJsonObject& values)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (qsizetype d = 0; d < dimensions.size(); ++d) {
            const StudyAxis* axis = dimensions[d].axes.first();  // a conditional axis is never zipped
            if (axis->when.isEmpty() || !values.contains(axis->key) || conditionsHold(axis->when, values))
                continue;
            if (at[d] != 0)
                return false;
            values.remove(axis->key);
            changed = true;
        }
    }
    return true;
}

// "momentum only where optimizer is sgd"
QString conditionsText(const StudySpec& spec)
{
    QStringList parts;
    for (const StudyAxis& axis : spec.axes) {
        QStringList conditions;
        for (const AxisCondition& condition : axis.when) {
            QStringList values;
            for (const QJsonValue& value : condition.values)
                values.append(valueText(value));
            conditions.append(QStringLiteral("%1 is %2").arg(condition.key, values.join(QStringLiteral(" or "))));
        }
        if (!conditions.isEmpty())
            parts.append(QStringLiteral("%1 only where %2").arg(axis.key, conditions.join(QStringLiteral(" and "))));
    }
    return parts.join(QStringLiteral("; "));
}

}  // namespace

QString StudyPoint::label() const
{
    QStringList parts;
    for (auto it = values.begin(); it != values.end(); ++it)
        parts.append(QStringLiteral("%1 %2").arg(it.key(), valueText(it.value())));
    if (repeat > 0)
        parts.append(QStringLiteral("repeat %1").arg(repeat + 1));
    return parts.join(QStringLiteral(" · "));
}

QString StudyPoint::displayLabel() const
{
    QStringList parts;
    for (auto it = values.begin(); it != values.end(); ++it)
        parts.append(QStringLiteral("%1 %2").arg(axisLabel(it.key()), valueText(it.value())));
    if (repeat > 0)
        parts.append(QStringLiteral("repeat %1").arg(repeat + 1));
    return parts.join(QStringLiteral(" · "));
}

BatchSplitResult splitEffectiveBatch(qint64 effectiveBatch, const StudyAxis& axis, const QJsonObject& base)
{
    BatchSplitResult result;
    QString error;
    const std::optional<Config> config = coreConfigOf(base, &error);
    if (!config) {
        result.error = error;
        return result;
    }
    const qint64 accumulation = config->gradAccum;
    if (effectiveBatch % accumulation != 0) {
        result.error = QStringLiteral("effective batch %1 does not divide by grad_accum %2").arg(effectiveBatch).arg(accumulation);
        return result;
    }
    const qint64 perStep = effectiveBatch / accumulation;  // ranks x batch per GPU
    qint64 ranks = 1;
    switch (axis.split) {
    case BatchSplit::RanksFirst:
        ranks = std::clamp<qint64>(perStep / config->batchSize, 1, axis.maxRanks);
        while (perStep % ranks != 0)
            --ranks;
        break;
    case BatchSplit::BatchFirst: {
        qint64 batch = std::min<qint64>(axis.maxBatch, perStep);
        while (perStep % batch != 0)
            --batch;
        ranks = perStep / batch;
        break;
    }
    case BatchSplit::FixedRanks:
        ranks = config->worldSize;
        if (perStep % ranks != 0) {
            result.error = QStringLiteral("effective batch %1 does not split evenly over %2 ranks").arg(effectiveBatch).arg(ranks);
            return result;
        }
        break;
    }
    if (ranks > limits::kMaxRanks) {
        result.error = QStringLiteral("effective batch %1 would need %2 ranks (at most %3): raise max_batch").arg(effectiveBatch).arg(ranks).arg(limits::kMaxRanks);
        return result;
    }
    result.worldSize = ranks;
    result.batchSize = perStep / ranks;
    return result;
}

StudyPlan planStudy(const StudySpec& spec)
{
    StudyPlan plan;
    plan.trainedShare = spec.target.stop ? spec.target.trainedShare : 0.0;
    const QList<Dimension> dimensions = dimensionsOf(spec);
    qint64 combinations = 1;
    QStringList sizes;
    for (const Dimension& dimension : dimensions) {
        combinations *= dimension.size();
        sizes.append(QString::number(dimension.size()));
        if (combinations * spec.repeats > studyLimits::kMaxRuns) {
            plan.error = QStringLiteral("the study \"%1\" would make more than %2 runs; narrow its axes")
                             .arg(spec.title.isEmpty() ? spec.id : spec.title)
                             .arg(studyLimits::kMaxRuns);
            return plan;
        }
    }

    // The first dimension outermost, repeats innermost: a point's seeds run one after another.
    QList<qsizetype> at(dimensions.size(), 0);
    const QString origin = spec.title.isEmpty() ? spec.id : spec.title;
    QSet<QString> matteredSomewhere;
    for (qint64 combination = 0; combination < combinations; ++combination) {
        qint64 rest = combination;
        for (qsizetype d = dimensions.size() - 1; d >= 0; --d) {
            at[d] = rest % dimensions[d].size();
            rest /= dimensions[d].size();
        }
        QJsonObject values;
        for (qsizetype d = 0; d < dimensions.size(); ++d) {
            for (const StudyAxis* axis : dimensions[d].axes)
                values.insert(axis->key, axis->values.at(at[d]));
        }
        if (!leaveOutInapplicableAxes(spec, dimensions, at, values))
            continue;
        ++plan.combinations;
        for (int repeat = 0; repeat < spec.repeats; ++repeat) {
            StudyPoint point;
            point.index = int(plan.points.size());
            point.repeat = repeat;
            point.values = values;
            const QString where = QStringLiteral("%1, run %2 (%3)").arg(origin).arg(point.index + 1).arg(point.label());
            QString error;
            if (!apply(spec, point, &error)) {
                plan.error = QStringLiteral("%1: %2").arg(where, error);
                return plan;
            }
            const QString problem = presetProblem(point.config, where);
            if (!problem.isEmpty()) {
                // A bad value's message names the key but not the run: say which combination.
                plan.error = problem.startsWith(where) ? problem : QStringLiteral("%1: %2").arg(where, problem);
                return plan;
            }
            const std::optional<Config> parsed = coreConfigOf(point.config);
            for (auto it = point.values.begin(); it != point.values.end(); ++it) {
                const ConfigKey* key = findConfigKey(it.key().toStdString());
                if (!key || key->mattersFor(*parsed))
                    matteredSomewhere.insert(it.key());
            }
            plan.points.append(point);
        }
    }
    plan.shape = sizes.join(QStringLiteral(" × ")) + (dimensions.size() > 1 ? QStringLiteral(" combinations") : QStringLiteral(" values"));
    if (plan.combinations < combinations)
        plan.shape = QStringLiteral("%1 combinations of %2 (%3)").arg(plan.combinations).arg(sizes.join(QStringLiteral(" × ")), conditionsText(spec));
    if (spec.repeats > 1)
        plan.shape += QStringLiteral(" × %1 repeats").arg(spec.repeats);
    // An axis on a key that changes nothing with these settings (momentum for Adam, dim for
    // the toy problem) would make identical runs that look like a finding.
    for (const StudyAxis& axis : spec.axes) {
        if (!matteredSomewhere.contains(axis.key)) {
            const QJsonObject& first = plan.points.first().config;
            plan.error = QStringLiteral("%1: the axis \"%2\" changes nothing with these settings (workload %3, optimizer %4): "
                                        "remove it, or choose a key that matters for them")
                             .arg(origin, axis.key, first.value(wire(key::kWorkload)).toString(wire(choice::workload::kToy)),
                                  first.value(wire(key::kOptimizer)).toString(wire(choice::optimizer::kSgd)));
            plan.points.clear();
            return plan;
        }
    }
    return plan;
}

QJsonArray planToJson(const QList<StudyPoint>& points)
{
    QJsonArray array;
    for (const StudyPoint& point : points) {
        array.append(QJsonObject{{kIndexField, point.index},
                                 {kRepeatField, point.repeat},
                                 {kValuesField, point.values},
                                 {kConfigField, point.config}});
    }
    return array;
}

QList<StudyPoint> planFromJson(const QJsonArray& array, QString* error)
{
    QList<StudyPoint> points;
    for (const QJsonValue& entry : array) {
        const QJsonObject object = entry.toObject();
        if (!object.value(kConfigField).isObject() || object.value(kIndexField).toInt(-1) != points.size()) {
            if (error)
                *error = QStringLiteral("point %1 of the plan is damaged").arg(points.size() + 1);
            return {};
        }
        StudyPoint point;
        point.index = object.value(kIndexField).toInt();
        point.repeat = object.value(kRepeatField).toInt();
        point.values = object.value(kValuesField).toObject();
        point.config = object.value(kConfigField).toObject();
        points.append(point);
    }
    return points;
}

}  // namespace ddplab::ui
