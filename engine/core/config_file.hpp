// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a config (preset) file: a JSON object with the snake_case keys of config_keys.

#include "json.hpp"

#include <cstddef>
#include <string>

namespace ddplab {

// A config is a few dozen settings; beyond this it is not one (and /dev/zero never ends).
constexpr size_t kMaxConfigBytes = 1 << 20;

// Reads `path` ("-": standard input, as a remote run receives its config). Throws ConfigError
// with key "config" when it cannot be read, is not a regular file, is over kMaxConfigBytes or
// is not valid JSON (saying which file and where in it), and with the key itself when a key
// appears twice or its number overflows a double.
Json readConfigFile(const std::string& path);

// The same checks on text already read; `origin` names it in messages.
Json parseConfigText(const std::string& text, const std::string& origin);

}  // namespace ddplab
