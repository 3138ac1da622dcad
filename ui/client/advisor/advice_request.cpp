// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_request.hpp"

#include "client/engine/model_inspection.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"
#include "core/workload_table.hpp"

#include <algorithm>

namespace ddplab::ui {
namespace {

constexpr int kFewestHorizonSteps = 2;  // a stated horizon holds this many steps of your batch per GPU on N GPUs

}  // namespace

QString gpuCountText(int gpus)
{
    return gpus == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus);
}

double plannedSamplesOf(const ddplab::Config& base)
{
    return double(totalSteps(base)) * double(effectiveBatchSize(base));
}

double horizonOf(const AdviceRequest& request)
{
    const double planned = plannedSamplesOf(request.base);
    return request.horizonSamples > 0 ? std::min(request.horizonSamples, planned) : planned;
}

QString adviceRequestProblem(const AdviceRequest& r)
{
    if (r.gpus < 1 || r.gpus > kMostAdviceGpus)
        return QStringLiteral("--gpus must be from 1 to %1 (got %2)").arg(kMostAdviceGpus).arg(r.gpus);
    if (!(r.budgetSeconds >= kFewestBudgetSeconds && r.budgetSeconds <= kMostBudgetSeconds))
        return QStringLiteral("--budget-min must be from 10 s to 1440 min (got %1 s)").arg(r.budgetSeconds);
    if (r.maxBatchPerGpu < 0)
        return QStringLiteral("--max-batch-per-gpu must be at least 1 (got %1)").arg(r.maxBatchPerGpu);
    if (r.horizonSamples < 0)
        return QStringLiteral("--horizon-samples must be at least 1 (got %1)").arg(r.horizonSamples);
    if (r.base.lrRangeTest || !r.base.resumeFrom.empty())
        return QStringLiteral("the settings to advise on are a range test or a resumed run; start from settings that train well");
    const ConfigProblems problems = findProblems(r.base);
    if (!problems.empty())
        return QStringLiteral("the settings to advise on are refused: %1").arg(QString::fromStdString(problems.front().message));
    // Your own data's size plans the training (its epochs in steps, the base run, the horizon):
    // the engine's inspect tells it before the advice starts.
    if (traitsOf(r.base).ownModel && r.base.trainSamples <= 0)
        return QStringLiteral("the size of your training data is not known yet: the engine's inspect reads it before an advice on your own model");
    // The advice starts from your settings as they train: a most below them would have it compare
    // batches with one it never ran as yours.
    if (r.maxBatchPerGpu > 0 && r.maxBatchPerGpu < r.base.batchSize)
        return QStringLiteral("--max-batch-per-gpu %1 is less than your batch per GPU (batch_size %2): the advice starts from your settings "
                              "as they train; give at least %2, or advise on settings whose batch per GPU fits")
            .arg(r.maxBatchPerGpu)
            .arg(r.base.batchSize);
    const double planned = plannedSamplesOf(r.base);
    if (r.horizonSamples > planned)
        return QStringLiteral("--horizon-samples %1 is longer than your whole training (%2 samples): the batches are compared at your horizon, never a longer one")
            .arg(qRound64(r.horizonSamples))
            .arg(qRound64(planned));
    // A horizon the batches cannot be compared over: the runs would train past it.
    const double step = std::max(double(r.gpus) * double(r.base.batchSize), double(effectiveBatchSize(r.base)));
    if (r.horizonSamples > 0 && r.horizonSamples < kFewestHorizonSteps * step)
        return QStringLiteral("--horizon-samples %1 is under %2 steps of your batch per GPU on %3 (%4 samples a step): the batches cannot be "
                              "compared over it; give at least %5 (your whole training is %6)")
            .arg(qRound64(r.horizonSamples))
            .arg(kFewestHorizonSteps)
            .arg(gpuCountText(r.gpus))
            .arg(qRound64(step))
            .arg(qRound64(kFewestHorizonSteps * step))
            .arg(qRound64(planned));
    return {};
}

ModelLayers builtInLayers(const ddplab::Config& base)
{
    ModelLayers layers;
    // toy's neuron, linreg's linear model and the Fashion-MNIST MLP and CNN have none of the
    // three; mlp_bn has BatchNorm.
    layers.known = !traitsOf(base).ownModel;
    layers.batchNorm = traitsOf(base).choosesModel && base.model == ModelKind::MlpBatchNorm;
    return layers;
}

ModelLayers inspectedLayers(const ModelInspection& inspection)
{
    return {inspection.layersKnown, inspection.batchNormLayers > 0, inspection.dropoutLayers > 0, inspection.layerNormLayers > 0};
}

QString modelNameOf(const ddplab::Config& base)
{
    return QString::fromStdString(traitsOf(base).modelWords(base));
}

QString dataNameOf(const ddplab::Config& base)
{
    return QString::fromStdString(traitsOf(base).dataWords(base));
}

}  // namespace ddplab::ui
