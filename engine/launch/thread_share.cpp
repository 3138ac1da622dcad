// SPDX-License-Identifier: GPL-3.0-or-later
#include "thread_share.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace ddplab {
namespace {

struct CpuTimes {
    double busy = 0.0, all = 0.0;
    bool ok = false;
};

// The first line of /proc/stat: user nice system idle iowait irq softirq steal (jiffies).
CpuTimes readCpuTimes()
{
    std::ifstream stat("/proc/stat");
    std::string line;
    std::getline(stat, line);
    std::istringstream in(line);
    std::string name;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    in >> name >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    if (name != "cpu" || !in)
        return {};
    const double busy = user + nice + system + irq + softirq + steal;
    return {busy, busy + idle + iowait, true};
}

std::string coreCount(double cores)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", cores);
    return text;
}

}  // namespace

ThreadShare shareOfFreeCores(int cores, double busyCores, int localRanks)
{
    cores = std::max(1, cores);
    localRanks = std::max(1, localRanks);
    ThreadShare share;
    if (!std::isfinite(busyCores)) {
        share.threads = std::max(1, cores / localRanks);
        share.reason = std::to_string(cores) + " cores (how busy they are could not be read) for " + std::to_string(localRanks) +
                       (localRanks == 1 ? " rank" : " ranks");
        return share;
    }
    // A core busy for more than a quarter of the moment counts as taken.
    const double free = std::max(0.0, double(cores) - busyCores);
    const int freeCores = std::max(0, int(std::floor(free + 0.25)));
    share.threads = std::max(1, freeCores / localRanks);
    share.reason = std::to_string(cores) + " cores, " + coreCount(busyCores) + " busy with other programs: " +
                   std::to_string(freeCores) + " free for " + std::to_string(localRanks) + (localRanks == 1 ? " rank" : " ranks");
    if (freeCores < localRanks)
        share.reason += " (one thread each: fewer free cores than ranks)";
    return share;
}

double busyCoresNow(int milliseconds)
{
    const CpuTimes before = readCpuTimes();
    std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
    const CpuTimes after = readCpuTimes();
    if (!before.ok || !after.ok || after.all <= before.all)
        return std::nan("");
    const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
    return double(cores) * (after.busy - before.busy) / (after.all - before.all);
}

}  // namespace ddplab
