// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the engine's config reading, from bytes to a checked Config. Whatever the
// input, it ends in a Config or a ConfigError, never a crash, a hang or unbounded memory
// (scripts/fuzz.sh runs it under AddressSanitizer and UndefinedBehaviorSanitizer).

#include "core/config_error.hpp"
#include "core/config_file.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size > ddplab::kMaxConfigBytes)
        return 0;  // readConfigFile refuses these before parsing
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        ddplab::Config config;
        ddplab::applyJson(config, ddplab::parseConfigText(text, "fuzz input"), "fuzz input");
        ddplab::MachineResources machine;
        machine.cpuCores = 2;
        machine.memoryAvailableBytes = int64_t(1) << 34;
        if (ddplab::findProblems(config, &machine, config.worldSize).empty()) {
            // What the window previews for a valid config: the derived arithmetic must hold too.
            (void)ddplab::totalSteps(config);
            (void)ddplab::learningRateAt(config, ddplab::totalSteps(config) / 2);
            (void)ddplab::estimatedRankBytes(config);
        }
    } catch (const ddplab::ConfigError&) {
    }
    return 0;
}
