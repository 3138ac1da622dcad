// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The single table of config keys: each key's name, what it allows, its help text, how it is
// read from JSON or command-line text and written back, how the lab presents it (label,
// group, when it matters) and what a PyTorch script of the settings does with it. The CLI, the config-file reader, the `config` event, the docs and
// the desktop lab's parameter panel are all driven by it.

#include "config.hpp"
#include "config_error.hpp"
#include "json_fwd.hpp"
#include "key_names.hpp"
#include "script_treatment.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ddplab {

enum class KeyType { Integer, Real, Boolean, Choice, Text };

// What a run resumed from a checkpoint may do with a key (docs/checkpoints.md): keep the
// writing run's value (what is trained: the model, the data, the loss, the optimizer and its
// settings, a batch schedule), change it as a branch may (the ranks, the batch and how a rank
// carries it, the LR with its rule and schedule, the data order's seed), or set it as it likes
// (how long, what is measured and written, where and how it runs).
enum class OnResume { Same, Branch, Free };

struct ConfigKey {
    std::string name;      // snake_case JSON key; the flag is --name-with-dashes
    KeyType type;
    std::string allowed;   // what values are allowed, in words: used in errors and --help
    std::string help;
    std::vector<std::string> choices;  // for KeyType::Choice
    bool optional = false;             // may be null (unset) and then has a derived default
    std::function<void(Config&, const Json&)> assign;  // throws ConfigError
    std::function<Json(const Config&)> read;

    // --- how the lab presents it ------------------------------------------------------
    std::string label;                      // "Batch per GPU"
    std::string group;                      // one of keyGroups()
    std::vector<std::string> choiceLabels;  // "sqrt: × √k", parallel to choices (empty: the choice itself)
    std::function<bool(const Config&)> matters;  // whether it has any effect with these settings
    bool hidden = false;                    // set by the lab itself, never shown (the events file)
    OnResume onResume = OnResume::Same;     // a resumed run must keep the writing run's value unless said here

    // --- what a PyTorch script of the settings does with it (script_treatment.hpp) ---------
    ScriptTreatment script;

    std::string flag() const;  // "--batch-size"
    std::string choiceLabel(const std::string& choice) const;
    bool mattersFor(const Config& config) const { return !matters || matters(config); }

    // Chained in the table: integerKey(...).presented("Batch per GPU", kParallelism).
    ConfigKey presented(std::string shownLabel, std::string inGroup) &&;
    ConfigKey when(std::function<bool(const Config&)> condition) &&;
    ConfigKey labelling(std::vector<std::string> labels) &&;
    ConfigKey inScript(ScriptTreatment treatment) &&;
    ConfigKey resumed(OnResume rule) &&;
};

// The groups of the parameter panel, in order.
struct KeyGroup {
    std::string title;
    bool collapsedByDefault = false;
};
const std::vector<KeyGroup>& keyGroups();

const std::vector<ConfigKey>& configKeys();
const ConfigKey* findConfigKey(std::string_view name);

// The first key a run resumed from a checkpoint of `writer` may not change and `run` does (a
// key that matters for `run`, OnResume::Same, another value), or null.
const ConfigKey* keyChangedOnResume(const Config& writer, const Config& run);

// The closest known key to a misspelt one, or "" when nothing is close.
std::string suggestKey(std::string_view unknown);

// Sets one key from command-line text ("16", "1e-3", "true", "sqrt").
void assignFromText(Config& config, const ConfigKey& key, std::string_view text);

// Applies every key of a JSON object; unknown keys and bad values throw ConfigError.
// `origin` names where the object came from for messages ("config file x.json").
void applyJson(Config& config, const Json& object, const std::string& origin);

// The whole config as JSON in table order (unset optional keys as null).
Json configToJson(const Config& config);

}  // namespace ddplab
