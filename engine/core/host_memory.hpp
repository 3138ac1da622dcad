// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How much memory a run's ranks can have on this machine (Linux): the least of what the kernel
// calls available (MemAvailable), what this process's cgroup still allows (a container's or a
// systemd slice's memory limit), and, for each rank on its own, what RLIMIT_AS (ulimit -v)
// leaves a process that has already mapped LibTorch. The memory check (config_validate) and
// the `devices` report both read it here. GPU memory is not this file's business.

#include <cstdint>
#include <string>

namespace ddplab {

struct HostMemory {
    int64_t availableBytes = 0;  // for all ranks together; 0: unknown
    std::string limitedBy;       // what set availableBytes when it was not MemAvailable ("" when it was)
    int64_t perProcessBytes = 0; // what RLIMIT_AS leaves each rank's process; 0: no such limit
};

HostMemory hostMemory();

// The pieces, for tests on made-up files: MemAvailable from /proc/meminfo's text; what the
// cgroup still allows (limit less usage, less the page cache it can reclaim), from
// /proc/self/cgroup's text and the folder its hierarchies are mounted in (cgroup v2 or v1),
// the tightest limit from the process's own cgroup up to the root (0: none); what an address
// space limit leaves a process of `addressSpaceBytes` (0: no limit).
int64_t memAvailableBytes(const std::string& meminfo);
int64_t cgroupHeadroomBytes(const std::string& procSelfCgroup, const std::string& cgroupRoot);
int64_t addressSpaceLeftBytes(int64_t limitBytes, int64_t addressSpaceBytes);

}  // namespace ddplab
