// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_progress.hpp"

#include "client/library/preset_file.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

namespace ddplab::ui {

using namespace advice_progress;

QJsonObject progressJson(const AdviceRequest& request, const QJsonArray& phases)
{
    return {{kRequest, QJsonObject{{kSettings, presetFromCoreConfig(request.base)},
                                   {kGpus, request.gpus},
                                   {kMaxBatch, request.maxBatchPerGpu},
                                   {kBudget, request.budgetSeconds},
                                   {kCheckpoints, request.checkpointFolder},
                                   {kTrainSamples, qint64(request.base.trainSamples)}}},
            {kPhases, phases}};
}

std::optional<QJsonObject> readProgress(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1 cannot be opened (%2)").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parse);
    if (parse.error != QJsonParseError::NoError || !document.isObject()) {
        *error = QStringLiteral("%1 is not a progress file").arg(path);
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
    request.checkpointFolder = json.value(kCheckpoints).toString();
    return request;
}

std::optional<ProgressSummary> summariseProgress(const QString& progressFile)
{
    QString error;
    const std::optional<QJsonObject> progress = readProgress(progressFile, &error);
    if (!progress || !progress->value(kRequest).isObject())
        return std::nullopt;
    ProgressSummary summary;
    summary.gpus = progress->value(kRequest).toObject().value(kGpus).toInt();
    for (const QJsonValue& phase : progress->value(kPhases).toArray())
        for (const QJsonValue& run : phase.toObject().value(kRuns).toArray())
            summary.runsEnded += run.toObject().value(kRunId).toString().isEmpty() ? 0 : 1;
    return summary;
}

}  // namespace ddplab::ui
