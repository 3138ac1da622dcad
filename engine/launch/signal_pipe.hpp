// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Signals as bytes on a pipe (the self-pipe trick): a handler may do little more than write(),
// so SIGINT, SIGTERM, SIGHUP and SIGCHLD each write their number and the process's poll() loop
// reads them back. SIGPIPE is ignored: a reader that goes away shows as EPIPE. One per process:
// the launcher and `ddplab-engine runs` each open it; a forked child that becomes something
// else closes it first.

#include <string>
#include <vector>

namespace ddplab::signal_pipe {

// Creates the pipe and installs the handlers; false with `error` set when the pipe cannot be made.
bool open(std::string* error);
// The end to poll for POLLIN.
int fd();
// The signals that arrived since the last call, in order (none: empty).
std::vector<int> take();
// Closes both ends (the handlers stay: the caller resets them as it needs).
void close();

}  // namespace ddplab::signal_pipe
