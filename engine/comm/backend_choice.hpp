#pragma once
// backend=auto: NCCL when every rank on the node has a GPU of its own, Gloo otherwise (CPU
// ranks, or several ranks sharing a GPU). The reason is reported in the `config` event.

#include "core/config.hpp"

#include <string>

namespace ddplab {

struct BackendChoice {
    BackendKind backend = BackendKind::Gloo;
    std::string reason;
};

// Throws ConfigError when the config asks for something this node cannot do (NCCL without
// enough GPUs, CUDA without a CUDA-enabled LibTorch).
BackendChoice chooseBackend(const Config& config, int localWorldSize, int visibleGpus, bool torchHasCuda,
                            bool ncclAvailable);

}  // namespace ddplab
