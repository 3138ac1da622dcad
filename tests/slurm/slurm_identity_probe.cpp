// SPDX-License-Identifier: GPL-3.0-or-later
// One task of a Slurm job step, as tests/slurm/tst_slurm runs it through srun: prints, as one
// JSON line, where the engine's worker would place it, read from the environment this task
// really got (comm/worker_identity.cpp, comm/backend_choice.cpp), beside Slurm's own name for
// its node. Argument: the GPUs of a node (what a task sees when Slurm binds none).

#include "comm/backend_choice.hpp"
#include "comm/worker_identity.hpp"
#include "core/json.hpp"

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    using namespace ddplab;
    try {
        const WorkerIdentity identity = identityFromEnvironment();
        std::vector<std::string> visible;
        if (const char* devices = std::getenv("CUDA_VISIBLE_DEVICES")) {
            std::string list = devices;
            for (size_t at = 0; at <= list.size();) {
                const size_t comma = std::min(list.find(',', at), list.size());
                visible.push_back(list.substr(at, comma - at));
                at = comma + 1;
            }
        } else {
            for (int gpu = 0; gpu < (argc > 1 ? std::atoi(argv[1]) : 0); ++gpu)
                visible.push_back(std::to_string(gpu));
        }
        Config config;
        config.device = DeviceKind::Cuda;
        const BackendChoice choice = chooseBackend(config, identity, int(visible.size()), true, true);
        const int index = rankGpuIndex(identity, int(visible.size()));
        Json placed;
        placed["node"] = std::getenv("SLURMD_NODENAME") ? std::getenv("SLURMD_NODENAME") : "";
        placed["rank"] = identity.rank;
        placed["world_size"] = identity.worldSize;
        placed["local_rank"] = identity.localRank;
        placed["local_world_size"] = identity.localWorldSize;
        placed["busiest_node"] = identity.busiestNodeRanks();
        placed["gpus_bound_per_task"] = identity.gpusBoundPerTask;
        placed["backend"] = choice.backend == BackendKind::Nccl ? "nccl" : "gloo";
        placed["gpu"] = visible.empty() ? "" : visible[size_t(index)];
        std::cout << placed.dump() << std::endl;
        return 0;
    } catch (const std::exception& error) {
        std::cout << Json{{"error", error.what()}}.dump() << std::endl;
        return 1;
    }
}
