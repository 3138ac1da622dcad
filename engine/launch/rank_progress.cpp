// SPDX-License-Identifier: GPL-3.0-or-later
#include "rank_progress.hpp"

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <sys/mman.h>

namespace ddplab {

static_assert(std::atomic<int64_t>::is_always_lock_free, "counters shared between processes must be lock-free");

RankProgress::RankProgress(int ranks) : m_ranks(ranks)
{
    void* memory = ::mmap(nullptr, sizeof(std::atomic<int64_t>) * size_t(ranks), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED)
        throw std::runtime_error(std::string("cannot share progress counters with the ranks: ") + std::strerror(errno));
    m_counters = static_cast<std::atomic<int64_t>*>(memory);
    for (int r = 0; r < ranks; ++r)
        new (m_counters + r) std::atomic<int64_t>(0);
}

RankProgress::~RankProgress()
{
    ::munmap(m_counters, sizeof(std::atomic<int64_t>) * size_t(m_ranks));
}

}  // namespace ddplab
