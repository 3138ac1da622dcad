// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_checks.hpp"

#include "client/wire.hpp"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

QString number(double value)
{
    return QString::number(value, 'g', 3);
}

// "16, 64 and 256"
QString listed(const QStringList& items)
{
    if (items.size() <= 1)
        return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
}

// The spread of repeats against the change along a line: a caution when the first is as large.
QString spreadAgainstChange(double spread, double change, const QString& along)
{
    if (!(spread > 0) || !(spread >= change))
        return QString();
    return QStringLiteral("repeats disagree by up to %1 (standard deviation at one %2), as much as the line changes "
                          "across all of them (%3): the effect is not resolved; add repeats")
        .arg(number(spread), along, number(change));
}

}  // namespace

QString provisionalNote(int ended, int planned)
{
    if (ended >= planned)
        return QString();
    return QStringLiteral("Provisional: %1 of %2 runs have ended; every figure below will change as the rest arrive.")
        .arg(ended)
        .arg(planned);
}

QString gridEdgeCaution(const BestSettingCurve& curve, const QString& settingKey, const QString& xTitle)
{
    QStringList top, bottom;
    for (qsizetype i = 0; i < curve.points.size() && i < curve.edges.size(); ++i) {
        if (curve.edges[i] == BestSettingCurve::Edge::Highest)
            top.append(number(curve.points[i].x()));
        else if (curve.edges[i] == BestSettingCurve::Edge::Lowest)
            bottom.append(number(curve.points[i].x()));
    }
    QStringList parts;
    if (!top.isEmpty())
        parts.append(QStringLiteral("the largest %1 tried was the best at %2 %3").arg(settingKey, xTitle, listed(top)));
    if (!bottom.isEmpty())
        parts.append(QStringLiteral("the smallest %1 tried was the best at %2 %3").arg(settingKey, xTitle, listed(bottom)));
    if (parts.isEmpty())
        return QString();
    const bool everywhere = top.size() + bottom.size() == curve.points.size();
    return QStringLiteral("at the edge of the grid: %1, so the best may lie beyond it%2; extend the %3 axis")
        .arg(parts.join(QStringLiteral("; ")),
             everywhere ? QStringLiteral(" and the exponent describes the grid, not the best %1").arg(settingKey) : QString(),
             settingKey);
}

QString bestSettingNoiseCaution(const BestSettingCurve& curve, const QString& settingKey, const QString& xTitle)
{
    QStringList tied;
    for (qsizetype i = 0; i < curve.points.size() && i < curve.tied.size(); ++i) {
        if (curve.tied[i])
            tied.append(number(curve.points[i].x()));
    }
    const bool oneSeed = curve.fewestRepeats == 1;
    if (!tied.isEmpty()) {
        return QStringLiteral("differences within noise: at %1 %2 the next-best %3 came within %4 of the best, so which %3 is "
                              "best there is not known; add repeats")
            .arg(xTitle, listed(tied), settingKey,
                 oneSeed ? QStringLiteral("1 % (one seed: no spread to judge by)") : QStringLiteral("two standard errors"));
    }
    if (oneSeed)
        return QStringLiteral("one seed at each setting: the best %1 may be the luck of that seed; add repeats").arg(settingKey);
    return QString();
}

QString bestSettingBehindCaution(const BestSettingCurve* curve, const QString& settingKey, const QString& xTitle)
{
    if (!curve)
        return QString();
    const QString edge = gridEdgeCaution(*curve, settingKey, xTitle);
    if (edge.isEmpty())
        return QString();
    return QStringLiteral("it rests on the best %1 at each %2, which was %3").arg(settingKey, xTitle, edge);
}

QString wholeStepsCaution(double sMin)
{
    if (!(sMin < 2.0))
        return QString();
    return QStringLiteral("S_min %1 steps: under 2, so the fit rests on whole-step counts that cannot resolve it; a smaller "
                          "LR or a harder target gives it room")
        .arg(number(sMin));
}

QString extrapolationCaution(double bCrit, const TargetCurve& curve, const QString& xTitle)
{
    double lowest = std::numeric_limits<double>::infinity(), highest = 0.0;
    for (const TargetPoint& point : curve.points) {
        if (point.reached) {
            lowest = std::min(lowest, point.x);
            highest = std::max(highest, point.x);
        }
    }
    if (!(lowest <= highest) || (bCrit >= lowest && bCrit <= highest))
        return QString();
    return QStringLiteral("extrapolated, not measured: it lies %1 the %2 %3 to %4 whose runs reached the target; "
                          "study %5 batches to measure it")
        .arg(bCrit < lowest ? QStringLiteral("below") : QStringLiteral("above"), xTitle + QStringLiteral("es"),
             number(lowest), number(highest), bCrit < lowest ? QStringLiteral("smaller") : QStringLiteral("larger"));
}

QString fewPointsCaution(int points, int needed, int parameters)
{
    if (points < needed)
        return QStringLiteral("too few points for a fit: %1, it needs %2").arg(points).arg(needed);
    if (points <= parameters)
        return QStringLiteral("only %1 points for %2 fitted numbers: the fit passes through every point whatever the "
                              "law; add points")
            .arg(points)
            .arg(parameters);
    return QString();
}

QString repeatsCaution(const StudySeries& line)
{
    double spread = 0.0, low = std::numeric_limits<double>::infinity(), high = -low;
    for (const SeriesPoint& point : line.points) {
        if (!std::isfinite(point.y.mean))
            continue;
        low = std::min(low, point.y.mean);
        high = std::max(high, point.y.mean);
        if (point.y.count > 1)
            spread = std::max(spread, point.y.standardError * std::sqrt(double(point.y.count)));
    }
    return line.points.size() > 1 ? spreadAgainstChange(spread, high - low, QStringLiteral("x")) : QString();
}

QString repeatsCaution(const TargetCurve& curve)
{
    double spread = 0.0, low = std::numeric_limits<double>::infinity(), high = -low;
    for (const TargetPoint& point : curve.points) {
        if (!point.reached)
            continue;
        low = std::min(low, point.steps);
        high = std::max(high, point.steps);
        spread = std::max(spread, point.stepsSpread);
    }
    return curve.reachedPoints > 1 ? spreadAgainstChange(spread, high - low, QStringLiteral("batch")) : QString();
}

QString noisyMeasureCaution(const StudyTarget& target)
{
    const TargetMeasure* measure = target.measure();
    if (!measure || !measure->noisy)
        return QString();
    return QStringLiteral("the target is judged on %1: at a small batch a run meets it by chance before the model does, so the "
                          "steps to it and the critical batch come out too low there; %2 is the noise-free measure")
        .arg(measure->title, measure->loss ? QString(wire(field::kTrainLoss)) : QString(wire(field::kTrainAccuracy)));
}

}  // namespace ddplab::ui
