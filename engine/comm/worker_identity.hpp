// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Who a worker is and how it finds its peers: filled by the built-in launcher, or read from
// the environment that torchrun or Slurm set.

#include <atomic>
#include <limits>
#include <chrono>
#include <cstdint>
#include <string>

namespace ddplab {

struct Rendezvous {
    enum class Kind { File, Tcp };
    Kind kind = Kind::File;
    std::string storePath;     // File: a FileStore inside the run's private (0700) directory
    std::string host;          // Tcp: MASTER_ADDR
    uint16_t port = 0;         // Tcp: MASTER_PORT
    bool hostsStore = false;   // Tcp: this rank serves the store (rank 0, unless torchrun's agent does)
    bool agentStore = false;   // Tcp: torchrun's agent serves it (TORCHELASTIC_USE_AGENT_STORE)
    std::string keyPrefix;     // Tcp under torchrun's agent store: "/worker/attempt_N"
    bool loopbackOnly = true;  // Gloo listens on 127.0.0.1 only (single-node runs)
    // How long a rank waits for its peers, in the rendezvous and in every collective.
    std::chrono::milliseconds timeout{std::chrono::seconds(60)};
};

struct WorkerIdentity {
    int rank = 0;
    int worldSize = 1;
    int localRank = 0;
    int localWorldSize = 1;
    // Slurm: the most tasks any node of the step runs (nodes may differ: "4(x2),3"); 0 when
    // every node runs localWorldSize. Choices every rank must make alike are made for it.
    int mostRanksOnANode = 0;
    // The launcher gave each task GPUs of its own (srun --gpus-per-task): the GPUs this rank
    // sees are not shared with the other ranks on its node.
    bool gpusBoundPerTask = false;
    std::string launchedBy = "ddplab";  // "ddplab", "torchrun" or "slurm"
    Rendezvous rendezvous;
    // The built-in launcher's shared counter of this rank's collectives (rank_progress.hpp);
    // null under torchrun and Slurm.
    std::atomic<int64_t>* collectivesBegun = nullptr;
    // The built-in launcher's reading, once before it forked, of the cores other programs keep
    // busy (thread_share.hpp); NaN: the rank reads it itself (torchrun, Slurm).
    double busyCoresAtStart = std::numeric_limits<double>::quiet_NaN();

    int busiestNodeRanks() const { return mostRanksOnANode > 0 ? mostRanksOnANode : localWorldSize; }
};

// Reads torchrun's (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT,
// TORCHELASTIC_USE_AGENT_STORE, TORCHELASTIC_RESTART_COUNT) or Slurm's (SLURM_PROCID,
// SLURM_NTASKS, SLURM_LOCALID, SLURM_NODEID, SLURM_STEP_TASKS_PER_NODE or
// SLURM_TASKS_PER_NODE, SLURMD_TRES_BIND; MASTER_ADDR/MASTER_PORT set by the batch script or
// launch template) environment. Throws ConfigError naming the variable that is missing or wrong.
WorkerIdentity identityFromEnvironment();

}  // namespace ddplab
