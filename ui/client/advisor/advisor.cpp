// SPDX-License-Identifier: GPL-3.0-or-later
#include "advisor.hpp"

#include "adam_moments.hpp"
#include "advice_phases.hpp"
#include "advice_progress.hpp"
#include "advice_store.hpp"
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
#include "core/protocol_names.hpp"
#include "lr_bracket.hpp"
#include "run_cost.hpp"

#include "client/io/save_file.hpp"
#include "client/runs/run_store.hpp"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ddplab::ui {
namespace {

using namespace advice_progress;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr qint64 kMaxBaseSteps = 200;       // the base run's length at most: it sizes, it does not decide
constexpr double kFewestTimeScale = 0.25;  // a phase's time against its prediction, as the time left is scaled
constexpr double kMostTimeScale = 4.0;
// The validation set the advisor's runs measure on at most (val_subset): Fashion-MNIST's 10,000
// test images took 2.6 s an evaluation on this 2-core machine, ten times the steps between them.
constexpr qint64 kValidationSamples = 2000;


QString lrText(double lr)
{
    return QString::number(lr, 'g', 3);
}

// A run that ended as it will end again: taken instead of run again when resuming.
bool reusable(RunStatus status)
{
    return status == RunStatus::Finished || status == RunStatus::Diverged;
}

bool hasValidation(const ddplab::Config& c)
{
    return c.workload == WorkloadKind::FashionMnist || (c.workload == WorkloadKind::TorchScript && !c.valData.empty());
}

}  // namespace

QString gpuCountText(int gpus)
{
    return gpus == 1 ? QStringLiteral("1 GPU") : QStringLiteral("%1 GPUs").arg(gpus);
}

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
    // Your own data's size plans the training (its epochs in steps, the base run, the horizon):
    // the engine's inspect tells it before the advice starts.
    if (r.base.workload == WorkloadKind::TorchScript && r.base.trainSamples <= 0)
        return QStringLiteral("the size of your training data is not known yet: the engine's inspect reads it before an advice on your own model");
    return {};
}

Advisor::Advisor(LabSession& session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(&m_session, &LabSession::sequenceFinished, this, [this](bool) {
        if (isRunning())
            onSequenceFinished();
    });
    connect(&m_session, &LabSession::runFinished, this, &Advisor::onRunFinished);
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
    if (usesMoments(c)) {
        // The rule's beta1, beta2 and eps at this batch, those the recommendation will carry: the
        // LR is measured with the moments it is recommended with (the base's own at its batch).
        const AdamSettings moments = sdeMomentsAt(m_request.base, c).settings;
        c.beta1 = moments.beta1;
        c.beta2 = moments.beta2;
        c.eps = moments.eps;
    }
    c.lrRule = LrRule::None;
    c.baseBatchSize.reset();
    c.warmupStartFactor = warmupStartFactor(m_request.base);
    // Another seed is another data order of the same data: toy and linreg generate their data
    // from data_seed (default seed), so it stays the base's (a branch resumes the base's weights).
    c.dataSeed = ddplab::dataSeed(m_request.base);
    c.seed = seed;
    c.stopAtLoss.reset();
    c.checkpointAt = {};
    c.checkpointDir.clear();
    c.resumeFrom.clear();
    c.lrRangeTest = false;
    if (hasValidation(m_request.base) && (c.valSubset == 0 || c.valSubset > kValidationSamples))
        c.valSubset = kValidationSamples;
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

bool Advisor::start(const AdviceRequest& request)
{
    m_resumePhases = QJsonArray();
    return begin(request);
}

bool Advisor::resume(const QString& progressFile)
{
    QString error;
    const std::optional<QJsonObject> progress = readProgress(progressFile, &error);
    std::optional<AdviceRequest> request = progress ? requestOfProgress(*progress, &error) : std::nullopt;
    if (!request) {
        m_problem = QStringLiteral("the stopped advice cannot be resumed: %1").arg(error);
        return false;
    }
    request->progressFile = progressFile;
    // Its own checkpoints, never the folder the file names (a copy read and wrote the original's).
    request->checkpointFolder = AdviceStore().open(QFileInfo(progressFile).absolutePath()).checkpointFolder();
    m_resumePhases = progress->value(kPhases).toArray();
    return begin(*request);
}

bool Advisor::begin(const AdviceRequest& request)
{
    m_problem = adviceRequestProblem(request);
    if (m_problem.isEmpty() && m_session.isRunning())
        m_problem = QStringLiteral("something else is running; the advisor starts once it has ended");
    if (!m_problem.isEmpty())
        return false;
    // One advisor at a time runs an advice: a second --resume of a running one is refused.
    if (!request.progressFile.isEmpty() && !m_lock.take(QFileInfo(request.progressFile).absolutePath(), &m_problem))
        return false;
    m_request = request;
    m_advice = Advice();
    m_done.clear();
    m_extensions = 0;
    m_branchEdges = false;
    m_divergenceLr = 0.0;
    m_timeScale = 1.0;
    m_cost = RunCost();
    m_confirmationSteps = 0;
    m_failedRuns = 0;
    m_runsFinished = 0;
    m_phasesLog = QJsonArray();
    m_reused.clear();
    m_toRun.clear();
    m_offsetMs = 0;
    m_reusedRuns = 0;
    m_clock.start();
    const ddplab::Config& base = request.base;
    m_baseGpus = int(base.worldSize * base.gradAccum);
    m_baseBatch = effectiveBatchSize(base);
    m_baseLr = effectiveLr(base);
    m_advice.gpus = request.gpus;
    m_advice.measureName = hasValidation(base) ? QStringLiteral("validation loss") : QStringLiteral("training loss (noise-free)");
    m_advice.plannedSamples = double(totalSteps(base)) * double(m_baseBatch);
    if (hasValidation(base) && (base.valSubset == 0 || base.valSubset > kValidationSamples))
        m_advice.trimmed.append(QStringLiteral("every run measured the validation loss on the first %L1 samples of the validation "
                                               "set (val_subset), not all of it: the same samples for every run, so they compare alike")
                                    .arg(kValidationSamples));

    // The base run: the user's settings on N GPUs emulated by ranks x accumulation, cut to
    // what sizes the rest; a checkpoint halfway is where the branches start.
    const qint64 steps = std::clamp<qint64>(totalSteps(base), 2, kMaxBaseSteps);
    m_checkpointStep = std::max<qint64>(1, steps / 2);
    PlannedRun run{advice_phase::kBase, m_baseGpus, base.batchSize, m_baseLr, base.seed,
                   emulated(m_baseGpus, base.batchSize, m_baseLr, base.seed)};
    run.config.maxSteps = steps;
    run.config.epochs = base.epochs;
    run.config.schedule = base.schedule;
    run.config.warmupSteps = base.warmupSteps;
    run.config.warmupEpochs = base.warmupEpochs;
    run.config.checkpointAt.steps = {m_checkpointStep};
    run.config.checkpointDir = request.checkpointFolder.toStdString();
    run.config.evalEvery = std::max<qint64>(1, m_checkpointStep / 4);  // the checkpoint step is measured: the branches start from it
    m_runsInPlan = 1;
    runPhase(Phase::Base, {run});
    return true;
}

void Advisor::stop()
{
    if (isRunning()) {
        m_phase = Phase::Done;
        m_session.stop();
        m_lock.release();  // stopped: to be resumed
        emit finished(false);
    }
}

void Advisor::runPhase(Phase phase, const QList<PlannedRun>& runs)
{
    m_phase = phase;
    // Resuming: this phase as the stopped advice planned it, when it did.
    const QJsonObject before = m_phasesLog.size() < m_resumePhases.size() ? m_resumePhases[m_phasesLog.size()].toObject() : QJsonObject();
    const QJsonArray beforeRuns = before.value(kRuns).toArray();
    if (!before.isEmpty())
        m_offsetMs += qRound64(before.value(kStartedS).toDouble() * 1000.0) - elapsedMs();
    m_phaseStartMs = elapsedMs();
    m_planned = runs;
    m_reused.clear();
    m_toRun.clear();
    QJsonArray logged;
    QList<RunRequest> requests;
    QHash<QString, RunRecord> stored;  // the store's runs, as it lists them (their status from meta.json)
    if (!beforeRuns.isEmpty())
        for (const RunRecord& record : m_session.store().listRuns())
            stored.insert(record.id, record);
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const PlannedRun& run = runs[i];
        const QJsonObject settings = presetFromCoreConfig(run.config);
        QJsonObject entry{{kSettings, settings}};
        // A run of the stopped advice with the same settings that ended (finished or diverged) is taken as it is.
        const QJsonObject earlier = i < beforeRuns.size() ? beforeRuns[i].toObject() : QJsonObject();
        const QString id = earlier.value(kRunId).toString();
        // The progress file names only runs the session saw end well; the store lists a range test
        // (stopped by the 4x rule) and a branch (its steps start at the checkpoint) as incomplete.
        const auto ended = [&run](RunStatus status) {
            return reusable(status) || ((run.config.lrRangeTest || !run.config.resumeFrom.empty()) && status == RunStatus::Incomplete);
        };
        if (earlier.value(kSettings).toObject() == settings && stored.contains(id) && ended(stored.value(id).status)) {
            const QSharedPointer<RunData> loaded = m_session.store().loadRun(stored.value(id));
            if (loaded && ended(loaded->record().status)) {
                m_reused.insert(int(i), loaded);
                entry.insert(kRunId, id);
                logged.append(entry);
                ++m_reusedRuns;
                continue;
            }
        }
        logged.append(entry);
        m_toRun.append(int(i));
        RunRequest request;
        request.name = QStringLiteral("advice %1").arg(run.phase);
        request.label = QStringLiteral("%1 · %2 × %3 · lr %4 · seed %5").arg(run.phase, gpuCountText(run.gpus)).arg(run.batch).arg(lrText(run.lr)).arg(run.seed);
        request.config = run.config;
        requests.append(request);
    }
    m_phasesLog.append(QJsonObject{{kStartedS, m_phaseStartMs / 1000.0}, {kRuns, logged}});
    if (!writeProgress())
        return;
    if (requests.isEmpty()) {
        // Every run was taken from the store: the phase ends as it ended then, at the time it took.
        const double ended = before.value(kEndedS).toDouble(-1.0);
        QMetaObject::invokeMethod(this, [this, ended] {
            if (!isRunning())
                return;
            if (ended >= 0)
                m_offsetMs += qRound64(ended * 1000.0) - elapsedMs();
            finishPhase({});
        }, Qt::QueuedConnection);
    } else {
        m_session.start(requests);
    }
    const double left = secondsLeft();
    const QString reused = m_reused.isEmpty() ? QString() : QStringLiteral(", %1 of them from the stopped advice").arg(m_reused.size());
    emit logMessage(left >= 0 ? QStringLiteral("Advisor: %1 (%2 runs%3; about %4 s left)").arg(progressText()).arg(runs.size()).arg(reused).arg(qRound(left))
                              : QStringLiteral("Advisor: %1 (%2 runs%3)").arg(progressText()).arg(runs.size()).arg(reused),
                    false);
    emit progressed();
}

void Advisor::onRunFinished(int index, const QSharedPointer<RunData>& run)
{
    if (!isRunning() || m_phasesLog.isEmpty() || index < 0 || index >= m_toRun.size() || !run)
        return;
    // A run that could not write its output (a full disk) measured nothing, and no advice is
    // concluded from it: the advice stops, to be resumed once there is room.
    if (run->record().status == RunStatus::Failed && run->record().exitCode == ddplab::kExitOutputError)
        return fail(QStringLiteral("run \"%1\" could not write its output, and the advice stopped there (is the disk full?): %2")
                        .arg(run->label(), run->record().error));
    if (!reusable(run->record().status))
        return;
    QJsonObject phase = m_phasesLog.last().toObject();
    QJsonArray runs = phase.value(kRuns).toArray();
    QJsonObject entry = runs[m_toRun[index]].toObject();
    entry.insert(kRunId, run->id());
    runs[m_toRun[index]] = entry;
    phase.insert(kRuns, runs);
    m_phasesLog[m_phasesLog.size() - 1] = phase;
    writeProgress();
}

bool Advisor::writeProgress()
{
    if (m_request.progressFile.isEmpty())
        return true;
    QString error;
    if (writeFileAtomically(m_request.progressFile, QJsonDocument(progressJson(m_request, m_phasesLog)).toJson(QJsonDocument::Indented), &error))
        return true;
    // Without its progress the advice could not be resumed: it stops, saying why (from the event
    // loop: this may be inside start(), before anyone waits for finished()).
    const QString why = QStringLiteral("the advice's progress could not be saved: %1").arg(error);
    QMetaObject::invokeMethod(this, [this, why] { fail(why); }, Qt::QueuedConnection);
    return false;
}

void Advisor::fail(const QString& why)
{
    if (m_phase == Phase::Done)
        return;  // failed or stopped already: said once
    m_problem = why;
    m_phase = Phase::Done;
    if (m_session.isRunning())
        m_session.stop();  // no more runs for an advice that has ended
    m_lock.release();
    emit logMessage(QStringLiteral("Advisor: ") + why, true);
    emit finished(false);
}

void Advisor::onSequenceFinished()
{
    finishPhase(m_session.runs());
}

void Advisor::finishPhase(const QList<QSharedPointer<RunData>>& sessionRuns)
{
    if (sessionRuns.size() != m_toRun.size())
        return fail(QStringLiteral("the runs were stopped before the advice was complete"));
    QList<QSharedPointer<RunData>> runs;
    for (qsizetype i = 0, next = 0; i < m_planned.size(); ++i)
        runs.append(m_reused.contains(int(i)) ? m_reused.value(int(i)) : sessionRuns[next++]);
    if (!m_phasesLog.isEmpty()) {
        QJsonObject phase = m_phasesLog.last().toObject();
        phase.insert(kEndedS, elapsedMs() / 1000.0);
        m_phasesLog[m_phasesLog.size() - 1] = phase;
        if (!writeProgress())
            return;
    }
    for (qsizetype i = 0; i < runs.size(); ++i) {
        m_done.append({m_planned[i], runs[i]});
        ++m_runsFinished;
        const double measure = measureOf(*runs[i]);
        // A range test ends diverged by design; a timing run is read for its pace alone.
        if (!std::isfinite(measure) && m_planned[i].phase != advice_phase::kRangeTest && m_planned[i].phase != advice_phase::kThroughput)
            ++m_failedRuns;
        m_advice.evidence.append({m_planned[i].phase, runs[i]->id(), runs[i]->label(), m_planned[i].gpus, m_planned[i].batch,
                                  m_planned[i].lr, m_planned[i].seed, runs[i]->summary().value(wire(protocol::field::kSamples)).toDouble(),
                                  measure, statusText(runs[i]->record().status)});
    }
    // A phase of several runs calibrates the time left: what it took against what the base run's
    // figures predicted for it (resuming, evaluating and forking cost what one run cannot show).
    if (runs.size() > 1) {
        double predicted = 0.0;
        for (const PlannedRun& run : m_planned)
            predicted += plannedSeconds(run);
        const double phaseSeconds = (elapsedMs() - m_phaseStartMs) / 1000.0;
        if (predicted > 0)
            m_timeScale = std::clamp(phaseSeconds / predicted, kFewestTimeScale, kMostTimeScale);
    }
    emit progressed();
    switch (m_phase) {
    case Phase::Base: {
        const RunData& base = *runs.front();
        const double measure = measureOf(base);
        if (!std::isfinite(measure))
            return fail(QStringLiteral("the base run (your settings on %1) did not finish: %2")
                            .arg(gpuCountText(m_baseGpus))
                            .arg(base.record().error.isEmpty() ? statusText(base.record().status) : base.record().error));
        // What a run costs here, from this one: it sizes the plan and says the time left.
        const qsizetype evaluations = std::max(base.series(wire(protocol::field::kTrainLoss)).size(),
                                               base.series(wire(protocol::field::kValLoss)).size());
        m_cost = RunCost::measured(base.summary().value(wire(protocol::field::kTrainS)).toDouble(),
                                   base.summary().value(wire(protocol::field::kSamples)).toDouble(),
                                   base.summary().value(wire(protocol::field::kWallS)).toDouble(), elapsedMs() / 1000.0, evaluations);
        for (const QJsonObject& checkpoint : base.checkpoints())
            m_checkpoint = checkpoint.value(wire(protocol::field::kPath)).toString();
        if (m_checkpoint.isEmpty())
            return fail(QStringLiteral("the base run wrote no checkpoint to branch from"));
        m_advice.noiseScale = base.series(wire(protocol::field::kNoiseScale), XAxis::SamplesSeen);
        m_advice.baseSteps = base.lastStep();
        m_checkpointMeasure = std::nan("");
        for (const QPointF& point : base.series(wire(protocol::field::kTrainLoss)))
            if (qRound64(point.x()) == m_checkpointStep)
                m_checkpointMeasure = point.y();
        return planBranches();
    }
    case Phase::Branches:
        return concludeBranches();
    case Phase::Throughput:
        return chooseByGoodput();
    case Phase::Confirmation:
    case Phase::Extension: {
        const QList<BracketPoint> ladder = pointsOf(advice_phase::kConfirmation);
        const BracketOptimum optimum = findBracketOptimum(ladder);
        if (!optimum.ok && m_extensions < kMostExtensions && !ladder.isEmpty()) {
            // Most of the ladder diverged over this horizon (the branch test's shorter runs had
            // not): the best lies below it. Two LRs below its lowest.
            const double lowest = std::min_element(ladder.begin(), ladder.end(), [](const BracketPoint& a, const BracketPoint& b) {
                                      return a.lr < b.lr;
                                  })->lr;
            double lowestDiverged = kInfinity;
            for (const BracketPoint& point : ladder)
                if (std::any_of(point.measures.begin(), point.measures.end(), [](double m) { return !std::isfinite(m); }))
                    lowestDiverged = std::min(lowestDiverged, point.lr);
            if (m_extensions == 0 && std::isfinite(lowestDiverged))
                m_advice.cautions.append(QStringLiteral("The confirmation's LRs from %1 up diverged over its %2 steps, where the branch test's "
                                                        "shorter runs had not: the ladder was extended below them.")
                                             .arg(lrText(lowestDiverged))
                                             .arg(m_confirmationSteps));
            ++m_extensions;
            return planConfirmation({lowest / std::sqrt(2.0), lowest / 2.0});
        }
        if (optimum.ok && (optimum.atLowEdge || optimum.atHighEdge)) {
            // Past the edge by two LRs: once always, again (up to kMostExtensions) while the time
            // left holds their runs and, upwards, while they stay below the range test's runaway.
            const double edge = optimum.measuredBestLr;
            const double step = optimum.atHighEdge ? std::sqrt(2.0) : 1.0 / std::sqrt(2.0);
            // A run measures at most its training's time past its fewest evaluations: twice the samples' time.
            const double extensionSeconds = 2 * kSeeds * m_cost.seconds(2.0 * m_advice.horizonSamples, kFewestEvaluations + 1);
            const bool timeHolds = elapsedMs() / 1000.0 + extensionSeconds <= m_request.budgetSeconds;
            const bool belowRunaway = !optimum.atHighEdge || m_divergenceLr <= 0 || edge * step * step < m_divergenceLr;
            if (m_extensions == 0 || (m_extensions < kMostExtensions && timeHolds && belowRunaway)) {
                ++m_extensions;
                return planConfirmation({edge * step, edge * step * step});
            }
        }
        if (optimum.ok && planWarmupArm(optimum))
            return;
        return decide();
    }
    case Phase::Warmup:
        return decide();
    case Phase::Idle:
    case Phase::Done:
        return;
    }
}

}  // namespace ddplab::ui
