// SPDX-License-Identifier: GPL-3.0-or-later
#include "confidence.hpp"

namespace ddplab::ui {

const QList<CalibrationRow>& panelCalibration()
{
    // The panel's advices decided by the batch rule of 1254669, run live, each model's newest
    // (docs/advisor.md, "The panel"): with 1 weakness logreg right (5dad9d0), tabular_adamw not
    // (5dad9d0: batch right, LR regret +11.3 %); with 2 embedding right (5dad9d0), autoencoder not
    // (005cc36: 32, the half within noise of better after 8 orders); with 3 cnn_bn right
    // (1254669); with 4 or more gru (3e8b957: batch right, LR regret +2.5 %), mlp_dropout (70dadd7)
    // and attention_ln (5dad9d0: batch right, LR regret +2.6 %) not. Right: batch in the truth's
    // right set and LR regret <= 2 %. No count has kFewestCalibrationCases yet, so none calibrates
    // a level: each advice says how few.
    static const QList<CalibrationRow> table{{1, 2, 1}, {2, 2, 1}, {3, 1, 1}, {4, 3, 0}};
    return table;
}

Confidence judgeConfidence(const QStringList& weaknesses, const QStringList& sentences, const QList<CalibrationRow>& table)
{
    Confidence confidence;
    const int count = int(weaknesses.size());
    const CalibrationRow* row = nullptr;
    for (const CalibrationRow& candidate : table)
        if (candidate.weaknesses == count || (candidate.weaknesses < count && &candidate == &table.last()))
            row = &candidate;
    const QString said = sentences.isEmpty() ? QStringLiteral("nothing in the evidence argues against it") : sentences.join(QStringLiteral("; "));
    if (row && row->cases >= kFewestCalibrationCases) {
        const double share = double(row->right) / double(row->cases);
        confidence.calibrated = true;
        confidence.level = share >= kHighShare ? QStringLiteral("high") : share >= kModerateShare ? QStringLiteral("moderate") : QStringLiteral("low");
        confidence.reason = QStringLiteral("%1 (on the ground-truth panel, %2 of %3 advices with %4 such weaknesses had the batch right and the LR within 2 %)")
                                .arg(said)
                                .arg(row->right)
                                .arg(row->cases)
                                .arg(count);
        return confidence;
    }
    // Uncalibrated: "high" needs the panel's evidence, so at most moderate.
    confidence.level = count <= 1 ? QStringLiteral("moderate") : QStringLiteral("low");
    const QString measured = row ? QStringLiteral("the ground-truth panel has %1 of %2 advices with %3 such weaknesses right, too few to calibrate")
                                       .arg(row->right)
                                       .arg(row->cases)
                                       .arg(count)
                                 : QStringLiteral("the ground-truth panel has no advice with %1 such weaknesses").arg(count);
    confidence.reason = QStringLiteral("%1 (not yet calibrated: %2)").arg(said, measured);
    return confidence;
}

}  // namespace ddplab::ui
