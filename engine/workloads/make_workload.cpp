// SPDX-License-Identifier: GPL-3.0-or-later
#include "make_workload.hpp"

#include "core/key_names.hpp"
#include "data/fashion_mnist_files.hpp"
#include "fashion_mnist_workload.hpp"
#include "linreg_workload.hpp"
#include "torchscript_workload.hpp"
#include "toy_workload.hpp"

#include <map>
#include <stdexcept>
#include <string>

namespace ddplab {
namespace {

struct RowCode {
    WorkloadMaker make;
    WorkloadReader readOnce;
};

// Each row's code, by its name: the built-in workloads, then any registered.
std::map<std::string, RowCode>& codes()
{
    static std::map<std::string, RowCode> table = {
        {choice::workload::kToy,
         {[](const Config& c, const c10::Device& device, int) { return std::make_unique<ToyWorkload>(c, device); }, {}}},
        {choice::workload::kLinreg,
         {[](const Config& c, const c10::Device& device, int) { return std::make_unique<LinregWorkload>(c, device); }, {}}},
        {choice::workload::kFashionMnist,
         {[](const Config& c, const c10::Device& device, int) { return std::make_unique<FashionMnistWorkload>(c, device); },
          [](const Config& c) { loadFashionMnist(c.dataDir); }}},
        {choice::workload::kTorchScript,
         {[](const Config& c, const c10::Device& device, int rank) { return std::make_unique<TorchScriptWorkload>(c, device, rank); },
          {}}},
    };
    return table;
}

const RowCode& codeOf(const Config& config)
{
    const char* name = traitsOf(config).name;
    const auto found = codes().find(name);
    if (found == codes().end())
        throw std::logic_error(std::string("workload ") + name + " has a row but no code (make_workload.cpp)");  // a programming error
    return found->second;
}

}  // namespace

std::unique_ptr<Workload> makeWorkload(const Config& config, const c10::Device& device, int rank)
{
    return codeOf(config).make(config, device, rank);
}

void readWorkloadDataOnce(const Config& config)
{
    if (const WorkloadReader& read = codeOf(config).readOnce)
        read(config);
}

WorkloadKind registerWorkload(WorkloadTraits row, WorkloadMaker make, WorkloadReader readOnce)
{
    const std::string name = row.name ? row.name : "";
    if (!make)
        throw std::logic_error("workload " + name + " registered without a maker");
    const WorkloadKind kind = addWorkloadRow(std::move(row));  // throws for a name taken or a table already read
    codes()[name] = {std::move(make), std::move(readOnce)};
    return kind;
}

}  // namespace ddplab
