// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The command-line face of the config-key table: --config FILE plus one --kebab-case option
// per key (booleans as --flag / --no-flag). Flags override the file.

#include "core/config.hpp"

#include <map>
#include <string>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace ddplab {

class ConfigOptions {
public:
    explicit ConfigOptions(CLI::App& command);

    // `base` (the defaults, or what a cluster launcher already fixed), then the config file,
    // then the flags; then the checks between keys. Throws ConfigError, also for a flag given
    // twice (which one was meant cannot be known).
    Config resolve(Config base = {}) const;

    const std::string& configFile() const { return m_configFile; }

private:
    std::string m_configFile;
    std::map<std::string, std::string> m_texts;  // key -> text given
    std::map<std::string, bool> m_flags;         // boolean key -> value given
    std::map<std::string, CLI::Option*> m_options;
    CLI::Option* m_configOption = nullptr;
};

}  // namespace ddplab
