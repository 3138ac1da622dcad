// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The user's TorchScript model (workload torchscript), loaded with torch::jit::load: its
// parameters and buffers by the names Python gives them, train()/eval(), forward, save.
// Everything that can go wrong in loading it becomes one sentence naming model_file and the
// file: no such file, not a TorchScript file, saved by a newer PyTorch than this engine's
// LibTorch, a forward that takes other arguments than the loss passes. LibTorch's jit headers
// stay in the .cpp (they cost every file that includes them a minute to compile).

#include "core/config.hpp"

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace torch::jit {
struct Module;
}

namespace ddplab {

struct NamedTensor {
    std::string name;  // "layer1.0.bn1.running_mean"
    at::Tensor tensor;
};

// forward threw: `what()` is the model's own message (its last line, "RuntimeError: ...").
class ForwardError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class TorchScriptModel {
public:
    // `path` as the config names it (a leading ~/ is the home folder). Throws ConfigError
    // (model_file).
    TorchScriptModel(const std::string& path, LossKind loss);
    ~TorchScriptModel();
    TorchScriptModel(const TorchScriptModel&) = delete;
    TorchScriptModel& operator=(const TorchScriptModel&) = delete;

    const std::string& path() const { return m_path; }
    std::string signature() const;  // "forward(Tensor x) -> Tensor"

    std::vector<NamedTensor> parameters() const;  // every one, in registration order
    std::vector<NamedTensor> buffers() const;
    // Every submodule's class, qualified as TorchScript names it
    // ("__torch__.torch.nn.modules.batchnorm.BatchNorm2d"): what inspect tells of its layers.
    std::vector<std::string> moduleKinds() const;

    void to(const c10::Device& device);  // parameters and buffers
    void setTraining(bool on);           // train() / eval(), recursively, when it changes

    // forward(inputs), or forward(inputs, targets) for loss "model". Throws ForwardError.
    at::Tensor forward(const at::Tensor& inputs, const at::Tensor& targets);

    // As torch.jit.save: loadable with torch.jit.load, parameters and buffers as they are now.
    void save(const std::string& path) const;

private:
    std::unique_ptr<torch::jit::Module> m_module;
    std::string m_path;
    bool m_passesTargets = false;
    int m_training = -1;  // -1: as loaded
};

}  // namespace ddplab
