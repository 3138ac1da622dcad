#include "application_identity.hpp"

#include <QApplication>
#include <QIcon>

namespace ddplab::ui {

void setApplicationIdentity()
{
    QCoreApplication::setOrganizationName(QString());
    QCoreApplication::setApplicationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DDPLAB_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("DDP Lab"));
    QGuiApplication::setDesktopFileName(QStringLiteral("ddplab"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ddplab.svg")));
}

}  // namespace ddplab::ui
