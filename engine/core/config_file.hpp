#pragma once
// Reading a config (preset) file: a JSON object with the snake_case keys of config_keys.

#include "json.hpp"

#include <string>

namespace ddplab {

// Throws ConfigError with key "config" when the file cannot be read or is not valid JSON,
// saying which file and, for JSON errors, where in it.
Json readConfigFile(const std::string& path);

}  // namespace ddplab
