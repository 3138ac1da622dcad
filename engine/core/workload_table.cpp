// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload_table.hpp"

#include "key_names.hpp"

#include <stdexcept>

namespace ddplab {

using Validation = WorkloadTraits::Validation;
using Classes = WorkloadTraits::Classes;

const std::vector<WorkloadTraits>& workloadTable()
{
    static const std::vector<WorkloadTraits> kTable = {
        // kind                      name                            vectorised runsNetwork ownModel sizeKey
        //                           validation                        classes                      choosesModel oneWeight
        //                           what Setup says; what the workload key's help says it trains
        {WorkloadKind::Toy,          choice::workload::kToy,          true,      false,      false,   key::kNumExamples,
                                     Validation::None,                 Classes::Never,              false,       true,
                                     "toy: one neuron (seed 000)", "the single neuron of seed 000"},
        {WorkloadKind::Linreg,       choice::workload::kLinreg,       true,      false,      false,   key::kNumExamples,
                                     Validation::None,                 Classes::Never,              false,       false,
                                     "linreg: linear model (seed 004)", "the linear model of seed 004"},
        {WorkloadKind::FashionMnist, choice::workload::kFashionMnist, false,     true,       false,   key::kTrainSubset,
                                     Validation::OwnSet,               Classes::Always,             true,        false,
                                     "fashion_mnist: images", "Fashion-MNIST"},
        {WorkloadKind::TorchScript,  choice::workload::kTorchScript,  false,     true,       true,    key::kTrainData,
                                     Validation::FromValData,          Classes::WhenCrossEntropy,   false,       false,
                                     "torchscript: your model", "your own TorchScript model on your own data (docs/own-model.md)"},
    };
    return kTable;
}

const WorkloadTraits& traitsOf(WorkloadKind kind)
{
    for (const WorkloadTraits& row : workloadTable()) {
        if (row.kind == kind)
            return row;
    }
    throw std::logic_error("a workload without a row in workload_table.cpp");  // a programming error, never input
}

bool hasValidationSet(const Config& config)
{
    switch (traitsOf(config).validation) {
    case Validation::None:
        return false;
    case Validation::OwnSet:
        return true;
    case Validation::FromValData:
        return !config.valData.empty();
    }
    return false;
}

bool measuresAccuracy(const Config& config)
{
    switch (traitsOf(config).classes) {
    case Classes::Never:
        return false;
    case Classes::Always:
        return true;
    case Classes::WhenCrossEntropy:
        return config.loss == LossKind::CrossEntropy;
    }
    return false;
}

}  // namespace ddplab
