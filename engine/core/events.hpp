#pragma once
// The event protocol (engine -> GUI): JSON Lines, one object per line, "type" first.
// docs/protocol.md describes every event; bump kProtocolVersion when a field changes meaning.

#include "config.hpp"
#include "json.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ddplab {

constexpr int kProtocolVersion = 1;

// Writes each event as one line to every target, with one write() per line so that a crash
// loses at most the line being written. A target that fails (a closed pipe) is dropped and
// remembered, so the caller can tell that its reader went away.
class EventWriter {
public:
    EventWriter() = default;
    ~EventWriter();
    EventWriter(const EventWriter&) = delete;
    EventWriter& operator=(const EventWriter&) = delete;

    void addFd(int fd);                        // not owned (stdout, a pipe)
    void appendToFile(const std::string& path);  // opened O_APPEND, owned; throws ConfigError("events")

    void emit(const Json& event);
    void writeLine(const std::string& lineWithNewline);  // forward an already-encoded event

    bool lostReader() const { return m_lostReader; }

private:
    struct Target {
        int fd;
        bool owned;
    };
    std::vector<Target> m_targets;
    bool m_lostReader = false;
};

Json helloEvent(const std::string& role);
Json errorEvent(const std::string& message, std::optional<int64_t> rank = std::nullopt,
                const std::string& key = "", int exitCode = 0);

std::string engineVersion();

}  // namespace ddplab
