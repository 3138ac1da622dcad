// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_directory.hpp"

#include "core/config_error.hpp"
#include "core/protocol_names.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace ddplab {
namespace {

constexpr char kOwnerFile[] = "owner";

// Field 22 of /proc/PID/stat: when the process started, so that a pid reused by another
// process is not taken for the owner; "" when it is gone. A zombie is gone too: it runs no
// more, and where nothing reaps orphans (a container's init) it stays a zombie for good.
std::string startTimeOf(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto afterName = text.rfind(')');
    if (afterName == std::string::npos)
        return std::string();
    std::istringstream fields(text.substr(afterName + 2));
    std::string field;
    for (int index = 3; index <= 22 && fields >> field; ++index) {
        if (index == 3 && (field == "Z" || field == "X"))
            return std::string();
        if (index == 22)
            return field;
    }
    return std::string();
}

}  // namespace

std::string RunDirectory::temporaryFolder()
{
    const char* tmp = std::getenv("TMPDIR");
    if (!tmp || !*tmp)
        return "/tmp";
    struct stat info {};
    if (::stat(tmp, &info) != 0 || !S_ISDIR(info.st_mode))
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("TMPDIR is \"") + tmp +
                                             "\", which is not a folder; set TMPDIR to a writable folder, or unset it to use /tmp");
    if (::access(tmp, W_OK | X_OK) != 0)
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("TMPDIR is \"") + tmp +
                                             "\", which this user cannot write to; set TMPDIR to a writable folder, or unset it to use /tmp");
    return tmp;
}

RunDirectory::RunDirectory(const std::string& prefix, const std::string& parentGiven) : m_owner(::getpid())
{
    const std::string parent = parentGiven.empty() ? temporaryFolder() : parentGiven;
    removeStale(parent, prefix);
    std::string pattern = parent + "/" + prefix + "XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    // mkdtemp creates the directory with mode 0700: only this user can reach the store.
    if (!::mkdtemp(buffer.data()))
        throw std::runtime_error("cannot create a private run directory from " + pattern + ": " + std::strerror(errno));
    m_path = buffer.data();
    std::ofstream(file(kOwnerFile)) << m_owner << ' ' << startTimeOf(m_owner) << '\n';
}

RunDirectory::~RunDirectory()
{
    if (::getpid() != m_owner)
        return;
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

int RunDirectory::removeStale(const std::string& parent, const std::string& prefix)
{
    int removed = 0;
    DIR* folder = ::opendir(parent.c_str());
    if (!folder)
        return 0;
    std::vector<std::string> candidates;
    while (const dirent* entry = ::readdir(folder)) {
        if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) == 0)
            candidates.push_back(parent + "/" + entry->d_name);
    }
    ::closedir(folder);
    for (const std::string& path : candidates) {
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid())
            continue;  // another user's, or not ours to judge
        std::ifstream owner(path + "/" + kOwnerFile);
        pid_t pid = 0;
        std::string started;
        if (!(owner >> pid >> started))
            continue;  // being created right now, or not a run directory of this version
        if (pid > 0 && startTimeOf(pid) == started)
            continue;  // its owner still runs
        std::error_code ignored;
        if (std::filesystem::remove_all(path, ignored) > 0)
            ++removed;
    }
    return removed;
}

}  // namespace ddplab
