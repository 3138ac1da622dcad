// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a PyTorch script of the lab's settings (ui/client/script, docs/pytorch-script.md) does
// with each config key, declared beside the key in the table (config_keys.cpp:
// `.inScript(...)`): the script reproduces it, refusing the values it cannot (with a sentence
// saying why and what to choose instead), or leaves it out because no step's loss depends on it
// (said in the script's docstring where the settings use it). The script generator asks the
// table, never a list of its own; tst_pytorch_script walks every key.

#include "config.hpp"

#include <functional>
#include <string>

namespace ddplab {

struct ScriptTreatment {
    enum class Kind {
        Undeclared,  // nobody has decided yet: tst_pytorch_script fails on it
        Reproduced,  // the script does with it what the lab does
        LeftOut,     // not in the script: no step's loss depends on it
    };
    Kind kind = Kind::Undeclared;
    // LeftOut: why no step's loss depends on it.
    std::string why;
    // Reproduced: the sentence refusing these settings a script, "" where the script does them.
    std::function<std::string(const Config&)> refusal;
    // LeftOut: the docstring's sentence on what the lab does with these settings and the script
    // does not, "" where there is nothing to say.
    std::function<std::string(const Config&)> note;

    std::string refusalFor(const Config& config) const { return refusal ? refusal(config) : std::string(); }
    std::string noteFor(const Config& config) const { return note ? note(config) : std::string(); }
};

namespace script_treatment {

// The script does what the lab does, for every value.
ScriptTreatment reproduced();
// The script does what the lab does, except where `refusal` gives a sentence.
ScriptTreatment reproducedUnless(std::function<std::string(const Config&)> refusal);
// Not in the script: `why` no step's loss depends on it; `note`, when given, is the docstring's
// sentence for settings that use it.
ScriptTreatment leftOut(std::string why, std::function<std::string(const Config&)> note = {});

// The sentences, one per key that has one.
std::string optimizerRefusal(const Config& config);
std::string experimentsRefusal(const Config& config);
std::string batchScheduleRefusal(const Config& config);
std::string resumeFromRefusal(const Config& config);
std::string stopAtLossNote(const Config& config);
std::string valDataNote(const Config& config);
std::string failAtNote(const Config& config);
std::string overlapNote(const Config& config);
std::string checkpointAtNote(const Config& config);
std::string tensorboardDirNote(const Config& config);

}  // namespace script_treatment

}  // namespace ddplab
