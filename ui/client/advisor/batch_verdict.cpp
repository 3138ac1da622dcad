// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_verdict.hpp"

#include "advice.hpp"
#include "advice_phases.hpp"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// One batch's runs: by LR, each data order's (seed's) measure.
using Bracket = QMap<double, QMap<qint64, double>>;

struct Chosen {
    double lr = std::nan("");
    QMap<qint64, double> byOrder;  // every order measured at lr (the refinement's too)
};

// The LR of `bracket` with the lowest mean over the orders every LR of it ran (the branch
// test's own); an LR with a diverged order there is out.
Chosen bestOfBracket(const Bracket& bracket)
{
    QSet<qint64> common;
    bool first = true;
    for (const QMap<qint64, double>& orders : bracket) {
        const QList<qint64> keys = orders.keys();
        const QSet<qint64> these(keys.begin(), keys.end());
        common = first ? these : common.intersect(these);
        first = false;
    }
    Chosen chosen;
    double best = kInfinity;
    for (auto lr = bracket.cbegin(); lr != bracket.cend(); ++lr) {
        if (common.isEmpty())
            break;
        double sum = 0.0;
        for (qint64 order : common)
            sum += lr->value(order, kInfinity);
        const double mean = sum / double(common.size());
        if (std::isfinite(mean) && mean < best) {
            best = mean;
            chosen.lr = lr.key();
            chosen.byOrder = lr.value();
        }
    }
    return chosen;
}

}  // namespace

double tQuantile90(int degrees)
{
    // Student's t at 0.95 (two-sided 90 %), degrees of freedom 1 to 30, then the normal's.
    static const double table[] = {6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833, 1.812, 1.796, 1.782, 1.771, 1.761, 1.753,
                                   1.746, 1.740, 1.734, 1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703, 1.701, 1.699, 1.697};
    if (degrees < 1)
        return kInfinity;
    return degrees <= 30 ? table[degrees - 1] : 1.645;
}

QString callName(BatchCall call)
{
    switch (call) {
    case BatchCall::Within:
        return QStringLiteral("within");
    case BatchCall::Worse:
        return QStringLiteral("worse");
    case BatchCall::Better:
        return QStringLiteral("better");
    case BatchCall::WithinNoise:
        break;
    }
    return QStringLiteral("within noise");
}

BatchCall callOf(const QString& name)
{
    if (name == QStringLiteral("within"))
        return BatchCall::Within;
    if (name == QStringLiteral("worse"))
        return BatchCall::Worse;
    if (name == QStringLiteral("better"))
        return BatchCall::Better;
    return BatchCall::WithinNoise;
}

QString verdictWords(const BatchVerdict& v, double tolerance)
{
    const QString percent = QStringLiteral("%1 %").arg(QString::number(100.0 * tolerance, 'g', 3));
    if (v.diverged)
        return QStringLiteral("worse: every LR of its bracket diverged in some data order");
    // Rounded to a tenth of a percent first: a difference of -0.00001 reads "0.0 %", not "-0.0 %".
    const auto signedPercent = [](double value) {
        if (!std::isfinite(value))
            return QStringLiteral("a diverged order");
        const double shown = std::round(1000.0 * value) / 10.0;
        return shown == 0.0 ? QStringLiteral("0.0 %")
                            : QStringLiteral("%1%2 %").arg(shown > 0 ? QStringLiteral("+") : QString()).arg(QString::number(shown, 'f', 1));
    };
    const QString interval = v.orders < 2 || !std::isfinite(v.high)
                                 ? QStringLiteral("%1, one data order: no interval").arg(signedPercent(v.difference))
                                 : QStringLiteral("%1, interval %2 to %3 over %4 orders")
                                       .arg(signedPercent(v.difference), signedPercent(v.low), signedPercent(v.high))
                                       .arg(v.orders);
    switch (v.call) {
    case BatchCall::Within:
        return QStringLiteral("within %1 (%2)").arg(percent, interval);
    case BatchCall::Worse:
        return QStringLiteral("worse than %1 (%2)").arg(percent, interval);
    case BatchCall::Better:
        return QStringLiteral("better: yours is worse than it by more than %1 (%2)").arg(percent, interval);
    case BatchCall::WithinNoise:
        break;
    }
    return QStringLiteral("within noise of %1 (%2)").arg(percent, interval);
}

BatchJudgement judgeBatches(const QList<AdviceEvidence>& runs, double baseBatch, double tolerance)
{
    BatchJudgement judgement;
    judgement.tolerance = tolerance;
    QMap<double, Bracket> brackets;
    QMap<double, QPair<int, qint64>> shapes;  // effective batch -> (GPUs, batch per GPU)
    for (const AdviceEvidence& run : runs) {
        if (run.phase != advice_phase::kBranch && run.phase != advice_phase::kRefinement)
            continue;
        const double batch = double(run.gpus) * double(run.batchPerGpu);
        brackets[batch][run.lr][run.seed] = std::isfinite(run.measure) ? run.measure : kInfinity;
        shapes.insert(batch, {run.gpus, run.batchPerGpu});
    }
    if (!brackets.contains(baseBatch))
        return judgement;
    const Chosen base = bestOfBracket(brackets.value(baseBatch));
    if (!std::isfinite(base.lr))
        return judgement;
    judgement.ok = true;
    for (auto it = brackets.cbegin(); it != brackets.cend(); ++it) {
        BatchVerdict v;
        v.batch = it.key();
        v.gpus = shapes.value(it.key()).first;
        v.batchPerGpu = shapes.value(it.key()).second;
        const Chosen chosen = it.key() == baseBatch ? base : bestOfBracket(it.value());
        v.lr = chosen.lr;
        if (!std::isfinite(chosen.lr)) {
            v.diverged = true;
            v.call = BatchCall::Worse;
            v.difference = v.low = v.high = kInfinity;
            v.mean = kInfinity;
            judgement.batches.append(v);
            continue;
        }
        // Paired over the orders both were measured in.
        QList<double> differences, measures;
        for (auto order = chosen.byOrder.cbegin(); order != chosen.byOrder.cend(); ++order) {
            measures.append(order.value());
            const double own = base.byOrder.value(order.key(), std::nan(""));
            if (std::isnan(own))
                continue;
            differences.append(std::isfinite(order.value()) && own > 0 ? order.value() / own - 1.0 : kInfinity);
        }
        v.orders = int(differences.size());
        double sum = 0.0;
        for (double m : measures)
            sum += m;
        v.mean = measures.isEmpty() ? kInfinity : sum / double(measures.size());
        double spreadSum = 0.0;
        for (double m : measures)
            spreadSum += (m - v.mean) * (m - v.mean);
        v.spread = measures.size() > 1 && std::isfinite(v.mean) ? std::sqrt(spreadSum / double(measures.size() - 1) / double(measures.size())) : 0.0;
        double total = 0.0;
        for (double d : differences)
            total += d;
        v.difference = differences.isEmpty() ? kInfinity : total / double(differences.size());
        if (it.key() == baseBatch) {
            v.difference = v.low = v.high = 0.0;
            v.call = BatchCall::Within;
            v.yours = true;
            judgement.yours = int(judgement.batches.size());
        } else if (!std::isfinite(v.difference)) {
            v.low = v.high = v.difference;
            v.call = BatchCall::Worse;
        } else if (differences.size() < 2) {
            v.low = -kInfinity;
            v.high = kInfinity;
            v.call = BatchCall::WithinNoise;
        } else {
            double squares = 0.0;
            for (double d : differences)
                squares += (d - v.difference) * (d - v.difference);
            const double standardError = std::sqrt(squares / double(differences.size() - 1) / double(differences.size()));
            const double half = tQuantile90(int(differences.size()) - 1) * standardError;
            v.low = std::max(-1.0, v.difference - half);  // a measure is never below zero: no interval under -100 %
            v.high = v.difference + half;
            v.call = v.high <= tolerance ? BatchCall::Within : v.low > tolerance ? BatchCall::Worse : BatchCall::WithinNoise;
            if (it.key() < baseBatch && v.high < betterThan(tolerance))
                v.call = BatchCall::Better;
        }
        judgement.batches.append(v);
    }
    // The critical batch: the largest that, with every smaller batch, is known good: its whole
    // interval at or under the tolerance. A batch within noise is not advised over a smaller one
    // that is clearly fine (logreg on the panel: 8 x 8 at +1.9 %, interval +0.7 % to +3.1 % over
    // 8 orders, was advised although 8 x 4 was within; the truth put it +2.6 % over the best).
    // Where a smaller batch than yours was better, yours is past it: the largest such is critical.
    const int yours = judgement.yours;
    for (int i = yours - 1; i >= 0; --i)
        if (judgement.batches[i].call == BatchCall::Better) {
            judgement.pastCritical = true;
            judgement.criticalBatch = judgement.batches[i].batch;
            break;
        }
    const auto passes = [](const BatchVerdict& v) { return v.call == BatchCall::Within; };
    int boundary = int(judgement.batches.size());
    for (int i = yours; i < judgement.batches.size(); ++i) {
        if (!passes(judgement.batches[i])) {
            boundary = i;
            break;
        }
    }
    if (!judgement.pastCritical) {
        judgement.beyondLargest = boundary == judgement.batches.size();
        judgement.criticalBatch = judgement.batches[std::max(yours, boundary - 1)].batch;
        // A budget that left out the batches between (a 1-minute advice measured 4 and 256 only,
        // 256 diverging) knows the critical batch is at least the last that passed, no more: the
        // batches the branch test doubles through were never tried.
        judgement.unmeasuredAbove = !judgement.beyondLargest && judgement.batches[boundary].batch > 2.0 * judgement.criticalBatch;
    }
    // The closest call: a batch within noise that could move that answer, nearest its threshold
    // in its own standard errors: a larger one at or below the first that failed (beyond it
    // nothing changes the answer), against the tolerance; a smaller one, unless one is already
    // better, against being better than yours.
    double nearest = kInfinity;
    const auto consider = [&](int i, double threshold) {
        const BatchVerdict& v = judgement.batches[i];
        const double half = std::isfinite(v.high) ? (v.high - v.low) / 2.0 : kInfinity;
        const double distance = std::isfinite(half) && half > 0 ? std::abs(v.difference - threshold) / half : 0.0;
        if (distance <= nearest) {
            nearest = distance;
            judgement.closestCall = i;
        }
    };
    // A smaller batch comes first: if it is better, yours is past the critical batch and no
    // larger batch's verdict matters (the panel's tabular_adamw at 70dadd7: 32 at -10.2 %, -23.4 %
    // to +3.1 % over 5 orders, lost the orders to 128, +4.3 % over 8, nearer its threshold).
    for (int i = 0; i < yours && !judgement.pastCritical; ++i) {
        const BatchVerdict& v = judgement.batches[i];
        if (!v.diverged && std::isfinite(v.difference) && v.low < betterThan(tolerance) && !(v.high < betterThan(tolerance)))
            consider(i, betterThan(tolerance));
    }
    const bool smallerInQuestion = judgement.closestCall >= 0;
    for (int i = yours + 1; i < judgement.batches.size() && i <= boundary && !judgement.pastCritical && !smallerInQuestion; ++i)
        if (judgement.batches[i].call == BatchCall::WithinNoise)
            consider(i, tolerance);
    return judgement;
}

}  // namespace ddplab::ui
