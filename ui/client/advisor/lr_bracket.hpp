// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The best learning rate of a bracket: runs at a geometric ladder of LRs (several seeds each),
// the measure they reached (lower is better) at the same samples. The lowest mean wins, refined
// by a parabola through it and its two neighbours in log LR (a bowl's bottom lies between grid
// points); the safe range holds every LR around it whose mean is within 10 % of the best. Pure
// arithmetic (docs/advisor.md).

#include <QList>

namespace ddplab::ui {

struct BracketPoint {
    double lr = 0.0;
    QList<double> measures;  // one per seed; a diverged run is +infinity
};

struct BracketOptimum {
    bool ok = false;             // at least 3 LRs with a finite mean
    double measuredBestLr = 0.0;  // the ladder's LR with the lowest mean
    double bestLr = 0.0;         // after the parabola (the measured best when no bowl is there)
    double bestMeasure = 0.0;    // the lowest mean
    double bestStandardError = 0.0;
    bool atLowEdge = false;      // the lowest LR measured is best: the optimum may lie below
    bool atHighEdge = false;     // the highest LR is best: it may lie above
    double safeLow = 0.0, safeHigh = 0.0;  // the contiguous LRs around the best within kSafeShare of it
    // The runner-up's mean lies within two standard errors of the best's: the choice between
    // them is noise, and more seeds would be needed to tell.
    bool withinNoise = false;
    int seeds = 0;               // the fewest seeds any LR has
};

inline constexpr double kSafeShare = 0.10;

BracketOptimum findBracketOptimum(QList<BracketPoint> points);

// The warmup arm against the confirmation without it (Goyal et al. 2017 warm up from the base
// LR to the scaled one): each arm's best mean over its LRs (diverged seeds spoil their LR), and
// whether the arm's best is lower, or higher, by more than two standard errors of the
// difference. Neither: no measurable difference.
struct WarmupComparison {
    bool ok = false;  // both arms have an LR whose seeds all trained
    double lrWithout = 0.0, bestWithout = 0.0, errorWithout = 0.0;
    double lrWith = 0.0, bestWith = 0.0, errorWith = 0.0;
    bool helped = false;
    bool hurt = false;
};
WarmupComparison compareWarmup(const QList<BracketPoint>& without, const QList<BracketPoint>& with);

}  // namespace ddplab::ui
