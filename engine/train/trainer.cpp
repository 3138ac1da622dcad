#include "trainer.hpp"

#include "comm/communicator.hpp"
#include "core/derived.hpp"
#include "core/events.hpp"
#include "core/noise_scale.hpp"
#include "data/distributed_sampler.hpp"
#include "gradient_sync.hpp"
#include "optim/optimizer_factory.hpp"
#include "update_statistics.hpp"
#include "workload.hpp"

#include <ATen/ATen.h>
#include <torch/optim/optimizer.h>
#include <torch/utils.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <csignal>
#include <stdexcept>

namespace ddplab {
namespace {

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// DDP broadcasts rank 0's parameters when it wraps the model, so every rank starts equal.
void broadcastParameters(const std::vector<at::Tensor>& parameters, Communicator& comm)
{
    torch::NoGradGuard noGrad;
    for (at::Tensor parameter : parameters)
        comm.broadcast(parameter, 0);
}

double squaredNorm(const std::vector<at::Tensor>& tensors)
{
    double sum = 0.0;
    for (const at::Tensor& t : tensors) {
        if (t.defined())
            sum += t.pow(2).sum().item<double>();
    }
    return sum;
}

std::vector<at::Tensor> gradients(const std::vector<at::Tensor>& parameters)
{
    std::vector<at::Tensor> grads;
    for (const at::Tensor& p : parameters)
        grads.push_back(p.grad());
    return grads;
}

// [experiments, coordinates]: each parameter's first dimension runs over experiments.
at::Tensor byExperiment(const std::vector<at::Tensor>& tensors, int64_t experiments)
{
    std::vector<at::Tensor> columns;
    for (const at::Tensor& t : tensors)
        columns.push_back(t.detach().reshape({experiments, -1}));
    return at::cat(columns, 1);
}

void failIfPlanned(const Config& config, int rank, int64_t step)
{
    if (!config.failAt || config.failAt->rank != rank || config.failAt->step != step)
        return;
    if (config.failAt->mode == FailureMode::Crash)
        std::raise(SIGKILL);
    throw std::runtime_error("injected failure at step " + std::to_string(step) + " (--fail-at)");
}

}  // namespace

Trainer::Trainer(const Config& config, Workload& workload, Communicator& comm, EventWriter* events, Json configEvent)
    : m_config(config), m_workload(workload), m_comm(comm), m_events(events), m_configEvent(std::move(configEvent))
{
}

Json Trainer::run()
{
    const Config& c = m_config;
    const std::vector<at::Tensor> parameters = m_workload.parameters();
    broadcastParameters(parameters, m_comm);

    auto optimizer = makeOptimizer(c, parameters);
    GradientSync sync(parameters, m_comm, c.bucketCapMb, c.overlap);
    const SamplerSettings sampler{m_workload.datasetSize(), c.worldSize, c.shuffle, c.seed, c.dropLast};
    const int64_t stepLimit = totalSteps(c);
    const int64_t experiments = m_workload.experiments();
    const bool trackUpdates = m_workload.tracksUpdateVariance();
    const bool plainStep = appliesPlainGradientStep(c);
    const int64_t parameterCount = [&] {
        int64_t n = 0;
        for (const at::Tensor& p : parameters)
            n += p.numel();
        return n;
    }();
    const at::Device device = parameters.front().device();
    if (m_events) {
        // The model's shape and DDP's bucket plan belong to the resolved configuration.
        m_configEvent["parameter_count"] = parameterCount;
        m_configEvent["parameter_tensors"] = int64_t(parameters.size());
        Json buckets = Json::array();
        for (const auto& bucket : sync.bucketLayout()) {
            int64_t elements = 0;
            for (size_t index : bucket)
                elements += parameters[index].numel();
            buckets.push_back({{"parameters", bucket}, {"elements", elements}});
        }
        m_configEvent["buckets"] = buckets;
        m_events->emit(m_configEvent);
    }

    UpdateStatistics updateStats;
    NoiseScaleEstimator noiseScale;
    int64_t step = 0;
    int64_t epoch = 0;
    double lastLoss = std::numeric_limits<double>::quiet_NaN();
    double lastAccuracy = std::numeric_limits<double>::quiet_NaN();
    double samplesSeen = 0.0;
    std::optional<EvalResult> lastEval;
    const auto runStart = Clock::now();
    double trainingSeconds = 0.0;

    for (epoch = 0; epoch < c.epochs && step < stepLimit; ++epoch) {
        const auto batches = rankBatches(sampler, m_comm.rank(), epoch, c.batchSize);
        for (size_t first = 0; first < batches.size() && step < stepLimit; first += size_t(c.gradAccum)) {
            failIfPlanned(c, m_comm.rank(), step + 1);
            const auto stepStart = Clock::now();
            const double lr = learningRateAt(c, step);
            setLearningRate(*optimizer, lr);
            std::vector<at::Tensor> before;
            if (trackUpdates && !plainStep) {
                for (const at::Tensor& p : parameters)
                    before.push_back(p.detach().clone());
            }

            // Micro-batches: the inner ones only accumulate (no_sync), the last synchronises.
            const size_t micro = std::min(size_t(c.gradAccum), batches.size() - first);
            double dataMs = 0.0, computeMs = 0.0;
            BatchResult local;
            for (size_t m = 0; m < micro; ++m) {
                auto phase = Clock::now();
                const std::vector<int64_t>& indices = batches[first + m];
                const at::Tensor indexTensor = at::tensor(indices, at::TensorOptions().dtype(at::kLong));
                const Batch batch = m_workload.fetch(indexTensor);
                dataMs += millisecondsSince(phase);
                phase = Clock::now();
                sync.prepare(m + 1 == micro);
                const BatchResult result = m_workload.train(batch, 1.0 / double(micro));
                computeMs += millisecondsSince(phase);
                local.lossSum += result.lossSum;
                local.correct += result.correct;
                local.samples += result.samples;
            }
            const SyncTiming syncTiming = sync.finish();

            const std::vector<at::Tensor> grads = gradients(parameters);
            const double globalSquaredNorm = squaredNorm(grads);
            at::Tensor applied;
            if (trackUpdates && plainStep)
                applied = byExperiment(grads, experiments) * lr;  // what SGD subtracts, exactly

            auto phase = Clock::now();
            optimizer->step();
            optimizer->zero_grad();
            const double optimizerMs = millisecondsSince(phase);

            UpdateStatistics::StepFigures updateFigures;
            if (trackUpdates) {
                if (!plainStep) {
                    std::vector<at::Tensor> deltas;
                    for (size_t i = 0; i < parameters.size(); ++i)
                        deltas.push_back(before[i] - parameters[i].detach());
                    applied = byExperiment(deltas, experiments);
                }
                updateFigures = updateStats.add(applied);
            }

            // One small all-reduce for the step's figures (DDP users do the same for logging).
            at::Tensor figures = at::tensor({local.lossSum, local.correct, local.samples, syncTiming.localSquaredNorm},
                                            at::TensorOptions().dtype(at::kDouble)).to(device);
            m_comm.allReduceSumNow(figures);
            figures = figures.cpu();
            const double* sums = figures.data_ptr<double>();
            const double globalSamples = sums[2];
            lastLoss = sums[0] / globalSamples;
            lastAccuracy = sums[1] / globalSamples;
            samplesSeen += globalSamples;
            const int K = m_comm.worldSize();
            // The estimator reasons about mean per-sample gradients; a summed loss's gradient is
            // that mean times the samples behind each (micro-)batch.
            const double gradScale = m_workload.sumsLoss() ? local.samples / double(micro) : 1.0;
            const double toMean = 1.0 / (gradScale * gradScale);
            noiseScale.add(sums[3] / K * toMean, globalSquaredNorm * toMean, globalSamples / K, globalSamples);

            ++step;
            const double stepMs = millisecondsSince(stepStart);
            trainingSeconds += stepMs / 1000.0;
            if (m_events) {
                Json event;
                event["type"] = "step";
                event["step"] = step;
                event["epoch"] = epoch;
                event["lr"] = lr;
                event["loss"] = lastLoss;
                if (m_workload.classifies())
                    event["accuracy"] = lastAccuracy;
                event["samples"] = int64_t(globalSamples);
                event["grad_norm"] = std::sqrt(globalSquaredNorm);
                if (trackUpdates) {
                    event["update_mean"] = updateFigures.mean;
                    if (experiments > 1)
                        event["update_var"] = updateFigures.variance;
                }
                if (noiseScale.ready()) {
                    event["noise_scale"] = noiseScale.simpleNoiseScale();
                    // What SGD's update variance per parameter would be at this LR and batch.
                    event["update_var_estimate"] = (lr * gradScale) * (lr * gradScale) * noiseScale.traceSigma() /
                                                   (double(parameterCount) * globalSamples);
                }
                m_workload.describeState(event);
                event["samples_per_sec"] = globalSamples / (stepMs / 1000.0);
                event["data_ms"] = dataMs;
                event["compute_ms"] = computeMs;
                event["comm_ms"] = syncTiming.waitMs;
                event["optimizer_ms"] = optimizerMs;
                event["step_ms"] = stepMs;
                m_events->emit(event);
            }
        }
        if (auto eval = m_workload.evaluate(m_comm)) {
            lastEval = eval;
            if (m_events) {
                Json event;
                event["type"] = "eval";
                event["step"] = step;
                event["epoch"] = epoch;
                event["val_loss"] = eval->loss;
                event["val_accuracy"] = eval->accuracy;
                event["samples"] = eval->samples;
                m_events->emit(event);
            }
        }
    }

    Json summary;
    summary["type"] = "summary";
    summary["steps"] = step;
    summary["epochs"] = epoch;
    summary["loss"] = lastLoss;
    if (m_workload.classifies())
        summary["accuracy"] = lastAccuracy;
    if (lastEval) {
        summary["val_loss"] = lastEval->loss;
        summary["val_accuracy"] = lastEval->accuracy;
    }
    if (trackUpdates) {
        summary["update_mean"] = updateStats.pooledMean();
        summary["update_var"] = updateStats.pooledVariance();
        summary["update_count"] = updateStats.count();
    }
    if (noiseScale.ready()) {
        summary["noise_scale"] = noiseScale.simpleNoiseScale();
        summary["grad_var_trace"] = noiseScale.traceSigma();
    }
    m_workload.describeState(summary);
    summary["samples"] = int64_t(samplesSeen);
    summary["samples_per_sec"] = trainingSeconds > 0 ? samplesSeen / trainingSeconds : 0.0;
    summary["train_s"] = trainingSeconds;
    summary["wall_s"] = std::chrono::duration<double>(Clock::now() - runStart).count();
    return summary;
}

}  // namespace ddplab
