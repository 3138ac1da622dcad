// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_estimate.hpp"

#include "client/library/preset_file.hpp"
#include "client/runs/run_record.hpp"
#include "client/runs/run_status.hpp"
#include "client/runs/run_store.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <QFile>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// Seconds, fitted to every run of the thirteen lessons, each run twice with `ddplab --preset ID
// --run --quit` on the 2-core development machine while other programs kept it busy (load 3-10,
// a teacher's laptop with a browser open), and to two studies run the same way
// (docs/studies.md, "How long runs take"). A quiet machine is faster, a busier one slower: that
// is MachineSpeed's to say.
constexpr double kCores = 2.0;                   // the development machine's
constexpr double kStartSeconds = 0.25;           // a run's fork, rendezvous, first and last events
constexpr double kStartSecondsPerRank = 0.05;    // each rank's process and its store connection
// Each rank makes its experiments' data (toy, linreg): 10,000 experiments on 8 ranks take seconds.
constexpr double kStartSecondsPerRankExperiment = 3.0e-5;
// The engine's `runs` process loading LibTorch, once for a lesson or a study when none is up yet.
constexpr double kSessionStartSeconds = 1.0;
constexpr double kDataStartSeconds = 1.0;        // reading Fashion-MNIST (or your own data), the first batches
constexpr double kStepSeconds = 0.0003;          // one toy or linreg step on one rank
constexpr double kToyAllReduceSeconds = 0.0006;  // a toy or linreg step's all-reduce between ranks
constexpr double kToySampleSeconds = 2.0e-7;     // one sample of one experiment, toy or linreg
// A model's step on one rank beyond its images: the all-reduce of its gradients, the optimizer,
// the step's events. Ranks beyond the cores take turns.
constexpr double kRankStepSeconds = 0.004;
constexpr double kImageSecondsMlp = 8.0e-5;      // one Fashion-MNIST image through the MLP and back
// One image through the CNN and back; your own model is counted as such a CNN (the examples'
// ResNet and transformer take 15-45 s a run, docs/studies.md).
constexpr double kImageSecondsCnn = 2.8e-3;
// An evaluation: the training loss over 2,000 training images and the 10,000 test images,
// forward only, in chunks (about a quarter of a training image's cost each).
constexpr double kEvalImages = 12000.0;
constexpr int64_t kEvalTrainImages = 2000;  // the training loss's fixed samples (your own data too)
constexpr double kForwardShare = 0.25;

constexpr int kSpeedSamplesMin = 1;
constexpr double kSpeedFloor = 0.2, kSpeedCeiling = 20.0;  // a factor outside is a clock gone wrong

double modelImageSeconds(const Config& config)
{
    const bool cnn = config.model == ModelKind::Cnn || config.workload == WorkloadKind::TorchScript;
    return cnn ? kImageSecondsCnn : kImageSecondsMlp;
}

}  // namespace

QString measuredStepKey(const QJsonObject& settings)
{
    return settings.value(wire(key::kModelFile)).toString() + QLatin1Char('|') + settings.value(wire(key::kTrainData)).toString();
}

double estimatedSeconds(const Config& config, double speed, const MeasuredModel* measured)
{
    const double ranks = double(std::max<int64_t>(1, config.worldSize));
    const double parallel = std::min(ranks, kCores);   // ranks beyond the cores take turns
    const double turns = std::max(1.0, ranks / kCores);
    const bool ownModel = config.workload == WorkloadKind::TorchScript;
    const bool timed = ownModel && measured && measured->secondsPerSample > 0;
    Config sized = config;
    // Your own data's size is known once the engine has read it; until then its subset, or a
    // Fashion-MNIST-sized guess.
    constexpr int64_t kUnknownDataSamples = 10'000;
    if (timed && sized.trainSamples <= 0)
        sized.trainSamples = measured->trainSamples;
    if (ownModel && sized.trainSamples <= 0)
        sized.trainSamples = sized.trainSubset > 0 ? sized.trainSubset : kUnknownDataSamples;
    const double steps = double(totalSteps(sized));
    const bool modelWorkload = config.workload == WorkloadKind::FashionMnist || ownModel;
    // A model's images trained and its evaluations (every eval_every steps and each epoch's end).
    const double images = steps * double(effectiveBatchSize(sized));
    const int64_t every = evalInterval(sized);
    const double epochs = std::max(1.0, steps / double(std::max<int64_t>(1, stepsPerEpoch(sized))));
    const double evaluations = (every > 0 ? steps / double(every) : 0.0) + epochs;
    if (timed) {
        // An evaluation of your own data: the training loss over its first 2,000 samples at most
        // and the validation set (or its val_subset), forward only. What inspect measured is
        // this machine's already (not scaled by its speed); its step took every core, as the
        // ranks together do.
        const double valImages = sized.valSubset > 0 ? double(std::min<int64_t>(sized.valSubset, measured->valSamples))
                                                     : double(measured->valSamples);
        const double evalImages = double(std::min<int64_t>(kEvalTrainImages, datasetSize(sized))) + valImages;
        const double work = images + evaluations * evalImages * kForwardShare;
        const double perStep = kStepSeconds + (ranks > 1 ? kToyAllReduceSeconds * turns : 0.0);  // beyond the model: optimizer, events
        return (kStartSecondsPerRank * (ranks - 1) + steps * perStep) * speed + measured->startSeconds + work * measured->secondsPerSample;
    }
    double seconds = kStartSeconds + kStartSecondsPerRank * ranks;
    if (modelWorkload) {
        const double work = images + evaluations * kEvalImages * kForwardShare;
        seconds += kDataStartSeconds + steps * kRankStepSeconds * turns + work * modelImageSeconds(config) / parallel;
    } else {
        const double experiments = double(std::max<int64_t>(1, config.experiments));
        const double work = steps * double(effectiveBatchSize(config)) * experiments;
        seconds += kStartSecondsPerRankExperiment * ranks * experiments +
                   steps * (kStepSeconds + (ranks > 1 ? kToyAllReduceSeconds * turns : 0.0)) + work * kToySampleSeconds / parallel;
    }
    return seconds * speed;
}

double estimatedSeconds(const QJsonObject& config, double speed, const MeasuredModel* measured)
{
    const std::optional<Config> typed = coreConfigOf(config);
    return typed ? estimatedSeconds(*typed, speed, measured) : kStartSeconds * speed;
}

double estimatedSeconds(const StudyPoint& point, double speed)
{
    return estimatedSeconds(point.config, speed);
}

double estimatedSeconds(const StudyPlan& plan, double speed, const MeasuredSteps& measured)
{
    double total = kSessionStartSeconds * speed;
    for (const StudyPoint& point : plan.points) {
        const auto found = measured.constFind(measuredStepKey(point.config));
        total += estimatedSeconds(point.config, speed, found != measured.constEnd() ? &*found : nullptr);
    }
    return total;
}

double estimatedSeconds(const Lesson& lesson, double speed)
{
    double total = kSessionStartSeconds * speed;
    for (const LessonRun& run : lesson.runs)
        total += estimatedSeconds(run.config, speed);
    return total;
}

MachineSpeed MachineSpeed::measure(const RunStore& store, int recent)
{
    return measure(store.listRuns(), recent);
}

MachineSpeed MachineSpeed::measure(const QList<RunRecord>& runs, int recent)
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
    QList<double> ratios;
    for (const RunRecord& run : finished) {
        if (ratios.size() >= recent)
            break;
        QFile file(RunStore::configPath(run));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QJsonObject config = QJsonDocument::fromJson(file.read(kMaxSettingsFileBytes)).object();
        const double expected = estimatedSeconds(config);
        const double took = double(run.started.msecsTo(run.finished)) / 1000.0;
        if (expected > 0 && took > 0)
            ratios.append(took / expected);
    }
    MachineSpeed speed;
    if (ratios.size() < kSpeedSamplesMin)
        return speed;
    std::sort(ratios.begin(), ratios.end());
    const qsizetype middle = ratios.size() / 2;
    const double median = ratios.size() % 2 ? ratios.at(middle) : (ratios.at(middle - 1) + ratios.at(middle)) / 2;
    speed.factor = std::clamp(median, kSpeedFloor, kSpeedCeiling);
    speed.runsMeasured = int(ratios.size());
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

}  // namespace ddplab::ui
