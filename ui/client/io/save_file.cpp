// SPDX-License-Identifier: GPL-3.0-or-later
#include "save_file.hpp"

#include <QFile>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab::ui {
namespace {

// Not QSaveFile: Qt 6.4's commit() returns true when the disk refuses the data at its last
// flush, and renames an empty file over the old one (a full disk emptied meta.json).
bool writeAll(int fd, const QByteArray& contents)
{
    qsizetype done = 0;
    while (done < contents.size()) {
        const ssize_t written = ::write(fd, contents.constData() + done, size_t(contents.size() - done));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        done += written;
    }
    return true;
}

}  // namespace

bool writeFileAtomically(const QString& path, const QByteArray& contents, QString* error)
{
    const QByteArray target = QFile::encodeName(path);
    const auto fail = [&](const QByteArray& temporary, int fd, int code) {
        if (fd >= 0)
            ::close(fd);
        if (!temporary.isEmpty())
            ::unlink(temporary.constData());
        if (error) {
            const bool existed = ::access(target.constData(), F_OK) == 0;
            *error = QStringLiteral("Cannot save %1: %2%3")
                         .arg(path, QString::fromLocal8Bit(std::strerror(code)),
                              existed ? QStringLiteral("; it keeps what it held before") : QString());
        }
        return false;
    };
    // Beside the file, so that the rename stays on one file system; a name nobody else uses.
    QByteArray temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 16; ++attempt) {
        temporary = target + ".saving-" + QByteArray::number(QRandomGenerator::global()->generate(), 36);
        fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            return fail(QByteArray(), -1, errno);
    }
    if (fd < 0)
        return fail(QByteArray(), -1, EEXIST);
    struct stat existing {};
    if (::stat(target.constData(), &existing) == 0)
        ::fchmod(fd, existing.st_mode & 07777);  // a replaced file keeps its permissions
    if (!writeAll(fd, contents) || ::fsync(fd) != 0)
        return fail(temporary, fd, errno);
    const int closed = ::close(fd);
    if (closed != 0)
        return fail(temporary, -1, errno);
    if (::rename(temporary.constData(), target.constData()) != 0)
        return fail(temporary, -1, errno);
    return true;
}

}  // namespace ddplab::ui
