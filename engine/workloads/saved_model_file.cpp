#include "saved_model_file.hpp"

#include "core/config_error.hpp"
#include "core/home_path.hpp"
#include "core/key_names.hpp"
#include "data/zip_directory.hpp"
#include "output/output_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab {
namespace {

[[noreturn]] void refuse(const std::string& target, const std::string& problem)
{
    throw ConfigError(key::kSaveModel, std::string(key::kSaveModel) + " " + target + " " + problem);
}

std::string folderOf(const std::string& path)
{
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool writtenByTheLab(const std::string& path)
{
    try {
        const std::vector<ZipEntry> entries = readZipDirectory(path);
        const std::string marker = std::string("/extra/") + kSavedModelMarker;
        return std::any_of(entries.begin(), entries.end(), [&](const ZipEntry& entry) {
            return entry.name.size() >= marker.size() && entry.name.compare(entry.name.size() - marker.size(), marker.size(), marker) == 0;
        });
    } catch (const std::exception&) {
        return false;  // not even a zip archive
    }
}

// A write that failed for lack of room is an output failure (exit 6, as a full disk under the
// events file); any other is the path's fault.
[[noreturn]] void writeFailed(const std::string& target, const std::string& doing, int error)
{
    const std::string message = std::string(key::kSaveModel) + " " + target + " could not be written (" + doing + ": " +
                                std::strerror(error) + "); the file that was there is unchanged";
    if (error == ENOSPC || error == EDQUOT || error == EFBIG)
        throw OutputError(message, key::kSaveModel);
    throw ConfigError(key::kSaveModel, message);
}

}  // namespace

std::string checkSaveTarget(const std::string& saveModel)
{
    if (saveModel.empty())
        return {};
    const std::string target = expandHome(saveModel);
    if (target.back() == '/')
        refuse(target, "ends with '/': name the file to write, such as " + target + "model.pt");
    struct stat info {};
    if (::stat(target.c_str(), &info) == 0) {
        if (S_ISDIR(info.st_mode))
            refuse(target, "is a folder: name the file to write in it, such as " + target + "/model.pt");
        if (!S_ISREG(info.st_mode))
            refuse(target, "exists and is not a regular file (a FIFO, a socket or a device); name a file to write");
    }
    const std::string folder = folderOf(target);
    struct stat folderInfo {};
    if (::stat(folder.c_str(), &folderInfo) != 0)
        refuse(target, "cannot be written: its folder " + folder + " " + (errno == ENOENT ? "does not exist" : std::strerror(errno)));
    if (!S_ISDIR(folderInfo.st_mode))
        refuse(target, "cannot be written: " + folder + " is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        refuse(target, "cannot be written: its folder " + folder + " is not writable (" + std::strerror(errno) + ")");
    if (S_ISREG(info.st_mode) && ::access(target.c_str(), F_OK) == 0 && !writtenByTheLab(target))
        return std::string(key::kSaveModel) + " " + target +
               " exists and is not a model DDP Lab wrote: the trained model will replace it at the end of the run";
    return {};
}

void writeSavedModel(const std::string& target, const std::string& bytes)
{
    const std::string folder = folderOf(target);
    const size_t slash = target.rfind('/');
    const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    const std::string partial = folder + "/." + name + ".partial-" + std::to_string(::getpid());
    const int fd = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        writeFailed(target, "creating " + partial, errno);
    auto abandon = [&](const std::string& doing, int error) {
        ::close(fd);
        ::unlink(partial.c_str());
        writeFailed(target, doing, error);
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
        writeFailed(target, "closing", error);
    }
    // A link named as the target is replaced by the file, not written through.
    if (::rename(partial.c_str(), target.c_str()) != 0) {
        const int error = errno;
        ::unlink(partial.c_str());
        writeFailed(target, "renaming " + partial, error);
    }
}

}  // namespace ddplab
