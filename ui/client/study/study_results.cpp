// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_results.hpp"

#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/study/label_order.hpp"
#include "client/study/study_axis_text.hpp"
#include "client/study/study_show_figures.hpp"
#include "client/study/study_values.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <QHash>
#include <QJsonDocument>
#include <QMap>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

constexpr double kNaN = StudyRunResult::kNone;
// Zhang et al. 2024's critical batch: steps-to-target 20 % above perfect linear scaling.
constexpr double kZhangExcess = 0.2;

// Two scores whose difference is within noise: two standard errors of the difference over
// repeats, or 1 % of the best where either is one run (no spread to judge by).
bool withinNoise(const MeanAndError& best, const MeanAndError& runnerUp)
{
    if (!std::isfinite(runnerUp.mean))
        return false;
    const double difference = std::fabs(best.mean - runnerUp.mean);
    if (best.count < 2 || runnerUp.count < 2)
        return difference <= 0.01 * std::fabs(best.mean);
    return difference <= 2.0 * std::hypot(best.standardError, runnerUp.standardError);
}

// The colour axis with the axes zipped to it: they advance together, so together they make
// one colour (lr_rule linear with and without warmup are two lines, not one colour twice).
QStringList colourGroup(const StoredStudy& study, const QString& colourBy)
{
    if (colourBy.isEmpty())
        return {};
    for (const QStringList& zip : study.spec.zips) {
        if (zip.contains(colourBy))
            return zip;
    }
    return {colourBy};
}

QString colourValueOf(const StudyRunResult& result, const QStringList& group)
{
    if (group.size() == 1)
        return valueText(result.values.value(group.first()));
    return describe(result, group);
}

// Lines of several colours in the order of their values as numbers (5, 10, 20).
template <typename Curve>
void sortByColour(QList<Curve>& curves)
{
    std::stable_sort(curves.begin(), curves.end(), [](const Curve& a, const Curve& b) { return numericLess(a.colourValue, b.colourValue); });
}

}  // namespace

bool StudyXAxis::resolved() const
{
    return findResolvedFigure(key) != nullptr;
}

StudyXAxis studyXAxis(const StoredStudy& study)
{
    if (const ResolvedFigure* figure = findResolvedFigure(study.spec.x))
        return {figure->name, figure->title, true};
    if (const StudyAxis* chosen = study.spec.axis(study.spec.x)) {
        const bool positive = std::all_of(chosen->values.begin(), chosen->values.end(), [](const QJsonValue& value) { return value.toDouble() > 0; });
        return {chosen->key, chosen->key, positive};
    }
    return batchOrFirstAxis(study);
}

StudyXAxis batchOrFirstAxis(const StoredStudy& study)
{
    QSet<qint64> batches;
    for (const StudyPoint& point : study.points) {
        if (const std::optional<Config> config = coreConfigOf(point.config))
            batches.insert(effectiveBatchSize(*config));
    }
    if (batches.size() > 1 || study.spec.x == kEffectiveBatchAxis)
        return {kEffectiveBatchAxis, QStringLiteral("effective batch"), true};
    for (const StudyAxis& axis : study.spec.axes) {
        const bool numeric = std::all_of(axis.values.begin(), axis.values.end(), [](const QJsonValue& value) { return value.isDouble(); });
        if (!numeric)
            continue;
        const bool positive = std::all_of(axis.values.begin(), axis.values.end(), [](const QJsonValue& value) { return value.toDouble() > 0; });
        return {axis.key, axisLabel(axis.key), positive};
    }
    return {QString(), QStringLiteral("run"), false};
}

double xOf(const StudyRunResult& result, const StudyXAxis& axis)
{
    if (axis.key == kEffectiveBatchAxis)
        return double(result.effectiveBatch);
    if (axis.key.isEmpty())
        return double(result.point);
    if (axis.resolved())
        return result.config.value(axis.key).toDouble(kNaN);
    return result.values.value(axis.key).toDouble(kNaN);
}

QList<StudySeries> figureSeries(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                                const StudyXAxis& axis, const QString& colourBy, FigureSummary summary)
{
    // A line per combination of the axes that are not x (nor the batch split's own keys); a
    // resolved x moves with several axes at once, so there the colour alone makes a line.
    const QStringList colours = colourGroup(study, colourBy);
    QStringList lineKeys = axis.resolved() ? colours : QStringList();
    for (const QString& axisKey : axis.resolved() ? QStringList() : axisKeys(study)) {
        const bool splitsTheBatch = axisKey == wire(key::kWorldSize) || axisKey == wire(key::kBatchSize);
        if (axisKey != axis.key && !(axis.key == kEffectiveBatchAxis && splitsTheBatch))
            lineKeys.append(axisKey);
    }
    QMap<QString, QMap<double, QList<const StudyRunResult*>>> byLine;
    QHash<QString, QString> colourOf;
    for (const StudyRunResult& result : results) {
        if (!result.usable())
            continue;
        const QString line = describe(result, lineKeys);
        byLine[line][xOf(result, axis)].append(&result);
        colourOf.insert(line, colours.isEmpty() ? line : colourValueOf(result, colours));
    }
    QList<StudySeries> series;
    for (auto line = byLine.begin(); line != byLine.end(); ++line) {
        StudySeries one;
        one.label = line.key();
        one.colourValue = colourOf.value(line.key());
        for (auto at = line->begin(); at != line->end(); ++at) {
            SeriesPoint point;
            point.x = at.key();
            QList<double> values;
            for (const StudyRunResult* result : at.value()) {
                values.append(result->figure(figure, summary));
                point.diverged += result->diverged() ? 1 : 0;
            }
            point.y = meanAndError(values);
            point.runs = int(values.size());
            one.points.append(point);
        }
        series.append(one);
    }
    std::stable_sort(series.begin(), series.end(), [](const StudySeries& a, const StudySeries& b) { return numericLess(a.label, b.label); });
    return series;
}

QList<TargetCurve> targetCurves(const QList<StudyRunResult>& results, const StoredStudy& study, const StudyXAxis& axis,
                                const QString& colourBy)
{
    // Settings: every axis but x and the colour; the best setting at each x is the one whose
    // repeats all reached the target in the fewest steps on average.
    const QStringList colours = colourGroup(study, colourBy);
    QStringList settingKeys;
    for (const QString& axisKey : axisKeys(study)) {
        if (axisKey != axis.key && !colours.contains(axisKey))
            settingKeys.append(axisKey);
    }
    struct Setting {
        QList<double> steps, samples;
        double fewestStepsRun = std::numeric_limits<double>::infinity();
        double fewestSamplesRun = std::numeric_limits<double>::infinity();
        int runs = 0;
    };
    QMap<QString, QMap<double, QMap<QString, Setting>>> grouped;  // colour -> x -> setting
    QMap<QString, QList<double>> noiseScales;
    for (const StudyRunResult& result : results) {
        if (!result.usable())
            continue;
        const QString colour = colours.isEmpty() ? QString() : colourValueOf(result, colours);
        Setting& setting = grouped[colour][xOf(result, axis)][describe(result, settingKeys)];
        ++setting.runs;
        setting.fewestStepsRun = std::min(setting.fewestStepsRun, double(result.steps));
        setting.fewestSamplesRun = std::min(setting.fewestSamplesRun, result.samples);
        if (result.stepsToTarget >= 0) {
            setting.steps.append(double(result.stepsToTarget));
            setting.samples.append(result.samplesToTarget);
        }
        if (std::isfinite(result.noiseScaleAtTarget))
            noiseScales[colour].append(result.noiseScaleAtTarget);
    }
    QList<TargetCurve> curves;
    for (auto colour = grouped.begin(); colour != grouped.end(); ++colour) {
        TargetCurve curve;
        curve.colourValue = colour.key();
        QList<QPointF> reached;
        for (auto at = colour->begin(); at != colour->end(); ++at) {
            TargetPoint point;
            point.x = at.key();
            point.steps = point.samples = kNaN;
            point.stepsRun = point.samplesRun = std::numeric_limits<double>::infinity();
            for (auto setting = at->begin(); setting != at->end(); ++setting) {
                point.stepsRun = std::min(point.stepsRun, setting->fewestStepsRun);
                point.samplesRun = std::min(point.samplesRun, setting->fewestSamplesRun);
                if (setting->steps.size() != setting->runs)
                    continue;  // a repeat that never got there: this setting does not reach it
                const MeanAndError steps = meanAndError(setting->steps);
                if (!point.reached || steps.mean < point.steps) {
                    point.reached = true;
                    point.steps = steps.mean;
                    point.stepsSpread = steps.standardError * std::sqrt(double(steps.count));
                    point.samples = meanAndError(setting->samples).mean;
                    point.bestSetting = setting.key();
                }
            }
            if (point.reached)
                reached.append(QPointF(point.x, point.steps));
            curve.points.append(point);
        }
        curve.reachedPoints = int(reached.size());
        curve.fit = fitCriticalBatch(reached);
        curve.excess = batchAtExcessSteps(reached, kZhangExcess);
        const QList<double>& scales = noiseScales.value(colour.key());
        curve.measuredBSimple = scales.isEmpty() ? 0.0 : meanAndError(scales).mean;
        curves.append(curve);
    }
    sortByColour(curves);
    return curves;
}

QList<BestSettingCurve> bestSettingCurves(const QList<StudyRunResult>& results, const StoredStudy& study, const StudyXAxis& axis,
                                          const QString& settingKey, const QString& figure, const QString& colourBy,
                                          FigureSummary summary)
{
    const StudyFigure* shown = findStudyFigure(figure);
    const bool lowerIsBetter = !shown || shown->lowerIsBetter;
    const bool byTarget = study.spec.target.isSet();
    QStringList otherKeys = axisKeys(study);
    otherKeys.removeAll(axis.key);
    const QStringList colours = colourGroup(study, colourBy);
    for (const QString& colourKey : colours)
        otherKeys.removeAll(colourKey);
    otherKeys.removeAll(settingKey);
    struct Scores {
        QList<double> values;
        int runs = 0;
    };
    // colour -> x -> setting value -> other settings -> scores over repeats
    QMap<QString, QMap<double, QMap<double, QMap<QString, Scores>>>> grouped;
    for (const StudyRunResult& result : results) {
        if (!result.usable() || !result.values.value(settingKey).isDouble())
            continue;
        const QString colour = colours.isEmpty() ? QString() : colourValueOf(result, colours);
        Scores& scores = grouped[colour][xOf(result, axis)][result.values.value(settingKey).toDouble()][describe(result, otherKeys)];
        ++scores.runs;
        const double score = result.figure(byTarget ? kStepsToTargetFigure : figure, summary);
        if (std::isfinite(score))
            scores.values.append(score);
    }
    const bool better = byTarget || lowerIsBetter;  // steps: fewer is better
    QList<BestSettingCurve> curves;
    for (auto colour = grouped.begin(); colour != grouped.end(); ++colour) {
        BestSettingCurve curve;
        curve.colourValue = colour.key();
        for (auto at = colour->begin(); at != colour->end(); ++at) {
            // The best and the runner-up, each with its spread over repeats.
            double bestSetting = kNaN;
            MeanAndError best, runnerUp;
            best.mean = runnerUp.mean = kNaN;
            const double lowest = at->firstKey(), highest = at->lastKey();  // the values tried at this x
            const auto beats = [&](const MeanAndError& score, const MeanAndError& other) {
                return std::isfinite(score.mean) && (!std::isfinite(other.mean) || (better ? score.mean < other.mean : score.mean > other.mean));
            };
            for (auto setting = at->begin(); setting != at->end(); ++setting) {
                // This value's best over the other axes; the runner-up is another value's.
                MeanAndError ofSetting;
                ofSetting.mean = kNaN;
                for (const Scores& scores : setting.value()) {
                    if (scores.values.size() != scores.runs)
                        continue;  // a repeat diverged or never reached the target
                    const MeanAndError score = meanAndError(scores.values);
                    if (beats(score, ofSetting))
                        ofSetting = score;
                }
                if (beats(ofSetting, best)) {
                    runnerUp = best;
                    best = ofSetting;
                    bestSetting = setting.key();
                } else if (beats(ofSetting, runnerUp)) {
                    runnerUp = ofSetting;
                }
            }
            if (!std::isfinite(bestSetting))
                continue;
            curve.points.append(QPointF(at.key(), bestSetting));
            using Edge = BestSettingCurve::Edge;
            curve.edges.append(bestSetting == highest ? Edge::Highest : bestSetting == lowest ? Edge::Lowest : Edge::Inside);
            curve.tied.append(withinNoise(best, runnerUp));
            curve.fewestRepeats = curve.fewestRepeats == 0 ? best.count : std::min(curve.fewestRepeats, best.count);
        }
        curve.fit = fitPowerLaw(curve.points);
        curves.append(curve);
    }
    sortByColour(curves);
    return curves;
}

QList<HeadToHead> headToHeads(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                              FigureSummary summary)
{
    const StudyFigure* shown = findStudyFigure(figure);
    const bool lowerIsBetter = !shown || shown->lowerIsBetter;
    QList<HeadToHead> found;
    for (const StudyAxis& axis : study.spec.axes) {
        const bool words = std::all_of(axis.values.begin(), axis.values.end(),
                                       [](const QJsonValue& value) { return value.isString() || value.isBool(); });
        if (!words || axis.values.size() < 2)
            continue;
        const QStringList together = colourGroup(study, axis.key);
        if (together.first() != axis.key)
            continue;  // the head of its zip speaks for it
        QStringList otherKeys = axisKeys(study);
        for (const QString& key : together)
            otherKeys.removeAll(key);
        // others -> value -> scores over repeats
        QMap<QString, QMap<QString, QList<double>>> grouped;
        for (const StudyRunResult& result : results) {
            if (!result.usable() || !result.values.contains(axis.key))
                continue;
            const double score = result.figure(figure, summary);
            if (std::isfinite(score))
                grouped[describe(result, otherKeys)][valueText(result.values.value(axis.key))].append(score);
        }
        for (auto group = grouped.begin(); group != grouped.end(); ++group) {
            if (group->size() < 2)
                continue;  // nothing to hold against
            HeadToHead match;
            match.axisKey = axis.key;
            match.others = group.key();
            for (const QJsonValue& value : axis.values) {
                const auto scores = group->constFind(valueText(value));
                if (scores == group->constEnd())
                    continue;
                const MeanAndError score = meanAndError(*scores);
                match.entries.append({valueText(value), score});
                match.fewestRuns = match.fewestRuns == 0 ? score.count : std::min(match.fewestRuns, score.count);
                const int index = int(match.entries.size()) - 1;
                const auto beats = [&](int other) {
                    return other < 0 || (lowerIsBetter ? score.mean < match.entries[other].score.mean
                                                       : score.mean > match.entries[other].score.mean);
                };
                if (beats(match.best)) {
                    match.runnerUp = match.best;
                    match.best = index;
                } else if (beats(match.runnerUp)) {
                    match.runnerUp = index;
                }
            }
            match.tied = withinNoise(match.entries[match.best].score, match.entries[match.runnerUp].score);
            found.append(match);
        }
    }
    return found;
}

BestPoint bestPointOf(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                      FigureSummary summary)
{
    const StudyFigure* shown = findStudyFigure(figure);
    const bool lowerIsBetter = !shown || shown->lowerIsBetter;
    QMap<QString, QList<double>> byPoint;
    for (const StudyRunResult& result : results) {
        const double score = result.usable() ? result.figure(figure, summary) : kNaN;
        if (std::isfinite(score))
            byPoint[describe(result, axisKeys(study))].append(score);
    }
    BestPoint best;
    for (auto point = byPoint.cbegin(); point != byPoint.cend(); ++point) {
        const MeanAndError score = meanAndError(point.value());
        if (best.score.count == 0 || (lowerIsBetter ? score.mean < best.score.mean : score.mean > best.score.mean))
            best = {point.key(), score};
    }
    return best;
}

StudyHeatmap heatmapOf(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& figure,
                       const QString& columnKey, const QString& rowKey, FigureSummary summary)
{
    StudyHeatmap map;
    map.columnKey = columnKey;
    map.rowKey = rowKey;
    const StudyAxis* columns = study.spec.axis(columnKey);
    const StudyAxis* rows = study.spec.axis(rowKey);
    if (!columns || !rows)
        return map;
    map.columns = columns->values;
    map.rows = rows->values;
    const StudyFigure* shown = findStudyFigure(figure);
    const bool lowerIsBetter = !shown || shown->lowerIsBetter;
    QStringList otherKeys = axisKeys(study);
    otherKeys.removeAll(columnKey);
    otherKeys.removeAll(rowKey);
    // cell -> other settings -> values over repeats
    QHash<QPair<int, int>, QMap<QString, QList<double>>> values;
    QHash<QPair<int, int>, int> diverged;
    for (const StudyRunResult& result : results) {
        if (!result.usable())
            continue;
        const int column = int(map.columns.indexOf(result.values.value(columnKey)));
        const int row = int(map.rows.indexOf(result.values.value(rowKey)));
        if (column < 0 || row < 0)
            continue;
        values[{row, column}][describe(result, otherKeys)].append(result.figure(figure, summary));
        diverged[{row, column}] += result.diverged() ? 1 : 0;
    }
    map.cells = QList<QList<HeatmapCell>>(map.rows.size(), QList<HeatmapCell>(map.columns.size()));
    for (auto cell = values.begin(); cell != values.end(); ++cell) {
        HeatmapCell& out = map.cells[cell.key().first][cell.key().second];
        out.present = true;
        out.diverged = diverged.value(cell.key()) > 0;
        for (const QList<double>& repeats : cell.value()) {
            const double mean = meanAndError(repeats).mean;
            if (std::isfinite(mean) && (!std::isfinite(out.value) || (lowerIsBetter ? mean < out.value : mean > out.value)))
                out.value = mean;
        }
    }
    for (qsizetype column = 0; column < map.columns.size(); ++column) {
        qsizetype best = -1;
        for (qsizetype row = 0; row < map.rows.size(); ++row) {
            const double value = map.cells[row][column].value;
            if (std::isfinite(value) && (best < 0 || (lowerIsBetter ? value < map.cells[best][column].value : value > map.cells[best][column].value)))
                best = row;
        }
        if (best >= 0)
            map.cells[best][column].bestInColumn = true;
    }
    return map;
}

QList<CurvePanel> curvePanels(const QList<StudyRunResult>& results, const StoredStudy& study, const QString& colourBy)
{
    const QStringList colours = colourGroup(study, colourBy);
    QStringList lineKeys;
    for (const QString& axisKey : axisKeys(study)) {
        const bool zippedBehind = std::any_of(study.spec.zips.begin(), study.spec.zips.end(),
                                              [&](const QStringList& zip) { return zip.indexOf(axisKey) > 0; });
        if (!colours.contains(axisKey) && !zippedBehind)
            lineKeys.append(axisKey);
    }
    // colour -> line -> epoch -> values over repeats
    QMap<QString, QMap<QString, QMap<double, QList<double>>>> grouped;
    for (const StudyRunResult& result : results) {
        if (!result.usable())
            continue;
        QMap<double, QList<double>>& line = grouped[colours.isEmpty() ? QString() : colourValueOf(result, colours)][describe(result, lineKeys)];
        for (const QPointF& point : result.curve)
            line[point.x()].append(point.y());
    }
    QList<CurvePanel> panels;
    for (auto colour = grouped.begin(); colour != grouped.end(); ++colour) {
        CurvePanel panel;
        panel.colourValue = colour.key();
        for (auto line = colour->begin(); line != colour->end(); ++line) {
            StudySeries series;
            series.label = line.key();
            series.colourValue = line.key();
            for (auto at = line->begin(); at != line->end(); ++at) {
                SeriesPoint point;
                point.x = at.key();
                point.y = meanAndError(at.value());
                point.runs = int(at->size());
                series.points.append(point);
            }
            panel.lines.append(series);
        }
        sortByColour(panel.lines);
        panels.append(panel);
    }
    sortByColour(panels);
    return panels;
}

double meanFinalBSimple(const QList<StudyRunResult>& results)
{
    QList<double> scales;
    for (const StudyRunResult& result : results) {
        if (result.usable() && result.noiseScale > 0)
            scales.append(result.noiseScale);
    }
    return scales.isEmpty() ? 0.0 : meanAndError(scales).mean;
}

}  // namespace ddplab::ui
