// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_inspection.hpp"

#include "core/config_error.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"
#include "core/key_names.hpp"
#include "core/protocol_names.hpp"
#include "data/tensor_data.hpp"
#include "data/tensor_text.hpp"
#include "loss_functions.hpp"
#include "torchscript_model.hpp"
#include "torchscript_workload.hpp"
#include "train/gradient_sync.hpp"

#include <ATen/ATen.h>
#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/utils.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <time.h>

namespace ddplab {
namespace {

// The CPU allocator reports every allocation and release to an active memory profiler;
// this one only keeps the peak of what is live.
class PeakMemory final : public c10::MemoryReportingInfoBase {
public:
    // LibTorch 2.1+ passes the allocator's totals as size_t (1.13: int64_t).
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
    using Total = size_t;
#else
    using Total = int64_t;
#endif
    void reportMemoryUsage(void* /*ptr*/, int64_t bytes, Total /*allocated*/, Total /*reserved*/, c10::Device /*device*/) override
    {
        m_live += bytes;
        m_peak = std::max(m_peak, m_live);
    }
    bool memoryProfilingEnabled() const override { return true; }
    int64_t peak() const { return m_peak; }

private:
    int64_t m_live = 0;
    int64_t m_peak = 0;
};

// The process's resident memory and its peak since the last reset, from /proc/self/status
// (kB there): the peak counts what every thread allocated, LibTorch's thread pool and the
// TorchScript interpreter included, which the profiler's per-thread report misses.
int64_t residentKb(const std::string& field)
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.compare(0, field.size() + 1, field + ":") == 0)
            return std::atoll(line.c_str() + field.size() + 1);
    }
    return -1;
}

// Linux: writing 5 to clear_refs resets the peak (VmHWM) to what is resident now.
bool resetResidentPeak()
{
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
    clear.flush();
    return bool(clear);
}

[[noreturn]] void refuseModel(TorchScriptWorkload& workload, const std::string& problem)
{
    throw ConfigError(key::kModelFile, std::string(key::kModelFile) + " " + workload.model().path() + ": " + problem);
}

protocol::TensorFacts factsOf(const at::Tensor& tensor)
{
    return {tensor.sizes().vec(), dtypeName(tensor.scalar_type()), int64_t(tensor.nbytes())};
}

protocol::DataFacts factsOf(const TensorData& data)
{
    protocol::DataFacts facts;
    facts.path = data.path;
    facts.format = data.format == DataFormat::TorchSave ? protocol::inspection::kFormatTorchSave
                                                         : protocol::inspection::kFormatNpyFolder;
    facts.samples = data.samples();
    facts.inputs = factsOf(data.inputs);
    facts.targets = factsOf(data.targets);
    return facts;
}

// Copies of the trained parameters each optimizer keeps (momentum, moments).
int64_t optimizerStateCopies(const Config& c)
{
    switch (c.optimizer) {
    case OptimizerKind::Sgd:
    case OptimizerKind::Lars:
        return c.momentum > 0 ? 1 : 0;
    case OptimizerKind::NovoGrad:
        return 1;
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
    case OptimizerKind::Lamb:
    case OptimizerKind::AdamBsi:
    case OptimizerKind::AdamWBsi:
        return 2;
    }
    return 2;
}

// One training step's forward and backward on the first batch, as a rank would take it:
// its peak memory (the larger of what the allocator saw on this thread and the growth of the
// resident peak), and a dense gradient for every trained parameter.
int64_t measureTrainingStep(TorchScriptWorkload& workload, const Config& config)
{
    if (workload.parameters().empty())
        refuseModel(workload, nothingTrainsMessage());
    const auto meter = std::make_shared<PeakMemory>();
    const int64_t residentBefore = residentKb("VmRSS");
    const bool residentMeasured = residentBefore >= 0 && resetResidentPeak();
    {
        c10::DebugInfoGuard profiling(c10::DebugInfoKind::PROFILER_STATE, meter);
        const int64_t count = std::min(config.batchSize, workload.datasetSize());
        const Batch batch = workload.fetch(at::arange(count, at::TensorOptions().dtype(at::kLong)));
        const ForwardResult result = workload.forward(batch);
        if (!result.loss.requires_grad())
            refuseModel(workload, "the loss does not depend on any parameter that requires a gradient, so nothing would train");
        try {
            result.loss.backward();
        } catch (const std::exception& error) {
            std::string message = error.what();
            refuseModel(workload, "backward through the first batch failed: " + message.substr(0, message.find('\n')));
        }
    }
    const int64_t residentGrowth = residentMeasured ? (residentKb("VmHWM") - residentBefore) * 1024 : 0;
    std::vector<std::string> missing;
    const std::vector<at::Tensor> parameters = workload.parameters();
    const std::vector<std::string> names = workload.parameterNames();
    for (size_t i = 0; i < parameters.size(); ++i) {
        if (!parameters[i].grad().defined())
            missing.push_back(names[i]);
        else if (parameters[i].grad().is_sparse())
            refuseModel(workload, "parameter " + names[i] +
                                      " gets a sparse gradient (nn.Embedding(sparse=True) or nn.EmbeddingBag(sparse=True)), which "
                                      "the lab's DDP does not all-reduce; save the model with sparse=False");
    }
    if (!missing.empty())
        refuseModel(workload, missingGradientsMessage(missing));
    return std::max(meter->peak(), residentGrowth);
}

// The same step again, timed: the first took its allocations and one-time costs. The median of
// a few takes, each as long as the others: one take is what the machine was doing in that
// instant (decay-or-grow-own-model, estimated from one take, took 1.71x its estimate; the same
// run took 10.2-22.6 s as the load changed), and inspect runs before every own-model study and
// advice, so a slow model is timed fewer times. The gradients they leave are dropped; inspect
// trains nothing.
//
// Each take in wall seconds and in the CPU seconds this process spent on it, on one intra-op
// thread (each rank of a run on these cores gets one; the CPU clock counts every thread, and
// idle workers of a larger pool would spin into it). A take lasts tens of milliseconds: its wall
// seconds are the step's work plus however long, in that instant, the thread waited for a core
// behind other programs, which says nothing of the minutes of a study's runs. Beside two or three
// busy programs (all at nice 19) the examples' ResNet's takes of 16 samples took 0.094-0.201 s of
// wall and 0.027-0.051 s of CPU, alone 0.025-0.038 s of both; decay-or-grow-own-model's first line
// said 604 s from a busy instant's wall median, and its runs took 304 s (docs/studies.md).
struct StepTakes {
    std::vector<double> wall, cpu;
};

double processCpuSeconds()
{
    timespec now{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

StepTakes timeTrainingStep(TorchScriptWorkload& workload, const Config& config)
{
    constexpr size_t kTakes = 3;
    constexpr double kMostSeconds = 2.0;  // past it no further take: a 1 s step is timed twice
    const int64_t count = std::min(config.batchSize, workload.datasetSize());
    const Batch batch = workload.fetch(at::arange(count, at::TensorOptions().dtype(at::kLong)));
    const int threads = at::get_num_threads();
    at::set_num_threads(1);
    StepTakes takes;
    double spent = 0.0;
    while (takes.wall.size() < kTakes && (takes.wall.empty() || spent + takes.wall.back() <= kMostSeconds)) {
        const auto start = std::chrono::steady_clock::now();
        const double cpuStart = processCpuSeconds();
        workload.forward(batch).loss.backward();
        takes.cpu.push_back(processCpuSeconds() - cpuStart);
        takes.wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        spent += takes.wall.back();
        for (at::Tensor& parameter : workload.parameters())
            parameter.mutable_grad() = at::Tensor();
    }
    at::set_num_threads(threads);
    return takes;
}

// The middle take; of two, their mean.
double medianOf(std::vector<double> takes)
{
    std::sort(takes.begin(), takes.end());
    const size_t middle = takes.size() / 2;
    return takes.size() % 2 == 1 ? takes[middle] : (takes[middle - 1] + takes[middle]) / 2.0;
}

}  // namespace

std::string modelCheckTimeoutMessage(const std::string& modelFile, int64_t seconds)
{
    return std::string(key::kModelFile) + " " + modelFile + " was still being checked after " + std::to_string(seconds) +
           " s (loading it, one forward on the first batch of " + key::kTrainData +
           ", one training step): a forward that never returns? A model that is only slow on this machine needs a larger " +
           key::kModelCheckTimeout + " (0 = collective_timeout)";
}

protocol::InspectionReport inspectOwnModel(const Config& given)
{
    Config config = given;
    TorchScriptWorkload workload(config, c10::Device(c10::kCPU), 0);
    config.trainSamples = workload.datasetSize();
    requireValid(config);

    protocol::InspectionReport report;
    TorchScriptModel& model = workload.model();
    report.modelFile = model.path();
    report.forwardSignature = model.signature();
    report.torchVersion = TORCH_VERSION;
    for (const NamedTensor& parameter : model.parameters())
        report.parameters.push_back({parameter.name, factsOf(parameter.tensor), parameter.tensor.requires_grad()});
    for (const NamedTensor& buffer : model.buffers())
        report.buffers.push_back({buffer.name, factsOf(buffer.tensor), false});
    protocol::countLayers(model.moduleKinds(), report);
    report.train = factsOf(workload.trainData());
    if (workload.valData())
        report.val = factsOf(*workload.valData());

    const FirstBatch& first = workload.firstBatch();
    report.batchInputs = factsOf(first.inputs);
    report.batchTargets = factsOf(first.targets);
    report.output = factsOf(first.output);
    {
        torch::NoGradGuard noGrad;
        report.firstLoss = applyLoss(config.loss, first.output, first.targets, first.inputs.size(0)).loss.item<double>();
    }
    if (!std::isfinite(report.firstLoss))
        refuseModel(workload, std::string("the loss of the first batch of ") + key::kTrainData + " is " +
                                  (std::isnan(report.firstLoss) ? "NaN" : "infinite") +
                                  " before any step (its inputs are finite numbers): training would diverge at step 1");
    report.lossFit = lossFitText(config.loss, first.output, first.targets);
    if (config.loss == LossKind::CrossEntropy)
        report.classes = classCount(first.output);

    protocol::MemoryEstimate& memory = report.memory;
    int64_t trainedBytes = 0;
    for (const protocol::NamedTensorFacts& parameter : report.parameters) {
        memory.parameters += parameter.tensor.bytes;
        trainedBytes += parameter.trainable ? parameter.tensor.bytes : 0;
    }
    for (const protocol::NamedTensorFacts& buffer : report.buffers)
        memory.buffers += buffer.tensor.bytes;
    memory.gradients = trainedBytes;
    memory.optimizerState = trainedBytes * optimizerStateCopies(config);
    memory.step = measureTrainingStep(workload, config);
    const StepTakes takes = timeTrainingStep(workload, config);
    report.stepTakes = takes.wall;
    report.stepSeconds = medianOf(takes.wall);
    report.stepCpuTakes = takes.cpu;
    report.stepCpuSeconds = medianOf(takes.cpu);
    memory.process = estimatedRankBytes(config);
    memory.data = workload.trainData().bytes + (workload.valData() ? workload.valData()->bytes : 0);
    return report;
}

}  // namespace ddplab
