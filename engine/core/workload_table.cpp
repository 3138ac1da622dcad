// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload_table.hpp"

#include "derived.hpp"
#include "key_names.hpp"
#include "limits.hpp"

#include <stdexcept>

namespace ddplab {

using Validation = WorkloadTraits::Validation;
using Classes = WorkloadTraits::Classes;

namespace {

std::string fileNameOf(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }
std::string samplesOf(const Config& c) { return std::to_string(datasetSize(c)); }

int64_t generatedExamples(const Config& c) { return c.numExamples; }
int64_t fashionImages(const Config&) { return limits::kFashionMnistTrainImages; }
int64_t yourSamples(const Config& c) { return c.trainSamples; }  // known once the engine has read your data

std::string toyModel(const Config&) { return "toy (one neuron)"; }
std::string linregModel(const Config& c) { return "linreg (dim " + std::to_string(c.dim) + ")"; }
std::string fashionModel(const Config& c)
{
    switch (c.model) {
    case ModelKind::Cnn:
        return "Fashion-MNIST CNN";
    case ModelKind::MlpBatchNorm:
        return "Fashion-MNIST MLP with BatchNorm";
    case ModelKind::Mlp:
        break;
    }
    return "Fashion-MNIST MLP";
}
std::string yourModel(const Config& c) { return fileNameOf(c.modelFile); }

std::string generatedData(const Config& c)
{
    return samplesOf(c) + " generated examples (data seed " + std::to_string(dataSeed(c)) + ")";
}
std::string fashionData(const Config& c) { return "Fashion-MNIST (" + samplesOf(c) + " training images)"; }
std::string yourData(const Config& c) { return fileNameOf(c.trainData) + " (" + samplesOf(c) + " samples)"; }

}  // namespace

const std::vector<WorkloadTraits>& workloadTable()
{
    static const std::vector<WorkloadTraits> kTable = {
        // kind                      name                            vectorised runsNetwork ownModel sizeKey
        //                           validation                        classes                      choosesModel oneWeight
        //                           what Setup says; what the workload key's help says it trains
        //                           its whole training set; the model and the data in an advice's words
        {WorkloadKind::Toy,          choice::workload::kToy,          true,      false,      false,   key::kNumExamples,
                                     Validation::None,                 Classes::Never,              false,       true,
                                     "toy: one neuron (seed 000)", "the single neuron of seed 000",
                                     generatedExamples, toyModel, generatedData},
        {WorkloadKind::Linreg,       choice::workload::kLinreg,       true,      false,      false,   key::kNumExamples,
                                     Validation::None,                 Classes::Never,              false,       false,
                                     "linreg: linear model (seed 004)", "the linear model of seed 004",
                                     generatedExamples, linregModel, generatedData},
        {WorkloadKind::FashionMnist, choice::workload::kFashionMnist, false,     true,       false,   key::kTrainSubset,
                                     Validation::OwnSet,               Classes::Always,             true,        false,
                                     "fashion_mnist: images", "Fashion-MNIST",
                                     fashionImages, fashionModel, fashionData},
        {WorkloadKind::TorchScript,  choice::workload::kTorchScript,  false,     true,       true,    key::kTrainData,
                                     Validation::FromValData,          Classes::WhenCrossEntropy,   false,       false,
                                     "torchscript: your model", "your own TorchScript model on your own data (docs/own-model.md)",
                                     yourSamples, yourModel, yourData},
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
