// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_beside.hpp"

#include "core/config_error.hpp"
#include "output_error.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ddplab {
namespace {

// A write that failed for lack of room is an output failure (exit 6, as a full disk under the
// events file); any other is the path's fault.
[[noreturn]] void writeFailed(const std::string& key, const std::string& target, const std::string& doing, int error)
{
    const std::string message = key + " " + target + " could not be written (" + doing + ": " +
                                std::strerror(error) + "); the file that was there is unchanged";
    if (error == ENOSPC || error == EDQUOT || error == EFBIG)
        throw OutputError(message, key);
    throw ConfigError(key, message);
}

}  // namespace

std::string folderOf(const std::string& path)
{
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

void writeFileBeside(const std::string& target, const std::string& bytes, const std::string& key)
{
    const std::string folder = folderOf(target);
    const size_t slash = target.rfind('/');
    const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    const std::string partial = folder + "/." + name + ".partial-" + std::to_string(::getpid());
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        writeFailed(key, target, "creating " + partial, errno);
    auto abandon = [&](const std::string& doing, int error) {
        ::close(fd);
        ::unlink(partial.c_str());
        writeFailed(key, target, doing, error);
    };
    for (size_t written = 0; written < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            abandon("writing", n < 0 ? errno : ENOSPC);
        written += size_t(n);
    }
    if (::fsync(fd) != 0)
        abandon("syncing", errno);
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(partial.c_str());
        writeFailed(key, target, "closing", error);
    }
    // A link named as the target is replaced by the file, not written through.
    if (::rename(partial.c_str(), target.c_str()) != 0) {
        const int error = errno;
        ::unlink(partial.c_str());
        writeFailed(key, target, "renaming " + partial, error);
    }
}

}  // namespace ddplab
