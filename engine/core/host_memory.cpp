// SPDX-License-Identifier: GPL-3.0-or-later
#include "host_memory.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>

namespace ddplab {
namespace {

// cgroup v1 writes "no limit" as the largest page-aligned number; anything this large is none.
constexpr int64_t kNoLimit = int64_t(1) << 62;

std::string fileText(const std::string& path)
{
    std::ifstream file(path);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// A number alone in a file ("max" and anything else: -1).
int64_t numberIn(const std::string& path)
{
    std::ifstream file(path);
    int64_t value = -1;
    if (!(file >> value))
        return -1;
    return value;
}

// "name value" lines (memory.stat, /proc/self/status without its units): value, or -1.
int64_t fieldOf(const std::string& text, const std::string& name)
{
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string key;
        int64_t value = 0;
        if (fields >> key >> value && (key == name || key == name + ":"))
            return value;
    }
    return -1;
}

bool isFolder(const std::string& path)
{
    struct stat info {};
    return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

// From the process's own cgroup up to the hierarchy's root (as far as this mount shows it: in
// a container the root is the container's own cgroup), the least headroom any level allows.
int64_t tightestHeadroom(const std::string& mount, std::string path, const char* limitFile, const char* usageFile,
                         const char* inactiveFileStat)
{
    while (!path.empty() && path.back() == '/')
        path.pop_back();
    if (!isFolder(mount + path))
        path.clear();  // the mount is the cgroup itself (a cgroup namespace): start at its root
    int64_t tightest = 0;
    while (true) {
        const std::string folder = mount + path;
        const int64_t limit = numberIn(folder + "/" + limitFile);
        const int64_t usage = numberIn(folder + "/" + usageFile);
        if (limit > 0 && limit < kNoLimit && usage >= 0) {
            const int64_t reclaimable = std::max<int64_t>(0, fieldOf(fileText(folder + "/memory.stat"), inactiveFileStat));
            const int64_t headroom = std::max<int64_t>(0, limit - std::max<int64_t>(0, usage - reclaimable));
            tightest = tightest == 0 ? std::max<int64_t>(headroom, 1) : std::min(tightest, headroom);
        }
        if (path.empty())
            return tightest;
        path = path.substr(0, path.rfind('/'));
    }
}

}  // namespace

int64_t memAvailableBytes(const std::string& meminfo)
{
    const int64_t kib = fieldOf(meminfo, "MemAvailable");
    return kib > 0 ? kib * 1024 : 0;
}

int64_t cgroupHeadroomBytes(const std::string& procSelfCgroup, const std::string& cgroupRoot)
{
    // "4:memory:/path" (v1, the memory controller's own hierarchy) or "0::/path" (v2).
    std::istringstream lines(procSelfCgroup);
    std::string line;
    std::string v1Path, v2Path;
    bool hasV1 = false, hasV2 = false;
    while (std::getline(lines, line)) {
        const size_t first = line.find(':');
        const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos)
            continue;
        const std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
        const std::string path = line.substr(second + 1);
        if (controllers == ",,") {
            hasV2 = true;
            v2Path = path;
        } else if (controllers.find(",memory,") != std::string::npos) {
            hasV1 = true;
            v1Path = path;
        }
    }
    if (hasV1)
        return tightestHeadroom(cgroupRoot + "/memory", v1Path, "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file");
    if (hasV2)
        return tightestHeadroom(cgroupRoot, v2Path, "memory.max", "memory.current", "inactive_file");
    return 0;
}

int64_t addressSpaceLeftBytes(int64_t limitBytes, int64_t addressSpaceBytes)
{
    if (limitBytes <= 0)
        return 0;
    return std::max<int64_t>(1, limitBytes - addressSpaceBytes);
}

HostMemory hostMemory()
{
    HostMemory memory;
    memory.availableBytes = memAvailableBytes(fileText("/proc/meminfo"));
    const int64_t cgroup = cgroupHeadroomBytes(fileText("/proc/self/cgroup"), "/sys/fs/cgroup");
    if (cgroup > 0 && (memory.availableBytes == 0 || cgroup < memory.availableBytes)) {
        memory.availableBytes = cgroup;
        memory.limitedBy = "what this process's cgroup still allows (its memory limit)";
    }
    rlimit limit {};
    if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        const int64_t mappedKib = std::max<int64_t>(0, fieldOf(fileText("/proc/self/status"), "VmSize"));
        memory.perProcessBytes = addressSpaceLeftBytes(int64_t(limit.rlim_cur), mappedKib * 1024);
    }
    return memory;
}

}  // namespace ddplab
