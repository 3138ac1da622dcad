// SPDX-License-Identifier: GPL-3.0-or-later
#include "child_lifetime.hpp"

#include <QProcess>

#ifdef Q_OS_LINUX
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace ddplab::ui {

void endWithLab(QProcess& process, int signal)
{
#ifdef Q_OS_LINUX
    const pid_t lab = ::getpid();
    // Runs in the child between fork and exec: async-signal-safe calls only.
    process.setChildProcessModifier([lab, signal] {
        ::prctl(PR_SET_PDEATHSIG, signal);
        // The lab went before the line above took effect: no one would send the signal now.
        if (::getppid() != lab)
            ::raise(signal);
    });
#else
    Q_UNUSED(process);
    Q_UNUSED(signal);
#endif
}

}  // namespace ddplab::ui
