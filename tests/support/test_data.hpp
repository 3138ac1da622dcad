// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A suite's own inputs: files it writes, JSON it spells out.

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace ddplab::test {

// Writes `content` to `path` whole, replacing what was there: `path` when every byte was
// written, "" when not, so that a suite can assert on it or go on with the path.
QString writeFile(const QString& path, const QByteArray& content);

// The JSON object spelled out in `json` (empty when it is not one).
QJsonObject jsonObject(const char* json);

}  // namespace ddplab::test
