// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The LR the advice gives (docs/advisor.md, "The LR"): only one the confirmation trained at the
// advised batch and horizon in every seed, with no LR within one ladder step (sqrt 2) above it
// diverged in any seed. Of those, the lowest mean, unless rungs next to it are within noise of it
// (two standard errors of their gap, by their own seeds and by the ladder's pooled spread alike):
// then the middle rung of that run, the nearer the lowest mean of two as near, since the noise
// cannot rank them (the panel's gru at 61c84f2: every rung from 0.005 to 0.04 within noise of the
// lowest mean, 0.02, which 16 held-out seeds put 7.9 % above their best, 0.01; the middle, 0.0141,
// 1.7 %). When the lowest mean is the ladder's lowest rung
// the ladder is to extend downward (its best rung must be interior), its highest upward. The safe
// range is the measured band around it: the rungs from the LR to the lowest mean and those next
// to them whose mean is within a share of the lowest, and past the last of them, where the
// measure crosses that share between two trained rungs (linear in log LR), so it has two distinct
// ends and holds the LR. A rule (linear, square-root) is named when its value lies in the band;
// the LR given is the measured one. The choice is within noise when the runner-up's mean is within
// two standard errors of the lowest, the standard error the larger of the two rungs' own and a
// seed's spread pooled over the whole ladder (two seeds that happen to agree say little: the
// panel's tabular_adamw chose 0.021, 0.326 and 0.333, over 0.00526 by 0.019 while its other
// rungs' pairs were up to 0.11 apart; on the truth's seeds 0.021 gave 0.472 in one of four). Pure
// arithmetic, tested on recorded evidence (tst_advice_decision, tst_advice_decision_orders).

#include "lr_bracket.hpp"

#include <QList>
#include <QString>

namespace ddplab::ui {

inline constexpr double kSameRung = 1.001;  // LRs this close are one rung (floating point of sqrt 2 powers)

struct LrChoice {
    bool ok = false;              // an LR passed both rules
    double lr = 0.0;              // a rung of the ladder: the middle of those within noise of the lowest mean
    double lowestMeanLr = 0.0;    // the eligible rung of the lowest mean (the ladder's extensions and more seeds go by it)
    double quietLow = 0.0, quietHigh = 0.0;  // the run of rungs next to it within noise of it (both lowestMeanLr: none)
    bool hasQuietRun() const { return quietHigh > quietLow * kSameRung; }  // more than one rung in that run
    double measure = 0.0;         // the LR's mean over the seeds
    double error = 0.0;           // its standard error
    int seeds = 0;
    double safeLow = 0.0, safeHigh = 0.0;
    bool atLowEdge = false;       // the lowest mean at the ladder's lowest rung: extend downward
    bool atHighEdge = false;      // at its highest: extend upward (while below divergence)
    bool withinNoise = false;     // the runner-up's mean within two standard errors of the lowest mean
    double gap = 0.0;             // the runner-up's mean over the lowest mean (0: no runner-up)
    double pooledSpread = 0.0;    // a seed's standard deviation pooled over every rung trained in every seed (0: fewer than 2 seeds)
    double noise = 0.0;           // two standard errors of the gap: the larger of the two rungs' own and the pooled spread's
    bool withinByPooled = false;  // within noise by the pooled spread only: the two rungs' own seeds agreed
    double lowestDiverged = 0.0;  // the lowest rung with a diverged seed (0: none)
    double runnerUp = 0.0;        // the eligible rung of the next-lowest mean (0: none)
    QList<double> passedOver;     // better rungs not advised: a rung above them diverged, or a seed of theirs did
};

inline constexpr double kLadderStep = 1.4142135623730951;  // sqrt 2
inline constexpr double kSafeBandShare = 0.10;

LrChoice chooseLr(const QList<BracketPoint>& ladder, double share = kSafeBandShare);

// A seed's standard deviation pooled over the rungs of `ladder` trained in every seed (each rung's
// squared deviations from its own mean over their degrees of freedom); 0 with no rung of 2 seeds.
double pooledSeedSpread(const QList<BracketPoint>& ladder);

// The confirmation's ladder run rung by rung (each rung its seeds, one phase, the pace measured
// again after it): the next rung of `rungs` to run, the untried one nearest the best of the
// rungs `trained` so far (chooseLr's lowest mean; below the lowest when none passed and one diverged; the
// middle rung before any), the higher of two as near (the LR rule needs the rung above), when a
// rung (`rungSeconds`, at the pace the last one kept) fits in `secondsLeft` (the first always
// runs: the budget's cut decides); NaN when every rung has run or no more fits. A load that rises leaves out the rungs far from the candidate, never
// those around it (the panel's gru at 945ab76, load 5.2 to 7.3: sized at the pace measured, the
// ladder still lost 5 of its 10 runs, cut in the order planned).
double nextLadderRung(const QList<double>& rungs, const QList<BracketPoint>& trained, double secondsLeft, double rungSeconds);
// The rungs of `rungs` not in `trained`.
QList<double> untriedRungs(const QList<double>& rungs, const QList<BracketPoint>& trained);

// The confirmation's two best rungs that get one more seed each when time is left: chooseLr's
// lowest mean and its runner-up, while the choice between them is within noise (withinNoise), each only
// while it has fewer than `mostSeeds` seeds; empty when the choice is clear, there is none, or
// both have `mostSeeds`. The panel's tabular_adamw at 5dad9d0: 0.0205 (0.338, 0.349) against
// 0.0102 (0.379, 0.316) in two seeds, the truth's best between them at 0.00849 (LR regret +11.3 %).
QList<double> rungsForMoreSeeds(const QList<BracketPoint>& ladder, int mostSeeds);
// What `trimmed` says when those rungs get no more seeds for lack of budget (`wantedSeconds`
// for them and the warmup arm after them, `leftSeconds` left; a negative `leftSeconds`: the
// budget was spent): which LRs, how far apart against what noise, and what it would have cost.
// The panel's gru at ab4369f ended at 280 s of its 300 with its two best rungs within noise and
// said nothing of the seeds it skipped.
QString moreSeedsDeclined(const LrChoice& choice, const QList<double>& rungs, double wantedSeconds, double leftSeconds);

// Once those two have their seeds, the budget left goes to the LR's closest call: the rungs of
// the run within noise of the lowest mean (chooseLr's quietLow to quietHigh, from which the LR is
// read), the fewest-seeded of them first so the run is measured level, each while it has fewer
// than `mostSeeds`; empty when that run is one rung (the LR is clear) or every rung of it has
// `mostSeeds`. The panel's advices at 68b0d85 ended 39 to 263 s into their 300 with their LR
// within noise on two to four seeds a rung (cnn_bn: 0.025 to 0.0707 around 0.05, where the 16
// held-out seeds put the best at 0.025).
QList<double> rungsForQuietSeeds(const QList<BracketPoint>& ladder, int mostSeeds);
// What `trimmed` says when the budget ends with that run still within noise: which LRs, the
// seeds they have, and what the next seed would have cost (`leftSeconds` negative: none was left;
// `wantedSeconds` 0 with `leftSeconds` 0 or more: they have the most seeds they get).
QString quietSeedsDeclined(const LrChoice& choice, const QList<BracketPoint>& ladder, double wantedSeconds, double leftSeconds);

// The rule whose LR from `baseLr` at `k` times the base batch lies in [low, high]: "linear",
// "sqrt" or "none" (the base's LR), the one nearest `lr` when several do; "" when none does.
QString ruleInBand(double lr, double low, double high, double baseLr, double k);
// That rule's LR.
double ruleLr(const QString& rule, double baseLr, double k);

}  // namespace ddplab::ui
