// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_job.hpp"

#include "advice_estimate.hpp"
#include "advice_phases.hpp"
#include "advice_progress.hpp"
#include "advice_runner.hpp"
#include "run_evidence.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_status.hpp"
#include "client/series/x_axis.hpp"
#include "client/session/lab_session.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"
#include "core/workload_table.hpp"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

constexpr double kCutAt = 1.0;  // of the budget: a run that would end later is not started, one under way is stopped (the
                                // 10 % over it allowed is for concluding, saving and exporting: the panel saw 22 s of that)
constexpr int kDeadlineCheckMs = 500;    // how often the clock is read against that
constexpr qint64 kValidationSamples = 2000;  // advice_plan.cpp's val_subset at most

QString phaseWords(const QString& phase)
{
    return phase == advice_phase::kBranch ? QStringLiteral("branch test") : phase;
}

}  // namespace

AdviceJob::AdviceJob(LabSession& session, AdviceStore store, QObject* parent)
    : QObject(parent), m_session(session), m_store(std::move(store)), m_runner(new AdviceRunner(session, this))
{
    m_deadline.setInterval(kDeadlineCheckMs);
    connect(&m_deadline, &QTimer::timeout, this, &AdviceJob::onDeadline);
    connect(m_runner, &AdviceRunner::phaseEnded, this, &AdviceJob::onPhaseEnded);
    connect(m_runner, &AdviceRunner::runEnded, this, &AdviceJob::onRunEnded);
    connect(m_runner, &AdviceRunner::failed, this, &AdviceJob::fail);
    // Every ending (done, failed, stopped) says finished: the lab is let go first, so whoever
    // hears it finds the lab idle.
    connect(this, &AdviceJob::finished, this, [this] { m_session.release(Busy::Advice); });
}

AdviceJob::~AdviceJob() = default;

bool AdviceJob::isRunning() const
{
    return m_phase != Phase::Idle && m_phase != Phase::Done;
}

int AdviceJob::reusedRuns() const
{
    return m_runner->reusedRuns();
}

bool AdviceJob::start(AdviceRequest request)
{
    m_problem = adviceRequestProblem(request);
    if (m_problem.isEmpty() && m_session.activity().isBusy())
        m_problem = QStringLiteral("something else is running (%1); the advisor starts once it has ended").arg(m_session.activity().busyWords());
    if (!m_problem.isEmpty())
        return false;
    QString error;
    const QString id = m_store.begin(request.gpus, &error);
    if (id.isEmpty()) {
        m_problem = QStringLiteral("no folder for the advice: %1").arg(error);
        return false;
    }
    const StoredAdvice kept = m_store.open(id);
    request.checkpointFolder = kept.checkpointFolder();
    request.progressFile = kept.progressFile();
    m_id = id;
    m_folder = kept.directory;
    if (begin(request, {}))
        return true;
    QDir(kept.directory).removeRecursively();  // a new advice that never started
    m_id.clear();
    m_folder.clear();
    return false;
}

bool AdviceJob::resume(const QString& folderOrId)
{
    const QFileInfo given(folderOrId);
    const StoredAdvice kept = m_store.open(given.isDir() ? given.absoluteFilePath() : folderOrId);
    QString error = kept.problem;  // a name that would leave the store ("../x") has no folder
    if (!kept.directory.isEmpty() && kept.running)
        error = QStringLiteral("%1 is running now%2: one advisor at a time runs an advice; wait for it to end, or stop it, then resume it")
                    .arg(kept.directory, kept.runningPid > 0 ? QStringLiteral(" (process %1 runs it)").arg(kept.runningPid) : QString());
    else if (!kept.directory.isEmpty() && !kept.stopped && error.isEmpty())
        error = QStringLiteral("%1 is no stopped advice").arg(kept.directory);
    const std::optional<QJsonObject> progress = kept.stopped ? readProgress(kept.progressFile(), &error) : std::nullopt;
    std::optional<AdviceRequest> request = progress ? requestOfProgress(*progress, &error) : std::nullopt;
    if (!request) {
        m_problem = QStringLiteral("the stopped advice cannot be resumed: %1").arg(error);
        return false;
    }
    m_problem = m_session.activity().isBusy()
                    ? QStringLiteral("something else is running (%1); the advisor starts once it has ended").arg(m_session.activity().busyWords())
                    : QString();
    if (!m_problem.isEmpty())
        return false;
    request->progressFile = kept.progressFile();
    // Its own checkpoints, never a folder the file names (a copy read and wrote the original's;
    // a crafted path made the advisor write anywhere): requestOfProgress never reads one.
    request->checkpointFolder = kept.checkpointFolder();
    m_id = kept.id;
    m_folder = kept.directory;
    return begin(*request, progress->value(advice_progress::kPhases).toArray());
}

bool AdviceJob::begin(const AdviceRequest& request, const QJsonArray& resumePhases)
{
    m_problem = adviceRequestProblem(request);
    if (!m_problem.isEmpty())
        return false;
    // The lab runs one thing at a time; and one advisor at a time runs an advice: a second
    // resume of a running one is refused.
    if (!m_session.claim(Busy::Advice, &m_problem))
        return false;
    if (!request.progressFile.isEmpty() && !m_lock.take(QFileInfo(request.progressFile).absolutePath(), &m_problem)) {
        m_session.release(Busy::Advice);
        return false;
    }
    m_request = request;
    const ddplab::Config& base = request.base;
    m_advice = Advice();
    m_advice.gpus = request.gpus;
    m_advice.mostBatchPerGpu = request.maxBatchPerGpu;
    m_advice.model = modelNameOf(base);
    m_advice.data = dataNameOf(base);
    m_advice.measureName = measureNameOf(base);
    m_advice.plannedSamples = plannedSamplesOf(base);
    m_advice.horizonSamples = horizonOf(request);
    m_advice.branchTolerance = kBatchTolerance;
    m_storeProblem.clear();
    m_outOfTime = false;
    m_time = AdviceTime();
    m_runsPlanned = 1;
    m_runsFinished = 0;
    m_percentShown = 0;
    m_branchPlan = BranchPlan();
    m_branchEndsAt = 0.0;
    m_branchCut = false;
    m_confirmationAlong = true;
    m_conclusion = BranchConclusion();
    m_closestCallStopped = false;
    m_leftOutTried = false;
    m_bracketExtensions = 0;
    m_bracketMidpoints = false;
    m_confirmationSteps = 0;
    m_extensions = 0;
    m_moreSeeds = MoreSeeds::None;
    m_ladderRungs.clear();
    m_ladderLeftOut = false;
    m_ladderStopped.clear();
    m_armPlanned = false;
    if (request.horizonSamples > 0)
        m_advice.trimmed.append(QStringLiteral("compared at the horizon you stated, %1 samples of your training's %2").arg(qRound64(horizonOf(request))).arg(qRound64(m_advice.plannedSamples)));
    if (hasValidationSet(base) &&
        (base.valSubset == 0 || base.valSubset > kValidationSamples))
        m_advice.trimmed.append(QStringLiteral("every run measured the validation loss on the first %L1 samples of the validation "
                                               "set (val_subset), not all of it: the same samples for every run, so they compare alike")
                                    .arg(kValidationSamples));
    m_runner->begin(request, resumePhases);
    m_deadline.start();
    const BasePlan plan = planBase(request);
    m_checkpointStep = plan.checkpointStep;
    m_pinnedCost = pinnedRunCost(request);
    if (m_pinnedCost)
        m_runner->pinClock(*m_pinnedCost, m_checkpointStep);
    runPhase(Phase::Base, {plan.run});
    return true;
}

void AdviceJob::stop()
{
    if (!isRunning())
        return;
    m_phase = Phase::Done;
    m_deadline.stop();
    m_runner->abandon();
    m_lock.release();  // stopped: to be resumed
    emit finished(false);
}

PlanContext AdviceJob::context() const
{
    return {m_request, m_time.cost(), std::max(0.0, m_request.budgetSeconds - m_runner->elapsedSeconds()), m_checkpoint, m_checkpointStep};
}

double AdviceJob::predictedSeconds(const QList<PlannedRun>& runs) const
{
    return m_time.runsSeconds(runs) * m_time.scale();
}

bool AdviceJob::timeHolds(double seconds) const
{
    return m_runner->elapsedSeconds() + seconds <= m_request.budgetSeconds;
}

double AdviceJob::clockSeconds() const
{
    return m_runner->elapsedSeconds();
}

double AdviceJob::budgetSecondsLeft() const
{
    return std::max(0.0, kCutAt * m_request.budgetSeconds - m_runner->elapsedSeconds());
}

void AdviceJob::runPhase(Phase phase, const QList<PlannedRun>& runs)
{
    m_phase = phase;
    m_planned = runs;
    m_runner->run(runs);
    const int reused = m_runner->reusedInPhase();
    const double left = secondsLeft();
    const QString taken = reused > 0 ? QStringLiteral(", %1 of them from the stopped advice").arg(reused) : QString();
    say(left >= 0 ? QStringLiteral("%1 (%2 runs%3; about %4 s left)").arg(progressText()).arg(runs.size()).arg(taken).arg(qRound(left))
                  : QStringLiteral("%1 (%2 runs%3)").arg(progressText()).arg(runs.size()).arg(taken));
    emit progressed();
}

void AdviceJob::say(const QString& text)
{
    emit logMessage(QStringLiteral("Advisor: ") + text, false);
}

void AdviceJob::fail(const QString& why)
{
    if (!isRunning())
        return;
    m_problem = why;
    m_phase = Phase::Done;
    m_deadline.stop();
    m_runner->abandon();
    m_lock.release();
    emit logMessage(QStringLiteral("Advisor: ") + why, true);
    emit finished(false);
}

void AdviceJob::onRunEnded()
{
    ++m_runsFinished;
    // A decision point: the run starting now must end within the budget, else the phase ends here.
    if (!m_outOfTime && m_time.isMeasured()) {
        const QList<PlannedRun> left = m_runner->runsLeft();
        const double endsAt = left.isEmpty() ? 0.0 : m_runner->elapsedSeconds() + predictedSeconds({left.front()});
        if (!left.isEmpty() && endsAt > kCutAt * m_request.budgetSeconds) {
            m_outOfTime = true;
            say(QStringLiteral("the budget is spent: %1 stops here, and the advice is concluded from what was measured").arg(progressText()));
            m_runner->cut();
        } else if (!left.isEmpty() && m_phase == Phase::Branches && !m_branchCut && endsAt > m_branchEndsAt &&
                   m_planned.size() - left.size() >= m_branchPlan.firstRuns) {
            // Its share spent (a slower machine than the base run said, or floors the plan could
            // not cut): the branch test stops at a decision point, so the LR is still trained at
            // the batch it advises. Your batch and N GPUs' have their first data order by then.
            m_branchCut = true;
            say(QStringLiteral("the branch test's share of the budget is spent: it stops here, and the rest goes to the confirmation"));
            m_runner->cut();
        }
    }
    emit progressed();
}

void AdviceJob::onDeadline()
{
    if (!isRunning() || m_outOfTime || m_runner->elapsedSeconds() <= kCutAt * m_request.budgetSeconds)
        return;
    m_outOfTime = true;
    say(QStringLiteral("the budget is spent: %1 stops here").arg(progressText()));
    m_runner->cut();
}

void AdviceJob::onPhaseEnded(const QList<QSharedPointer<RunData>>& runs, bool cut)
{
    if (!isRunning())
        return;
    int skipped = 0;
    QList<PlannedRun> ran;
    for (qsizetype i = 0; i < runs.size() && i < m_planned.size(); ++i) {
        const PlannedRun& planned = m_planned[i];
        if (!runs[i]) {
            ++skipped;
            continue;
        }
        ran.append(planned);
        const RunData& run = *runs[i];
        m_advice.evidence.append(evidenceOf(planned, run, m_request.base, m_checkpointStep, m_checkpointMeasure));
        if (planned.phase == advice_phase::kRangeTest) {
            m_advice.rangeTests.append(rangeCurveOf(double(planned.gpus) * double(planned.batch), run));
            std::sort(m_advice.rangeTests.begin(), m_advice.rangeTests.end(), [](const RangeCurve& x, const RangeCurve& y) { return x.batch < y.batch; });
        }
        if (planned.phase == advice_phase::kNoiseScale)
            m_advice.noiseScale = run.series(wire(protocol::field::kNoiseScale), XAxis::SamplesSeen);
    }
    if (cut && skipped > 0 && !m_planned.isEmpty())
        m_advice.trimmed.append(m_outOfTime ? QStringLiteral("%1 of the %2 phase's %3 runs were not run: the budget was spent, and the advice was concluded "
                                                             "from what was measured")
                                                  .arg(skipped)
                                                  .arg(phaseWords(m_planned.front().phase))
                                                  .arg(m_planned.size())
                                            : QStringLiteral("%1 of the %2's %3 runs were not run: its share of the budget was spent (the runs took longer "
                                                             "than the base run said), and the rest went to the confirmation")
                                                  .arg(skipped)
                                                  .arg(phaseWords(m_planned.front().phase))
                                                  .arg(m_planned.size()));
    if (m_time.isMeasured())
        m_time.calibrate(ran, m_runner->elapsedSeconds() - m_runner->phaseStartedSeconds(), m_runner->engineStartSeconds());
    emit progressed();
    switch (m_phase) {
    case Phase::Base:
        if (runs.isEmpty() || !runs.front())
            return fail(QStringLiteral("the budget of %1 s did not hold even the base run (your settings on %2): give the advice more time")
                            .arg(qRound(m_request.budgetSeconds))
                            .arg(gpuCountText(m_planned.front().gpus)));
        return afterBase(*runs.front());
    case Phase::Branches:
    case Phase::Refinement:
        return afterBranches();
    case Phase::Throughput:
        return afterThroughput();
    case Phase::Confirmation:
        return planNextRung();
    case Phase::Extension:
        return afterLadder();
    case Phase::Warmup:
        return finish();
    case Phase::Idle:
    case Phase::Done:
        return;
    }
}

QString AdviceJob::progressText() const
{
    switch (m_phase) {
    case Phase::Idle:
        return QStringLiteral("not started");
    case Phase::Base:
        return QStringLiteral("measuring the base run (your settings on %1)").arg(gpuCountText(int(m_request.base.worldSize * m_request.base.gradAccum)));
    case Phase::Branches:
        return QStringLiteral("range test and branch test, every batch over your horizon");
    case Phase::Refinement:
        return QStringLiteral("the branch test's closest call in another data order, or an LR past a bracket's edge or between its best and its neighbour");
    case Phase::Throughput:
        return QStringLiteral("timing each batch per GPU on %1, for goodput").arg(m_session.target().describe());
    case Phase::Confirmation:
        return QStringLiteral("confirming the LR at %1 GPUs × %2").arg(m_request.gpus).arg(m_conclusion.chosenPerGpu);
    case Phase::Extension:
        switch (m_moreSeeds) {
        case MoreSeeds::TwoBest:
            return QStringLiteral("more seeds on the LR ladder's two best rungs, within noise of each other");
        case MoreSeeds::QuietRun:
            return QStringLiteral("more seeds on the LRs within noise of the lowest mean, until the LR is clear or the budget ends");
        case MoreSeeds::None:
            break;
        }
        return QStringLiteral("extending the LR ladder past its edge");
    case Phase::Warmup:
        return QStringLiteral("the warmup arm: the best LRs again with a warmup from your LR (Goyal et al.)");
    case Phase::Done:
        return QStringLiteral("done");
    }
    return {};
}

int AdviceJob::percent() const
{
    if (m_phase == Phase::Done && m_problem.isEmpty())
        return 100;
    // The advice's clock against it and the time left, as the page says it: the runs' count moved
    // only as phases were planned (the base run alone, 1 of 1, read 99 % for the rest). Never back:
    // a round of more orders or seeds adds time before it runs.
    const double left = secondsLeft();
    const double elapsed = m_runner->elapsedSeconds();
    m_percentShown = std::max(m_percentShown, left >= 0 ? percentDone(elapsed, elapsed + left) : 0);
    return m_percentShown;
}

double AdviceJob::laterSeconds() const
{
    const PlanContext ctx = context();
    switch (m_phase) {
    case Phase::Branches:
    case Phase::Refinement: {
        // The confirmation to come, over your horizon or what the budget leaves it.
        const qint64 perGpu = m_conclusion.chosenPerGpu > 0 ? m_conclusion.chosenPerGpu : std::min<qint64>(m_request.base.batchSize, m_request.maxBatchPerGpu > 0 ? m_request.maxBatchPerGpu : m_request.base.batchSize);
        return confirmationSeconds(ctx, perGpu) * double(kLadderRungs) / double(kLadderRungs + 2);
    }
    case Phase::Confirmation:
    case Phase::Extension: {
        if (m_planned.isEmpty())
            return 0.0;
        if (m_phase == Phase::Extension && m_moreSeeds == MoreSeeds::QuietRun)
            return budgetSecondsLeft();  // seed after seed until the LR is clear or the budget ends
        const double run = m_time.runSeconds(m_planned.front());
        // The ladder's rungs still to run, one extension likely after it; the warmup arm when the
        // ladder is well above your LR.
        const qsizetype rungsLeft = std::max<qsizetype>(0, untriedRungs(m_ladderRungs, pointsOf(m_advice.evidence, advice_phase::kConfirmation)).size() - 1);
        const double extension = m_phase == Phase::Confirmation ? 2 * kSeeds * run + double(rungsLeft) * kSeeds * run : 0.0;
        const double arm = m_planned.front().lr >= effectiveLr(m_request.base) ? kWarmupLrs * kSeeds * run : 0.0;
        return extension + arm;
    }
    default:
        return 0.0;
    }
}

double AdviceJob::secondsLeft() const
{
    if (!m_time.isMeasured() || !isRunning())
        return -1;
    // Never past the budget's end: the advice is cut there.
    return std::min(m_time.secondsLeft(m_runner->runsLeft(), laterSeconds()), budgetSecondsLeft());
}

}  // namespace ddplab::ui
