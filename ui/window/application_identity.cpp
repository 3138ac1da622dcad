#include "application_identity.hpp"

#include "client/session/lab_identity.hpp"

#include <QGuiApplication>
#include <QIcon>

namespace ddplab::ui {

void setApplicationIdentity()
{
    setLabIdentity();
    QGuiApplication::setApplicationDisplayName(QStringLiteral("DDP Lab"));
    QGuiApplication::setDesktopFileName(QStringLiteral("ddplab"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ddplab.svg")));
}

}  // namespace ddplab::ui
