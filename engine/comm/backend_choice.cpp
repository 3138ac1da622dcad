// SPDX-License-Identifier: GPL-3.0-or-later
#include "backend_choice.hpp"

#include "core/config_error.hpp"
#include "core/key_names.hpp"
#include "core/wording.hpp"
#include "worker_identity.hpp"

#include <algorithm>

namespace ddplab {

BackendChoice chooseBackend(const Config& config, const WorkerIdentity& identity, int visibleGpus, bool torchHasCuda,
                            bool ncclAvailable)
{
    const int ranksOnNode = identity.busiestNodeRanks();
    const std::string ranks = countOf(ranksOnNode, "rank") + (ranksOnNode == identity.localWorldSize ? "" : " on the busiest node");
    const std::string gpus = countOf(visibleGpus, "GPU");

    if (config.device == DeviceKind::Cpu)
        return {BackendKind::Gloo, "CPU ranks: ranks run as CPU processes and communicate over Gloo"};

    if (!torchHasCuda)
        throw ConfigError(key::kDevice, "device cuda needs a LibTorch built with CUDA; this engine's LibTorch is CPU-only "
                                    "(see 'ddplab-engine devices'); use device cpu");
    if (visibleGpus < 1)
        throw ConfigError(key::kDevice, "device cuda but no GPU is visible (CUDA_VISIBLE_DEVICES?); use device cpu");

    const bool gpuPerRank = identity.gpusBoundPerTask || visibleGpus >= ranksOnNode;
    const std::string own = identity.gpusBoundPerTask ? "each rank has GPUs of its own (bound per task by Slurm)"
                                                      : "each of the " + ranks + " has its own GPU";
    switch (config.backend) {
    case BackendKind::Gloo:
        return {BackendKind::Gloo, "backend gloo was asked for: " + ranks + " on " + gpus + ", gradients cross host memory"};
    case BackendKind::Nccl:
        if (!ncclAvailable)
            throw ConfigError(key::kBackend, "backend nccl: this ddplab-engine was built without NCCL; use gloo or auto");
        if (!gpuPerRank)
            throw ConfigError(key::kBackend, "backend nccl needs one GPU per rank, but " + ranks + " share " + gpus +
                                             " on a node; use backend gloo (or auto) to share GPUs");
        return {BackendKind::Nccl, "backend nccl was asked for: " + own};
    case BackendKind::Auto:
        break;
    }
    if (!ncclAvailable)
        return {BackendKind::Gloo, "auto: this engine was built without NCCL, so GPU ranks use Gloo"};
    if (!gpuPerRank)
        return {BackendKind::Gloo, "auto: " + ranks + " share " + gpus + "; NCCL needs a GPU per rank, so Gloo"};
    return {BackendKind::Nccl, "auto: " + own + ", so NCCL"};
}

int rankGpuIndex(const WorkerIdentity& identity, int visibleGpus)
{
    if (identity.gpusBoundPerTask || visibleGpus < 1)
        return 0;
    return identity.localRank % visibleGpus;
}

}  // namespace ddplab
