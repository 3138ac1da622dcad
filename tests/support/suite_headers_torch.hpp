// SPDX-License-Identifier: GPL-3.0-or-later
// For the suites that test the engine's parts in-process (they link ddplab_engine): LibTorch's
// headers as the engine precompiles them, then the Qt headers of suite_headers.hpp.
#pragma once

#include "pch/torch_pch.hpp"
#include "support/suite_headers.hpp"
