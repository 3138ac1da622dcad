// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The JSON type used throughout the engine (declared in json_fwd.hpp), with its definition.

#include "json_fwd.hpp"

#include <nlohmann/json.hpp>
