// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_word_findings.hpp"

#include "client/study/study_axis_text.hpp"
#include "client/study/study_figures.hpp"

#include <QHash>

#include <cmath>

namespace ddplab::ui {
namespace {

// An axis's label inside a sentence: "Batch schedule" as "batch schedule", "LR rule" kept.
QString inSentence(const QString& label)
{
    if (label.size() > 1 && label.at(0).isUpper() && label.at(1).isLower())
        return label.at(0).toLower() + label.mid(1);
    return label;
}

}  // namespace

// Axes of words head to head: "validation loss by batch schedule (schedule step): constant
// 0.621 ± 0.024, smith 0.6559 ± 0.0066, …; lowest: constant", in place of a line "against run".
void headToHeadFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const QString& figureId,
                        FigureSummary summary, QList<StudyFinding>* findings)
{
    constexpr int kMostPerAxis = 8;  // beyond that a grid, read in its heatmap or CSV
    const StudyFigure* figure = findStudyFigure(figureId);
    const QString figureTitle = figure ? figure->titleFor(summary) : figureId;
    const bool lowerIsBetter = !figure || figure->lowerIsBetter;
    const QList<HeadToHead> matches = headToHeads(results, study, figureId, summary);
    QHash<QString, int> perAxis;
    for (const HeadToHead& match : matches) {
        if (++perAxis[match.axisKey] > kMostPerAxis)
            continue;
        QStringList entries;
        for (const HeadToHead::Entry& entry : match.entries) {
            entries.append(entry.score.count > 1 ? QStringLiteral("%1 %2 ± %3").arg(entry.value, findingNumber(entry.score.mean, 4), findingNumber(entry.score.standardError, 2))
                                                 : QStringLiteral("%1 %2").arg(entry.value, findingNumber(entry.score.mean, 4)));
        }
        const HeadToHead::Entry& best = match.entries[match.best];
        const HeadToHead::Entry& next = match.entries[match.runnerUp];
        QString caution;
        if (match.tied) {
            caution = QStringLiteral("differences within noise: %1 and %2 are within %3 of each other; add repeats")
                          .arg(best.value, next.value,
                               match.fewestRuns > 1 ? QStringLiteral("two standard errors") : QStringLiteral("1 % (one run each: no spread to judge by)"));
        } else if (match.fewestRuns == 1) {
            caution = QStringLiteral("one run at each value: no spread to judge the difference by; add repeats");
        }
        findings->append({QStringLiteral("%1 by %2%3: %4 (%5); %6: %7")
                              .arg(figureTitle, inSentence(axisLabel(match.axisKey)),
                                   match.others.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(match.others), entries.join(QStringLiteral(", ")),
                                   match.fewestRuns > 1 ? QStringLiteral("mean ± standard error over repeats") : QStringLiteral("one run each"),
                                   lowerIsBetter ? QStringLiteral("lowest") : QStringLiteral("highest"), best.value),
                          cautionsThatSay({caution})});
    }
    for (auto count = perAxis.cbegin(); count != perAxis.cend(); ++count) {
        if (count.value() > kMostPerAxis)
            findings->append({QStringLiteral("%1 by %2: %3 more comparisons in the CSV and the heatmap")
                                  .arg(figureTitle, inSentence(axisLabel(count.key())))
                                  .arg(count.value() - kMostPerAxis),
                              {}});
    }
}

// The figures the charts do not draw have their say too: where each was best ("validation
// accuracy: highest 0.771 at …"), so a study read by its mini-batch loss still tells what its
// validation set said.
void otherFigureFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                         QList<StudyFinding>* findings)
{
    for (const StudyFigure& figure : studyFigures()) {
        if (!figure.summarised || figure.id == choices.figure)
            continue;
        const BestPoint best = bestPointOf(results, study, figure.id, choices.summary);
        if (best.score.count == 0)
            continue;
        findings->append({QStringLiteral("%1: %2 %3 at %4 (%5)")
                              .arg(figure.titleFor(choices.summary), figure.lowerIsBetter ? QStringLiteral("lowest") : QStringLiteral("highest"),
                                   findingNumber(best.score.mean, 4), best.where.isEmpty() ? QStringLiteral("every point") : best.where,
                                   best.score.count > 1 ? QStringLiteral("mean of %1 repeats").arg(best.score.count) : QStringLiteral("one run")),
                          {}});
    }
}

// A model that evaluates far worse than it trains (BatchNorm's running statistics lagging the
// weights, or dropout): its eval-mode figures judge it unfairly, and a study by them misleads.
void evalModeFinding(const QList<StudyRunResult>& results, QList<StudyFinding>* findings)
{
    constexpr double kFarAbove = 2.0;
    int far = 0, both = 0;
    double worstEval = 0, worstBatch = 0;
    for (const StudyRunResult& result : results) {
        // A diverged run evaluates badly for another reason.
        if (result.status != RunStatus::Finished || !std::isfinite(result.trainLoss) || !(result.loss > 0) || !std::isfinite(result.loss))
            continue;
        ++both;
        if (result.trainLoss > kFarAbove * result.loss) {
            if (far == 0 || result.trainLoss / result.loss > worstEval / worstBatch) {
                worstEval = result.trainLoss;
                worstBatch = result.loss;
            }
            ++far;
        }
    }
    if (far == 0)
        return;
    findings->append({QStringLiteral("%1 of %2 runs evaluate far worse than they train (at worst a training-set loss of %3 in eval mode "
                                     "against a mini-batch loss of %4)")
                          .arg(far)
                          .arg(both)
                          .arg(findingNumber(worstEval), findingNumber(worstBatch)),
                      {QStringLiteral("eval-mode figures (training-set and validation loss) judge these runs unfairly: BatchNorm's "
                                      "running statistics lag the weights (or dropout is off only in eval mode); compare them by the "
                                      "mini-batch loss, or train longer before judging")}});
}

}  // namespace ddplab::ui
