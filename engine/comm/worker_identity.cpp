// SPDX-License-Identifier: GPL-3.0-or-later
#include "worker_identity.hpp"

#include "core/config_error.hpp"
#include "core/protocol_names.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

namespace ddplab {
namespace {

const char* env(const char* name)
{
    const char* value = std::getenv(name);
    return (value && *value) ? value : nullptr;
}

int64_t envInteger(const char* name, int64_t min, int64_t max)
{
    const char* text = env(name);
    if (!text)
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("environment variable ") + name + " is not set");
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || value < min || value > max)
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("environment variable ") + name + " must be an integer from " +
                                             std::to_string(min) + " to " + std::to_string(max) + " (got \"" + text + "\")");
    return value;
}

// Slurm's tasks per node, one count per node of the step in order, a repeated count written
// once with its repeats: "4(x2),3" is 4, 4, 3.
std::vector<int64_t> tasksPerNode(const char* name, int64_t maxTasks)
{
    const std::string text = env(name);
    const auto wrong = [&] {
        return ConfigError(protocol::errorKey::kEnvironment, std::string("environment variable ") + name +
                                                                 " must be Slurm's tasks per node, counts such as \"4(x2),3\" (got \"" +
                                                                 text + "\")");
    };
    std::vector<int64_t> counts;
    const char* at = text.c_str();
    while (true) {
        char* end = nullptr;
        errno = 0;
        const long long count = std::strtoll(at, &end, 10);
        if (end == at || errno == ERANGE || count < 1 || count > maxTasks)
            throw wrong();
        long long repeats = 1;
        if (*end == '(') {
            if (end[1] != 'x')
                throw wrong();
            at = end + 2;
            repeats = std::strtoll(at, &end, 10);
            if (end == at || *end != ')' || repeats < 1 || repeats > maxTasks)
                throw wrong();
            ++end;
        }
        if (int64_t(counts.size()) + repeats > maxTasks)
            throw wrong();
        counts.insert(counts.end(), size_t(repeats), count);
        if (*end == '\0')
            return counts;
        if (*end != ',')
            throw wrong();
        at = end + 1;
    }
}

// The tasks of this step on this node, and on its busiest node: the step's counts per node (SLURM_STEP_TASKS_PER_NODE,
// else SLURM_TASKS_PER_NODE, which srun sets to the step's too) at this node's index in the step
// (SLURM_NODEID). Not SLURM_NTASKS_PER_NODE: Slurm sets it only with --ntasks-per-node, and
// inside a batch job it is the job's, not the step's.
void readSlurmTasksPerNode(WorkerIdentity& identity)
{
    const char* name = env("SLURM_STEP_TASKS_PER_NODE") ? "SLURM_STEP_TASKS_PER_NODE" : "SLURM_TASKS_PER_NODE";
    if (!env(name)) {
        identity.localWorldSize = identity.worldSize;  // set by hand without it: as if every task were here
        return;
    }
    const std::vector<int64_t> counts = tasksPerNode(name, identity.worldSize);
    int64_t total = 0;
    for (int64_t count : counts)
        total += count;
    if (total != identity.worldSize)
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("environment variable ") + name + " (\"" + env(name) +
                                                                 "\") counts " + std::to_string(total) +
                                                                 " tasks but SLURM_NTASKS is " + std::to_string(identity.worldSize));
    const int64_t node = envInteger("SLURM_NODEID", 0, int64_t(counts.size()) - 1);
    const int64_t here = counts[size_t(node)];
    if (identity.localRank >= here)
        throw ConfigError(protocol::errorKey::kEnvironment, "environment variable SLURM_LOCALID is " + std::to_string(identity.localRank) +
                                                                " but " + name + " puts " + std::to_string(here) +
                                                                " tasks on node " + std::to_string(node));
    identity.localWorldSize = int(here);
    identity.mostRanksOnANode = int(*std::max_element(counts.begin(), counts.end()));
}

// srun --gpus-per-task N, or --gpu-bind single:1: Slurm gave each task GPUs of its own (only
// they are visible to it), so a task that sees one GPU does not share it.
bool slurmBindsGpusPerTask()
{
    const char* binding = env("SLURMD_TRES_BIND");
    if (!binding)
        return false;
    const std::string text = binding;
    return text.rfind("gpu:per_task:", 0) == 0 || text == "gpu:single:1";
}

bool isLoopback(const std::string& host)
{
    return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

void readMaster(WorkerIdentity& identity, const char* hint)
{
    const char* addr = env("MASTER_ADDR");
    if (!addr)
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("environment variable MASTER_ADDR is not set") + hint);
    identity.rendezvous.kind = Rendezvous::Kind::Tcp;
    identity.rendezvous.host = addr;
    identity.rendezvous.port = uint16_t(envInteger("MASTER_PORT", 1, 65535));
    identity.rendezvous.loopbackOnly = isLoopback(identity.rendezvous.host);
}

}  // namespace

WorkerIdentity identityFromEnvironment()
{
    WorkerIdentity identity;
    if (env("RANK") && env("WORLD_SIZE")) {
        identity.launchedBy = env("TORCHELASTIC_RUN_ID") ? "torchrun" : "env";
        identity.worldSize = int(envInteger("WORLD_SIZE", 1, 1 << 20));
        identity.rank = int(envInteger("RANK", 0, identity.worldSize - 1));
        identity.localRank = env("LOCAL_RANK") ? int(envInteger("LOCAL_RANK", 0, identity.worldSize - 1)) : identity.rank;
        identity.localWorldSize = env("LOCAL_WORLD_SIZE") ? int(envInteger("LOCAL_WORLD_SIZE", 1, identity.worldSize))
                                                          : identity.worldSize;
        readMaster(identity, " (torchrun sets it; by hand, export MASTER_ADDR and MASTER_PORT)");
        // torchrun's agent already hosts the store; every rank is a client under a
        // per-restart prefix, exactly as torch.distributed's env:// rendezvous does.
        const char* agentStore = env("TORCHELASTIC_USE_AGENT_STORE");
        if (agentStore && std::string(agentStore) == "True") {
            const char* attempt = env("TORCHELASTIC_RESTART_COUNT");
            identity.rendezvous.keyPrefix = std::string("/worker/attempt_") + (attempt ? attempt : "0");
            identity.rendezvous.hostsStore = false;
            identity.rendezvous.agentStore = true;
        } else {
            identity.rendezvous.hostsStore = identity.rank == 0;
        }
        return identity;
    }
    if (env("SLURM_PROCID") && env("SLURM_NTASKS")) {
        identity.launchedBy = "slurm";
        identity.worldSize = int(envInteger("SLURM_NTASKS", 1, 1 << 20));
        identity.rank = int(envInteger("SLURM_PROCID", 0, identity.worldSize - 1));
        identity.localRank = env("SLURM_LOCALID") ? int(envInteger("SLURM_LOCALID", 0, identity.worldSize - 1)) : 0;
        readSlurmTasksPerNode(identity);
        identity.gpusBoundPerTask = slurmBindsGpusPerTask();
        readMaster(identity, " (under Slurm: export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1))");
        identity.rendezvous.hostsStore = identity.rank == 0;
        return identity;
    }
    throw ConfigError(protocol::errorKey::kEnvironment,
                      "ddplab-engine worker runs one rank under torchrun or srun and needs their environment "
                      "(RANK and WORLD_SIZE, or SLURM_PROCID and SLURM_NTASKS); to start a local run use "
                      "'ddplab-engine run --world-size N'");
}

}  // namespace ddplab
