// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advisor's progress file (AdviceRequest::progressFile, docs/advisor.md "Stopped and
// resumed"): the request, then each phase as planned, with when it started and ended on the
// advice's clock, and each run's settings and, once the session saw it end, its stored run id.
// Written by the advice's runner as each run ends (advice_runner.hpp); read back by
// AdviceJob::resume and, in brief, by the advice store that lists a stopped advice. Its fields:
// docs/advisor.md, "Stopped and resumed".

#include "advice_request.hpp"
#include "client/wire.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace ddplab::ui {

namespace advice_progress {

inline const QString kRequest = QStringLiteral("request");
inline const QString kPhases = QStringLiteral("phases");
inline const QString kRuns = QStringLiteral("runs_planned");
inline const QString kSettings = QStringLiteral("settings");
inline const QString kRunId = QStringLiteral("run_id");
inline const QString kStartedS = QStringLiteral("started_at_s");
inline const QString kEndedS = QStringLiteral("ended_at_s");  // a phase's, and a run's that ended well
// Of the phase's seconds, those the engine took to start (its phase launched it): see LabSession.
inline const QString kEngineStartS = QStringLiteral("engine_start_s");
inline const QString kGpus = QStringLiteral("gpus");
inline const QString kMaxBatch = QStringLiteral("max_batch_per_gpu");
inline const QString kBudget = QStringLiteral("budget_s");
// Your own data's size as inspect read it when the advice began: the plan was made with it.
inline const QString kTrainSamples = QStringLiteral("train_samples");
// Relative to the progress file's folder (earlier versions wrote it absolute); never read back.
inline const QString kCheckpoints = QStringLiteral("checkpoint_folder");
inline const QString kHorizon = QStringLiteral("horizon_samples");  // 0: the training's
// inspect's word on BatchNorm, Dropout and LayerNorm (its `layers`, by the same names), and whether it was said
inline const QString kLayers = wire(protocol::inspection::kLayers);
inline const QString kLayersKnown = QStringLiteral("known");
inline const QString kBatchNorm = wire(protocol::inspection::kBatchNorm);
inline const QString kDropout = wire(protocol::inspection::kDropout);
inline const QString kLayerNorm = wire(protocol::inspection::kLayerNorm);

}  // namespace advice_progress

QJsonObject progressJson(const AdviceRequest& request, const QJsonArray& phases);
// A stopped phase's engine start, as its time holds it: one the file should not hold (below 0,
// or more than the phase took, which a crafted file may say) counts as none, so the run's cost
// the plan is sized with is never less than what the phase measured.
double engineStartOfPhase(const QJsonObject& phase);
// Where a stopped advice's clock had reached: the latest start or end of its phases and of the
// runs it finished (a phase stopped part way has no end of its own).
double clockOfProgress(const QJsonObject& progress);
// The latest end of a stopped phase's runs that ended well, on the advice's clock; -1 when none.
double lastRunEndOfPhase(const QJsonObject& phase);
// The file's object; nullopt with `error` when it cannot be read or is no JSON object.
std::optional<QJsonObject> readProgress(const QString& path, QString* error);
// The request it holds (its settings read as the engine reads them); nullopt with `error`.
std::optional<AdviceRequest> requestOfProgress(const QJsonObject& progress, QString* error);

// In brief: the GPUs planned for and the runs that ended; nullopt with `error` (which file, what
// is wrong) when it is no progress file.
struct ProgressSummary {
    int gpus = 0;
    int runsEnded = 0;
    QString model, data;  // what it is about (advice_request.hpp's names)
};
std::optional<ProgressSummary> summariseProgress(const QString& progressFile, QString* error = nullptr);

}  // namespace ddplab::ui
