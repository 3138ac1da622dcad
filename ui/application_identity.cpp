#include "application_identity.hpp"

#include <QApplication>
#include <QIcon>

namespace ddplab::ui {

void setApplicationIdentity()
{
    // QSettings needs an organization (else it writes under "Unknown Organization"): settings
    // go to ~/.config/ddplab/ddplab.conf, runs to ~/.local/share/ddplab/ddplab/runs.
    QCoreApplication::setOrganizationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DDPLAB_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("DDP Lab"));
    QGuiApplication::setDesktopFileName(QStringLiteral("ddplab"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ddplab.svg")));
}

}  // namespace ddplab::ui
