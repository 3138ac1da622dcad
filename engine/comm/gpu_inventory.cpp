// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpu_inventory.hpp"

#include "communicator.hpp"
#include "core/config_validate.hpp"
#include "core/limits.hpp"
#include "core/protocol.hpp"

#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#ifdef DDPLAB_WITH_CUDA
#include <cuda_runtime_api.h>
#endif
#ifdef DDPLAB_WITH_NCCL
#include <nccl.h>
#endif

namespace ddplab {
namespace {

// The GPUs the CUDA runtime sees (names and memory), when the engine was built with CUDA.
Json runtimeGpus()
{
    Json gpus = Json::array();
#ifdef DDPLAB_WITH_CUDA
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        return gpus;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp properties{};
        if (cudaGetDeviceProperties(&properties, i) != cudaSuccess)
            continue;
        Json gpu;
        gpu[protocol::devices::kIndex] = i;
        gpu[protocol::devices::kName] = properties.name;
        gpu[protocol::devices::kMemoryMib] = int64_t(properties.totalGlobalMem / (1024 * 1024));
        gpu[protocol::devices::kComputeCapability] = std::to_string(properties.major) + "." + std::to_string(properties.minor);
        gpus.push_back(gpu);
    }
#endif
    return gpus;
}

}  // namespace

int64_t gpuMemoryFreeBytes(const c10::Device& device)
{
#ifdef DDPLAB_WITH_CUDA
    size_t free = 0, total = 0;
    int current = -1;
    if (cudaGetDevice(&current) != cudaSuccess || current != device.index() || cudaMemGetInfo(&free, &total) != cudaSuccess)
        return 0;
    return int64_t(free);
#else
    return 0;
#endif
}

Json deviceReport()
{
    using namespace protocol::devices;
    const bool torchHasCuda = at::detail::getCUDAHooks().hasCUDA();
    const MachineResources machine = thisMachine();
    Json report;
    report[kEngineVersion] = protocol::engineVersion();
    report[kProtocol] = kProtocolVersion;
    report[kTorchVersion] = TORCH_VERSION;
    report[kCpuCores] = machine.cpuCores;
    report[kMemoryAvailableBytes] = machine.memoryAvailableBytes;
    report[kGloo] = true;
    report[kNcclBuilt] = ncclBuilt();
#ifdef DDPLAB_WITH_NCCL
    int ncclVersion = 0;
    ncclGetVersion(&ncclVersion);
    report[kNcclVersion] = ncclVersion;
#endif
    report[kTorchCuda] = torchHasCuda;
    report[kCudaDeviceCount] = torchHasCuda ? int(at::detail::getCUDAHooks().getNumGPUs()) : 0;
    report[kCudaDevices] = runtimeGpus();
    report[kMaxLocalRanks] = limits::kMaxRanks;
    report[kNote] = torchHasCuda ? "device cuda places rank r on GPU LOCAL_RANK"
                                 : "LibTorch here is CPU-only: ranks run as CPU processes over Gloo "
                                   "(same mathematics, slower)";
    return report;
}

}  // namespace ddplab
