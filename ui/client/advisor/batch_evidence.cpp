// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_evidence.hpp"

#include "client/study/scaling_fit.hpp"
#include "client/wire.hpp"

#include <QMap>
#include <QPair>
#include <QPointF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ddplab::ui {

LrExponent fitLrExponent(const QList<BatchOptimum>& optima)
{
    LrExponent result;
    QList<QPointF> mean;
    for (const BatchOptimum& optimum : optima)
        mean.append({optimum.batch, optimum.bestLr});
    const PowerLawFit fit = fitPowerLaw(mean);
    if (!fit.ok)
        return result;
    result.ok = true;
    result.exponent = fit.exponent;
    // The seeds' own fits alone: the mean's optimum need not lie between theirs, and an interval
    // stretched to hold it named a value no data order gave (a new user's 0.1708 "to 0.2474 over the
    // data orders, each fitted alone", where the two orders gave 0.224 and 0.247).
    result.low = std::numeric_limits<double>::infinity();
    result.high = -std::numeric_limits<double>::infinity();
    const int seeds = optima.isEmpty() ? 0 : int(optima.front().bestLrPerSeed.size());
    for (int seed = 0; seed < seeds && seeds >= 2; ++seed) {
        QList<QPointF> own;
        for (const BatchOptimum& optimum : optima) {
            if (seed < optimum.bestLrPerSeed.size())
                own.append({optimum.batch, optimum.bestLrPerSeed[seed]});
        }
        const PowerLawFit seedFit = fitPowerLaw(own);
        if (seedFit.ok) {
            result.low = std::min(result.low, seedFit.exponent);
            result.high = std::max(result.high, seedFit.exponent);
        }
    }
    if (!(result.low <= result.high))
        result.low = result.high = std::nan("");  // fewer than two seeds fitted: no spread to give, and none is made up
    return result;
}

}  // namespace ddplab::ui

namespace ddplab::ui {
namespace {

constexpr double kRuleSlack = 0.15;      // an exponent this near a rule's, with no interval, is that rule
constexpr double kPoorFitRms = 0.25;     // rms of log S above this: the model does not describe the points
constexpr double kFewestMinSteps = 2.0;  // S_min under this rests on whole-step counts

QString batchText(double batch)
{
    return QString::number(batch, 'g', 4);
}

}  // namespace

QStringList rulesWithinInterval(const LrExponent& exponent)
{
    QStringList rules;
    if (!exponent.ok)
        return rules;
    const bool interval = std::isfinite(exponent.low) && std::isfinite(exponent.high);
    for (const auto& [name, value] : {std::pair<QString, double>{wire(choice::lr_rule::kLinear), 1.0}, {wire(choice::lr_rule::kSqrt), 0.5}}) {
        const bool within = interval ? value >= exponent.low && value <= exponent.high : std::abs(exponent.exponent - value) <= kRuleSlack;
        if (within)
            rules.append(name);
    }
    return rules;
}

double stepsToReach(const QList<QPointF>& curve, double target)
{
    for (qsizetype i = 0; i < curve.size(); ++i) {
        if (!(curve[i].y() <= target))
            continue;
        if (i == 0 || !std::isfinite(curve[i - 1].y()))
            return curve[i].x();
        // Between the last point above the target and this one, linearly.
        const QPointF& before = curve[i - 1];
        const double share = (before.y() - target) / (before.y() - curve[i].y());
        return before.x() + share * (curve[i].x() - before.x());
    }
    return -1.0;
}

StepsToTarget fitStepsToTarget(const QList<BranchCurve>& curves, const QList<double>& edgeBatches)
{
    StepsToTarget result;
    // Each batch and data order's best final measure over its LRs; the target is the worst of them.
    QMap<QPair<double, int>, double> bestFinal;
    for (const BranchCurve& branch : curves) {
        if (branch.curve.isEmpty() || !std::isfinite(branch.curve.last().y()))
            continue;
        const QPair<double, int> key{branch.batch, branch.seed};
        bestFinal[key] = bestFinal.contains(key) ? std::min(bestFinal[key], branch.curve.last().y()) : branch.curve.last().y();
    }
    if (bestFinal.isEmpty())
        return result;
    result.target = *std::max_element(bestFinal.cbegin(), bestFinal.cend());
    QMap<QPair<double, int>, double> steps;
    for (const BranchCurve& branch : curves) {
        const QPair<double, int> key{branch.batch, branch.seed};
        if (!bestFinal.contains(key))
            continue;
        const double reached = stepsToReach(branch.curve, result.target);
        if (reached > 0 && (!steps.contains(key) || reached < steps[key]))
            steps[key] = reached;
    }
    QList<double> batches;
    for (auto it = steps.cbegin(); it != steps.cend(); ++it) {
        result.points.append({it.key().first, it.value()});
        if (!batches.contains(it.key().first))
            batches.append(it.key().first);
    }
    if (batches.isEmpty())
        return result;
    result.smallestBatch = *std::min_element(batches.cbegin(), batches.cend());
    result.largestBatch = *std::max_element(batches.cbegin(), batches.cend());
    result.fit = fitCriticalBatch(result.points);
    result.ok = result.fit.ok;
    if (!result.ok) {
        result.doubts.append(QStringLiteral("Too few branches reached the target (%1 points at %2 batches) for McCandlish's fit.")
                                 .arg(result.points.size())
                                 .arg(batches.size()));
        return result;
    }
    const CriticalBatchFit& fit = result.fit;
    if (fit.sMin < kFewestMinSteps)
        result.doubts.append(QStringLiteral("S_min is %1 steps, under 2: the fit rests on whole-step counts and cannot place the critical batch.")
                                 .arg(QString::number(fit.sMin, 'g', 2)));
    if (fit.bCrit > result.largestBatch)
        result.doubts.append(QStringLiteral("The fitted critical batch %1 lies above the largest batch measured (%2): it is extrapolated, and says only "
                                            "that the steps were still falling there.")
                                 .arg(batchText(fit.bCrit), batchText(result.largestBatch)));
    else if (fit.bCrit < result.smallestBatch)
        result.doubts.append(QStringLiteral("The fitted critical batch %1 lies below the smallest batch measured (%2): it is extrapolated.")
                                 .arg(batchText(fit.bCrit), batchText(result.smallestBatch)));
    if (!edgeBatches.isEmpty()) {
        QStringList names;
        for (double batch : edgeBatches)
            names.append(batchText(batch));
        result.doubts.append(QStringLiteral("At batch %1 the best LR was at the edge of its bracket (½ to 2 × the linear rule's): its steps to the target "
                                            "may be too many, as with a grid whose best point is at its edge.")
                                 .arg(names.join(QStringLiteral(", "))));
    }
    if (batches.size() == 2)
        result.doubts.append(QStringLiteral("Only two batches were measured: a two-parameter curve passes through them and tests nothing."));
    if (fit.rmsLogError > kPoorFitRms)
        result.doubts.append(QStringLiteral("The fit misses the measured steps by %1 % (rms): the saturating model does not describe them.")
                                 .arg(qRound(100.0 * (std::exp(fit.rmsLogError) - 1.0))));
    return result;
}

}  // namespace ddplab::ui
