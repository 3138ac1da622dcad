// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// backend=auto: NCCL when every rank has a GPU of its own, Gloo otherwise (CPU ranks, or
// several ranks sharing a GPU). The reason is reported in the `config` event. And which GPU a
// rank uses: one index, computed once, for LibTorch's tensors and NCCL alike.

#include "core/config.hpp"

#include <string>

namespace ddplab {

struct WorkerIdentity;

struct BackendChoice {
    BackendKind backend = BackendKind::Gloo;
    std::string reason;
};

// `visibleGpus`: the GPUs this rank's process sees. Every rank must choose alike, so the
// question is asked of the busiest node (WorkerIdentity::busiestNodeRanks()), and under
// per-task GPU binding a rank that sees a GPU has its own. Throws ConfigError when the config
// asks for something the job cannot do (NCCL without a GPU per rank, CUDA without a
// CUDA-enabled LibTorch).
BackendChoice chooseBackend(const Config& config, const WorkerIdentity& identity, int visibleGpus, bool torchHasCuda,
                            bool ncclAvailable);

// The visible GPU this rank computes on: its own first GPU under per-task binding, else its
// local rank's turn among the node's GPUs.
int rankGpuIndex(const WorkerIdentity& identity, int visibleGpus);

}  // namespace ddplab
