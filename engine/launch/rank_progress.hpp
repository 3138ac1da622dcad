// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How far each rank of a local run has come: the number of collectives it has begun, in
// memory the launcher shares with the ranks it forks. When peers give up waiting in a
// collective, the rank that began fewer than they did is the one that stopped making progress
// (a stuck or stopped process), and the launcher names it instead of a peer that timed out.

#include <atomic>
#include <cstdint>

namespace ddplab {

class RankProgress {
public:
    explicit RankProgress(int ranks);  // before fork(); throws std::runtime_error
    ~RankProgress();
    RankProgress(const RankProgress&) = delete;
    RankProgress& operator=(const RankProgress&) = delete;

    std::atomic<int64_t>* counter(int rank) const { return m_counters + rank; }
    int64_t collectivesBegun(int rank) const { return m_counters[rank].load(std::memory_order_relaxed); }

private:
    std::atomic<int64_t>* m_counters = nullptr;
    int m_ranks = 0;
};

}  // namespace ddplab
