// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading /proc: which processes exist, whose children they are, what they are called. Lets
// the fault tests prove that nothing of a run is left running.

#include <QList>
#include <QString>

namespace ddplab::test {

// Processes whose command line contains `marker` as one of its arguments, or part of one.
QList<qint64> processesWithArgument(const QString& marker);

QList<qint64> childrenOf(qint64 pid);
// Children, their children, and so on.
QList<qint64> descendantsOf(qint64 pid);

QString processName(qint64 pid);  // /proc/PID/comm, "" when gone

// Alive and not a zombie.
bool isRunning(qint64 pid);

// A TCP socket held by a process, from /proc/net/tcp{,6}.
struct TcpSocket {
    QString localAddress;   // "127.0.0.1", "0.0.0.0", "::1", ...
    int localPort = 0;
    QString remoteAddress;
    int remotePort = 0;
    bool listening = false;
};

QList<TcpSocket> tcpSocketsOf(const QList<qint64>& pids);

}  // namespace ddplab::test
