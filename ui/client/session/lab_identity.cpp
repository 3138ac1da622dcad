// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab_identity.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ddplab::ui {

void setLabIdentity()
{
    // QSettings needs an organization (else it writes under "Unknown Organization").
    QCoreApplication::setOrganizationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationName(QStringLiteral("ddplab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DDPLAB_VERSION));
}

QString homeProblem()
{
    const auto setToAFolder = [](const char* variable) { return QDir::isAbsolutePath(qEnvironmentVariable(variable)); };
    if (setToAFolder("XDG_DATA_HOME") && setToAFolder("XDG_CONFIG_HOME"))
        return QString();
    const QString home = qEnvironmentVariable("HOME");
    QString what;
    if (home.isEmpty())
        what = QStringLiteral("HOME is empty");
    else if (!QDir::isAbsolutePath(home))
        what = QStringLiteral("HOME (\"%1\") is not an absolute path").arg(home);
    else if (!QFileInfo(home).isDir())
        what = QStringLiteral("HOME (\"%1\") is no folder").arg(home);
    else
        return QString();
    return QStringLiteral("%1, and the lab keeps its runs and settings under it (.local/share/ddplab, .config/ddplab): set "
                          "HOME to your home folder, or XDG_DATA_HOME and XDG_CONFIG_HOME to folders of your choice.")
        .arg(what);
}

}  // namespace ddplab::ui
