// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Names that tell apart every run shown together (legends, read-outs, CSV files): each run's
// own label, and where runs share one, what differs between their settings ("… · epochs 3"),
// or their order when nothing does.

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QStringList>

namespace ddplab::ui {

class RunData;

QStringList distinguishingLabels(const QList<const RunData*>& runs);

// The keys whose values differ between `configs` (the engine's resolved configs), in the key
// table's order, hidden keys left out.
QStringList differingKeys(const QList<QJsonObject>& configs);
// "Warmup epochs 5": a key as Setup names it (its label) and its value as a run had it.
QString settingText(const QString& key, const QJsonValue& value);

}  // namespace ddplab::ui
