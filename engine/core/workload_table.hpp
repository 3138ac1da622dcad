// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every workload described once, as the config keys are (config_keys.cpp): its name on the
// wire, what kind of model it trains, which key sizes its training set, where its validation
// loss comes from, whether it measures accuracy, and Setup's words for it. The engine's rules,
// the launcher, checkpoints, the advisor, the estimator, the study figures, the script generator
// and the window ask this table instead of switching on WorkloadKind; what is left of those
// switches, tests/setup/tst_architecture_doc counts (docs/architecture.md, "Adding a workload").
// A workload is one row here plus its code; one whose code lives elsewhere (a test's) adds its
// row with addWorkloadRow, and its maker with engine/workloads/make_workload.hpp's registerWorkload.

#include "config.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

// A key of a workload added with addWorkloadRow: a number kept in Config::workloadValues under
// its name. (The built-in workloads' keys are Config's own fields, in config_keys.cpp.)
struct WorkloadKey {
    std::string name;          // snake_case, unlike every other key's
    bool integer = false;      // an integer, else a real number
    double min = 0, max = 0;   // the values allowed, both included
    double defaultValue = 0;   // its value while unset
    std::string help;          // --help's and Setup's sentence
    std::string label;         // Setup's words for it
};

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
    // Where its validation loss comes from: none, a set of its own (Fashion-MNIST's 10,000 test
    // images), or val_data when you give it.
    enum class Validation { None, OwnSet, FromValData } validation;
    // Whether its targets are classes, so accuracy is measured: never, always, or when the loss
    // is cross-entropy (your own model's loss is yours).
    enum class Classes { Never, Always, WhenCrossEntropy } classes;
    bool choosesModel;     // the model key picks its network (Fashion-MNIST's MLP, CNN, MLP with BatchNorm)
    bool oneWeight;        // its model is one weight w (the toy's neuron): w_mean is its figure
    const char* setupLabel;  // what Setup's workload choice says
    const char* helpPhrase;  // what it trains, in the workload key's help ("what to train: …")
    std::vector<std::string> ownKeys;  // the keys that are its alone: Setup shows them only for it
    // Its data's size and its words, from the settings: small functions beside the rows.
    int64_t (*wholeTrainingSet)(const Config&);  // before train_subset takes part of it
    std::string (*modelWords)(const Config&);    // the model, as an advice names it: "linreg (dim 16)"
    std::string (*dataWords)(const Config&);     // its data, as an advice names it: "512 generated examples (data seed 0)"
    // What a rank holds of its data and of a step's tensors, in bytes (a rank's memory estimate,
    // derived.cpp's estimatedRankBytes, adds the process and the sampler).
    double (*rankDataBytes)(const Config&);
    // Vectorised: the values one example of one experiment holds in memory (the toy's x and y:
    // 2), and how a message writes that factor ("2", "(dim + 1)"); null for the others.
    double (*heldValuesPerExample)(const Config&);
    const char* heldValuesFactor;
    // Vectorised: what a rank draws for one example of one experiment before its first step, in
    // a toy value's cost (the estimator's start-up, ui/client/study/study_estimate.cpp); null: none.
    double (*drawnValuesPerExample)(const Config&);
    // The keys of a workload added with addWorkloadRow (their names join ownKeys there).
    std::vector<WorkloadKey> keys;
};

// The rows, in the workload key's order. The first read fixes them: addWorkloadRow after it throws.
const std::vector<WorkloadTraits>& workloadTable();

// Adds a workload whose row is not in workload_table.cpp (a test's own): after the built-in
// ones, with the next WorkloadKind (past the named ones); its keys join its ownKeys. Only
// before anything has read the table (the key table is built from it once); throws
// std::logic_error after that, or for a name or key name already taken.
WorkloadKind addWorkloadRow(WorkloadTraits row);

// The value of `key`, one of the keys of an added workload's row: as set, else its default.
double workloadValue(const Config& config, const std::string& key);

// The row of `kind`: every WorkloadKind has one (one without is a programming error: it throws).
const WorkloadTraits& traitsOf(WorkloadKind kind);

inline const WorkloadTraits& traitsOf(const Config& config) { return traitsOf(config.workload); }

// Whether a run of `config` measures a validation loss (its row's validation, and val_data).
bool hasValidationSet(const Config& config);

// Whether a run of `config` measures accuracy (its row's classes, and the loss).
bool measuresAccuracy(const Config& config);

// Whether `key` is one of the keys of `config`'s workload alone, or no workload's (shared).
bool appliesToWorkload(const Config& config, const std::string& key);

}  // namespace ddplab
