#pragma once
// NCCL between GPU ranks, written against NCCL's C API so that it builds with any LibTorch
// (Debian's CPU-only one included) as long as the CUDA toolkit and NCCL are present.

#include "communicator.hpp"

#include <torch/csrc/distributed/c10d/Store.hpp>

namespace ddplab {

std::unique_ptr<Communicator> makeNcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity);

}  // namespace ddplab
