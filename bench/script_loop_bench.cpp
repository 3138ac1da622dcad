// SPDX-License-Identifier: GPL-3.0-or-later
// The limit the engine can reach on a TorchScript model: a plain single-process LibTorch loop
// on the same module and data, with nothing around the step but the step itself: gather a
// batch, forward, cross entropy, zero the gradients, backward, SGD with momentum. Prints the
// median step time as JSON; bench/own_model_bench.py sets it beside the engine's at 1 rank.
//
//   ddplab-script-loop-bench MODEL.pt DATA.pt --batch 64 --steps 60 --warmup 10 --threads 2 --lr 0.05 --momentum 0.9

#include <ATen/Parallel.h>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/nn/functional/loss.h>
#include <torch/optim/sgd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

struct Options {
    std::string model, data;
    int64_t batch = 64, steps = 60, warmup = 10, threads = 1, seed = 0;
    double lr = 0.05, momentum = 0.9;
};

Options parse(int argc, char** argv)
{
    if (argc < 3) {
        std::cerr << "usage: ddplab-script-loop-bench MODEL.pt DATA.pt [--batch N] [--steps N] [--warmup N] [--threads N] "
                     "[--lr X] [--momentum X] [--seed N]\n";
        std::exit(2);
    }
    Options o;
    o.model = argv[1];
    o.data = argv[2];
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string name = argv[i];
        const char* value = argv[i + 1];
        if (name == "--batch") o.batch = std::atoll(value);
        else if (name == "--steps") o.steps = std::atoll(value);
        else if (name == "--warmup") o.warmup = std::atoll(value);
        else if (name == "--threads") o.threads = std::atoll(value);
        else if (name == "--seed") o.seed = std::atoll(value);
        else if (name == "--lr") o.lr = std::atof(value);
        else if (name == "--momentum") o.momentum = std::atof(value);
        else {
            std::cerr << "ddplab-script-loop-bench: unknown option " << name << "\n";
            std::exit(2);
        }
    }
    return o;
}

}  // namespace

int main(int argc, char** argv)
{
    const Options o = parse(argc, argv);
    at::set_num_threads(int(o.threads));
    torch::jit::Module module = torch::jit::load(o.model);
    std::ifstream file(o.data, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const auto data = torch::jit::pickle_load(bytes).toGenericDict();
    const at::Tensor inputs = data.at("inputs").toTensor();
    const at::Tensor targets = data.at("targets").toTensor().to(at::kLong);

    std::vector<at::Tensor> parameters;
    for (const at::Tensor& p : module.parameters())
        parameters.push_back(p);
    torch::optim::SGD optimizer(parameters, torch::optim::SGDOptions(o.lr).momentum(o.momentum));
    module.train();
    const at::Tensor order = at::randperm(inputs.size(0), at::TensorOptions().dtype(at::kLong));

    std::vector<double> stepMs;
    for (int64_t step = 0; step < o.warmup + o.steps; ++step) {
        const int64_t first = (step * o.batch) % (inputs.size(0) - o.batch + 1);
        const auto start = std::chrono::steady_clock::now();
        const at::Tensor rows = order.narrow(0, first, o.batch);
        const at::Tensor x = inputs.index_select(0, rows), y = targets.index_select(0, rows);
        const at::Tensor loss = torch::nn::functional::cross_entropy(module.forward({x}).toTensor(), y);
        optimizer.zero_grad();
        loss.backward();
        optimizer.step();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (step >= o.warmup)
            stepMs.push_back(ms);
    }
    std::sort(stepMs.begin(), stepMs.end());
    double total = 0.0;
    for (double ms : stepMs)
        total += ms;
    std::cout << "{\"median_step_ms\": " << stepMs[stepMs.size() / 2] << ", \"mean_step_ms\": " << total / double(stepMs.size())
              << ", \"steps\": " << stepMs.size() << "}" << std::endl;
    return 0;
}
