// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Ports on 127.0.0.1 for suites that start something that listens (sshd, torchrun's store, a
// worker's rendezvous).

namespace ddplab::test {

// A TCP port of 127.0.0.1 that nothing listens on just now (the kernel's pick, so two suites
// running side by side do not pick the same one); 0 when no socket could be had.
int freeLoopbackPort();

// A socket on 127.0.0.1:`port` (0: any free one), bound, or connected when `connectToIt`;
// -1 when it cannot be had.
int loopbackSocket(int port, bool connectToIt);

}  // namespace ddplab::test
