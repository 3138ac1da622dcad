#include "worker_identity.hpp"

#include "core/config_error.hpp"
#include "core/protocol_names.hpp"

#include <cstdlib>
#include <string>

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
    const long long value = std::strtoll(text, &end, 10);
    // Slurm writes counts per node as "4(x2)"; the leading number is the count.
    const bool slurmRepeat = end && *end == '(';
    if (end == text || (*end != '\0' && !slurmRepeat) || value < min || value > max)
        throw ConfigError(protocol::errorKey::kEnvironment, std::string("environment variable ") + name + " must be an integer from " +
                                             std::to_string(min) + " to " + std::to_string(max) + " (got \"" + text + "\")");
    return value;
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
        identity.localWorldSize = env("SLURM_NTASKS_PER_NODE")
                                      ? int(envInteger("SLURM_NTASKS_PER_NODE", 1, identity.worldSize))
                                      : identity.worldSize;
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
