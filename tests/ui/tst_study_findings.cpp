// SPDX-License-Identifier: GPL-3.0-or-later
// A study's findings warn instead of misleading: each caution is triggered by a study made to
// need it (the best LR at the edge of the grid, or resting on one seed or near-ties; a critical
// batch fitted outside the batches studied, on whole steps, or over best LRs at the grid's
// edge; too few points for a fit; repeats that disagree more than the effect; runs that
// evaluate far worse than they train; a study still running), and is absent where the study
// does not need it. An axis of words is compared head to head, value by value. Also what the charts draw of it:
// the x range of the data, runs that never reached the target drawn hollow where they ended,
// lines in the order of their numbers, tick labels that all fit, the table of runs.

#include "client/runs/run_data.hpp"
#include "client/series/plot_axis.hpp"
#include "client/study/label_order.hpp"
#include "client/study/study_axis_text.hpp"
#include "client/study/study_checks.hpp"
#include "client/study/study_csv.hpp"
#include "client/study/study_plan.hpp"
#include "stored_study_of.hpp"
#include "plots/study_charts.hpp"
#include "study/study_points_table.hpp"
#include "ui_test_main.hpp"

#include <QJsonDocument>

#include <cmath>

using namespace ddplab::ui;
using ddplab::test::studyOf;

namespace {

// A finished run of `point` that needed `steps` to reach the target (-1: it never did in its 100).
StudyRunResult resultOf(const StudyPoint& point, qint64 steps)
{
    StudyRunResult result = ddplab::test::finishedRunOf(point);
    result.lr = point.config.value(QStringLiteral("lr")).toDouble();
    result.samples = 100.0 * double(result.effectiveBatch);
    result.loss = steps >= 0 ? 1.0 / double(steps) : 2.0;
    result.stepsToTarget = steps;
    result.samplesToTarget = steps >= 0 ? double(steps * result.effectiveBatch) : StudyRunResult::kNone;
    return result;
}

// Batches 16, 64, 256 (one rank) x LR 0.001, 0.004, 0.016, target loss <= 1.2: the toy study
// of issue 19, with `repeats` seeds.
QByteArray gridStudy(int repeats = 1, const QString& batches = QStringLiteral("16, 64, 256"))
{
    return QStringLiteral(R"({"id": "grid", "title": "grid", "repeats": %1,
        "base": {"workload": "toy", "world_size": 1, "batch_size": 16, "epochs": 1, "num_examples": 4096},
        "axes": [{"key": "effective_batch", "values": [%2], "split": "fixed_ranks"},
                 {"key": "lr", "values": [0.001, 0.004, 0.016]}],
        "target": {"metric": "loss", "at_most": 1.2}})")
        .arg(repeats)
        .arg(batches)
        .toUtf8();
}

// Steps to the target that follow S = S_min (1 + B_crit / B) with the best LR `bestLr` (the
// others take longer), for every point of the grid.
QList<StudyRunResult> mcCandlishResults(const StoredStudy& study, double sMin, double bCrit, double bestLr)
{
    QList<StudyRunResult> results;
    for (const StudyPoint& point : study.points) {
        const double batch = point.values.value(QStringLiteral("effective_batch")).toDouble();
        const double lr = point.values.value(QStringLiteral("lr")).toDouble();
        const double slower = lr == bestLr ? 1.0 : 1.5;
        results.append(resultOf(point, qint64(std::round(sMin * (1 + bCrit / batch) * slower))));
    }
    return results;
}

const StudyFinding* findingAbout(const StudyCharts& charts, const QString& words)
{
    for (const StudyFinding& finding : charts.findings) {
        if (finding.text.contains(words))
            return &finding;
    }
    return nullptr;
}

bool cautionSays(const StudyFinding* finding, const QString& words)
{
    return finding && std::any_of(finding->cautions.begin(), finding->cautions.end(), [&](const QString& caution) { return caution.contains(words); });
}

const PlotSpec* plotNamed(const StudyCharts& charts, const QString& id)
{
    for (const PlotSpec& plot : charts.plots) {
        if (plot.id == id)
            return &plot;
    }
    return nullptr;
}

}  // namespace

class TestStudyFindings : public QObject {
    Q_OBJECT

private slots:
    void bestLrAtTheEdgeOfTheGridIsSaid()
    {
        // Issue 19's study: the largest LR was best at every batch, and the findings read
        // "the best learning rate grows as batch^0" with no warning.
        const StoredStudy study = studyOf(gridStudy());
        const StudyCharts edge = buildStudyCharts(study, mcCandlishResults(study, 10, 64, 0.016), defaultChartChoices(study));
        const StudyFinding* exponent = findingAbout(edge, QStringLiteral("the best learning rate grows as batch^"));
        QVERIFY(exponent);
        QVERIFY2(cautionSays(exponent, QStringLiteral("at the edge of the grid: the largest lr tried was the best at effective batch 16, 64 and 256")),
                 qPrintable(exponent->line()));
        QVERIFY(cautionSays(exponent, QStringLiteral("the exponent describes the grid")));
        QVERIFY(cautionSays(exponent, QStringLiteral("extend the lr axis")));
        // The critical batch fitted over those best LRs' steps says what it rests on (issue 28 §6:
        // it stood uncautioned beside the cautioned best-LR line).
        const StudyFinding* critical = findingAbout(edge, QStringLiteral("critical batch"));
        QVERIFY(critical);
        QVERIFY2(cautionSays(critical, QStringLiteral("it rests on the best lr at each effective batch, which was at the edge of the grid")),
                 qPrintable(critical->line()));
        // Its points are hollow on the chart.
        const PlotSpec* bestLr = plotNamed(edge, QStringLiteral("best-lr"));
        QVERIFY(bestLr);
        QCOMPARE(bestLr->lines.first().hollow, (QList<bool>{true, true, true}));
        // The best LR inside the grid: nothing to say.
        const StudyCharts inside = buildStudyCharts(study, mcCandlishResults(study, 10, 64, 0.004), defaultChartChoices(study));
        const StudyFinding* fine = findingAbout(inside, QStringLiteral("the best learning rate grows as batch^"));
        QVERIFY(fine);
        QVERIFY2(!cautionSays(fine, QStringLiteral("edge of the grid")), qPrintable(fine->line()));
    }

    void aCriticalBatchOutsideTheBatchesStudiedIsExtrapolated()
    {
        const StoredStudy study = studyOf(gridStudy(1, QStringLiteral("16, 32, 64, 128, 256")));
        // B_crit 4, far below the smallest batch studied: the fit can only extrapolate it.
        const StudyCharts below = buildStudyCharts(study, mcCandlishResults(study, 20, 4, 0.004), defaultChartChoices(study));
        const StudyFinding* critical = findingAbout(below, QStringLiteral("critical batch"));
        QVERIFY(critical);
        QVERIFY2(cautionSays(critical, QStringLiteral("extrapolated, not measured: it lies below the effective batches 16 to 256")),
                 qPrintable(critical->line()));
        const PlotSpec* steps = plotNamed(below, QStringLiteral("steps-to-target"));
        QVERIFY(steps);
        QVERIFY(steps->markers.first().label.contains(QStringLiteral("(extrapolated)")));
        // The chart keeps the data's x range: the marker does not stretch it to 4.
        const QPointF range = plotXRange(*steps);
        QVERIFY2(range.x() > 10 && range.y() < 400, qPrintable(QStringLiteral("%1 to %2").arg(range.x()).arg(range.y())));
        // B_crit 64, inside: measured, no caution.
        const StudyCharts inside = buildStudyCharts(study, mcCandlishResults(study, 20, 64, 0.004), defaultChartChoices(study));
        const StudyFinding* measured = findingAbout(inside, QStringLiteral("critical batch"));
        QVERIFY(measured);
        QVERIFY2(measured->cautions.isEmpty(), qPrintable(measured->line()));
        QVERIFY(measured->text.contains(QStringLiteral("critical batch 64 from the fit")));
    }

    void tooFewPointsForAFitAreSaid()
    {
        const StoredStudy study = studyOf(gridStudy());
        QList<StudyRunResult> results = mcCandlishResults(study, 10, 64, 0.004);
        // Only two batches reach the target: no fit of two numbers to two points.
        for (StudyRunResult& result : results) {
            if (result.effectiveBatch == 256) {
                result.stepsToTarget = -1;
                result.samplesToTarget = StudyRunResult::kNone;
            }
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        const StudyFinding* critical = findingAbout(charts, QStringLiteral("critical batch"));
        QVERIFY(critical);
        QCOMPARE(critical->text, QStringLiteral("critical batch: not fitted"));
        QVERIFY2(cautionSays(critical, QStringLiteral("too few points for a fit: 2, it needs 3")), qPrintable(critical->line()));
        const StudyFinding* exponent = findingAbout(charts, QStringLiteral("the best learning rate grows as batch^"));
        QVERIFY(exponent);
        QVERIFY2(cautionSays(exponent, QStringLiteral("only 2 points for 2 fitted numbers")), qPrintable(exponent->line()));
    }

    void repeatsThatDisagreeMoreThanTheEffectAreSaid()
    {
        const StoredStudy study = studyOf(gridStudy(2));
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            // Steps barely change with the batch (20 to 22) while two seeds differ by 10.
            const double batch = point.values.value(QStringLiteral("effective_batch")).toDouble();
            const qint64 steps = qint64(20 + std::log2(batch / 16) / 2 + (point.repeat == 0 ? 0 : 10));
            results.append(resultOf(point, steps));
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        const StudyFinding* critical = findingAbout(charts, QStringLiteral("critical batch"));
        QVERIFY(critical);
        QVERIFY2(cautionSays(critical, QStringLiteral("repeats disagree by up to")), qPrintable(critical->line()));
        // Repeats that agree: nothing to say.
        QList<StudyRunResult> agreeing = mcCandlishResults(study, 10, 64, 0.004);
        const StudyCharts quiet = buildStudyCharts(study, agreeing, defaultChartChoices(study));
        QVERIFY(!cautionSays(findingAbout(quiet, QStringLiteral("critical batch")), QStringLiteral("repeats disagree")));
    }

    void aBestLrOverOneSeedOrNearTiesSaysSo()
    {
        // One seed, the runner-up LR 50 % slower: the best is clear but rests on one seed.
        const StoredStudy single = studyOf(gridStudy());
        const StudyCharts clear = buildStudyCharts(single, mcCandlishResults(single, 10, 64, 0.004), defaultChartChoices(single));
        const StudyFinding* exponent = findingAbout(clear, QStringLiteral("the best learning rate grows as batch^"));
        QVERIFY(exponent);
        QVERIFY2(cautionSays(exponent, QStringLiteral("one seed at each setting: the best lr may be the luck of that seed; add repeats")),
                 qPrintable(exponent->line()));
        // Two repeats that agree, the others far behind: nothing to say about noise.
        const StoredStudy repeated = studyOf(gridStudy(2));
        const StudyCharts settled = buildStudyCharts(repeated, mcCandlishResults(repeated, 10, 64, 0.004), defaultChartChoices(repeated));
        const StudyFinding* sure = findingAbout(settled, QStringLiteral("the best learning rate grows as batch^"));
        QVERIFY(sure);
        QVERIFY2(!cautionSays(sure, QStringLiteral("seed")) && !cautionSays(sure, QStringLiteral("within noise")), qPrintable(sure->line()));
        // Near-ties: at batch 64 the LR 0.016 is within two standard errors of the best 0.004.
        QList<StudyRunResult> close = mcCandlishResults(repeated, 10, 64, 0.004);
        for (StudyRunResult& result : close) {
            if (result.effectiveBatch == 64 && result.lr == 0.016)
                result.stepsToTarget = qint64(std::round(10 * (1 + 64.0 / 64))) + (result.repeat == 0 ? -1 : 1);
        }
        const StudyCharts tied = buildStudyCharts(repeated, close, defaultChartChoices(repeated));
        const StudyFinding* unsure = findingAbout(tied, QStringLiteral("the best learning rate grows as batch^"));
        QVERIFY(unsure);
        QVERIFY2(cautionSays(unsure, QStringLiteral("differences within noise: at effective batch 64 the next-best lr came within two "
                                                     "standard errors of the best")),
                 qPrintable(unsure->line()));
    }

    void aCriticalBatchOnWholeStepsSaysSo()
    {
        // S_min 1: the steps to the target are 5, 2 and 1 at batches 16, 64 and 256.
        const StoredStudy study = studyOf(gridStudy());
        const StudyCharts charts = buildStudyCharts(study, mcCandlishResults(study, 1, 64, 0.004), defaultChartChoices(study));
        const StudyFinding* critical = findingAbout(charts, QStringLiteral("critical batch"));
        QVERIFY(critical);
        QVERIFY2(cautionSays(critical, QStringLiteral("under 2, so the fit rests on whole-step counts")), qPrintable(critical->line()));
        // S_min 20: room enough, nothing said.
        const StudyCharts roomy = buildStudyCharts(study, mcCandlishResults(study, 20, 64, 0.004), defaultChartChoices(study));
        QVERIFY(!cautionSays(findingAbout(roomy, QStringLiteral("critical batch")), QStringLiteral("whole-step")));
    }

    void anAxisOfWordsIsComparedHeadToHead()
    {
        // Issue 28 §6: "sqrt against linear" was summed up as a line "against run". Two rules x
        // two batches, 2 repeats: each batch's rules side by side with mean ± standard error.
        const StoredStudy study = studyOf(QByteArrayLiteral(R"({"id": "rules", "title": "rules", "repeats": 2,
            "base": {"workload": "toy", "world_size": 1, "batch_size": 16, "epochs": 1},
            "axes": [{"key": "lr_rule", "values": ["linear", "sqrt"]}, {"key": "batch_size", "values": [16, 64]}]})"));
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = ddplab::test::finishedRunOf(point);
            const bool linear = point.values.value(QStringLiteral("lr_rule")).toString() == QStringLiteral("linear");
            const bool large = point.values.value(QStringLiteral("batch_size")).toInteger() == 64;
            // At 16 linear is clearly lower; at 64 the two are within their spread.
            const double mean = large ? (linear ? 0.500 : 0.501) : (linear ? 0.40 : 0.60);
            result.loss = mean + (point.repeat == 0 ? -0.01 : 0.01);
            results.append(result);
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        const StudyFinding* small = findingAbout(charts, QStringLiteral("by LR rule (Batch per GPU 16)"));
        QVERIFY2(small, qPrintable(charts.findingLines().join(QLatin1Char('\n'))));
        QVERIFY2(small->text.endsWith(QStringLiteral(": linear 0.4 ± 0.01, sqrt 0.6 ± 0.01 (mean ± standard error over repeats); lowest: linear")),
                 qPrintable(small->text));
        QVERIFY2(small->cautions.isEmpty(), qPrintable(small->line()));
        const StudyFinding* large = findingAbout(charts, QStringLiteral("by LR rule (Batch per GPU 64)"));
        QVERIFY(large);
        QVERIFY2(cautionSays(large, QStringLiteral("differences within noise: linear and sqrt are within two standard errors")),
                 qPrintable(large->line()));
        // The figures the charts do not draw have their say: the best point of each.
        for (qsizetype i = 0; i < results.size(); ++i)
            results[i].valAccuracy = 0.5 + 0.01 * double(i);
        const StudyCharts more = buildStudyCharts(study, results, defaultChartChoices(study));
        const StudyFinding* validation = findingAbout(more, QStringLiteral("validation accuracy"));
        QVERIFY2(validation, qPrintable(more.findingLines().join(QLatin1Char('\n'))));
        QVERIFY2(validation->text.contains(QStringLiteral(": highest 0.565 at LR rule sqrt · Batch per GPU 64 (mean of 2 repeats)")),
                 qPrintable(validation->text));
        QVERIFY(!findingAbout(more, QStringLiteral("loss over the training set")));  // no run has it
        // The numeric axis is not a head-to-head.
        QVERIFY(!findingAbout(charts, QStringLiteral("by ") + axisLabel(QStringLiteral("batch_size"))));
    }

    void aStudyWithoutANumericAxisComparesStepsToItsTargetHeadToHead()
    {
        // decay-or-grow: a batch schedule against another, with a target. Against the run's
        // number there is no batch to fit a critical batch to (it fitted one to the run numbers).
        const StoredStudy study = studyOf(QByteArrayLiteral(R"({"id": "grow", "title": "grow", "repeats": 2,
            "base": {"workload": "toy", "world_size": 2, "batch_size": 8, "epochs": 2, "schedule": "step", "gamma": 0.5},
            "axes": [{"key": "batch_schedule", "values": ["constant", "smith"]}],
            "target": {"metric": "loss", "at_most": 1.2}})"));
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            const bool grows = point.values.value(QStringLiteral("batch_schedule")).toString() == QStringLiteral("smith");
            results.append(resultOf(point, (grows ? 60 : 100) + (point.repeat == 0 ? -2 : 2)));
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        QVERIFY2(!findingAbout(charts, QStringLiteral("critical batch")), qPrintable(charts.findingLines().join(QLatin1Char('\n'))));
        const StudyFinding* steps = findingAbout(charts, QStringLiteral("steps to the target by batch schedule"));
        QVERIFY2(steps, qPrintable(charts.findingLines().join(QLatin1Char('\n'))));
        QVERIFY2(steps->text.endsWith(QStringLiteral(": constant 100 ± 2, smith 60 ± 2 (mean ± standard error over repeats); lowest: smith")),
                 qPrintable(steps->text));
        QVERIFY(findingAbout(charts, QStringLiteral("samples to the target by batch schedule")));
    }

    void aModelThatEvaluatesFarWorseThanItTrainsIsCautioned()
    {
        // The issue's BatchNorm CNN: eval-mode training loss 3.10 against a mini-batch loss of 0.74.
        const StoredStudy study = studyOf(gridStudy());
        QList<StudyRunResult> results = mcCandlishResults(study, 10, 64, 0.004);
        for (StudyRunResult& result : results) {
            result.loss = 0.74;
            result.trainLoss = result.effectiveBatch == 256 ? 3.10 : 0.80;
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        const StudyFinding* lag = findingAbout(charts, QStringLiteral("evaluate far worse than they train"));
        QVERIFY(lag);
        QCOMPARE(lag->text, QStringLiteral("3 of 9 runs evaluate far worse than they train (at worst a training-set loss of 3.1 in eval "
                                           "mode against a mini-batch loss of 0.74)"));
        QVERIFY(cautionSays(lag, QStringLiteral("BatchNorm's running statistics lag the weights")));
        for (StudyRunResult& result : results)
            result.trainLoss = 0.80;
        QVERIFY(!findingAbout(buildStudyCharts(study, results, defaultChartChoices(study)), QStringLiteral("evaluate far worse")));
    }

    void findingsWhileAStudyRunsAreProvisional()
    {
        const StoredStudy study = studyOf(gridStudy());
        const QList<StudyRunResult> all = mcCandlishResults(study, 10, 64, 0.004);
        const StudyCharts partial = buildStudyCharts(study, all.mid(0, 5), defaultChartChoices(study));
        QCOMPARE(partial.provisional, QStringLiteral("Provisional: 5 of 9 runs have ended; every figure below will change as the rest arrive."));
        QCOMPARE(partial.findingLines().first(), partial.provisional);
        QVERIFY(buildStudyCharts(study, all, defaultChartChoices(study)).provisional.isEmpty());
    }

    void cautionsAreWrittenBesideTheirNumber()
    {
        // findings.txt and the headless output: the number, then its cautions on the same line.
        StudyFinding finding{QStringLiteral("critical batch 0.00537 from the fit"), {QStringLiteral("extrapolated, not measured")}};
        QCOMPARE(finding.line(), QStringLiteral("critical batch 0.00537 from the fit  [caution: extrapolated, not measured]"));
    }

    void unreachedPointsAreDrawnHollowWhereTheirRunsEnded()
    {
        // No run reached the target: every point still shows, hollow, at the steps it ran.
        const StoredStudy study = studyOf(gridStudy());
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points)
            results.append(resultOf(point, -1));
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        const PlotSpec* steps = plotNamed(charts, QStringLiteral("steps-to-target"));
        QVERIFY(steps);
        const PlotLine& line = steps->lines.first();
        QCOMPARE(line.points, (QList<QPointF>{{16, 100}, {64, 100}, {256, 100}}));
        QCOMPARE(line.hollow, (QList<bool>{true, true, true}));
    }

    void linesAreListedInTheOrderOfTheirNumbers()
    {
        QVERIFY(numericLess(QStringLiteral("lr 5"), QStringLiteral("lr 10")));
        QVERIFY(!numericLess(QStringLiteral("lr 20"), QStringLiteral("lr 10")));
        QVERIFY(numericLess(QStringLiteral("0.0005"), QStringLiteral("0.001")));
        QVERIFY(numericLess(QStringLiteral("1e-4"), QStringLiteral("0.001")));
        QVERIFY(numericLess(QStringLiteral("lr_rule linear · lr 2"), QStringLiteral("lr_rule sqrt · lr 1")));
        const StoredStudy study = studyOf(R"({"id": "w", "title": "w",
            "base": {"workload": "toy", "batch_size": 16, "epochs": 1, "num_examples": 256},
            "axes": [{"key": "world_size", "values": [1, 2]}, {"key": "experiments", "values": [10, 20, 5]}]})");
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points)
            results.append(resultOf(point, 10));
        StudyChartChoices choices = defaultChartChoices(study);
        choices.colourBy = QStringLiteral("experiments");
        const StudyCharts charts = buildStudyCharts(study, results, choices);
        QStringList legend;
        for (const PlotLine& line : charts.plots.first().lines)
            legend.append(line.label);
        QCOMPARE(legend, (QStringList{QStringLiteral("Experiments 5"), QStringLiteral("Experiments 10"), QStringLiteral("Experiments 20")}));
    }

    void everyTickLabelFits()
    {
        // Seven batches from 16 to 1024 on a narrow plot: neighbours that would touch go to a
        // second row, none is left out.
        const QList<double> centres{10, 40, 70, 100, 130, 160, 190};
        const QList<double> widths(7, 40.0);
        QCOMPARE(tickLabelRows(centres, widths, 4), (QList<int>{0, 1, 0, 1, 0, 1, 0}));
        QCOMPARE(tickLabelRows({10, 100, 200}, {40, 40, 40}, 4), (QList<int>{0, 0, 0}));
    }

    void aLogTickSaysItsValue()
    {
        // A study's batches 16 to 1024 as its x ticks: each labelled as it is. The fewest digits
        // that kept neighbours apart made them "2e+01, 3e+01, 6e+01, ... 1e+03" (on the Study
        // page of seed000-variance-curve at 1280 x 720, in presentation mode).
        ddplab::ui::Axis batches = ddplab::ui::makeAxis({16, 1024}, true);
        batches.ticks = {16, 32, 64, 128, 256, 512, 1024};
        QStringList labels;
        for (double tick : batches.ticks)
            labels.append(ddplab::ui::tickText(tick, batches));
        QCOMPARE(labels.join(QLatin1Char(' ')), QStringLiteral("16 32 64 128 256 512 1024"));
        // The planner's decades keep their one digit.
        ddplab::ui::Axis decades = ddplab::ui::makeAxis({0.002, 0.08}, true);
        decades.ticks = {0.001, 0.01, 0.1};
        QCOMPARE(ddplab::ui::tickText(0.01, decades), QStringLiteral("0.01"));
        QCOMPARE(ddplab::ui::tickText(0.001, decades), QStringLiteral("0.001"));
        // Plain where plain is short: an advice's noise scale read "5e+01, 1e+02, 2e+02".
        ddplab::ui::Axis noise = ddplab::ui::makeAxis({30, 210}, true);
        noise.ticks = {50, 100, 200};
        QCOMPARE(ddplab::ui::tickText(200, noise), QStringLiteral("200"));
        QCOMPARE(ddplab::ui::tickText(50, noise), QStringLiteral("50"));
        // Samples seen are never below zero, nor is their axis (it ran from -5000).
        QCOMPARE(ddplab::ui::makeAxis({64, 12800}, false).low, 0.0);
        QVERIFY(ddplab::ui::makeAxis({-3, 12800}, false).low < 0);
    }

    void theNoiseScaleIsNeverANegativeBatch()
    {
        // A run stored by an engine that reported its estimators' negative ratio.
        RunData run;
        run.record().status = RunStatus::Finished;
        run.appendEvents({QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 1},
                                      {QStringLiteral("loss"), 1.0}, {QStringLiteral("noise_scale"), -9748.0}},
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("summary")}, {QStringLiteral("steps"), 1},
                                      {QStringLiteral("noise_scale"), -9748.0}}});
        const StoredStudy study = studyOf(gridStudy());
        const StudyRunResult result = ddplab::ui::resultOf(study.points.first(), run, study.spec.target);
        QVERIFY(std::isnan(result.noiseScale));
        QVERIFY(std::isnan(result.noiseScaleAtTarget));
        const QList<QByteArray> rows = studyCsv(study, {result}).trimmed().split('\n');
        const int column = int(rows.first().split(',').indexOf("noise_scale"));
        QVERIFY(column > 0);
        QCOMPARE(rows.at(1).split(',').at(column), QByteArray());
    }

    void theTableListsEveryRunSortableByNumber()
    {
        const StoredStudy study = studyOf(gridStudy());
        QList<StudyRunResult> results = mcCandlishResults(study, 10, 64, 0.004);
        results[4].status = RunStatus::Diverged;
        results[4].divergedAtStep = 12;
        StudyPointsTable table;
        table.setResults(study, results);
        QCOMPARE(table.rowCount(), 9);
        QStringList headers;
        for (int column = 0; column < table.columnCount(); ++column)
            headers.append(table.horizontalHeaderItem(column)->text());
        QCOMPARE(headers.mid(0, 5), (QStringList{QStringLiteral("point"), QStringLiteral("repeat"), QStringLiteral("effective_batch"),
                                                QStringLiteral("lr"), QStringLiteral("status")}));
        QVERIFY(headers.contains(QStringLiteral("steps_to_target")));
        const int status = int(headers.indexOf(QStringLiteral("status")));
        const int steps = int(headers.indexOf(QStringLiteral("steps_to_target")));
        QCOMPARE(table.item(4, status)->text(), QStringLiteral("diverged at step 12"));
        // Sorted by steps to the target, as numbers (9 before 10, 16 before 100).
        table.sortByColumn(steps, Qt::AscendingOrder);
        double previous = -1;
        for (int row = 0; row < table.rowCount(); ++row) {
            const double value = table.item(row, steps)->data(Qt::DisplayRole).toDouble();
            QVERIFY(value >= previous);
            previous = value;
        }
    }
};

DDPLAB_UI_TEST_MAIN(TestStudyFindings)
#include "tst_study_findings.moc"
