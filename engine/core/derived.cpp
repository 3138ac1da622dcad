// SPDX-License-Identifier: GPL-3.0-or-later
#include "derived.hpp"

#include "workload_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace ddplab {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// k as a formula shows it: "(128 / 16)".
std::string ratioText(const Config& config)
{
    return "(" + std::to_string(effectiveBatchSize(config)) + " / " + std::to_string(baseBatchSize(config)) + ")";
}
}  // namespace

ShardPlan planShards(int64_t numExamples, int64_t worldSize, int64_t batchSize, bool dropLast)
{
    // torch.utils.data.distributed.DistributedSampler, verbatim:
    //   num_samples = ceil((N - K) / K) if drop_last and N % K else ceil(N / K)
    ShardPlan plan;
    if (numExamples <= 0 || worldSize <= 0 || batchSize <= 0)
        return plan;
    if (dropLast && numExamples % worldSize != 0)
        plan.samplesPerRank = ceilDiv(numExamples - worldSize, worldSize);
    else
        plan.samplesPerRank = ceilDiv(numExamples, worldSize);
    plan.samplesPerRank = std::max<int64_t>(0, plan.samplesPerRank);
    plan.totalSize = plan.samplesPerRank * worldSize;
    plan.paddedSamples = std::max<int64_t>(0, plan.totalSize - numExamples);
    plan.droppedSamples = std::max<int64_t>(0, numExamples - plan.totalSize);
    // DataLoader(batch_size=B, drop_last=False) keeps the short last batch.
    plan.batchesPerEpoch = ceilDiv(plan.samplesPerRank, batchSize);
    plan.lastBatchSize = plan.batchesPerEpoch > 0 ? plan.samplesPerRank - (plan.batchesPerEpoch - 1) * batchSize : 0;
    return plan;
}

int64_t datasetSize(const Config& config)
{
    // train_subset takes the first part of a data set read from files; generated data are
    // num_examples long already.
    const WorkloadTraits& row = traitsOf(config);
    const int64_t whole = row.wholeTrainingSet(config);
    return row.runsNetwork && config.trainSubset > 0 ? std::min(config.trainSubset, whole) : whole;
}

ShardPlan planShards(const Config& config)
{
    return planShards(datasetSize(config), config.worldSize, config.batchSize, config.dropLast);
}

int64_t stepsPerEpoch(const Config& config)
{
    // Under accumulate_as_ranks every emulated GPU's batch is one micro-batch of a step.
    if (config.accumulateAsRanks)
        return planShards(datasetSize(config), config.worldSize * config.gradAccum, config.batchSize, config.dropLast).batchesPerEpoch;
    return ceilDiv(planShards(config).batchesPerEpoch, config.gradAccum);
}

int64_t totalSteps(const Config& config)
{
    // The range test runs its steps over as many epochs as they take (it may stop sooner).
    if (config.lrRangeTest)
        return config.maxSteps > 0 ? std::min(config.lrRangeSteps, config.maxSteps) : config.lrRangeSteps;
    const int64_t all = stepsPerEpoch(config) * config.epochs;
    return config.maxSteps > 0 ? std::min(all, config.maxSteps) : all;
}

int64_t effectiveBatchSize(const Config& config)
{
    return config.worldSize * config.batchSize * config.gradAccum;
}

int64_t baseBatchSize(const Config& config)
{
    return config.baseBatchSize.value_or(config.batchSize);
}

int64_t dataSeed(const Config& config)
{
    return config.dataSeed.value_or(config.seed);
}

double batchRatio(const Config& config)
{
    return double(effectiveBatchSize(config)) / double(baseBatchSize(config));
}

double lrRuleExponent(const Config& config)
{
    switch (config.lrRule) {
    case LrRule::None: return 0.0;
    case LrRule::Linear: return 1.0;
    case LrRule::Sqrt: return 0.5;
    case LrRule::Power: return config.lrPower;
    case LrRule::Sde: return 0.5;
    }
    return 0.0;
}

double lrScaleFactor(const Config& config)
{
    return std::pow(batchRatio(config), lrRuleExponent(config));
}

double effectiveLr(const Config& config)
{
    return config.lr * lrScaleFactor(config);
}

bool usesMoments(const Config& config)
{
    switch (config.optimizer) {
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
    case OptimizerKind::AdamBsi:
    case OptimizerKind::AdamWBsi:
    case OptimizerKind::NovoGrad:
    case OptimizerKind::Lamb:
        return true;
    case OptimizerKind::Sgd:
    case OptimizerKind::Lars:
        return false;
    }
    return false;
}

AdamSettings appliedAdamSettings(const Config& config)
{
    if (config.lrRule != LrRule::Sde)
        return {config.beta1, config.beta2, config.eps};
    const double k = batchRatio(config);
    return {1.0 - k * (1.0 - config.beta1), 1.0 - k * (1.0 - config.beta2), config.eps / std::sqrt(k)};
}

double sdeRatioLimit(const Config& config)
{
    return 1.0 / (1.0 - std::min(config.beta1, config.beta2));
}

double appliedWeightDecay(const Config& config)
{
    if (config.weightDecayRule == WeightDecayRule::None)
        return config.weightDecay;
    // tau = B / (lr lambda N) kept: lambda' = lambda (B' / B) (lr / lr').
    return config.weightDecay * batchRatio(config) * config.lr / effectiveLr(config);
}

double weightDecayTimescaleEpochs(const Config& config)
{
    const double decayPerStep = effectiveLr(config) * appliedWeightDecay(config);
    if (!(decayPerStep > 0))
        return std::numeric_limits<double>::infinity();
    return double(effectiveBatchSize(config)) / (decayPerStep * double(datasetSize(config)));
}

bool linregMeasuresByMoments(const Config& config)
{
    return config.dim <= config.numExamples;
}

int64_t evalInterval(const Config& config)
{
    // An evaluation runs the model over many samples: once an epoch unless asked for more.
    return config.evalEvery.value_or(traitsOf(config).runsNetwork ? 0 : 1);
}

int64_t estimatedRankBytes(const Config& c)
{
    // Measured here: a forked rank of a tiny run holds about 18 MB of its own (PSS).
    constexpr double kProcessBytes = 32.0 * (1 << 20);
    constexpr double kIndexBytes = 8;

    const double examples = double(datasetSize(c));
    double bytes = kProcessBytes;
    // The sampler: a permutation of every index, and this rank's share twice (indices, batches).
    bytes += examples * kIndexBytes + 2 * examples / double(c.worldSize) * kIndexBytes;
    bytes += traitsOf(c).rankDataBytes(c);  // its data and a step's tensors: its row says
    return int64_t(std::min(bytes, 9e18));
}

std::string lrRuleFormula(const Config& config)
{
    std::ostringstream text;
    text << config.lr;
    if (config.lrRule != LrRule::None)
        text << " * " << ratioText(config) << "^" << lrRuleExponent(config);
    return text.str();
}

std::string sdeBetaFormula(const Config& config, double beta)
{
    std::ostringstream text;
    text << "1 - " << ratioText(config) << " * (1 - " << beta << ")";
    return text.str();
}

std::string sdeEpsFormula(const Config& config)
{
    std::ostringstream text;
    text << config.eps << " / " << ratioText(config) << "^0.5";
    return text.str();
}

std::string weightDecayRuleFormula(const Config& config)
{
    std::ostringstream text;
    text << config.weightDecay << " * " << ratioText(config) << " * " << config.lr << " / " << effectiveLr(config);
    return text.str();
}

std::string weightDecayTimescaleFormula(const Config& config)
{
    std::ostringstream text;
    text << effectiveBatchSize(config) << " / (" << effectiveLr(config) << " * " << appliedWeightDecay(config) << " * "
         << datasetSize(config) << ")";
    return text.str();
}

}  // namespace ddplab
