// SPDX-License-Identifier: GPL-3.0-or-later
#include "config_options.hpp"

#include "core/config_error.hpp"
#include "core/config_file.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/protocol_names.hpp"

#include <CLI/CLI.hpp>

namespace ddplab {
namespace {

// "; default 16" for --help. Keys whose default is derived (null) say how in their help.
std::string defaultText(const Json& value)
{
    if (value.is_null())
        return "";
    return "; default " + (value.is_string() ? value.get<std::string>() : value.dump());
}

}  // namespace

ConfigOptions::ConfigOptions(CLI::App& command)
{
    m_configOption = command.add_option("--config", m_configFile,
                                        "JSON file with the same keys in snake_case (a preset; - reads it from standard "
                                        "input); flags override it")
                         ->type_name("FILE");
    m_configOption->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    const Config defaults;
    for (const ConfigKey& key : configKeys()) {
        const std::string help = key.help + " [" + key.allowed + defaultText(key.read(defaults)) + "]";
        CLI::Option* option = nullptr;
        if (key.type == KeyType::Boolean) {
            option = command.add_flag(key.flag() + ",!--no-" + key.flag().substr(2), m_flags[key.name], help);
        } else {
            option = command.add_option(key.flag(), m_texts[key.name], help);
            option->type_name(key.type == KeyType::Integer ? "INT"
                              : key.type == KeyType::Real  ? "NUM"
                                                           : "TEXT");
        }
        option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        m_options[key.name] = option;
    }
}

Config ConfigOptions::resolve(Config config) const
{
    if (m_configOption->count() > 1)
        throw ConfigError(protocol::errorKey::kConfig, "--config is given " + std::to_string(m_configOption->count()) +
                                                           " times; give one config file (flags set single keys)");
    for (const auto& [name, option] : m_options) {
        if (option->count() > 1)
            throw ConfigError(name, findConfigKey(name)->flag() + " is given " + std::to_string(option->count()) +
                                        " times; give it once");
    }
    if (m_configOption->count() > 0 && m_configFile.empty())
        throw ConfigError(protocol::errorKey::kConfig, "--config is given no file; give a JSON file of settings, or - to read it from standard input");
    if (!m_configFile.empty())
        applyJson(config, readConfigFile(m_configFile), "config file \"" + m_configFile + "\"");
    for (const ConfigKey& key : configKeys()) {
        const CLI::Option* option = m_options.at(key.name);
        if (option->count() == 0)
            continue;
        if (key.type == KeyType::Boolean)
            key.assign(config, Json(m_flags.at(key.name)));
        else
            assignFromText(config, key, m_texts.at(key.name));
    }
    requireValid(config);
    return config;
}

}  // namespace ddplab
