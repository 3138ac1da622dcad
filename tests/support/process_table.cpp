// SPDX-License-Identifier: GPL-3.0-or-later
#include "process_table.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

namespace ddplab::test {
namespace {

QByteArray readProcFile(qint64 pid, const char* name)
{
    QFile file(QStringLiteral("/proc/%1/%2").arg(pid).arg(QLatin1String(name)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QList<qint64> allPids()
{
    QList<qint64> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& entry : entries) {
        bool isNumber = false;
        const qint64 pid = entry.toLongLong(&isNumber);
        if (isNumber)
            pids.append(pid);
    }
    return pids;
}

// The fields after "(comm)" in /proc/PID/stat: state is [0], ppid is [1].
QList<QByteArray> statFields(qint64 pid)
{
    const QByteArray stat = readProcFile(pid, "stat");
    const int close = stat.lastIndexOf(')');
    if (close < 0)
        return {};
    return stat.mid(close + 2).split(' ');
}

// /proc/net/tcp writes an IPv4 address as 8 hex digits of a host-order (little-endian) word,
// an IPv6 address as four such words.
QString decodeAddress(const QByteArray& hex)
{
    QList<quint8> bytes;
    for (int word = 0; word < hex.size() / 8; ++word) {
        const quint32 raw = hex.mid(word * 8, 8).toUInt(nullptr, 16);
        for (int byte = 0; byte < 4; ++byte)
            bytes.append(quint8((raw >> (8 * byte)) & 0xff));
    }
    auto dotted = [&](int from) {
        return QStringLiteral("%1.%2.%3.%4").arg(bytes[from]).arg(bytes[from + 1]).arg(bytes[from + 2]).arg(bytes[from + 3]);
    };
    if (bytes.size() == 4)
        return dotted(0);
    const bool zeroHead = std::all_of(bytes.begin(), bytes.begin() + 10, [](quint8 b) { return b == 0; });
    if (zeroHead && bytes[10] == 0xff && bytes[11] == 0xff)
        return dotted(12);  // IPv4-mapped
    QStringList groups;
    for (int i = 0; i < 16; i += 2)
        groups.append(QString::number((bytes[i] << 8) | bytes[i + 1], 16));
    const QString full = groups.join(QLatin1Char(':'));
    if (full == QStringLiteral("0:0:0:0:0:0:0:1"))
        return QStringLiteral("::1");
    if (full == QStringLiteral("0:0:0:0:0:0:0:0"))
        return QStringLiteral("::");
    return full;
}

QSet<QByteArray> socketInodesOf(const QList<qint64>& pids)
{
    QSet<QByteArray> inodes;
    for (qint64 pid : pids) {
        const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
        for (const QFileInfo& fd : fds.entryInfoList(QDir::Files | QDir::System | QDir::NoDotAndDotDot)) {
            const QString target = fd.symLinkTarget().isEmpty() ? QFile::symLinkTarget(fd.filePath()) : fd.symLinkTarget();
            const QString name = QFileInfo(target).fileName();
            if (name.startsWith(QStringLiteral("socket:[")))
                inodes.insert(name.mid(8, name.size() - 9).toLatin1());
        }
    }
    return inodes;
}

}  // namespace

QList<TcpSocket> tcpSocketsOf(const QList<qint64>& pids)
{
    const QSet<QByteArray> inodes = socketInodesOf(pids);
    QList<TcpSocket> sockets;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile file{QLatin1String(table)};
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> lines = file.readAll().split('\n');
        for (int i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> fields = lines[i].simplified().split(' ');
            if (fields.size() < 10 || !inodes.contains(fields[9]))
                continue;
            const QList<QByteArray> local = fields[1].split(':');
            const QList<QByteArray> remote = fields[2].split(':');
            TcpSocket socket;
            socket.localAddress = decodeAddress(local[0]);
            socket.localPort = int(local[1].toUInt(nullptr, 16));
            socket.remoteAddress = decodeAddress(remote[0]);
            socket.remotePort = int(remote[1].toUInt(nullptr, 16));
            socket.listening = fields[3] == "0A";
            sockets.append(socket);
        }
    }
    return sockets;
}

QList<qint64> processesWithArgument(const QString& marker)
{
    QList<qint64> found;
    const QByteArray needle = marker.toLocal8Bit();
    for (qint64 pid : allPids()) {
        if (!isRunning(pid))
            continue;
        const QByteArray commandLine = readProcFile(pid, "cmdline");
        if (commandLine.contains(needle))
            found.append(pid);
    }
    return found;
}

QList<qint64> childrenOf(qint64 parent)
{
    QList<qint64> children;
    for (qint64 pid : allPids()) {
        const QList<QByteArray> fields = statFields(pid);
        if (fields.size() > 1 && fields[1].toLongLong() == parent)
            children.append(pid);
    }
    return children;
}

QList<qint64> descendantsOf(qint64 pid)
{
    QList<qint64> found = childrenOf(pid);
    for (qsizetype i = 0; i < found.size(); ++i)
        found.append(childrenOf(found.at(i)));
    return found;
}

QString processName(qint64 pid)
{
    return QString::fromLocal8Bit(readProcFile(pid, "comm")).trimmed();
}

bool isRunning(qint64 pid)
{
    const QList<QByteArray> fields = statFields(pid);
    return !fields.isEmpty() && fields[0] != "Z" && fields[0] != "X";
}

}  // namespace ddplab::test
