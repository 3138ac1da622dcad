#include "event_flusher.hpp"

#include "event_writer.hpp"

#include <pthread.h>

namespace ddplab {

EventFlusher::EventFlusher(EventWriter& events) : m_events(events)
{
    sigemptyset(&m_stopSignals);
    sigaddset(&m_stopSignals, SIGTERM);
    sigaddset(&m_stopSignals, SIGHUP);
    ::pthread_sigmask(SIG_BLOCK, &m_stopSignals, nullptr);
    m_thread = std::thread([this] { loop(); });
}

EventFlusher::~EventFlusher()
{
    m_done = true;
    m_thread.join();
    m_events.flushHeld();
    // A stop signal that came after the thread ended is delivered now, as without us.
    ::pthread_sigmask(SIG_UNBLOCK, &m_stopSignals, nullptr);
}

void EventFlusher::loop()
{
    const auto window = std::chrono::duration_cast<std::chrono::nanoseconds>(m_events.batchWindow()).count();
    const timespec interval{time_t(window / 1000000000), long(window % 1000000000)};
    while (!m_done) {
        const int signal = ::sigtimedwait(&m_stopSignals, nullptr, &interval);
        m_events.flushHeld();
        if (signal > 0) {
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
