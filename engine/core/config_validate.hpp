#pragma once
// Checks between keys (each key's own range is checked when it is read).

#include "config.hpp"
#include "config_error.hpp"

namespace ddplab {

// Every problem found, each attached to the key the user should change.
ConfigProblems findProblems(const Config& config);

// Throws ConfigError for the first problem.
void requireValid(const Config& config);

}  // namespace ddplab
