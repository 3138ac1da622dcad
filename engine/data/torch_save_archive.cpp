// SPDX-License-Identifier: GPL-3.0-or-later
#include "torch_save_archive.hpp"

#include "core/code_nesting.hpp"
#include "core/pickle_check.hpp"
#include "core/tensor_extent.hpp"
#include "zip_directory.hpp"

#include <ATen/ATen.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/storage_context.h>
#include <torch/csrc/jit/serialization/unpickler.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ddplab {
namespace {

// torch.save's archive: the pickle (data.pkl) and one record per storage under data/, named by its key.
constexpr char kPickleArchive[] = "data";
constexpr char kStoragePrefix[] = "data/";

// Every storage of the file as a record of the size it really has. LibTorch would make each
// storage as large as the pickle claims (its element count) over a record that may be
// smaller; given its storages ready-made, the unpickler only wraps them.
// A record whose bytes do not hash to the CRC-32 the zip directory records was damaged after
// it was written: LibTorch's reader does not look. A CRC of 0 is "not computed" (PyTorch can
// be told to skip it) and is not held against a file.
class RecordCheck {
public:
    explicit RecordCheck(const std::string& path)
    {
        for (const ZipEntry& entry : readZipDirectory(path))
            m_crcs.emplace_back(entry.name, entry.crc32);
    }

    void require(const std::string& record, const void* bytes, size_t size) const
    {
        for (const auto& [name, crc] : m_crcs) {
            const bool same = name.size() > record.size() && name.compare(name.size() - record.size(), record.size(), record) == 0 &&
                              name[name.size() - record.size() - 1] == '/';
            if (!same || crc == 0)
                continue;
            uLong actual = ::crc32(0L, Z_NULL, 0);
            for (size_t done = 0; done < size;) {
                const uInt chunk = uInt(std::min<size_t>(size - done, 1u << 30));
                actual = ::crc32(actual, static_cast<const Bytef*>(bytes) + done, chunk);
                done += chunk;
            }
            if (uint32_t(actual) != crc)
                throw std::runtime_error("its record " + record + " is damaged: its bytes do not match the CRC-32 its zip directory records");
            return;
        }
    }

private:
    std::vector<std::pair<std::string, uint32_t>> m_crcs;
};

// Every storage of the file as a record of the size it really has. LibTorch would make each
// storage as large as the pickle claims (its element count) over a record that may be
// smaller; given its storages ready-made, the unpickler only wraps them.
std::shared_ptr<torch::jit::DeserializationStorageContext> storagesOf(caffe2::serialize::PyTorchStreamReader& reader,
                                                                      const RecordCheck& check)
{
    auto storages = std::make_shared<torch::jit::DeserializationStorageContext>();
    const std::string prefix = kStoragePrefix;
    for (const std::string& name : reader.getAllRecords()) {
        if (name.compare(0, prefix.size(), prefix) != 0 || storages->hasStorage(name.substr(prefix.size())))
            continue;
        auto [bytes, size] = reader.getRecord(name);
        check.require(name, bytes.get(), size);
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
    const RecordCheck check(path);
    caffe2::serialize::PyTorchStreamReader reader(path);
    const std::string pickleName = std::string(kPickleArchive) + ".pkl";
    const auto [bytes, size] = reader.getRecord(pickleName);
    check.require(pickleName, bytes.get(), size);
    const PickleCheck pickle = checkPickle({static_cast<const char*>(bytes.get()), size});
    if (!pickle.problem.empty())
        throw UnreadableRecord("holds a pickle (" + pickleName + ") that " + pickle.problem);

    // What torch::jit::readArchiveAndTensors does, given the pickle as LibTorch reads it.
    size_t done = 0;
    const std::string& readable = pickle.readable;
    auto read = [&](char* buffer, size_t length) -> size_t {
        length = std::min(length, readable.size() - done);
        std::memcpy(buffer, readable.data() + done, length);
        done += length;
        return length;
    };
    auto readRecord = [&](const std::string& name) { return std::get<0>(reader.getRecord(kStoragePrefix + name)); };
    torch::jit::Unpickler unpickler(read, nullptr, nullptr, readRecord, c10::nullopt, false, torch::jit::Unpickler::defaultTypeParser,
                                    storagesOf(reader, check));
    unpickler.set_version(reader.version());
    return unpickler.parse_ivalue();
}

void requireReadableModelArchive(const std::string& path)
{
    caffe2::serialize::PyTorchStreamReader reader(path);
    for (const std::string& name : reader.getAllRecords()) {
        const auto endsWith = [&](const std::string& suffix) {
            return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
        };
        const bool pickled = endsWith(".pkl") || endsWith(".debug_pkl");
        const bool code = name.compare(0, 5, "code/") == 0 && endsWith(".py");
        if (!pickled && !code)
            continue;
        const auto [bytes, size] = reader.getRecord(name);
        const std::string_view text(static_cast<const char*>(bytes.get()), size);
        if (code) {
            const std::string problem = codeNestingProblem(text);
            if (!problem.empty())
                throw UnreadableRecord("holds code (" + name + ") whose " + problem);
            continue;
        }
        const PickleCheck pickle = checkPickle(text);
        if (!pickle.problem.empty())
            throw UnreadableRecord("holds a pickle (" + name + ") that " + pickle.problem);
    }
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
