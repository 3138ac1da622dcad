// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// For the window's suites (they link ddplab_client): the lab's launch options as a person's
// command line would give them, with the engine the suites run.

#include "client/session/launch_options.hpp"
#include "support/engine_process.hpp"

namespace ddplab::test {

inline ui::LaunchOptions withEngine(const QString& engine = enginePath())
{
    ui::LaunchOptions options;
    options.enginePath = engine;
    return options;
}

}  // namespace ddplab::test
