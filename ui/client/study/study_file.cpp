// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_file.hpp"

#include "client/study/study_fields.hpp"
#include "client/study/study_results.hpp"
#include "client/study/study_show_figures.hpp"

#include "client/io/json_text.hpp"
#include "client/io/read_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/wire.hpp"
#include "core/config_keys.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

namespace name = studyField;

// Thrown inside the reader; parseStudy turns it into the result's error.
struct StudyError {
    QString message;
};

[[noreturn]] void refuse(const QString& message)
{
    throw StudyError{message};
}

void onlyFields(const QJsonObject& object, const QStringList& allowed, const QString& where)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!allowed.contains(it.key()))
            refuse(QStringLiteral("%1: unknown field \"%2\" (allowed: %3)").arg(where, it.key(), allowed.join(QStringLiteral(", "))));
    }
}

QString text(const QJsonObject& object, const QString& field, const QString& where)
{
    const QJsonValue value = object.value(field);
    if (value.isUndefined())
        return QString();
    if (!value.isString())
        refuse(QStringLiteral("%1: \"%2\" must be text").arg(where, field));
    return value.toString();
}

// Why `name` cannot be a study's key: set by the lab itself for every run (the events file),
// or no key at all, with the key it may be a typo of (never itself, never one the lab sets).
QString notAStudyKey(const QString& name)
{
    const ConfigKey* key = findConfigKey(name.toStdString());
    if (key && key->hidden)
        return QStringLiteral("\"%1\" is set by the lab for every run, not by a study").arg(name);
    const std::string suggestion = suggestKey(name.toStdString());
    const ConfigKey* suggested = suggestion.empty() ? nullptr : findConfigKey(suggestion);
    if (!suggested || suggested->hidden || suggestion == name.toStdString())
        return QStringLiteral("\"%1\" is no config key").arg(name);
    return QStringLiteral("\"%1\" is no config key; did you mean \"%2\"?").arg(name, QString::fromStdString(suggestion));
}

double number(const QJsonObject& object, const QString& field, const QString& where)
{
    const QJsonValue value = object.value(field);
    if (!value.isDouble() || !std::isfinite(value.toDouble()))
        refuse(QStringLiteral("%1: \"%2\" must be a finite number").arg(where, field));
    return value.toDouble();
}

// 0.1 + 0.2 stays 0.3 in the file and in the runs' names.
double tidy(double value)
{
    return QString::number(value, 'g', 12).toDouble();
}

QList<double> rangeValues(const QJsonObject& axis, const QString& where)
{
    const double from = number(axis, name::kFrom, where);
    const double to = number(axis, name::kTo, where);
    if (to < from)
        refuse(QStringLiteral("%1: \"to\" (%2) is below \"from\" (%3)").arg(where).arg(to).arg(from));
    const int stepsGiven = int(axis.contains(name::kFactor)) + int(axis.contains(name::kStep)) + int(axis.contains(name::kCount));
    if (stepsGiven != 1)
        refuse(QStringLiteral("%1: a range needs exactly one of \"factor\" (log-spaced), \"step\" (evenly spaced) or \"count\"").arg(where));
    QList<double> values;
    const auto add = [&](double value) {
        if (values.size() >= studyLimits::kMaxValuesPerAxis)
            refuse(QStringLiteral("%1: more than %2 values").arg(where).arg(studyLimits::kMaxValuesPerAxis));
        values.append(tidy(value));
    };
    const double slack = 1e-9 * std::max(std::fabs(from), std::fabs(to));
    if (axis.contains(name::kFactor)) {
        const double factor = number(axis, name::kFactor, where);
        if (!(factor > 1.0) || !(from > 0.0))
            refuse(QStringLiteral("%1: a log-spaced range needs \"from\" > 0 and \"factor\" > 1").arg(where));
        for (int k = 0; from * std::pow(factor, k) <= to + slack; ++k)
            add(from * std::pow(factor, k));
    } else if (axis.contains(name::kStep)) {
        const double step = number(axis, name::kStep, where);
        if (!(step > 0.0))
            refuse(QStringLiteral("%1: \"step\" must be > 0").arg(where));
        for (int k = 0; from + k * step <= to + slack; ++k)
            add(from + k * step);
    } else {
        const double count = number(axis, name::kCount, where);
        if (count < 2 || count != std::floor(count) || count > studyLimits::kMaxValuesPerAxis)
            refuse(QStringLiteral("%1: \"count\" must be a whole number from 2 to %2").arg(where).arg(studyLimits::kMaxValuesPerAxis));
        const QString scale = text(axis, name::kScale, where);
        if (!scale.isEmpty() && scale != QLatin1String("linear") && scale != QLatin1String("log"))
            refuse(QStringLiteral("%1: \"scale\" must be \"linear\" or \"log\"").arg(where));
        const bool log = scale == QLatin1String("log");
        if (log && !(from > 0.0))
            refuse(QStringLiteral("%1: a log scale needs \"from\" > 0").arg(where));
        for (int k = 0; k < int(count); ++k) {
            const double share = double(k) / (count - 1);
            add(log ? from * std::pow(to / from, share) : from + (to - from) * share);
        }
    }
    return values;
}

// "when": {"optimizer": ["sgd", "lars"]} (or one value alone): the axes and values it applies at.
// Whether those are axes of the study, with such values, is checked once every axis is read.
QList<AxisCondition> readConditions(const QJsonValue& value, const QString& where)
{
    if (value.isUndefined())
        return {};
    const QString example = QStringLiteral("like {\"optimizer\": [\"sgd\"]}");
    if (!value.isObject() || value.toObject().isEmpty())
        refuse(QStringLiteral("%1: \"when\" must name another axis and the values this one applies at, %2").arg(where, example));
    QList<AxisCondition> conditions;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        AxisCondition condition{it.key(), {}};
        const QJsonArray values = it.value().isArray() ? it.value().toArray() : QJsonArray{it.value()};
        for (const QJsonValue& entry : values) {
            if (entry.isArray() || entry.isObject() || entry.isNull())
                refuse(QStringLiteral("%1: \"when\": \"%2\" needs a value or a list of values, %3").arg(where, it.key(), example));
            condition.values.append(entry);
        }
        if (condition.values.isEmpty())
            refuse(QStringLiteral("%1: \"when\": \"%2\" lists no values, so the axis would apply nowhere").arg(where, it.key()));
        conditions.append(condition);
    }
    return conditions;
}

// Each condition names another axis of the study and values that axis has; a conditional
// axis advances on its own (a zipped group advances as one, whatever the condition says).
void checkConditions(const StudySpec& spec, const QString& origin)
{
    for (const StudyAxis& axis : spec.axes) {
        const QString where = QStringLiteral("%1: axis \"%2\": \"when\"").arg(origin, axis.key);
        for (const AxisCondition& condition : axis.when) {
            const StudyAxis* other = spec.axis(condition.key);
            if (condition.key == axis.key || !other)
                refuse(QStringLiteral("%1: \"%2\" is not another axis of the study").arg(where, condition.key));
            for (const QJsonValue& value : condition.values) {
                if (!std::any_of(other->values.begin(), other->values.end(), [&](const QJsonValue& v) { return sameAxisValue(v, value); }))
                    refuse(QStringLiteral("%1: the axis \"%2\" has no value %3").arg(where, condition.key, jsonText(value)));
            }
        }
        if (!axis.when.isEmpty()) {
            for (const QStringList& group : spec.zips) {
                if (group.contains(axis.key))
                    refuse(QStringLiteral("%1: a zipped axis cannot have a condition of its own").arg(where));
            }
        }
    }
}

StudyAxis readAxis(const QJsonValue& value, int index, const QString& origin)
{
    const QString where = QStringLiteral("%1: axis %2").arg(origin).arg(index + 1);
    if (!value.isObject())
        refuse(QStringLiteral("%1 must be an object like {\"key\": \"lr\", \"values\": [0.001, 0.01]}").arg(where));
    const QJsonObject object = value.toObject();
    StudyAxis axis;
    axis.key = text(object, name::kKey, where);
    if (axis.key.isEmpty())
        refuse(QStringLiteral("%1 names no \"key\" (a config key, or \"effective_batch\")").arg(where));
    const QString named = QStringLiteral("%1 (\"%2\")").arg(where, axis.key);
    const bool effectiveBatch = axis.key == kEffectiveBatchAxis;
    const ConfigKey* key = effectiveBatch ? nullptr : findConfigKey(axis.key.toStdString());
    if (!effectiveBatch && (!key || key->hidden))
        refuse(QStringLiteral("%1: %2 (docs/configuration.md lists the keys; \"effective_batch\" sets ranks and batch together)")
                   .arg(where, notAStudyKey(axis.key)));
    QStringList fields{name::kKey, name::kValues, name::kFrom, name::kTo, name::kFactor, name::kStep, name::kCount, name::kScale, name::kWhen};
    if (effectiveBatch)
        fields << name::kSplit << name::kMaxRanks << name::kMaxBatch;
    onlyFields(object, fields, named);

    if (object.contains(name::kValues)) {
        if (object.contains(name::kFrom) || object.contains(name::kTo))
            refuse(QStringLiteral("%1: give \"values\" or a range (\"from\", \"to\"), not both").arg(named));
        if (!object.value(name::kValues).isArray())
            refuse(QStringLiteral("%1: \"values\" must be a list").arg(named));
        const QJsonArray values = object.value(name::kValues).toArray();
        if (values.size() > studyLimits::kMaxValuesPerAxis)
            refuse(QStringLiteral("%1: more than %2 values").arg(named).arg(studyLimits::kMaxValuesPerAxis));
        for (const QJsonValue& entry : values) {
            if (entry.isArray() || entry.isObject() || entry.isUndefined())
                refuse(QStringLiteral("%1: each value must be a number, text, true/false or null").arg(named));
            axis.values.append(entry);
        }
    } else if (object.contains(name::kFrom) || object.contains(name::kTo)) {
        for (double entry : rangeValues(object, named))
            axis.values.append(entry);
    }
    if (axis.values.isEmpty())
        refuse(QStringLiteral("%1 has no values: give \"values\": [...] or a range (\"from\", \"to\" and \"factor\", \"step\" or \"count\")").arg(named));

    // Whole numbers where the key counts something.
    if (effectiveBatch || key->type == KeyType::Integer) {
        for (QJsonValue& entry : axis.values) {
            const double whole = entry.toDouble(0.5);
            if (!entry.isDouble() || whole != std::floor(whole) || whole < (effectiveBatch ? 1 : 0))
                refuse(QStringLiteral("%1: %2 is not a whole number%3")
                           .arg(named, jsonText(entry), effectiveBatch ? QStringLiteral(" of 1 or more") : QString()));
            entry = QJsonValue(qint64(whole));
        }
    }
    if (effectiveBatch) {
        const QString split = text(object, name::kSplit, named);
        if (!split.isEmpty() && !kSplitNames.contains(split))
            refuse(QStringLiteral("%1: \"split\" must be one of %2").arg(named, kSplitNames.join(QStringLiteral(", "))));
        axis.split = split.isEmpty() ? BatchSplit::RanksFirst : BatchSplit(kSplitNames.indexOf(split));
        for (const auto& [field, target] : {std::pair{name::kMaxRanks, &axis.maxRanks}, std::pair{name::kMaxBatch, &axis.maxBatch}}) {
            if (!object.contains(field))
                continue;
            const double limit = number(object, field, named);
            if (limit < 1 || limit != std::floor(limit) || limit > 1e6)
                refuse(QStringLiteral("%1: \"%2\" must be a whole number of 1 or more").arg(named, field));
            *target = int(limit);
        }
    }
    axis.when = readConditions(object.value(name::kWhen), named);
    return axis;
}

StudyTarget readTarget(const QJsonValue& value, const QString& origin)
{
    const QString where = QStringLiteral("%1: target").arg(origin);
    if (!value.isObject())
        refuse(QStringLiteral("%1 must be an object like {\"metric\": \"loss\", \"at_most\": 0.5}").arg(where));
    const QJsonObject object = value.toObject();
    onlyFields(object, {name::kMetric, name::kAtMost, name::kAtLeast, name::kStop, name::kTrainedShare}, where);
    StudyTarget target;
    const TargetMeasure* measure = findTargetMeasure(text(object, name::kMetric, where));
    if (!measure) {
        QStringList names;
        for (const TargetMeasure& known : targetMeasures())
            names.append(known.name);
        refuse(QStringLiteral("%1: \"metric\" must be one of %2 (the mini-batch ones are noisy: a small batch meets a target by "
                              "chance before the model does)")
                   .arg(where, names.join(QStringLiteral(", "))));
    }
    target.metric = measure->name;
    if (object.contains(name::kAtMost) == object.contains(name::kAtLeast))
        refuse(QStringLiteral("%1: give one of \"at_most\" (a loss) or \"at_least\" (an accuracy)").arg(where));
    target.atMost = object.contains(name::kAtMost);
    // A loss is met by going down to it, an accuracy by going up: the other way round, every
    // run would meet it at its first step.
    const bool isLoss = measure->loss;
    if (target.atMost != isLoss)
        refuse(QStringLiteral("%1: \"%2\" is %3, so its target is \"%4\", not \"%5\"")
                   .arg(where, text(object, name::kMetric, where), isLoss ? QStringLiteral("a loss") : QStringLiteral("an accuracy"),
                        isLoss ? name::kAtMost : name::kAtLeast, isLoss ? name::kAtLeast : name::kAtMost));
    target.value = number(object, target.atMost ? name::kAtMost : name::kAtLeast, where);
    if (object.contains(name::kStop)) {
        if (!object.value(name::kStop).isBool())
            refuse(QStringLiteral("%1: \"stop\" must be true or false").arg(where));
        target.stop = object.value(name::kStop).toBool();
        // The engine stops on a loss it judges itself (stop_at_loss with stop_measure).
        if (target.stop && measure->stopMeasure.isEmpty())
            refuse(QStringLiteral("%1: \"stop\" works only with a loss (%2, %3 or %4)")
                       .arg(where, wire(field::kTrainLoss), wire(field::kValLoss), wire(choice::stop_measure::kBatchLoss)));
        if (target.stop && !(target.value > 0.0))
            refuse(QStringLiteral("%1: \"stop\" needs \"at_most\" above 0").arg(where));
    }
    if (object.contains(name::kTrainedShare)) {
        // What the estimate takes before this machine has run any run with a target.
        if (!target.stop)
            refuse(QStringLiteral("%1: \"trained_share\" says how much of their steps runs that stop at the target train; it needs "
                                  "\"stop\": true").arg(where));
        target.trainedShare = number(object, name::kTrainedShare, where);
        if (!(target.trainedShare > 0.0 && target.trainedShare <= 1.0))
            refuse(QStringLiteral("%1: \"trained_share\" must be above 0 and at most 1 (the share of their steps the runs "
                                  "trained before they met the target)").arg(where));
    }
    return target;
}

QJsonObject baseOf(const QJsonObject& object, const QString& origin, QString* presetName)
{
    QJsonObject base;
    *presetName = text(object, name::kPreset, origin);
    if (!presetName->isEmpty()) {
        const PresetLibrary presets = PresetLibrary::load();
        const BuiltInPreset* preset = presets.find(*presetName);
        if (!preset)
            refuse(QStringLiteral("%1: \"preset\": there is no built-in preset \"%2\" (the Presets menu lists them)").arg(origin, *presetName));
        base = preset->config;
    }
    const QJsonValue own = object.value(name::kBase);
    if (!own.isUndefined() && !own.isObject())
        refuse(QStringLiteral("%1: \"base\" must be an object of config keys, like {\"workload\": \"linreg\"}").arg(origin));
    const QJsonObject settings = own.toObject();
    for (auto it = settings.begin(); it != settings.end(); ++it) {
        const ConfigKey* key = findConfigKey(it.key().toStdString());
        if (!key || key->hidden)
            refuse(QStringLiteral("%1: \"base\": %2").arg(origin, notAStudyKey(it.key())));
        base.insert(it.key(), it.value());
    }
    return base;
}

void readShow(const QJsonValue& value, StudySpec& spec, const QString& origin)
{
    const QString where = QStringLiteral("%1: show").arg(origin);
    if (value.isUndefined())
        return;
    if (!value.isObject())
        refuse(QStringLiteral("%1 must be an object like {\"figure\": \"update_var\", \"colour\": \"lr_rule\"}").arg(where));
    const QJsonObject object = value.toObject();
    onlyFields(object, {name::kFigure, name::kSummarise, name::kColour, name::kHeatmap, name::kX, name::kCurves, name::kBest}, where);
    spec.figure = text(object, name::kFigure, where);
    if (!spec.figure.isEmpty() && !findStudyFigure(spec.figure)) {
        QStringList figures;
        for (const StudyFigure& figure : studyFigures())
            figures.append(figure.id);
        refuse(QStringLiteral("%1: \"figure\": \"%2\" is not a figure a study charts (one of %3)")
                   .arg(where, spec.figure, figures.join(QStringLiteral(", "))));
    }
    if (object.contains(name::kSummarise)) {
        const std::optional<FigureSummary> summary = summaryNamed(text(object, name::kSummarise, where));
        if (!summary)
            refuse(QStringLiteral("%1: \"summarise\" must be one of %2").arg(where, summaryNames().join(QStringLiteral(", "))));
        spec.figureSummary = *summary;
    }
    spec.x = text(object, name::kX, where);
    if (!spec.x.isEmpty() && !spec.axis(spec.x) && spec.x != kEffectiveBatchAxis && !findResolvedFigure(spec.x)) {
        QStringList resolved;
        for (const ResolvedFigure& figure : resolvedFigures())
            resolved.append(figure.name);
        refuse(QStringLiteral("%1: \"x\": \"%2\" is neither an axis of the study nor one of effective_batch, %3")
                   .arg(where, spec.x, resolved.join(QStringLiteral(", "))));
    }
    spec.curves = text(object, name::kCurves, where);
    if (!spec.curves.isEmpty() && !curveFigures().contains(spec.curves))
        refuse(QStringLiteral("%1: \"curves\" must be one of %2").arg(where, curveFigures().join(QStringLiteral(", "))));
    spec.best = text(object, name::kBest, where);
    if (!spec.best.isEmpty()) {
        const StudyAxis* best = spec.axis(spec.best);
        if (!best || !std::all_of(best->values.begin(), best->values.end(), [](const QJsonValue& value) { return value.isDouble(); }))
            refuse(QStringLiteral("%1: \"best\": \"%2\" is not an axis of numbers of the study").arg(where, spec.best));
    }
    spec.colourBy = text(object, name::kColour, where);
    if (!spec.colourBy.isEmpty() && !spec.axis(spec.colourBy))
        refuse(QStringLiteral("%1: \"colour\": \"%2\" is not one of the study's axes").arg(where, spec.colourBy));
    if (object.contains(name::kHeatmap)) {
        const QJsonArray pair = object.value(name::kHeatmap).toArray();
        if (pair.size() != 2 || !spec.axis(pair.at(0).toString()) || !spec.axis(pair.at(1).toString()) || pair.at(0) == pair.at(1))
            refuse(QStringLiteral("%1: \"heatmap\" must name two of the study's axes, like [\"lr\", \"effective_batch\"]").arg(where));
        spec.heatmap = {pair.at(0).toString(), pair.at(1).toString()};
    }
}

void readZips(const QJsonValue& value, StudySpec& spec, const QString& origin)
{
    if (value.isUndefined())
        return;
    const QString where = QStringLiteral("%1: zip").arg(origin);
    if (!value.isArray())
        refuse(QStringLiteral("%1 must be a list of axis groups, like [[\"lr\", \"batch_size\"]]").arg(where));
    QStringList zipped;
    for (const QJsonValue& group : value.toArray()) {
        QStringList keys;
        for (const QJsonValue& key : group.toArray()) {
            const StudyAxis* axis = spec.axis(key.toString());
            if (!axis)
                refuse(QStringLiteral("%1: \"%2\" is not one of the study's axes").arg(where, key.toString()));
            if (zipped.contains(axis->key))
                refuse(QStringLiteral("%1: the axis \"%2\" is in two groups").arg(where, axis->key));
            if (!keys.isEmpty() && spec.axis(keys.first())->values.size() != axis->values.size())
                refuse(QStringLiteral("%1: \"%2\" has %3 values and \"%4\" %5: zipped axes advance together, so they need as many")
                           .arg(where, keys.first()).arg(spec.axis(keys.first())->values.size()).arg(axis->key).arg(axis->values.size()));
            keys.append(axis->key);
            zipped.append(axis->key);
        }
        if (keys.size() < 2)
            refuse(QStringLiteral("%1: a group needs two axes or more").arg(where));
        spec.zips.append(keys);
    }
}

StudySpec read(const QJsonObject& object, const QString& origin, const QString& folder)
{
    onlyFields(object, {name::kId, name::kTitle, name::kSource, name::kSummary, name::kLookFor, name::kExplanation, name::kPreset,
                        name::kBase, name::kAxes, name::kZip, name::kRepeats, name::kTarget, name::kShow},
               origin);
    StudySpec spec;
    spec.id = text(object, name::kId, origin);
    spec.title = text(object, name::kTitle, origin);
    spec.source = text(object, name::kSource, origin);
    spec.summary = text(object, name::kSummary, origin);
    spec.lookFor = text(object, name::kLookFor, origin);
    const QString explanation = text(object, name::kExplanation, origin);
    if (!explanation.isEmpty()) {
        const QString path = QDir(folder).filePath(explanation);
        QString why;
        const std::optional<QByteArray> markdown = readRegularFile(path, studyLimits::kMaxFileBytes, &why);
        if (!markdown)
            refuse(QStringLiteral("%1: \"explanation\": %2 %3").arg(origin, path, why));
        spec.explanationMarkdown = QString::fromUtf8(*markdown);
    }
    spec.base = baseOf(object, origin, &spec.preset);

    const QJsonValue axes = object.value(name::kAxes);
    if (!axes.isArray() || axes.toArray().isEmpty())
        refuse(QStringLiteral("%1: \"axes\" must be a list of one axis or more, like [{\"key\": \"lr\", \"values\": [0.001, 0.01]}]").arg(origin));
    const QJsonArray list = axes.toArray();
    for (int i = 0; i < list.size(); ++i) {
        StudyAxis axis = readAxis(list.at(i), i, origin);
        if (spec.axis(axis.key))
            refuse(QStringLiteral("%1: \"%2\" is an axis twice").arg(origin, axis.key));
        spec.axes.append(std::move(axis));
    }
    if (spec.axis(kEffectiveBatchAxis) && (spec.axis(wire(key::kBatchSize)) || spec.axis(wire(key::kWorldSize))))
        refuse(QStringLiteral("%1: \"effective_batch\" sets world_size and batch_size itself: it cannot be an axis beside either").arg(origin));
    readZips(object.value(name::kZip), spec, origin);
    checkConditions(spec, origin);

    if (object.contains(name::kRepeats)) {
        const double repeats = number(object, name::kRepeats, origin);
        if (repeats < 1 || repeats > studyLimits::kMaxRepeats || repeats != std::floor(repeats))
            refuse(QStringLiteral("%1: \"repeats\" must be a whole number from 1 to %2").arg(origin).arg(studyLimits::kMaxRepeats));
        spec.repeats = int(repeats);
    }
    if (object.contains(name::kTarget))
        spec.target = readTarget(object.value(name::kTarget), origin);
    readShow(object.value(name::kShow), spec, origin);
    return spec;
}

}  // namespace

StudyReadResult parseStudy(const QJsonObject& object, const QString& origin, const QString& folder)
{
    try {
        return {read(object, origin, folder), QString()};
    } catch (const StudyError& error) {
        return {std::nullopt, error.message};
    }
}

StudyReadResult readStudyFile(const QString& path)
{
    // The engine's limits and checks: a regular file of at most 1 MiB, no key twice, no NUL.
    QString error;
    const std::optional<QByteArray> text = readRegularFile(path, studyLimits::kMaxFileBytes, &error);
    if (!text)
        return {std::nullopt, QStringLiteral("%1 %2").arg(path, error)};
    const std::optional<QJsonObject> object = parseSettings(*text, path, &error);
    if (!object)
        return {std::nullopt, error};
    const QFileInfo info(path);
    StudyReadResult result = parseStudy(*object, path, info.absolutePath());
    if (result.spec && result.spec->id.isEmpty())
        result.spec->id = info.completeBaseName();
    return result;
}

}  // namespace ddplab::ui
