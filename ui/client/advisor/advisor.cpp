#include "advisor.hpp"

#include "batch_evidence.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_status.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/series/x_axis.hpp"
#include "client/session/lab_session.hpp"
#include "client/wire.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"
#include "lr_bracket.hpp"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr qint64 kMaxBaseSteps = 200;       // the base run's length at most: it sizes, it does not decide
constexpr qint64 kLargestBranchSteps = 50;  // Merrill et al.: the largest branch makes at least this many steps
constexpr qint64 kFewestBranchSteps = 20;   // below this a branch says nothing
constexpr qint64 kFewestConfirmationSteps = 20;
constexpr qint64 kRangeTestSteps = 60;
constexpr double kRunOverheadSeconds = 1.0;  // a run's own start and end (fork, data, events)
constexpr int kSeeds = 2;
constexpr int kLadder = 5;
constexpr qint64 kShortHorizonSteps = 200;

QString gpuCount(int gpus)
{
    return gpus == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus);
}

QString lrText(double lr)
{
    return QString::number(lr, 'g', 3);
}

// The rule that gives `lr` from the base's LR at k times its batch, within 20 %, else "measured".
QString ruleOf(double lr, double baseLr, double k)
{
    const auto near = [&](double target) { return std::abs(std::log(lr / target)) <= std::log(1.2); };
    if (near(baseLr * k))
        return wire(choice::lr_rule::kLinear);
    if (near(baseLr * std::sqrt(k)))
        return wire(choice::lr_rule::kSqrt);
    if (near(baseLr))
        return wire(choice::lr_rule::kNone);
    return QStringLiteral("measured");
}

bool hasValidation(const ddplab::Config& c)
{
    return c.workload == WorkloadKind::FashionMnist || (c.workload == WorkloadKind::TorchScript && !c.valData.empty());
}

}  // namespace

QString adviceRequestProblem(const AdviceRequest& r)
{
    if (r.gpus < 1 || r.gpus > 4096)
        return QStringLiteral("--gpus must be from 1 to 4096 (got %1)").arg(r.gpus);
    if (r.budgetSeconds < 10)
        return QStringLiteral("--budget-min must be at least 0.2 (10 seconds) (got %1 s)").arg(r.budgetSeconds);
    if (r.maxBatchPerGpu < 0)
        return QStringLiteral("--max-batch-per-gpu must be at least 1 (got %1)").arg(r.maxBatchPerGpu);
    if (r.base.lrRangeTest || !r.base.resumeFrom.empty())
        return QStringLiteral("the settings to advise on are a range test or a resumed run; start from settings that train well");
    const ConfigProblems problems = findProblems(r.base);
    if (!problems.empty())
        return QStringLiteral("the settings to advise on are refused: %1").arg(QString::fromStdString(problems.front().message));
    return {};
}

Advisor::Advisor(LabSession& session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(&m_session, &LabSession::sequenceFinished, this, [this](bool) {
        if (isRunning())
            onSequenceFinished();
    });
}

ddplab::Config Advisor::emulated(int gpus, qint64 batch, double lr, qint64 seed) const
{
    ddplab::Config c = m_request.base;
    // This machine's ranks stand for the GPUs: two when they split evenly, each running
    // gpus / 2 GPUs' batches as micro-batches (accumulate_as_ranks: exactly what they compute).
    c.worldSize = gpus % 2 == 0 ? 2 : 1;
    c.gradAccum = gpus / c.worldSize;
    c.accumulateAsRanks = c.gradAccum > 1;
    c.batchSize = batch;
    c.lr = lr;
    c.lrRule = LrRule::None;
    c.baseBatchSize.reset();
    c.warmupStartFactor = warmupStartFactor(m_request.base);
    c.seed = seed;
    c.stopAtLoss.reset();
    c.checkpointAt = {};
    c.checkpointDir.clear();
    c.resumeFrom.clear();
    c.lrRangeTest = false;
    c.saveModel.clear();
    c.events.clear();
    c.failAt.reset();
    return c;
}

double Advisor::measureOf(const RunData& run) const
{
    const QJsonObject& summary = run.summary();
    if (summary.isEmpty())
        return kInfinity;
    const QString field = hasValidation(m_request.base) ? wire(protocol::field::kValLoss) : wire(protocol::field::kTrainLoss);
    const QJsonValue value = summary.value(field);
    return value.isDouble() && std::isfinite(value.toDouble()) ? value.toDouble() : kInfinity;
}

double Advisor::secondsPerSample() const
{
    return m_baseSecondsPerSample > 0 ? m_baseSecondsPerSample : 1e-4;
}

bool Advisor::start(const AdviceRequest& request)
{
    m_problem = adviceRequestProblem(request);
    if (m_problem.isEmpty() && m_session.isRunning())
        m_problem = QStringLiteral("something else is running; the advisor starts once it has ended");
    if (!m_problem.isEmpty())
        return false;
    m_request = request;
    m_advice = Advice();
    m_done.clear();
    m_extended = false;
    m_failedRuns = 0;
    m_runsFinished = 0;
    m_clock.start();
    const ddplab::Config& base = request.base;
    m_baseGpus = int(base.worldSize * base.gradAccum);
    m_baseBatch = effectiveBatchSize(base);
    m_baseLr = effectiveLr(base);
    m_advice.gpus = request.gpus;
    m_advice.measureName = hasValidation(base) ? QStringLiteral("validation loss") : QStringLiteral("training loss (noise-free)");
    m_advice.plannedSamples = double(totalSteps(base)) * double(m_baseBatch);

    // The base run: the user's settings on N GPUs emulated by ranks x accumulation, cut to
    // what sizes the rest; a checkpoint halfway is where the branches start.
    const qint64 steps = std::clamp<qint64>(totalSteps(base), 2, kMaxBaseSteps);
    m_checkpointStep = std::max<qint64>(1, steps / 2);
    PlannedRun run{QStringLiteral("base"), m_baseGpus, base.batchSize, m_baseLr, base.seed,
                   emulated(m_baseGpus, base.batchSize, m_baseLr, base.seed)};
    run.config.maxSteps = steps;
    run.config.epochs = base.epochs;
    run.config.schedule = base.schedule;
    run.config.warmupSteps = base.warmupSteps;
    run.config.warmupEpochs = base.warmupEpochs;
    run.config.checkpointAt.steps = {m_checkpointStep};
    run.config.checkpointDir = request.checkpointFolder.toStdString();
    run.config.evalEvery = std::max<qint64>(1, steps / 20);
    m_runsInPlan = 1;
    runPhase(Phase::Base, {run});
    return true;
}

void Advisor::stop()
{
    if (isRunning()) {
        m_phase = Phase::Done;
        m_session.stop();
        emit finished(false);
    }
}

void Advisor::runPhase(Phase phase, const QList<PlannedRun>& runs)
{
    m_phase = phase;
    m_planned = runs;
    QList<RunRequest> requests;
    for (const PlannedRun& run : runs) {
        RunRequest request;
        request.name = QStringLiteral("advice %1").arg(run.phase);
        request.label = QStringLiteral("%1 · %2 × %3 · lr %4 · seed %5").arg(run.phase, gpuCount(run.gpus)).arg(run.batch).arg(lrText(run.lr)).arg(run.seed);
        request.config = run.config;
        requests.append(request);
    }
    emit logMessage(QStringLiteral("Advisor: %1 (%2 runs)").arg(progressText()).arg(runs.size()), false);
    m_session.start(requests);
    emit progressed();
}

void Advisor::fail(const QString& why)
{
    m_problem = why;
    m_phase = Phase::Done;
    emit logMessage(QStringLiteral("Advisor: ") + why, true);
    emit finished(false);
}

void Advisor::onSequenceFinished()
{
    const QList<QSharedPointer<RunData>>& runs = m_session.runs();
    if (runs.size() != m_planned.size())
        return fail(QStringLiteral("the runs were stopped before the advice was complete"));
    for (qsizetype i = 0; i < runs.size(); ++i) {
        m_done.append({m_planned[i], runs[i]});
        ++m_runsFinished;
        const double measure = measureOf(*runs[i]);
        if (!std::isfinite(measure) && m_planned[i].phase != QStringLiteral("range test"))  // a range test ends diverged by design
            ++m_failedRuns;
        m_advice.evidence.append({m_planned[i].phase, runs[i]->id(), runs[i]->label(), m_planned[i].gpus, m_planned[i].batch,
                                  m_planned[i].lr, m_planned[i].seed, runs[i]->summary().value(wire(protocol::field::kSamples)).toDouble(),
                                  measure, statusText(runs[i]->record().status)});
    }
    emit progressed();
    switch (m_phase) {
    case Phase::Base: {
        const RunData& base = *runs.front();
        const double measure = measureOf(base);
        if (!std::isfinite(measure))
            return fail(QStringLiteral("the base run (your settings on %1) did not finish: %2")
                            .arg(gpuCount(m_baseGpus))
                            .arg(base.record().error.isEmpty() ? statusText(base.record().status) : base.record().error));
        const double trainSeconds = base.summary().value(wire(protocol::field::kTrainS)).toDouble();
        const double samples = base.summary().value(wire(protocol::field::kSamples)).toDouble();
        m_baseSecondsPerSample = samples > 0 ? trainSeconds / samples : 0.0;
        for (const QJsonObject& checkpoint : base.checkpoints())
            m_checkpoint = checkpoint.value(wire(protocol::field::kPath)).toString();
        if (m_checkpoint.isEmpty())
            return fail(QStringLiteral("the base run wrote no checkpoint to branch from"));
        m_advice.noiseScale = base.series(wire(protocol::field::kNoiseScale), XAxis::SamplesSeen);
        m_advice.baseSteps = base.lastStep();
        return planBranches();
    }
    case Phase::Branches: {
        // The range test bounds the confirmation's LRs; the branches give the critical batch.
        for (const auto& [planned, run] : m_done) {
            if (planned.phase != QStringLiteral("range test"))
                continue;
            const QJsonArray points = run->rangeTest().value(wire(protocol::field::kPoints)).toArray();
            if (!points.isEmpty())
                m_divergenceLr = points.last().toObject().value(wire(protocol::field::kLr)).toDouble();
        }
        for (const auto& [planned, run] : m_done) {
            if (planned.phase == QStringLiteral("noise scale"))
                m_advice.noiseScale = run->series(wire(protocol::field::kNoiseScale), XAxis::SamplesSeen);
        }
        QList<BranchResult> branches;
        QList<BatchOptimum> optima;
        double repeat = kInfinity, sameLrBase = kInfinity, baseCenter = 0.0;
        QMap<qint64, QList<BracketPoint>> byBatch;
        for (const auto& [planned, run] : m_done) {
            const qint64 batch = qint64(planned.gpus) * planned.batch;
            if (planned.phase == QStringLiteral("branch"))
                byBatch[batch].append(BracketPoint{planned.lr, {measureOf(*run)}});
            if (planned.phase == QStringLiteral("branch repeat")) {
                repeat = measureOf(*run);
                baseCenter = planned.lr;
            }
        }
        for (auto it = byBatch.begin(); it != byBatch.end(); ++it) {
            double best = kInfinity;
            for (const BracketPoint& point : it.value()) {
                best = std::min(best, point.measures.front());
                if (it.key() == m_baseBatch && point.lr == baseCenter)
                    sameLrBase = point.measures.front();
            }
            branches.append({double(it.key()), best});
            const BracketOptimum optimum = findBracketOptimum(it.value());
            if (optimum.ok)
                optima.append({double(it.key()), optimum.bestLr, {optimum.measuredBestLr}});
        }
        if (branches.isEmpty() || !std::isfinite(branches.front().measure))
            return fail(QStringLiteral("every branch at the base batch diverged or failed: the base run's LR does not train from its checkpoint"));
        // The tolerance compares the base batch with itself at one LR and two data orders.
        const double ownRepeat = std::isfinite(sameLrBase) && std::isfinite(repeat) ? branches.front().measure * repeat / sameLrBase : repeat;
        const CriticalBatchEstimate critical = criticalBatchFromBranches(branches, ownRepeat);
        m_advice.criticalBatch = critical.criticalBatch;
        m_advice.criticalBatchBeyond = critical.beyondLargest;
        m_advice.branchTolerance = critical.tolerance;
        const LrExponent exponent = fitLrExponent(optima);
        m_advice.lrExponent = exponent.ok ? exponent.exponent : std::nan("");
        m_advice.lrExponentLow = exponent.ok ? exponent.low : std::nan("");
        m_advice.lrExponentHigh = exponent.ok ? exponent.high : std::nan("");

        // The batch: N x the base's batch per GPU, unless that is past the critical batch.
        qint64 perGpu = m_request.base.batchSize;
        if (m_request.maxBatchPerGpu > 0)
            perGpu = std::min(perGpu, m_request.maxBatchPerGpu);
        const double target = double(m_request.gpus) * double(perGpu);
        if (critical.ok && !critical.beyondLargest && critical.criticalBatch < target) {
            m_advice.dontScale = true;
            perGpu = std::max<qint64>(1, qint64(critical.criticalBatch) / m_request.gpus);
        }
        m_chosenBatchPerGpu = perGpu;
        const double chosen = double(m_request.gpus) * double(perGpu);
        // The confirmation's ladder: centred on the exponent's prediction (else the linear rule),
        // kept below the range test's divergence LR.
        const double p = exponent.ok ? exponent.exponent : 1.0;
        double center = m_baseLr * std::pow(chosen / double(m_baseBatch), p);
        if (m_divergenceLr > 0)
            center = std::min(center, m_divergenceLr / 2.0);
        QList<double> lrs;
        for (int i = 0; i < kLadder; ++i)
            lrs.append(center * std::pow(std::sqrt(2.0), i - kLadder / 2));
        return planConfirmation(lrs);
    }
    case Phase::Confirmation:
    case Phase::Extension: {
        const BracketOptimum optimum = findBracketOptimum(confirmationPoints());
        if (optimum.ok && (optimum.atLowEdge || optimum.atHighEdge) && !m_extended) {
            m_extended = true;
            const double edge = optimum.measuredBestLr;
            const double step = optimum.atHighEdge ? std::sqrt(2.0) : 1.0 / std::sqrt(2.0);
            return planConfirmation({edge * step, edge * step * step});
        }
        return decide();
    }
    case Phase::Idle:
    case Phase::Done:
        return;
    }
}

void Advisor::planBranches()
{
    const ddplab::Config& base = m_request.base;
    const qint64 perGpu = m_request.maxBatchPerGpu > 0 ? std::min<qint64>(base.batchSize, m_request.maxBatchPerGpu) : base.batchSize;
    const qint64 largest = qint64(m_request.gpus) * perGpu;
    QList<qint64> factors;  // k: branch at k x the base batch, in GPUs of the base's batch
    for (qint64 k = 1; qint64(m_baseGpus) * k * perGpu <= std::max(largest, m_baseBatch); k *= 2)
        factors.append(k);
    // Each branch trains on the same samples; the largest makes kLargestBranchSteps steps.
    const double secondsLeft = std::max(0.0, m_request.budgetSeconds - m_clock.elapsed() / 1000.0);
    const int branchRuns = int(factors.size()) * 3 + 1;
    double delta = double(kLargestBranchSteps) * double(largest);
    const double affordable = (0.5 * secondsLeft - (branchRuns + 1) * kRunOverheadSeconds - kRangeTestSteps * largest * secondsPerSample()) /
                              (branchRuns * secondsPerSample());
    if (affordable < delta) {
        const double cut = std::max(double(kFewestBranchSteps) * double(largest), affordable);
        m_advice.trimmed.append(QStringLiteral("branches trained on %1 samples each instead of %2 (the largest made %3 steps instead of %4)")
                                    .arg(qRound64(cut))
                                    .arg(qRound64(delta))
                                    .arg(qRound64(cut / double(largest)))
                                    .arg(kLargestBranchSteps));
        delta = cut;
    }
    m_deltaSamples = delta;
    const qint64 epochsEnough = base.epochs + qint64(std::ceil(delta / double(std::max<int64_t>(1, datasetSize(base))))) + 1;

    QList<PlannedRun> runs;
    // The range test at N GPUs' batch, from the checkpoint: where the loss runs away bounds the LRs.
    PlannedRun range{QStringLiteral("range test"), m_request.gpus, perGpu, 0.0, base.seed, emulated(m_request.gpus, perGpu, m_baseLr, base.seed)};
    range.config.resumeFrom = m_checkpoint.toStdString();
    range.config.lrRangeTest = true;
    range.config.lrRangeMin = m_baseLr / 10.0;
    range.config.lrRangeMax = m_baseLr * double(m_request.gpus) * 10.0;
    range.config.lrRangeSteps = kRangeTestSteps;
    range.config.maxSteps = 0;
    range.config.epochs = epochsEnough + kRangeTestSteps;
    range.config.evalEvery = 0;
    runs.append(range);
    for (qint64 k : factors) {
        const int gpus = int(m_baseGpus * k);
        const qint64 steps = std::max<qint64>(1, qRound64(delta / (double(gpus) * double(perGpu))));
        // A bracket around the linear rule's LR (the rule the range test and bracket then correct).
        const double center = m_baseLr * double(gpus * perGpu) / double(m_baseBatch);
        for (double factor : {0.5, 1.0, 2.0}) {
            PlannedRun branch{QStringLiteral("branch"), gpus, perGpu, center * factor, base.seed, emulated(gpus, perGpu, center * factor, base.seed)};
            branch.config.resumeFrom = m_checkpoint.toStdString();
            branch.config.maxSteps = m_checkpointStep + steps;
            branch.config.epochs = epochsEnough;
            branch.config.evalEvery = 0;
            runs.append(branch);
        }
        if (k == 1) {
            PlannedRun repeat{QStringLiteral("branch repeat"), gpus, perGpu, center, base.seed + 1, emulated(gpus, perGpu, center, base.seed + 1)};
            repeat.config.resumeFrom = m_checkpoint.toStdString();
            repeat.config.maxSteps = m_checkpointStep + steps;
            repeat.config.epochs = epochsEnough;
            repeat.config.evalEvery = 0;
            runs.append(repeat);
        }
    }
    // The noise scale needs two GPUs' gradients (one rank's against their mean): a base of one GPU
    // gets a run of two GPUs of its batch, at its LR, for the base run's steps.
    if (m_baseGpus == 1) {
        PlannedRun noise{QStringLiteral("noise scale"), 2, perGpu, m_baseLr, base.seed, emulated(2, perGpu, m_baseLr, base.seed)};
        noise.config.maxSteps = m_checkpointStep * 2;
        noise.config.evalEvery = 0;
        runs.append(noise);
    }
    m_runsInPlan += int(runs.size()) + kLadder * kSeeds;
    runPhase(Phase::Branches, runs);
}

void Advisor::planConfirmation(const QList<double>& lrs)
{
    const ddplab::Config& base = m_request.base;
    const double batch = double(m_request.gpus) * double(m_chosenBatchPerGpu);
    if (m_confirmationSteps == 0 || !m_extended) {
        // The horizon: the planned training's samples at this batch, or what the time left holds.
        const qint64 planned = std::max<qint64>(1, qRound64(m_advice.plannedSamples / batch));
        const double secondsLeft = std::max(0.0, m_request.budgetSeconds - m_clock.elapsed() / 1000.0);
        const int runs = int(lrs.size()) * kSeeds + 2 * kSeeds;  // and an extension's
        const double affordable = (secondsLeft / runs - kRunOverheadSeconds) / (batch * secondsPerSample());
        m_confirmationSteps = std::max<qint64>(kFewestConfirmationSteps, std::min<qint64>(planned, qint64(affordable)));
        if (m_confirmationSteps < planned)
            m_advice.trimmed.append(QStringLiteral("the confirmation ran %1 steps (%2 samples) of the %3 planned").arg(m_confirmationSteps).arg(qRound64(m_confirmationSteps * batch)).arg(planned));
        m_advice.horizonSamples = double(m_confirmationSteps) * batch;
    }
    QList<PlannedRun> runs;
    for (double lr : lrs) {
        for (int seed = 0; seed < kSeeds; ++seed) {
            PlannedRun run{QStringLiteral("confirmation"), m_request.gpus, m_chosenBatchPerGpu, lr, base.seed + seed,
                           emulated(m_request.gpus, m_chosenBatchPerGpu, lr, base.seed + seed)};
            run.config.maxSteps = m_confirmationSteps;
            run.config.epochs = std::max<int64_t>(base.epochs, 1 + m_confirmationSteps / std::max<int64_t>(1, stepsPerEpoch(run.config)));
            run.config.schedule = ScheduleKind::Constant;
            run.config.evalEvery = std::max<qint64>(1, m_confirmationSteps / 20);
            runs.append(run);
        }
    }
    if (m_extended)
        m_runsInPlan += int(runs.size());
    runPhase(m_extended ? Phase::Extension : Phase::Confirmation, runs);
}

// The confirmation's runs as a bracket: one point per LR, a measure per seed.
QList<BracketPoint> Advisor::confirmationPoints() const
{
    QList<BracketPoint> points;
    for (const QPair<PlannedRun, QSharedPointer<RunData>>& done : m_done) {
        if (done.first.phase != QStringLiteral("confirmation"))
            continue;
        const double lr = done.first.lr;
        auto found = std::find_if(points.begin(), points.end(), [lr](const BracketPoint& point) { return point.lr == lr; });
        if (found == points.end())
            points.append(BracketPoint{lr, {measureOf(*done.second)}});
        else
            found->measures.append(measureOf(*done.second));
    }
    return points;
}

void Advisor::decide()
{
    const QList<BracketPoint> points = confirmationPoints();
    const BracketOptimum optimum = findBracketOptimum(points);
    if (!optimum.ok)
        return fail(QStringLiteral("fewer than 3 of the confirmation's LRs trained without diverging; the advice cannot be trusted"));
    const ddplab::Config& base = m_request.base;
    Advice& a = m_advice;
    a.batchPerGpu = m_chosenBatchPerGpu;
    a.gradAccum = 1;
    a.effectiveBatch = qint64(a.gpus) * a.batchPerGpu;
    a.lr = optimum.bestLr;
    const double k = double(a.effectiveBatch) / double(m_baseBatch);
    a.lrRule = ruleOf(a.lr, m_baseLr, k);
    a.warmupSteps = warmupStepCount(base);
    a.safeLow = optimum.safeLow;
    a.safeHigh = optimum.safeHigh;
    a.schedule = QStringLiteral("constant after %1 warmup steps (the schedule the confirmation used)").arg(a.warmupSteps);
    a.objective = QStringLiteral("the lowest %1 after %2 samples at %3 GPUs × %4, over %5 LRs √2 apart × %6 seeds; the batch is the "
                                 "largest up to %3 × the base's batch per GPU that the branch test found within %7 % of the base batch's "
                                 "loss at equal samples")
                      .arg(a.measureName)
                      .arg(qRound64(a.horizonSamples))
                      .arg(a.gpus)
                      .arg(a.batchPerGpu)
                      .arg(points.size())
                      .arg(optimum.seeds)
                      .arg(qRound(100.0 * a.branchTolerance));
    // Steps to the base's quality at the recommendation: the confirmation run nearest its LR.
    const double baseMeasure = m_advice.evidence.isEmpty() ? kInfinity : m_advice.evidence.front().measure;
    double nearest = kInfinity;
    for (const auto& [planned, run] : m_done) {
        if (planned.phase != QStringLiteral("confirmation"))
            continue;
        const double distance = std::abs(std::log(planned.lr / a.lr));
        if (distance < nearest) {
            nearest = distance;
            const auto step = run->firstStepMeeting(wire(protocol::field::kTrainLoss), [&](double value) { return value <= baseMeasure; });
            a.stepsToMatch = step ? *step : -1;
        }
    }
    // Confidence and cautions, each a sentence.
    QStringList weak;
    if (optimum.withinNoise)
        weak.append(QStringLiteral("the best LR's neighbours are within noise"));
    if (optimum.atLowEdge || optimum.atHighEdge)
        weak.append(QStringLiteral("the best LR sits at the edge of the LRs tried"));
    if (m_confirmationSteps < kShortHorizonSteps)
        weak.append(QStringLiteral("the horizon is under %1 steps").arg(kShortHorizonSteps));
    if (m_failedRuns > 0)
        weak.append(QStringLiteral("%1 runs diverged or failed").arg(m_failedRuns));
    a.confidence = weak.isEmpty() ? QStringLiteral("high") : weak.size() == 1 ? QStringLiteral("moderate") : QStringLiteral("low");
    a.confidenceReason = weak.isEmpty() ? QStringLiteral("%1 seeds agree, the best LR lies inside the ladder, over %2 steps").arg(optimum.seeds).arg(m_confirmationSteps)
                                        : weak.join(QStringLiteral("; "));
    if (optimum.withinNoise)
        a.cautions.append(QStringLiteral("Differences between the best LRs are within noise: add repeats before trusting the LR to better than a factor of %1.").arg(lrText(optimum.safeHigh / optimum.safeLow)));
    if (optimum.atLowEdge || optimum.atHighEdge)
        a.cautions.append(QStringLiteral("The best LR is at the edge of the LRs measured (%1 to %2): the optimum may lie beyond.").arg(lrText(points.front().lr), lrText(points.back().lr)));
    if (base.optimizer == OptimizerKind::Adam || base.optimizer == OptimizerKind::AdamW || base.optimizer == OptimizerKind::AdamBsi ||
        base.optimizer == OptimizerKind::AdamWBsi)
        a.cautions.append(QStringLiteral("Adam/AdamW: the noise scale can underestimate the critical batch by orders of magnitude (Merrill et al. 2025), "
                                         "and beta1, beta2 and eps were not scaled (lr_rule sde would scale them); the LR was bracketed, not taken from a rule."));
    a.cautions.append(QStringLiteral("If the model has BatchNorm, its batch statistics are over each GPU's batch: the batch per GPU was kept at %1, and "
                                     "the noise scale is biased by the coupling of a batch's samples.").arg(a.batchPerGpu));
    if (a.horizonSamples < a.plannedSamples)
        a.cautions.append(QStringLiteral("The LR was confirmed over %1 samples (%2 steps) of the %3 planned: over the whole training it is extrapolated, "
                                         "and a longer horizon usually prefers a somewhat lower LR.")
                              .arg(qRound64(a.horizonSamples)).arg(m_confirmationSteps).arg(qRound64(a.plannedSamples)));
    else if (m_confirmationSteps < kShortHorizonSteps)
        a.cautions.append(QStringLiteral("The whole planned training is %1 steps at this batch, under about %2: over so few steps the LRs' ranking is "
                                         "decided early and noisily.")
                              .arg(m_confirmationSteps).arg(kShortHorizonSteps));
    if (m_divergenceLr > 0 && optimum.bestLr > m_divergenceLr / 2.0)
        a.cautions.append(QStringLiteral("The range test's loss ran away at LR %1, within 2× of the recommended %2: the recommendation is close to divergence.")
                              .arg(lrText(m_divergenceLr), lrText(optimum.bestLr)));
    if (double(a.effectiveBatch) > double(m_request.gpus) * double(base.batchSize))
        a.cautions.append(QStringLiteral("The batch is beyond those the branch test measured."));
    if (a.dontScale)
        a.cautions.append(QStringLiteral("%1 GPUs × %2 per GPU is past the measured critical batch (%3): a smaller batch per GPU (here %4) or fewer GPUs "
                                         "trains the same samples as well; more GPUs at the base's batch would spend samples without saving steps.")
                              .arg(a.gpus).arg(base.batchSize).arg(qRound64(a.criticalBatch)).arg(a.batchPerGpu));
    if (base.device == DeviceKind::Cpu)
        a.cautions.append(QStringLiteral("Measured in float32 on this computer's CPU: GPUs computing in bf16 or TF32, and their step times, may differ; "
                                         "the advice does not choose the batch by speed."));
    if (base.workload == WorkloadKind::Linreg && base.lossReduction == LossReduction::Sum)
        a.cautions.append(QStringLiteral("The loss is summed over each GPU's batch: the LR is the nominal one for a batch of %1 per GPU (per mean gradient, %2).")
                              .arg(a.batchPerGpu).arg(lrText(a.lr * double(a.batchPerGpu))));

    a.recommended = base;
    a.recommended.worldSize = a.gpus;
    a.recommended.batchSize = a.batchPerGpu;
    a.recommended.gradAccum = 1;
    a.recommended.accumulateAsRanks = false;
    a.recommended.lr = a.lr;
    a.recommended.lrRule = LrRule::None;
    a.recommended.baseBatchSize.reset();
    a.recommended.schedule = ScheduleKind::Constant;
    const PyTorchScript script = pytorchScriptOf(presetFromCoreConfig(a.recommended), QStringLiteral("the advisor's recommendation"));
    a.snippet = script.isWritten() ? script.text + QStringLiteral("\n# run it: ") + torchrunCommand(a.gpus, QStringLiteral("train_ddp.py")) + QLatin1Char('\n')
                                   : QStringLiteral("# no script: ") + script.error + QLatin1Char('\n');
    a.tookSeconds = m_clock.elapsed() / 1000.0;
    m_phase = Phase::Done;
    emit progressed();
    emit finished(true);
}

QString Advisor::progressText() const
{
    switch (m_phase) {
    case Phase::Idle:
        return QStringLiteral("not started");
    case Phase::Base:
        return QStringLiteral("measuring the base run (your settings on %1)").arg(gpuCount(m_baseGpus));
    case Phase::Branches:
        return QStringLiteral("range test and branch test from the base run's checkpoint");
    case Phase::Confirmation:
        return QStringLiteral("confirming the LR at %1 GPUs × %2").arg(m_request.gpus).arg(m_chosenBatchPerGpu);
    case Phase::Extension:
        return QStringLiteral("extending the LR ladder past its edge");
    case Phase::Done:
        return QStringLiteral("done");
    }
    return {};
}

int Advisor::percent() const
{
    return m_runsInPlan > 0 ? std::min(100, 100 * m_runsFinished / m_runsInPlan) : 0;
}

double Advisor::secondsLeft() const
{
    if (m_baseSecondsPerSample <= 0)
        return -1;
    return std::max(0.0, m_request.budgetSeconds - m_clock.elapsed() / 1000.0);
}

}  // namespace ddplab::ui
