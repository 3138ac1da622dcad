#include "events.hpp"

#include "config_error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ddplab {
namespace {

// write() may be partial on pipes; retry until the whole line is out or the target fails.
bool writeAll(int fd, const char* data, size_t size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += written;
        size -= size_t(written);
    }
    return true;
}

}  // namespace

EventWriter::~EventWriter()
{
    flushHeld();
    for (const Target& target : m_targets) {
        if (target.owned)
            ::close(target.fd);
    }
}

void EventWriter::addFd(int fd)
{
    std::lock_guard lock(m_mutex);
    m_targets.push_back({fd, false});
}

void EventWriter::appendToFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        throw ConfigError("events", "events file \"" + path + "\" cannot be opened for appending: " + std::strerror(errno));
    // Files first: a line a reader has seen on stdout is already on disk, whenever we die.
    std::lock_guard lock(m_mutex);
    m_targets.insert(m_targets.begin(), {fd, true});
}

namespace {

// Non-finite numbers have no JSON spelling; nlohmann writes them as null, which the protocol
// documents as "not a number" (a diverged loss, say).
std::string encode(const Json& event)
{
    return event.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace

void EventWriter::emit(const Json& event)
{
    writeLine(encode(event));
}

void EventWriter::writeLine(const std::string& lines)
{
    std::lock_guard lock(m_mutex);
    flushHeldLocked();
    writeLocked(lines);
}

void EventWriter::emitBatched(const Json& event)
{
    const std::string line = encode(event);
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(m_mutex);
    if (m_held.empty())
        m_firstHeld = now;
    m_held += line;
    if (now - m_firstHeld >= m_batchWindow)
        flushHeldLocked();
}

void EventWriter::flushHeld()
{
    std::lock_guard lock(m_mutex);
    flushHeldLocked();
}

void EventWriter::flushHeldLocked()
{
    if (m_held.empty())
        return;
    writeLocked(m_held);
    m_held.clear();
}

void EventWriter::writeLocked(const std::string& lines)
{
    for (auto it = m_targets.begin(); it != m_targets.end();) {
        if (writeAll(it->fd, lines.data(), lines.size())) {
            ++it;
            continue;
        }
        m_lostReader = true;
        if (it->owned)
            ::close(it->fd);
        it = m_targets.erase(it);
    }
}

std::string engineVersion()
{
    return DDPLAB_VERSION;
}

Json helloEvent(const std::string& role)
{
    Json event;
    event["type"] = "hello";
    event["protocol"] = kProtocolVersion;
    event["engine"] = "ddplab-engine";
    event["version"] = engineVersion();
    event["role"] = role;
    event["pid"] = int64_t(::getpid());
    return event;
}

Json errorEvent(const std::string& message, std::optional<int64_t> rank, const std::string& key, int exitCode)
{
    Json event;
    event["type"] = "error";
    event["message"] = message;
    if (rank)
        event["rank"] = *rank;
    if (!key.empty())
        event["key"] = key;
    if (exitCode != 0)
        event["exit_code"] = exitCode;
    return event;
}

}  // namespace ddplab
