// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How sure an advice is (docs/advisor.md, "Confidence"): each weakness of its evidence is named
// (a verdict within noise, a horizon cut short by the budget, an LR at the ladder's edge, ...),
// and the level is read from a calibration table measured on the ground-truth panel
// (bench/advisor_panel.py): for each count of weaknesses, how many panel cases had the batch right
// and an LR regret of at most 2 %. "high" where at least 90 % of them did, "moderate" from 60 %,
// else "low". A count the panel has not measured (too few cases) falls back to the uncalibrated
// rule (none or one: moderate, more: low; never high without the panel's evidence), and the
// advice says it is not calibrated and how many cases the panel has. So does a count whose
// cases never had one of the advice's kinds of weakness: a plan trimmed for time is not as sure
// as the panel's whole plans with as many weaknesses of other kinds.

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

// The weaknesses, as advice.json's `confidence.weaknesses` names them.
namespace weakness {
inline const QString kBatchWithinNoise = QStringLiteral("batch_within_noise");      // the chosen batch's verdict, or the next one's, is within noise
inline const QString kBranchesShort = QStringLiteral("branches_short");            // the branches trained fewer samples than your horizon
inline const QString kConfirmationShort = QStringLiteral("confirmation_short");    // the LR was confirmed over fewer samples than your horizon
inline const QString kLrWithinNoise = QStringLiteral("lr_within_noise");            // the best LR's runner-up within two standard errors
inline const QString kLrAtEdge = QStringLiteral("lr_at_edge");                      // the ladder could not be extended past its edge
inline const QString kNearDivergence = QStringLiteral("near_divergence");           // an LR two steps above the advised one diverged
inline const QString kPlanTrimmed = QStringLiteral("plan_trimmed");                 // batches, range tests or phases were skipped for time
inline const QString kShortTraining = QStringLiteral("short_training");             // under 200 steps at the advised batch
inline const QString kLrFromBranches = QStringLiteral("lr_from_branches");          // no confirmation: the LR is the branch test's
}  // namespace weakness

// One row of the table: advices with `weaknesses` weaknesses (the last row: that many or more).
struct CalibrationRow {
    int weaknesses = 0;
    int cases = 0;
    int right = 0;      // batch right and LR regret <= 2 %
    QStringList kinds;  // the weaknesses its cases had (empty: any): an advice with another is not calibrated by it
};

inline constexpr int kFewestCalibrationCases = 5;  // fewer cases calibrate nothing
inline constexpr double kHighShare = 0.9;
inline constexpr double kModerateShare = 0.6;

// The panel's table (docs/advisor.md, "Confidence"), from its advices decided by the current rules.
const QList<CalibrationRow>& panelCalibration();

struct Confidence {
    QString level;       // high, moderate, low
    bool calibrated = false;
    QString reason;      // the weaknesses in words, and what the panel measured for their count
};

Confidence judgeConfidence(const QStringList& weaknesses, const QStringList& sentences, const QList<CalibrationRow>& table = panelCalibration());

}  // namespace ddplab::ui
