// SPDX-License-Identifier: GPL-3.0-or-later
#include "event_writer.hpp"

#include "event_line.hpp"
#include "tensorboard_file.hpp"

#include "core/config_error.hpp"
#include "core/key_names.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab {
namespace {

// A write of at most this many bytes to a pipe that poll() calls writable never blocks.
constexpr size_t kAtomicPipeWrite = PIPE_BUF;

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

std::string describeRefusedType(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a named pipe (FIFO), which would wait for a reader";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file";
}

// A writer killed inside a write() of several lines (SIGKILL lands between pages) leaves a
// line without its end. What is appended after it must not join it, or the line that says why
// the run ended (the runs command's "killed by signal 9") is lost with the torn one: the torn
// line is ended, so it stays the one damaged line a reader skips and names.
// The appending descriptor is write-only: the last byte is read through one of its own.
void endATornLastLine(const std::string& path, int fd, off_t size)
{
    if (size == 0)
        return;
    char last = '\n';
    const int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (reader < 0)
        return;
    const bool torn = ::pread(reader, &last, 1, size - 1) == 1 && last != '\n';
    ::close(reader);
    if (torn)
        (void)!::write(fd, "\n", 1);  // a full disk shows at the next write
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
    m_targets.push_back({fd, false, {}});
}

void EventWriter::addStream(int fd)
{
    std::lock_guard lock(m_mutex);
    m_streamFd = fd;
}

void EventWriter::appendToFile(const std::string& path, const Json& firstEvent)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode) && !S_ISCHR(info.st_mode))
        throw ConfigError(key::kEvents, "events file \"" + path + "\" is " + describeRefusedType(info.st_mode) +
                                        "; give a file to append the events to");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0)
        throw ConfigError(key::kEvents, "events file \"" + path + "\" cannot be opened for appending: " + std::strerror(errno));
    ::fcntl(fd, F_SETFL, O_APPEND);  // O_NONBLOCK only guarded the open against a FIFO made meanwhile
    // Two runs appending to one file would interleave their lines: the second is refused.
    struct stat opened {};
    if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) != 0 &&
        errno == EWOULDBLOCK) {
        ::close(fd);
        throw ConfigError(key::kEvents, "events file \"" + path +
                                        "\" is being written by another run; give each run its own events file");
    }
    if (S_ISREG(opened.st_mode))
        endATornLastLine(path, fd, opened.st_size);
    if (!firstEvent.is_null()) {
        const std::string line = encodeEventLine(firstEvent);
        (void)!::write(fd, line.data(), line.size());  // a full disk shows at the next write
    }
    // Files first: a line a reader has seen on stdout is already on disk, whenever we die.
    std::lock_guard lock(m_mutex);
    m_targets.insert(m_targets.begin(), {fd, true, path});
}

void EventWriter::addTensorBoard(std::unique_ptr<TensorBoardFile> file)
{
    std::lock_guard lock(m_mutex);
    m_tensorBoard = std::move(file);
}

void EventWriter::emit(const Json& event)
{
    std::lock_guard lock(m_mutex);
    if (m_tensorBoard)
        m_tensorBoard->add(event);
    flushHeldLocked();
    writeLocked(encodeEventLine(event));
}

void EventWriter::writeLine(const std::string& lines)
{
    std::lock_guard lock(m_mutex);
    flushHeldLocked();
    writeLocked(lines);
}

void EventWriter::emitBatched(const Json& event)
{
    const std::string line = encodeEventLine(event);
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(m_mutex);
    if (m_tensorBoard)
        m_tensorBoard->add(event);
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
    bool fileFailed = false;
    for (auto it = m_targets.begin(); it != m_targets.end();) {
        // A file that takes only part of the lines (a full disk) gets none of them: the file
        // then ends with whole lines, and the run stops with the reason.
        const off_t sizeBefore = it->owned ? ::lseek(it->fd, 0, SEEK_END) : off_t(-1);
        if (writeAll(it->fd, lines.data(), lines.size())) {
            ++it;
            continue;
        }
        if (it->owned) {
            const int error = errno;
            if (sizeBefore >= 0)
                (void)!::ftruncate(it->fd, sizeBefore);
            m_fileError = "cannot write the events file \"" + it->path + "\": " + std::strerror(error) +
                          (error == ENOSPC || error == EDQUOT ? " (the disk is full)" : "");
            m_fileErrorKey = key::kEvents;
            ::close(it->fd);
            fileFailed = true;
        } else {
            m_lostReader = true;
        }
        it = m_targets.erase(it);
    }
    if (m_tensorBoard && !m_tensorBoard->write()) {
        if (m_fileError.empty()) {
            m_fileError = m_tensorBoard->error();
            m_fileErrorKey = key::kTensorboardDir;
        }
        m_tensorBoard.reset();
    }
    // What the file could not keep is not shown either: the reader never sees more than the record.
    if (m_streamFd >= 0 && !m_lostReader && !fileFailed) {
        if (m_pendingStart > 0 && m_pendingStart == m_pendingStream.size()) {
            m_pendingStream.clear();
            m_pendingStart = 0;
        }
        m_pendingStream += lines;
        pumpStreamLocked();
    }
}

size_t EventWriter::pendingStreamBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_pendingStream.size() - m_pendingStart;
}

void EventWriter::pumpStream()
{
    std::lock_guard lock(m_mutex);
    pumpStreamLocked();
}

void EventWriter::pumpStreamLocked()
{
    while (m_pendingStart < m_pendingStream.size() && !m_lostReader) {
        pollfd ready{m_streamFd, POLLOUT, 0};
        if (::poll(&ready, 1, 0) <= 0)
            return;
        if (ready.revents & (POLLERR | POLLNVAL)) {
            m_lostReader = true;
            return;
        }
        if (!(ready.revents & POLLOUT))
            return;
        const size_t size = std::min(kAtomicPipeWrite, m_pendingStream.size() - m_pendingStart);
        const ssize_t written = ::write(m_streamFd, m_pendingStream.data() + m_pendingStart, size);
        if (written < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            m_lostReader = true;
            return;
        }
        m_pendingStart += size_t(written);
    }
    if (m_pendingStart == m_pendingStream.size()) {
        m_pendingStream.clear();
        m_pendingStart = 0;
    } else if (m_pendingStart > (1u << 20)) {
        m_pendingStream.erase(0, m_pendingStart);  // keep the buffer from growing at its front
        m_pendingStart = 0;
    }
}

bool EventWriter::drainStream(std::chrono::milliseconds limit)
{
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (true) {
        {
            std::lock_guard lock(m_mutex);
            pumpStreamLocked();
            if (m_pendingStart == m_pendingStream.size() || m_lostReader || m_streamFd < 0)
                return m_pendingStart == m_pendingStream.size();
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd ready{m_streamFd, POLLOUT, 0};
        ::poll(&ready, 1, int(std::min<int64_t>(left.count(), 100)));
    }
}

std::string EventWriter::fileError() const
{
    std::lock_guard lock(m_mutex);
    return m_fileError;
}

std::string EventWriter::fileErrorKey() const
{
    std::lock_guard lock(m_mutex);
    return m_fileErrorKey;
}

}  // namespace ddplab
