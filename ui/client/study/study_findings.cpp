// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_findings.hpp"

#include "client/study/study_checks.hpp"
#include "client/study/study_figures.hpp"
#include "client/study/study_word_findings.hpp"
#include "client/wire.hpp"

#include <algorithm>

namespace ddplab::ui {
namespace {

// The charted figure against the x: each line's log-log slope where both axes are logarithmic,
// else where it starts and where it ends (not against the run's number, where a study has no
// numeric axis: its axes of words are compared head to head instead).
void figureFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                    const StudyXAxis& axis, QList<StudyFinding>* findings)
{
    const StudyFigure* figure = findStudyFigure(choices.figure);
    const QString figureTitle = figure ? figure->titleFor(choices.summary) : choices.figure;
    const bool logLog = axis.log && figure && figure->logScale;
    for (const StudySeries& line : figureSeries(results, study, choices.figure, axis, choices.colourBy, choices.summary)) {
        const QString label = line.label.isEmpty() ? figureTitle : line.label;
        const QString repeatCaution = repeatsCaution(line);
        if (logLog) {
            const PowerLawFit fit = figureLineFit(line);
            if (fit.ok) {
                findings->append({QStringLiteral("%1 against %2 — %3").arg(figureTitle, axis.title, slopeText(label, fit)),
                                  cautionsThatSay({fewPointsCaution(int(line.points.size()), 2, 2), repeatCaution})});
            }
        } else if (line.points.size() > 1 && !axis.key.isEmpty()) {
            const SeriesPoint& first = line.points.first();
            const SeriesPoint& last = line.points.last();
            findings->append({QStringLiteral("%1 against %2 — %3: %4 at %5, %6 at %7")
                                  .arg(figureTitle, axis.title, label, findingNumber(first.y.mean, 4), findingNumber(first.x),
                                       findingNumber(last.y.mean, 4), findingNumber(last.x)),
                              cautionsThatSay({repeatCaution})});
        }
    }
}

// Zhang et al.'s critical batch: where the steps exceed linear scaling by 20 %.
StudyFinding excessStepsFinding(const StudyTarget& target, const TargetCurve& curve, const QString& who)
{
    const QString text = curve.excess.beyond
                             ? QStringLiteral("%1critical batch above %2: no batch measured needs 20 % more steps than linear scaling from %3")
                                   .arg(who, findingNumber(curve.excess.batch), findingNumber(curve.excess.referenceBatch))
                             : QStringLiteral("%1critical batch %2 where the steps exceed linear scaling from batch %3 by 20 % (Zhang et al. 2024)")
                                   .arg(who, findingNumber(curve.excess.batch), findingNumber(curve.excess.referenceBatch));
    return {text, cautionsThatSay({noisyMeasureCaution(target), repeatsCaution(curve)})};
}

// Steps to the target: McCandlish's critical batch from the fit against the measured B_simple,
// per colour value, then each one's excess-steps batch.
void targetFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                    const StudyXAxis& axis, QList<StudyFinding>* findings)
{
    if (axis.key.isEmpty())
        return;  // against the run's number there is no batch to fit a critical batch to
    const QList<TargetCurve> curves = targetCurves(results, study, axis, choices.colourBy);
    // The best setting each batch's steps were taken at, and where it lay in its grid.
    const QString settingKey = bestSettingKey(study.spec);
    const StudyAxis* setting = study.spec.axis(settingKey);
    const QList<BestSettingCurve> bestSettings =
        setting && setting->values.size() > 1
            ? bestSettingCurves(results, study, axis, settingKey, kStepsToTargetFigure, choices.colourBy)
            : QList<BestSettingCurve>();
    const auto whoOf = [&](const TargetCurve& curve) {
        return curve.colourValue.isEmpty() ? QString() : colouredLabel(choices.colourBy, curve.colourValue) + QStringLiteral(": ");
    };
    const StudyTarget& target = study.spec.target;
    for (const TargetCurve& curve : curves) {
        const QString who = whoOf(curve);
        if (!curve.fit.ok) {
            findings->append({QStringLiteral("%1critical batch: not fitted").arg(who),
                              cautionsThatSay({noisyMeasureCaution(target), fewPointsCaution(curve.reachedPoints, 3, 2)})});
            continue;
        }
        QString finding = QStringLiteral("%1critical batch %2 from the fit (S_min %3 steps)").arg(who, findingNumber(curve.fit.bCrit), findingNumber(curve.fit.sMin));
        finding += curve.measuredBSimple > 0 ? QStringLiteral("; B_simple measured at the target %1, a ratio of %2")
                                                   .arg(findingNumber(curve.measuredBSimple), findingNumber(curve.fit.bCrit / curve.measuredBSimple))
                                             : QStringLiteral("; B_simple at the target: not measured (no run's estimate "
                                                              "there was a batch size above 0)");
        const auto choice = std::find_if(bestSettings.begin(), bestSettings.end(),
                                         [&](const BestSettingCurve& best) { return best.colourValue == curve.colourValue; });
        const QString behind = bestSettingBehindCaution(choice == bestSettings.end() ? nullptr : &*choice, settingKey, axis.title);
        findings->append({finding, cautionsThatSay({noisyMeasureCaution(target), extrapolationCaution(curve.fit.bCrit, curve, axis.title),
                                                    fewPointsCaution(curve.reachedPoints, 3, 2), repeatsCaution(curve), behind,
                                                    wholeStepsCaution(curve.fit.sMin)})});
    }
    for (const TargetCurve& curve : curves) {
        if (curve.excess.ok)
            findings->append(excessStepsFinding(target, curve, whoOf(curve)));
    }
}

// How the best setting grows with the batch: its fitted exponent, per colour value.
void bestSettingFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices,
                         QList<StudyFinding>* findings)
{
    const std::optional<StudyXAxis> axis = bestSettingAxis(study);
    if (!axis)
        return;
    const QString setting = bestSettingKey(study.spec);
    const QString settingName = setting == wire(key::kLr) ? QStringLiteral("learning rate") : setting;
    const QString colourBy = bestSettingColourBy(*axis, choices);
    for (const BestSettingCurve& curve : bestSettingCurves(results, study, *axis, setting, choices.figure, colourBy, choices.summary)) {
        if (!curve.fit.ok)
            continue;
        const QString label = colouredLabel(colourBy, curve.colourValue);
        const QString who = label.isEmpty() ? QString() : label + QStringLiteral(": ");
        findings->append({QStringLiteral("%1the best %2 grows as batch^%3").arg(who, settingName, findingNumber(curve.fit.exponent, 2)),
                          cautionsThatSay({gridEdgeCaution(curve, setting, axis->title), bestSettingNoiseCaution(curve, setting, axis->title),
                                           fewPointsCaution(int(curve.points.size()), 2, 2)})});
    }
}

}  // namespace

QList<StudyFinding> studyFindings(const StoredStudy& study, const QList<StudyRunResult>& results, const StudyChartChoices& choices)
{
    QList<StudyFinding> findings;
    const StudyXAxis axis = studyXAxis(study);
    figureFindings(study, results, choices, axis, &findings);
    headToHeadFindings(study, results, choices.figure, choices.summary, &findings);
    otherFigureFindings(study, results, choices, &findings);
    evalModeFinding(results, &findings);
    if (study.spec.target.isSet()) {
        targetFindings(study, results, choices, axis, &findings);
        // Steps and samples to the target of the values of each axis of words, side by side
        // (against no numeric axis, the only comparison there is).
        for (const QString& figure : {kStepsToTargetFigure, kSamplesToTargetFigure}) {
            if (figure != choices.figure)
                headToHeadFindings(study, results, figure, choices.summary, &findings);
        }
    }
    bestSettingFindings(study, results, choices, &findings);
    return findings;
}

PowerLawFit figureLineFit(const StudySeries& line)
{
    QList<QPointF> means;
    for (const SeriesPoint& point : line.points)
        means.append(QPointF(point.x, point.y.mean));
    return fitPowerLaw(means);
}

QString slopeText(const QString& label, const PowerLawFit& fit)
{
    return QStringLiteral("%1: log-log slope %2").arg(label, findingNumber(fit.exponent));
}

}  // namespace ddplab::ui
