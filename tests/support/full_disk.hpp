// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <sys/resource.h>

namespace ddplab::test {

// A file system with no room left, for the writes that must fail: a small tmpfs mounted on
// `folder` (the tests run as root), or, where mounting is not allowed, a file-size limit
// (RLIMIT_FSIZE, inherited by the processes the test starts) that makes every write past a few
// bytes fail as a full disk would. Says which it is. Unmounted when it goes.
class FullDisk {
public:
    explicit FullDisk(const QString& folder, int kibibytes = 256);
    ~FullDisk();
    FullDisk(const FullDisk&) = delete;
    FullDisk& operator=(const FullDisk&) = delete;

    // Takes the rest of the space (or sets the size limit).
    void fill();
    // Gives the space back (or lifts the limit).
    void release();
    bool mounted() const { return m_mounted; }

private:
    QString m_folder;
    bool m_mounted = false;
    bool m_limited = false;
    rlimit m_saved{};
    void (*m_previousHandler)(int) = nullptr;
};

}  // namespace ddplab::test
