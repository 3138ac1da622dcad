// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An axis as a person types it on the Study page, and back: a list ("16, 32, 64",
// "none, linear, sqrt", "true, false") or a range ("16 .. 1024 x2" log-spaced by a factor,
// "0.1 .. 0.5 +0.1" evenly by a step). The text becomes the same JSON a study file holds, so
// the file reader checks it; nothing here decides what a key allows.

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace ddplab::ui {

// The axis object of a study file ({"key": ..., "values": [...]} or from/to/factor|step), or
// an empty object with `error` saying what the text should look like.
QJsonObject axisFromText(const QString& key, const QString& text, QString* error);

// The values as the page shows them: "16, 32, 64".
QString axisValuesText(const QList<QJsonValue>& values);

// Where an axis applies, as a person types it: "optimizer = sgd, lars" (several conditions
// joined by ";"), and the study file's "when" object it becomes ({"optimizer": ["sgd", "lars"]});
// empty text: an empty object (everywhere). An empty object with `error` set when the text is
// not of that shape.
QJsonObject conditionFromText(const QString& text, QString* error);
QString conditionText(const QJsonObject& when);

// What an axis is called where people read it (choosers, chart axes, legends): the label the
// Setup pane gives its key ("GPUs (ranks)" for world_size), "effective batch" for the batch
// axis; a key without a label is its name.
QString axisLabel(const QString& key);

}  // namespace ddplab::ui
