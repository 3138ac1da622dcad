#include "make_workload.hpp"

#include "linreg_workload.hpp"
#include "toy_workload.hpp"

#include <stdexcept>

namespace ddplab {

std::unique_ptr<Workload> makeWorkload(const Config& config, const c10::Device& device)
{
    switch (config.workload) {
    case WorkloadKind::Toy:
        return std::make_unique<ToyWorkload>(config, device);
    case WorkloadKind::Linreg:
        return std::make_unique<LinregWorkload>(config, device);
    case WorkloadKind::FashionMnist:
        break;
    }
    throw std::runtime_error("workload not available in this build");
}

}  // namespace ddplab
