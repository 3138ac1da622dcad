// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_evidence.hpp"

#include "advice_phases.hpp"
#include "goodput.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_status.hpp"
#include "client/wire.hpp"
#include "core/workload_table.hpp"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace ddplab::ui {

QString measureNameOf(const ddplab::Config& base)
{
    return hasValidationSet(base) ? QStringLiteral("validation loss") : QStringLiteral("training loss (noise-free)");
}

double measureOf(const RunData& run, const ddplab::Config& base)
{
    const QJsonObject& summary = run.summary();
    if (summary.isEmpty())
        return std::numeric_limits<double>::infinity();
    const QString field = hasValidationSet(base) ? wire(protocol::field::kValLoss) : wire(protocol::field::kTrainLoss);
    const QJsonValue value = summary.value(field);
    return value.isDouble() && std::isfinite(value.toDouble()) ? value.toDouble() : std::numeric_limits<double>::infinity();
}

double judgedMeasure(RunStatus status, double measure)
{
    // Only what the run's own outcome says: a branch resumed from a checkpoint lacks its early
    // steps' events and reads "incomplete", and is measured all the same.
    const bool trained = status != RunStatus::Diverged && status != RunStatus::Failed;
    return trained && std::isfinite(measure) ? measure : std::numeric_limits<double>::infinity();
}

AdviceEvidence evidenceOf(const PlannedRun& planned, const RunData& run, const ddplab::Config& base, qint64 checkpointStep, double checkpointMeasure)
{
    const double measure = judgedMeasure(run.record().status, measureOf(run, base));
    AdviceEvidence evidence{planned.phase, run.id(), run.label(), planned.gpus, planned.batch, planned.lr, planned.seed,
                            run.summary().value(wire(protocol::field::kSamples)).toDouble(), measure, statusText(run.record().status), {}, 0.0};
    const QList<QPointF> trainLoss = run.series(wire(protocol::field::kTrainLoss));
    if ((planned.phase == advice_phase::kBranch || planned.phase == advice_phase::kRefinement) && !planned.config.resumeFrom.empty()) {
        if (std::isfinite(checkpointMeasure))
            evidence.curve.append({0.0, checkpointMeasure});
        for (const QPointF& point : trainLoss)
            if (point.x() > double(checkpointStep))
                evidence.curve.append({point.x() - double(checkpointStep), point.y()});
    } else if (planned.phase == advice_phase::kBranch || planned.phase == advice_phase::kRefinement) {
        evidence.curve = trainLoss;  // from the start: its steps are the branch's own
    } else if (planned.phase == advice_phase::kConfirmation || planned.phase == advice_phase::kWarmup) {
        evidence.curve = trainLoss;
    } else if (planned.phase == advice_phase::kThroughput) {
        evidence.samplesPerSecond =
            steadySamplesPerSecond(run.series(wire(protocol::field::kSamplesPerSec)), kThroughputWarmupSteps) / double(std::max(1, planned.gpus));
    }
    return evidence;
}

RangeCurve rangeCurveOf(double batch, const RunData& run)
{
    RangeCurve curve{batch, 0.0, {}};
    const QJsonObject event = run.rangeTest();
    for (const QJsonValue& value : event.value(wire(protocol::field::kPoints)).toArray()) {
        const QJsonObject point = value.toObject();
        curve.points.append({point.value(wire(protocol::field::kLr)).toDouble(), point.value(wire(protocol::field::kSmoothedLoss)).toDouble()});
    }
    const QString reason = event.value(wire(protocol::field::kStopReason)).toString();
    if (!curve.points.isEmpty() && (reason == wire(protocol::stop_reason::kDiverged) || reason == wire(protocol::stop_reason::kNotFinite)))
        curve.runawayLr = curve.points.last().x();
    return curve;
}

}  // namespace ddplab::ui
