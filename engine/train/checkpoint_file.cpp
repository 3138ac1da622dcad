// SPDX-License-Identifier: GPL-3.0-or-later
#include "checkpoint_file.hpp"

#include "core/config_error.hpp"
#include "core/key_names.hpp"
#include "core/protocol_names.hpp"
#include "data/torch_save_archive.hpp"
#include "output/file_beside.hpp"

#include <ATen/ATen.h>
#include <torch/serialize.h>

#include <cstdio>
#include <cmath>
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

// The entry `key` of the checkpoint's dict, which must be there.
c10::IValue entry(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    for (const auto& item : dict) {
        if (item.key().isString() && item.key().toStringRef() == key)
            return item.value();
    }
    refuse(path, std::string("holds no \"") + key + "\": it is no checkpoint DDP Lab wrote, or a damaged one");
}

int64_t integer(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isInt())
        refuse(path, std::string("holds \"") + key + "\" as a " + value.tagKind() + ", not an integer");
    return value.toInt();
}

double real(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isDouble() && !value.isInt())
        refuse(path, std::string("holds \"") + key + "\" as a " + value.tagKind() + ", not a number");
    return value.isDouble() ? value.toDouble() : double(value.toInt());
}

std::string text(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isString())
        refuse(path, std::string("holds \"") + key + "\" as a " + value.tagKind() + ", not a string");
    return value.toStringRef();
}

at::Tensor checkedTensor(const c10::IValue& value, const std::string& what, const std::string& path)
{
    if (!value.isTensor())
        refuse(path, "holds " + what + " as a " + value.tagKind() + ", not a tensor");
    const at::Tensor tensor = value.toTensor();
    const std::string problem = tensorViewProblem(tensor);
    if (!problem.empty())
        refuse(path, "holds " + what + " as a tensor that " + problem + ": the file is damaged");
    return tensor;
}

std::vector<at::Tensor> tensors(const c10::impl::GenericDict& dict, const char* key, const std::string& path)
{
    const c10::IValue value = entry(dict, key, path);
    if (!value.isList() && !value.isTensorList())
        refuse(path, std::string("holds \"") + key + "\" as a " + value.tagKind() + ", not a list of tensors");
    std::vector<at::Tensor> result;
    const c10::List<c10::IValue> list = value.toList();
    for (size_t i = 0; i < list.size(); ++i)
        result.push_back(checkedTensor(list.get(i), "\"" + std::string(key) + "\" #" + std::to_string(i), path));
    return result;
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
    if (::stat(path.c_str(), &info) != 0)
        refuse(path, "does not exist; give a checkpoint written by a run with checkpoint_at (step-000010.pt)");
    if (!S_ISREG(info.st_mode))
        refuse(path, "is not a regular file; give a checkpoint written by a run with checkpoint_at (step-000010.pt)");
    c10::IValue value;
    try {
        // A checkpoint is about as large as what it unpacks to; a zip bomb is not.
        if (double(torchSaveUnpackedBytes(path)) > 64.0 * double(info.st_size) + 1e9)
            refuse(path, "unpacks to far more than its size: it is no checkpoint");
        value = unpickleTorchSave(path);
    } catch (const ConfigError&) {
        throw;
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
    if (const int64_t version = integer(dict, name::kVersion, path); version != kVersion)
        refuse(path, "is a checkpoint of version " + std::to_string(version) + "; this engine reads version " + std::to_string(kVersion));

    Checkpoint c;
    c.step = integer(dict, name::kStep, path);
    c.epoch = integer(dict, name::kEpoch, path);
    c.position = integer(dict, name::kPosition, path);
    if (c.step < 0 || c.epoch < 0 || c.position < 0)
        refuse(path, "holds a negative step, epoch or position: the file is damaged");
    c.samplesSeen = real(dict, name::kSamplesSeen, path);
    c.datasetSize = integer(dict, name::kDatasetSize, path);
    c.workload = text(dict, name::kWorkload, path);
    c.optimizer = text(dict, name::kOptimizer, path);
    c.config = text(dict, name::kConfig, path);
    const c10::IValue names = entry(dict, name::kParameterNames, path);
    if (!names.isList())
        refuse(path, "holds \"parameter_names\" as a " + names.tagKind() + ", not a list");
    for (const c10::IValue& parameter : names.toListRef()) {
        if (!parameter.isString())
            refuse(path, "holds a parameter name that is no string");
        c.parameterNames.push_back(parameter.toStringRef());
    }
    c.parameters = tensors(dict, name::kParameters, path);
    c.buffers = tensors(dict, name::kBuffers, path);
    const c10::IValue optimizer = entry(dict, name::kOptimizerState, path);
    if (!optimizer.isList())
        refuse(path, "holds \"optimizer_state\" as a " + optimizer.tagKind() + ", not a list");
    for (const c10::IValue& state : optimizer.toListRef()) {
        if (!state.isGenericDict())
            refuse(path, "holds an optimizer state that is no dict");
        ParameterState entries;
        for (const auto& item : state.toGenericDict()) {
            if (!item.key().isString())
                refuse(path, "holds an optimizer state whose key is no string");
            entries[item.key().toStringRef()] = checkedTensor(item.value(), "the optimizer state \"" + item.key().toStringRef() + "\"", path);
        }
        c.optimizerState.push_back(std::move(entries));
    }
    c.cpuRng = tensors(dict, name::kCpuRng, path);
    c.deviceRng = tensors(dict, name::kDeviceRng, path);
    const c10::IValue noise = entry(dict, name::kNoiseScale, path);
    if (!noise.isDoubleList() || noise.toDoubleList().size() != 3)
        refuse(path, "holds \"noise_scale\" not as three numbers");
    c.noiseUpdates = int64_t(noise.toDoubleList().get(0));
    c.noiseTrace = noise.toDoubleList().get(1);
    c.noiseSquaredNorm = noise.toDoubleList().get(2);
    c.updateCount = integer(dict, name::kUpdateCount, path);
    for (const auto& item : dict) {
        if (item.key().isString() && item.key().toStringRef() == name::kBatchGrowth) {
            if (!item.value().isDoubleList() || item.value().toDoubleList().size() != 4)
                refuse(path, "holds \"batch_growth\" not as four numbers");
            for (double number : item.value().toDoubleList()) {
                if (!std::isfinite(number) || number < 0 || number > 1e15)
                    refuse(path, "holds \"batch_growth\" with a number out of range: the file is damaged");
                c.batchGrowth.push_back(number);
            }
            if (c.batchGrowth[0] < 1)
                refuse(path, "holds a batch multiplier below 1: the file is damaged");
        }
        if (item.key().isString() && item.key().toStringRef() == name::kUpdateMean)
            c.updateMean = checkedTensor(item.value(), "\"update_mean\"", path);
        if (item.key().isString() && item.key().toStringRef() == name::kUpdateM2)
            c.updateM2 = checkedTensor(item.value(), "\"update_m2\"", path);
    }
    return c;
}

}  // namespace ddplab
