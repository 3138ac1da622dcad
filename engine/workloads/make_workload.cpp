// SPDX-License-Identifier: GPL-3.0-or-later
#include "make_workload.hpp"

#include "fashion_mnist_workload.hpp"
#include "linreg_workload.hpp"
#include "torchscript_workload.hpp"
#include "toy_workload.hpp"

#include <stdexcept>

namespace ddplab {

std::unique_ptr<Workload> makeWorkload(const Config& config, const c10::Device& device, int rank)
{
    switch (config.workload) {
    case WorkloadKind::Toy:
        return std::make_unique<ToyWorkload>(config, device);
    case WorkloadKind::Linreg:
        return std::make_unique<LinregWorkload>(config, device);
    case WorkloadKind::FashionMnist:
        return std::make_unique<FashionMnistWorkload>(config, device);
    case WorkloadKind::TorchScript:
        return std::make_unique<TorchScriptWorkload>(config, device, rank);
    }
    throw std::logic_error("unknown workload");
}

}  // namespace ddplab
