// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_axis_text.hpp"

#include "client/study/study_fields.hpp"
#include "client/study/study_spec.hpp"

#include "core/config_keys.hpp"

#include <QJsonArray>
#include <QRegularExpression>
#include <QStringList>

namespace ddplab::ui {
namespace {

// A typed value: a number when it reads as one, true/false, else the word itself.
QJsonValue valueOf(const QString& word)
{
    bool isNumber = false;
    const double number = word.toDouble(&isNumber);
    if (isNumber)
        return number;
    if (word == QLatin1String("true"))
        return true;
    if (word == QLatin1String("false"))
        return false;
    return word;
}

QString textOf(const QJsonValue& value)
{
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 10);
    return value.toString();
}

}  // namespace

QJsonObject axisFromText(const QString& key, const QString& text, QString* error)
{
    const QString trimmed = text.trimmed();
    // "FROM .. TO xFACTOR" (log-spaced) or "FROM .. TO +STEP" (evenly spaced); × and * work as x.
    static const QRegularExpression kRange(QStringLiteral("^(\\S+)\\s*\\.\\.\\s*(\\S+)\\s+([x×*+])\\s*(\\S+)$"));
    const QRegularExpressionMatch range = kRange.match(trimmed);
    if (range.hasMatch()) {
        bool fromOk = false, toOk = false, byOk = false;
        const double from = range.captured(1).toDouble(&fromOk);
        const double to = range.captured(2).toDouble(&toOk);
        const double by = range.captured(4).toDouble(&byOk);
        if (!fromOk || !toOk || !byOk) {
            *error = QStringLiteral("%1: a range is written like \"16 .. 1024 x2\" or \"0.1 .. 0.5 +0.1\", with numbers").arg(key);
            return {};
        }
        const bool logSpaced = range.captured(3) != QLatin1String("+");
        return QJsonObject{{studyField::kKey, key}, {studyField::kFrom, from}, {studyField::kTo, to},
                           {logSpaced ? studyField::kFactor : studyField::kStep, by}};
    }
    if (trimmed.contains(QLatin1String(".."))) {
        *error = QStringLiteral("%1: a range is written like \"16 .. 1024 x2\" (a factor) or \"0.1 .. 0.5 +0.1\" (a step)").arg(key);
        return {};
    }
    QJsonArray values;
    for (const QString& word : trimmed.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts))
        values.append(valueOf(word));
    if (values.isEmpty()) {
        *error = QStringLiteral("%1: give its values, like \"16, 32, 64\", or a range like \"16 .. 1024 x2\"").arg(key);
        return {};
    }
    return QJsonObject{{studyField::kKey, key}, {studyField::kValues, values}};
}

QJsonObject conditionFromText(const QString& text, QString* error)
{
    QJsonObject when;
    for (const QString& part : text.split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype equals = part.indexOf(QLatin1Char('='));
        const QString key = part.left(equals).trimmed();
        QJsonArray values;
        for (const QString& word : part.mid(equals + 1).split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
            values.append(valueOf(word));
        if (equals < 0 || key.isEmpty() || values.isEmpty()) {
            *error = QStringLiteral("\"%1\": a condition is written like \"optimizer = sgd\" or \"optimizer = sgd, lars\"").arg(part.trimmed());
            return {};
        }
        when.insert(key, values);
    }
    return when;
}

QString conditionText(const QJsonObject& when)
{
    QStringList parts;
    for (auto it = when.begin(); it != when.end(); ++it) {
        QList<QJsonValue> values;
        for (const QJsonValue& value : it.value().isArray() ? it.value().toArray() : QJsonArray{it.value()})
            values.append(value);
        parts.append(QStringLiteral("%1 = %2").arg(it.key(), axisValuesText(values)));
    }
    return parts.join(QStringLiteral("; "));
}

QString axisValuesText(const QList<QJsonValue>& values)
{
    QStringList words;
    for (const QJsonValue& value : values)
        words.append(textOf(value));
    return words.join(QStringLiteral(", "));
}

QString axisLabel(const QString& key)
{
    if (key == kEffectiveBatchAxis)
        return QStringLiteral("effective batch");
    const ConfigKey* known = findConfigKey(key.toStdString());
    return known && !known->label.empty() ? QString::fromStdString(known->label) : key;
}

}  // namespace ddplab::ui
