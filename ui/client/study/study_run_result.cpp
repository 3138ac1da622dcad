// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_run_result.hpp"

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/study/study_show_figures.hpp"
#include "client/wire.hpp"

#include <cmath>

namespace ddplab::ui {
namespace {

constexpr double kNaN = StudyRunResult::kNone;

double finiteOr(const QJsonValue& value)
{
    return value.isDouble() && std::isfinite(value.toDouble()) ? value.toDouble() : kNaN;
}

// A noise scale is a batch size: a negative one was not measured (a run stored by an engine
// that still reported its estimators' ratio when the signal was below the noise).
double measuredNoiseScale(double value)
{
    return value >= 0 && std::isfinite(value) ? value : kNaN;
}

// The series figures: each one's last epoch's mean, and its last and best values.
void readSeriesFigures(const RunData& run, StudyRunResult& result)
{
    const std::pair<QLatin1String, double StudyRunResult::*> series[] = {
        {wire(field::kLoss), &StudyRunResult::loss},           {wire(field::kAccuracy), &StudyRunResult::accuracy},
        {wire(field::kTrainLoss), &StudyRunResult::trainLoss}, {wire(field::kTrainAccuracy), &StudyRunResult::trainAccuracy},
        {wire(field::kValLoss), &StudyRunResult::valLoss},     {wire(field::kValAccuracy), &StudyRunResult::valAccuracy},
    };
    for (const auto& [id, member] : series) {
        result.*member = lastEpochMeanOf(run, id);
        result.ends.insert(id, seriesEnds(run, id, findStudyFigure(id)->lowerIsBetter));
    }
}

}  // namespace

double StudyRunResult::figure(const QString& id) const
{
    return figure(id, FigureSummary::LastEpochMean);
}

double StudyRunResult::figure(const QString& id, FigureSummary summary) const
{
    const StudyFigure* figure = findStudyFigure(id);
    if (!figure)
        return kNaN;
    if (!figure->summarised || summary == FigureSummary::LastEpochMean)
        return figure->value(*this);
    const SeriesEnds end = ends.value(id);
    return summary == FigureSummary::Last ? end.last : end.best;
}

StudyRunResult resultOf(const StudyPoint& point, const RunData& run, const StudyTarget& target)
{
    StudyRunResult result;
    result.point = point.index;
    result.repeat = point.repeat;
    result.values = point.values;
    result.runId = run.id();
    result.status = run.record().status;
    result.error = run.record().error;
    const QJsonObject config = run.effectiveConfig();
    result.seed = config.value(wire(key::kSeed)).toInteger();
    result.worldSize = config.value(wire(key::kWorldSize)).toInteger(1);
    result.batchSize = config.value(wire(key::kBatchSize)).toInteger();
    result.effectiveBatch = config.value(wire(field::kEffectiveBatchSize))
                                .toInteger(result.worldSize * result.batchSize * config.value(wire(key::kGradAccum)).toInteger(1));
    result.lr = config.value(wire(key::kLr)).toDouble(kNaN);
    result.effectiveLr = config.value(wire(field::kLrEffective)).toDouble(kNaN);
    result.lrRule = config.value(wire(key::kLrRule)).toString();
    result.optimizer = config.value(wire(key::kOptimizer)).toString();

    const QJsonObject& summary = run.summary();
    result.config = config;
    readSeriesFigures(run, result);
    result.updateVar = finiteOr(summary.value(wire(field::kUpdateVar)));
    result.noiseScale = measuredNoiseScale(finiteOr(summary.value(wire(field::kNoiseScale))));
    result.wMean = finiteOr(summary.value(wire(field::kWMean)));
    result.wallSeconds = finiteOr(summary.value(wire(field::kWallS)));
    result.steps = summary.value(wire(field::kSteps)).toInteger(run.stepCount());
    result.samples = summary.contains(wire(field::kSamples)) ? summary.value(wire(field::kSamples)).toDouble()
                                                             : run.xAt(run.lastStep(), XAxis::SamplesSeen);
    result.divergedAtStep = run.record().divergedAtStep;

    if (target.isSet()) {
        // The first step whose figure meets the target: per step for the training figures,
        // per evaluation for the validation ones.
        const TargetMeasure* measure = target.measure();
        const std::optional<qint64> reached =
            measure ? run.firstStepMeeting(measure->series, [&](double value) { return target.reachedBy(value); }) : std::nullopt;
        if (reached) {
            result.stepsToTarget = *reached;
            result.samplesToTarget = run.xAt(*reached, XAxis::SamplesSeen);
            for (const QPointF& scale : run.series(wire(field::kNoiseScale))) {
                if (scale.x() > double(*reached))
                    break;
                result.noiseScaleAtTarget = measuredNoiseScale(scale.y());
            }
        }
    }
    return result;
}

StudyRunResult resultOf(const StudyPoint& point, const RunData& run, const StudySpec& spec)
{
    StudyRunResult result = resultOf(point, run, spec.target);
    if (!spec.curves.isEmpty())
        result.curve = run.series(spec.curves, XAxis::Epoch);
    return result;
}

QList<StudyRunResult> collectStudyResults(const StoredStudy& study, const RunStore& store, const QList<RunRecord>& runs)
{
    QList<StudyRunResult> results;
    const QHash<int, RunRecord> latest = StudyStore::latestRuns(study, runs);
    for (const StudyPoint& point : study.points) {
        const auto run = latest.constFind(point.index);
        if (run == latest.constEnd())
            continue;
        const QSharedPointer<RunData> data = store.loadRun(*run);
        results.append(resultOf(point, *data, study.spec));
    }
    return results;
}

}  // namespace ddplab::ui
