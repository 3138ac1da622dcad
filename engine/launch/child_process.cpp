// SPDX-License-Identifier: GPL-3.0-or-later
#include "child_process.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/prctl.h>
#include <unistd.h>

namespace ddplab {

pid_t forkChild(const ChildSetup& setup, const std::string& what)
{
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0)
        throw std::runtime_error("cannot start " + what + ": " + std::strerror(errno));
    if (pid > 0) {
        if (setup.ownProcessGroup)
            ::setpgid(pid, pid);  // as the child does: whichever runs first, the group exists
        return pid;
    }
    if (setup.ownProcessGroup)
        ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, setup.deathSignal);
    // The parent died before PDEATHSIG was set: nobody would stop this child.
    if (::getppid() != parent)
        ::_exit(setup.exitWhenOrphaned);
    if (!setup.name.empty())
        ::prctl(PR_SET_NAME, setup.name.c_str());
    for (int signo : setup.defaultSignals)
        ::signal(signo, SIG_DFL);
    for (int signo : setup.ignoredSignals)
        ::signal(signo, SIG_IGN);
    if (setup.stdinFromNull || setup.stdoutToNull) {
        const int devNull = ::open("/dev/null", O_RDWR);
        if (devNull >= 0) {
            if (setup.stdinFromNull)
                ::dup2(devNull, STDIN_FILENO);
            if (setup.stdoutToNull)
                ::dup2(devNull, STDOUT_FILENO);
            ::close(devNull);
        }
    }
    return 0;
}

}  // namespace ddplab
