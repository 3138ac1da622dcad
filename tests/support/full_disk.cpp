// SPDX-License-Identifier: GPL-3.0-or-later
#include "full_disk.hpp"

#include <QByteArray>
#include <QFile>

#include <csignal>
#include <sys/mount.h>

namespace ddplab::test {

namespace {
// Beyond it even a small status file does not fit; below it nothing is left.
constexpr rlim_t kLimitBytes = 64;
}  // namespace

FullDisk::FullDisk(const QString& folder, int kibibytes) : m_folder(folder)
{
    const QByteArray size = "size=" + QByteArray::number(kibibytes) + 'k';
    m_mounted = ::mount("tmpfs", QFile::encodeName(folder).constData(), "tmpfs", 0, size.constData()) == 0;
    qInfo("full disk: %s", m_mounted ? qPrintable(QStringLiteral("a %1 KiB tmpfs mounted for the test").arg(kibibytes))
                                     : "no mount allowed here: RLIMIT_FSIZE of 64 bytes");
}

FullDisk::~FullDisk()
{
    release();
    if (m_mounted)
        ::umount2(QFile::encodeName(m_folder).constData(), MNT_DETACH);
}

void FullDisk::fill()
{
    if (m_mounted) {
        QFile filler(m_folder + QStringLiteral("/filler"));
        if (filler.open(QIODevice::WriteOnly)) {
            const QByteArray block(4096, 'x');
            while (filler.write(block) == block.size() && filler.flush()) {
            }
            // What is left is less than a block: take it byte by byte.
            while (filler.write("x", 1) == 1 && filler.flush()) {
            }
        }
        return;
    }
    ::getrlimit(RLIMIT_FSIZE, &m_saved);
    m_previousHandler = std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead
    rlimit small = m_saved;
    small.rlim_cur = kLimitBytes;
    ::setrlimit(RLIMIT_FSIZE, &small);
    m_limited = true;
}

void FullDisk::release()
{
    if (m_limited) {
        ::setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_previousHandler);
        m_limited = false;
    }
    QFile::remove(m_folder + QStringLiteral("/filler"));
}

}  // namespace ddplab::test
