// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Writes the event stream (core/protocol.hpp builds the events): JSON Lines, one object per
// line, to every target at once. Targets are
//   - files (--events): appended, locked against a second writer, written first, so a line a
//     reader has seen is already on disk; a write the disk refuses is taken back whole;
//   - descriptors that may block (a worker's pipe to its launcher);
//   - one stream that never blocks (the launcher's stdout): what its reader has not taken yet
//     waits in a buffer, so a stalled reader never stops the launcher from supervising.
// A target that fails is dropped and remembered. Thread-safe.

#include "core/json.hpp"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ddplab {

class TensorBoardFile;

// How long a step event may be held back to travel with the next ones (emitBatched).
constexpr std::chrono::milliseconds kEventBatchWindow{25};

class EventWriter {
public:
    explicit EventWriter(std::chrono::milliseconds batchWindow = kEventBatchWindow) : m_batchWindow(batchWindow) {}
    ~EventWriter();
    EventWriter(const EventWriter&) = delete;
    EventWriter& operator=(const EventWriter&) = delete;

    void addFd(int fd);      // not owned; writes block until done (a worker's pipe)
    void addStream(int fd);  // not owned; writes never block (the launcher's stdout)
    // Opened for appending and locked; `firstEvent` (hello, already sent elsewhere) is written
    // to it alone. Throws ConfigError("events") when it is not a file one can append to (a
    // folder, a FIFO) or another run holds it.
    void appendToFile(const std::string& path, const Json& firstEvent = Json());
    // Rank 0 under tensorboard_dir: every event emitted from here on is also encoded into this
    // TensorBoard file, written whenever the stream's lines are; a write the disk refuses
    // fails it as a file target's would (fileError, fileErrorKey).
    void addTensorBoard(std::unique_ptr<TensorBoardFile> file);

    void emit(const Json& event);
    void writeLine(const std::string& lines);  // forward already-encoded events, "\n" after each

    // Step events of a fast run: held back and written together, at most the batch window
    // after the first of them, or before any other event. One write per step would wake the
    // launcher and the GUI hundreds of times a second, and on a machine whose cores all train,
    // each wake-up costs the training threads a time slice. A stalled run's held lines are
    // sent by an EventFlusher.
    void emitBatched(const Json& event);
    void flushHeld();

    // The stream: what waits for its reader, and moving it on.
    int streamFd() const { return m_streamFd; }
    size_t pendingStreamBytes() const;
    void pumpStream();  // writes what the reader takes now, without waiting
    // At the end of a run: waits at most `limit` for the reader to take the rest.
    bool drainStream(std::chrono::milliseconds limit);

    bool lostReader() const { return m_lostReader; }
    // A file target failed (a full disk): why, for the final error event; "" when none did.
    std::string fileError() const;
    // The config key that named the file that failed: events or tensorboard_dir.
    std::string fileErrorKey() const;

    std::chrono::milliseconds batchWindow() const { return m_batchWindow; }

private:
    struct Target {
        int fd;
        bool owned;
        std::string path;  // files only
    };
    void writeLocked(const std::string& lines);
    void flushHeldLocked();
    void pumpStreamLocked();

    const std::chrono::milliseconds m_batchWindow;
    mutable std::mutex m_mutex;
    std::vector<Target> m_targets;
    int m_streamFd = -1;
    std::string m_pendingStream;
    size_t m_pendingStart = 0;
    std::string m_held;
    std::chrono::steady_clock::time_point m_firstHeld;
    std::atomic<bool> m_lostReader = false;
    std::string m_fileError;
    std::string m_fileErrorKey;
    std::shared_ptr<TensorBoardFile> m_tensorBoard;  // shared: its type stays incomplete here
};

}  // namespace ddplab
