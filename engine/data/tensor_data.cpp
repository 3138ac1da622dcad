// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensor_data.hpp"

#include "core/config_error.hpp"
#include "core/config_validate.hpp"
#include "core/data_error.hpp"
#include "core/home_path.hpp"
#include "core/wording.hpp"
#include "npy_file.hpp"
#include "tensor_text.hpp"
#include "torch_save_archive.hpp"

#include <ATen/ATen.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sys/stat.h>

namespace ddplab {
namespace {

// The two names of a data set (docs/own-model.md): the torch.save dict's keys and, with
// ".npy", the files of a data folder.
constexpr char kInputs[] = "inputs";
constexpr char kTargets[] = "targets";
constexpr char kNpySuffix[] = ".npy";
constexpr char kHowToSave[] = "save the data with torch.save({\"inputs\": X, \"targets\": Y}, path), or give a folder holding "
                              "inputs.npy and targets.npy";

[[noreturn]] void fail(const std::string& key, const std::string& path, const std::string& problem)
{
    throw DataError(key + " " + path + " " + problem, key);
}

// Reading needs `bytes` of memory at its peak; refuse before trying when the machine has less.
void requireMemory(double bytes, const std::string& key, const std::string& path)
{
    const MachineResources machine = thisMachine();
    if (machine.memoryAvailableBytes > 0 && bytes > double(machine.memoryAvailableBytes))
        throw ConfigError(key, key + " " + path + " needs about " + gibText(bytes) + " of memory to read, but this machine has " +
                                   gibText(double(machine.memoryAvailableBytes)) + " available; use a smaller data set");
}

// A FIFO, a socket or a device would be waited on, or read forever: only regular files are data.
void requireRegularFile(const struct stat& info, const std::string& key, const std::string& path)
{
    if (!S_ISREG(info.st_mode))
        fail(key, path, std::string("is not a regular file (") + (S_ISFIFO(info.st_mode) ? "a FIFO" : S_ISSOCK(info.st_mode) ? "a socket" : "a device") +
                            "); give a file written by torch.save or a folder of .npy files");
}

at::Tensor readNpy(const std::string& folder, const char* name, const std::string& key)
{
    const std::string path = folder + "/" + name + kNpySuffix;
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw DataError(key + " folder " + folder + " holds no " + name + kNpySuffix +
                            "; a data folder holds inputs.npy and targets.npy (numpy.save)", key);
    requireRegularFile(info, key, path);
    const NpyHeader header = readNpyHeader(path, key);
    requireMemory(double(header.dataBytes), key, path);
    return readNpyData(path, header, key);
}

std::string heldKeys(const c10::impl::GenericDict& dict)
{
    std::string names;
    for (const auto& entry : dict)
        names += (names.empty() ? "" : ", ") + (entry.key().isString() ? "\"" + entry.key().toStringRef() + "\"" : entry.key().tagKind());
    return names.empty() ? "nothing" : names;
}

at::Tensor tensorIn(const c10::impl::GenericDict& dict, const char* name, const std::string& key, const std::string& path)
{
    for (const auto& entry : dict) {
        if (!entry.key().isString() || entry.key().toStringRef() != name)
            continue;
        if (!entry.value().isTensor())
            fail(key, path, std::string("holds \"") + name + "\" as a " + entry.value().tagKind() +
                                ", not a tensor (torch.save({\"inputs\": torch.tensor(...), ...}))");
        return entry.value().toTensor();
    }
    fail(key, path, std::string("holds no \"") + name + "\" (it holds " + heldKeys(dict) +
                        "); save a dict: torch.save({\"inputs\": X, \"targets\": Y}, path)");
}

// LibTorch's unpickler words for what it cannot read, and what they mean for a data file.
std::string unpicklerProblem(const std::string& message)
{
    return "is not a file written by torch.save (" + message.substr(0, message.find('\n')) + "); " + kHowToSave;
}

TensorData readTorchSave(const std::string& path, const std::string& key)
{
    // A zip archive: what it unpacks to must fit in memory before anything is unpacked.
    uint64_t unpacked = 0;
    try {
        unpacked = torchSaveUnpackedBytes(path);
    } catch (const std::exception& error) {
        fail(key, path, std::string("is not a file written by torch.save (") + error.what() + "); " + kHowToSave);
    }
    requireMemory(double(unpacked), key, path);
    c10::IValue value;
    try {
        value = unpickleTorchSave(path);
    } catch (const UnreadableRecord& error) {
        fail(key, path, std::string(error.what()) + "; " + kHowToSave);
    } catch (const c10::Error& error) {
        fail(key, path, unpicklerProblem(error.what_without_backtrace()));
    } catch (const std::exception& error) {
        fail(key, path, unpicklerProblem(error.what()));
    }
    if (!value.isGenericDict())
        fail(key, path, "holds a " + value.tagKind() + ", not a dict; save it as torch.save({\"inputs\": X, \"targets\": Y}, path)");
    const c10::impl::GenericDict dict = value.toGenericDict();
    TensorData data;
    data.format = DataFormat::TorchSave;
    data.inputs = tensorIn(dict, kInputs, key, path);
    data.targets = tensorIn(dict, kTargets, key, path);
    return data;
}

// A view the file describes must lie inside the bytes its storage holds (tensor_extent.hpp):
// checked before any element is read.
void requireInsideStorage(const at::Tensor& tensor, const char* name, const std::string& key, const std::string& path)
{
    const std::string problem = tensorViewProblem(tensor);
    if (!problem.empty())
        fail(key, path, std::string("holds \"") + name + "\" as a tensor that " + problem +
                            ": the file is damaged or was not written by torch.save; " + kHowToSave);
}

// The index of element `flat` of `shape`, as "[12, 0, 3]".
std::string indexText(int64_t flat, c10::IntArrayRef shape)
{
    std::vector<int64_t> index(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    return shapeText(index);
}

// The first element of a floating tensor that is NaN or infinite: a plain loop over its
// memory, in storage order (the tensor may be strided), since no tensor operation may run
// before the fork. Returns -1 when all are finite.
template <class T>
int64_t firstNonFinite(const at::Tensor& tensor, std::string* what)
{
    const T* base = tensor.data_ptr<T>();
    const c10::IntArrayRef sizes = tensor.sizes();
    const c10::IntArrayRef strides = tensor.strides();
    const int64_t count = tensor.numel();
    std::vector<int64_t> index(sizes.size(), 0);
    int64_t offset = 0;
    for (int64_t flat = 0; flat < count; ++flat) {
        const float value = static_cast<float>(base[offset]);
        if (!std::isfinite(value)) {
            *what = std::isnan(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf";
            return flat;
        }
        for (size_t d = sizes.size(); d-- > 0;) {
            offset += strides[d];
            if (++index[d] < sizes[d])
                break;
            offset -= strides[d] * sizes[d];
            index[d] = 0;
        }
    }
    return -1;
}

void requireFinite(const at::Tensor& tensor, const char* name, const std::string& key, const std::string& path)
{
    std::string what;
    int64_t flat = -1;
    switch (tensor.scalar_type()) {
    case c10::ScalarType::Float: flat = firstNonFinite<float>(tensor, &what); break;
    case c10::ScalarType::Double: flat = firstNonFinite<double>(tensor, &what); break;
    case c10::ScalarType::Half: flat = firstNonFinite<c10::Half>(tensor, &what); break;
    case c10::ScalarType::BFloat16: flat = firstNonFinite<c10::BFloat16>(tensor, &what); break;
    default: return;  // integers are always finite
    }
    if (flat >= 0) {
        const int64_t perSample = tensor.dim() > 0 && tensor.size(0) > 0 ? tensor.numel() / tensor.size(0) : 1;
        fail(key, path, "holds " + what + " in its " + name + " at sample " + std::to_string(flat / perSample) + " (element " +
                            indexText(flat, tensor.sizes()) + "); the data must be finite numbers");
    }
}

void check(const TensorData& data, const std::string& key)
{
    const std::string& path = data.path;
    for (const auto& [tensor, name] : {std::pair{&data.inputs, kInputs}, std::pair{&data.targets, kTargets}}) {
        requireInsideStorage(*tensor, name, key, path);
        if (tensor->dim() == 0)
            fail(key, path, std::string("holds its ") + name + " as a single number; samples run along a first dimension");
        if (tensor->is_complex())
            fail(key, path, std::string("holds complex ") + name + ", which the lab does not train on");
        if (!tensor->device().is_cpu())
            fail(key, path, std::string("holds its ") + name + " on " + tensor->device().str() +
                                "; save them from the CPU (tensor.cpu()) so any machine can read them");
    }
    if (data.inputs.size(0) != data.targets.size(0))
        fail(key, path, "holds " + std::to_string(data.inputs.size(0)) + " samples of inputs but " +
                            std::to_string(data.targets.size(0)) + " of targets; samples run along the first dimension of both");
    if (data.inputs.size(0) == 0)
        fail(key, path, "holds no samples");
    requireFinite(data.inputs, kInputs, key, path);
    requireFinite(data.targets, kTargets, key, path);
}

TensorData read(const std::string& path, const std::string& key)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        fail(key, path, errno == ENOENT ? std::string("does not exist") : std::string("cannot be read: ") + std::strerror(errno));
    TensorData data;
    if (S_ISDIR(info.st_mode)) {
        data.format = DataFormat::NpyFolder;
        data.inputs = readNpy(path, kInputs, key);
        data.targets = readNpy(path, kTargets, key);
    } else {
        requireRegularFile(info, key, path);
        data = readTorchSave(path, key);
    }
    data.path = path;
    check(data, key);
    data.bytes = int64_t(data.inputs.nbytes() + data.targets.nbytes());
    return data;
}

}  // namespace

const TensorData& loadTensorData(const std::string& path, const std::string& key)
{
    // Per process, for its life: the launcher's copy is what its forked ranks share.
    static std::map<std::string, TensorData> loaded;
    const std::string expanded = expandHome(path);
    const auto found = loaded.find(expanded);
    if (found != loaded.end())
        return found->second;
    return loaded.emplace(expanded, read(expanded, key)).first->second;
}

}  // namespace ddplab
