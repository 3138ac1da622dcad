// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A leading "~/" in a path the user typed is the home folder, as in a shell: config files and
// studies name files that way (model_file, train_data, --run-dir) and a shell never sees them.

#include <cstdlib>
#include <string>

namespace ddplab {

inline std::string expandHome(const std::string& path)
{
    const char* home = std::getenv("HOME");
    if (path.rfind("~/", 0) == 0 && home && *home)
        return std::string(home) + path.substr(1);
    return path;
}

}  // namespace ddplab
