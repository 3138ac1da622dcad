// SPDX-License-Identifier: GPL-3.0-or-later
#include "confidence.hpp"

namespace ddplab::ui {

const QList<CalibrationRow>& panelCalibration()
{
    // Filled from bench/advisor_panel.py's results (docs/advisor.md, "Confidence"): per count of
    // weaknesses, the panel's cases and those with the batch right and LR regret <= 2 %.
    static const QList<CalibrationRow> table;
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
    confidence.level = count == 0 ? QStringLiteral("high") : count == 1 ? QStringLiteral("moderate") : QStringLiteral("low");
    confidence.reason = QStringLiteral("%1 (not yet calibrated on the ground-truth panel)").arg(said);
    return confidence;
}

}  // namespace ddplab::ui
