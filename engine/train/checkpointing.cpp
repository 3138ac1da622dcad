// SPDX-License-Identifier: GPL-3.0-or-later
#include "checkpointing.hpp"

#include "checkpoint_file.hpp"
#include "resume_checks.hpp"
#include "comm/communicator.hpp"
#include "core/config_error.hpp"
#include "core/config_keys.hpp"
#include "core/derived.hpp"
#include "core/home_path.hpp"
#include "core/json.hpp"
#include "core/key_names.hpp"
#include "core/workload_table.hpp"
#include "noise_scale.hpp"
#include "update_statistics.hpp"
#include "workload.hpp"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <torch/utils.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab {
namespace {

std::string checkpointKeyText(const Config& config, const char* name)
{
    return findConfigKey(name)->read(config).get<std::string>();
}

[[noreturn]] void refuseCheckpoint(const Config& config, const std::string& problem)
{
    throw ConfigError(key::kResumeFrom, std::string(key::kResumeFrom) + " " + expandHome(config.resumeFrom) + " " + problem);
}

at::Generator deviceGenerator(const at::Tensor& onDevice)
{
    return at::globalContext().defaultGenerator(onDevice.device());
}

at::Tensor generatorState(at::Generator generator)
{
    std::lock_guard<std::mutex> lock(generator.mutex());
    return generator.get_state();
}

void setGeneratorState(at::Generator generator, const at::Tensor& state)
{
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_state(state);
}

// Every rank's `mine` (of one size on every rank), in rank order: rank by rank, a broadcast
// from it. Only checkpoints pay for it.
std::vector<at::Tensor> fromEveryRank(const at::Tensor& mine, Communicator& comm, const c10::Device& device)
{
    std::vector<at::Tensor> all;
    for (int root = 0; root < comm.worldSize(); ++root) {
        at::Tensor sent = (root == comm.rank() ? mine : at::empty_like(mine)).to(device).contiguous();
        if (comm.worldSize() > 1)
            comm.broadcast(sent, root);
        all.push_back(sent.to(at::kCPU));
    }
    return all;
}

// Shapes and dtypes were checked (requireResumable).
void copySavedInto(const std::vector<at::Tensor>& targets, const std::vector<at::Tensor>& saved)
{
    torch::NoGradGuard noGrad;
    for (size_t i = 0; i < targets.size(); ++i) {
        at::Tensor target = targets[i];
        target.detach().copy_(saved[i]);
    }
}

}  // namespace

void prepareCheckpointFolder(const Config& config)
{
    if (config.checkpointAt.empty())
        return;
    const std::string folder = expandHome(config.checkpointDir);
    auto refuseFolder = [&](const std::string& problem) {
        throw ConfigError(key::kCheckpointDir, std::string(key::kCheckpointDir) + " " + folder + " " + problem);
    };
    // mkdir -p: each parent in turn.
    for (size_t slash = folder.find('/', 1); ; slash = folder.find('/', slash + 1)) {
        const std::string part = folder.substr(0, slash);
        if (!part.empty() && ::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST)
            refuseFolder("could not be made (" + part + ": " + std::strerror(errno) + ")");
        if (slash == std::string::npos)
            break;
    }
    struct stat info {};
    if (::stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        refuseFolder("is not a folder");
    if (::access(folder.c_str(), W_OK | X_OK) != 0)
        refuseFolder(std::string("cannot be written (") + std::strerror(errno) + ")");
}

protocol::CheckpointReport saveCheckpoint(const TrainingState& s, const TrainingPosition& position)
{
    const at::Tensor& anyParameter = s.parameters.front();
    Checkpoint checkpoint;
    checkpoint.cpuRng = fromEveryRank(generatorState(at::detail::getDefaultCPUGenerator()), s.comm, anyParameter.device());
    if (anyParameter.is_cuda())
        checkpoint.deviceRng = fromEveryRank(generatorState(deviceGenerator(anyParameter)), s.comm, anyParameter.device());
    protocol::CheckpointReport report{position.step, position.epoch, "", 0};
    if (s.comm.rank() != 0)
        return report;

    checkpoint.step = position.step;
    checkpoint.epoch = position.epoch;
    checkpoint.position = position.position;
    checkpoint.samplesSeen = position.samplesSeen;
    checkpoint.batchGrowth = {double(position.batch.multiplier), double(position.batch.baseSteps), position.batch.tau,
                              double(position.batch.patience)};
    checkpoint.datasetSize = s.workload.datasetSize();
    checkpoint.workload = checkpointWorkloadLabel(s.config);
    checkpoint.optimizer = checkpointKeyText(s.config, key::kOptimizer);
    checkpoint.config = configToJson(s.config).dump();
    checkpoint.parameterNames = s.workload.parameterNames();
    checkpoint.parameters = s.parameters;
    checkpoint.buffers = s.workload.buffers();
    checkpoint.optimizerState = optimizerState(s.optimizer, s.parameters);
    const NoiseScaleEstimator::State noise = s.noiseScale.state();
    checkpoint.noiseUpdates = noise.updates;
    checkpoint.noiseTrace = noise.trace;
    checkpoint.noiseSquaredNorm = noise.squaredNorm;
    const UpdateStatistics::Moments moments = s.updateStatistics.moments();
    checkpoint.updateCount = moments.count;
    checkpoint.updateMean = moments.mean;
    checkpoint.updateM2 = moments.m2;

    report.path = expandHome(s.config.checkpointDir) + "/" + checkpointFileName(position.step);
    report.bytes = writeCheckpoint(report.path, checkpoint);
    return report;
}

TrainingPosition resumeTraining(const TrainingState& s)
{
    const Config& c = s.config;
    const Checkpoint saved = readCheckpoint(expandHome(c.resumeFrom));
    requireResumable(saved, s);
    // toy and linreg generate their data from a seed: another data seed would put the weights on
    // another data set, where a branch means another order of the same data (docs/checkpoints.md).
    if (traitsOf(c).vectorised) {
        const Json written = Json::parse(saved.config, nullptr, false);
        if (written.is_object()) {
            const Json& seed = written.contains(key::kDataSeed) && !written[key::kDataSeed].is_null() ? written[key::kDataSeed]
                                                                                                     : written.value(key::kSeed, Json(0));
            if (seed.is_number_integer() && seed.get<int64_t>() != dataSeed(c))
                refuseCheckpoint(c, "was written by a run whose data came from seed " + std::to_string(seed.get<int64_t>()) + "; this run's data seed is " +
                              std::to_string(dataSeed(c)) + ": another data set under the same weights. Set " + key::kDataSeed + " " +
                              std::to_string(seed.get<int64_t>()) + " for another order of the same data");
        }
    }
    // Everything was checked; what LibTorch still refuses is said without its backtrace.
    try {
        copySavedInto(s.parameters, saved.parameters);
        copySavedInto(s.workload.buffers(), saved.buffers);
        restoreOptimizerState(s.optimizer, s.parameters, saved.optimizerState);
        // Each rank its own stream (dropout masks); a rank the writing run did not have keeps
        // the stream it was seeded with.
        const size_t rank = size_t(s.comm.rank());
        const at::Tensor& anyParameter = s.parameters.front();
        if (rank < saved.cpuRng.size())
            setGeneratorState(at::detail::getDefaultCPUGenerator(), saved.cpuRng[rank]);
        if (anyParameter.is_cuda() && rank < saved.deviceRng.size())
            setGeneratorState(deviceGenerator(anyParameter), saved.deviceRng[rank]);
        s.noiseScale.restore({saved.noiseUpdates, saved.noiseTrace, saved.noiseSquaredNorm});
        if (saved.updateMean.defined() && s.workload.tracksUpdateVariance())
            s.updateStatistics.restore({saved.updateCount, saved.updateMean.to(anyParameter.device()), saved.updateM2.to(anyParameter.device())});
    } catch (const std::invalid_argument& error) {
        refuseCheckpoint(c, std::string("does not fit this run's optimizer: ") + error.what());
    } catch (const c10::Error& error) {
        const std::string message = error.what_without_backtrace();
        refuseCheckpoint(c, "holds a state LibTorch refuses (" + message.substr(0, message.find('\n')) + "): the file is damaged or crafted");
    }
    // Checkpoints from before batch_schedule: the starting batch, its clock the steps taken.
    BatchGrowth::State batch{1, saved.step, double(saved.step), 0};
    if (saved.batchGrowth.size() == 4)
        batch = {int64_t(saved.batchGrowth[0]), int64_t(saved.batchGrowth[1]), saved.batchGrowth[2], int64_t(saved.batchGrowth[3])};
    return {saved.step, saved.epoch, saved.position, saved.samplesSeen, batch};
}

}  // namespace ddplab
