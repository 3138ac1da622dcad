// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One rank from start to finish: threads, backend, data, rendezvous, training; rank 0
// reports the `config`, `step`, `eval` and `summary` events. Every rank reports its own
// failure as an `error` event (with its rank) on `events` and returns the exit code.

#include "comm/worker_identity.hpp"
#include "core/config.hpp"

namespace ddplab {

class EventWriter;

int runWorker(const Config& config, const WorkerIdentity& identity, EventWriter& events);

}  // namespace ddplab
