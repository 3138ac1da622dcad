#include "study_estimate.hpp"

#include "client/library/preset_file.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// Seconds, measured with `ddplab-engine runs` on the 2-core development machine (docs/benchmarks.md).
constexpr double kStartSeconds = 0.3;            // fork, rendezvous, data
constexpr double kStartSecondsPerRank = 0.05;    // each rank's process and its store connection
constexpr double kStepSeconds = 0.0002;          // one toy or linreg step on one rank
constexpr double kPerExtraRankSeconds = 0.0015;  // each further rank: an all-reduce on shared cores
constexpr double kImageSecondsMlp = 0.00001;     // one Fashion-MNIST image through the MLP and back
constexpr double kImageSecondsCnn = 0.0001;

}  // namespace

double estimatedSeconds(const StudyPoint& point)
{
    const std::optional<Config> config = coreConfigOf(point.config);
    if (!config)
        return kStartSeconds;
    const double steps = double(totalSteps(*config));
    double perStep = kStepSeconds + kPerExtraRankSeconds * double(std::max<int64_t>(0, config->worldSize - 1));
    if (config->workload == WorkloadKind::FashionMnist) {
        const double images = double(effectiveBatchSize(*config));
        perStep += images * (config->model == ModelKind::Cnn ? kImageSecondsCnn : kImageSecondsMlp);
    }
    return kStartSeconds + kStartSecondsPerRank * double(config->worldSize) + steps * perStep;
}

double estimatedSeconds(const StudyPlan& plan)
{
    double total = 0.0;
    for (const StudyPoint& point : plan.points)
        total += estimatedSeconds(point);
    return total;
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
