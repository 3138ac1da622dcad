// SPDX-License-Identifier: GPL-3.0-or-later
#include "read_file.hpp"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab::ui {
namespace {

QString describeType(mode_t mode)
{
    if (S_ISDIR(mode))
        return QStringLiteral("is a folder");
    if (S_ISFIFO(mode))
        return QStringLiteral("is a named pipe (FIFO)");
    if (S_ISSOCK(mode))
        return QStringLiteral("is a socket");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return QStringLiteral("is a device");
    return QStringLiteral("is not a regular file");
}

QString systemError(int code)
{
    return QStringLiteral("cannot be read: %1").arg(QString::fromLocal8Bit(std::strerror(code)));
}

bool isResource(const QString& path)
{
    return path.startsWith(QLatin1Char(':'));
}

}  // namespace

RegularFile::~RegularFile()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool RegularFile::open(const QString& path, QString* why)
{
    // O_NONBLOCK: opening a FIFO for reading would wait for a writer; the type is checked on
    // what was opened (fstat), so nothing can be swapped in between.
    m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (m_fd < 0) {
        *why = systemError(errno);
        return false;
    }
    struct stat info {};
    const bool known = ::fstat(m_fd, &info) == 0;
    if (!known || !S_ISREG(info.st_mode)) {
        *why = known ? describeType(info.st_mode) : systemError(errno);
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    m_size = info.st_size;
    return true;
}

QByteArray RegularFile::read(qint64 maxBytes)
{
    if (m_fd < 0 || maxBytes <= 0)
        return QByteArray();
    QByteArray bytes(maxBytes, Qt::Uninitialized);
    while (true) {
        const ssize_t n = ::read(m_fd, bytes.data(), size_t(maxBytes));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            m_error = systemError(errno);
            return QByteArray();
        }
        bytes.truncate(n);
        return bytes;
    }
}

QByteArray RegularFile::readAt(qint64 offset, qint64 maxBytes)
{
    if (m_fd < 0 || maxBytes <= 0)
        return QByteArray();
    QByteArray bytes(maxBytes, Qt::Uninitialized);
    qint64 done = 0;
    while (done < maxBytes) {
        const ssize_t n = ::pread(m_fd, bytes.data() + done, size_t(maxBytes - done), off_t(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            m_error = systemError(errno);
        if (n <= 0)
            break;
        done += n;
    }
    bytes.truncate(done);
    return bytes;
}

std::optional<QByteArray> readRegularFile(const QString& path, qint64 limit, QString* why)
{
    QByteArray bytes;
    if (isResource(path)) {
        QFile resource(path);  // compiled in: known, and bounded all the same
        if (!resource.open(QIODevice::ReadOnly)) {
            *why = QStringLiteral("cannot be read: %1").arg(resource.errorString());
            return std::nullopt;
        }
        bytes = resource.read(limit + 1);
    } else {
        RegularFile file;
        if (!file.open(path, why))
            return std::nullopt;
        if (file.size() > limit) {
            *why = QStringLiteral("is %1 bytes; at most %2").arg(file.size()).arg(limit);
            return std::nullopt;
        }
        // Up to one byte past the limit: a file that grew while it was read is caught too.
        while (bytes.size() <= limit) {
            const QByteArray piece = file.read(limit + 1 - bytes.size());
            if (piece.isEmpty())
                break;
            bytes += piece;
        }
        if (!file.error().isEmpty()) {
            *why = file.error();
            return std::nullopt;
        }
    }
    if (bytes.size() > limit) {
        *why = QStringLiteral("is over %1 bytes, the most it may be").arg(limit);
        return std::nullopt;
    }
    return bytes;
}

}  // namespace ddplab::ui
