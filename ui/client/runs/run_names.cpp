// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_names.hpp"

#include "client/runs/run_data.hpp"
#include "core/config_keys.hpp"

#include <QHash>
#include <QJsonValue>

namespace ddplab::ui {
namespace {

// More than this many differences make a label longer than a legend can hold.
constexpr qsizetype kMostDifferencesNamed = 3;

QString shown(const QJsonValue& value)
{
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 6);
    if (value.isBool())
        return value.toBool() ? QStringLiteral("on") : QStringLiteral("off");
    if (value.isNull() || value.isUndefined())
        return QStringLiteral("default");
    return value.toString();
}

}  // namespace

QStringList differingKeys(const QList<QJsonObject>& configs)
{
    QStringList differing;
    if (configs.size() < 2)
        return differing;
    for (const ddplab::ConfigKey& key : ddplab::configKeys()) {
        if (key.hidden)
            continue;
        const QString name = QString::fromStdString(key.name);
        const QJsonValue first = configs.first().value(name);
        if (std::any_of(configs.begin() + 1, configs.end(), [&](const QJsonObject& config) { return config.value(name) != first; }))
            differing.append(name);
    }
    return differing;
}

QString settingText(const QString& key, const QJsonValue& value)
{
    const ddplab::ConfigKey* known = ddplab::findConfigKey(key.toStdString());
    const QString label = known && !known->label.empty() ? QString::fromStdString(known->label) : key;
    return label + QLatin1Char(' ') + shown(value);
}

QStringList distinguishingLabels(const QList<const RunData*>& runs)
{
    QStringList labels;
    QHash<QString, QList<qsizetype>> byLabel;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        labels.append(runs.at(i)->label());
        byLabel[labels.last()].append(i);
    }
    for (const QList<qsizetype>& group : std::as_const(byLabel)) {
        if (group.size() < 2)
            continue;
        QList<QJsonObject> configs;
        for (qsizetype i : group)
            configs.append(runs.at(i)->effectiveConfig());
        const QStringList differing = differingKeys(configs);
        for (qsizetype position = 0; position < group.size(); ++position) {
            const qsizetype i = group.at(position);
            QStringList parts;
            for (const QString& name : differing.mid(0, kMostDifferencesNamed))
                parts.append(settingText(name, runs.at(i)->effectiveConfig().value(name)));
            if (parts.isEmpty())
                parts.append(QStringLiteral("#%1").arg(position + 1));  // the same settings: their order
            labels[i] += QStringLiteral(" · ") + parts.join(QStringLiteral(", "));
        }
    }
    return labels;
}

}  // namespace ddplab::ui
