// SPDX-License-Identifier: GPL-3.0-or-later
#include "buffer_sync.hpp"

#include "comm/communicator.hpp"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <algorithm>

namespace ddplab {

BufferSync::BufferSync(std::vector<at::Tensor> buffers, Communicator& comm) : m_buffers(std::move(buffers)), m_comm(comm)
{
    for (size_t i = 0; i < m_buffers.size(); ++i) {
        auto group = std::find_if(m_byDtype.begin(), m_byDtype.end(), [&](const std::vector<size_t>& members) {
            return m_buffers[members.front()].scalar_type() == m_buffers[i].scalar_type();
        });
        if (group == m_byDtype.end())
            m_byDtype.push_back({i});
        else
            group->push_back(i);
    }
}

void BufferSync::beforeForward(bool synchronisingTraining)
{
    if (m_due)
        broadcast();
    m_due = synchronisingTraining;
}

void BufferSync::broadcast()
{
    if (m_comm.worldSize() == 1 || m_buffers.empty())
        return;
    torch::NoGradGuard noGrad;
    for (const std::vector<size_t>& group : m_byDtype) {
        std::vector<at::Tensor> flat;
        for (size_t index : group)
            flat.push_back(m_buffers[index].reshape({-1}));
        at::Tensor together = at::cat(flat);
        // Collectives move numbers; a bool (or bfloat16) buffer travels as its bytes.
        const c10::ScalarType type = together.scalar_type();
        const bool numeric = type == at::kFloat || type == at::kDouble || type == at::kHalf || type == at::kChar ||
                             type == at::kByte || type == at::kInt || type == at::kLong;
        at::Tensor sent = numeric ? together : together.view(at::kByte);
        m_comm.broadcast(sent, 0);
        if (m_comm.rank() == 0)
            continue;  // its own buffers are what was sent
        int64_t offset = 0;
        for (size_t index : group) {
            at::Tensor& buffer = m_buffers[index];
            buffer.copy_(together.narrow(0, offset, buffer.numel()).view(buffer.sizes()));
            offset += buffer.numel();
        }
    }
}

}  // namespace ddplab
