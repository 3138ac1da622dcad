// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_text.hpp"

#include <QJsonArray>
#include <QJsonDocument>

namespace ddplab::ui {

QString jsonText(const QJsonValue& value)
{
    // QJsonDocument writes objects and arrays only: the value as the one item of an array, unwrapped.
    return QString::fromUtf8(QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
}

}  // namespace ddplab::ui
