// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_values.hpp"

#include "client/study/study_axis_text.hpp"
#include "client/study/study_results.hpp"

#include <cmath>

namespace ddplab::ui {

QString valueText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 10);
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return value.isNull() ? QStringLiteral("null") : QString();
}

QString describe(const StudyRunResult& result, const QStringList& keys)
{
    QStringList parts;
    for (const QString& key : keys) {
        if (result.values.contains(key))  // a conditional axis that does not apply here has no value
            parts.append(QStringLiteral("%1 %2").arg(axisLabel(key), valueText(result.values.value(key))));
    }
    return parts.join(QStringLiteral(" · "));
}

QStringList axisKeys(const StoredStudy& study)
{
    QStringList keys;
    for (const StudyAxis& axis : study.spec.axes)
        keys.append(axis.key);
    return keys;
}

}  // namespace ddplab::ui
