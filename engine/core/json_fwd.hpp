// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's JSON type declared, not defined: for headers that only name it (the key table's
// readers and writers), so that including them does not bring the whole of nlohmann/json into
// every file of the window. Files that build or read JSON include json.hpp.

#include <nlohmann/json_fwd.hpp>

namespace ddplab {
// Insertion-ordered, so that every event starts with "type" and configs print in table order.
using Json = nlohmann::ordered_json;
}
