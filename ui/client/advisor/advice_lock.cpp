// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_lock.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace ddplab::ui {
namespace {

const QString kLockFile = QStringLiteral("lock");

QString lockPath(const QString& folder)
{
    return QDir(folder).filePath(kLockFile);
}

// The process id the holder wrote into the file, or 0.
qint64 holderOf(const QString& folder)
{
    QFile file(lockPath(folder));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    return file.read(32).trimmed().toLongLong();
}

}  // namespace

AdviceLock::AdviceLock(AdviceLock&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

AdviceLock& AdviceLock::operator=(AdviceLock&& other) noexcept
{
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

AdviceLock::~AdviceLock()
{
    release();
}

bool AdviceLock::take(const QString& folder, QString* error)
{
    release();
    const QByteArray path = QFile::encodeName(lockPath(folder));
    // O_NOFOLLOW: a link planted as the lock file is never written through.
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) {
        *error = QStringLiteral("cannot open %1 (%2)").arg(lockPath(folder), QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int why = errno;
        ::close(fd);
        if (why == EWOULDBLOCK) {
            const qint64 holder = holderOf(folder);
            *error = holder > 0 ? QStringLiteral("%1 is running now (process %2 holds it); wait for it to end, or stop it").arg(folder).arg(holder)
                                : QStringLiteral("%1 is running now (another advisor holds it); wait for it to end, or stop it").arg(folder);
        } else {
            *error = QStringLiteral("cannot lock %1 (%2)").arg(lockPath(folder), QString::fromLocal8Bit(std::strerror(why)));
        }
        return false;
    }
    // Who holds it, for the message a second advisor gets; the lock stands even if this fails.
    const QByteArray pid = QByteArray::number(QCoreApplication::applicationPid()) + '\n';
    if (::ftruncate(fd, 0) == 0)
        (void)!::pwrite(fd, pid.constData(), size_t(pid.size()), 0);
    m_fd = fd;
    return true;
}

void AdviceLock::release()
{
    if (m_fd >= 0) {
        ::close(m_fd);  // closing the descriptor lets the lock go
        m_fd = -1;
    }
}

bool AdviceLock::isTaken(const QString& folder, qint64* holder)
{
    const QByteArray path = QFile::encodeName(lockPath(folder));
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return false;  // never locked
    const bool taken = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    if (taken && holder)
        *holder = holderOf(folder);
    return taken;
}

}  // namespace ddplab::ui
