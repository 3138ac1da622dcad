// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice.hpp"

#include "adam_moments.hpp"
#include "client/library/preset_file.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/wire.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"

#include <cmath>
#include <limits>

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

// A number advice.json may hold as null (not measured): NaN back.
double numberOf(const QJsonValue& value)
{
    return value.isDouble() ? value.toDouble() : std::nan("");
}

QJsonArray numbers(const QList<double>& values)
{
    QJsonArray array;
    for (double value : values)
        array.append(number(value));
    return array;
}

QList<double> numbersOf(const QJsonValue& value)
{
    QList<double> values;
    for (const QJsonValue& item : value.toArray())
        values.append(numberOf(item));
    return values;
}

QJsonArray pointsArray(const QList<QPointF>& points)
{
    QJsonArray array;
    for (const QPointF& point : points)
        array.append(QJsonArray{number(point.x()), number(point.y())});
    return array;
}

QList<QPointF> pointsOf(const QJsonValue& value)
{
    QList<QPointF> points;
    for (const QJsonValue& item : value.toArray()) {
        const QJsonArray pair = item.toArray();
        if (pair.size() == 2)
            points.append({numberOf(pair[0]), numberOf(pair[1])});
    }
    return points;
}

QStringList stringsOf(const QJsonValue& value)
{
    QStringList strings;
    for (const QJsonValue& item : value.toArray())
        strings.append(item.toString());
    return strings;
}

// advice.json's names that are neither a protocol field nor a key.
const QString kValue = QStringLiteral("value");
const QString kMeasure = QStringLiteral("measure");
const QString kBetasRule = QStringLiteral("betas_rule");

}  // namespace

QString criticalBatchWords(const Advice& a)
{
    QStringList words;
    words << QStringLiteral("The branch test puts the critical batch %1%2 (within %3 % of the base batch's loss).")
                 .arg(a.criticalBatchBeyond ? QStringLiteral("at or above ") : QString(), figure(a.criticalBatch), figure(100.0 * a.branchTolerance));
    const StepsToTarget& f = a.stepsFit;
    if (f.ok)
        words << QStringLiteral("McCandlish's fit of the steps to reach %1 (S = S_min (1 + B_crit/B), S_min %2 steps) gives B_crit %3 over batches %4 to %5%6")
                     .arg(figure(f.target), figure(f.fit.sMin), figure(f.fit.bCrit), figure(f.smallestBatch), figure(f.largestBatch))
                     .arg(f.doubts.isEmpty() ? QStringLiteral(", and nothing argues against it.") : QStringLiteral(", but it cannot be trusted: ") + f.doubts.join(QLatin1Char(' ')));
    else if (!f.doubts.isEmpty())
        words << QStringLiteral("McCandlish's fit was not made: ") + f.doubts.join(QLatin1Char(' '));
    if (!a.noiseScale.isEmpty() && std::isfinite(a.noiseScale.last().y()))
        words << QStringLiteral("The simple noise scale B_simple read %1 at the end of the base run (a lower bound in McCandlish's model, corroboration only).")
                     .arg(figure(a.noiseScale.last().y()));
    return words.join(QLatin1Char(' '));
}

void putRecommendation(Advice& a, const ddplab::Config& base)
{
    ddplab::Config& r = a.recommended;
    r = base;
    r.worldSize = a.gpus;
    r.batchSize = a.batchPerGpu;
    r.gradAccum = 1;
    r.accumulateAsRanks = false;
    r.lr = a.lr;
    r.lrRule = LrRule::None;
    r.baseBatchSize.reset();
    r.schedule = ScheduleKind::Constant;
    if (a.warmup.helped) {
        r.warmupSteps = a.warmupSteps;
        r.warmupEpochs = 0.0;
        r.warmupStartFactor = a.warmup.startFactor;
    }
    a.betasRule.clear();
    if (usesMoments(base)) {
        // The rule from the base's batch to the recommended one, as the engine would apply it,
        // and as the advisor's runs at that batch used it.
        const AdamSettings baseMoments = appliedAdamSettings(base);
        const ScaledMoments scaled = sdeMomentsAt(base, r);
        r.beta1 = scaled.settings.beta1;
        r.beta2 = scaled.settings.beta2;
        r.eps = scaled.settings.eps;
        if (scaled.refusal.isEmpty()) {
            a.betasRule = wire(choice::lr_rule::kSde);
            a.cautions.append(QStringLiteral("beta1, beta2 and eps were scaled from yours (%1, %2, %3) by the SDE rule (Malladi et al. 2022) at k = %4: "
                                             "1 - beta by k, eps by 1/sqrt(k), to %5, %6, %7. They come from the rule, not from their own "
                                             "measurement: the advisor's runs at each batch used the rule's values for it, so the LR was "
                                             "confirmed with these.")
                                  .arg(figure(baseMoments.beta1), figure(baseMoments.beta2), QString::number(baseMoments.eps, 'g', 3), figure(scaled.k),
                                       QString::number(r.beta1, 'g', 6), QString::number(r.beta2, 'g', 6), QString::number(r.eps, 'g', 3)));
        } else {
            a.betasRule = wire(choice::lr_rule::kNone);
            a.cautions.append(QStringLiteral("beta1, beta2 and eps were kept at yours (%1, %2, %3), not scaled: %4.")
                                  .arg(figure(r.beta1), figure(r.beta2), QString::number(r.eps, 'g', 3), scaled.refusal));
        }
        a.beta1 = r.beta1;
        a.beta2 = r.beta2;
        a.eps = r.eps;
    }
    const PyTorchScript script = pytorchScriptOf(presetFromCoreConfig(r), QStringLiteral("the advisor's recommendation"));
    a.snippet = script.isWritten() ? script.text + QStringLiteral("\n# run it: ") + torchrunCommand(a.gpus, QStringLiteral("train_ddp.py")) + QLatin1Char('\n')
                                   : QStringLiteral("# no script: ") + script.error + QLatin1Char('\n');
}

QJsonObject Advice::toJson() const
{
    QJsonArray noise;
    for (const QPointF& point : noiseScale)
        noise.append(QJsonObject{{wire(protocol::field::kSamples), point.x()}, {kValue, number(point.y())}});
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
                                {kMeasure, number(run.measure)},
                                {QStringLiteral("status"), run.status}});
    }
    const QJsonObject object{
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("batch_per_gpu"), batchPerGpu},
        {wire(key::kGradAccum), gradAccum},
        {wire(protocol::field::kEffectiveBatch), effectiveBatch},
        {wire(key::kLr), lr},
        {wire(key::kLrRule), lrRule},
        {QStringLiteral("lr_exponent"), number(lrExponent)},
        {QStringLiteral("lr_exponent_interval"), QJsonArray{number(lrExponentLow), number(lrExponentHigh)}},
        {wire(key::kWarmupSteps), warmupSteps},
        {wire(protocol::field::kNoiseScale), noise},
        {QStringLiteral("critical_batch"), QJsonObject{{kValue, number(criticalBatch)},
                                                       {QStringLiteral("at_least"), criticalBatchBeyond},
                                                       {QStringLiteral("tolerance"), branchTolerance}}},
        {QStringLiteral("steps_to_match"), QJsonObject{{QStringLiteral("recommended"), stepsToMatch >= 0 ? QJsonValue(stepsToMatch) : QJsonValue()},
                                                       {QStringLiteral("base"), baseSteps}}},
        {QStringLiteral("objective"), objective},
        {kMeasure, measureName},
        {QStringLiteral("horizon_samples"), horizonSamples},
        {QStringLiteral("planned_samples"), plannedSamples},
        {wire(key::kSchedule), schedule},
        {QStringLiteral("lr_safe_range"), QJsonArray{safeLow, safeHigh}},
        {QStringLiteral("confidence"), QJsonObject{{QStringLiteral("level"), confidence}, {wire(protocol::field::kReason), confidenceReason}}},
        {QStringLiteral("cautions"), QJsonArray::fromStringList(cautions)},
        {QStringLiteral("trimmed"), QJsonArray::fromStringList(trimmed)},
        {QStringLiteral("dont_scale"), dontScale},
        {QStringLiteral("evidence"), runs},
        {QStringLiteral("took_s"), tookSeconds},
    };
    QJsonObject json = object;
    json.insert(QStringLiteral("lr_exponent_rules"), QJsonArray::fromStringList(lrExponentRules));
    QJsonArray optima;
    for (const BatchOptimum& optimum : lrOptima)
        optima.append(QJsonObject{{QStringLiteral("batch"), optimum.batch}, {wire(key::kLr), number(optimum.bestLr)},
                                  {QStringLiteral("per_seed"), numbers(optimum.bestLrPerSeed)}});
    json.insert(QStringLiteral("lr_optima"), optima);
    json.insert(QStringLiteral("branch_seeds"), branchSeeds);
    json.insert(QStringLiteral("warmup"), QJsonObject{{QStringLiteral("tested"), warmup.tested},
                                                      {wire(protocol::field::kSteps), warmup.steps},
                                                      {wire(key::kWarmupStartFactor), warmup.startFactor},
                                                      {QStringLiteral("lrs"), numbers(warmup.lrs)},
                                                      {QStringLiteral("lr_with"), number(warmup.lrWith)},
                                                      {QStringLiteral("measure_with"), number(warmup.measureWith)},
                                                      {QStringLiteral("error_with"), number(warmup.errorWith)},
                                                      {QStringLiteral("lr_without"), number(warmup.lrWithout)},
                                                      {QStringLiteral("measure_without"), number(warmup.measureWithout)},
                                                      {QStringLiteral("error_without"), number(warmup.errorWithout)},
                                                      {QStringLiteral("helped"), warmup.helped},
                                                      {QStringLiteral("verdict"), warmup.verdict}});
    QJsonArray ranges;
    for (const RangeCurve& range : rangeTests)
        ranges.append(QJsonObject{{QStringLiteral("batch"), range.batch}, {QStringLiteral("runaway_lr"), number(range.runawayLr)},
                                  {wire(protocol::field::kPoints), pointsArray(range.points)}});
    json.insert(QStringLiteral("range_tests"), ranges);
    QJsonObject critical = json.value(QStringLiteral("critical_batch")).toObject();
    critical.insert(QStringLiteral("fit"), QJsonObject{{QStringLiteral("made"), stepsFit.ok},
                                                       {QStringLiteral("b_crit"), stepsFit.ok ? number(stepsFit.fit.bCrit) : QJsonValue()},
                                                       {QStringLiteral("s_min"), stepsFit.ok ? number(stepsFit.fit.sMin) : QJsonValue()},
                                                       {QStringLiteral("rms_log_error"), stepsFit.ok ? number(stepsFit.fit.rmsLogError) : QJsonValue()},
                                                       {QStringLiteral("target"), number(stepsFit.target)},
                                                       {QStringLiteral("batches"), QJsonArray{stepsFit.smallestBatch, stepsFit.largestBatch}},
                                                       {wire(protocol::field::kPoints), pointsArray(stepsFit.points)},
                                                       {QStringLiteral("trusted"), stepsFit.ok && stepsFit.doubts.isEmpty()},
                                                       {QStringLiteral("doubts"), QJsonArray::fromStringList(stepsFit.doubts)}});
    critical.insert(QStringLiteral("noise_scale_last"), noiseScale.isEmpty() ? QJsonValue() : number(noiseScale.last().y()));
    critical.insert(QStringLiteral("finding"), criticalBatchFinding);
    json.insert(QStringLiteral("critical_batch"), critical);
    json.insert(QStringLiteral("goodput"), goodput ? QJsonValue(goodputJson(*goodput)) : QJsonValue());
    json.insert(QStringLiteral("recommended_settings"), presetFromCoreConfig(recommended));
    json.insert(QStringLiteral("snippet"), snippet);
    if (!betasRule.isEmpty()) {
        json.insert(wire(key::kBeta1), beta1);
        json.insert(wire(key::kBeta2), beta2);
        json.insert(wire(key::kEps), eps);
        json.insert(kBetasRule, betasRule);
    }
    return json;
}

std::optional<Advice> Advice::fromJson(const QJsonObject& json, QString* error)
{
    // The fields without which it is no advice; the rest are read as far as they are there.
    for (const QString& field : QStringList{QStringLiteral("gpus"), QStringLiteral("batch_per_gpu"), wire(key::kLr), QStringLiteral("evidence")}) {
        if (!json.contains(field)) {
            *error = QStringLiteral("it has no \"%1\"").arg(field);
            return std::nullopt;
        }
    }
    Advice a;
    a.gpus = json.value(QStringLiteral("gpus")).toInt();
    a.batchPerGpu = json.value(QStringLiteral("batch_per_gpu")).toInteger();
    a.gradAccum = json.value(wire(key::kGradAccum)).toInteger(1);
    a.effectiveBatch = json.value(wire(protocol::field::kEffectiveBatch)).toInteger();
    a.lr = numberOf(json.value(wire(key::kLr)));
    if (a.gpus < 1 || a.batchPerGpu < 1 || !(a.lr > 0)) {
        *error = QStringLiteral("its GPUs, batch per GPU or LR is not a positive number");
        return std::nullopt;
    }
    a.lrRule = json.value(wire(key::kLrRule)).toString();
    a.lrExponent = numberOf(json.value(QStringLiteral("lr_exponent")));
    const QList<double> interval = numbersOf(json.value(QStringLiteral("lr_exponent_interval")));
    a.lrExponentLow = interval.size() == 2 ? interval[0] : std::nan("");
    a.lrExponentHigh = interval.size() == 2 ? interval[1] : std::nan("");
    a.lrExponentRules = stringsOf(json.value(QStringLiteral("lr_exponent_rules")));
    for (const QJsonValue& item : json.value(QStringLiteral("lr_optima")).toArray()) {
        const QJsonObject optimum = item.toObject();
        a.lrOptima.append({optimum.value(QStringLiteral("batch")).toDouble(), numberOf(optimum.value(wire(key::kLr))),
                           numbersOf(optimum.value(QStringLiteral("per_seed")))});
    }
    a.branchSeeds = json.value(QStringLiteral("branch_seeds")).toInt(1);
    const QJsonObject warmup = json.value(QStringLiteral("warmup")).toObject();
    a.warmup.tested = warmup.value(QStringLiteral("tested")).toBool();
    a.warmup.steps = warmup.value(wire(protocol::field::kSteps)).toInteger();
    a.warmup.startFactor = warmup.value(wire(key::kWarmupStartFactor)).toDouble();
    a.warmup.lrs = numbersOf(warmup.value(QStringLiteral("lrs")));
    a.warmup.lrWith = numberOf(warmup.value(QStringLiteral("lr_with")));
    a.warmup.measureWith = numberOf(warmup.value(QStringLiteral("measure_with")));
    a.warmup.errorWith = numberOf(warmup.value(QStringLiteral("error_with")));
    a.warmup.lrWithout = numberOf(warmup.value(QStringLiteral("lr_without")));
    a.warmup.measureWithout = numberOf(warmup.value(QStringLiteral("measure_without")));
    a.warmup.errorWithout = numberOf(warmup.value(QStringLiteral("error_without")));
    a.warmup.helped = warmup.value(QStringLiteral("helped")).toBool();
    a.warmup.verdict = warmup.value(QStringLiteral("verdict")).toString();
    for (const QJsonValue& item : json.value(QStringLiteral("range_tests")).toArray()) {
        const QJsonObject range = item.toObject();
        a.rangeTests.append({range.value(QStringLiteral("batch")).toDouble(), range.value(QStringLiteral("runaway_lr")).toDouble(),
                             pointsOf(range.value(wire(protocol::field::kPoints)))});
    }
    a.warmupSteps = json.value(wire(key::kWarmupSteps)).toInteger();
    a.goodput = goodputFromJson(json.value(QStringLiteral("goodput")));
    for (const QJsonValue& item : json.value(wire(protocol::field::kNoiseScale)).toArray()) {
        const QJsonObject point = item.toObject();
        a.noiseScale.append({point.value(wire(protocol::field::kSamples)).toDouble(), numberOf(point.value(kValue))});
    }
    const QJsonObject critical = json.value(QStringLiteral("critical_batch")).toObject();
    a.criticalBatch = numberOf(critical.value(kValue));
    a.criticalBatchBeyond = critical.value(QStringLiteral("at_least")).toBool();
    a.branchTolerance = critical.value(QStringLiteral("tolerance")).toDouble();
    a.criticalBatchFinding = critical.value(QStringLiteral("finding")).toString();
    const QJsonObject fit = critical.value(QStringLiteral("fit")).toObject();
    a.stepsFit.ok = fit.value(QStringLiteral("made")).toBool();
    a.stepsFit.fit.ok = a.stepsFit.ok;
    a.stepsFit.fit.bCrit = numberOf(fit.value(QStringLiteral("b_crit")));
    a.stepsFit.fit.sMin = numberOf(fit.value(QStringLiteral("s_min")));
    a.stepsFit.fit.rmsLogError = numberOf(fit.value(QStringLiteral("rms_log_error")));
    a.stepsFit.target = numberOf(fit.value(QStringLiteral("target")));
    const QList<double> batches = numbersOf(fit.value(QStringLiteral("batches")));
    if (batches.size() == 2) {
        a.stepsFit.smallestBatch = batches[0];
        a.stepsFit.largestBatch = batches[1];
    }
    a.stepsFit.points = pointsOf(fit.value(wire(protocol::field::kPoints)));
    a.stepsFit.doubts = stringsOf(fit.value(QStringLiteral("doubts")));
    const QJsonObject steps = json.value(QStringLiteral("steps_to_match")).toObject();
    a.stepsToMatch = steps.value(QStringLiteral("recommended")).toInteger(-1);
    a.baseSteps = steps.value(QStringLiteral("base")).toInteger();
    a.objective = json.value(QStringLiteral("objective")).toString();
    a.measureName = json.value(kMeasure).toString();
    a.horizonSamples = json.value(QStringLiteral("horizon_samples")).toDouble();
    a.plannedSamples = json.value(QStringLiteral("planned_samples")).toDouble();
    a.schedule = json.value(wire(key::kSchedule)).toString();
    const QList<double> safe = numbersOf(json.value(QStringLiteral("lr_safe_range")));
    if (safe.size() == 2) {
        a.safeLow = safe[0];
        a.safeHigh = safe[1];
    }
    const QJsonObject confidence = json.value(QStringLiteral("confidence")).toObject();
    a.confidence = confidence.value(QStringLiteral("level")).toString();
    a.confidenceReason = confidence.value(wire(protocol::field::kReason)).toString();
    a.cautions = stringsOf(json.value(QStringLiteral("cautions")));
    a.trimmed = stringsOf(json.value(QStringLiteral("trimmed")));
    a.dontScale = json.value(QStringLiteral("dont_scale")).toBool();
    for (const QJsonValue& item : json.value(QStringLiteral("evidence")).toArray()) {
        const QJsonObject run = item.toObject();
        a.evidence.append({run.value(QStringLiteral("phase")).toString(), run.value(QStringLiteral("run_id")).toString(),
                           run.value(QStringLiteral("label")).toString(), run.value(QStringLiteral("gpus")).toInt(),
                           run.value(QStringLiteral("batch_per_gpu")).toInteger(), run.value(wire(key::kLr)).toDouble(),
                           run.value(wire(key::kSeed)).toInteger(), run.value(wire(protocol::field::kSamples)).toDouble(),
                           run.value(kMeasure).isDouble() ? run.value(kMeasure).toDouble() : std::numeric_limits<double>::infinity(),
                           run.value(QStringLiteral("status")).toString()});
    }
    a.tookSeconds = json.value(QStringLiteral("took_s")).toDouble();
    if (const QJsonObject settings = json.value(QStringLiteral("recommended_settings")).toObject(); !settings.isEmpty()) {
        QString problem;
        if (const std::optional<ddplab::Config> config = coreConfigOf(settings, &problem))
            a.recommended = *config;
    }
    a.snippet = json.value(QStringLiteral("snippet")).toString();
    if (json.contains(kBetasRule)) {
        a.betasRule = json.value(kBetasRule).toString();
        a.beta1 = json.value(wire(key::kBeta1)).toDouble();
        a.beta2 = json.value(wire(key::kBeta2)).toDouble();
        a.eps = json.value(wire(key::kEps)).toDouble();
    }
    return a;
}

QString speedWords(const Advice& a)
{
    if (!a.goodput)
        return QStringLiteral("not chosen by speed: the runs were timed on this computer's CPU, and its times do not transfer to your GPUs (give "
                              "Setup's Run on a host with them, and the advisor times each batch per GPU there)");
    return QStringLiteral("timed on %1: %2.").arg(a.goodput->timedOn, a.goodput->verdict);
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
    if (!betasRule.isEmpty())
        text << QStringLiteral("- **beta1** %1, **beta2** %2, **eps** %3 (%4)")
                    .arg(QString::number(beta1, 'g', 6), QString::number(beta2, 'g', 6), QString::number(eps, 'g', 3),
                         betasRule == wire(choice::lr_rule::kSde) ? QStringLiteral("scaled from yours by the SDE rule; the LR was confirmed with them") : QStringLiteral("yours, not scaled"));
    text << QStringLiteral("- **Confidence** %1: %2").arg(confidence, confidenceReason) << QString();
    text << QStringLiteral("## Objective") << QString() << objective << QString();
    text << QStringLiteral("## Evidence") << QString();
    if (std::isfinite(lrExponentLow))
        text << QStringLiteral("- The best LR grows as batch^%1 (from %2 to %3 over the branch test's %4 data orders, each fitted alone)%5.")
                    .arg(figure(lrExponent), figure(lrExponentLow), figure(lrExponentHigh))
                    .arg(branchSeeds)
                    .arg(lrExponentRules.isEmpty() ? QStringLiteral(": neither the linear nor the square-root rule lies within")
                                                   : QStringLiteral(": within it, the %1 rule").arg(lrExponentRules.join(QStringLiteral(" and the "))));
    else
        text << QStringLiteral("- The best LR grows as batch^%1 over the branch test's batches (one data order: its spread is not measured).")
                    .arg(figure(lrExponent));
    text << QStringLiteral("- Critical batch: ") + (criticalBatchFinding.isEmpty() ? criticalBatchWords(*this) : criticalBatchFinding);
    if (!warmup.verdict.isEmpty())
        text << QStringLiteral("- Warmup: ") + warmup.verdict;
    if (!noiseScale.isEmpty())
        text << QStringLiteral("- The noise scale B_simple went from %1 to %2 over the base run (corroboration, not a decision).")
                    .arg(figure(noiseScale.first().y()), figure(noiseScale.last().y()));
    text << QStringLiteral("- Speed: ") + speedWords(*this);
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
