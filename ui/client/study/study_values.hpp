// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How a study's values are written wherever a person reads them (study.csv, chart labels, the
// points table): one spelling, so that a value found in one is found in the others.

#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct StoredStudy;
struct StudyRunResult;

// A swept value: text as it is, numbers with up to 10 digits, true/false, null.
QString valueText(const QJsonValue& value);
// "lr_rule sqrt · lr 0.01": the values of `keys` at a result.
QString describe(const StudyRunResult& result, const QStringList& keys);
// The study's swept keys, in the order of its axes.
QStringList axisKeys(const StoredStudy& study);

}  // namespace ddplab::ui
