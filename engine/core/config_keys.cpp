// SPDX-License-Identifier: GPL-3.0-or-later
#include "config_keys.hpp"
#include "json.hpp"

#include "derived.hpp"
#include "limits.hpp"
#include "wording.hpp"
#include "workload_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace ddplab {
namespace {

using namespace script_treatment;

template <class T>
using Field = T Config::*;

// ---------------------------------------------------------------------------------------
// How a received value is shown in an error message: text as typed, JSON as written.
// ---------------------------------------------------------------------------------------
std::string describe(const Json& value)
{
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (std::isnan(number))
            return "nan";
        if (std::isinf(number))
            return number > 0 ? "inf" : "-inf";
    }
    std::string text = value.dump();
    constexpr size_t kMaxShown = 60;  // a pasted blob should not flood the message
    if (text.size() > kMaxShown)
        text = text.substr(0, kMaxShown) + "...";
    return text;
}

[[noreturn]] void reject(const std::string& key, const std::string& allowed, const Json& got)
{
    throw ConfigError(key, key + " must be " + allowed + " (got " + describe(got) + ")");
}

std::string formatNumber(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

int64_t toInteger(const std::string& key, const std::string& allowed, const Json& value,
                  int64_t min, int64_t max)
{
    int64_t number = 0;
    if (value.is_number_integer()) {
        number = value.get<int64_t>();
    } else if (value.is_number_float()) {
        // 16.0 in a hand-written file means 16; 16.5 does not.
        const double real = value.get<double>();
        if (!std::isfinite(real) || std::floor(real) != real || std::fabs(real) > 9e15)
            reject(key, allowed, value);
        number = static_cast<int64_t>(real);
    } else {
        reject(key, allowed, value);
    }
    if (number < min || number > max)
        reject(key, allowed, value);
    return number;
}

struct RealRange {
    double min = -INFINITY;
    bool minInclusive = true;
    double max = INFINITY;
    bool maxInclusive = true;

    bool contains(double v) const
    {
        const bool aboveMin = minInclusive ? v >= min : v > min;
        const bool belowMax = maxInclusive ? v <= max : v < max;
        return aboveMin && belowMax;
    }

    std::string describe() const
    {
        const bool hasMin = !std::isinf(min);
        const bool hasMax = !std::isinf(max) && max != double(FLT_MAX);  // the float limit has its own message
        if (hasMin && hasMax && minInclusive && maxInclusive)
            return "a number from " + formatNumber(min) + " to " + formatNumber(max);
        std::string text = "a finite number";
        if (hasMin)
            text += (minInclusive ? " >= " : " > ") + formatNumber(min);
        if (hasMin && hasMax)
            text += " and";
        if (hasMax)
            text += (maxInclusive ? " <= " : " < ") + formatNumber(max);
        return text;
    }
};

double toReal(const std::string& key, const std::string& allowed, const Json& value, RealRange range)
{
    if (!value.is_number())
        reject(key, allowed, value);
    const double number = value.get<double>();
    if (std::isfinite(number) && range.max == double(FLT_MAX) && number > range.max)
        throw ConfigError(key, key + " must be at most 3.4e38, the largest float the engine computes in (got " +
                                   describe(value) + ")");
    if (!std::isfinite(number) || !range.contains(number))
        reject(key, allowed, value);
    return number;
}

// ---------------------------------------------------------------------------------------
// Key builders: each produces the parsing, printing and wording of one key from one line.
// ---------------------------------------------------------------------------------------
ConfigKey integerKey(const std::string& name, Field<int64_t> field, int64_t min, int64_t max,
                     const std::string& help)
{
    ConfigKey key;
    key.name = name;
    key.type = KeyType::Integer;
    key.allowed = "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    key.help = help;
    const std::string allowed = key.allowed;
    key.assign = [=](Config& c, const Json& v) { c.*field = toInteger(name, allowed, v, min, max); };
    key.read = [=](const Config& c) { return Json(c.*field); };
    return key;
}

ConfigKey optionalIntegerKey(const std::string& name, Field<std::optional<int64_t>> field,
                             int64_t min, int64_t max, const std::string& help)
{
    ConfigKey key = integerKey(name, nullptr, min, max, help);
    key.optional = true;
    const std::string allowed = key.allowed + " or null";
    key.allowed = allowed;
    key.assign = [=](Config& c, const Json& v) {
        if (v.is_null())
            c.*field = std::nullopt;
        else
            c.*field = toInteger(name, allowed, v, min, max);
    };
    key.read = [=](const Config& c) { return (c.*field) ? Json(*(c.*field)) : Json(nullptr); };
    return key;
}

ConfigKey realKey(const std::string& name, Field<double> field, RealRange range, const std::string& help)
{
    ConfigKey key;
    key.name = name;
    key.type = KeyType::Real;
    key.allowed = range.describe();
    key.help = help;
    const std::string allowed = key.allowed;
    key.assign = [=](Config& c, const Json& v) { c.*field = toReal(name, allowed, v, range); };
    key.read = [=](const Config& c) { return Json(c.*field); };
    return key;
}

ConfigKey optionalRealKey(const std::string& name, Field<std::optional<double>> field, RealRange range,
                          const std::string& help)
{
    ConfigKey key = realKey(name, nullptr, range, help);
    key.optional = true;
    const std::string allowed = key.allowed + " or null";
    key.allowed = allowed;
    key.assign = [=](Config& c, const Json& v) {
        if (v.is_null())
            c.*field = std::nullopt;
        else
            c.*field = toReal(name, allowed, v, range);
    };
    key.read = [=](const Config& c) { return (c.*field) ? Json(*(c.*field)) : Json(nullptr); };
    return key;
}

ConfigKey booleanKey(const std::string& name, Field<bool> field, const std::string& help)
{
    ConfigKey key;
    key.name = name;
    key.type = KeyType::Boolean;
    key.allowed = "true or false";
    key.help = help;
    key.assign = [=](Config& c, const Json& v) {
        if (!v.is_boolean())
            reject(name, "true or false", v);
        c.*field = v.get<bool>();
    };
    key.read = [=](const Config& c) { return Json(c.*field); };
    return key;
}

ConfigKey textKey(const std::string& name, Field<std::string> field, const std::string& help)
{
    ConfigKey key;
    key.name = name;
    key.type = KeyType::Text;
    key.allowed = "a string";
    key.help = help;
    key.assign = [=](Config& c, const Json& v) {
        if (!v.is_string())
            reject(name, "a string", v);
        // C's file functions would stop at it and open a shorter path than the one given.
        if (v.get_ref<const std::string&>().find('\0') != std::string::npos)
            throw ConfigError(name, name + " holds a NUL character (\\u0000), which no path or name can hold");
        c.*field = v.get<std::string>();
    };
    key.read = [=](const Config& c) { return Json(c.*field); };
    return key;
}

template <class Enum>
ConfigKey choiceKey(const std::string& name, Field<Enum> field,
                    std::vector<std::pair<std::string, Enum>> choices, const std::string& help)
{
    ConfigKey key;
    key.name = name;
    key.type = KeyType::Choice;
    key.help = help;
    std::string allowed = "one of ";
    for (size_t i = 0; i < choices.size(); ++i) {
        allowed += (i ? ", " : "") + choices[i].first;
        key.choices.push_back(choices[i].first);
    }
    key.allowed = allowed;
    key.assign = [=](Config& c, const Json& v) {
        if (v.is_string()) {
            for (const auto& [text, value] : choices) {
                if (v.get<std::string>() == text) {
                    c.*field = value;
                    return;
                }
            }
        }
        reject(name, allowed, v);
    };
    key.read = [=](const Config& c) {
        for (const auto& [text, value] : choices) {
            if (c.*field == value)
                return Json(text);
        }
        return Json(nullptr);
    };
    return key;
}

// --fail-at RANK:STEP[:error|crash|hang|oom]
constexpr std::pair<FailureMode, const char*> kFailureModes[] = {
    {FailureMode::Error, "error"}, {FailureMode::Crash, "crash"}, {FailureMode::Hang, "hang"}, {FailureMode::OutOfMemory, "oom"}};

// One number of fail_at, whole and within [0, max]: strtoll would clamp 99999999999999999999
// to the largest integer without a word.
int64_t failAtNumber(const std::string& text, const char* what, int64_t min, int64_t max, const std::string& allowed, const Json& got)
{
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || end != text.data() + text.size() || (error != std::errc() && error != std::errc::result_out_of_range))
        reject(key::kFailAt, allowed, got);
    if (error == std::errc::result_out_of_range || value < min || value > max)
        throw ConfigError(key::kFailAt, std::string("fail_at's ") + what + " must be from " + std::to_string(min) + " to " +
                                            std::to_string(max) + " (got " + describe(got) + ")");
    return value;
}

ConfigKey failAtKey()
{
    ConfigKey key;
    key.name = key::kFailAt;
    key.type = KeyType::Text;
    key.optional = true;
    key.allowed = "RANK:STEP, RANK:STEP:crash, RANK:STEP:hang or RANK:STEP:oom (rank >= 0, step >= 1) or null";
    key.help = "testing aid: make rank RANK fail at optimizer step STEP (error: throw; crash: SIGKILL itself; "
               "hang: ignore SIGTERM and make no more progress; oom: an allocation LibTorch cannot satisfy)";
    const std::string allowed = key.allowed;
    key.assign = [=](Config& c, const Json& v) {
        if (v.is_null()) {
            c.failAt = std::nullopt;
            return;
        }
        if (!v.is_string())
            reject(key::kFailAt, allowed, v);
        std::istringstream in(v.get<std::string>());
        std::string rankText, stepText, modeText;
        std::getline(in, rankText, ':');
        std::getline(in, stepText, ':');
        std::getline(in, modeText);
        FailurePlan plan;
        plan.rank = failAtNumber(rankText, "rank", 0, limits::kMaxRanks - 1, allowed, v);
        plan.step = failAtNumber(stepText, "step", 1, limits::kMaxSteps, allowed, v);
        const auto mode = std::find_if(std::begin(kFailureModes), std::end(kFailureModes),
                                       [&](const auto& entry) { return modeText == entry.second; });
        if (!modeText.empty() && mode == std::end(kFailureModes))
            reject(key::kFailAt, allowed, v);
        plan.mode = modeText.empty() ? FailureMode::Error : mode->first;
        c.failAt = plan;
    };
    key.read = [](const Config& c) {
        if (!c.failAt)
            return Json(nullptr);
        std::string text = std::to_string(c.failAt->rank) + ":" + std::to_string(c.failAt->step);
        for (const auto& [mode, name] : kFailureModes) {
            if (mode == c.failAt->mode && mode != FailureMode::Error)
                text += std::string(":") + name;
        }
        return Json(text);
    };
    return key;
}

// Whole numbers from min to max separated by commas ("10, 20, 40"), as typed; "" is none.
std::vector<int64_t> integerList(const std::string& name, const std::string& allowed, const Json& v, int64_t min, int64_t max)
{
    if (!v.is_string())
        reject(name, allowed, v);
    std::vector<int64_t> numbers;
    const std::string text = v.get<std::string>();
    if (text.find_first_not_of(' ') == std::string::npos)
        return numbers;
    std::istringstream in(text);
    for (std::string word; std::getline(in, word, ',');) {
        word.erase(0, word.find_first_not_of(' '));
        word.erase(word.find_last_not_of(' ') + 1);
        int64_t value = 0;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (word.empty() || error != std::errc() || end != word.data() + word.size() || value < min || value > max)
            reject(name, allowed, v);
        numbers.push_back(value);
    }
    return numbers;
}

std::string listText(const std::vector<int64_t>& numbers)
{
    std::string text;
    for (int64_t number : numbers)
        text += (text.empty() ? "" : ", ") + std::to_string(number);
    return text;
}

ConfigKey integerListKey(const std::string& name, Field<std::vector<int64_t>> field, int64_t min, int64_t max,
                         const std::string& help)
{
    ConfigKey key;
    key.name = name;
    key.type = KeyType::Text;
    key.allowed = "whole numbers from " + std::to_string(min) + " to " + std::to_string(max) +
                  " separated by commas (\"2, 4\"), or \"\" for none";
    key.help = help;
    const std::string allowed = key.allowed;
    key.assign = [=](Config& c, const Json& v) { c.*field = integerList(name, allowed, v, min, max); };
    key.read = [=](const Config& c) { return Json(listText(c.*field)); };
    return key;
}

// checkpoint_at: "every N", or steps separated by commas ("10, 20, 40"), or "" for none.
ConfigKey checkpointAtKey()
{
    ConfigKey key;
    key.name = key::kCheckpointAt;
    key.type = KeyType::Text;
    key.allowed = "\"every N\" (N >= 1), optimizer steps separated by commas (\"10, 20, 40\", each >= 1) or \"\" for none";
    key.help = "write a checkpoint to checkpoint_dir after these optimizer steps: every N steps, or at the steps listed "
               "(docs/checkpoints.md)";
    const std::string allowed = key.allowed;
    key.assign = [=](Config& c, const Json& v) {
        if (!v.is_string())
            reject(key::kCheckpointAt, allowed, v);
        const std::string text = v.get<std::string>();
        auto number = [&](std::string word) {
            word.erase(0, word.find_first_not_of(' '));
            word.erase(word.find_last_not_of(' ') + 1);
            int64_t value = 0;
            const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
            if (word.empty() || error != std::errc() || end != word.data() + word.size() || value < 1 || value > limits::kMaxSteps)
                reject(key::kCheckpointAt, allowed, v);
            return value;
        };
        CheckpointPlan plan;
        constexpr char kEvery[] = "every ";
        if (text.rfind(kEvery, 0) == 0) {
            plan.every = number(text.substr(sizeof(kEvery) - 1));
        } else {
            plan.steps = integerList(key::kCheckpointAt, allowed, v, 1, limits::kMaxSteps);
            std::sort(plan.steps.begin(), plan.steps.end());
            plan.steps.erase(std::unique(plan.steps.begin(), plan.steps.end()), plan.steps.end());
        }
        c.checkpointAt = plan;
    };
    key.read = [](const Config& c) {
        if (c.checkpointAt.every > 0)
            return Json("every " + std::to_string(c.checkpointAt.every));
        return Json(listText(c.checkpointAt.steps));
    };
    return key;
}

// Every real setting reaches a float tensor: beyond FLT_MAX it would overflow in the middle of
// a run ("value cannot be converted to type float"), so it is refused here, naming the key.
constexpr RealRange kPositive{0.0, false, double(FLT_MAX), true};
constexpr RealRange kNonNegative{0.0, true, double(FLT_MAX), true};
constexpr RealRange kUnitOpen{0.0, true, 1.0, false};  // [0, 1)

// The panel's groups, in order.
constexpr char kWorkloadGroup[] = "Workload";
constexpr char kParallelism[] = "Parallelism";
constexpr char kLearningRate[] = "Learning rate";
constexpr char kOptimizerGroup[] = "Optimizer";
constexpr char kSchedule[] = "Warmup and schedule";
constexpr char kLength[] = "Length";
constexpr char kDataOrder[] = "Data order";
constexpr char kAdvanced[] = "Advanced";

bool runsNetwork(const Config& c) { return traitsOf(c).runsNetwork; }
// A key of one workload alone (its row's ownKeys) is shown for that workload only.
std::function<bool(const Config&)> itsWorkloads(const char* name)
{
    return [name](const Config& c) { return appliesToWorkload(c, name); };
}
bool isVectorised(const Config& c) { return traitsOf(c).vectorised; }

// The workload key: its choices, Setup's words and its help, one per row of workload_table.cpp.
ConfigKey workloadKey()
{
    std::vector<std::pair<std::string, WorkloadKind>> choices;
    std::vector<std::string> labels;
    std::string trains;
    const std::vector<WorkloadTraits>& rows = workloadTable();
    for (size_t i = 0; i < rows.size(); ++i) {
        choices.emplace_back(rows[i].name, rows[i].kind);
        labels.emplace_back(rows[i].setupLabel);
        trains += std::string(i == 0 ? "" : i + 1 == rows.size() ? ", or " : ", ") + rows[i].helpPhrase;
    }
    return choiceKey<WorkloadKind>(key::kWorkload, &Config::workload, choices, "what to train: " + trains).labelling(labels);
}

// A key of a workload added with addWorkloadRow: a number in Config::workloadValues, shown for
// that workload alone, as written in its row (workload_table.hpp's WorkloadKey).
ConfigKey addedWorkloadKey(const WorkloadKey& own)
{
    ConfigKey key;
    key.name = own.name;
    key.type = own.integer ? KeyType::Integer : KeyType::Real;
    key.allowed = own.integer ? "an integer from " + std::to_string(int64_t(own.min)) + " to " + std::to_string(int64_t(own.max))
                              : RealRange{own.min, true, own.max, true}.describe();
    key.help = own.help;
    const std::string name = own.name, allowed = key.allowed;
    const bool integer = own.integer;
    const double min = own.min, max = own.max, fallback = own.defaultValue;
    key.assign = [=](Config& c, const Json& v) {
        c.workloadValues[name] = integer ? double(toInteger(name, allowed, v, int64_t(min), int64_t(max)))
                                         : toReal(name, allowed, v, RealRange{min, true, max, true});
    };
    key.read = [=](const Config& c) {
        const auto set = c.workloadValues.find(name);
        const double value = set == c.workloadValues.end() ? fallback : set->second;
        return integer ? Json(int64_t(value)) : Json(value);
    };
    return std::move(key).presented(own.label, kWorkloadGroup)
        .when([name](const Config& c) { return appliesToWorkload(c, name); })
        .inScript(reproduced());
}

template <class... Kinds>
std::function<bool(const Config&)> optimizerIs(Kinds... kinds)
{
    return [=](const Config& c) { return ((c.optimizer == kinds) || ...); };
}

// The keys of what is trained: the workload, its model, data and loss, and an added workload's
// own keys.
void addWhatIsTrained(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(workloadKey().presented("Workload", kWorkloadGroup).inScript(reproduced()));
    keys.push_back(choiceKey<ModelKind>(key::kModel, &Config::model,
        {{choice::model::kMlp, ModelKind::Mlp}, {choice::model::kCnn, ModelKind::Cnn}, {choice::model::kMlpBatchNorm, ModelKind::MlpBatchNorm}},
        "Fashion-MNIST model: the MLP, the CNN, or the MLP with BatchNorm after each hidden layer (its batch statistics are "
        "each GPU's own: what accumulate_as_ranks keeps)")
        .presented("Model", kWorkloadGroup).when(itsWorkloads(key::kModel))
        .inScript(reproduced()));
    keys.push_back(textKey(key::kDataDir, &Config::dataDir, "folder with the Fashion-MNIST *-ubyte.gz files")
        .presented("Data folder", kWorkloadGroup).when(itsWorkloads(key::kDataDir))
        .inScript(reproduced()));
    keys.push_back(textKey(key::kModelFile, &Config::modelFile,
        "torchscript: the model, a TorchScript file (torch.jit.script(model).save(PATH)); a leading ~/ is the home folder")
        .presented("Model file", kWorkloadGroup).when(itsWorkloads(key::kModelFile))
        .inScript(reproduced()));
    keys.push_back(choiceKey<LossKind>(key::kLoss, &Config::loss,
        {{choice::loss::kCrossEntropy, LossKind::CrossEntropy},
         {choice::loss::kMse, LossKind::Mse},
         {choice::loss::kL1, LossKind::L1},
         {choice::loss::kBceWithLogits, LossKind::BceWithLogits},
         {choice::loss::kModel, LossKind::Model}},
        "torchscript: the loss of forward(inputs) against the targets (cross_entropy: class indices, accuracy reported), "
        "or model: forward(inputs, targets) returns the batch's mean loss itself")
        .presented("Loss", kWorkloadGroup)
        .labelling({"cross_entropy: class indices", "mse: mean squared error", "l1: mean absolute error",
                    "bce_with_logits: binary targets", "model: forward(inputs, targets) returns it"})
        .when(itsWorkloads(key::kLoss))
        .inScript(reproduced()));
    keys.push_back(textKey(key::kTrainData, &Config::trainData,
        "torchscript: training data, a file written by torch.save({\"inputs\": X, \"targets\": Y}, PATH) or a folder "
        "holding inputs.npy and targets.npy; samples along the first dimension")
        .presented("Training data", kWorkloadGroup).when(itsWorkloads(key::kTrainData))
        .inScript(reproduced()));
    keys.push_back(textKey(key::kValData, &Config::valData,
        "torchscript: validation data in the same form, evaluated at each epoch's end and every eval_every steps "
        "(empty: none)")
        .presented("Validation data", kWorkloadGroup).when(itsWorkloads(key::kValData))
        .inScript(leftOut("the validation set is evaluated between steps, without gradients", valDataNote))
        .resumed(OnResume::Free));
    keys.push_back(textKey(key::kSaveModel, &Config::saveModel,
        "torchscript: at the end, write the trained model (rank 0's parameters and buffers) to this TorchScript file "
        "(empty: do not)")
        .presented("Save the trained model to", kWorkloadGroup).when(itsWorkloads(key::kSaveModel))
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(integerKey(key::kModelCheckTimeout, &Config::modelCheckTimeout, 0, kMaxTimeoutSeconds,
        "torchscript: seconds that checking your model may take (inspect, and the first batch before a run) before it is "
        "stopped as a forward that never returns (0 = collective_timeout)")
        .presented("Give up on a model check after (s)", kAdvanced).when(itsWorkloads(key::kModelCheckTimeout))
        .inScript(leftOut("it bounds the lab's check of your model before a run; a script runs no such check"))
        .resumed(OnResume::Free));
    // an added workload's own keys (a test's: docs/architecture.md, "Adding a workload")
    for (const WorkloadTraits& row : workloadTable()) {
        for (const WorkloadKey& own : row.keys)
            keys.push_back(addedWorkloadKey(own));
    }
}

// The keys of how it is parallelised.
void addParallelism(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(integerKey(key::kNumExamples, &Config::numExamples, 1, kMaxExamples,
        "training examples of the toy and linreg workloads")
        .presented("Training examples", kWorkloadGroup).when(isVectorised)
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kDim, &Config::dim, 1, kMaxDim, "input dimension of the linreg workload")
        .presented("Input dimension", kWorkloadGroup)
        .when(itsWorkloads(key::kDim))
        .inScript(reproduced()));
    keys.push_back(choiceKey<LossReduction>(key::kLossReduction, &Config::lossReduction,
        {{choice::loss_reduction::kSum, LossReduction::Sum}, {choice::loss_reduction::kMean, LossReduction::Mean}},
        "linreg: squared errors summed over the batch (seed 004: SGD's step grows with the batch) or averaged")
        .presented("Loss over the batch", kWorkloadGroup)
        .labelling({"sum (seed 004)", "mean"})
        .when(itsWorkloads(key::kLossReduction))
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kExperiments, &Config::experiments, 1, kMaxExperiments,
        "independent experiments trained side by side in one run (toy, linreg)")
        .presented("Experiments", kWorkloadGroup).when(isVectorised)
        .inScript(reproducedUnless(experimentsRefusal)));
    keys.push_back(realKey(key::kNoise, &Config::noise, kNonNegative,
        "toy: sigma of the Gaussian noise on inputs and targets; linreg: sigma of the target noise")
        .presented("Noise σ", kWorkloadGroup).when(isVectorised)
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kTrainSubset, &Config::trainSubset, 0, kMaxExamples,
        "Fashion-MNIST and torchscript: train on the first N samples only (0 = all: Fashion-MNIST's 60,000, all of train_data)")
        .presented("Training subset", kWorkloadGroup).when(runsNetwork)
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kValSubset, &Config::valSubset, 0, kMaxExamples,
        "Fashion-MNIST and torchscript: evaluate the validation set on its first N samples only (0 = all: Fashion-MNIST's "
        "10,000 test images, all of val_data); a smaller set is a quicker, noisier validation loss")
        .presented("Validation subset", kWorkloadGroup).when(runsNetwork)
        .inScript(leftOut("it is the part of the validation set the lab evaluates, between steps and without gradients"))
        .resumed(OnResume::Free));
    keys.push_back(integerKey(key::kWorldSize, &Config::worldSize, 1, kMaxRanks, "number of ranks (\"GPUs\")")
        .presented("GPUs (ranks)", kParallelism)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(integerKey(key::kBatchSize, &Config::batchSize, 1, kMaxBatch, "batch size per rank")
        .presented("Batch per GPU", kParallelism)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(integerKey(key::kGradAccum, &Config::gradAccum, 1, kMaxGradAccum,
        "micro-batches accumulated per optimizer step; the inner ones skip synchronisation")
        .presented("Gradient accumulation", kParallelism)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(booleanKey(key::kAccumulateAsRanks, &Config::accumulateAsRanks,
        "the grad_accum micro-batches stand for GPUs: micro-batch j of rank k holds what DistributedSampler gives rank "
        "k * grad_accum + j of world_size * grad_accum, so world_size ranks compute exactly what world_size * grad_accum "
        "GPUs would, BatchNorm's batch statistics included (false: consecutive batches of the rank's own shard)")
        .presented("Micro-batches stand for GPUs", kParallelism)
        .when([](const Config& c) { return c.gradAccum > 1; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(choiceKey<BackendKind>(key::kBackend, &Config::backend,
        {{choice::backend::kAuto, BackendKind::Auto}, {choice::backend::kGloo, BackendKind::Gloo}, {choice::backend::kNccl, BackendKind::Nccl}},
        "collective backend; auto picks NCCL when every rank has its own GPU, else Gloo")
        .presented("Backend", kParallelism)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(choiceKey<DeviceKind>(key::kDevice, &Config::device, {{choice::device::kCpu, DeviceKind::Cpu}, {choice::device::kCuda, DeviceKind::Cuda}},
        "where each rank computes; cuda puts rank r on GPU LOCAL_RANK")
        .presented("Device", kParallelism)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(integerKey(key::kThreads, &Config::threads, 0, kMaxThreads,
        "intra-op threads per rank (0 = the cores other programs leave free, divided by the ranks on this machine, at least 1; "
        "docs/metrics.md)")
        .presented("Threads per rank", kAdvanced)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(booleanKey(key::kDeterministic, &Config::deterministic,
        "deterministic GPU kernels only (cuDNN's, and cuBLAS with a fixed workspace): two runs, and a run and its "
        "resumption, give the same losses bit for bit; an operation with no deterministic kernel stops the run naming it "
        "(false: the fastest kernels, which on a GPU may sum in another order each run; docs/checkpoints.md). CPU runs "
        "are deterministic either way")
        .presented("Deterministic GPU kernels", kAdvanced)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(realKey(key::kBucketCapMb, &Config::bucketCapMb, RealRange{0.0, false, kMaxBucketMb, true},
        "gradient bucket size in MiB, as DDP's")
        .presented("Bucket size (MiB)", kAdvanced)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(booleanKey(key::kOverlap, &Config::overlap,
        "all-reduce each bucket as soon as backward fills it (false: after backward)")
        .presented("Overlap all-reduce", kAdvanced)
        .inScript(leftOut("it says when the all-reduce runs, not what it sums", overlapNote))
        .resumed(OnResume::Free));
    keys.push_back(integerKey(key::kCollectiveTimeout, &Config::collectiveTimeout, 1, kMaxTimeoutSeconds,
        "seconds a rank waits for its peers (rendezvous, every collective) before the run stops and names the rank "
        "that stopped making progress; a run of one rank is stopped when it sends no event for this long")
        .presented("Give up on a silent rank after (s)", kAdvanced)
        .inScript(reproduced())
        .resumed(OnResume::Free));
}

// The keys of the data order.
void addDataOrder(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(booleanKey(key::kShuffle, &Config::shuffle, "shuffle like DistributedSampler (permutation seeded with seed + epoch)")
        .presented("Shuffle", kDataOrder)
        .inScript(reproduced()));
    keys.push_back(booleanKey(key::kDropLast, &Config::dropLast, "DistributedSampler's drop_last: drop the tail instead of padding")
        .presented("Drop last", kDataOrder)
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kSeed, &Config::seed, 0, kMaxSeed, "seed of data, initialisation and shuffling")
        .presented("Seed", kDataOrder)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(optionalIntegerKey(key::kDataSeed, &Config::dataSeed, 0, kMaxSeed,
        "toy, linreg: seed of the generated data (and linreg's starting weights), default seed; another seed with the same "
        "data_seed is another order of the same data")
        .presented("Data seed", kDataOrder)
        .when(isVectorised)
        .inScript(reproduced())
        // compared with the writing run's data seed on its own (another default when unset)
        .resumed(OnResume::Free));
}

// The keys of optimisation.
void addOptimisation(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    using O = OptimizerKind;
    keys.push_back(realKey(key::kLr, &Config::lr, kPositive, "learning rate tuned for base_batch_size")
        .presented("Base LR", kLearningRate)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(choiceKey<LrRule>(key::kLrRule, &Config::lrRule,
        {{choice::lr_rule::kNone, LrRule::None},
         {choice::lr_rule::kLinear, LrRule::Linear},
         {choice::lr_rule::kSqrt, LrRule::Sqrt},
         {choice::lr_rule::kPower, LrRule::Power},
         {choice::lr_rule::kSde, LrRule::Sde}},
        "how the LR follows the effective batch: lr * k^p with k = effective_batch / base_batch_size, p = 0, 1, 1/2, "
        "lr_power; sde (adam, adamw): Malladi et al.'s rule, lr * k^(1/2), 1 - beta1 and 1 - beta2 times k, eps / k^(1/2)")
        .presented("LR rule", kLearningRate)
        .labelling({"none: keep the LR", "linear: × k", "sqrt: × √k", "power: × k^p", "sde: Adam × √k, β and ε too"})
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kLrPower, &Config::lrPower, RealRange{-4.0, true, 4.0, true}, "exponent p of lr_rule = power")
        .presented("Power p", kLearningRate)
        .when([](const Config& c) { return c.lrRule == LrRule::Power; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(optionalIntegerKey(key::kBaseBatchSize, &Config::baseBatchSize, 1, kMaxBatch * kMaxRanks,
        "the batch size lr was tuned for (default: batch_size)")
        .presented("Tuned for batch", kLearningRate)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(choiceKey<OptimizerKind>(key::kOptimizer, &Config::optimizer,
        {{choice::optimizer::kSgd, O::Sgd},
         {choice::optimizer::kAdam, O::Adam},
         {choice::optimizer::kAdamW, O::AdamW},
         {choice::optimizer::kNovoGrad, O::NovoGrad},
         {choice::optimizer::kLamb, O::Lamb},
         {choice::optimizer::kLars, O::Lars},
         {choice::optimizer::kAdamBsi, O::AdamBsi},
         {choice::optimizer::kAdamWBsi, O::AdamWBsi}},
        "optimizer; adam_bsi and adamw_bsi are batch-size-invariant Adam and AdamW (Wang and Aitchison 2024): the "
        "second moment from the mean of every rank's and micro-batch's squared gradient, not the square of their mean")
        .presented("Optimizer", kOptimizerGroup)
        .inScript(reproducedUnless(optimizerRefusal)));
    keys.push_back(realKey(key::kMomentum, &Config::momentum, kUnitOpen, "SGD and LARS momentum")
        .presented("Momentum", kOptimizerGroup).when(optimizerIs(O::Sgd, O::Lars))
        .inScript(reproduced()));
    keys.push_back(realKey(key::kDampening, &Config::dampening, kUnitOpen, "SGD dampening")
        .presented("Dampening", kOptimizerGroup).when(optimizerIs(O::Sgd))
        .inScript(reproduced()));
    keys.push_back(booleanKey(key::kNesterov, &Config::nesterov, "SGD Nesterov momentum")
        .presented("Nesterov", kOptimizerGroup).when(optimizerIs(O::Sgd))
        .inScript(reproduced()));
    keys.push_back(realKey(key::kWeightDecay, &Config::weightDecay, kNonNegative,
        "weight decay (under weight_decay_rule timescale: the value tuned for base_batch_size and lr)")
        .presented("Weight decay", kOptimizerGroup)
        .inScript(reproduced()));
    keys.push_back(choiceKey<WeightDecayRule>(key::kWeightDecayRule, &Config::weightDecayRule,
        {{choice::weight_decay_rule::kNone, WeightDecayRule::None}, {choice::weight_decay_rule::kTimescale, WeightDecayRule::Timescale}},
        "how AdamW's weight decay follows the batch: none keeps it; timescale (Wang and Aitchison 2025) sets it so "
        "that the timescale effective_batch / (applied lr * weight_decay * training examples), in epochs, stays what "
        "it is at base_batch_size and lr")
        .presented("Weight decay rule", kOptimizerGroup)
        .labelling({"none: keep it", "timescale: keep B / (ηλN)"})
        .when(optimizerIs(O::AdamW, O::AdamWBsi))
        .inScript(reproduced()));
    keys.push_back(realKey(key::kBeta1, &Config::beta1, kUnitOpen, "Adam/AdamW/LAMB/NovoGrad first-moment decay (the base batch's under lr_rule sde)")
        .presented("β1", kOptimizerGroup).when(usesMoments)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kBeta2, &Config::beta2, kUnitOpen, "Adam/AdamW/LAMB/NovoGrad second-moment decay (the base batch's under lr_rule sde)")
        .presented("β2", kOptimizerGroup).when(usesMoments)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kEps, &Config::eps, kNonNegative, "Adam/AdamW/LAMB/NovoGrad epsilon, 0 allowed (the base batch's under lr_rule sde)")
        .presented("ε", kOptimizerGroup).when(usesMoments)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(booleanKey(key::kGradAveraging, &Config::gradAveraging, "NovoGrad: average m with (1 - beta1)")
        .presented("Gradient averaging", kOptimizerGroup).when(optimizerIs(O::NovoGrad))
        .inScript(reproduced()));
    keys.push_back(realKey(key::kTrustCoefficient, &Config::trustCoefficient, kPositive, "LARS trust coefficient eta")
        .presented("Trust coefficient η", kOptimizerGroup).when(optimizerIs(O::Lars))
        .inScript(reproduced()));
}

// The keys of the warmup and the schedule.
void addSchedule(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(integerKey(key::kWarmupSteps, &Config::warmupSteps, 0, kMaxSteps, "linear warmup length in optimizer steps")
        .presented("Warmup steps", kSchedule)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kWarmupEpochs, &Config::warmupEpochs, RealRange{0.0, true, double(kMaxEpochs), true},
        "linear warmup length in epochs")
        .presented("Warmup epochs", kSchedule)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(optionalRealKey(key::kWarmupStartFactor, &Config::warmupStartFactor, RealRange{0.0, false, 1.0, true},
        "warmup starts at this fraction of the LR (default 1 / world_size, as LinearLR in seed 003)")
        .presented("Warmup starts at", kSchedule)
        .when([](const Config& c) { return c.warmupSteps > 0 || c.warmupEpochs > 0; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(choiceKey<ScheduleKind>(key::kSchedule, &Config::schedule,
        {{choice::schedule::kConstant, ScheduleKind::Constant},
         {choice::schedule::kCosine, ScheduleKind::Cosine},
         {choice::schedule::kStep, ScheduleKind::Step}},
        "LR schedule after warmup")
        .presented("Schedule", kSchedule)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(integerKey(key::kStepSize, &Config::stepSize, 1, kMaxEpochs, "step schedule: decay every N epochs")
        .presented("Decay every (epochs)", kSchedule)
        .when([](const Config& c) { return c.schedule == ScheduleKind::Step; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kGamma, &Config::gamma, RealRange{0.0, false, 1.0, true}, "step schedule: decay factor")
        .presented("Decay factor γ", kSchedule)
        .when([](const Config& c) { return c.schedule == ScheduleKind::Step; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kMinLr, &Config::minLr, kNonNegative, "cosine schedule: final LR")
        .presented("Final LR", kSchedule)
        .when([](const Config& c) { return c.schedule == ScheduleKind::Cosine; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
}

// The keys of a batch that grows.
void addGrowingBatch(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(choiceKey<BatchScheduleKind>(key::kBatchSchedule, &Config::batchSchedule,
        {{choice::batch_schedule::kConstant, BatchScheduleKind::Constant},
         {choice::batch_schedule::kSteps, BatchScheduleKind::Steps},
         {choice::batch_schedule::kSmith, BatchScheduleKind::Smith},
         {choice::batch_schedule::kSeesaw, BatchScheduleKind::Seesaw},
         {choice::batch_schedule::kNoise, BatchScheduleKind::Noise},
         {choice::batch_schedule::kAdaScale, BatchScheduleKind::AdaScale}},
        "how the effective batch moves during training: constant; steps (after batch_schedule_steps, times "
        "batch_schedule_factors); smith (grow the batch where the schedule would decay the LR, Smith et al. 2018); "
        "seesaw (where it would halve the LR: LR x 1/sqrt(2), batch x 2, Meterez et al. 2025); noise (double the batch "
        "once the measured noise scale has stayed above twice it for batch_noise_patience steps); adascale (SGD: the "
        "batch stays, the LR is scaled by AdaScale's gain ratio and the schedule runs on its clock, Johnson et al. 2020)")
        .presented("Batch schedule", kSchedule)
        .labelling({"constant", "steps: grow at listed steps", "smith: grow instead of decaying the LR",
                    "seesaw: LR / sqrt(2) and batch x 2", "noise: grow with the noise scale",
                    "adascale: LR x gain ratio"})
        .inScript(reproducedUnless(batchScheduleRefusal)));
    auto grows = [](const Config& c) {
        return c.batchSchedule != BatchScheduleKind::Constant && c.batchSchedule != BatchScheduleKind::AdaScale;
    };
    keys.push_back(integerListKey(key::kBatchScheduleSteps, &Config::batchScheduleSteps, 1, kMaxSteps,
        "batch_schedule steps: the optimizer steps after which the effective batch grows, ascending")
        .presented("Grow after steps", kSchedule)
        .when([](const Config& c) { return c.batchSchedule == BatchScheduleKind::Steps; })
        .inScript(reproduced()));
    keys.push_back(integerListKey(key::kBatchScheduleFactors, &Config::batchScheduleFactors, 2, kMaxBatch,
        "batch_schedule steps: the factor each of batch_schedule_steps multiplies the effective batch by")
        .presented("Grow by factors", kSchedule)
        .when([](const Config& c) { return c.batchSchedule == BatchScheduleKind::Steps; })
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kMaxEffectiveBatch, &Config::maxEffectiveBatch, 0, kMaxBatch * kMaxRanks,
        "the effective batch grows to at most this (0 = the training set's size); where smith or seesaw would grow it "
        "further, the LR decays instead")
        .presented("Grow the batch to at most", kSchedule).when(grows)
        .inScript(reproduced()));
    keys.push_back(integerKey(key::kMaxBatchPerRank, &Config::maxBatchPerRank, 0, kMaxBatch,
        "a growing batch raises each rank's batch up to this, and accumulation micro-batches beyond it (0 = batch_size: "
        "the batch grows by accumulation only, so a rank's memory stays what it was)")
        .presented("Batch per rank at most", kSchedule).when(grows)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(integerKey(key::kBatchNoisePatience, &Config::batchNoisePatience, 1, kMaxSteps,
        "batch_schedule noise: the steps the smoothed noise scale must stay above twice the effective batch before it "
        "doubles")
        .presented("Noise above 2x batch for (steps)", kSchedule)
        .when([](const Config& c) { return c.batchSchedule == BatchScheduleKind::Noise; })
        .inScript(reproduced()));
}

// The keys of the length.
void addLength(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(integerKey(key::kEpochs, &Config::epochs, 1, kMaxEpochs, "epochs").presented("Epochs", kLength)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(integerKey(key::kMaxSteps, &Config::maxSteps, 0, kMaxSteps, "stop after N optimizer steps (0 = no limit)")
        .presented("Stop after (steps)", kLength)
        .inScript(reproduced())
        .resumed(OnResume::Free));
    keys.push_back(optionalRealKey(key::kStopAtLoss, &Config::stopAtLoss, RealRange{0.0, false, double(FLT_MAX), true},
        "stop at the first step whose loss, measured as stop_measure says, is at or below this (null = train to the end)")
        .presented("Stop at loss", kLength)
        .inScript(leftOut("it says where the lab stops, and the steps before it are the same", stopAtLossNote))
        .resumed(OnResume::Free));
    keys.push_back(choiceKey<StopMeasure>(key::kStopMeasure, &Config::stopMeasure,
        {{choice::stop_measure::kTrainLoss, StopMeasure::TrainLoss},
         {choice::stop_measure::kValLoss, StopMeasure::ValLoss},
         {choice::stop_measure::kBatchLoss, StopMeasure::BatchLoss}},
        "what stop_at_loss is judged on: train_loss, the loss over the whole training set (toy, linreg; Fashion-MNIST "
        "and torchscript: a fixed set of training samples), measured every eval_every steps; val_loss, the validation "
        "loss (Fashion-MNIST, torchscript with val_data), at its evaluations; batch_loss, the loss of the step's own "
        "mini-batch over all ranks, which is noisy: a small batch meets a target by chance long before the model does")
        .presented("Judge the loss on", kLength)
        .labelling({"train_loss: the training set", "val_loss: the validation set", "batch_loss: the step's mini-batch (noisy)"})
        .when([](const Config& c) { return c.stopAtLoss.has_value(); })
        .inScript(leftOut("it is what stop_at_loss, left out, is judged on"))
        .resumed(OnResume::Free));
    keys.push_back(optionalIntegerKey(key::kEvalEvery, &Config::evalEvery, 0, kMaxSteps,
        "measure the loss over the training set (toy, linreg: all of it; Fashion-MNIST and torchscript: a fixed set of "
        "training samples) and evaluate the validation set (Fashion-MNIST, torchscript with val_data) every N steps "
        "as well as at the end of each epoch; 0 = at epoch ends only (default: toy and linreg 1, Fashion-MNIST and "
        "torchscript 0)")
        .presented("Evaluate every (steps)", kLength)
        .inScript(leftOut("it says when the lab measures the training-set and validation losses, between steps and without gradients"))
        .resumed(OnResume::Free));
}

// The keys of checkpoints, branches and the LR range test.
void addCheckpointsAndBranches(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    keys.push_back(checkpointAtKey().presented("Checkpoint after steps", kAdvanced)
        .inScript(leftOut("writing a checkpoint reads the training state and changes none of it", checkpointAtNote))
        .resumed(OnResume::Free));
    keys.push_back(textKey(key::kCheckpointDir, &Config::checkpointDir,
        "folder the checkpoints of checkpoint_at go to, one file per step (step-000010.pt), readable with torch.load "
        "(docs/checkpoints.md); a leading ~/ is the home folder")
        .presented("Checkpoint folder", kAdvanced)
        .inScript(leftOut("it is where checkpoint_at's files go"))
        .resumed(OnResume::Free));
    keys.push_back(textKey(key::kResumeFrom, &Config::resumeFrom,
        "start from this checkpoint: parameters, buffers, optimizer state, step, epoch, the sampler's position and every "
        "RNG; world_size, batch_size, grad_accum, lr and lr_rule may differ from the run that wrote it (a branch); "
        "epochs and max_steps count from the first run's start (empty: start fresh)")
        .presented("Resume from checkpoint", kAdvanced)
        .inScript(reproducedUnless(resumeFromRefusal))
        .resumed(OnResume::Free));
    keys.push_back(booleanKey(key::kLrRangeTest, &Config::lrRangeTest,
        "LR range test (Smith 2017): the LR rises exponentially from lr_range_min to lr_range_max over lr_range_steps "
        "optimizer steps in place of lr, its rule, warmup and schedule; the run stops once the smoothed loss exceeds 4x "
        "its minimum and reports the curve and suggested LRs in a range_test event")
        .presented("LR range test", kAdvanced)
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kLrRangeMin, &Config::lrRangeMin, kPositive, "LR range test: the first LR")
        .presented("Range test from LR", kAdvanced).when([](const Config& c) { return c.lrRangeTest; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(realKey(key::kLrRangeMax, &Config::lrRangeMax, kPositive, "LR range test: the last LR")
        .presented("Range test to LR", kAdvanced).when([](const Config& c) { return c.lrRangeTest; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
    keys.push_back(integerKey(key::kLrRangeSteps, &Config::lrRangeSteps, 2, kMaxSteps, "LR range test: optimizer steps from the first LR to the last")
        .presented("Range test steps", kAdvanced).when([](const Config& c) { return c.lrRangeTest; })
        .inScript(reproduced())
        .resumed(OnResume::Branch));
}

// The keys of output and testing.
void addOutputAndTesting(std::vector<ConfigKey>& keys)
{
    using namespace limits;
    ConfigKey events = textKey(key::kEvents, &Config::events, "also append the JSON Lines event stream to this file")
                           .presented("Events file", kAdvanced);
    events.hidden = true;  // the lab gives every run its own
    events.onResume = OnResume::Free;
    events.script = leftOut("it is where the lab writes its event stream");
    keys.push_back(events);
    keys.push_back(textKey(key::kTensorboardDir, &Config::tensorboardDir,
        "rank 0 writes the run's scalars as TensorBoard event files into a folder of the run's own in this one "
        "(DATE-TIME_HOST_PID), as they are measured: point tensorboard --logdir at it (docs/tensorboard.md); a "
        "leading ~/ is the home folder (empty: none)")
        .presented("TensorBoard folder", kAdvanced)
        .inScript(leftOut("it is where rank 0 writes TensorBoard files of the run's figures", tensorboardDirNote)));
    keys.push_back(failAtKey().presented("Inject a failure", kAdvanced)
        .inScript(leftOut("it is a testing aid that makes a rank fail on purpose", failAtNote))
        .resumed(OnResume::Free));
}

// Every key, group by group, in the order --help lists them and Setup shows them within a group.
std::vector<ConfigKey> buildKeys()
{
    std::vector<ConfigKey> keys;
    addWhatIsTrained(keys);
    addParallelism(keys);
    addDataOrder(keys);
    addOptimisation(keys);
    addSchedule(keys);
    addGrowingBatch(keys);
    addLength(keys);
    addCheckpointsAndBranches(keys);
    addOutputAndTesting(keys);
    return keys;
}

size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

ConfigKey ConfigKey::presented(std::string shownLabel, std::string inGroup) &&
{
    label = std::move(shownLabel);
    group = std::move(inGroup);
    return std::move(*this);
}

ConfigKey ConfigKey::when(std::function<bool(const Config&)> condition) &&
{
    matters = std::move(condition);
    return std::move(*this);
}

ConfigKey ConfigKey::labelling(std::vector<std::string> labels) &&
{
    choiceLabels = std::move(labels);
    return std::move(*this);
}

ConfigKey ConfigKey::resumed(OnResume rule) &&
{
    onResume = rule;
    return std::move(*this);
}

ConfigKey ConfigKey::inScript(ScriptTreatment treatment) &&
{
    script = std::move(treatment);
    return std::move(*this);
}

std::string ConfigKey::choiceLabel(const std::string& choice) const
{
    for (size_t i = 0; i < choices.size() && i < choiceLabels.size(); ++i) {
        if (choices[i] == choice)
            return choiceLabels[i];
    }
    return choice;
}

const std::vector<KeyGroup>& keyGroups()
{
    static const std::vector<KeyGroup> groups{{kWorkloadGroup},  {kParallelism}, {kLearningRate},
                                              {kOptimizerGroup}, {kSchedule},    {kLength},
                                              {kDataOrder},      {kAdvanced, true}};
    return groups;
}

std::string ConfigKey::flag() const
{
    std::string text = "--" + name;
    std::replace(text.begin(), text.end(), '_', '-');
    return text;
}

const std::vector<ConfigKey>& configKeys()
{
    static const std::vector<ConfigKey> keys = [] {
        std::vector<ConfigKey> built = buildKeys();
        // An added workload's key may not take another key's name (it would never be read).
        for (size_t i = 0; i < built.size(); ++i) {
            for (size_t j = 0; j < i; ++j) {
                if (built[i].name == built[j].name)
                    throw std::logic_error("two config keys named " + built[i].name);
            }
        }
        return built;
    }();
    return keys;
}

const ConfigKey* findConfigKey(std::string_view name)
{
    for (const ConfigKey& key : configKeys()) {
        if (key.name == name)
            return &key;
    }
    return nullptr;
}

const ConfigKey* keyChangedOnResume(const Config& writer, const Config& run)
{
    for (const ConfigKey& key : configKeys()) {
        if (key.onResume == OnResume::Same && key.mattersFor(run) && key.read(writer) != key.read(run))
            return &key;
    }
    return nullptr;
}

std::string suggestKey(std::string_view unknown)
{
    std::string normalised(unknown);
    std::replace(normalised.begin(), normalised.end(), '-', '_');
    std::string best;
    size_t bestDistance = 3;  // farther than this is a different word, not a typo
    for (const ConfigKey& key : configKeys()) {
        const size_t distance = editDistance(normalised, key.name);
        if (distance < bestDistance) {
            best = key.name;
            bestDistance = distance;
        }
    }
    return best;
}

void assignFromText(Config& config, const ConfigKey& key, std::string_view text)
{
    const std::string raw(text);
    // As null in a config file: back to the derived default (a preset's value can be undone).
    if (key.optional && raw == "null") {
        key.assign(config, Json(nullptr));
        return;
    }
    switch (key.type) {
    case KeyType::Integer: {
        int64_t value = 0;
        const auto [end, error] = std::from_chars(raw.data(), raw.data() + raw.size(), value);
        if (raw.empty() || error != std::errc() || end != raw.data() + raw.size())
            throw ConfigError(key.name, key.name + " must be " + key.allowed + " (got \"" + raw + "\")");
        key.assign(config, Json(value));
        return;
    }
    case KeyType::Real: {
        char* end = nullptr;
        errno = 0;
        const double value = std::strtod(raw.c_str(), &end);
        // ERANGE with a finite result is an underflow (1e-320): the nearest double is the value
        // meant, as a JSON config reads it; ERANGE with an infinite one is too large for any.
        if (raw.empty() || *end != '\0' || !std::isfinite(value))
            throw ConfigError(key.name, key.name + " must be " + key.allowed + " (got \"" + raw + "\")" +
                                            (errno == ERANGE ? ": too large for a number (at most about 1.8e308)" : ""));
        key.assign(config, Json(value));
        return;
    }
    case KeyType::Boolean: {
        std::string lower = raw;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
        if (lower == "true" || lower == "1" || lower == "yes" || lower == "on")
            key.assign(config, Json(true));
        else if (lower == "false" || lower == "0" || lower == "no" || lower == "off")
            key.assign(config, Json(false));
        else
            throw ConfigError(key.name, key.name + " must be true or false (got \"" + raw + "\")");
        return;
    }
    case KeyType::Choice:
    case KeyType::Text:
        key.assign(config, Json(raw));
        return;
    }
}

void applyJson(Config& config, const Json& object, const std::string& origin)
{
    if (!object.is_object())
        throw ConfigError("", origin + " must hold a JSON object of settings ({\"batch_size\": 16, ...})");
    for (const auto& [name, value] : object.items()) {
        const ConfigKey* key = findConfigKey(name);
        if (!key) {
            const std::string suggestion = suggestKey(name);
            throw ConfigError(name, "unknown key " + quotedName(name) + " in " + origin +
                                        (suggestion.empty() ? "" : " (did you mean \"" + suggestion + "\"?)"));
        }
        key->assign(config, value);
    }
}

Json configToJson(const Config& config)
{
    Json object = Json::object();
    for (const ConfigKey& key : configKeys())
        object[key.name] = key.read(config);
    return object;
}

}  // namespace ddplab
