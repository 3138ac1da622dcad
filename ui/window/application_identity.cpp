// SPDX-License-Identifier: GPL-3.0-or-later
#include "application_identity.hpp"

#include "client/session/lab_identity.hpp"

#include <QGuiApplication>
#include <QIcon>

namespace ddplab::ui {

void setApplicationIdentity()
{
    setLabIdentity();
    QGuiApplication::setApplicationDisplayName(QStringLiteral("DDP Lab"));
    // The installed desktop file (resources/, packaging/): Wayland compositors find the icon by it.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.ddplab.DDPLab"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ddplab.svg")));
}

}  // namespace ddplab::ui
