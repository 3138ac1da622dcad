// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_progress.hpp"

#include "client/io/json_text.hpp"
#include "client/io/read_file.hpp"
#include "client/library/preset_file.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonParseError>

#include <algorithm>

namespace ddplab::ui {

using namespace advice_progress;

namespace {
constexpr qint64 kMaxProgressBytes = 64 << 20;  // a progress file of thousands of runs is a few MB
}  // namespace

QJsonObject progressJson(const AdviceRequest& request, const QJsonArray& phases)
{
    // Relative to the advice's own folder: a copied or moved advice finds its own checkpoints,
    // never the original's (resuming never reads this back; it takes the folder's own).
    const QString checkpoints = request.progressFile.isEmpty() ? request.checkpointFolder
                                                               : QFileInfo(request.progressFile).dir().relativeFilePath(request.checkpointFolder);
    return {{kRequest, QJsonObject{{kSettings, presetFromCoreConfig(request.base)},
                                   {kGpus, request.gpus},
                                   {kMaxBatch, request.maxBatchPerGpu},
                                   {kBudget, request.budgetSeconds},
                                   {kCheckpoints, checkpoints},
                                   {kTrainSamples, qint64(request.base.trainSamples)},
                                   {kHorizon, request.horizonSamples},
                                   {kLayers, QJsonObject{{kLayersKnown, request.layers.known},
                                                         {kBatchNorm, request.layers.batchNorm},
                                                         {kDropout, request.layers.dropout},
                                                         {kLayerNorm, request.layers.layerNorm}}}}},
            {kPhases, phases}};
}

double engineStartOfPhase(const QJsonObject& phase)
{
    const double took = phase.value(kEndedS).toDouble(-1.0) - phase.value(kStartedS).toDouble(0.0);
    const double engineStart = phase.value(kEngineStartS).toDouble(0.0);
    return engineStart >= 0.0 && engineStart <= took ? engineStart : 0.0;
}

double lastRunEndOfPhase(const QJsonObject& phase)
{
    double last = -1.0;
    for (const QJsonValue& run : phase.value(kRuns).toArray())
        if (!run.toObject().value(kRunId).toString().isEmpty())
            last = std::max(last, run.toObject().value(kEndedS).toDouble(-1.0));
    return last;
}

double clockOfProgress(const QJsonObject& progress)
{
    double clock = 0.0;
    for (const QJsonValue& value : progress.value(kPhases).toArray()) {
        const QJsonObject phase = value.toObject();
        clock = std::max({clock, phase.value(kStartedS).toDouble(), phase.value(kEndedS).toDouble(), lastRunEndOfPhase(phase)});
    }
    return clock;
}

std::optional<QJsonObject> readProgress(const QString& path, QString* error)
{
    QString why;
    const std::optional<QByteArray> contents = readRegularFile(path, kMaxProgressBytes, &why);
    if (!contents) {
        *error = QStringLiteral("%1 %2").arg(path, why);
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(*contents, &parse);
    if (parse.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1 is not JSON (%2 at byte %3)").arg(path, parse.errorString()).arg(parse.offset);
        return std::nullopt;
    }
    if (!document.isObject()) {
        *error = QStringLiteral("%1 holds no JSON object").arg(path);
        return std::nullopt;
    }
    return document.object();
}

std::optional<AdviceRequest> requestOfProgress(const QJsonObject& progress, QString* error)
{
    const QJsonObject json = progress.value(kRequest).toObject();
    const std::optional<ddplab::Config> base = coreConfigOf(json.value(kSettings).toObject(), error);
    if (!base)
        return std::nullopt;
    AdviceRequest request;
    request.base = *base;
    request.base.trainSamples = json.value(kTrainSamples).toInteger();  // a preset does not carry it
    request.gpus = json.value(kGpus).toInt();
    request.maxBatchPerGpu = json.value(kMaxBatch).toInteger();
    request.budgetSeconds = json.value(kBudget).toDouble();
    // checkpoint_folder is not taken from the file: a crafted one made the advisor write anywhere,
    // and an absolute one (as earlier versions wrote) sent a copy to the original's checkpoints.
    // The resume sets the advice folder's own.
    request.horizonSamples = json.value(kHorizon).toDouble();
    // What the command line refuses is refused here too, naming the file's field: a crafted
    // budget_s of 1e300 was taken, and -1 was refused as a --budget-min nobody gave.
    const auto refuse = [&](const QString& field, const QJsonValue& value, const QString& allowed) {
        *error = QStringLiteral("its request's %1 is %2, where %3").arg(field, jsonText(value), allowed);
        return std::nullopt;
    };
    if (!(request.budgetSeconds >= kFewestBudgetSeconds && request.budgetSeconds <= kMostBudgetSeconds))
        return refuse(kBudget, json.value(kBudget), QStringLiteral("a budget is %1 to %2 s").arg(kFewestBudgetSeconds).arg(kMostBudgetSeconds));
    if (request.gpus < 1 || request.gpus > kMostAdviceGpus)
        return refuse(kGpus, json.value(kGpus), QStringLiteral("an advice plans for 1 to %1 GPUs").arg(kMostAdviceGpus));
    if (!(request.horizonSamples >= 0) || request.maxBatchPerGpu < 0)
        return refuse(request.maxBatchPerGpu < 0 ? kMaxBatch : kHorizon, json.value(request.maxBatchPerGpu < 0 ? kMaxBatch : kHorizon),
                      QStringLiteral("it is at least 0 (0: the default)"));
    const QJsonObject layers = json.value(kLayers).toObject();
    request.layers = layers.isEmpty() ? builtInLayers(request.base)
                                      : ModelLayers{layers.value(kLayersKnown).toBool(), layers.value(kBatchNorm).toBool(), layers.value(kDropout).toBool(),
                                                    layers.value(kLayerNorm).toBool()};
    return request;
}

std::optional<ProgressSummary> summariseProgress(const QString& progressFile, QString* error)
{
    QString why;
    const std::optional<QJsonObject> progress = readProgress(progressFile, &why);
    if (progress && !progress->value(kRequest).isObject())
        why = QStringLiteral("%1 holds no \"%2\" object").arg(progressFile, kRequest);
    else if (progress && !progress->value(kPhases).isArray())
        why = QStringLiteral("%1 holds no \"%2\" list").arg(progressFile, kPhases);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    ProgressSummary summary;
    summary.gpus = progress->value(kRequest).toObject().value(kGpus).toInt();
    QString unread;
    if (const std::optional<AdviceRequest> request = requestOfProgress(*progress, &unread)) {
        summary.model = modelNameOf(request->base);
        summary.data = dataNameOf(request->base);
    }
    for (const QJsonValue& phase : progress->value(kPhases).toArray())
        for (const QJsonValue& run : phase.toObject().value(kRuns).toArray())
            summary.runsEnded += run.toObject().value(kRunId).toString().isEmpty() ? 0 : 1;
    return summary;
}

}  // namespace ddplab::ui
