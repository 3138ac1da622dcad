// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DDP's broadcast_buffers=True (its default): before a forward, every rank takes rank 0's
// buffers (BatchNorm's running statistics and the like), so all ranks run the same model even
// though each one's training forward updates its own copy from its own batch. As in DDP, not
// before every forward: only when the forward before it was a synchronising training forward
// (DDP's require_forward_param_sync), so not after a micro-batch under no_sync, nor after an
// evaluation through the model, and always before the first. Buffers of one dtype travel
// together as one flat tensor, as DDP's _broadcast_coalesced sends them.

#include <ATen/core/Tensor.h>

#include <vector>

namespace ddplab {

class Communicator;

class BufferSync {
public:
    BufferSync(std::vector<at::Tensor> buffers, Communicator& comm);

    // Before each forward. `synchronisingTraining`: this forward's backward all-reduces the
    // gradients (a training forward outside no_sync); false for no_sync and evaluation.
    void beforeForward(bool synchronisingTraining);

private:
    void broadcast();

    std::vector<at::Tensor> m_buffers;
    std::vector<std::vector<size_t>> m_byDtype;  // indices into m_buffers, one group per dtype
    Communicator& m_comm;
    bool m_due = true;  // DDP's require_forward_param_sync, True until a forward says otherwise
};

}  // namespace ddplab
