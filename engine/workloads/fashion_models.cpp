// SPDX-License-Identifier: GPL-3.0-or-later
#include "fashion_models.hpp"

#include "data/fashion_mnist_files.hpp"

#include <torch/nn.h>

namespace ddplab {

torch::nn::Sequential makeFashionModel(ModelKind kind)
{
    namespace nn = torch::nn;
    if (kind == ModelKind::Mlp) {
        return nn::Sequential(nn::Flatten(), nn::Linear(kImagePixels, kMlpHidden1), nn::ReLU(),
                              nn::Linear(kMlpHidden1, kMlpHidden2), nn::ReLU(), nn::Linear(kMlpHidden2, kClasses));
    }
    constexpr int64_t pooledSide = kImageSide / 4;  // two 2x2 max-pools
    return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, kCnnChannels1, 3).padding(1)), nn::ReLU(), nn::MaxPool2d(2),
                          nn::Conv2d(nn::Conv2dOptions(kCnnChannels1, kCnnChannels2, 3).padding(1)), nn::ReLU(),
                          nn::MaxPool2d(2), nn::Flatten(),
                          nn::Linear(kCnnChannels2 * pooledSide * pooledSide, kCnnHidden), nn::ReLU(),
                          nn::Linear(kCnnHidden, kClasses));
}

}  // namespace ddplab
