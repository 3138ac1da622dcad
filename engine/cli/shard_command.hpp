// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab-engine shard`: the exact sample indices of every rank in every iteration.

#include "core/json.hpp"
#include "core/shard_request.hpp"

#include <cstdint>

namespace ddplab {

// A listing of more indices than this (8 MB of JSON) shows only the first iterations: a
// data set of 10^8 examples would print a gigabyte nobody reads.
constexpr int64_t kMaxListedIndices = 1'000'000;

// {"ranks": [[[i, ...], ...], ...], ...}: ranks[r][iteration] holds rank r's 0-based sample
// indices in that iteration, for the first "listed_iterations" of the "iterations" (all of
// them up to kMaxListedIndices indices in all); "padding" lists [rank, iteration, position] of
// the repeats the sampler added, "dropped" the indices drop_last discarded (both in full).
Json shardReport(const ShardRequest& request);

}  // namespace ddplab
