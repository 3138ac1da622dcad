// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A real OpenSSH server for the remote-run tests, all of it in a temporary folder: its own
// host key, a client key it authorises, a known_hosts file that knows it, and an ssh_config
// with the host aliases the tests use. It listens on a free port of 127.0.0.1 only, runs as the
// current user, touches nothing of the system's SSH set-up, and is stopped by the destructor.
//
//   labtest     this server, its host key known
//   unknownkey  this server, its host key not known (StrictHostKeyChecking)
//   closedport  127.0.0.1 on a port where nothing listens

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

namespace ddplab::test {

class TestSshd {
public:
    TestSshd();
    ~TestSshd();

    bool isRunning() const;
    QString problem() const { return m_problem; }  // why it is not running
    qint64 processId() const { return m_sshd.processId(); }
    int port() const { return m_port; }
    // An ssh program (a script) that reads this server's ssh_config: set it as DDPLAB_SSH.
    QString sshProgram() const;

private:
    bool run(const QString& program, const QStringList& arguments);
    bool write(const QString& name, const QByteArray& text);

    QTemporaryDir m_folder;
    QProcess m_sshd;
    int m_port = 0;
    QString m_problem;
};

}  // namespace ddplab::test
