#include "torch_save_archive.hpp"

#include "core/tensor_extent.hpp"
#include "zip_directory.hpp"

#include <ATen/ATen.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/import_read.h>
#include <torch/csrc/jit/serialization/storage_context.h>

namespace ddplab {
namespace {

// torch.save's archive: the pickle (data.pkl) and one record per storage under data/, named by its key.
constexpr char kPickleArchive[] = "data";
constexpr char kStoragePrefix[] = "data/";

// Every storage of the file as a record of the size it really has. LibTorch would make each
// storage as large as the pickle claims (its element count) over a record that may be
// smaller; given its storages ready-made, the unpickler only wraps them.
std::shared_ptr<torch::jit::DeserializationStorageContext> storagesOf(caffe2::serialize::PyTorchStreamReader& reader)
{
    auto storages = std::make_shared<torch::jit::DeserializationStorageContext>();
    const std::string prefix = kStoragePrefix;
    for (const std::string& name : reader.getAllRecords()) {
        if (name.compare(0, prefix.size(), prefix) != 0 || storages->hasStorage(name.substr(prefix.size())))
            continue;
        auto [bytes, size] = reader.getRecord(name);
        storages->addStorage(name.substr(prefix.size()),
                             c10::Storage(c10::Storage::use_byte_size_t(), size, std::move(bytes), nullptr, /*resizable=*/false));
    }
    return storages;
}

}  // namespace

uint64_t torchSaveUnpackedBytes(const std::string& path)
{
    return unpackedBytes(readZipDirectory(path));
}

c10::IValue unpickleTorchSave(const std::string& path)
{
    caffe2::serialize::PyTorchStreamReader reader(path);
    return torch::jit::readArchiveAndTensors(kPickleArchive, "", "", c10::nullopt, c10::nullopt, c10::nullopt, reader,
                                             torch::jit::Unpickler::defaultTypeParser, storagesOf(reader));
}

std::string tensorViewProblem(const at::Tensor& tensor)
{
    TensorLayout layout;
    layout.sizes = tensor.sizes().vec();
    layout.strides = tensor.strides().vec();
    layout.storageOffset = tensor.storage_offset();
    layout.elementBytes = int64_t(tensor.element_size());
    layout.storageBytes = tensor.has_storage() ? int64_t(tensor.storage().nbytes()) : 0;
    return tensorLayoutProblem(layout);
}

}  // namespace ddplab
