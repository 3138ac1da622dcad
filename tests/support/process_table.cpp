#include "process_table.hpp"

#include <QDir>
#include <QFile>

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

}  // namespace

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
