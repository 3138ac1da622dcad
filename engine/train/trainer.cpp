// SPDX-License-Identifier: GPL-3.0-or-later
#include "trainer.hpp"

#include "comm/communicator.hpp"
#include "core/batch_schedule.hpp"
#include "core/config_error.hpp"
#include "core/derived.hpp"
#include "core/home_path.hpp"
#include "core/key_names.hpp"
#include "output/event_writer.hpp"
#include "output/output_error.hpp"
#include "buffer_sync.hpp"
#include "checkpointing.hpp"
#include "gradient_sync.hpp"
#include "no_deterministic_kernel.hpp"
#include "out_of_memory.hpp"
#include "optim/optimizer_factory.hpp"
#include "step_timer.hpp"

#include <ATen/ATen.h>
#include <torch/optim/optimizer.h>
#include <torch/utils.h>

#include <cmath>
#include <csignal>
#include <iostream>
#include <limits>
#include <new>
#include <pthread.h>
#include <stdexcept>
#include <unistd.h>

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

// Two batches' figures of one rank, added on the device.
BatchResult sum(const BatchResult& a, const BatchResult& b)
{
    return {a.lossSum + b.lossSum, a.correct.defined() ? a.correct + b.correct : at::Tensor(), a.samples + b.samples};
}

std::vector<at::Tensor> cloned(const std::vector<at::Tensor>& tensors)
{
    std::vector<at::Tensor> copies;
    for (const at::Tensor& t : tensors)
        copies.push_back(t.detach().clone());
    return copies;
}

void copyInto(std::vector<at::Tensor>& targets, const std::vector<at::Tensor>& values)
{
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < targets.size(); ++i)
        targets[i].detach().copy_(values[i]);
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
    if (config.failAt->mode == FailureMode::OutOfMemory) {
        // A pebibyte: more than any address space holds, so LibTorch's allocator refuses it as
        // it refuses a real batch that does not fit.
        constexpr int64_t kImpossibleBytes = int64_t(1) << 50;
        at::empty({kImpossibleBytes}, at::kByte);
    }
    if (config.failAt->mode == FailureMode::Hang) {
        // Only SIGKILL ends it now: what a rank stuck in a driver call or a tight loop looks like.
        sigset_t stop;
        sigemptyset(&stop);
        sigaddset(&stop, SIGTERM);
        sigaddset(&stop, SIGHUP);
        ::pthread_sigmask(SIG_BLOCK, &stop, nullptr);
        std::signal(SIGTERM, SIG_IGN);
        std::signal(SIGHUP, SIG_IGN);
        while (true)
            ::pause();
    }
    throw std::runtime_error("injected failure at step " + std::to_string(step) + " (--fail-at)");
}

// LibTorch reports a failed allocation as c10::OutOfMemoryError (CUDA) or as a plain c10::Error
// from its CPU allocator; std::bad_alloc comes from the standard library's own containers.
bool isOutOfMemory(const c10::Error& error)
{
    const std::string message = error.what_without_backtrace();
    return dynamic_cast<const c10::OutOfMemoryError*>(&error) != nullptr || message.find("can't allocate memory") != std::string::npos ||
           message.find("out of memory") != std::string::npos;
}

// The allocator's own sentence: its first line, without the "[enforce fail at alloc_cpu.cpp:75]
// err == 0. " that says where in LibTorch it was checked.
std::string allocatorSentence(const std::string& text)
{
    std::string line = text.substr(0, text.find('\n'));
    constexpr char kCheckPrefix[] = "[enforce fail at ";
    if (line.rfind(kCheckPrefix, 0) == 0) {
        const size_t condition = line.find("] ");
        const size_t sentence = condition == std::string::npos ? condition : line.find(". ", condition);
        if (sentence != std::string::npos)
            line = line.substr(sentence + 2);
    }
    return line;
}

}  // namespace

Trainer::Trainer(const Config& config, Workload& workload, Communicator& comm, EventWriter* events, protocol::RunFacts facts)
    : m_config(config), m_workload(workload), m_comm(comm), m_events(events), m_facts(std::move(facts)), m_growth(config)
{
}

Trainer::~Trainer() = default;

Json Trainer::run()
{
    // Which step ran out of memory, and with what, is what a person can act on; LibTorch's
    // backtrace (5 KiB of it) goes to stderr, the run's stderr.log.
    try {
        return train();
    } catch (const std::bad_alloc& error) {
        throw OutOfMemory(m_step + 1, m_growth.shaped().batchSize, error.what());
    } catch (const c10::Error& error) {
        const std::string operation = operationWithoutDeterministicKernel(error.what_without_backtrace());
        if (!operation.empty()) {
            std::cerr << error.what() << std::endl;
            throw ConfigError(key::kDeterministic, noDeterministicKernelSentence("at step " + std::to_string(m_step + 1) + ",", operation));
        }
        if (!isOutOfMemory(error))
            throw;
        std::cerr << error.what() << std::endl;
        throw OutOfMemory(m_step + 1, m_growth.shaped().batchSize, allocatorSentence(error.what_without_backtrace()));
    }
}

Json Trainer::train()
{
    const Config& c = m_config;
    m_parameters = m_workload.parameters();
    // Every rank: under torchrun or Slurm no launcher checked the model first.
    if (m_parameters.empty())
        throw ConfigError(key::kModelFile, std::string(key::kModelFile) + " " + expandHome(c.modelFile) + ": " + nothingTrainsMessage());
    for (const at::Tensor& p : m_parameters)
        m_parameterCount += p.numel();
    broadcastParameters(m_parameters, m_comm);
    m_sync = std::make_unique<GradientSync>(m_parameters, m_comm, c.bucketCapMb, c.overlap, averagesSquaredGradients(c));
    m_optimizer = makeOptimizer(c, m_parameters, m_sync->meanSquaredGradients());
    m_timer = std::make_unique<StepTimer>(m_parameters.front().device());
    if (std::vector<at::Tensor> buffers = m_workload.buffers(); !buffers.empty())
        m_bufferSync = std::make_unique<BufferSync>(std::move(buffers), m_comm);
    TrainingPosition start;
    if (!c.resumeFrom.empty()) {
        start = resumeTraining(trainingState());
        m_step = start.step;
        m_facts.resumedFrom = expandHome(c.resumeFrom);
        m_facts.resumedStep = start.step;
        m_growth.restore(start.batch);
    }
    if (m_comm.rank() == 0)
        prepareCheckpointFolder(c);
    if (c.lrRangeTest)
        m_rangeTest.emplace();
    emitConfig();

    // epochs bound the run (the epoch loop), max_steps its optimizer steps, both counted from the
    // first run's start when resumed: a branch with another batch has other steps per epoch.
    // A range test counts its own steps from where it starts (a checkpoint's step, when resumed).
    m_firstStep = start.step;
    const int64_t stepLimit = c.lrRangeTest   ? start.step + totalSteps(c)
                              : c.maxSteps > 0 ? c.maxSteps
                                               : std::numeric_limits<int64_t>::max();
    // The range test runs its steps over as many epochs as they take, AdaScale until its clock
    // tau has run the schedule's length.
    const bool adaScale = c.batchSchedule == BatchScheduleKind::AdaScale;
    const int64_t epochLimit = c.lrRangeTest || adaScale ? std::numeric_limits<int64_t>::max() : c.epochs;
    const int64_t measureEvery = evalInterval(c);
    const auto runStart = Clock::now();
    double trainingSeconds = 0.0, samplesSeen = start.samplesSeen;
    StepRecord last;
    last.loss = last.accuracy = std::numeric_limits<double>::quiet_NaN();

    // Every rank sees the same measure (reduced over ranks, or computed alike on each), so all
    // meet the target (and the range test its end) at the same step.
    bool stopped = false;
    int64_t epoch = start.epoch;
    for (; epoch < epochLimit && m_step < stepLimit && !stopped; ++epoch) {
        const int64_t from = epoch == start.epoch ? start.position : 0;
        std::vector<MicroBatches> steps = epochSteps(m_growth.shaped(), m_workload.datasetSize(), m_comm.rank(), epoch, from);
        if (steps.empty() && from == 0)
            break;  // an epoch without a step would be every epoch
        int64_t position = from;
        EpochTally tally;
        for (size_t s = 0; s < steps.size() && m_step < stepLimit && !stopped; ++s) {
            try {
                last = trainStep(steps[s], epoch);
            } catch (const ConfigError& error) {
                // The model at fault (torchscript): which step it was is part of the story.
                throw ConfigError(error.key(), std::string(error.what()) + " (at step " + std::to_string(m_step + 1) + ")");
            }
            position += positionsConsumed(steps[s], m_comm.worldSize());
            const bool endsEpoch = s + 1 == steps.size();
            const bool endsRun = m_step >= stepLimit;
            const bool measures = endsEpoch || endsRun || (measureEvery > 0 && m_step % measureEvery == 0);
            if (measures)
                measureTraining(last);
            last.wallSeconds = std::chrono::duration<double>(Clock::now() - runStart).count();
            trainingSeconds += last.stepMs / 1000.0;
            samplesSeen += last.samples;
            ++tally.steps;
            tally.samples += last.samples;
            tally.lossSum += last.loss * last.samples;
            tally.correct += last.accuracy * last.samples;
            tally.seconds += last.stepMs / 1000.0;
            if (m_events)
                emit(protocol::stepEvent(stepReport(last)), true);
            // Before the target is judged: it may be the validation loss.
            if (measures)
                evaluateAndReport(epoch);
            stopped = meetsTarget(last) || (m_rangeTest && m_rangeTest->add(last.lr, last.loss));
            // A larger batch takes the epoch's permutation on from where this step left it; after
            // the run's last step there is nothing to grow for.
            const bool goesOn = !stopped && !endsRun && !(endsEpoch && epoch + 1 >= epochLimit);
            if (growBatch(last, goesOn) && !endsEpoch) {
                steps = epochSteps(m_growth.shaped(), m_workload.datasetSize(), m_comm.rank(), epoch, position);
                s = size_t(-1);  // the loop's ++s: the first of the replanned steps
            }
            stopped = stopped || (adaScale && m_growth.adaScaleDone());
            if (c.checkpointAt.at(m_step)) {
                // At an epoch's end the next step is the next epoch's first, whatever world size reads it.
                const TrainingPosition here{m_step, endsEpoch ? epoch + 1 : epoch, endsEpoch ? 0 : position, samplesSeen,
                                            m_growth.state()};
                const protocol::CheckpointReport written = saveCheckpoint(trainingState(), here);
                if (m_events)
                    emit(protocol::checkpointEvent(written));
            }
        }
        if (m_events)
            emit(protocol::epochEvent(epochReport(epoch, tally)));
        if (m_lastEvalStep != m_step)  // a target met in the middle of the epoch
            evaluateAndReport(epoch);
    }
    if (m_rangeTest && m_events)
        emit(protocol::rangeTestEvent(m_rangeTest->report(m_step >= stepLimit)));
    return protocol::summaryEvent(summaryReport(last, trainingSeconds, samplesSeen, runStart));
}

void Trainer::emit(const Json& event, bool batched)
{
    if (batched)
        m_events->emitBatched(event);
    else
        m_events->emit(event);
    // The events file is the run's record: once the disk refuses it, training on would be lost.
    const std::string failure = m_events->fileError();
    if (!failure.empty())
        throw OutputError(failure, m_events->fileErrorKey());
}

void Trainer::emitConfig()
{
    if (!m_events)
        return;
    // The model's shape and DDP's bucket plan belong to the resolved configuration.
    m_facts.parameterCount = m_parameterCount;
    m_facts.parameterTensors = int64_t(m_parameters.size());
    for (const auto& bucket : m_sync->bucketLayout()) {
        protocol::RunFacts::Bucket planned{bucket, 0};
        for (size_t index : bucket)
            planned.elements += m_parameters[index].numel();
        m_facts.buckets.push_back(planned);
    }
    emit(protocol::configEvent(m_config, m_facts));
}

TrainingState Trainer::trainingState()
{
    return {m_config, m_workload, m_comm, m_parameters, *m_optimizer, m_noiseScale, m_updateStats};
}

Trainer::StepRecord Trainer::trainStep(const MicroBatches& microBatches, int64_t epoch)
{
    const Config& c = m_config;
    const bool trackUpdates = m_workload.tracksUpdateVariance();
    const bool plainStep = appliesPlainGradientStep(c);
    const int64_t experiments = m_workload.experiments();

    failIfPlanned(c, m_comm.rank(), m_step + 1);
    const auto stepStart = Clock::now();
    m_timer->begin();
    StepRecord record;
    record.epoch = epoch;
    record.effectiveBatch = m_growth.effectiveBatch();
    const bool adaScale = c.batchSchedule == BatchScheduleKind::AdaScale;
    record.lr = c.lrRangeTest                                  ? rangeTestLr(c, m_step - m_firstStep)
                : c.batchSchedule == BatchScheduleKind::Constant ? learningRateAt(c, m_step)
                                                                 : m_growth.nextLr();
    setLearningRate(*m_optimizer, record.lr);
    std::vector<at::Tensor> before;
    if (trackUpdates && !plainStep) {
        for (const at::Tensor& p : m_parameters)
            before.push_back(p.detach().clone());
    }

    BatchResult local;
    forwardBackward(microBatches, local);
    const size_t micro = microBatches.size();
    stopOnMissingGradients();
    const at::Tensor synced = m_sync->finish();
    m_timer->endPhase(StepPhase::Comm);

    // The estimator reasons about mean per-sample gradients; a summed loss's gradient is that
    // mean times the samples behind each (micro-)batch.
    const int K = m_comm.worldSize();
    record.gradScale = m_workload.sumsLoss() ? local.samples / double(micro) : 1.0;
    const double toMean = 1.0 / (record.gradScale * record.gradScale);
    auto measureNoise = [&](const double* figures) {
        m_noiseScale.add(figures[kLocalSquaredNorm] * toMean, figures[kGlobalSquaredNorm] * toMean,
                         figures[kGlobalSamples] / K, figures[kGlobalSamples]);
    };
    if (adaScale) {
        // AdaScale's gain takes this step's gradients into its estimate before the optimizer
        // steps with it (the paper's Algorithm 1): one more read from the device.
        const at::Tensor figures = synced.to(at::kCPU);
        measureNoise(figures.data_ptr<double>());
        const double samples = figures.data_ptr<double>()[kGlobalSamples];
        record.gain = adaScaleGain(m_noiseScale.traceSigma(), m_noiseScale.gradSquaredNorm(), samples / K, samples);
        record.tau = m_growth.state().tau + *record.gain;
        record.lr = m_growth.adaScaleLr(*record.gain);
        setLearningRate(*m_optimizer, record.lr);
    }

    at::Tensor applied;
    if (trackUpdates && plainStep)
        applied = byExperiment(gradients(m_parameters), experiments) * record.lr;  // what SGD subtracts, exactly

    m_optimizer->step();  // gradients are zeroed with the buckets before the next step
    m_timer->endPhase(StepPhase::Optimizer);

    // The step's figures, still on the device, come back together: the step's one read.
    std::vector<at::Tensor> parts{synced};
    if (trackUpdates) {
        if (!plainStep) {
            std::vector<at::Tensor> deltas;
            for (size_t i = 0; i < m_parameters.size(); ++i)
                deltas.push_back(before[i] - m_parameters[i].detach());
            applied = byExperiment(deltas, experiments);
        }
        parts.push_back(m_updateStats.add(applied));
    }
    const at::Tensor weightMean = m_workload.weightMean();
    if (weightMean.defined())
        parts.push_back(weightMean.to(at::kDouble).reshape({1}));
    const at::Tensor read = at::cat(parts).to(at::kCPU);
    const double* figures = read.data_ptr<double>();

    record.gradNorm = std::sqrt(figures[kGlobalSquaredNorm]);
    record.samples = figures[kGlobalSamples];
    record.loss = figures[kGlobalLossSum] / record.samples;
    record.accuracy = figures[kGlobalCorrect] / record.samples;
    const double* rest = figures + kSyncFigureCount;
    if (trackUpdates) {
        record.updateMean = rest[kUpdateMean];
        record.updateVariance = rest[kUpdateVariance];
        rest += kUpdateFigureCount;
    }
    if (weightMean.defined())
        record.weightMean = rest[0];

    if (!adaScale)
        measureNoise(figures);

    const PhaseTimes times = m_timer->resolve();
    record.dataMs = times.dataMs;
    record.computeMs = times.computeMs;
    record.commMs = times.commMs;
    record.optimizerMs = times.optimizerMs;
    record.step = ++m_step;
    record.stepMs = millisecondsSince(stepStart);
    return record;
}

bool Trainer::growBatch(const StepRecord& record, bool runGoesOn)
{
    const double noise = m_noiseScale.ready() ? m_noiseScale.simpleNoiseScale() : std::numeric_limits<double>::quiet_NaN();
    const std::optional<protocol::BatchChange> change =
        m_growth.afterStep(m_step, noise, record.gain.value_or(1.0), runGoesOn);
    if (!change)
        return false;
    if (m_events)
        emit(protocol::batchChangedEvent(*change));
    return true;
}

// Micro-batches: the inner ones only accumulate (DDP's no_sync), the last synchronises. Under
// accumulate_as_ranks each micro-batch is an emulated GPU's batch: each starts from the buffers
// the step began with, as every GPU's forward starts from rank 0's broadcast ones, and the
// buffers the step leaves are the first micro-batch's (emulated rank 0's of this rank).
void Trainer::forwardBackward(const MicroBatches& microBatches, BatchResult& local)
{
    const size_t micro = microBatches.size();
    const bool emulatesGpus = m_config.accumulateAsRanks && micro > 1;
    std::vector<at::Tensor> buffers = emulatesGpus ? m_workload.buffers() : std::vector<at::Tensor>{};
    std::vector<at::Tensor> atStart, afterFirst;
    m_sync->zeroGradients();
    for (size_t m = 0; m < micro; ++m) {
        const at::Tensor indices = at::tensor(microBatches[m], at::TensorOptions().dtype(at::kLong));
        const Batch batch = m_workload.fetch(indices);
        m_timer->endPhase(StepPhase::Data);
        const bool last = m + 1 == micro;
        if (m_bufferSync)
            m_bufferSync->beforeForward(last);
        if (!buffers.empty() && m == 0)
            atStart = cloned(buffers);
        if (!buffers.empty() && m > 0)
            copyInto(buffers, atStart);
        const ForwardResult forward = m_workload.forward(batch);
        if (!buffers.empty() && m == 0)
            afterFirst = cloned(buffers);
        local = m == 0 ? forward.figures : sum(local, forward.figures);
        if (last)
            m_sync->setFigures(local);
        m_sync->prepare(last);
        // Micro-batches are averaged, as ranks are.
        (micro == 1 ? forward.loss : forward.loss * (1.0 / double(micro))).backward();
        m_timer->endPhase(StepPhase::Compute);
    }
    if (!buffers.empty())
        copyInto(buffers, afterFirst);
}

// A parameter the loss did not reach would leave its bucket's all-reduce waiting in DDP (with
// find_unused_parameters=False it fails at the next step). Here the rank says which one.
void Trainer::stopOnMissingGradients() const
{
    const std::vector<size_t> missing = m_sync->missingGradients();
    if (missing.empty())
        return;
    const std::vector<std::string> names = m_workload.parameterNames();
    std::vector<std::string> named;
    for (size_t index : missing)
        named.push_back(index < names.size() ? names[index] : "#" + std::to_string(index));
    const std::string model = m_config.modelFile.empty() ? "" : std::string(key::kModelFile) + " " + expandHome(m_config.modelFile) + ": ";
    throw ConfigError(key::kModelFile, model + missingGradientsMessage(named));
}

void Trainer::measureTraining(StepRecord& record)
{
    record.training = m_workload.measureTraining(m_comm);
    if (record.training)
        m_lastTraining = record.training;
}

bool Trainer::meetsTarget(const StepRecord& record) const
{
    const Config& c = m_config;
    if (!c.stopAtLoss)
        return false;
    switch (c.stopMeasure) {
    case StopMeasure::TrainLoss:
        return record.training && record.training->loss <= *c.stopAtLoss;
    case StopMeasure::ValLoss:
        return m_lastEval && m_lastEval->step == m_step && m_lastEval->loss <= *c.stopAtLoss;
    case StopMeasure::BatchLoss:
        return record.loss <= *c.stopAtLoss;
    }
    return false;
}

void Trainer::evaluateAndReport(int64_t epoch)
{
    m_lastEvalStep = m_step;
    if (m_bufferSync && m_workload.evaluates())
        m_bufferSync->beforeForward(false);  // evaluation goes through the model as through DDP's wrapper
    const auto eval = m_workload.evaluate(m_comm);
    if (!eval)
        return;
    m_lastEval = protocol::EvalReport{m_step, epoch, eval->loss, std::nullopt, eval->samples};
    if (m_workload.classifies())
        m_lastEval->accuracy = eval->accuracy;
    if (m_events)
        emit(protocol::evalEvent(*m_lastEval));
}

protocol::StepReport Trainer::stepReport(const StepRecord& r) const
{
    protocol::StepReport report;
    report.step = r.step;
    report.epoch = r.epoch;
    report.lr = r.lr;
    report.loss = r.loss;
    if (m_workload.classifies())
        report.accuracy = r.accuracy;
    if (r.training) {
        report.trainLoss = r.training->loss;
        if (m_workload.classifies())
            report.trainAccuracy = r.training->accuracy;
    }
    report.samples = r.samples;
    report.effectiveBatch = r.effectiveBatch;
    report.gain = r.gain;
    report.tau = r.tau;
    report.gradNorm = r.gradNorm;
    if (m_workload.tracksUpdateVariance()) {
        report.updateMean = r.updateMean;
        if (m_workload.experiments() > 1)
            report.updateVariance = r.updateVariance;
    }
    if (m_noiseScale.ready()) {
        report.noiseScale = m_noiseScale.simpleNoiseScale();
        // What SGD's update variance per parameter would be at this LR and batch; a variance
        // from a covariance trace estimated below zero would be none.
        const double scaledLr = r.lr * r.gradScale;
        const double trace = m_noiseScale.traceSigma();
        report.updateVarianceEstimate = trace >= 0 ? scaledLr * scaledLr * trace / (double(m_parameterCount) * r.samples)
                                                   : std::numeric_limits<double>::quiet_NaN();
    }
    report.weightMean = r.weightMean;
    report.dataMs = r.dataMs;
    report.computeMs = r.computeMs;
    report.commMs = r.commMs;
    report.optimizerMs = r.optimizerMs;
    report.stepMs = r.stepMs;
    report.wallSeconds = r.wallSeconds;
    return report;
}

protocol::EpochReport Trainer::epochReport(int64_t epoch, const EpochTally& tally) const
{
    protocol::EpochReport report;
    report.epoch = epoch;
    report.step = m_step;
    report.steps = tally.steps;
    report.samples = tally.samples;
    report.loss = tally.samples > 0 ? tally.lossSum / tally.samples : std::numeric_limits<double>::quiet_NaN();
    if (m_workload.classifies())
        report.accuracy = tally.samples > 0 ? tally.correct / tally.samples : 0.0;
    report.seconds = tally.seconds;
    return report;
}

protocol::SummaryReport Trainer::summaryReport(const StepRecord& last, double trainingSeconds, double samplesSeen,
                                               Clock::time_point start) const
{
    protocol::SummaryReport report;
    report.steps = m_step;
    report.epochs = last.epoch + (m_step > 0 ? 1 : 0);
    report.loss = last.loss;
    if (m_workload.classifies())
        report.accuracy = last.accuracy;
    if (m_lastTraining) {
        report.trainLoss = m_lastTraining->loss;
        if (m_workload.classifies())
            report.trainAccuracy = m_lastTraining->accuracy;
    }
    report.lastEval = m_lastEval;
    if (m_workload.tracksUpdateVariance()) {
        report.updateMean = m_updateStats.pooledMean();
        report.updateVariance = m_updateStats.pooledVariance();
        report.updateCount = m_updateStats.count();
    }
    if (m_noiseScale.ready()) {
        report.noiseScale = m_noiseScale.simpleNoiseScale();
        report.gradVarianceTrace = m_noiseScale.traceSigma();
    }
    if (const at::Tensor weightMean = m_workload.weightMean(); weightMean.defined())
        report.weightMean = weightMean.item<double>();
    report.samples = samplesSeen;
    report.trainSeconds = trainingSeconds;
    report.wallSeconds = std::chrono::duration<double>(Clock::now() - start).count();
    return report;
}

}  // namespace ddplab
