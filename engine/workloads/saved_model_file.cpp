// SPDX-License-Identifier: GPL-3.0-or-later
#include "saved_model_file.hpp"

#include "core/config_error.hpp"
#include "core/home_path.hpp"
#include "core/key_names.hpp"
#include "data/zip_directory.hpp"
#include "output/file_beside.hpp"

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
    writeFileBeside(target, bytes, key::kSaveModel);
}

}  // namespace ddplab
