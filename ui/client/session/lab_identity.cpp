#include "lab_identity.hpp"

#include <QCoreApplication>

namespace ddplab::ui {

void setLabIdentity()
{
    // QSettings needs an organization (else it writes under "Unknown Organization").
    QCoreApplication::setOrganizationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DDPLAB_VERSION));
}

}  // namespace ddplab::ui
