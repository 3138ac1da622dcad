// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_sshd.hpp"

#include "loopback_port.hpp"

#include <QDir>
#include <QFile>
#include <QThread>

#include <unistd.h>

namespace ddplab::test {

TestSshd::TestSshd()
{
    const QString sshd = QStringLiteral("/usr/sbin/sshd");
    if (!QFile::exists(sshd)) {
        m_problem = QStringLiteral("/usr/sbin/sshd is missing: scripts/setup-deps.sh installs openssh-server");
        return;
    }
    const QString dir = m_folder.path();
    if (!run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                                            QString(), QStringLiteral("-f"), dir + QStringLiteral("/host_key")}) ||
        !run(QStringLiteral("ssh-keygen"), {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                                            QString(), QStringLiteral("-f"), dir + QStringLiteral("/client_key")}))
        return;
    QFile hostPublic(dir + QStringLiteral("/host_key.pub"));
    QFile clientPublic(dir + QStringLiteral("/client_key.pub"));
    if (!hostPublic.open(QIODevice::ReadOnly) || !clientPublic.open(QIODevice::ReadOnly)) {
        m_problem = QStringLiteral("ssh-keygen wrote no keys");
        return;
    }
    m_port = freeLoopbackPort();
    const int closedPort = freeLoopbackPort();
    const QByteArray user = qgetenv("USER").isEmpty() ? QByteArray("root") : qgetenv("USER");
    const QByteArray port = QByteArray::number(m_port);
    const QByteArray folder = QFile::encodeName(dir);
    // As root, sshd wants its privilege-separation folder; Debian makes it only when the service starts.
    if (::geteuid() == 0)
        QDir().mkpath(QStringLiteral("/run/sshd"));
    const bool written =
        write(QStringLiteral("sshd_config"),
              "ListenAddress 127.0.0.1\nPort " + port + "\nHostKey " + folder + "/host_key\nAuthorizedKeysFile " + folder +
                  "/authorized_keys\nPidFile " + folder + "/sshd.pid\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                  "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\nPermitRootLogin prohibit-password\nLogLevel ERROR\n") &&
        write(QStringLiteral("authorized_keys"), clientPublic.readAll()) &&
        write(QStringLiteral("known_hosts"), "[127.0.0.1]:" + port + " " + hostPublic.readAll()) &&
        write(QStringLiteral("empty_known_hosts"), QByteArray()) &&
        write(QStringLiteral("ssh_config"),
              "Host labtest unknownkey closedport\n  HostName 127.0.0.1\n  User " + user + "\n  IdentityFile " + folder +
                  "/client_key\n  IdentitiesOnly yes\n  StrictHostKeyChecking yes\n  GlobalKnownHostsFile /dev/null\n"
                  "  LogLevel ERROR\nHost labtest\n  Port " + port + "\n  UserKnownHostsFile " + folder + "/known_hosts\n"
                  "Host unknownkey\n  Port " + port + "\n  UserKnownHostsFile " + folder + "/empty_known_hosts\n"
                  "Host closedport\n  Port " + QByteArray::number(closedPort) + "\n  UserKnownHostsFile " + folder + "/known_hosts\n") &&
        write(QStringLiteral("ssh"), "#!/bin/sh\nexec ssh -F '" + folder + "/ssh_config' \"$@\"\n");
    if (!written)
        return;
    QFile::setPermissions(dir + QStringLiteral("/ssh"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    m_sshd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_sshd.start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), dir + QStringLiteral("/sshd_config")});
    if (!m_sshd.waitForStarted(5000)) {
        m_problem = QStringLiteral("sshd did not start: ") + m_sshd.errorString();
        return;
    }
    // Listening once it accepts a connection.
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int socket = loopbackSocket(m_port, true);
        if (socket >= 0) {
            ::close(socket);
            return;
        }
        if (m_sshd.state() != QProcess::Running)
            break;
        QThread::msleep(50);
    }
    m_problem = QStringLiteral("sshd is not listening on 127.0.0.1:%1").arg(m_port);
}

TestSshd::~TestSshd()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(3000))
            m_sshd.kill();
        m_sshd.waitForFinished(3000);
    }
}

bool TestSshd::isRunning() const
{
    return m_problem.isEmpty() && m_sshd.state() == QProcess::Running;
}

QString TestSshd::sshProgram() const
{
    return m_folder.filePath(QStringLiteral("ssh"));
}

bool TestSshd::run(const QString& program, const QStringList& arguments)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(30000) || process.exitCode() != 0) {
        m_problem = QStringLiteral("%1 failed: %2").arg(program, QString::fromLocal8Bit(process.readAllStandardError()));
        return false;
    }
    return true;
}

bool TestSshd::write(const QString& name, const QByteArray& text)
{
    QFile file(m_folder.filePath(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()) {
        m_problem = QStringLiteral("cannot write %1").arg(file.fileName());
        return false;
    }
    return true;
}

}  // namespace ddplab::test
