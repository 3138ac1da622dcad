// SPDX-License-Identifier: GPL-3.0-or-later
#include "checkpoint_file.hpp"

#include "core/config_error.hpp"
#include "core/key_names.hpp"
#include "core/limits.hpp"
#include "core/protocol_names.hpp"
#include "data/torch_save_archive.hpp"
#include "output/file_beside.hpp"

#include <ATen/ATen.h>
#include <torch/serialize.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <sys/stat.h>

namespace ddplab {
namespace {

constexpr int64_t kVersion = 1;
namespace name = protocol::checkpoint;

c10::List<at::Tensor> tensorList(const std::vector<at::Tensor>& tensors)
{
    c10::List<at::Tensor> list;
    for (const at::Tensor& tensor : tensors)
        list.push_back(tensor.detach().to(at::kCPU).contiguous());
    return list;
}

[[noreturn]] void refuse(const std::string& path, const std::string& problem)
{
    throw ConfigError(key::kResumeFrom, std::string(key::kResumeFrom) + " " + path + " " + problem);
}

// What a crafted or damaged field is told by.
constexpr char kDamaged[] = ": the file is damaged or crafted";

[[noreturn]] void refuseField(const std::string& path, const std::string& field, const std::string& problem)
{
    refuse(path, "holds \"" + field + "\" " + problem + kDamaged);
}

// The entry `key` of the checkpoint's dict, which must be there.
c10::IValue entry(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    for (const auto& item : dict) {
        if (item.key().isString() && item.key().toStringRef() == key)
            return item.value();
    }
    refuse(path, std::string("holds no \"") + key + "\": it is no checkpoint DDP Lab wrote, or a damaged one");
}

std::optional<c10::IValue> optionalEntry(const c10::impl::GenericDict& dict, const char* key)
{
    for (const auto& item : dict) {
        if (item.key().isString() && item.key().toStringRef() == key)
            return item.value();
    }
    return std::nullopt;
}

// An integer from `min` to `max`.
int64_t integer(const c10::impl::GenericDict& dict, const char* key, const std::string& path, int64_t min, int64_t max)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isInt())
        refuseField(path, key, "as a " + value.tagKind() + ", not an integer");
    if (value.toInt() < min || value.toInt() > max)
        refuseField(path, key, std::to_string(value.toInt()) + ", outside " + std::to_string(min) + " to " + std::to_string(max));
    return value.toInt();
}

// A finite number (Python writes whole ones as integers).
double finite(const c10::IValue& value, const std::string& field, const std::string& path)
{
    if (!value.isDouble() && !value.isInt())
        refuseField(path, field, "as a " + value.tagKind() + ", not a number");
    const double number = value.isDouble() ? value.toDouble() : double(value.toInt());
    if (!std::isfinite(number))
        refuseField(path, field, "as " + std::to_string(number) + ", not a finite number");
    return number;
}

// A list of `count` finite numbers: a DoubleList as LibTorch writes it, a list of floats (or
// ints) as Python writes it back.
std::vector<double> numbers(const c10::IValue& value, const char* key, size_t count, const std::string& path)
{
    std::vector<double> result;
    if (value.isDoubleList()) {
        for (double number : value.toDoubleList())
            result.push_back(number);
    } else if (value.isList()) {
        for (const c10::IValue& item : value.toListRef())
            result.push_back(finite(item, key, path));
    } else {
        refuseField(path, key, "as a " + value.tagKind() + ", not a list of numbers");
    }
    if (result.size() != count)
        refuseField(path, key, "with " + std::to_string(result.size()) + " numbers, not " + std::to_string(count));
    for (double number : result) {
        if (!std::isfinite(number))
            refuseField(path, key, "with a number that is not finite (" + std::to_string(number) + ")");
    }
    return result;
}

// A whole number from 0 to `max` carried as a double.
int64_t count(double number, const std::string& field, double max, const std::string& path)
{
    if (number < 0 || number > max || std::floor(number) != number)
        refuseField(path, field, "with " + std::to_string(number) + " where a whole number from 0 to " +
                                     std::to_string(int64_t(max)) + " belongs");
    return int64_t(number);
}

std::string text(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isString())
        refuseField(path, key, "as a " + value.tagKind() + ", not a string");
    return value.toStringRef();
}

at::Tensor checkedTensor(const c10::IValue& value, const std::string& what, const std::string& path)
{
    if (!value.isTensor())
        refuse(path, "holds " + what + " as a " + value.tagKind() + ", not a tensor" + kDamaged);
    const at::Tensor tensor = value.toTensor();
    const std::string problem = tensorViewProblem(tensor);
    if (!problem.empty())
        refuse(path, "holds " + what + " as a tensor that " + problem + kDamaged);
    if (tensor.is_sparse() || tensor.is_quantized() || tensor.device() != at::kCPU)
        refuse(path, "holds " + what + " as a sparse, quantized or non-CPU tensor, which DDP Lab never writes" + kDamaged);
    return tensor;
}

std::vector<at::Tensor> tensors(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isList() && !value.isTensorList())
        refuseField(path, key, "as a " + value.tagKind() + ", not a list of tensors");
    std::vector<at::Tensor> result;
    const c10::List<c10::IValue> list = value.toList();
    for (size_t i = 0; i < list.size(); ++i)
        result.push_back(checkedTensor(list.get(i), "\"" + std::string(key) + "\" #" + std::to_string(i), path));
    return result;
}

// Where the file cannot be read at all: missing, a loop of links, a folder, a FIFO.
void requireRegularFile(const std::string& path, struct stat& info)
{
    constexpr char kGive[] = "; give a checkpoint written by a run with checkpoint_at (step-000010.pt)";
    if (::stat(path.c_str(), &info) != 0) {
        if (errno == ENOENT)
            refuse(path, std::string("does not exist") + kGive);
        if (errno == ELOOP)
            refuse(path, std::string("is a symbolic link that leads back to itself (a loop of links)") + kGive);
        refuse(path, std::string("cannot be read (") + std::strerror(errno) + ")" + kGive);
    }
    if (!S_ISREG(info.st_mode))
        refuse(path, std::string("is not a regular file") + kGive);
}

}  // namespace

std::string checkpointFileName(int64_t step)
{
    char name[32];
    std::snprintf(name, sizeof name, "step-%06lld.pt", static_cast<long long>(step));
    return name;
}

int64_t writeCheckpoint(const std::string& path, const Checkpoint& c)
{
    c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
    dict.insert(name::kFormat, name::kFormatName);
    dict.insert(name::kVersion, kVersion);
    dict.insert(name::kStep, c.step);
    dict.insert(name::kEpoch, c.epoch);
    dict.insert(name::kPosition, c.position);
    dict.insert(name::kSamplesSeen, c.samplesSeen);
    dict.insert(name::kBatchGrowth, c10::List<double>(c.batchGrowth));
    dict.insert(name::kDatasetSize, c.datasetSize);
    dict.insert(name::kWorkload, c.workload);
    dict.insert(name::kOptimizer, c.optimizer);
    dict.insert(name::kConfig, c.config);
    c10::List<std::string> names;
    for (const std::string& parameter : c.parameterNames)
        names.push_back(parameter);
    dict.insert(name::kParameterNames, names);
    dict.insert(name::kParameters, tensorList(c.parameters));
    dict.insert(name::kBuffers, tensorList(c.buffers));
    c10::impl::GenericList optimizer(c10::DictType::create(c10::StringType::get(), c10::TensorType::get()));
    for (const ParameterState& state : c.optimizerState) {
        c10::Dict<std::string, at::Tensor> entries;
        for (const auto& [key, tensor] : state)
            entries.insert(key, tensor.detach().to(at::kCPU).contiguous());
        optimizer.push_back(entries);
    }
    dict.insert(name::kOptimizerState, optimizer);
    dict.insert(name::kCpuRng, tensorList(c.cpuRng));
    dict.insert(name::kDeviceRng, tensorList(c.deviceRng));
    dict.insert(name::kNoiseScale, c10::List<double>({double(c.noiseUpdates), c.noiseTrace, c.noiseSquaredNorm}));
    dict.insert(name::kUpdateCount, c.updateCount);
    if (c.updateMean.defined()) {
        dict.insert(name::kUpdateMean, c.updateMean.detach().to(at::kCPU).contiguous());
        dict.insert(name::kUpdateM2, c.updateM2.detach().to(at::kCPU).contiguous());
    }
    const std::vector<char> bytes = torch::pickle_save(dict);
    writeFileBeside(path, std::string(bytes.begin(), bytes.end()), key::kCheckpointDir);
    return int64_t(bytes.size());
}

Checkpoint readCheckpoint(const std::string& path)
{
    struct stat info {};
    requireRegularFile(path, info);
    c10::IValue value;
    try {
        // A checkpoint is about as large as what it unpacks to; a zip bomb is not.
        if (double(torchSaveUnpackedBytes(path)) > 64.0 * double(info.st_size) + 1e9)
            refuse(path, "unpacks to far more than its size: it is no checkpoint");
        value = unpickleTorchSave(path);
    } catch (const ConfigError&) {
        throw;
    } catch (const UnreadableRecord& error) {
        refuse(path, error.what());
    } catch (const c10::Error& error) {
        const std::string message = error.what_without_backtrace();
        refuse(path, "is not a checkpoint DDP Lab can read (" + message.substr(0, message.find('\n')) + ")");
    } catch (const std::exception& error) {
        refuse(path, std::string("is not a checkpoint DDP Lab can read (") + error.what() + ")");
    }
    if (!value.isGenericDict())
        refuse(path, "holds a " + value.tagKind() + ", not a checkpoint's dict");
    const c10::impl::GenericDict dict = value.toGenericDict();
    if (text(dict, name::kFormat, path) != name::kFormatName)
        refuse(path, "is not a DDP Lab checkpoint (its \"format\" is not \"" + std::string(name::kFormatName) + "\")");
    if (const c10::IValue version = entry(dict, name::kVersion, path); !version.isInt() || version.toInt() != kVersion)
        refuse(path, "is a checkpoint of version " + (version.isInt() ? std::to_string(version.toInt()) : version.tagKind()) +
                         "; this engine reads version " + std::to_string(kVersion));

    // Each field inside what a run can write; how they fit the run that wrote them and the one
    // resuming is checkpointing.cpp's.
    Checkpoint c;
    c.step = integer(dict, name::kStep, path, 0, limits::kMaxSteps);
    // Every epoch before the checkpoint's took a step at least.
    c.epoch = integer(dict, name::kEpoch, path, 0, c.step);
    c.position = integer(dict, name::kPosition, path, 0, std::numeric_limits<int64_t>::max());
    c.samplesSeen = finite(entry(dict, name::kSamplesSeen, path), name::kSamplesSeen, path);
    if (c.samplesSeen < 0)
        refuseField(path, name::kSamplesSeen, "below 0");
    c.datasetSize = integer(dict, name::kDatasetSize, path, 1, std::numeric_limits<int64_t>::max());
    c.workload = text(dict, name::kWorkload, path);
    c.optimizer = text(dict, name::kOptimizer, path);
    c.config = text(dict, name::kConfig, path);
    const c10::IValue names = entry(dict, name::kParameterNames, path);
    if (!names.isList())
        refuseField(path, name::kParameterNames, "as a " + names.tagKind() + ", not a list");
    for (const c10::IValue& parameter : names.toListRef()) {
        if (!parameter.isString())
            refuseField(path, name::kParameterNames, "with a name that is no string");
        c.parameterNames.push_back(parameter.toStringRef());
    }
    c.parameters = tensors(dict, name::kParameters, path);
    c.buffers = tensors(dict, name::kBuffers, path);
    const c10::IValue optimizer = entry(dict, name::kOptimizerState, path);
    if (!optimizer.isList())
        refuseField(path, name::kOptimizerState, "as a " + optimizer.tagKind() + ", not a list");
    for (const c10::IValue& state : optimizer.toListRef()) {
        if (!state.isGenericDict())
            refuseField(path, name::kOptimizerState, "with an entry that is no dict");
        ParameterState entries;
        for (const auto& item : state.toGenericDict()) {
            if (!item.key().isString())
                refuseField(path, name::kOptimizerState, "with a key that is no string");
            entries[item.key().toStringRef()] = checkedTensor(item.value(), "the optimizer state \"" + item.key().toStringRef() + "\"", path);
        }
        c.optimizerState.push_back(std::move(entries));
    }
    c.cpuRng = tensors(dict, name::kCpuRng, path);
    c.deviceRng = tensors(dict, name::kDeviceRng, path);
    const std::vector<double> noise = numbers(entry(dict, name::kNoiseScale, path), name::kNoiseScale, 3, path);
    c.noiseUpdates = count(noise[0], name::kNoiseScale, double(c.step), path);
    c.noiseTrace = noise[1];
    c.noiseSquaredNorm = noise[2];
    c.updateCount = integer(dict, name::kUpdateCount, path, 0, std::numeric_limits<int64_t>::max());
    if (const auto growth = optionalEntry(dict, name::kBatchGrowth)) {
        c.batchGrowth = numbers(*growth, name::kBatchGrowth, 4, path);
        count(c.batchGrowth[0], name::kBatchGrowth, double(limits::kMaxBatch) * double(limits::kMaxRanks), path);
        if (c.batchGrowth[0] < 1)
            refuseField(path, name::kBatchGrowth, "with a batch multiplier below 1");
        count(c.batchGrowth[1], name::kBatchGrowth, 9e15, path);
        if (c.batchGrowth[2] < 0)
            refuseField(path, name::kBatchGrowth, "with AdaScale's clock below 0");
        count(c.batchGrowth[3], name::kBatchGrowth, double(c.step), path);
    }
    if (const auto mean = optionalEntry(dict, name::kUpdateMean))
        c.updateMean = checkedTensor(*mean, "\"update_mean\"", path);
    if (const auto m2 = optionalEntry(dict, name::kUpdateM2))
        c.updateM2 = checkedTensor(*m2, "\"update_m2\"", path);
    if (c.updateMean.defined() != c.updateM2.defined())
        refuse(path, "holds one of \"update_mean\" and \"update_m2\" without the other" + std::string(kDamaged));
    return c;
}

}  // namespace ddplab
