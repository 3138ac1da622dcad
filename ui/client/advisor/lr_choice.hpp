// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The LR the advice gives (docs/advisor.md, "The LR"): only one the confirmation trained at the
// advised batch and horizon in every seed, with no LR within one ladder step (sqrt 2) above it
// diverged in any seed; the lowest mean of those. When it is the ladder's lowest rung the ladder
// is to extend downward (its best rung must be interior), its highest upward. The safe range is
// the measured band around it: the rungs next to it whose mean is within a share of its own, and
// past the last of them, where the measure crosses that share between two trained rungs (linear
// in log LR), so it has two distinct ends and holds the LR. A rule (linear, square-root) is named
// when its value lies in the band; the LR given is the measured one. Pure arithmetic, tested on
// recorded evidence (tst_advice_decision).

#include "lr_bracket.hpp"

#include <QList>
#include <QString>

namespace ddplab::ui {

struct LrChoice {
    bool ok = false;              // an LR passed both rules
    double lr = 0.0;              // a rung of the ladder
    double measure = 0.0;         // its mean over the seeds
    double error = 0.0;           // its standard error
    int seeds = 0;
    double safeLow = 0.0, safeHigh = 0.0;
    bool atLowEdge = false;       // the ladder's lowest rung: extend downward
    bool atHighEdge = false;      // its highest: extend upward (while below divergence)
    bool withinNoise = false;     // the runner-up's mean within two standard errors of its own
    double lowestDiverged = 0.0;  // the lowest rung with a diverged seed (0: none)
    QList<double> passedOver;     // better rungs not advised: a rung above them diverged, or a seed of theirs did
};

inline constexpr double kLadderStep = 1.4142135623730951;  // sqrt 2
inline constexpr double kSafeBandShare = 0.10;

LrChoice chooseLr(const QList<BracketPoint>& ladder, double share = kSafeBandShare);

// The rule whose LR from `baseLr` at `k` times the base batch lies in [low, high]: "linear",
// "sqrt" or "none" (the base's LR), the one nearest `lr` when several do; "" when none does.
QString ruleInBand(double lr, double low, double high, double baseLr, double k);
// That rule's LR.
double ruleLr(const QString& rule, double baseLr, double k);

}  // namespace ddplab::ui
