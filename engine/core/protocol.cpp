// SPDX-License-Identifier: GPL-3.0-or-later
#include "protocol.hpp"

#include "batch_schedule.hpp"
#include "config_keys.hpp"
#include "derived.hpp"

#include <unistd.h>

namespace ddplab::protocol {
namespace {

void putIf(Json& event, const char* name, const std::optional<double>& value)
{
    if (value)
        event[name] = *value;
}

}  // namespace

std::string engineVersion()
{
    return DDPLAB_VERSION;
}

Json helloEvent(const std::string& role)
{
    Json event;
    event[field::kType] = type::kHello;
    event[field::kProtocol] = kProtocolVersion;
    event[field::kEngine] = "ddplab-engine";
    event[field::kVersion] = engineVersion();
    event[field::kRole] = role;
    event[field::kPid] = int64_t(::getpid());
    return event;
}

Json runEndEvent(int exitCode)
{
    Json event;
    event[field::kType] = type::kRunEnd;
    event[field::kExitCode] = exitCode;
    return event;
}

Json errorEvent(const ErrorReport& report)
{
    Json event;
    event[field::kType] = type::kError;
    event[field::kMessage] = report.message;
    if (report.rank)
        event[field::kRank] = *report.rank;
    if (!report.key.empty())
        event[field::kKey] = report.key;
    if (report.exitCode != 0)
        event[field::kExitCode] = report.exitCode;
    if (report.monotonicNs != 0)
        event[field::kMonotonicNs] = report.monotonicNs;
    return event;
}

Json configEvent(const Config& config, const RunFacts& facts)
{
    Config resolved = config;
    resolved.backend = facts.backend;
    resolved.baseBatchSize = baseBatchSize(config);
    resolved.warmupStartFactor = warmupStartFactor(config);
    resolved.evalEvery = evalInterval(config);
    const ShardPlan plan = planShards(config);

    Json event;
    event[field::kType] = type::kConfig;
    const Json keys = configToJson(resolved);
    for (const auto& [key, value] : keys.items())
        event[key] = value;
    event[field::kEffectiveBatchSize] = effectiveBatchSize(config);
    event[field::kLrEffective] = effectiveLr(config);
    event[field::kLrScale] = lrScaleFactor(config);
    event[field::kLrFormula] = lrRuleFormula(config);
    if (usesMoments(config)) {
        const AdamSettings applied = appliedAdamSettings(config);
        event[field::kBeta1Effective] = applied.beta1;
        event[field::kBeta2Effective] = applied.beta2;
        event[field::kEpsEffective] = applied.eps;
    }
    event[field::kWeightDecayEffective] = appliedWeightDecay(config);
    // Infinite without weight decay: written as null, as every number that is not finite.
    event[field::kWeightDecayTimescale] = weightDecayTimescaleEpochs(config);
    event[field::kDatasetSize] = datasetSize(config);
    event[field::kStepsPerEpoch] = stepsPerEpoch(config);
    event[field::kTotalSteps] = totalSteps(config);
    // What a growing batch makes of total_steps, and where it grows: known before the run for
    // steps, smith and seesaw; noise and adascale take at most total_steps.
    const BatchPlan growth = planBatchGrowth(config);
    event[field::kPlannedSteps] = growth.steps;
    if (growsByPlan(config)) {
        Json changes = Json::array();
        for (const BatchPlan::Change& change : growth.changes)
            changes.push_back({{field::kStep, change.afterStep},
                               {field::kEffectiveBatch, change.multiplier * effectiveBatchSize(config)}});
        event[field::kBatchPlan] = changes;
    }
    event[field::kSamplesPerRank] = plan.samplesPerRank;
    event[field::kPaddedSamples] = plan.paddedSamples;
    event[field::kDroppedSamples] = plan.droppedSamples;
    event[field::kWarmupStepsResolved] = warmupStepCount(config);
    event[field::kBackendReason] = facts.backendReason;
    event[field::kDeviceName] = facts.deviceName;
    event[field::kThreadsPerRank] = facts.threadsPerRank;
    event[field::kThreadsReason] = facts.threadsReason;
    event[field::kLaunchedBy] = facts.launchedBy;
    event[field::kTorchVersion] = facts.torchVersion;
    event[field::kParameterCount] = facts.parameterCount;
    event[field::kParameterTensors] = facts.parameterTensors;
    if (!facts.resumedFrom.empty()) {
        event[field::kResumedFrom] = facts.resumedFrom;
        event[field::kResumedStep] = facts.resumedStep;
    }
    Json buckets = Json::array();
    for (const RunFacts::Bucket& bucket : facts.buckets)
        buckets.push_back({{field::kParameters, bucket.parameters}, {field::kElements, bucket.elements}});
    event[field::kBuckets] = buckets;
    return event;
}

Json stepEvent(const StepReport& r)
{
    Json event;
    event[field::kType] = type::kStep;
    event[field::kStep] = r.step;
    event[field::kEpoch] = r.epoch;
    event[field::kLr] = r.lr;
    event[field::kLoss] = r.loss;
    putIf(event, field::kAccuracy, r.accuracy);
    putIf(event, field::kTrainLoss, r.trainLoss);
    putIf(event, field::kTrainAccuracy, r.trainAccuracy);
    event[field::kSamples] = int64_t(r.samples);
    event[field::kEffectiveBatch] = r.effectiveBatch;
    putIf(event, field::kGain, r.gain);
    putIf(event, field::kTau, r.tau);
    event[field::kGradNorm] = r.gradNorm;
    putIf(event, field::kUpdateMean, r.updateMean);
    putIf(event, field::kUpdateVar, r.updateVariance);
    putIf(event, field::kNoiseScale, r.noiseScale);
    putIf(event, field::kUpdateVarEstimate, r.updateVarianceEstimate);
    putIf(event, field::kWMean, r.weightMean);
    event[field::kSamplesPerSec] = r.samples / (r.stepMs / 1000.0);
    event[field::kDataMs] = r.dataMs;
    event[field::kComputeMs] = r.computeMs;
    event[field::kCommMs] = r.commMs;
    event[field::kOptimizerMs] = r.optimizerMs;
    event[field::kStepMs] = r.stepMs;
    event[field::kWallS] = r.wallSeconds;
    return event;
}

Json evalEvent(const EvalReport& r)
{
    Json event;
    event[field::kType] = type::kEval;
    event[field::kStep] = r.step;
    event[field::kEpoch] = r.epoch;
    event[field::kValLoss] = r.loss;
    putIf(event, field::kValAccuracy, r.accuracy);
    event[field::kSamples] = r.samples;
    return event;
}

Json checkpointEvent(const CheckpointReport& r)
{
    Json event;
    event[field::kType] = type::kCheckpoint;
    event[field::kStep] = r.step;
    event[field::kEpoch] = r.epoch;
    event[field::kPath] = r.path;
    event[field::kBytes] = r.bytes;
    return event;
}

Json batchChangedEvent(const BatchChange& c)
{
    Json event;
    event[field::kType] = type::kBatchChanged;
    event[field::kStep] = c.step;
    event[field::kPreviousEffectiveBatch] = c.previous;
    event[field::kEffectiveBatch] = c.effectiveBatch;
    event[field::kBatchSize] = c.batchSize;
    event[field::kGradAccum] = c.gradAccum;
    event[field::kReason] = c.reason;
    putIf(event, field::kNoiseScale, c.noiseScale);
    return event;
}

Json rangeTestEvent(const RangeTestReport& r)
{
    Json event;
    event[field::kType] = type::kRangeTest;
    Json points = Json::array();
    for (const RangeTestReport::Point& point : r.points)
        points.push_back({{field::kLr, point.lr}, {field::kLoss, point.loss}, {field::kSmoothedLoss, point.smoothedLoss}});
    event[field::kPoints] = std::move(points);
    event[field::kStopReason] = r.stopReason;
    auto lrOrNull = [](const std::optional<double>& lr) { return lr ? Json(*lr) : Json(nullptr); };
    event[field::kSuggestions] = {{field::kSteepest, lrOrNull(r.steepest)},
                                  {field::kMinimumTenth, lrOrNull(r.minimumTenth)},
                                  {field::kValley, lrOrNull(r.valley)}};
    event[field::kMinimumLr] = r.minimumLr;
    event[field::kMinimumLoss] = r.minimumLoss;
    return event;
}

Json shardReport(const ShardListing& l)
{
    Json report;
    report[key::kNumExamples] = l.request.numExamples;
    report[key::kWorldSize] = l.request.worldSize;
    report[key::kBatchSize] = l.request.batchSize;
    report[key::kDropLast] = l.request.dropLast;
    report[key::kShuffle] = l.request.shuffle;
    report[key::kSeed] = l.request.seed;
    report[shard::kEpoch] = l.request.epoch;
    report[shard::kSamplesPerRank] = l.samplesPerRank;
    report[shard::kIterations] = l.iterations;
    report[shard::kListedIterations] = l.listedIterations;
    report[shard::kRanks] = l.ranks;
    Json padding = Json::array();
    for (const std::array<int64_t, 3>& repeat : l.padding)
        padding.push_back({repeat[0], repeat[1], repeat[2]});
    report[shard::kPadding] = std::move(padding);
    report[shard::kDropped] = l.dropped;
    return report;
}

Json keysReport()
{
    static const char* const kTypeNames[] = {"integer", "number", "boolean", "choice", "text"};
    const Config defaults;
    Json report = Json::array();
    for (const ConfigKey& key : configKeys()) {
        Json entry;
        entry[keys::kKey] = key.name;
        entry[keys::kFlag] = key.type == KeyType::Boolean ? key.flag() + " / --no-" + key.flag().substr(2) : key.flag();
        entry[keys::kType] = kTypeNames[int(key.type)];
        entry[keys::kDefault] = key.read(defaults);
        entry[keys::kAllowed] = key.allowed;
        entry[keys::kHelp] = key.help;
        if (!key.choices.empty())
            entry[keys::kChoices] = key.choices;
        report.push_back(entry);
    }
    return report;
}

Json epochEvent(const EpochReport& r)
{
    Json event;
    event[field::kType] = type::kEpoch;
    event[field::kEpoch] = r.epoch;
    event[field::kStep] = r.step;
    event[field::kSteps] = r.steps;
    event[field::kSamples] = int64_t(r.samples);
    event[field::kLoss] = r.loss;
    putIf(event, field::kAccuracy, r.accuracy);
    event[field::kTrainS] = r.seconds;
    event[field::kSamplesPerSec] = r.seconds > 0 ? r.samples / r.seconds : 0.0;
    return event;
}

Json summaryEvent(const SummaryReport& r)
{
    Json event;
    event[field::kType] = type::kSummary;
    event[field::kSteps] = r.steps;
    event[field::kEpochs] = r.epochs;
    event[field::kLoss] = r.loss;
    putIf(event, field::kAccuracy, r.accuracy);
    putIf(event, field::kTrainLoss, r.trainLoss);
    putIf(event, field::kTrainAccuracy, r.trainAccuracy);
    if (r.lastEval) {
        event[field::kValLoss] = r.lastEval->loss;
        putIf(event, field::kValAccuracy, r.lastEval->accuracy);
    }
    putIf(event, field::kUpdateMean, r.updateMean);
    putIf(event, field::kUpdateVar, r.updateVariance);
    if (r.updateCount)
        event[field::kUpdateCount] = *r.updateCount;
    putIf(event, field::kNoiseScale, r.noiseScale);
    putIf(event, field::kGradVarTrace, r.gradVarianceTrace);
    putIf(event, field::kWMean, r.weightMean);
    event[field::kSamples] = int64_t(r.samples);
    event[field::kSamplesPerSec] = r.trainSeconds > 0 ? r.samples / r.trainSeconds : 0.0;
    event[field::kTrainS] = r.trainSeconds;
    event[field::kWallS] = r.wallSeconds;
    return event;
}

}  // namespace ddplab::protocol
