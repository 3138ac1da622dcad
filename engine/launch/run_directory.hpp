// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A private (0700) temporary directory for one run: the ranks rendezvous through a file
// store in it, so a local run opens no port and two runs never collide; `ddplab-engine runs`
// keeps a config that came on stdin in one. It names its owner (the creating process's pid
// and start time), so that the directory of a process that was killed with SIGKILL is removed
// by the next one that makes such a directory instead of staying behind.

#include <string>
#include <sys/types.h>

namespace ddplab {

class RunDirectory {
public:
    static constexpr char kRunPrefix[] = "ddplab-run-";        // the launcher's rendezvous store
    static constexpr char kConfigPrefix[] = "ddplab-config-";  // a config `runs` received on stdin

    // `prefix` + six random characters under `parent` ("": $TMPDIR, default /tmp). Throws
    // ConfigError("environment") when that names no writable folder, std::runtime_error for
    // other failures.
    explicit RunDirectory(const std::string& prefix = kRunPrefix, const std::string& parent = std::string());
    ~RunDirectory();  // removes the directory and its contents (in the creating process only)
    RunDirectory(const RunDirectory&) = delete;
    RunDirectory& operator=(const RunDirectory&) = delete;

    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

    // $TMPDIR, or /tmp when it is unset; ConfigError("environment") when it names no folder
    // this user can write to (a missing TMPDIR is not created: it is a mistake to point out).
    static std::string temporaryFolder();
    // Removes this user's `prefix` directories under `parent` whose owner is gone; returns how many.
    static int removeStale(const std::string& parent, const std::string& prefix);

private:
    std::string m_path;
    pid_t m_owner;
};

}  // namespace ddplab
