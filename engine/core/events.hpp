#pragma once
// The event protocol (engine -> GUI): JSON Lines, one object per line, "type" first.
// docs/protocol.md describes every event; bump kProtocolVersion when a field changes meaning.

#include "config.hpp"
#include "json.hpp"

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ddplab {

constexpr int kProtocolVersion = 1;

// How long a step event may be held back to travel with the next ones (emitBatched).
constexpr std::chrono::milliseconds kEventBatchWindow{25};

// Writes each event as one line to every target; every write() holds whole lines, so that a
// crash loses at most the line being written. A target that fails (a closed pipe) is dropped and
// remembered, so the caller can tell that its reader went away. Thread-safe.
class EventWriter {
public:
    explicit EventWriter(std::chrono::milliseconds batchWindow = kEventBatchWindow) : m_batchWindow(batchWindow) {}
    ~EventWriter();
    EventWriter(const EventWriter&) = delete;
    EventWriter& operator=(const EventWriter&) = delete;

    void addFd(int fd);                        // not owned (stdout, a pipe)
    void appendToFile(const std::string& path);  // opened O_APPEND, owned; throws ConfigError("events")

    void emit(const Json& event);
    void writeLine(const std::string& lines);  // forward already-encoded events, "\n" after each

    // Step events of a fast run: held back and written together, at most the batch window
    // after the first of them, or before any other event. One write per step would wake the
    // launcher and the GUI hundreds of times a second, and on a machine whose cores all train,
    // each wake-up costs the training threads a time slice. A stalled run's held lines are
    // sent by an EventFlusher.
    void emitBatched(const Json& event);
    void flushHeld();

    bool lostReader() const { return m_lostReader; }
    std::chrono::milliseconds batchWindow() const { return m_batchWindow; }

private:
    struct Target {
        int fd;
        bool owned;
    };
    void writeLocked(const std::string& lines);
    void flushHeldLocked();

    const std::chrono::milliseconds m_batchWindow;
    std::mutex m_mutex;
    std::vector<Target> m_targets;
    std::string m_held;
    std::chrono::steady_clock::time_point m_firstHeld;
    std::atomic<bool> m_lostReader = false;
};

Json helloEvent(const std::string& role);
Json errorEvent(const std::string& message, std::optional<int64_t> rank = std::nullopt,
                const std::string& key = "", int exitCode = 0);

std::string engineVersion();

}  // namespace ddplab
