// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine processes the lab starts never outlive it. Destructors kill them on an ordinary
// exit, but a lab ended by a signal (SIGTERM, SIGKILL, a crash) runs none: on Linux the kernel
// then sends the child a signal of its own (PR_SET_PDEATHSIG). Elsewhere the destructors are
// all there is.

class QProcess;

namespace ddplab::ui {

// Call before `process` starts. The kernel sends `signal` when the thread that starts the
// process ends (every engine process is started from the main thread, which ends with the lab).
void endWithLab(QProcess& process, int signal);

}  // namespace ddplab::ui
