// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_flusher.hpp"

#include "event_writer.hpp"

#include <pthread.h>

namespace ddplab {
namespace {
// Wakes the thread at the end of the run, so that the rank exits now rather than up to a batch
// window later (in a study of short runs, that window is a tenth of each run's end). Its
// default action is to be ignored, so a stray one harms nothing.
constexpr int kWakeSignal = SIGURG;
}  // namespace

EventFlusher::EventFlusher(EventWriter& events) : m_events(events)
{
    sigemptyset(&m_stopSignals);
    sigaddset(&m_stopSignals, SIGTERM);
    sigaddset(&m_stopSignals, SIGHUP);
    sigset_t waited = m_stopSignals;
    sigaddset(&waited, kWakeSignal);
    ::pthread_sigmask(SIG_BLOCK, &waited, nullptr);
    m_thread = std::thread([this] { loop(); });
}

EventFlusher::~EventFlusher()
{
    m_done = true;
    ::pthread_kill(m_thread.native_handle(), kWakeSignal);
    m_thread.join();
    m_events.flushHeld();
    // A stop signal that came after the thread ended is delivered now, as without us.
    ::pthread_sigmask(SIG_UNBLOCK, &m_stopSignals, nullptr);
}

void EventFlusher::loop()
{
    const auto window = std::chrono::duration_cast<std::chrono::nanoseconds>(m_events.batchWindow()).count();
    const timespec interval{time_t(window / 1000000000), long(window % 1000000000)};
    sigset_t waited = m_stopSignals;
    sigaddset(&waited, kWakeSignal);
    while (!m_done) {
        const int signal = ::sigtimedwait(&waited, nullptr, &interval);
        m_events.flushHeld();
        if (signal > 0 && signal != kWakeSignal) {
            // Die of it, as the default action would have: the launcher reads the signal
            // from the exit status.
            ::signal(signal, SIG_DFL);
            sigset_t only;
            sigemptyset(&only);
            sigaddset(&only, signal);
            ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
            ::raise(signal);
        }
    }
}

}  // namespace ddplab
