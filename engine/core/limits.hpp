// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The limits of every setting, each named once: the key table checks them, and the CLI's
// `shard`, the `devices` report, the window's panel and its sharding view use the same names.

#include <cstdint>

namespace ddplab::limits {

constexpr int64_t kMaxRanks = 128;              // a local run forks this many processes
constexpr int64_t kMaxBatch = 1'000'000;        // per rank
constexpr int64_t kMaxExamples = 100'000'000;   // toy and linreg data, and `shard`
constexpr int64_t kMaxExperiments = 1'000'000;
constexpr int64_t kMaxDim = 100'000;            // linreg input dimension
constexpr int64_t kMaxSeed = 2'147'483'647;     // what torch.manual_seed and Python's samplers take
constexpr int64_t kMaxGradAccum = 4096;
constexpr int64_t kMaxThreads = 1024;           // the machine's cores are the real limit (config_validate)
constexpr int64_t kMaxSteps = 1'000'000'000;
constexpr int64_t kMaxEpochs = 1'000'000;
constexpr int64_t kMaxTimeoutSeconds = 86'400;
constexpr double kMaxBucketMb = 1'000'000;      // a terabyte: more than any model's gradients
constexpr int64_t kFashionMnistTrainImages = 60'000;

}  // namespace ddplab::limits
