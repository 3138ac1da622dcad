#pragma once
// The JSON type used throughout the engine: insertion-ordered so that every event starts
// with "type" and configs print in table order.

#include <nlohmann/json.hpp>

namespace ddplab {
using Json = nlohmann::ordered_json;
}
