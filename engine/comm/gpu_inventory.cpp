#include "gpu_inventory.hpp"

#include "communicator.hpp"
#include "core/events.hpp"

#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#ifdef DDPLAB_WITH_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#endif

#include <thread>

namespace ddplab {
namespace {

// The GPUs the CUDA runtime sees (names and memory), when the engine was built with CUDA.
Json runtimeGpus()
{
    Json gpus = Json::array();
#ifdef DDPLAB_WITH_NCCL
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        return gpus;
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp properties{};
        if (cudaGetDeviceProperties(&properties, i) != cudaSuccess)
            continue;
        Json gpu;
        gpu["index"] = i;
        gpu["name"] = properties.name;
        gpu["memory_mib"] = int64_t(properties.totalGlobalMem / (1024 * 1024));
        gpu["compute_capability"] = std::to_string(properties.major) + "." + std::to_string(properties.minor);
        gpus.push_back(gpu);
    }
#endif
    return gpus;
}

}  // namespace

Json deviceReport()
{
    const bool torchHasCuda = at::detail::getCUDAHooks().hasCUDA();
    Json report;
    report["engine_version"] = engineVersion();
    report["torch_version"] = TORCH_VERSION;
    report["cpu_cores"] = int(std::thread::hardware_concurrency());
    report["gloo"] = true;
    report["nccl_built"] = ncclBuilt();
#ifdef DDPLAB_WITH_NCCL
    int ncclVersion = 0;
    ncclGetVersion(&ncclVersion);
    report["nccl_version"] = ncclVersion;
#endif
    report["torch_cuda"] = torchHasCuda;
    report["cuda_device_count"] = torchHasCuda ? int(at::detail::getCUDAHooks().getNumGPUs()) : 0;
    report["cuda_devices"] = runtimeGpus();
    report["max_local_ranks"] = 128;
    report["note"] = torchHasCuda ? "device cuda places rank r on GPU LOCAL_RANK"
                                  : "LibTorch here is CPU-only: ranks run as CPU processes over Gloo "
                                    "(same mathematics, slower)";
    return report;
}

}  // namespace ddplab
