// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_locator.hpp"

#include <QCoreApplication>

namespace ddplab::ui {

QString locateEngine(const QString& commandLineOverride)
{
    if (!commandLineOverride.isEmpty())
        return commandLineOverride;
    const QString fromEnvironment = qEnvironmentVariable("DDPLAB_ENGINE");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/ddplab-engine");
}

}  // namespace ddplab::ui
