#include "advice.hpp"

#include "client/wire.hpp"

#include <cmath>

namespace ddplab::ui {
namespace {

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QString figure(double value)
{
    return std::isfinite(value) ? QString::number(value, 'g', 4) : QStringLiteral("—");
}

}  // namespace

QJsonObject Advice::toJson() const
{
    QJsonArray noise;
    for (const QPointF& point : noiseScale)
        noise.append(QJsonObject{{wire(protocol::field::kSamples), point.x()}, {QStringLiteral("value"), number(point.y())}});
    QJsonArray runs;
    for (const AdviceEvidence& run : evidence) {
        runs.append(QJsonObject{{QStringLiteral("phase"), run.phase},
                                {QStringLiteral("run_id"), run.runId},
                                {QStringLiteral("label"), run.label},
                                {QStringLiteral("gpus"), run.gpus},
                                {QStringLiteral("batch_per_gpu"), run.batchPerGpu},
                                {wire(key::kLr), run.lr},
                                {wire(key::kSeed), run.seed},
                                {wire(protocol::field::kSamples), run.samples},
                                {QStringLiteral("measure"), number(run.measure)},
                                {QStringLiteral("status"), run.status}});
    }
    return QJsonObject{
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("batch_per_gpu"), batchPerGpu},
        {wire(key::kGradAccum), gradAccum},
        {QStringLiteral("effective_batch"), effectiveBatch},
        {wire(key::kLr), lr},
        {wire(key::kLrRule), lrRule},
        {QStringLiteral("lr_exponent"), number(lrExponent)},
        {QStringLiteral("lr_exponent_interval"), QJsonArray{number(lrExponentLow), number(lrExponentHigh)}},
        {wire(key::kWarmupSteps), warmupSteps},
        {wire(protocol::field::kNoiseScale), noise},
        {QStringLiteral("critical_batch"), QJsonObject{{QStringLiteral("value"), number(criticalBatch)},
                                                       {QStringLiteral("at_least"), criticalBatchBeyond},
                                                       {QStringLiteral("tolerance"), branchTolerance}}},
        {QStringLiteral("steps_to_match"), QJsonObject{{QStringLiteral("recommended"), stepsToMatch >= 0 ? QJsonValue(stepsToMatch) : QJsonValue()},
                                                       {QStringLiteral("base"), baseSteps}}},
        {QStringLiteral("objective"), objective},
        {QStringLiteral("measure"), measureName},
        {QStringLiteral("horizon_samples"), horizonSamples},
        {QStringLiteral("planned_samples"), plannedSamples},
        {wire(key::kSchedule), schedule},
        {QStringLiteral("lr_safe_range"), QJsonArray{safeLow, safeHigh}},
        {QStringLiteral("confidence"), QJsonObject{{QStringLiteral("level"), confidence}, {QStringLiteral("reason"), confidenceReason}}},
        {QStringLiteral("cautions"), QJsonArray::fromStringList(cautions)},
        {QStringLiteral("trimmed"), QJsonArray::fromStringList(trimmed)},
        {QStringLiteral("dont_scale"), dontScale},
        {QStringLiteral("evidence"), runs},
        {QStringLiteral("took_s"), tookSeconds},
    };
}

QString Advice::toMarkdown() const
{
    QStringList text;
    text << QStringLiteral("# Advice: %1 GPUs").arg(gpus) << QString();
    if (dontScale)
        text << QStringLiteral("**Don't scale this far.** %1 × the base's batch per GPU is past the measured critical batch (%2); "
                               "the recommendation below uses a smaller batch per GPU.")
                    .arg(gpus)
                    .arg(figure(criticalBatch))
             << QString();
    text << QStringLiteral("- **Batch per GPU** %1, gradient accumulation %2: an effective batch of %3")
                .arg(batchPerGpu)
                .arg(gradAccum)
                .arg(effectiveBatch);
    text << QStringLiteral("- **Learning rate** %1 (%2), safe from %3 to %4 (within 10 % of the best measure)")
                .arg(figure(lr), lrRule == QStringLiteral("measured") ? QStringLiteral("measured") : QStringLiteral("the %1 rule from the base").arg(lrRule),
                     figure(safeLow), figure(safeHigh));
    text << QStringLiteral("- **Warmup** %1 steps; schedule: %2").arg(warmupSteps).arg(schedule);
    text << QStringLiteral("- **Confidence** %1: %2").arg(confidence, confidenceReason) << QString();
    text << QStringLiteral("## Objective") << QString() << objective << QString();
    text << QStringLiteral("## Evidence") << QString();
    if (std::isfinite(lrExponentLow))
        text << QStringLiteral("- The best LR grows as batch^%1 (from %2 to %3 over the seeds measured).")
                    .arg(figure(lrExponent), figure(lrExponentLow), figure(lrExponentHigh));
    else
        text << QStringLiteral("- The best LR grows as batch^%1 over the branch test's batches (one seed each: its spread is not measured).")
                    .arg(figure(lrExponent));
    text << QStringLiteral("- Branch test: the largest batch within %1 % of the base batch's loss at equal samples is %2%3.")
                .arg(figure(100.0 * branchTolerance), figure(criticalBatch), criticalBatchBeyond ? QStringLiteral(" (at least: every branch stayed within)") : QString());
    if (!noiseScale.isEmpty())
        text << QStringLiteral("- The noise scale B_simple went from %1 to %2 over the base run (corroboration, not a decision).")
                    .arg(figure(noiseScale.first().y()), figure(noiseScale.last().y()));
    text << QStringLiteral("- Steps to reach the base run's %1: %2 at the recommendation, %3 for the base.")
                .arg(measureName)
                .arg(stepsToMatch >= 0 ? QString::number(stepsToMatch) : QStringLiteral("not reached in the horizon"))
                .arg(baseSteps);
    text << QStringLiteral("- Horizon: %1 samples measured (%2 planned).").arg(figure(horizonSamples), figure(plannedSamples)) << QString();
    if (!cautions.isEmpty()) {
        text << QStringLiteral("## Cautions") << QString();
        for (const QString& caution : cautions)
            text << QStringLiteral("- ") + caution;
        text << QString();
    }
    if (!trimmed.isEmpty()) {
        text << QStringLiteral("## Trimmed to fit the time budget") << QString();
        for (const QString& cut : trimmed)
            text << QStringLiteral("- ") + cut;
        text << QString();
    }
    text << QStringLiteral("## Runs") << QString() << QStringLiteral("| phase | run | measure | status |") << QStringLiteral("|---|---|---|---|");
    for (const AdviceEvidence& run : evidence)
        text << QStringLiteral("| %1 | %2 | %3 | %4 |").arg(run.phase, run.label, figure(run.measure), run.status);
    text << QString() << QStringLiteral("Took %1 s.").arg(qRound(tookSeconds)) << QString();
    if (!snippet.isEmpty())
        text << QStringLiteral("## Your script") << QString() << QStringLiteral("```python") << snippet.trimmed() << QStringLiteral("```") << QString();
    return text.join(QLatin1Char('\n'));
}

}  // namespace ddplab::ui
