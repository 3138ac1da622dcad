#pragma once
// A private (0700) temporary directory for one run: the ranks rendezvous through a file
// store in it, so a local run opens no port and two runs never collide.

#include <string>
#include <sys/types.h>

namespace ddplab {

class RunDirectory {
public:
    RunDirectory();   // throws std::runtime_error when no directory can be made
    ~RunDirectory();  // removes the directory and its contents (in the creating process only)
    RunDirectory(const RunDirectory&) = delete;
    RunDirectory& operator=(const RunDirectory&) = delete;

    const std::string& path() const { return m_path; }
    std::string file(const std::string& name) const { return m_path + "/" + name; }

private:
    std::string m_path;
    pid_t m_owner;
};

}  // namespace ddplab
