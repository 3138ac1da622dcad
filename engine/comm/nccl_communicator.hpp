// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// NCCL between GPU ranks, written against NCCL's C API so that it builds with any LibTorch
// (Debian's CPU-only one included) as long as the CUDA toolkit and NCCL are present. It follows
// ProcessGroupNCCL where it matters for a first run on a real cluster:
//   - its own stream: each collective waits for an event recorded on the stream that produced
//     its tensor, and wait() makes that stream wait for an event recorded after the collective,
//     so all-reduces run beside backward instead of queueing in front of it;
//   - it never waits forever: the communicator is non-blocking, and every wait polls the
//     collective's event and ncclCommGetAsyncError until collective_timeout, then calls
//     ncclCommAbort and fails with the rank named (CollectiveDeadline, shared with Gloo);
//   - ncclCommFinalize/ncclCommDestroy only after a clean finish, ncclCommAbort otherwise
//     (destroying a communicator with a collective in flight can block).

#include "communicator.hpp"

#include <torch/csrc/distributed/c10d/Store.hpp>

namespace ddplab {

std::unique_ptr<Communicator> makeNcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity, const c10::Device& device);

}  // namespace ddplab
