// SPDX-License-Identifier: GPL-3.0-or-later
#include "optimizer_state.hpp"

#include "bsi_adam.hpp"
#include "layerwise_options.hpp"
#include "state_key.hpp"

#include "core/protocol_names.hpp"

#include <ATen/ATen.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

#include <stdexcept>

namespace ddplab {
namespace {

// The entries' names are the checkpoint file's (docs/checkpoints.md).
using protocol::checkpoint::kExpAvg;
using protocol::checkpoint::kExpAvgSq;
using protocol::checkpoint::kFirst;
using protocol::checkpoint::kMaxExpAvgSq;
using protocol::checkpoint::kMomentumBuffer;
using protocol::checkpoint::kSecond;
constexpr const char* kStep = protocol::checkpoint::kStateStep;

at::Tensor copied(const at::Tensor& tensor)
{
    return tensor.defined() ? tensor.detach().clone() : tensor;
}

at::Tensor stepTensor(int64_t step)
{
    return at::scalar_tensor(step, at::TensorOptions().dtype(at::kLong));
}

// The entry `name` of one parameter's saved state, on the parameter's device.
at::Tensor entry(const ParameterState& state, const char* name, const at::Tensor& parameter, size_t index, bool shaped = true)
{
    const auto found = state.find(name);
    if (found == state.end() || !found->second.defined())
        throw std::invalid_argument("the optimizer state of parameter #" + std::to_string(index) + " has no \"" + name + "\"");
    const at::Tensor& tensor = found->second;
    if (shaped && tensor.sizes() != parameter.sizes())
        throw std::invalid_argument("the optimizer state \"" + std::string(name) + "\" of parameter #" + std::to_string(index) +
                                    " is shaped " + c10::str(tensor.sizes()) + ", the parameter " + c10::str(parameter.sizes()));
    return tensor.to(parameter.device()).clone();
}

int64_t stepOf(const ParameterState& state, const at::Tensor& parameter, size_t index)
{
    const at::Tensor step = entry(state, kStep, parameter, index, /*shaped=*/false);
    if (step.numel() != 1)
        throw std::invalid_argument("the optimizer step of parameter #" + std::to_string(index) + " is not one number");
    return step.to(at::kLong).item<int64_t>();
}

template <class State>
State* findState(torch::optim::Optimizer& optimizer, const at::Tensor& parameter)
{
    auto& map = optimizer.state();
    const auto found = map.find(optimizerStateKey(parameter));
    return found == map.end() ? nullptr : static_cast<State*>(found->second.get());
}

template <class State>
void put(torch::optim::Optimizer& optimizer, const at::Tensor& parameter, std::unique_ptr<State> state)
{
    optimizer.state()[optimizerStateKey(parameter)] = std::move(state);
}


// Adam's and AdamW's states have the same fields under two types.
template <class State>
ParameterState adamState(const State& state)
{
    ParameterState saved{{kStep, stepTensor(state.step())}, {kExpAvg, copied(state.exp_avg())}, {kExpAvgSq, copied(state.exp_avg_sq())}};
    if (state.max_exp_avg_sq().defined())
        saved[kMaxExpAvgSq] = copied(state.max_exp_avg_sq());
    return saved;
}

template <class State>
std::unique_ptr<State> restoredAdamState(const ParameterState& saved, const at::Tensor& p, size_t i)
{
    auto restored = std::make_unique<State>();
    restored->step(stepOf(saved, p, i));
    restored->exp_avg(entry(saved, kExpAvg, p, i));
    restored->exp_avg_sq(entry(saved, kExpAvgSq, p, i));
    if (saved.count(kMaxExpAvgSq))
        restored->max_exp_avg_sq(entry(saved, kMaxExpAvgSq, p, i));
    return restored;
}

}  // namespace

std::vector<ParameterState> optimizerState(torch::optim::Optimizer& optimizer, const std::vector<at::Tensor>& parameters)
{
    std::vector<ParameterState> saved(parameters.size());
    if (auto* bsi = dynamic_cast<BsiAdam*>(&optimizer)) {
        for (size_t i = 0; i < parameters.size() && i < bsi->moments().size(); ++i) {
            const BsiAdam::Moments& moments = bsi->moments()[i];
            if (moments.first.defined())
                saved[i] = {{kStep, stepTensor(moments.step)}, {kFirst, copied(moments.first)}, {kSecond, copied(moments.second)}};
        }
        return saved;
    }
    for (size_t i = 0; i < parameters.size(); ++i) {
        const at::Tensor& p = parameters[i];
        if (dynamic_cast<torch::optim::SGD*>(&optimizer)) {
            if (auto* state = findState<torch::optim::SGDParamState>(optimizer, p))
                saved[i] = {{kMomentumBuffer, copied(state->momentum_buffer())}};
        } else if (dynamic_cast<torch::optim::Adam*>(&optimizer)) {
            if (auto* state = findState<torch::optim::AdamParamState>(optimizer, p))
                saved[i] = adamState(*state);
        } else if (dynamic_cast<torch::optim::AdamW*>(&optimizer)) {
            if (auto* state = findState<torch::optim::AdamWParamState>(optimizer, p))
                saved[i] = adamState(*state);
        } else if (auto* state = findState<LayerwiseState>(optimizer, p)) {
            saved[i] = {{kStep, stepTensor(state->step())}, {kFirst, copied(state->first())}, {kSecond, copied(state->second())}};
            // NovoGrad's second moment is one number per layer, LARS keeps none.
            if (!state->second().defined())
                saved[i].erase(kSecond);
            if (!state->first().defined())
                saved[i].erase(kFirst);
        }
    }
    return saved;
}

void restoreOptimizerState(torch::optim::Optimizer& optimizer, const std::vector<at::Tensor>& parameters,
                           const std::vector<ParameterState>& state)
{
    if (state.size() != parameters.size())
        throw std::invalid_argument("the optimizer state holds " + std::to_string(state.size()) + " parameters, the model " +
                                    std::to_string(parameters.size()));
    optimizer.state().clear();
    auto* bsi = dynamic_cast<BsiAdam*>(&optimizer);
    for (size_t i = 0; i < parameters.size(); ++i) {
        const ParameterState& saved = state[i];
        const at::Tensor& p = parameters[i];
        if (bsi) {
            BsiAdam::Moments moments;
            if (!saved.empty())
                moments = {stepOf(saved, p, i), entry(saved, kFirst, p, i), entry(saved, kSecond, p, i)};
            bsi->moments().at(i) = moments;
            continue;
        }
        if (saved.empty())
            continue;  // not stepped yet: the optimizer creates its state at the first step
        if (dynamic_cast<torch::optim::SGD*>(&optimizer)) {
            auto restored = std::make_unique<torch::optim::SGDParamState>();
            restored->momentum_buffer(entry(saved, kMomentumBuffer, p, i));
            put(optimizer, p, std::move(restored));
        } else if (dynamic_cast<torch::optim::Adam*>(&optimizer)) {
            put(optimizer, p, restoredAdamState<torch::optim::AdamParamState>(saved, p, i));
        } else if (dynamic_cast<torch::optim::AdamW*>(&optimizer)) {
            put(optimizer, p, restoredAdamState<torch::optim::AdamWParamState>(saved, p, i));
        } else {
            auto restored = std::make_unique<LayerwiseState>();
            restored->step(stepOf(saved, p, i));
            // NovoGrad's second moment is a scalar per layer: not shaped like the parameter.
            if (saved.count(kFirst))
                restored->first(entry(saved, kFirst, p, i));
            if (saved.count(kSecond))
                restored->second(entry(saved, kSecond, p, i, /*shaped=*/false));
            put(optimizer, p, std::move(restored));
        }
    }
}

}  // namespace ddplab
