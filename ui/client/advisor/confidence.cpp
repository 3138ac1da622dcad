// SPDX-License-Identifier: GPL-3.0-or-later
#include "confidence.hpp"

namespace ddplab::ui {

const QList<CalibrationRow>& panelCalibration()
{
    // The panel's eight advices asked live at 7d4aabd (Adam below your batch with your own moments,
    // docs/advisor.md, "With your moments below your batch"), each model's newest, judged against
    // the recorded truth: with 1 weakness mlp_dropout right, tabular_adamw (batch right, LR regret
    // +7.2 %) and autoencoder (batch right, +2.3 %) not; with 2 cnn_bn, attention_ln, logreg and
    // embedding right; with 3 gru right; none with 0 or with 4 or more (the last row: no case, so
    // a count from 4 up says the panel has none). Right: batch in the truth's right set and LR
    // regret <= 2 %. No count has kFewestCalibrationCases yet, so none calibrates a level.
    static const QList<CalibrationRow> table{{1, 3, 1}, {2, 4, 4}, {3, 1, 1}, {4, 0, 0}};
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
    if (row && row->cases == 0)
        row = nullptr;
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
