// SPDX-License-Identifier: GPL-3.0-or-later
#include "confidence.hpp"

namespace ddplab::ui {

const QList<CalibrationRow>& panelCalibration()
{
    // The panel's eight advices asked at 60c767e on an idle machine (docs/advisor.md, "Thirteenth
    // round"), each judged on the 16 held-out seeds 1001-1016: with 1 weakness (lr_within_noise)
    // tabular_adamw, autoencoder and mlp_dropout right; with 2 cnn_bn, logreg, embedding and gru
    // right, attention_ln not (its batch 32 is 4.3 % +- 1.6 above 16, said: batch_within_noise);
    // none with 0 or with 3 or more (the last row: a count from 3 up says the panel has none).
    // Each row names the kinds of weakness its cases had: an advice with another kind (a plan
    // trimmed for time, an LR at the ladder's edge) is not calibrated by the row. Right: batch in
    // the truth's right set and LR regret <= 2 %.
    static const QList<CalibrationRow> table{
        {1, 3, 3, {weakness::kLrWithinNoise}},
        {2, 5, 4, {weakness::kBatchWithinNoise, weakness::kLrWithinNoise, weakness::kShortTraining}},
        {3, 0, 0, {}}};
    return table;
}

namespace {

// Counted by kind (weakness::), not by the sentences that say them: two sentences may be one kind.
QString kindsOfWeakness(int count)
{
    return count == 1 ? QStringLiteral("1 kind of weakness") : QStringLiteral("%1 kinds of weakness").arg(count);
}

}  // namespace

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
    QStringList unseen;
    if (row && !row->kinds.isEmpty())
        for (const QString& kind : weaknesses)
            if (!row->kinds.contains(kind) && !unseen.contains(kind))
                unseen.append(kind);
    const QString said = sentences.isEmpty() ? QStringLiteral("nothing in the evidence argues against it") : sentences.join(QStringLiteral("; "));
    if (row && row->cases >= kFewestCalibrationCases && unseen.isEmpty()) {
        const double share = double(row->right) / double(row->cases);
        confidence.calibrated = true;
        confidence.level = share >= kHighShare ? QStringLiteral("high") : share >= kModerateShare ? QStringLiteral("moderate") : QStringLiteral("low");
        confidence.reason = QStringLiteral("%1 (on the ground-truth panel, %2 of %3 advices with %4 had the batch right and the LR within 2 %)")
                                .arg(said)
                                .arg(row->right)
                                .arg(row->cases)
                                .arg(kindsOfWeakness(count));
        return confidence;
    }
    // Uncalibrated: "high" needs the panel's evidence, so at most moderate.
    confidence.level = count <= 1 ? QStringLiteral("moderate") : QStringLiteral("low");
    const QString measured = !unseen.isEmpty() ? QStringLiteral("the ground-truth panel's %1 advices with %2 had none of kind %3")
                                                     .arg(row->cases)
                                                     .arg(kindsOfWeakness(count))
                                                     .arg(unseen.join(QStringLiteral(", ")))
                           : row ? QStringLiteral("the ground-truth panel has %1 of %2 advices with %3 right, too few to calibrate")
                                       .arg(row->right)
                                       .arg(row->cases)
                                       .arg(kindsOfWeakness(count))
                                 : QStringLiteral("the ground-truth panel has no advice with %1").arg(kindsOfWeakness(count));
    confidence.reason = QStringLiteral("%1 (not yet calibrated: %2)").arg(said, measured);
    return confidence;
}

}  // namespace ddplab::ui
