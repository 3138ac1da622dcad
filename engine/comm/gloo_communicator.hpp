// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "communicator.hpp"

#include <torch/csrc/distributed/c10d/Store.hpp>

namespace ddplab {

std::unique_ptr<Communicator> makeGlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity);

}  // namespace ddplab
