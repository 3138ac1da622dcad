// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every workload described once, as the config keys are (config_keys.cpp): its name on the
// wire, what kind of model it trains and which key sizes its training set. The engine's rules
// (config_keys.cpp, config_validate.cpp, derived.cpp) and what a script does with a setting
// (script_treatment.cpp) ask this table instead of switching on WorkloadKind; what is left of
// those switches, tests/setup/tst_architecture_doc counts (docs/architecture.md, "Adding a
// workload").

#include "config.hpp"

#include <vector>

namespace ddplab {

struct WorkloadTraits {
    WorkloadKind kind;
    const char* name;  // the workload key's value (key_names.hpp's choice::workload)
    // Many independent experiments in one tensor, its data made from num_examples (seeds 000
    // and 004): experiments > 1 is allowed, the training loss is measured exactly, no script
    // of it trains one model.
    bool vectorised;
    // A network with a forward pass over real data: an evaluation costs, so it runs once an
    // epoch unless asked for more.
    bool runsNetwork;
    bool ownModel;         // your TorchScript model on your own data (docs/own-model.md)
    const char* sizeKey;   // the key that sets how many examples it trains on
};

// The rows, in the workload key's order.
const std::vector<WorkloadTraits>& workloadTable();

// The row of `kind`: every WorkloadKind has one (one without is a programming error: it throws).
const WorkloadTraits& traitsOf(WorkloadKind kind);

inline const WorkloadTraits& traitsOf(const Config& config) { return traitsOf(config.workload); }

}  // namespace ddplab
