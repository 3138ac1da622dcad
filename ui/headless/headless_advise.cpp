// SPDX-License-Identifier: GPL-3.0-or-later
#include "headless_advise.hpp"

#include "plots/advice_files.hpp"
#include "client/advisor/advice_estimate.hpp"
#include "client/advisor/advice_job.hpp"
#include "client/advisor/advice_progress.hpp"
#include "client/advisor/advice_store.hpp"
#include "client/advisor/batch_memory.hpp"
#include "client/engine/device_inventory.hpp"
#include "client/engine/engine_locator.hpp"
#include "client/engine/model_inspector.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/preset_resolver.hpp"
#include "client/study/study_estimate.hpp"
#include "core/protocol_names.hpp"
#include "core/workload_table.hpp"
#include "stop_signals.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QTimer>

#include <functional>

namespace ddplab::ui {
namespace {

// After a stop: until the session has ended its engine (bounded), so the stopped run's status is
// saved and nothing is left running when the process exits.
void waitForTheEngine(const LabSession& session)
{
    constexpr int kWaitMs = 15000;
    if (!session.isRunning())
        return;
    QEventLoop loop;
    QObject::connect(&session, &LabSession::sequenceFinished, &loop, &QEventLoop::quit);
    QTimer::singleShot(kWaitMs, &loop, &QEventLoop::quit);
    loop.exec();
}

// The advice `begin` starts (a new one, or a stopped one resumed) run to its end by the one advice
// job the Advise page uses too: its files into --export's folder (the job has stored it). The end
// says how long it took against `estimate` (seconds): a new advice its whole clock, a `resumed`
// one this process's time (its clock goes on from the stopped advice's).
int runAdvice(const LaunchOptions& options, const std::function<bool(AdviceJob&)>& begin, QTextStream& out, QTextStream& err,
              double estimate, bool resumed = false)
{
    QElapsedTimer thisTime;
    thisTime.start();
    const QString folder = QDir(options.exportDirectory).absolutePath();
    const RunStore runs;
    LabSession session(runs, locateEngine(options.enginePath));
    session.setTarget(options.runOn);
    AdviceJob job(session);
    QObject::connect(&job, &AdviceJob::logMessage, &job, [&](const QString& text, bool isWarning) { (isWarning ? err : out) << text << Qt::endl; });
    QEventLoop loop;
    bool succeeded = false;
    QObject::connect(&job, &AdviceJob::finished, &loop, [&](bool ok) {
        succeeded = ok;
        loop.quit();
    });
    // Ctrl+C, SIGTERM, SIGHUP: the advice stops as the Advise page's Stop does, kept to resume.
    StopSignals stopSignals;
    QObject::connect(&stopSignals, &StopSignals::stopAsked, &job, [&](int signal) {
        err << "ddplab: " << (signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP") << ": stopping the advice" << Qt::endl;
        job.stop();
    });
    if (!begin(job)) {
        err << "ddplab: " << job.problem() << Qt::endl;
        return 2;
    }
    loop.exec();
    if (!succeeded) {
        if (stopSignals.received() != 0)
            waitForTheEngine(session);  // its run's status saved, the engine gone, before the words below
        else
            err << "ddplab: no advice: " << job.problem() << Qt::endl;
        err << "ddplab: kept as stopped in " << job.folder() << ": the Advise page's Past advice, or ddplab --advise --resume " << job.folder()
            << " --export DIR --quit, resumes it, taking the runs it finished" << Qt::endl;
        if (stopSignals.received() != 0)
            return ddplab::kExitCancelled;
        return session.firstFailureCode() != 0 ? session.firstFailureCode() : 1;
    }
    // The job stored it first, into the advice's own folder (a resumed copy is saved where it
    // is): a full --export disk leaves a finished advice stored as finished.
    const Advice& advice = job.advice();
    const bool stored = job.storeProblem().isEmpty();
    if (!stored)
        err << "ddplab: the advice could not be stored for the Advise page: " << job.storeProblem() << Qt::endl;
    QString error;
    const QStringList written = writeAdviceFiles(folder, advice, runs, &error);
    if (written.isEmpty()) {
        err << "ddplab: cannot write the advice to " << folder << ": " << error
            << (stored ? QStringLiteral(" (it is stored as %1: the Advise page's Past advice)").arg(job.folder()) : QString()) << Qt::endl;
        return ddplab::kExitOutputError;
    }
    out << Qt::endl
        << QStringLiteral("Advice for %1 GPUs: batch %2 per GPU, LR %3 (%4), confidence %5 (%6).")
               .arg(advice.gpus)
               .arg(advice.batchPerGpu)
               .arg(advice.lr, 0, 'g', 3)
               .arg(advice.lrRule, advice.confidence, advice.confidenceReason)
        << Qt::endl;
    for (const QString& caution : advice.cautions)
        out << "  caution: " << caution << Qt::endl;
    out << "Wrote advice.json, advice.md and " << (written.size() - 2) / 2 << " charts as PNG and SVG to " << folder << Qt::endl;
    if (resumed)
        out << "The advice's resumption " << tookText(double(thisTime.elapsed()) / 1000.0, estimate) << "; its clock with the stopped advice's time "
            << QString::number(advice.tookSeconds, 'f', 1) << " s" << Qt::endl;
    else
        out << "The advice " << tookText(advice.tookSeconds, estimate) << Qt::endl;
    // Kept like studies: the Advise page lists it under Past advice.
    if (!stored)
        return ddplab::kExitOutputError;
    out << "Stored as " << job.folder() << " (the Advise page's Past advice)" << Qt::endl;
    return 0;
}

// --advise --resume ADVICE: a stopped advice goes on from its progress file.
int resumeAdviceHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err)
{
    // A folder as given (relative to here), else an advice's name under the store.
    const QFileInfo given(options.resumeStudy);
    const StoredAdvice kept = AdviceStore().open(given.isDir() ? given.absoluteFilePath() : options.resumeStudy);
    if (kept.directory.isEmpty()) {  // a name that would leave the store ("../x")
        err << "ddplab: " << kept.problem << Qt::endl;
        return 2;
    }
    if (!QFileInfo(kept.directory).isDir()) {
        err << "ddplab: no advice at " << kept.directory << " (give a stopped advice's folder, or its name under the advice folder)" << Qt::endl;
        return 2;
    }
    if (kept.running) {
        // Two advisors on one advice ran side by side, the last writer winning (issue 41).
        err << "ddplab: " << kept.directory << " is running now"
            << (kept.runningPid > 0 ? QStringLiteral(" (process %1 runs it)").arg(kept.runningPid) : QString())
            << ": one advisor at a time runs an advice; wait for it to end, or stop it, then resume it" << Qt::endl;
        return 2;
    }
    if (!kept.stopped) {
        err << "ddplab: " << kept.directory << " is not a stopped advice"
            << (kept.advice ? QStringLiteral(": it has finished (its advice.json is there)") : kept.problem.isEmpty() ? QString() : QStringLiteral(": ") + kept.problem)
            << Qt::endl;
        return 2;
    }
    if (!QDir().mkpath(QDir(options.exportDirectory).absolutePath())) {
        err << "ddplab: cannot make the folder " << options.exportDirectory << Qt::endl;
        return 2;
    }
    // How long, as a new advice says it: the plan less the runs it finished (taken, not run again).
    QString unread;
    const std::optional<QJsonObject> progress = readProgress(kept.progressFile(), &unread);
    const std::optional<AdviceRequest> request = progress ? requestOfProgress(*progress, &unread) : std::nullopt;
    if (!request) {
        err << "ddplab: the stopped advice cannot be resumed: " << unread << Qt::endl;
        return 2;
    }
    const double estimate = expectedResumedAdviceSeconds(*request, *progress, MachineSpeed::measure(RunStore()));
    out << "DDP Lab advisor: resuming " << kept.directory << " (" << kept.gpus << " GPUs, " << kept.runsEnded << " runs finished), "
        << adviceDurationText(estimate, resumedBudgetSeconds(*request, *progress)) << Qt::endl;
    return runAdvice(options, [&](AdviceJob& job) { return job.resume(kept.directory); }, out, err, estimate, true);
}

// `ddplab-engine inspect` on your own model and data, waited for; nullopt with the engine's
// sentence (and the key it names) when it refuses them.
std::optional<ModelInspection> inspectOwnModel(const ddplab::Config& base, const QString& engine, QString* problem)
{
    ModelInspector inspector(engine);
    QEventLoop loop;
    QObject::connect(&inspector, &ModelInspector::changed, &loop, [&] {
        if (!inspector.isRunning())
            loop.quit();
    });
    inspector.inspect(presetFromCoreConfig(base));
    if (inspector.isRunning())
        loop.exec();
    if (inspector.inspection())
        return inspector.inspection();
    const std::optional<InspectionProblem>& refused = inspector.problem();
    // The engine's sentences about a file name its key already ("model_file /x does not exist").
    const bool named = refused && (refused->key.isEmpty() || refused->message.startsWith(refused->key + QLatin1Char(' ')));
    *problem = refused ? (named ? refused->message : refused->key + QStringLiteral(": ") + refused->message)
                       : QStringLiteral("the engine's inspect gave no answer about your model");
    return std::nullopt;
}

}  // namespace

int adviseHeadless(const LaunchOptions& options, QTextStream& out, QTextStream& err)
{
    if (!options.resumeStudy.isEmpty())
        return resumeAdviceHeadless(options, out, err);
    AdviceRequest request;
    if (!options.preset.isEmpty()) {
        const ResolvedPreset resolved = resolvePreset(options.preset, LessonLibrary::load(), PresetLibrary::load());
        if (!resolved.error.isEmpty()) {
            err << "ddplab: " << resolved.error << Qt::endl;
            return 2;
        }
        if (resolved.runs.size() != 1) {
            err << "ddplab: --advise needs the settings of one run; \"" << options.preset << "\" has " << resolved.runs.size()
                << " runs: give a preset file of one run" << Qt::endl;
            return 2;
        }
        request.base = resolved.runs.front().config;
    }
    request.gpus = options.adviseGpus;
    request.maxBatchPerGpu = options.maxBatchPerGpu;
    request.budgetSeconds = options.budgetMinutes * 60.0;
    request.horizonSamples = double(options.horizonSamples);
    request.layers = builtInLayers(request.base);
    std::optional<ModelInspection> inspection;
    if (traitsOf(request.base).ownModel) {
        // As the Advise page has it before it starts: inspect reads your data (its size plans
        // the training), measures a step of your model (its memory per sample) and names its layers.
        QString problem;
        inspection = inspectOwnModel(request.base, locateEngine(options.enginePath), &problem);
        if (!inspection) {
            err << "ddplab: " << problem << Qt::endl;
            return 2;
        }
        request.base.trainSamples = inspection->trainSamples;
        request.layers = inspectedLayers(*inspection);
    }
    MostBatch most;
    if (request.maxBatchPerGpu == 0 && request.base.batchSize > 0) {
        // As the Advise page's default, with no Run-on host's report: this computer's memory.
        most = mostBatchPerGpu(batchMemoryOf(request.base, inspection ? &*inspection : nullptr), memoryPerGpu(request.base, DeviceInventory(), request.gpus),
                               request.base.batchSize, trainingSamplesPerGpu(request.base, request.gpus));
        request.maxBatchPerGpu = most.batch;
    }
    if (!QDir().mkpath(QDir(options.exportDirectory).absolutePath())) {
        err << "ddplab: cannot make the folder " << QDir(options.exportDirectory).absolutePath() << Qt::endl;
        return 2;
    }
    if (const QString problem = adviceRequestProblem(request); !problem.isEmpty()) {
        err << "ddplab: " << problem << Qt::endl;
        return 2;
    }
    // How long, as lessons and studies say it: the plan at this machine's measured speed, and the
    // budget its rounds of more orders and seeds may fill.
    const double estimate = expectedAdviceSeconds(request, MachineSpeed::measure(RunStore()));
    out << "DDP Lab advisor: " << options.adviseGpus << " GPUs, a budget of " << options.budgetMinutes << " min, "
        << adviceDurationText(estimate, request.budgetSeconds) << Qt::endl;
    if (most.batch > 0)
        out << "Most batch per GPU " << most.batch << ": " << most.source << Qt::endl;
    return runAdvice(options, [&](AdviceJob& job) { return job.start(request); }, out, err, estimate);
}

}  // namespace ddplab::ui
