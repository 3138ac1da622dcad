// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One invalid setting: which key, and a sentence saying what is allowed.

#include <stdexcept>
#include <string>
#include <vector>

namespace ddplab {

class ConfigError : public std::runtime_error {
public:
    // `key` is the snake_case config key ("batch_size"), or empty for errors about the
    // command line or the config file as a whole.
    ConfigError(std::string key, const std::string& message)
        : std::runtime_error(message), m_key(std::move(key)) {}

    const std::string& key() const { return m_key; }

private:
    std::string m_key;
};

// Several problems found at once (the desktop lab marks each at its field).
struct ConfigProblem {
    std::string key;
    std::string message;
};
using ConfigProblems = std::vector<ConfigProblem>;

}  // namespace ddplab
