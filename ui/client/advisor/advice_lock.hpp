// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lock an advice holds on its folder while it runs (issue 41: a second --resume of a running
// advice ran beside it, the last writer winning). An exclusive flock(2) on the folder's `lock`
// file, which holds the holder's process id: the kernel lets it go when the process ends however
// it ends (SIGKILL included), so a stopped advice is never left locked, and a second holder (in
// this process or another) is refused. Linux and the BSDs; the lab's stores assume them.

#include <QString>

namespace ddplab::ui {

class AdviceLock {
public:
    AdviceLock() = default;
    AdviceLock(const AdviceLock&) = delete;
    AdviceLock& operator=(const AdviceLock&) = delete;
    AdviceLock(AdviceLock&& other) noexcept;
    AdviceLock& operator=(AdviceLock&& other) noexcept;
    ~AdviceLock();

    // Takes the lock on `folder`; false with `error` (who holds it, or why it cannot be taken).
    bool take(const QString& folder, QString* error);
    void release();
    bool isHeld() const { return m_fd >= 0; }

    // Whether some process holds `folder`'s lock now; its process id in *holder when it said it.
    static bool isTaken(const QString& folder, qint64* holder = nullptr);

private:
    int m_fd = -1;
};

}  // namespace ddplab::ui
