// SPDX-License-Identifier: GPL-3.0-or-later
// Precompiled once per build (DDPLAB_PCH): the LibTorch headers most engine files include.
// Each of them costs seconds to parse, so parsing them once per target matters on 2 cores.
#pragma once

#include <ATen/ATen.h>
#include <torch/nn.h>
#include <torch/optim.h>
