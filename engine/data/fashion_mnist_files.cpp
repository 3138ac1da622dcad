// SPDX-License-Identifier: GPL-3.0-or-later
#include "fashion_mnist_files.hpp"

#include "core/data_error.hpp"
#include "idx_file.hpp"

#include <map>
#include <memory>
#include <mutex>

namespace ddplab {
namespace {

FashionMnistSplit loadSplit(const std::string& dataDir, const std::string& prefix, int64_t items)
{
    const std::string imagesPath = dataDir + "/" + prefix + "-images-idx3-ubyte.gz";
    const std::string labelsPath = dataDir + "/" + prefix + "-labels-idx1-ubyte.gz";
    IdxArray images = readIdxGz(imagesPath, {items, {kImageSide, kImageSide}});
    IdxArray labels = readIdxGz(labelsPath, {items, {}});
    if (labels.dims[0] != images.dims[0])
        throw DataError("data file " + labelsPath + " has " + std::to_string(labels.dims[0]) + " labels but " + imagesPath +
                        " has " + std::to_string(images.dims[0]) + " images");
    for (size_t i = 0; i < labels.bytes.size(); ++i) {
        if (labels.bytes[i] >= kClasses)
            throw DataError("data file " + labelsPath + " has label " + std::to_string(labels.bytes[i]) + " at index " +
                            std::to_string(i) + "; labels are 0 to 9");
    }
    FashionMnistSplit split;
    split.count = images.dims[0];
    split.images = std::move(images.bytes);
    split.labels = std::move(labels.bytes);
    return split;
}

}  // namespace

const FashionMnistData& loadFashionMnist(const std::string& dataDir)
{
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<FashionMnistData>> loaded;
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = loaded[dataDir];
    if (!slot) {
        auto data = std::make_unique<FashionMnistData>();
        data->train = loadSplit(dataDir, "train", kTrainImages);
        data->test = loadSplit(dataDir, "t10k", kTestImages);
        slot = std::move(data);
    }
    return *slot;
}

}  // namespace ddplab
