#pragma once
// `ddplab-engine keys`: the config-key table with each key's flag, type, default, what it
// allows and its help, for tools and for docs/configuration.md (scripts/gen-config-doc.py).

#include "core/json.hpp"

namespace ddplab {

Json keyReport();

}  // namespace ddplab
