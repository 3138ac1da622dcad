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
        // The keys whose values differ within the group, in the key table's order.
        QStringList differing;
        for (const ddplab::ConfigKey& key : ddplab::configKeys()) {
            if (key.hidden)
                continue;
            const QString name = QString::fromStdString(key.name);
            const QJsonValue first = runs.at(group.first())->effectiveConfig().value(name);
            const bool differs = std::any_of(group.begin() + 1, group.end(),
                                             [&](qsizetype i) { return runs.at(i)->effectiveConfig().value(name) != first; });
            if (differs)
                differing.append(name);
        }
        for (qsizetype position = 0; position < group.size(); ++position) {
            const qsizetype i = group.at(position);
            QStringList parts;
            for (const QString& name : differing.mid(0, kMostDifferencesNamed))
                parts.append(QString(name).replace(QLatin1Char('_'), QLatin1Char(' ')) + QLatin1Char(' ') +
                             shown(runs.at(i)->effectiveConfig().value(name)));
            if (parts.isEmpty())
                parts.append(QStringLiteral("#%1").arg(position + 1));  // the same settings: their order
            labels[i] += QStringLiteral(" · ") + parts.join(QStringLiteral(", "));
        }
    }
    return labels;
}

}  // namespace ddplab::ui
