#pragma once
// A private (0700) temporary directory for one run: the ranks rendezvous through a file
// store in it, so a local run opens no port and two runs never collide. It names its owner
// (the launcher's pid and start time), so that the directory of a launcher that was killed
// with SIGKILL is removed by the next run instead of staying behind.

#include <string>
#include <sys/types.h>

namespace ddplab {

class RunDirectory {
public:
    // Under $TMPDIR (default /tmp). Throws ConfigError("environment") when TMPDIR names no
    // writable folder, std::runtime_error for other failures.
    RunDirectory();
    ~RunDirectory();  // removes the directory and its contents (in the creating process only)
    RunDirectory(const RunDirectory&) = delete;
    RunDirectory& operator=(const RunDirectory&) = delete;

    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

    // Removes this user's run directories under `parent` whose launcher is gone; returns how many.
    static int removeStale(const std::string& parent);

private:
    std::string m_path;
    pid_t m_owner;
};

}  // namespace ddplab
