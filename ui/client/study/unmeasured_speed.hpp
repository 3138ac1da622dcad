// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How fast this machine is before any run here measured it (MachineSpeed::measure with no runs):
// the estimator's constants were fitted on the 2-core development machine while other programs
// kept it busy (load 2-5), so in a fresh data folder a first lesson took 0.41-0.50x of what they
// said with nothing else running (seed000-four-ways: 5.6 s estimated, 2.3-2.8 s taken, 2026-12-01)
// and 0.71-0.75x beside two busy programs. Until its own runs say better, the machine is taken to
// be as much faster or slower as a process's share of a core at the load now is larger or smaller
// than at the constants' load: the same lesson was then estimated 3.0-3.8 s and 3.6 s (0.70-0.93x
// and 1.10-1.16x of what it took).

namespace ddplab::ui {

// The load the constants were fitted at (the middle of 2-5) on their 2 cores.
inline constexpr double kConstantsLoad = 3.5;

// The factor on the constants' seconds at `load` (the 1-minute load average, other programs'
// runnable threads) on `cores`: 1 at the constants' load, 0.44 on an idle machine, more where
// a process gets less than the constants' share of a core.
double unmeasuredFactor(double load, int cores);

// The load now: $DDPLAB_MACHINE_LOAD where it is set (the test suites pin the constants' load,
// so that what they assert does not move with what the machine is doing), else /proc/loadavg's
// 1-minute average; the constants' load where neither can be read.
double machineLoadNow();

}  // namespace ddplab::ui
