#include "run_directory.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace ddplab {

RunDirectory::RunDirectory() : m_owner(::getpid())
{
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/ddplab-run-XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    // mkdtemp creates the directory with mode 0700: only this user can reach the store.
    if (!::mkdtemp(buffer.data()))
        throw std::runtime_error("cannot create a private run directory from " + pattern + ": " + std::strerror(errno));
    m_path = buffer.data();
}

RunDirectory::~RunDirectory()
{
    if (::getpid() != m_owner)
        return;
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

}  // namespace ddplab
