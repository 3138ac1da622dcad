// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_estimate.hpp"

#include "client/library/preset_file.hpp"
#include "client/runs/run_record.hpp"
#include "client/runs/run_status.hpp"
#include "client/runs/run_store.hpp"
#include "client/wire.hpp"
#include "core/batch_schedule.hpp"
#include "core/derived.hpp"
#include "core/workload_table.hpp"
#include "unmeasured_speed.hpp"

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace ddplab::ui {
namespace {

// Seconds, fitted to every run of the eighteen lessons run with `ddplab --preset ID --run --quit`
// on the 2-core development machine (an AMD EPYC since 2026-11-30; first an Intel Xeon, whose
// figures some comments below still give) while other work kept it busy (load 2-5: builds beside
// it), each lesson's total within 1.3x (tests/ui/tst_study_estimate's table). A quiet machine is
// faster, a busier one slower: that is MachineSpeed's to say.
constexpr double kCores = 2.0;                    // the development machine's
// The lab starting the engine's `runs` process (LibTorch loaded once: its 288 shared libraries
// and static initialisers), for a lesson or a study; and each run in it. Fitted on the AMD EPYC to
// every lesson's whole time (the command's start and exports included) less its runs' steps and
// their other start-up parts: 1.16 s and 0.72 s, each lesson then within 0.84-1.27x (0.4 and
// 0.3 s on the Intel made the toy lessons 2-3x short here).
constexpr double kSessionStartSeconds = 1.2;
constexpr double kStartSeconds = 0.7;             // a run's fork, rendezvous, first and last events
constexpr double kStartSecondsPerRank = 0.006;    // each rank's process and its store connection
// Each rank draws its experiments' data (toy, linreg) before its first step: every experiment's
// examples, linreg's dim inputs and a target each, a noisy toy's input and target. The draws are
// what costs, not the experiments: a study's linreg of 256 experiments of 4,096 examples of 8 is
// 9.4 million values a rank, 3.7x the 10,000 toy experiments of 256 of seed 000's lesson.
// Counted per experiment before (5.4e-6 s a rank), that linreg start-up was 0.005 s where it took
// about 1 s: the start-up factor MachineSpeed then measured on a study's runs (3.8) made the next
// lessons' start-ups 3x too long (eight lessons at 0.24-0.42 of their estimates, after critical-
// batch). Fitted to the start-ups the lab measured (finished - started - wall_s) in one data
// folder, critical-batch and then eight lessons (2026-11-29 18:02-18:08, load 3-5.5): toy runs of
// 1, 1,000 and 10,000 experiments on 8 ranks 0.32, 0.40 and 0.85 s (tst_study_estimate's
// aRunsDrawnDataIsPartOfItsStartUp). What one example costs in a toy value's draws is its row's
// (engine/core/workload_table.cpp's drawnValuesPerExample: a linreg value costs 1.45 a toy's).
// On the AMD EPYC a drawn value costs 4e-8 s (least squares over the 436 toy and linreg runs of
// the lessons and studies timed there; 1.2e-8 s on the Intel).
constexpr double kStartSecondsPerDrawnValue = 4.0e-8;
// Reading Fashion-MNIST (or your own data), the first batches: every rank reads it, ranks beyond
// the cores taking turns (8 ranks of the micro-batch lesson: 4 times one rank's). Measured beside
// the toy runs above: the MLP's start-ups took 0.52 s on 2 ranks, 0.57 on 4 (0.43 s made them
// 1.4-1.8x too long; 0.2 keeps the micro-batch lesson within 1.5x of its 6.1 s at load 5.5-8).
constexpr double kDataStartSeconds = 0.2;
// A branch or a resumption reads its checkpoint and checks it against its settings first: little.
// (0.45 s before, fitted to the critical-batch branches' 3 s beyond their steps and starts, which
// were their data's draws: 2 ranks of 256 x 4,096 x 9; their start-ups took 0.54 s, the
// critical-batch study's 2-rank runs of the same data from the start 0.87 s.)
constexpr double kResumeSeconds = 0.1;
constexpr double kStepSeconds = 0.0004;           // one toy or linreg step on one rank
constexpr double kAllReduceSeconds = 0.0013;      // a toy or linreg step's all-reduce between ranks
// One sample of one experiment, toy or linreg; ranks beyond the cores take turns and cost more
// than their share (8 ranks of 10,000 experiments: 4x one rank's per sample).
constexpr double kSampleSeconds = 1.0e-7;
// A model's step beyond its images: the optimizer and the step's events on every run, and with
// more than one rank the all-reduce of its gradients, ranks beyond the cores taking turns. One
// rank does no all-reduce: counted at 5.4 ms a step there too, the MLP's 1-rank runs were
// estimated 2-7x long on the AMD EPYC (adamw-timescale's 384 steps of 32 trained in 0.65 s).
// The MLP's figures are fitted to its 46 runs of the lessons and studies timed there in one data
// folder (scripts/lessons-timing.py, 2026-11-30, load 2-5; least squares on each run's wall_s
// against its steps, its all-reduced steps, its images and its evaluations' images, relative to
// its time: every run within 0.8-1.25x but the three of the micro-batch lesson, 0.3-1.3 s long).
// The CNN's all-reduce keeps the step the development machine measured (too few CNN runs there
// to fit it apart).
constexpr double kModelStepSeconds = 0.00061;
constexpr double kAllReduceSecondsMlp = 0.0078;
constexpr double kAllReduceSecondsCnn = 0.0054;
constexpr double kImageSecondsMlp = 2.7e-5;       // one Fashion-MNIST image through the MLP and back, on one core
constexpr double kImageSecondsCnn = 1.1e-3;       // through the CNN and back, on one core
// An evaluation: the training loss over 2,000 training images and the validation images
// (Fashion-MNIST's 10,000, or val_subset), forward only, in chunks of 250; the MLP's as long on
// 1 rank as on 2, the CNN's faster on 2 (below). An
// evaluation image against a training image: the MLP's 0.33 (the fit above; 0.087 s an
// evaluation of 12,000 images on 1 rank with ddplab-engine run, eval_every 8 against epoch ends
// only, load 3.3), the CNN's 0.21 (2.8 s an evaluation on 1 rank, eval_every 32 against
// the epoch's end, load 2.6-3.2). On the Intel these were 0.37 s and 4.8-5.8 s, half a
// training image: that share made the MLP's runs that evaluate often about 2x long here.
constexpr int64_t kEvalTrainImages = 2000;
constexpr int64_t kFashionTestImages = 10000;
constexpr double kForwardShareMlp = 0.33;
constexpr double kForwardShareCnn = 0.21;
// The CNN's evaluation over 2 or more ranks: each rank's forward over its shard of the images
// on its own thread goes about twice as fast as one rank's intra-op threads over all of them
// (which its training steps, unlike its evaluations, use well): in decay-or-grow's study, 2 ranks
// of 16, load 2.8-3.6, an evaluation took 1.21 s (its median of 32), and the estimate's 2.8 s
// made the study 1.7x long; timed again with ddplab-engine run (2026-11-30, 256 training images,
// four epochs, load 6.2): 5.0-6.7 s on 1 rank, 2.7-4.1 s on 2. The MLP's evaluations do not
// speed up (0.08 s on 1 rank, 0.11 on 2, 0.12 on 4).
constexpr double kCnnEvaluationRanksSpeedup = 2.0;
// Your own model's evaluation image against inspect's training sample (its forward only, in
// chunks of 250; the validation set sharded over the ranks as their steps' samples are): timed
// with ddplab-engine run (2026-11-30, load 4-5) on the examples' ResNet, 2 ranks of 16 on 2,048
// images: the 10,000 validation images took 4.2-4.5 s a pass and the 2,000 training images
// 0.78 s, 4.2e-4 s an image, 0.31 of inspect's 2.75 ms a sample (0.044 s for 16, the median of
// three inspects: 0.033, 0.044, 0.072 s) shared over the 2 ranks. Counted at the lab's models' half a sample,
// one rank after the other, decay-or-grow-own-model's four evaluations a run made it 1.8x long.
constexpr double kOwnForwardShare = 0.3;
// Your own data's size is known once the engine has read it; until then its subset, or a
// Fashion-MNIST-sized guess.
constexpr int64_t kUnknownDataSamples = 10'000;

constexpr double kSpeedFloor = 0.1, kSpeedCeiling = 30.0;  // a factor outside is a clock gone wrong
// A run's start-up is short and varies between studies as much as between machines: the same
// 4-rank linreg start (256 x 4,096 x 9 drawn values) took 1.5 s in critical-batch's last runs and
// a median 2.8 s in adam-surge's. Measured over a dozen kinds' newest runs, critical-batch's
// made sgd-vs-adam-best-lr's 196 starts look half as long as they were (2.1x short); over the
// newest 200 starts it is 1.3x (replayed over the AMD EPYC's timing folder, docs/lessons.md).
constexpr qsizetype kStartsMeasured = 200;
constexpr double kShortestMeasured = 0.05;  // steps that took less say nothing about a machine's speed
// A start-up whose draws are at most this share of the rest measures the rest alone.
constexpr double kFewDraws = 0.1;
// The draws are arithmetic over millions of values, and a vectorising CPU does them many times
// faster than the machine their constant was fitted on: 0.04 of it on a fast Intel Xeon
// (2026-12-02), below the other factors' floor.
constexpr double kDrawsFloor = 0.01;

// The draws' factor before any start-up with draws was measured here, from the rest's: on the
// three machines measured, a CPU that forks and connects faster than the development machine
// drew its data faster still, about as the rest's factor cubed (the AMD EPYC of the constants:
// 1 and 1; an Intel Xeon: the rest 0.3, the draws 0.04; another AMD EPYC: 0.29-0.40 and
// 0.01-0.07; 2026-12-02, idle). critical-batch-branches, a fresh data folder's first draws, took
// 2.0 and 2.6 s in two fresh folders there, after a-rank-fails had measured the rest at 0.29 and
// 0.40: at the rest's factor it was estimated 4.3 s (0.47x; 0.37x on the Intel), at its square
// 4.1 s (0.63x). A machine slower or busier than the constants' draws as it does the rest.
double unmeasuredDraws(double start)
{
    return start < 1.0 ? start * start * start : start;
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    const qsizetype middle = values.size() / 2;
    return values.size() % 2 ? values.at(middle) : (values.at(middle - 1) + values.at(middle)) / 2;
}

double clampedFactor(double factor)
{
    return std::clamp(factor, kSpeedFloor, kSpeedCeiling);
}

// Runs one after another in one session: a run resuming from an earlier one's last checkpoint
// costs the steps after it; settings that cannot be read (nullopt) cost a start-up.
double sequenceSeconds(const QList<std::optional<Config>>& configs, const QList<int>& resumesFrom, const MachineSpeed& speed)
{
    double total = kSessionStartSeconds * speed.start;
    for (qsizetype i = 0; i < configs.size(); ++i) {
        if (!configs.at(i)) {
            total += kStartSeconds * speed.start;
            continue;
        }
        const int from = resumesFrom.at(i);
        const bool resumes = from >= 0 && from < i && configs.at(from);
        total += estimatedSeconds(*configs.at(i), speed, nullptr, resumes ? lastCheckpointStep(*configs.at(from)) : -1);
    }
    return total;
}

}  // namespace

StepKind stepKindOf(const Config& config)
{
    const WorkloadTraits& row = traitsOf(config);
    if (row.vectorised)
        return StepKind::Vectorised;
    if (row.ownModel)
        return StepKind::OwnModel;
    return config.model == ModelKind::Cnn ? StepKind::Cnn : StepKind::Mlp;
}

QString measuredStepKey(const QJsonObject& settings)
{
    return settings.value(wire(key::kModelFile)).toString() + QLatin1Char('|') + settings.value(wire(key::kTrainData)).toString();
}

int64_t resumedStepOf(const Config& config)
{
    if (config.resumeFrom.empty())
        return 0;
    static const QRegularExpression engineNamed(QStringLiteral("(?:^|/)step-(\\d+)\\.pt$"));
    const QRegularExpressionMatch match = engineNamed.match(QString::fromStdString(config.resumeFrom));
    return match.hasMatch() ? match.captured(1).toLongLong() : 0;
}

int64_t lastCheckpointStep(const Config& writer)
{
    // A run told to fail at step s trains s - 1 steps (the lesson of a failing rank).
    const int64_t trained = writer.failAt ? std::min(totalSteps(writer), writer.failAt->step - 1) : totalSteps(writer);
    int64_t last = writer.checkpointAt.every > 0 ? trained / writer.checkpointAt.every * writer.checkpointAt.every : 0;
    for (int64_t step : writer.checkpointAt.steps) {
        if (step <= trained)
            last = std::max(last, step);
    }
    return last;
}

namespace {

double optimizerStepsPerBaseStep(const Config& config)
{
    if (!growsByPlan(config))
        return 1.0;
    const int64_t base = totalSteps(config);
    return base > 0 ? double(planBatchGrowth(config).steps) / double(base) : 1.0;
}

}  // namespace

RunParts runParts(const Config& config, const MeasuredModel* measured, int64_t fromStep)
{
    RunParts cost;
    cost.kind = stepKindOf(config);
    cost.lone = config.worldSize <= 1;
    const double ranks = double(std::max<int64_t>(1, config.worldSize));
    const double parallel = std::min(ranks, kCores);  // ranks beyond the cores take turns
    const double turns = std::max(1.0, ranks / kCores);
    const bool ownModel = cost.kind == StepKind::OwnModel;
    const bool timed = ownModel && measured && measured->secondsPerSample > 0;
    Config sized = config;
    if (timed && sized.trainSamples <= 0)
        sized.trainSamples = measured->trainSamples;
    if (ownModel && sized.trainSamples <= 0)
        sized.trainSamples = sized.trainSubset > 0 ? sized.trainSubset : kUnknownDataSamples;
    // A run told to fail (fail_at, the lesson of a failing rank) ends at that step: it costs the
    // steps before it, not the whole training (a-rank-fails was estimated 0.38x long). A branch
    // or a resumption trains from its checkpoint's step: the steps after it (the critical-batch
    // branches were estimated as their 20 steps to the checkpoint and their own).
    const int64_t from = fromStep >= 0 ? fromStep : resumedStepOf(config);
    const double planned = double(totalSteps(sized));
    const double ends = config.failAt ? std::min(planned, double(std::max<int64_t>(0, config.failAt->step - 1))) : planned;
    const double steps = std::max(0.0, ends - double(from));
    const double samples = steps * double(effectiveBatchSize(sized));
    cost.samples = samples;
    // A batch that grows by plan takes the same samples in fewer optimizer steps (decay-or-grow's
    // smith: 64 + 32 + 16 + 8 = 120 against 256), and each step's overhead and all-reduce is paid
    // per step: the overhead counts the plan's steps, the images the samples.
    const double optimizerSteps = steps * optimizerStepsPerBaseStep(sized);
    cost.startSeconds = kStartSeconds + kStartSecondsPerRank * ranks + (from > 0 || !config.resumeFrom.empty() ? kResumeSeconds : 0.0);
    if (cost.kind == StepKind::Vectorised) {
        const double experiments = double(std::max<int64_t>(1, config.experiments));
        const auto drawnValues = traitsOf(config).drawnValuesPerExample;
        cost.drawSeconds = kStartSecondsPerDrawnValue * ranks * experiments * (drawnValues ? drawnValues(config) : 0.0) *
                           double(std::max<int64_t>(1, config.numExamples));
        cost.startSeconds += cost.drawSeconds;
        cost.stepSeconds = optimizerSteps * (kStepSeconds + (ranks > 1 ? kAllReduceSeconds * turns : 0.0)) +
                           samples * experiments * kSampleSeconds * turns / parallel;
        return cost;
    }
    // A model: its images trained and its evaluations (every eval_every steps and each epoch's end).
    cost.startSeconds += kDataStartSeconds * turns;
    const int64_t every = evalInterval(sized);
    const double epochs = std::max(1.0, steps / double(std::max<int64_t>(1, stepsPerEpoch(sized))));
    // An epoch's end on a multiple of eval_every is one evaluation, not two.
    const int64_t perEpoch = std::max<int64_t>(1, stepsPerEpoch(sized));
    const double evaluations = every > 0 ? steps / double(every) + (perEpoch % every == 0 ? 0.0 : epochs) : epochs;
    cost.evaluations = evaluations;
    if (timed) {
        // Your own model timed by inspect here, run as the lab's models are: each step's overhead
        // (a toy step's and its all-reduce, as before: at the lab's models' 5.4 ms, the 300 steps
        // of tst_study_headless's small models would put their 1.5 s study past 3x), its samples
        // with the ranks side by side, and its evaluations (the training loss over its first 2,000
        // samples at most and the validation set or its val_subset, forward only), with inspect's
        // CPU seconds a sample (on one thread, as each of a run's 2 ranks on these 2 cores gets;
        // not its wall seconds, one instant's wait for a core: measuredModelOf) in place of the
        // constants' image. Counted one rank after the other and each evaluation image at half a
        // sample, decay-or-grow-own-model was estimated 1,140 s and took 634 s. Those seconds are this machine's already; the steps'
        // overhead goes at this machine's measured speed (estimatedSeconds).
        const double image = measured->secondsPerSample;
        const double valImages = sized.valSubset > 0 ? double(std::min<int64_t>(sized.valSubset, measured->valSamples))
                                                     : double(measured->valSamples);
        const double evalImages = double(std::min<int64_t>(kEvalTrainImages, datasetSize(sized))) + valImages;
        cost.measuredHere = true;
        cost.startSeconds = measured->startSeconds + kStartSecondsPerRank * (ranks - 1);
        cost.evaluationSeconds = evaluations * evalImages * kOwnForwardShare * image / parallel;
        cost.measuredSeconds = samples * image / parallel + cost.evaluationSeconds;
        cost.stepSeconds = optimizerSteps * (kStepSeconds + (ranks > 1 ? kAllReduceSeconds * turns : 0.0)) + cost.measuredSeconds;
        return cost;
    }
    const double testImages = double(sized.valSubset > 0 ? std::min(sized.valSubset, kFashionTestImages) : kFashionTestImages);
    const double evalImages = double(kEvalTrainImages) + testImages;
    // Your own model not timed yet counts as the CNN: the examples' ResNet and transformer take
    // 15-45 s a run (docs/studies.md); the Study page times it within seconds.
    const bool mlp = cost.kind == StepKind::Mlp;
    const double image = mlp ? kImageSecondsMlp : kImageSecondsCnn;
    const double evaluationSpeedup = !mlp && ranks > 1 ? kCnnEvaluationRanksSpeedup : 1.0;
    cost.evaluationSeconds = evaluations * evalImages * (mlp ? kForwardShareMlp : kForwardShareCnn) * image / evaluationSpeedup;
    const double allReduce = ranks > 1 ? (mlp ? kAllReduceSecondsMlp : kAllReduceSecondsCnn) * turns : 0.0;
    // The images go through every core: ranks side by side, or a lone rank's intra-op threads
    // (the CNN's 4,096 images took 2.2 s on 1 rank and 2.45 s on 2, 2.25 s at this image's cost).
    cost.stepSeconds = optimizerSteps * (kModelStepSeconds + allReduce) + samples * image / kCores + cost.evaluationSeconds;
    return cost;
}

MachineSpeed MachineSpeed::uniform(double factor)
{
    MachineSpeed speed;
    speed.start = factor;
    speed.draws = factor;
    speed.steps.fill(factor);
    speed.loneSteps.fill(factor);
    speed.evaluations.fill(factor);
    return speed;
}

double startSecondsHere(const RunParts& cost, const MachineSpeed& speed)
{
    return (cost.startSeconds - cost.drawSeconds) * speed.start + cost.drawSeconds * speed.draws;
}

double stepSecondsHere(const RunParts& cost, const MachineSpeed& speed)
{
    return (cost.stepSeconds - cost.evaluationSeconds) * speed.stepFactor(cost.kind, cost.lone) +
           cost.evaluationSeconds * speed.evaluationFactor(cost.kind);
}

std::pair<double, double> fitTwoParts(const QList<TwoParts>& runs, double prior)
{
    // Least squares on each run's time (its parts over its time, against 1), plus
    // kPriorWeight * (factor / prior - 1)^2 on each factor: the 2x2 normal equations, solved
    // directly. The prior keeps a part the runs could not tell from the other at the median
    // ratio; relative to the prior, so that it pulls a factor of 5 no harder than one of 0.2.
    constexpr double kPriorWeight = 0.1;
    const double pull = kPriorWeight / (prior * prior);
    double aa = pull, ab = 0.0, bb = pull, a1 = pull * prior, b1 = pull * prior;
    for (const TwoParts& run : runs) {
        if (run.took <= 0)
            continue;
        const double a = run.first / run.took, b = run.second / run.took;
        aa += a * a, ab += a * b, bb += b * b, a1 += a, b1 += b;
    }
    const double determinant = aa * bb - ab * ab;
    return {clampedFactor((a1 * bb - b1 * ab) / determinant), clampedFactor((b1 * aa - a1 * ab) / determinant)};
}

double estimatedSeconds(const Config& config, const MachineSpeed& speed, const MeasuredModel* measured, int64_t fromStep)
{
    const RunParts cost = runParts(config, measured, fromStep);
    // A run with a target loss stops when it meets it: most of a study's LRs meet it long before
    // their last step, the smallest never (sgd-vs-adam-best-lr, counted to every run's last step,
    // was estimated 425.5 s and took 203.9 s).
    const double trained = config.stopAtLoss ? speed.stoppedShare : 1.0;
    // Inspect timed your own model here, as busy as the machine was then: its seconds stand; the
    // steps' overhead it did not time goes at this machine's measured speed, as the lab's models'.
    if (cost.measuredHere)
        return cost.startSeconds +
               (cost.measuredSeconds + (cost.stepSeconds - cost.measuredSeconds) * speed.stepFactor(cost.kind, cost.lone)) * trained;
    return startSecondsHere(cost, speed) + stepSecondsHere(cost, speed) * trained;
}

double estimatedSeconds(const QJsonObject& config, const MachineSpeed& speed, const MeasuredModel* measured)
{
    const std::optional<Config> typed = coreConfigOf(config);
    return typed ? estimatedSeconds(*typed, speed, measured) : kStartSeconds * speed.start;
}

double estimatedSeconds(const StudyPlan& plan, const MachineSpeed& speed, const MeasuredSteps& measured)
{
    // How many of their steps runs with a target train is the study's (its seeds, its LRs), not
    // the machine's: a study that says it (trained_share) is estimated at its own share, not at
    // the share other studies' runs trained here (sgd-vs-adam-best-lr's trained 0.64, and after
    // adam-surge it was estimated at that study's newest runs' 0.49).
    double total = kSessionStartSeconds * speed.start;
    for (double seconds : pointSeconds(plan, speed, measured))
        total += seconds;
    return total;
}

QHash<int, double> pointSeconds(const StudyPlan& plan, const MachineSpeed& speed, const MeasuredSteps& measured)
{
    MachineSpeed here = speed;
    if (plan.trainedShare > 0.0)
        here.stoppedShare = plan.trainedShare;
    QHash<int, double> seconds;
    for (const StudyPoint& point : plan.points) {
        const auto found = measured.constFind(measuredStepKey(point.config));
        seconds.insert(point.index, estimatedSeconds(point.config, here, found != measured.constEnd() ? &*found : nullptr));
    }
    return seconds;
}

double retimedSecondsLeft(double estimatedDone, double tookDone, double estimatedLeft)
{
    if (!(estimatedDone > 0.0) || !(tookDone > 0.0))
        return estimatedLeft;
    return estimatedLeft * tookDone / estimatedDone;
}

double estimatedSeconds(const Lesson& lesson, const MachineSpeed& speed)
{
    QList<std::optional<Config>> configs;
    QList<int> resumesFrom;
    for (const LessonRun& run : lesson.runs) {
        // Its checkpoints as the lesson's session asks for them (preset_resolver): where the
        // branches after it start.
        std::optional<Config> config = coreConfigOf(run.config);
        if (config && !run.checkpointAt.isEmpty())
            config = withSettings(*config, {{wire(key::kCheckpointAt), run.checkpointAt}, {wire(key::kCheckpointDir), QStringLiteral("checkpoints")}});
        configs.append(config);
        resumesFrom.append(run.resumeFromRun);
    }
    return sequenceSeconds(configs, resumesFrom, speed);
}

double estimatedSeconds(const QList<RunRequest>& runs, const MachineSpeed& speed)
{
    QList<std::optional<Config>> configs;
    QList<int> resumesFrom;
    for (const RunRequest& run : runs) {
        configs.append(run.config);
        resumesFrom.append(run.resumeFromRun);
    }
    return sequenceSeconds(configs, resumesFrom, speed);
}

double estimatedSeconds(const QList<Config>& runs, const MachineSpeed& speed)
{
    double total = kSessionStartSeconds * speed.start;
    for (const Config& run : runs)
        total += estimatedSeconds(run, speed);
    return total;
}

double estimatedSeconds(const Config& config, double speed, const MeasuredModel* measured)
{
    return estimatedSeconds(config, MachineSpeed::uniform(speed), measured);
}

double estimatedSeconds(const QJsonObject& config, double speed, const MeasuredModel* measured)
{
    return estimatedSeconds(config, MachineSpeed::uniform(speed), measured);
}

double estimatedSeconds(const StudyPoint& point, double speed)
{
    return estimatedSeconds(point.config, speed);
}

double estimatedSeconds(const StudyPlan& plan, double speed, const MeasuredSteps& measured)
{
    return estimatedSeconds(plan, MachineSpeed::uniform(speed), measured);
}

double estimatedSeconds(const Lesson& lesson, double speed)
{
    return estimatedSeconds(lesson, MachineSpeed::uniform(speed));
}

MachineSpeed MachineSpeed::measure(const RunStore& store, int recent, int recentStopped)
{
    return measure(store.listRuns(), recent, recentStopped, unmeasuredFactor(machineLoadNow(), QThread::idealThreadCount()));
}

namespace {

// A run's steps as measured: its parts at the constants' seconds and what its steps took, with its
// training steps' seconds alone where it said them (the summary's train_s; -1 where not).
struct StepsTook {
    TwoParts parts;
    double training = -1.0;
};

// A kind's factors from what its runs said their training steps took (train_s), each part
// measured, not fitted: its training steps on one rank and on several apart, its evaluations from
// the rest of their time. Fitted as two parts over all of a kind's runs (an AMD EPYC, 2026-12-02),
// the MLP's 1-rank runs, which evaluated every 8 or 25 steps (adam-bsi-vs-adam, seed002), could
// not tell their training steps from their evaluations, and every training step went at the
// several ranks' factor (0.62, where a 1-rank step took about 1.3): a study of 1-rank runs that
// evaluate seldom (adamw-timescale) took 1.66x its estimate. training 0: no run said it.
struct StepFactors {
    double lone = 0.0, training = 0.0, evaluations = 0.0;
};

StepFactors saidFactors(const QList<StepsTook>& lone, const QList<StepsTook>& ranked)
{
    QList<double> loneRatios, rankedRatios, evaluationRatios;
    for (const QList<StepsTook>* runs : {&lone, &ranked}) {
        for (const StepsTook& run : *runs) {
            if (run.training < 0)
                continue;
            if (run.parts.first > 0 && run.training > 0)
                (runs == &lone ? loneRatios : rankedRatios).append(run.training / run.parts.first);
            // Evaluations too short to time (a run that evaluates once, at its end) say little.
            if (run.parts.second > 0 && run.parts.took - run.training >= kShortestMeasured)
                evaluationRatios.append((run.parts.took - run.training) / run.parts.second);
        }
    }
    if (loneRatios.isEmpty() && rankedRatios.isEmpty())
        return {};
    StepFactors factors;
    factors.training = clampedFactor(median(!rankedRatios.isEmpty() ? rankedRatios : loneRatios));
    factors.lone = clampedFactor(median(!loneRatios.isEmpty() ? loneRatios : rankedRatios));
    factors.evaluations = !evaluationRatios.isEmpty() ? clampedFactor(median(evaluationRatios)) : factors.training;
    return factors;
}

// The runs that began an engine session: the engine's first run, each lesson's and study's first
// (the run before it in time came from another engine process, or none did). The session's
// start-up is in such a run's time: the lessons' first runs took 1-2.4 s more to start than
// their others (seed004's at load 6: 2.8-2.9 s against 0.3-0.6), and counted as a run's start-up
// they made every start look 1.4-1.7x long and the short linreg lessons after them 1.6-2.2x
// long. Runs stored without the engine's process id are not told apart.
QSet<QString> firstRunsOfTheirSessions(QList<RunRecord> runs)
{
    std::sort(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) { return a.started < b.started; });
    QSet<QString> first;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const qint64 pid = runs.at(i).enginePid;
        if (pid != 0 && (i == 0 || runs.at(i - 1).enginePid != pid))
            first.insert(runs.at(i).id);
    }
    return first;
}

}  // namespace

MachineSpeed MachineSpeed::measure(const QList<RunRecord>& runs, int recent, int recentStopped, double unmeasured)
{
    // The newest first: the machine as it is now, busy or not.
    QList<RunRecord> finished;
    for (const RunRecord& run : runs) {
        // A diverged run ran its steps too (the engine goes on to the end): it measures as well.
        const bool ranToTheEnd = run.status == RunStatus::Finished || run.status == RunStatus::Diverged;
        if (ranToTheEnd && run.host.isEmpty() && run.started.isValid() && run.finished.isValid())
            finished.append(run);
    }
    std::sort(finished.begin(), finished.end(), [](const RunRecord& a, const RunRecord& b) { return a.started > b.started; });
    const QSet<QString> firstOfSessions = firstRunsOfTheirSessions(runs);
    // Each kind's runs on one rank and on several: training steps, evaluations, and the seconds
    // of the training steps alone where the run said them.
    std::array<QList<StepsTook>, kStepKinds> loneParts, rankedParts;
    QList<double> startRatios, wholeRatios;
    // Start-ups (the rest, the session's with it; the draws), with next to no draws and with some.
    QList<TwoParts> restStarts, drawStarts;
    // Runs with a target loss: the constants' seconds of the steps they trained and were given.
    double stoppedTrained = 0.0, stoppedGiven = 0.0;
    int stoppedRuns = 0;
    int looked = 0;
    // Beyond the newest few hundred runs, only the sorts still to find: a kind's runs on one rank
    // or on several where its other sort was measured (the one does not tell the other: seed003-
    // ranks-accuracy's runs on 1-8 ranks, after adam-surge's 322 runs, critical-batch's 80 and the
    // own models' 64, found only adamw-timescale's twelve 1-rank MLP runs among the newest 400 and
    // were estimated at their factor, 1.65, where theirs was about 0.6: 0.51x).
    QList<QList<StepsTook>*> toFind;
    for (const RunRecord& run : finished) {
        // Enough of every kind, or the last few hundred runs: an old run says little of the load now.
        constexpr int kMostLooked = 400, kFurthestLooked = 2000;
        const auto full = [&](const QList<StepsTook>& r) { return r.size() >= recent; };
        const bool enough = std::all_of(loneParts.begin(), loneParts.end(), full) && std::all_of(rankedParts.begin(), rankedParts.end(), full) &&
                            stoppedRuns >= recentStopped;
        if (enough)
            break;
        if (++looked == kMostLooked + 1) {
            for (int kind = 0; kind < kStepKinds; ++kind) {
                QList<StepsTook>& lone = loneParts.at(std::size_t(kind));
                QList<StepsTook>& ranked = rankedParts.at(std::size_t(kind));
                if (lone.isEmpty() != ranked.isEmpty())
                    toFind.append(lone.isEmpty() ? &lone : &ranked);
            }
        }
        const bool beyond = looked > kMostLooked;
        if (beyond && (looked > kFurthestLooked || std::all_of(toFind.begin(), toFind.end(), [&](const QList<StepsTook>* r) { return full(*r); })))
            break;
        QFile file(RunStore::configPath(run));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        std::optional<Config> config = coreConfigOf(QJsonDocument::fromJson(file.read(kMaxSettingsFileBytes)).object());
        if (!config)
            continue;
        // Against the steps it trained, not those it was given: a study's run that reached its
        // target loss stopped early (critical-batch's took a median 15.5 of their 200), and
        // measured against all 200 it made this machine's steps look 10x faster than they were
        // (and the MLP's and the CNN's, not run yet, with them: the lessons after it 2-3x short).
        const bool stops = config->stopAtLoss.has_value();
        const double givenSeconds = stops ? runParts(*config).stepSeconds : 0.0;
        if (run.steps > 0)
            config->maxSteps = resumedStepOf(*config) + run.steps;
        const RunParts cost = runParts(*config);
        if (!beyond && stops && stoppedRuns < recentStopped && run.steps > 0 && givenSeconds > 0) {
            // A diverged run trains to its end: it counts, at its whole share.
            stoppedTrained += std::min(cost.stepSeconds, givenSeconds);
            stoppedGiven += givenSeconds;
            ++stoppedRuns;
        }
        if (cost.kind == StepKind::OwnModel)
            continue;  // the constants' CNN for a model inspect times: no measure of this machine
        const double took = double(run.started.msecsTo(run.finished)) / 1000.0;
        QList<StepsTook>& ofKind = (cost.lone ? loneParts : rankedParts).at(std::size_t(cost.kind));
        const bool measuresSteps = run.trainSeconds >= kShortestMeasured && took >= run.trainSeconds && ofKind.size() < recent;
        const bool said = run.stepsSeconds >= 0 && run.stepsSeconds <= run.trainSeconds;
        const StepsTook steps{{cost.stepSeconds - cost.evaluationSeconds, cost.evaluationSeconds, run.trainSeconds}, said ? run.stepsSeconds : -1.0};
        if (beyond) {
            if (measuresSteps && toFind.contains(&ofKind))
                ofKind.append(steps);
            continue;
        }
        if (run.trainSeconds >= 0 && took >= run.trainSeconds) {
            if (measuresSteps)
                ofKind.append(steps);
            // A session's first run waited for its engine to start (LibTorch's libraries): its
            // start-up holds the session's.
            const double startSeconds = cost.startSeconds + (firstOfSessions.contains(run.id) ? kSessionStartSeconds : 0.0);
            if (startRatios.size() < kStartsMeasured)
                startRatios.append((took - run.trainSeconds) / startSeconds);
            // Each sort of start-up from its own newest: adam-surge's 322 linreg runs would
            // otherwise be all of the newest 200, and the MLP study after it measured on none.
            const TwoParts startUp{startSeconds - cost.drawSeconds, cost.drawSeconds, took - run.trainSeconds};
            QList<TwoParts>& sort = startUp.second <= kFewDraws * startUp.first ? restStarts : drawStarts;
            if (sort.size() < kStartsMeasured)
                sort.append(startUp);
        } else if (took > 0 && wholeRatios.size() < recent) {
            wholeRatios.append(took / (cost.startSeconds + cost.stepSeconds));
        }
    }
    MachineSpeed speed;
    QList<double> kindFactors, modelFactors, modelLoneFactors, modelEvaluations;
    for (int kind = 0; kind < kStepKinds; ++kind) {
        const QList<StepsTook>& lone = loneParts.at(std::size_t(kind));
        const QList<StepsTook>& ranked = rankedParts.at(std::size_t(kind));
        speed.stepRuns.at(std::size_t(kind)) = int(lone.size() + ranked.size());
        speed.runsMeasured += int(lone.size() + ranked.size());
        if (lone.isEmpty() && ranked.isEmpty())
            continue;
        double& steps = speed.steps.at(std::size_t(kind));
        double& loneSteps = speed.loneSteps.at(std::size_t(kind));
        double& evaluations = speed.evaluations.at(std::size_t(kind));
        const StepFactors said = saidFactors(lone, ranked);
        if (said.training > 0) {
            std::tie(loneSteps, steps, evaluations) = std::tuple(said.lone, said.training, said.evaluations);
        } else {
            // Runs stored before their training steps' seconds were kept: the two parts fitted.
            QList<TwoParts> measured;
            QList<double> ratios;  // its steps' seconds against the constants'
            for (const StepsTook& run : lone + ranked) {
                measured.append(run.parts);
                ratios.append(run.parts.took / (run.parts.first + run.parts.second));
            }
            std::tie(steps, evaluations) = fitTwoParts(measured, clampedFactor(median(ratios)));
            loneSteps = steps;
        }
        kindFactors.append(steps);
        if (StepKind(kind) != StepKind::Vectorised) {
            modelFactors.append(steps);
            modelLoneFactors.append(loneSteps);
            modelEvaluations.append(evaluations);
        }
    }
    // A kind not run here yet: a model (the CNN, your own) as the models that were, whose images
    // and evaluations it shares (as the toy's steps, the CNN's first lesson was estimated 2.6x
    // long here); else as the kinds that were, else as whole runs stored before, else (nothing
    // run here yet) as the caller says.
    const double others = !kindFactors.isEmpty()    ? median(kindFactors)
                          : !wholeRatios.isEmpty() ? clampedFactor(median(wholeRatios))
                                                   : clampedFactor(unmeasured);
    for (int kind = 0; kind < kStepKinds; ++kind) {
        if (speed.stepRuns.at(std::size_t(kind)) != 0)
            continue;
        const bool asModels = StepKind(kind) != StepKind::Vectorised && !modelFactors.isEmpty();
        speed.steps.at(std::size_t(kind)) = asModels ? median(modelFactors) : others;
        speed.loneSteps.at(std::size_t(kind)) = asModels ? median(modelLoneFactors) : others;
        speed.evaluations.at(std::size_t(kind)) = asModels ? median(modelEvaluations) : others;
    }
    // A start-up's draws apart from the rest (MachineSpeed::draws): the rest's factor from the
    // start-ups with next to no draws (the models', the small toys'), the draws' from the others,
    // less their rest at that factor. Where only the rest was measured, the draws' factor from
    // the rest's (unmeasuredDraws); where only start-ups with draws, one factor for both. (8728b20 had fitted the two together before the session's start was told apart
    // from its first run's, 6c530fd: counted as the first run's it made the short lessons
    // 1.7-1.8x short, and 4096c9f went back to one factor.)
    QList<double> restRatios, drawRatios;
    for (const TwoParts& startUp : restStarts)
        restRatios.append(startUp.took / startUp.first);
    speed.start = !restRatios.isEmpty() ? clampedFactor(median(restRatios)) : !startRatios.isEmpty() ? clampedFactor(median(startRatios)) : others;
    if (!restRatios.isEmpty()) {
        for (const TwoParts& startUp : drawStarts)
            drawRatios.append((startUp.took - speed.start * startUp.first) / startUp.second);
    }
    // Only start-ups with draws measured: their whole ratio is both parts'.
    const double draws = !drawRatios.isEmpty() ? median(drawRatios) : !drawStarts.isEmpty() ? speed.start : unmeasuredDraws(speed.start);
    speed.draws = std::clamp(draws, kDrawsFloor, kSpeedCeiling);
    if (stoppedRuns > 0) {
        speed.stoppedShare = stoppedTrained / stoppedGiven;
        speed.stoppedRuns = stoppedRuns;
    }
    if (speed.runsMeasured == 0)
        speed.runsMeasured = int(wholeRatios.size());
    return speed;
}

QString durationText(double seconds)
{
    if (seconds < 120)
        return QStringLiteral("about %1 s").arg(std::max(1, int(std::lround(seconds))));
    if (seconds < 2 * 3600)
        return QStringLiteral("about %1 min").arg(int(std::lround(seconds / 60)));
    return QStringLiteral("about %1 h").arg(QString::number(seconds / 3600, 'f', 1));
}

QString tookText(double seconds, double estimated)
{
    // Seconds both, to a tenth: what a table of estimates against actual times is made from. No
    // ratio to an estimate of nothing (a resumption with nothing planned left said "55697000000.00x").
    if (!(estimated >= 0.05))
        return QStringLiteral("took %1 s (estimated %2 s)").arg(QString::number(seconds, 'f', 1), QString::number(std::max(estimated, 0.0), 'f', 1));
    return QStringLiteral("took %1 s (estimated %2 s, %3x)")
        .arg(QString::number(seconds, 'f', 1), QString::number(estimated, 'f', 1), QString::number(seconds / estimated, 'f', 2));
}

}  // namespace ddplab::ui
