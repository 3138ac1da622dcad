// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advice as files, the same from the Advise page's Save advice… and from `ddplab --advise`:
// advice.json, advice.md and every evidence chart as PNG and SVG, each written whole (beside,
// then renamed), into one folder.

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct Advice;
class RunStore;

// The range test's smoothed curve, read back from its stored run, for an advice.json written before
// it kept its curves (empty when it keeps them, or there is no run).
QList<QPointF> storedRangeTestCurve(const Advice& advice, const RunStore& store);

// Writes into `folder` (made when missing); returns the files' names, or an empty list with
// `error` set.
QStringList writeAdviceFiles(const QString& folder, const Advice& advice, const RunStore& store, QString* error);

}  // namespace ddplab::ui
