// SPDX-License-Identifier: GPL-3.0-or-later
#include "stop_signals.hpp"

#include <QSocketNotifier>

#include <cerrno>

#include <sys/socket.h>
#include <unistd.h>

namespace ddplab::ui {
namespace {

constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
int g_pair[2] = {-1, -1};  // [0] written by the handler, [1] read in the event loop

void onSignal(int signal)
{
    const int saved = errno;
    const char number = char(signal);
    (void)!::write(g_pair[0], &number, 1);  // async-signal-safe; a full pipe drops a repeat
    errno = saved;
}

}  // namespace

StopSignals::StopSignals(QObject* parent) : QObject(parent)
{
    if (g_pair[0] >= 0 || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, g_pair) != 0)
        return;  // one at a time; without a pair the signals keep their defaults
    m_notifier = new QSocketNotifier(g_pair[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StopSignals::onReadable);
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int i = 0; i < 3; ++i)
        ::sigaction(kSignals[i], &action, &m_before[i]);
}

StopSignals::~StopSignals()
{
    if (!m_notifier)
        return;
    for (int i = 0; i < 3; ++i)
        ::sigaction(kSignals[i], &m_before[i], nullptr);
    ::close(g_pair[0]);
    ::close(g_pair[1]);
    g_pair[0] = g_pair[1] = -1;
}

void StopSignals::onReadable()
{
    char number = 0;
    while (::read(g_pair[1], &number, 1) == 1)
        m_received = number;
    if (m_received != 0)
        emit stopAsked(m_received);
}

}  // namespace ddplab::ui
