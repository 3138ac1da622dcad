// SPDX-License-Identifier: GPL-3.0-or-later
#include "fashion_models.hpp"

#include "data/fashion_mnist_files.hpp"

#include <torch/nn.h>

namespace ddplab {

torch::nn::Sequential makeFashionModel(ModelKind kind)
{
    // Each layer with weights draws them from the generator when it is made, so each is made in
    // a statement of its own, in an order the language fixes: last to first. That is the order
    // GCC happened to give them when they were the arguments of one Sequential(...) call (whose
    // evaluation order each compiler chooses), so every stored run, lesson and figure keeps its
    // weights. The layers without weights draw nothing: their order does not matter. The PyTorch
    // script makes them in the same order (ui/client/script/script_workloads.cpp).
    namespace nn = torch::nn;
    if (kind == ModelKind::Mlp) {
        nn::Linear fc3(kMlpHidden2, kClasses);
        nn::Linear fc2(kMlpHidden1, kMlpHidden2);
        nn::Linear fc1(kImagePixels, kMlpHidden1);
        return nn::Sequential(nn::Flatten(), fc1, nn::ReLU(), fc2, nn::ReLU(), fc3);
    }
    if (kind == ModelKind::MlpBatchNorm) {
        // BatchNorm1d starts at weight 1, bias 0 and draws nothing; the Linear layers, last to first.
        nn::Linear fc3(kMlpHidden2, kClasses);
        nn::Linear fc2(kMlpHidden1, kMlpHidden2);
        nn::Linear fc1(kImagePixels, kMlpHidden1);
        return nn::Sequential(nn::Flatten(), fc1, nn::BatchNorm1d(kMlpHidden1), nn::ReLU(), fc2, nn::BatchNorm1d(kMlpHidden2),
                              nn::ReLU(), fc3);
    }
    constexpr int64_t pooledSide = kImageSide / 4;  // two 2x2 max-pools
    nn::Linear fc2(kCnnHidden, kClasses);
    nn::Linear fc1(kCnnChannels2 * pooledSide * pooledSide, kCnnHidden);
    nn::Conv2d conv2(nn::Conv2dOptions(kCnnChannels1, kCnnChannels2, 3).padding(1));
    nn::Conv2d conv1(nn::Conv2dOptions(1, kCnnChannels1, 3).padding(1));
    return nn::Sequential(conv1, nn::ReLU(), nn::MaxPool2d(2), conv2, nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(), fc1,
                          nn::ReLU(), fc2);
}

}  // namespace ddplab
