// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How many intra-op threads a rank takes when `threads` is 0 (docs/metrics.md): a share of the
// cores other programs leave free, not of all cores. A rank's OpenMP threads wait for each
// other at every parallel region; with more threads than free cores one of them is always
// descheduled and the rest spin for it: a 1-rank run beside one busy program on 2 cores ran
// 7-14x slower with 2 threads than with 1. So the share is the free cores (measured over a
// moment from /proc/stat) divided by the ranks on this machine, rounded down, at least one.

#include <string>

namespace ddplab {

struct ThreadShare {
    int threads = 1;
    std::string reason;  // "2 cores, 1.0 busy with other programs: 1 free core for 1 rank"
};

// `busyCores`: the cores other programs kept busy (busyCoresNow()); NaN when unknown (all are
// taken as free).
ThreadShare shareOfFreeCores(int cores, double busyCores, int localRanks);

// The cores busy over the last `milliseconds`, from /proc/stat (this process sleeps while it
// looks); NaN when /proc/stat cannot be read.
double busyCoresNow(int milliseconds = 200);

}  // namespace ddplab
