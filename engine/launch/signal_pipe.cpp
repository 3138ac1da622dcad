// SPDX-License-Identifier: GPL-3.0-or-later
#include "signal_pipe.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ddplab::signal_pipe {
namespace {

int g_pipe[2] = {-1, -1};

void onSignal(int signo)
{
    const int saved = errno;
    const auto byte = static_cast<unsigned char>(signo);
    (void)!::write(g_pipe[1], &byte, 1);
    errno = saved;
}

void installHandler(int signo, void (*handler)(int))
{
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(signo, &action, nullptr);
}

}  // namespace

bool open(std::string* error)
{
    if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        *error = std::string("cannot create the signal pipe: ") + std::strerror(errno);
        return false;
    }
    for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
        installHandler(signo, onSignal);
    installHandler(SIGPIPE, SIG_IGN);
    return true;
}

int fd()
{
    return g_pipe[0];
}

std::vector<int> take()
{
    std::vector<int> signals;
    unsigned char bytes[64];
    ssize_t n;
    while ((n = ::read(g_pipe[0], bytes, sizeof bytes)) > 0)
        signals.insert(signals.end(), bytes, bytes + n);
    return signals;
}

void close()
{
    for (int& end : g_pipe) {
        if (end >= 0)
            ::close(end);
        end = -1;
    }
}

}  // namespace ddplab::signal_pipe
