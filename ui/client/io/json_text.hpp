// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A JSON value as a file spells it (0.5, "sqrt", true, 1e+300): for a sentence that names what a
// study file, a preset or a stopped advice's progress.json holds.

#include <QJsonValue>
#include <QString>

namespace ddplab::ui {

QString jsonText(const QJsonValue& value);

}  // namespace ddplab::ui
