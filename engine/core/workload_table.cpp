// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload_table.hpp"

#include "derived.hpp"
#include "key_names.hpp"
#include "limits.hpp"

#include <algorithm>
#include <atomic>
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

// A rank's data and a step's tensors: the gathered batch, products, errors and gradients, a
// few copies each.
constexpr double kFloatBytes = 4, kIndexBytes = 8, kDoubleBytes = 8;
constexpr double kWorkingCopies = 4;

double toyBytes(const Config& c)
{
    const double experiments = double(c.experiments);
    return experiments * double(datasetSize(c)) * 2 * kFloatBytes + experiments * double(c.batchSize) * 2 * kFloatBytes * kWorkingCopies;
}

double linregBytes(const Config& c)
{
    const double experiments = double(c.experiments);
    const double values = double(c.dim) + 1;
    double bytes = experiments * double(datasetSize(c)) * values * kFloatBytes;
    bytes += experiments * double(c.batchSize) * values * kFloatBytes * kWorkingCopies;
    bytes += experiments * double(c.dim) * kFloatBytes * kWorkingCopies;
    if (linregMeasuresByMoments(c))  // the second moments, in double
        bytes += experiments * double(c.dim) * values * kDoubleBytes;
    return bytes;
}

double fashionBytes(const Config& c)
{
    // The CNN's activations per image (the first convolution's 32 x 28 x 28 floats and what
    // follows), a few copies for backward; evaluation runs 250 images at a time.
    constexpr double kImageActivationBytes = 32 * 28 * 28 * 4 * 3;
    constexpr double kEvalChunk = 250;
    // The images are the launcher's pages, shared; labels become int64 on every rank.
    return (double(datasetSize(c)) + 10'000) * kIndexBytes + std::max(double(c.batchSize), kEvalChunk) * kImageActivationBytes;
}

// The data are the launcher's pages, shared, and the model's size is known only once it is
// loaded: `ddplab-engine inspect` estimates those from the files themselves.
double yourBytes(const Config&) { return 0; }

// The values an example holds: the toy's x and y; linreg's inputs and target.
double toyValues(const Config&) { return 2.0; }
double linregValues(const Config& c) { return double(c.dim + 1); }

// The values a rank draws for one example of one experiment, in a toy value's cost: a noisy
// toy's input and target (without noise it fills ones and zeros, no draws); linreg's inputs and
// its target's noise (drawn even at 0). A linreg value costs 1.45 a toy's (its inputs are drawn,
// scaled, and multiplied with the true weights into targets): timed with ddplab-engine run against
// the same run of one experiment, linreg's 256 x 4,096 x 9 took 0.65 s more on 2 ranks and 1.1 s
// on 4, toy's 10,000 x 256 x 2 0.22 and 0.42 s (load 2-3), the ranks' draws adding up.
constexpr double kLinregValueCost = 1.45;
double toyDraws(const Config& c) { return c.noise > 0 ? 2.0 : 0.0; }
double linregDraws(const Config& c) { return double(std::max<int64_t>(1, c.dim) + 1) * kLinregValueCost; }

std::vector<WorkloadTraits> builtInRows()
{
    return {
        // kind                      name                            vectorised runsNetwork ownModel sizeKey
        //                           validation                        classes                      choosesModel oneWeight
        //                           what Setup says; what the workload key's help says it trains
        //                           its own keys
        //                           its whole training set; the model and the data in an advice's words; a rank's bytes;
        //                           vectorised: the values an example holds, that factor in words, and its draws' cost;
        //                           an added row's keys
        {WorkloadKind::Toy,          choice::workload::kToy,          true,      false,      false,   key::kNumExamples,
                                     Validation::None,                 Classes::Never,              false,       true,
                                     "toy: one neuron (seed 000)", "the single neuron of seed 000",
                                     {},
                                     generatedExamples, toyModel, generatedData, toyBytes,
                                     toyValues, "2", toyDraws, {}},
        {WorkloadKind::Linreg,       choice::workload::kLinreg,       true,      false,      false,   key::kNumExamples,
                                     Validation::None,                 Classes::Never,              false,       false,
                                     "linreg: linear model (seed 004)", "the linear model of seed 004",
                                     {key::kDim, key::kLossReduction},
                                     generatedExamples, linregModel, generatedData, linregBytes,
                                     linregValues, "(dim + 1)", linregDraws, {}},
        {WorkloadKind::FashionMnist, choice::workload::kFashionMnist, false,     true,       false,   key::kTrainSubset,
                                     Validation::OwnSet,               Classes::Always,             true,        false,
                                     "fashion_mnist: images", "Fashion-MNIST",
                                     {key::kModel, key::kDataDir},
                                     fashionImages, fashionModel, fashionData, fashionBytes,
                                     nullptr, nullptr, nullptr, {}},
        {WorkloadKind::TorchScript,  choice::workload::kTorchScript,  false,     true,       true,    key::kTrainData,
                                     Validation::FromValData,          Classes::WhenCrossEntropy,   false,       false,
                                     "torchscript: your model", "your own TorchScript model on your own data (docs/own-model.md)",
                                     {key::kModelFile, key::kLoss, key::kTrainData, key::kValData, key::kSaveModel, key::kModelCheckTimeout},
                                     yourSamples, yourModel, yourData, yourBytes,
                                     nullptr, nullptr, nullptr, {}},
    };
}

std::vector<WorkloadTraits>& rows()
{
    static std::vector<WorkloadTraits> table = builtInRows();
    return table;
}

// Set by the first read: from then on references to the rows are held (traitsOf's, the key
// table's choices), so no row may be added.
std::atomic<bool> g_tableRead{false};

}  // namespace

const std::vector<WorkloadTraits>& workloadTable()
{
    g_tableRead.store(true, std::memory_order_relaxed);
    return rows();
}

WorkloadKind addWorkloadRow(WorkloadTraits row)
{
    if (g_tableRead.load(std::memory_order_relaxed))
        throw std::logic_error(std::string("workload ") + (row.name ? row.name : "") +
                               " added after the workload table was read: add it before anything reads a setting");
    std::vector<WorkloadTraits>& table = rows();
    if (!row.name || !*row.name)
        throw std::logic_error("a workload row without a name");
    int next = 0;
    for (const WorkloadTraits& existing : table) {
        if (std::string(existing.name) == row.name)
            throw std::logic_error(std::string("workload ") + row.name + " has a row already");
        next = std::max(next, int(existing.kind) + 1);
    }
    row.kind = static_cast<WorkloadKind>(next);
    for (const WorkloadKey& key : row.keys)
        row.ownKeys.push_back(key.name);
    table.push_back(std::move(row));
    return table.back().kind;
}

double workloadValue(const Config& config, const std::string& key)
{
    if (const auto set = config.workloadValues.find(key); set != config.workloadValues.end())
        return set->second;
    for (const WorkloadTraits& row : workloadTable()) {
        for (const WorkloadKey& own : row.keys) {
            if (own.name == key)
                return own.defaultValue;
        }
    }
    throw std::logic_error("workloadValue of " + key + ", a key of no workload's row");  // a programming error
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

bool appliesToWorkload(const Config& config, const std::string& key)
{
    for (const WorkloadTraits& row : workloadTable()) {
        if (std::find(row.ownKeys.begin(), row.ownKeys.end(), key) != row.ownKeys.end())
            return row.kind == config.workload;
    }
    return true;
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
