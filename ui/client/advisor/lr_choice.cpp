// SPDX-License-Identifier: GPL-3.0-or-later
#include "lr_choice.hpp"

#include "client/study/scaling_fit.hpp"
#include "client/wire.hpp"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ddplab::ui {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool trained(const BracketPoint& point, int seeds)
{
    return point.measures.size() >= seeds && std::all_of(point.measures.begin(), point.measures.end(), [](double m) { return std::isfinite(m); });
}

bool divergedAny(const BracketPoint& point)
{
    return std::any_of(point.measures.begin(), point.measures.end(), [](double m) { return !std::isfinite(m); });
}

double meanOf(const QList<double>& values)
{
    double sum = 0.0;
    for (double value : values)
        sum += value;
    return values.isEmpty() ? kInfinity : sum / double(values.size());
}

// Where the measure crosses `limit` between a rung inside the band (`in`) and its neighbour
// outside it (`out`), linear in log LR; `in`'s LR when the neighbour did not train.
double crossing(const BracketPoint& in, double inMean, const BracketPoint& out, double outMean, double limit)
{
    if (!std::isfinite(outMean) || outMean <= inMean)
        return in.lr;
    const double share = std::clamp((limit - inMean) / (outMean - inMean), 0.0, 1.0);
    return std::exp(std::log(in.lr) + share * (std::log(out.lr) - std::log(in.lr)));
}

// Whether `point` is a rung of the run within noise of the lowest mean that `choice` read its LR from.
bool inQuietRun(const LrChoice& choice, const BracketPoint& point)
{
    return point.lr >= choice.quietLow / kSameRung && point.lr <= choice.quietHigh * kSameRung;
}

// The fewest and the most seeds a rung of that run has (fewest > most: the run has no rung).
std::pair<int, int> seedsOfQuietRun(const LrChoice& choice, const QList<BracketPoint>& ladder)
{
    int fewest = std::numeric_limits<int>::max(), most = 0;
    for (const BracketPoint& point : ladder)
        if (inQuietRun(choice, point)) {
            fewest = std::min(fewest, int(point.measures.size()));
            most = std::max(most, int(point.measures.size()));
        }
    return {fewest, most};
}

}  // namespace

LrChoice chooseLr(const QList<BracketPoint>& unsorted, double share)
{
    LrChoice choice;
    QList<BracketPoint> ladder = unsorted;
    std::sort(ladder.begin(), ladder.end(), [](const BracketPoint& a, const BracketPoint& b) { return a.lr < b.lr; });
    if (ladder.isEmpty())
        return choice;
    int seeds = std::numeric_limits<int>::max();
    for (const BracketPoint& point : ladder)
        seeds = std::min(seeds, int(point.measures.size()));
    choice.seeds = seeds;
    QList<double> means;
    for (const BracketPoint& point : ladder) {
        means.append(trained(point, seeds) ? meanOf(point.measures) : kInfinity);
        if (divergedAny(point) && choice.lowestDiverged == 0.0)
            choice.lowestDiverged = point.lr;
    }
    // Eligible: trained in every seed, and no rung within one step above it diverged in any seed.
    const auto eligible = [&](int i) {
        if (!std::isfinite(means[i]))
            return false;
        for (int j = i + 1; j < ladder.size() && ladder[j].lr <= ladder[i].lr * kLadderStep * kSameRung; ++j)
            if (divergedAny(ladder[j]))
                return false;
        return true;
    };
    int best = -1;
    for (int i = 0; i < ladder.size(); ++i)
        if (eligible(i) && (best < 0 || means[i] < means[best]))
            best = i;
    for (int i = 0; i < ladder.size(); ++i)
        if (std::isfinite(means[i]) && !eligible(i) && (best < 0 || means[i] < means[best]))
            choice.passedOver.append(ladder[i].lr);
    if (best < 0) {
        choice.atLowEdge = true;  // nothing trained safely: the answer lies below
        return choice;
    }
    choice.ok = true;
    choice.lowestMeanLr = ladder[best].lr;
    choice.atLowEdge = best == 0;
    choice.atHighEdge = best == ladder.size() - 1;
    choice.pooledSpread = pooledSeedSpread(ladder);
    const double bestError = meanAndError(ladder[best].measures).standardError;
    // Two standard errors of rung i's gap over the lowest mean, by the two rungs' own seeds and by
    // the spread pooled over the ladder.
    const auto ownNoise = [&](int i) { return 2.0 * std::hypot(bestError, meanAndError(ladder[i].measures).standardError); };
    const auto pooledNoise = [&](int i) {
        return 2.0 * choice.pooledSpread * std::sqrt(1.0 / double(ladder[best].measures.size()) + 1.0 / double(ladder[i].measures.size()));
    };
    // The rungs next to the lowest mean that neither noise can rank below it (the narrower: one
    // rung's outlying seed widens the pool for all), and their middle rung, the nearer the lowest
    // mean of two as near: the LR advised.
    int quietLow = best, quietHigh = best;
    const auto quiet = [&](int i) { return seeds >= 2 && eligible(i) && means[i] - means[best] <= std::min(ownNoise(i), pooledNoise(i)); };
    while (quietLow > 0 && quiet(quietLow - 1))
        --quietLow;
    while (quietHigh + 1 < ladder.size() && quiet(quietHigh + 1))
        ++quietHigh;
    const int ends = quietLow + quietHigh;
    const int chosen = ends % 2 == 0 || 2 * best < ends ? ends / 2 : ends / 2 + 1;
    choice.quietLow = ladder[quietLow].lr;
    choice.quietHigh = ladder[quietHigh].lr;
    choice.lr = ladder[chosen].lr;
    choice.measure = means[chosen];
    choice.error = meanAndError(ladder[chosen].measures).standardError;
    // The band: the rungs from the advised LR to the lowest mean, those next to them within the
    // share of the lowest mean, then the crossing toward the next.
    const double limit = means[best] * (1.0 + share);
    int low = std::min(best, chosen), high = std::max(best, chosen);
    while (low > 0 && eligible(low - 1) && means[low - 1] <= limit)
        --low;
    while (high + 1 < ladder.size() && eligible(high + 1) && means[high + 1] <= limit)
        ++high;
    choice.safeLow = low > 0 ? crossing(ladder[low], means[low], ladder[low - 1], means[low - 1], limit) : ladder[low].lr;
    choice.safeHigh = high + 1 < ladder.size() && eligible(high + 1)
                          ? crossing(ladder[high], means[high], ladder[high + 1], means[high + 1], limit)
                          : ladder[high].lr;
    // The runner-up against the lowest mean, in their standard errors.
    int runnerUp = -1;
    for (int i = 0; i < ladder.size(); ++i)
        if (i != best && eligible(i) && (runnerUp < 0 || means[i] < means[runnerUp]))
            runnerUp = i;
    if (runnerUp >= 0) {
        choice.runnerUp = ladder[runnerUp].lr;
        choice.gap = means[runnerUp] - means[best];
        choice.noise = std::max(ownNoise(runnerUp), pooledNoise(runnerUp));
        choice.withinNoise = seeds < 2 || choice.gap <= choice.noise;
        choice.withinByPooled = seeds >= 2 && choice.withinNoise && choice.gap > ownNoise(runnerUp);
    }
    return choice;
}

double pooledSeedSpread(const QList<BracketPoint>& ladder)
{
    double squares = 0.0;
    int degrees = 0;
    for (const BracketPoint& point : ladder) {
        if (point.measures.size() < 2 || !trained(point, int(point.measures.size())))
            continue;
        const double mean = meanOf(point.measures);
        for (double measure : point.measures)
            squares += (measure - mean) * (measure - mean);
        degrees += int(point.measures.size()) - 1;
    }
    return degrees > 0 ? std::sqrt(squares / double(degrees)) : 0.0;
}

double ruleLr(const QString& rule, double baseLr, double k)
{
    if (rule == wire(choice::lr_rule::kLinear))
        return baseLr * k;
    if (rule == wire(choice::lr_rule::kSqrt))
        return baseLr * std::sqrt(k);
    if (rule == wire(choice::lr_rule::kNone))
        return baseLr;
    return 0.0;
}

QString ruleInBand(double lr, double low, double high, double baseLr, double k)
{
    QString named;
    double nearest = kInfinity;
    for (const QString rule : {wire(choice::lr_rule::kLinear), wire(choice::lr_rule::kSqrt), wire(choice::lr_rule::kNone)}) {
        const double value = ruleLr(rule, baseLr, k);
        if (value < low * (1 - 1e-9) || value > high * (1 + 1e-9))
            continue;
        const double distance = std::abs(std::log(value / lr));
        if (distance < nearest) {
            nearest = distance;
            named = rule;
        }
    }
    return named;
}

QList<double> rungsForMoreSeeds(const QList<BracketPoint>& ladder, int mostSeeds)
{
    const LrChoice choice = chooseLr(ladder);
    QList<double> rungs;
    if (!choice.ok || !choice.withinNoise || choice.runnerUp <= 0.0)
        return rungs;
    for (double lr : {choice.lowestMeanLr, choice.runnerUp})
        for (const BracketPoint& point : ladder)
            if (std::max(point.lr, lr) / std::min(point.lr, lr) < kSameRung && point.measures.size() < mostSeeds)
                rungs.append(point.lr);
    return rungs;
}

QList<double> rungsForQuietSeeds(const QList<BracketPoint>& ladder, int mostSeeds)
{
    const LrChoice choice = chooseLr(ladder);
    QList<double> rungs;
    if (!choice.ok || !choice.hasQuietRun())
        return rungs;
    const int fewest = seedsOfQuietRun(choice, ladder).first;
    if (fewest >= mostSeeds)
        return rungs;
    QList<BracketPoint> sorted = ladder;
    std::sort(sorted.begin(), sorted.end(), [](const BracketPoint& a, const BracketPoint& b) { return a.lr < b.lr; });
    for (const BracketPoint& point : sorted)
        if (inQuietRun(choice, point) && point.measures.size() == fewest)
            rungs.append(point.lr);
    return rungs;
}

QString quietSeedsDeclined(const LrChoice& choice, const QList<BracketPoint>& ladder, double wantedSeconds, double leftSeconds)
{
    const auto [fewest, most] = seedsOfQuietRun(choice, ladder);
    const QString seeds = fewest == most ? QString::number(most) : QStringLiteral("%1 to %2").arg(fewest).arg(most);
    // No time wanted: they have the most seeds they get.
    const QString why = wantedSeconds <= 0.0 && leftSeconds >= 0 ? QStringLiteral("the most they get")
                        : leftSeconds < 0                        ? QStringLiteral("the budget was spent")
                                                                 : QStringLiteral("another seed would take about %1 s, and %2 s were left")
                                              .arg(qRound64(wantedSeconds))
                                              .arg(qRound64(std::max(0.0, leftSeconds)));
    return QStringLiteral("the LRs within noise of the lowest mean (%1), %2 to %3, were still within noise after %4 seeds each: %5")
        .arg(QString::number(choice.lowestMeanLr, 'g', 3), QString::number(choice.quietLow, 'g', 3), QString::number(choice.quietHigh, 'g', 3), seeds, why);
}

QString moreSeedsDeclined(const LrChoice& choice, const QList<double>& rungs, double wantedSeconds, double leftSeconds)
{
    QStringList lrs;
    for (double lr : rungs)
        lrs.append(QString::number(lr, 'g', 3));
    const QString why = leftSeconds < 0 ? QStringLiteral("the budget was spent")
                                        : QStringLiteral("they and what follows them would take about %1 s, and %2 s were left")
                                              .arg(qRound64(wantedSeconds))
                                              .arg(qRound64(std::max(0.0, leftSeconds)));
    return QStringLiteral("the confirmation's two best rungs, LR %1 and %2, were within noise of each other (%3 apart in the mean, against %4) but LR %5 "
                          "got no more seeds (the fewest any rung has: %6): %7")
        .arg(QString::number(choice.lowestMeanLr, 'g', 3), QString::number(choice.runnerUp, 'g', 3), QString::number(choice.gap, 'g', 2),
             QString::number(choice.noise, 'g', 2), lrs.join(QStringLiteral(" and ")))
        .arg(choice.seeds)
        .arg(why);
}

QList<double> untriedRungs(const QList<double>& rungs, const QList<BracketPoint>& ran)
{
    QList<double> untried;
    for (double lr : rungs)
        if (std::none_of(ran.begin(), ran.end(), [lr](const BracketPoint& p) { return std::max(p.lr, lr) / std::min(p.lr, lr) < kSameRung; }))
            untried.append(lr);
    return untried;
}

double nextLadderRung(const QList<double>& rungs, const QList<BracketPoint>& ran, double secondsLeft, double rungSeconds)
{
    QList<double> untried = untriedRungs(rungs, ran);
    // The first rung runs whatever is left: the budget's cut after each run decides, as for any phase.
    if (untried.isEmpty() || (!ran.isEmpty() && !(rungSeconds <= secondsLeft)))
        return std::nan("");
    double candidate = rungs.isEmpty() ? untried.front() : rungs[rungs.size() / 2];
    if (!ran.isEmpty()) {
        const LrChoice choice = chooseLr(ran);
        if (choice.ok) {
            candidate = choice.lowestMeanLr;
        } else {
            double lowest = kInfinity, best = kInfinity;
            for (const BracketPoint& point : ran) {
                lowest = std::min(lowest, point.lr);
                if (trained(point, 1) && meanOf(point.measures) < best) {
                    best = meanOf(point.measures);
                    candidate = point.lr;
                }
            }
            if (choice.lowestDiverged > 0)
                candidate = lowest / kLadderStep;
        }
    }
    // Nearest in ladder steps, the higher of two as near.
    const auto steps = [candidate](double lr) { return std::round(std::abs(std::log(lr / candidate)) / std::log(kLadderStep)); };
    std::stable_sort(untried.begin(), untried.end(), [&](double a, double b) { return steps(a) != steps(b) ? steps(a) < steps(b) : a > b; });
    return untried.front();
}

}  // namespace ddplab::ui
