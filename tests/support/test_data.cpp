// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_data.hpp"

#include <QFile>
#include <QJsonDocument>

namespace ddplab::test {

QString writeFile(const QString& path, const QByteArray& content)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size())
        return {};
    return file.flush() ? path : QString();
}

QJsonObject jsonObject(const char* json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

}  // namespace ddplab::test
