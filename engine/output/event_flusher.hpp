// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Rank 0 holds fast step events back (EventWriter::emitBatched). This thread sends them on
// within the writer's batch window even while training stalls (a peer died mid all-reduce),
// and at once when the rank is told to stop (SIGTERM, SIGHUP): every step rank 0 finished
// reaches the events file before the rank exits. Only SIGKILL can lose the last window's steps.

#include <atomic>
#include <csignal>
#include <thread>

namespace ddplab {

class EventWriter;

class EventFlusher {
public:
    // Construct before any other thread of the process exists: it blocks the stop signals in
    // the calling thread, and every thread started later inherits that mask, so that the
    // signals reach this one thread, which flushes, then dies of the signal as before.
    explicit EventFlusher(EventWriter& events);
    ~EventFlusher();
    EventFlusher(const EventFlusher&) = delete;
    EventFlusher& operator=(const EventFlusher&) = delete;

private:
    void loop();

    EventWriter& m_events;
    sigset_t m_stopSignals;
    std::atomic<bool> m_done = false;
    std::thread m_thread;
};

}  // namespace ddplab
