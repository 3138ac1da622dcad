// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The key-value store the ranks rendezvous through (FileStore in a private run directory,
// or torchrun's / rank 0's TCPStore).

#include "worker_identity.hpp"

#include <torch/csrc/distributed/c10d/Store.hpp>

namespace ddplab {

c10::intrusive_ptr<c10d::Store> openStore(const WorkerIdentity& identity);

}  // namespace ddplab
