#pragma once
// The training loop every rank runs: sample its shard, forward/backward, synchronise
// gradients as DDP does, step the optimizer at the scheduled LR, reduce the metrics, and (on
// rank 0) report each step. Returns the summary, which rank 0 emits as the last event.

#include "core/config.hpp"
#include "core/json.hpp"

namespace ddplab {

class Communicator;
class EventWriter;
class Workload;

class Trainer {
public:
    // `events` is rank 0's event stream, nullptr on the other ranks. Rank 0 emits
    // `configEvent` once the model is known, completed with its parameters and buckets.
    Trainer(const Config& config, Workload& workload, Communicator& comm, EventWriter* events, Json configEvent = {});

    Json run();

private:
    const Config& m_config;
    Workload& m_workload;
    Communicator& m_comm;
    EventWriter* m_events;
    Json m_configEvent;
};

}  // namespace ddplab
