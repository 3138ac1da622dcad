// SPDX-License-Identifier: GPL-3.0-or-later
// advice.json, written and read back (docs/advisor.md, "What it answers (advice.json)": the field
// table): the one place its names are spelt.

#include "advice.hpp"

#include "client/library/preset_file.hpp"
#include "client/wire.hpp"
#include "core/config_validate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

QJsonValue number(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
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
const QString kCurve = QStringLiteral("curve");
const QString kPace = wire(protocol::field::kSamplesPerSec);

}  // namespace

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
        if (!run.curve.isEmpty() || run.samplesPerSecond > 0) {
            QJsonObject entry = runs.last().toObject();
            if (!run.curve.isEmpty())
                entry.insert(kCurve, pointsArray(run.curve));
            if (run.samplesPerSecond > 0)
                entry.insert(kPace, run.samplesPerSecond);
            runs[runs.size() - 1] = entry;
        }
    }
    QJsonArray verdicts;
    for (const BatchVerdict& v : batchVerdicts)
        verdicts.append(QJsonObject{{QStringLiteral("batch"), v.batch},
                                    {QStringLiteral("gpus"), v.gpus},
                                    {QStringLiteral("batch_per_gpu"), v.batchPerGpu},
                                    {wire(key::kLr), number(v.lr)},
                                    {QStringLiteral("orders"), v.orders},
                                    {kMeasure, number(v.mean)},
                                    {QStringLiteral("spread"), number(v.spread)},
                                    {QStringLiteral("difference"), number(v.difference)},
                                    {QStringLiteral("interval"), QJsonArray{number(v.low), number(v.high)}},
                                    {QStringLiteral("verdict"), callName(v.call)},
                                    {QStringLiteral("every_lr_diverged"), v.diverged},
                                    {QStringLiteral("yours"), v.yours}});
    const QJsonObject object{
        {QStringLiteral("model_name"), model},
        {QStringLiteral("data_name"), data},
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("max_batch_per_gpu"), mostBatchPerGpu},
        {QStringLiteral("batch_per_gpu"), batchPerGpu},
        {wire(key::kGradAccum), gradAccum},
        {wire(protocol::field::kEffectiveBatch), effectiveBatch},
        {wire(key::kLr), lr},
        {wire(key::kLrRule), lrRule},
        {QStringLiteral("lr_rule_lr"), number(ruleLr)},
        {QStringLiteral("lr_exponent"), number(lrExponent)},
        {QStringLiteral("lr_exponent_interval"), QJsonArray{number(lrExponentLow), number(lrExponentHigh)}},
        {wire(key::kWarmupSteps), warmupSteps},
        {wire(protocol::field::kNoiseScale), noise},
        {QStringLiteral("critical_batch"), QJsonObject{{kValue, number(criticalBatch)},
                                                       {QStringLiteral("at_least"), criticalBatchBeyond},
                                                       {QStringLiteral("tolerance"), branchTolerance}}},
        {QStringLiteral("batch_verdicts"), verdicts},
        {QStringLiteral("refinement_orders"), refinementOrders},
        {QStringLiteral("branch_samples"), branchSamples},
        {QStringLiteral("branch_horizon"), branchHorizon},
        {QStringLiteral("steps_to_match"), QJsonObject{{QStringLiteral("recommended"), stepsToMatch >= 0 ? QJsonValue(stepsToMatch) : QJsonValue()},
                                                       {QStringLiteral("base"), baseSteps}}},
        {QStringLiteral("objective"), objective},
        {kMeasure, measureName},
        {QStringLiteral("horizon_samples"), horizonSamples},
        {QStringLiteral("planned_samples"), plannedSamples},
        {wire(key::kSchedule), schedule},
        {QStringLiteral("lr_safe_range"), QJsonArray{safeLow, safeHigh}},
        {QStringLiteral("lr_lowest_mean"), number(lowestMeanLr)},
        {QStringLiteral("lr_within_noise_of_lowest"), QJsonArray{number(quietLow), number(quietHigh)}},
        {QStringLiteral("confidence"), QJsonObject{{QStringLiteral("level"), confidence},
                                                   {wire(protocol::field::kReason), confidenceReason},
                                                   {QStringLiteral("weaknesses"), QJsonArray::fromStringList(confidenceWeaknesses)},
                                                   {QStringLiteral("calibrated"), confidenceCalibrated}}},
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
    a.mostBatchPerGpu = json.value(QStringLiteral("max_batch_per_gpu")).toInteger();
    a.batchPerGpu = json.value(QStringLiteral("batch_per_gpu")).toInteger();
    a.gradAccum = json.value(wire(key::kGradAccum)).toInteger(1);
    a.effectiveBatch = json.value(wire(protocol::field::kEffectiveBatch)).toInteger();
    a.lr = numberOf(json.value(wire(key::kLr)));
    if (a.gpus < 1 || a.batchPerGpu < 1 || !(a.lr > 0)) {
        *error = QStringLiteral("its GPUs, batch per GPU or LR is not a positive number");
        return std::nullopt;
    }
    a.model = json.value(QStringLiteral("model_name")).toString();
    a.data = json.value(QStringLiteral("data_name")).toString();
    a.lrRule = json.value(wire(key::kLrRule)).toString();
    a.ruleLr = json.value(QStringLiteral("lr_rule_lr")).toDouble();
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
    for (const QJsonValue& item : json.value(QStringLiteral("batch_verdicts")).toArray()) {
        const QJsonObject v = item.toObject();
        BatchVerdict verdict;
        verdict.batch = v.value(QStringLiteral("batch")).toDouble();
        verdict.gpus = v.value(QStringLiteral("gpus")).toInt();
        verdict.batchPerGpu = v.value(QStringLiteral("batch_per_gpu")).toInteger();
        verdict.lr = numberOf(v.value(wire(key::kLr)));
        verdict.orders = v.value(QStringLiteral("orders")).toInt();
        verdict.mean = numberOf(v.value(kMeasure));
        verdict.spread = numberOf(v.value(QStringLiteral("spread")));
        verdict.difference = numberOf(v.value(QStringLiteral("difference")));
        const QList<double> interval = numbersOf(v.value(QStringLiteral("interval")));
        verdict.low = interval.size() == 2 ? interval[0] : std::nan("");
        verdict.high = interval.size() == 2 ? interval[1] : std::nan("");
        verdict.call = callOf(v.value(QStringLiteral("verdict")).toString());
        verdict.diverged = v.value(QStringLiteral("every_lr_diverged")).toBool();
        verdict.yours = v.value(QStringLiteral("yours")).toBool();
        a.batchVerdicts.append(verdict);
    }
    // An advice written before a batch smaller than yours was measured: yours is the first.
    if (!a.batchVerdicts.isEmpty() && std::none_of(a.batchVerdicts.begin(), a.batchVerdicts.end(), [](const BatchVerdict& v) { return v.yours; }))
        a.batchVerdicts.front().yours = true;
    a.refinementOrders = json.value(QStringLiteral("refinement_orders")).toInt();
    a.branchSamples = json.value(QStringLiteral("branch_samples")).toDouble();
    a.branchHorizon = json.value(QStringLiteral("branch_horizon")).toDouble();
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
    // Why the LR is not the lowest mean's: kept only when the run holds both LRs, else not known
    // (advice written before 2026-12-03, or a damaged file: the card and chart then say nothing of it).
    const double lowest = numberOf(json.value(QStringLiteral("lr_lowest_mean")));
    const QList<double> quiet = numbersOf(json.value(QStringLiteral("lr_within_noise_of_lowest")));
    if (lowest > 0 && std::isfinite(lowest) && quiet.size() == 2 && quiet[0] > 0 && quiet[0] <= std::min(lowest, a.lr) * (1 + 1e-9) &&
        std::isfinite(quiet[1]) && quiet[1] >= std::max(lowest, a.lr) * (1 - 1e-9)) {
        a.lowestMeanLr = lowest;
        a.quietLow = quiet[0];
        a.quietHigh = quiet[1];
    }
    const QJsonObject confidence = json.value(QStringLiteral("confidence")).toObject();
    a.confidence = confidence.value(QStringLiteral("level")).toString();
    a.confidenceReason = confidence.value(wire(protocol::field::kReason)).toString();
    a.confidenceWeaknesses = stringsOf(confidence.value(QStringLiteral("weaknesses")));
    a.confidenceCalibrated = confidence.value(QStringLiteral("calibrated")).toBool();
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
                           run.value(QStringLiteral("status")).toString(), pointsOf(run.value(kCurve)), run.value(kPace).toDouble()});
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

}  // namespace ddplab::ui
