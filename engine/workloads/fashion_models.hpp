// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The three Fashion-MNIST models. Layer sizes are named constants so the Python peer in
// bench/peers/fashion_ddp_peer.py can build exactly the same networks.

#include "core/config.hpp"

#include <torch/nn/modules/container/sequential.h>

namespace ddplab {

// mlp: 784 -> 256 -> 128 -> 10, ReLU between (235,146 parameters)
constexpr int64_t kMlpHidden1 = 256;
constexpr int64_t kMlpHidden2 = 128;
// mlp_bn: the MLP with BatchNorm1d after each hidden layer, before its ReLU (236,914 parameters
// and the running statistics as buffers): a model whose result depends on how a step's samples
// are grouped into each GPU's batch (the lesson micro-batches-stand-for-gpus)
// cnn: conv 3x3 32 -> pool -> conv 3x3 64 -> pool -> 128 -> 10 (421,642 parameters)
constexpr int64_t kCnnChannels1 = 32;
constexpr int64_t kCnnChannels2 = 64;
constexpr int64_t kCnnHidden = 128;

torch::nn::Sequential makeFashionModel(ModelKind kind);

}  // namespace ddplab
