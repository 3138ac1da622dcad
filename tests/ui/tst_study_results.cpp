// SPDX-License-Identifier: GPL-3.0-or-later
// What a study found, from recorded runs and synthetic data with known answers: steps and
// samples to the target read from recorded linreg runs on the measure the target names (the
// noise-free training-set loss, or the mini-batch loss that meets it by chance first), a
// figure summed up as the mean of the last epoch, the last or the best value, McCandlish's fit
// and Zhang et al.'s 20 % critical batch recovering known answers, means with standard errors,
// the power law of the best LR, the heatmap's best cells, curves against epochs averaged over
// repeats, a resolved x (the weight decay's timescale), study.csv against a golden file, and
// the Study page's axis and condition text.

#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/study/scaling_fit.hpp"
#include "client/study/study_axis_text.hpp"
#include "client/study/study_csv.hpp"
#include "client/study/study_plan.hpp"
#include "client/study/study_results.hpp"
#include "client/study/study_target.hpp"
#include "stored_study_of.hpp"
#include "ui_test_main.hpp"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

using namespace ddplab::ui;
using ddplab::test::studyOf;

namespace {

const QString kData = QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/");

// A finished run of `point` whose figures are made up: enough for the summaries.
StudyRunResult madeUpResult(const StudyPoint& point, double loss, qint64 stepsToTarget)
{
    StudyRunResult result;
    result.point = point.index;
    result.repeat = point.repeat;
    result.values = point.values;
    result.runId = QStringLiteral("run-%1").arg(point.index);
    result.status = RunStatus::Finished;
    result.seed = point.config.value(QStringLiteral("seed")).toInteger();
    result.worldSize = point.config.value(QStringLiteral("world_size")).toInteger(1);
    result.batchSize = point.config.value(QStringLiteral("batch_size")).toInteger();
    result.effectiveBatch = result.worldSize * result.batchSize;
    result.lr = point.config.value(QStringLiteral("lr")).toDouble();
    result.effectiveLr = result.lr;
    result.lrRule = QStringLiteral("none");
    result.optimizer = QStringLiteral("sgd");
    result.loss = loss;
    result.steps = 100;
    result.samples = 100.0 * double(result.effectiveBatch);
    result.stepsToTarget = stepsToTarget;
    result.samplesToTarget = stepsToTarget >= 0 ? double(stepsToTarget * result.effectiveBatch) : StudyRunResult::kNone;
    result.wallSeconds = 0.5;
    return result;
}

const QByteArray kGrid = R"({"id": "grid", "title": "grid",
    "base": {"workload": "linreg", "batch_size": 4, "epochs": 1, "num_examples": 512},
    "axes": [{"key": "effective_batch", "values": [4, 8, 16], "split": "ranks_first", "max_ranks": 2},
             {"key": "lr", "values": [0.1, 0.2]}],
    "target": {"metric": "loss", "at_most": 0.5}})";

RunData recordedRun(const QString& file)
{
    RunRecord record;
    record.id = file;
    record.status = RunStatus::Finished;
    RunData run(record);
    run.appendEvents(ddplab::test::readEventsFile(kData + file));
    return run;
}

}  // namespace

class TestStudyResults : public QObject {
    Q_OBJECT

private slots:
    void stepsToTargetAreReadFromARecordedRun()
    {
        // Recorded with the critical-batch study before targets had a measure: linreg, 4 ranks x
        // 8, lr 10, stopped on the mini-batch loss at 0.012.
        RunRecord record;
        record.id = QStringLiteral("recorded");
        record.status = RunStatus::Finished;
        RunData run(record);
        run.appendEvents(ddplab::test::readEventsFile(kData + QStringLiteral("linreg-b32-lr10.events.jsonl")));
        QVERIFY(run.hasSummary());
        StudyPoint point;
        point.index = 7;
        point.values = QJsonObject{{QStringLiteral("effective_batch"), 32}, {QStringLiteral("lr"), 10}};
        StudyTarget target;
        target.metric = QStringLiteral("batch_loss");
        target.value = 0.012;
        const StudyRunResult result = resultOf(point, run, target);
        QCOMPARE(result.worldSize, 4);
        QCOMPARE(result.effectiveBatch, 32);
        // Step 10's loss is 0.01212, step 11's 0.01101: the first at or below 0.012.
        QCOMPARE(result.stepsToTarget, 11);
        QCOMPARE(result.samplesToTarget, 352.0);
        QCOMPARE(result.steps, 11);  // the run stopped there
        QVERIFY(std::abs(result.noiseScaleAtTarget - 14.374) < 0.01);

        target.value = 0.001;  // never reached: marked, not dropped
        const StudyRunResult missed = resultOf(point, run, target);
        QCOMPARE(missed.stepsToTarget, -1);
        QVERIFY(std::isnan(missed.samplesToTarget));
    }

    void theTargetIsReadFromTheMeasureItNames_data()
    {
        // linreg, 2 ranks x 8, lr 1, 3 epochs of 8 steps (tests/ui/data/linreg-2x8-lr1.events.jsonl).
        // Its mini-batch loss is 0.05965 at step 5 while the training set's is 0.0676; the
        // training-set loss first gets to 0.06 at step 9 (0.0579).
        QTest::addColumn<QString>("metric");
        QTest::addColumn<double>("value");
        QTest::addColumn<qint64>("steps");
        QTest::newRow("training set, 0.06") << QStringLiteral("train_loss") << 0.06 << qint64(9);
        QTest::newRow("a file's loss: the training set") << QStringLiteral("loss") << 0.06 << qint64(9);
        QTest::newRow("mini-batch, 0.06: by chance") << QStringLiteral("batch_loss") << 0.06 << qint64(5);
        QTest::newRow("training set, 0.038") << QStringLiteral("train_loss") << 0.038 << qint64(22);
        QTest::newRow("mini-batch, 0.038") << QStringLiteral("batch_loss") << 0.038 << qint64(16);
        QTest::newRow("training set, never") << QStringLiteral("train_loss") << 0.03 << qint64(-1);
    }
    void theTargetIsReadFromTheMeasureItNames()
    {
        QFETCH(QString, metric);
        QFETCH(double, value);
        QFETCH(qint64, steps);
        RunData run = recordedRun(QStringLiteral("linreg-2x8-lr1.events.jsonl"));
        StudyTarget target;
        target.metric = findTargetMeasure(metric)->name;
        target.value = value;
        const StudyRunResult result = resultOf(StudyPoint(), run, target);
        QCOMPARE(result.stepsToTarget, steps);
        QCOMPARE(result.samplesToTarget, steps > 0 ? double(steps * 16) : StudyRunResult::kNone);
    }

    void aFigureIsSummedUpAsAsked()
    {
        RunData run = recordedRun(QStringLiteral("linreg-2x8-lr1.events.jsonl"));
        // The expected numbers from the events themselves: steps 17..24 are the last epoch.
        double lastEpochTrain = 0.0, bestBatch = 1e9;
        for (const QJsonObject& event : ddplab::test::readEventsFile(kData + QStringLiteral("linreg-2x8-lr1.events.jsonl"))) {
            if (event.value(QStringLiteral("type")) != QStringLiteral("step"))
                continue;
            if (event.value(QStringLiteral("step")).toInt() > 16)
                lastEpochTrain += event.value(QStringLiteral("train_loss")).toDouble() / 8.0;
            bestBatch = std::min(bestBatch, event.value(QStringLiteral("loss")).toDouble());
        }
        const StudyRunResult result = resultOf(StudyPoint(), run, StudyTarget());
        QVERIFY(std::abs(result.figure(QStringLiteral("train_loss"), FigureSummary::LastEpochMean) - lastEpochTrain) < 1e-12);
        QVERIFY(std::abs(result.figure(QStringLiteral("train_loss"), FigureSummary::Last) - 0.03485227133928184) < 1e-15);
        QVERIFY(std::abs(result.figure(QStringLiteral("train_loss"), FigureSummary::Best) - 0.03485227133928184) < 1e-15);
        // The mini-batch loss: the epoch event's mean over its samples, the last step's, the lowest step's.
        QVERIFY(std::abs(result.figure(QStringLiteral("loss"), FigureSummary::LastEpochMean) - 0.04081) < 1e-5);
        QVERIFY(std::abs(result.figure(QStringLiteral("loss"), FigureSummary::Last) - 0.03829481080174446) < 1e-15);
        QCOMPARE(result.figure(QStringLiteral("loss"), FigureSummary::Best), bestBatch);
        QVERIFY(std::abs(bestBatch - 0.03706) < 1e-5);
        QCOMPARE(result.figure(QStringLiteral("loss")), result.loss);  // the default: the mean of the last epoch
        // A figure that is one number a run ignores the summary.
        QCOMPARE(result.figure(QStringLiteral("update_var"), FigureSummary::Best), result.updateVar);
        QVERIFY(std::isnan(result.figure(QStringLiteral("val_loss"), FigureSummary::Last)));  // linreg has no validation set
        QCOMPARE(findStudyFigure(QStringLiteral("val_loss"))->titleFor(FigureSummary::Best), QStringLiteral("validation loss (best value)"));
        QCOMPARE(findStudyFigure(QStringLiteral("wall_s"))->titleFor(FigureSummary::Best), QStringLiteral("wall time (s)"));
        QCOMPARE(summaryNamed(QStringLiteral("last_epoch_mean")), std::optional<FigureSummary>(FigureSummary::LastEpochMean));
        QVERIFY(!summaryNamed(QStringLiteral("mean")));
    }

    void zhangsCriticalBatchIsWhereTheStepsExceedLinearScalingBy20Percent()
    {
        // S = S_min (1 + B_crit / B): against linear scaling from B0 the excess is
        // (B + B_crit) / (B0 + B_crit) - 1, so 20 % falls at 1.2 B0 + 0.2 B_crit = 37.6 for
        // B0 8, B_crit 140. Measured at 8 ... 512, it lies between 32 (16.2 %) and 64 (37.8 %).
        QList<QPointF> points;
        for (double batch = 8; batch <= 512; batch *= 2)
            points.append(QPointF(batch, 50.0 * (1.0 + 140.0 / batch)));
        const ExcessStepsBatch found = batchAtExcessSteps(points, 0.2);
        QVERIFY(found.ok && !found.beyond);
        QCOMPARE(found.referenceBatch, 8.0);
        const double at32 = (32.0 + 140.0) / 148.0 - 1.0, at64 = (64.0 + 140.0) / 148.0 - 1.0;
        const double expected = 32.0 * std::pow(2.0, (0.2 - at32) / (at64 - at32));
        QVERIFY2(std::abs(found.batch - expected) < 1e-9, qPrintable(QString::number(found.batch)));
        QVERIFY(std::abs(found.batch - 37.6) / 37.6 < 0.05);  // the interpolation is close to the exact crossing
        // Perfect scaling all the way: the critical batch lies beyond the largest measured.
        const ExcessStepsBatch perfect = batchAtExcessSteps({QPointF(4, 400), QPointF(8, 200), QPointF(16, 100)}, 0.2);
        QVERIFY(perfect.ok && perfect.beyond);
        QCOMPARE(perfect.batch, 16.0);
        // Repeats at one batch are averaged; one batch alone says nothing.
        // (4: 100 and 300, 200 on average; 8: 130, an excess of 30 %): 20 % at 4 * 2^(2/3).
        QVERIFY(std::abs(batchAtExcessSteps({QPointF(4, 100), QPointF(4, 300), QPointF(8, 130)}, 0.2).batch - 4.0 * std::pow(2.0, 2.0 / 3.0)) < 1e-9);
        QVERIFY(!batchAtExcessSteps({QPointF(4, 100), QPointF(4, 120)}, 0.2).ok);
    }

    void theCriticalBatchFitRecoversAKnownAnswer()
    {
        // S = S_min (1 + B_crit / B) with B_crit 140, S_min 50, and a deterministic +-4 % wobble.
        QList<QPointF> points;
        const double wobble[] = {1.04, 0.97, 1.02, 0.96, 1.03, 0.98, 1.01, 0.99};
        int i = 0;
        for (double batch = 8; batch <= 1024; batch *= 2, ++i)
            points.append(QPointF(batch, 50.0 * (1.0 + 140.0 / batch) * wobble[i]));
        const CriticalBatchFit fit = fitCriticalBatch(points);
        QVERIFY(fit.ok);
        QVERIFY2(std::abs(fit.bCrit - 140.0) / 140.0 < 0.05, qPrintable(QString::number(fit.bCrit)));
        QVERIFY2(std::abs(fit.sMin - 50.0) / 50.0 < 0.05, qPrintable(QString::number(fit.sMin)));
        QVERIFY(!fitCriticalBatch({QPointF(8, 100)}).ok);
    }

    void meansCarryTheirStandardError()
    {
        const MeanAndError four = meanAndError({1.0, 2.0, 3.0, 4.0});
        QCOMPARE(four.count, 4);
        QCOMPARE(four.mean, 2.5);
        // sample sd sqrt(5/3) over sqrt(4)
        QVERIFY(std::abs(four.standardError - std::sqrt(5.0 / 3.0) / 2.0) < 1e-12);
        const MeanAndError withNan = meanAndError({2.0, std::nan(""), 4.0});
        QCOMPARE(withNan.count, 2);
        QCOMPARE(withNan.mean, 3.0);
        QCOMPARE(meanAndError({7.0}).standardError, 0.0);
    }

    void thePowerLawOfTheBestLr()
    {
        const PowerLawFit linear = fitPowerLaw({QPointF(4, 0.4), QPointF(8, 0.8), QPointF(16, 1.6)});
        QVERIFY(linear.ok);
        QVERIFY(std::abs(linear.exponent - 1.0) < 1e-9);
        const PowerLawFit root = fitPowerLaw({QPointF(4, 1.0), QPointF(16, 2.0), QPointF(64, 4.0)});
        QVERIFY(std::abs(root.exponent - 0.5) < 1e-9);
    }

    void targetCurvesTakeTheBestLrAtEachBatch()
    {
        const StoredStudy study = studyOf(kGrid);
        QCOMPARE(study.points.size(), 6);
        QList<StudyRunResult> results;
        // lr 0.1 reaches in 40/20/12 steps, lr 0.2 in 30/25/-: the best is 30, 20, 12.
        const qint64 steps[] = {40, 30, 20, 25, 12, -1};
        for (const StudyPoint& point : study.points)
            results.append(madeUpResult(point, 0.4, steps[point.index]));
        const QList<TargetCurve> curves = targetCurves(results, study, studyXAxis(study), QString());
        QCOMPARE(curves.size(), 1);
        QCOMPARE(curves[0].points.size(), 3);
        QCOMPARE(curves[0].points[0].steps, 30.0);
        QCOMPARE(curves[0].points[1].steps, 20.0);
        QCOMPARE(curves[0].points[2].steps, 12.0);
        QVERIFY(curves[0].points[2].bestSetting.contains(QStringLiteral("0.1")));

        const QList<BestSettingCurve> best = bestSettingCurves(results, study, studyXAxis(study), QStringLiteral("lr"),
                                                               QStringLiteral("steps_to_target"), QString());
        QCOMPARE(best.size(), 1);
        QCOMPARE(best[0].points, (QList<QPointF>{QPointF(4, 0.2), QPointF(8, 0.1), QPointF(16, 0.1)}));
    }

    void theHeatmapMarksTheBestCellOfEachColumnAndDivergedRuns()
    {
        const StoredStudy study = studyOf(kGrid);
        QList<StudyRunResult> results;
        const double losses[] = {0.5, 0.3, 0.2, 0.4, 0.1, std::nan("")};
        for (const StudyPoint& point : study.points) {
            results.append(madeUpResult(point, losses[point.index], -1));
            if (std::isnan(losses[point.index]))
                results.last().status = RunStatus::Diverged;
        }
        const StudyHeatmap map = heatmapOf(results, study, QStringLiteral("loss"), QStringLiteral("effective_batch"), QStringLiteral("lr"));
        QCOMPARE(map.columns.size(), 3);
        QCOMPARE(map.rows.size(), 2);
        // rows: lr 0.1, 0.2; columns: batch 4, 8, 16
        QVERIFY(map.cells[1][0].bestInColumn);   // 0.3 < 0.5
        QVERIFY(map.cells[0][1].bestInColumn);   // 0.2 < 0.4
        QVERIFY(map.cells[0][2].bestInColumn);   // 0.1, the other diverged
        QVERIFY(map.cells[1][2].diverged);
        QVERIFY(!map.cells[1][2].bestInColumn);
    }

    void curvesAgainstEpochsAreAveragedOverRepeats()
    {
        const StoredStudy study = studyOf(R"({"id": "c", "title": "c", "repeats": 2,
            "base": {"workload": "linreg", "batch_size": 4, "epochs": 2, "num_examples": 64},
            "axes": [{"key": "effective_batch", "values": [4, 8], "max_ranks": 2}, {"key": "lr_rule", "values": ["none", "linear"]}],
            "show": {"colour": "lr_rule", "curves": "train_loss"}})");
        QCOMPARE(study.points.size(), 8);
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = madeUpResult(point, 0.1, -1);
            // Two measurements; the repeats differ by 0.2 at the first, agree at the second.
            result.curve = {QPointF(1.0, 1.0 + 0.2 * point.repeat), QPointF(2.0, 0.5)};
            results.append(result);
        }
        const QList<CurvePanel> panels = curvePanels(results, study, QStringLiteral("lr_rule"));
        QCOMPARE(panels.size(), 2);
        QCOMPARE(panels[0].colourValue, QStringLiteral("linear"));
        QCOMPARE(panels[0].lines.size(), 2);  // batch 4 and batch 8
        QCOMPARE(panels[0].lines[0].label, QStringLiteral("effective batch 4"));
        const StudySeries& line = panels[0].lines[0];
        QCOMPARE(line.points.size(), 2);
        QCOMPARE(line.points[0].y.mean, 1.1);
        QVERIFY(std::abs(line.points[0].y.standardError - 0.1) < 1e-12);
        QCOMPARE(line.points[0].runs, 2);
        QCOMPARE(line.points[1].y.mean, 0.5);
    }

    void aResolvedXDrawsALinePerColour()
    {
        // Weight decay x batch against the decay's timescale tau = B / (lr lambda N), read from
        // each run's resolved config: a line per batch (the colour), its points at each tau.
        const StoredStudy study = studyOf(R"({"id": "t", "title": "t",
            "base": {"workload": "linreg", "optimizer": "adamw", "batch_size": 4, "epochs": 1, "num_examples": 64, "lr": 0.01},
            "axes": [{"key": "effective_batch", "values": [4, 8], "max_ranks": 1, "split": "batch_first"},
                     {"key": "weight_decay", "values": [1, 2, 4]}],
            "show": {"x": "weight_decay_timescale_epochs", "colour": "effective_batch", "figure": "val_loss"}})");
        const StudyXAxis axis = studyXAxis(study);
        QVERIFY(axis.resolved());
        QCOMPARE(axis.title, QStringLiteral("weight decay timescale τ (epochs)"));
        QCOMPARE(batchOrFirstAxis(study).key, QStringLiteral("effective_batch"));
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = madeUpResult(point, 0.1, -1);
            const double batch = point.values.value(QStringLiteral("effective_batch")).toDouble();
            const double decay = point.values.value(QStringLiteral("weight_decay")).toDouble();
            const double tau = batch / (0.01 * decay * 64.0);
            result.config.insert(QStringLiteral("weight_decay_timescale_epochs"), tau);
            result.valLoss = std::abs(std::log(tau / 3.125));  // curves that collapse: best at tau 3.125 for both
            results.append(result);
        }
        const QList<StudySeries> series = figureSeries(results, study, QStringLiteral("val_loss"), axis, QStringLiteral("effective_batch"));
        QCOMPARE(series.size(), 2);
        QCOMPARE(series[0].label, QStringLiteral("effective batch 4"));
        QCOMPARE(series[0].points.size(), 3);
        QCOMPARE(series[0].points[0].x, 4.0 / (0.01 * 4 * 64));  // the smallest tau: the largest decay
        // The best weight decay against the batch: it doubles with the batch (slope 1).
        const QList<BestSettingCurve> best = bestSettingCurves(results, study, batchOrFirstAxis(study), QStringLiteral("weight_decay"),
                                                               QStringLiteral("val_loss"), QString());
        QCOMPARE(best.size(), 1);
        QCOMPARE(best[0].points, (QList<QPointF>{QPointF(4, 2), QPointF(8, 4)}));
    }

    void studyCsvMatchesTheGoldenFile()
    {
        const StoredStudy study = studyOf(kGrid);
        QList<StudyRunResult> results;
        const qint64 steps[] = {40, 30, 20, 25, 12, -1};
        for (const StudyPoint& point : study.points)
            results.append(madeUpResult(point, 0.25 + 0.05 * point.index, steps[point.index]));
        results[5].status = RunStatus::Failed;
        const QByteArray csv = studyCsv(study, results);
        QFile golden(kData + QStringLiteral("study-grid.csv"));
        if (qEnvironmentVariableIsSet("DDPLAB_WRITE_GOLDEN")) {
            QVERIFY(golden.open(QIODevice::WriteOnly));
            golden.write(csv);
            return;
        }
        QVERIFY2(golden.open(QIODevice::ReadOnly), "tests/ui/data/study-grid.csv (DDPLAB_WRITE_GOLDEN=1 writes it)");
        QCOMPARE(QString::fromUtf8(csv), QString::fromUtf8(golden.readAll()));
    }

    void aStoredRunWithCutEventsIsIncompleteInTheResults()
    {
        // Its 6 of 16 steps and their last loss went into study.csv as the run's result.
        const StoredStudy study = studyOf(kGrid);
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord draft;
        draft.name = QStringLiteral("cut");
        draft.studyId = study.id;
        draft.studyPoint = 0;
        draft.started = QDateTime::currentDateTime();
        RunRecord run = *store.createRun(draft, coreConfigOf(study.points.first().config).value(), nullptr);
        run.status = RunStatus::Finished;
        run.steps = 11;
        QVERIFY(store.saveMeta(run, nullptr));
        QFile recorded(kData + QStringLiteral("linreg-b32-lr10.events.jsonl"));
        QVERIFY(recorded.open(QIODevice::ReadOnly));
        const QByteArray events = recorded.readAll();
        QFile cut(RunStore::eventsPath(run));
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(events.left(events.size() / 2));
        cut.close();

        const QList<StudyRunResult> results = collectStudyResults(study, store, store.listRuns());
        QCOMPARE(results.size(), 1);
        QCOMPARE(results.first().status, RunStatus::Incomplete);
        QVERIFY(!results.first().usable());  // left out of every chart and fit
        QVERIFY2(results.first().error.contains(QStringLiteral("its events end after step")), qPrintable(results.first().error));
        QVERIFY(studyCsv(study, results).contains(",incomplete,"));
        // And a resume runs its point again.
        QCOMPARE(StudyStore::pointsToRun(study, store.listRuns()).size(), study.points.size());
    }

    void axisTextBecomesTheFilesAxis()
    {
        QString error;
        QCOMPARE(axisFromText(QStringLiteral("batch_size"), QStringLiteral("16, 32 64"), &error),
                 QJsonObject({{QStringLiteral("key"), QStringLiteral("batch_size")}, {QStringLiteral("values"), QJsonArray{16, 32, 64}}}));
        QCOMPARE(axisFromText(QStringLiteral("lr_rule"), QStringLiteral("none, linear"), &error).value(QStringLiteral("values")),
                 QJsonValue(QJsonArray{QStringLiteral("none"), QStringLiteral("linear")}));
        const QJsonObject log = axisFromText(QStringLiteral("effective_batch"), QStringLiteral("16 .. 1024 x2"), &error);
        QCOMPARE(log.value(QStringLiteral("factor")).toDouble(), 2.0);
        QCOMPARE(log.value(QStringLiteral("to")).toDouble(), 1024.0);
        const QJsonObject even = axisFromText(QStringLiteral("lr"), QStringLiteral("0.1 .. 0.5 +0.1"), &error);
        QCOMPARE(even.value(QStringLiteral("step")).toDouble(), 0.1);
        QVERIFY(axisFromText(QStringLiteral("lr"), QStringLiteral("0.1 .. 0.5"), &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("lr")) && error.contains(QStringLiteral("x2")), qPrintable(error));
        QVERIFY(axisFromText(QStringLiteral("lr"), QStringLiteral("  "), &error).isEmpty());
        QCOMPARE(axisValuesText({QJsonValue(16), QJsonValue(QStringLiteral("sqrt")), QJsonValue(true)}), QStringLiteral("16, sqrt, true"));
    }

    void conditionTextBecomesTheFilesWhen()
    {
        QString error;
        const QJsonObject when = conditionFromText(QStringLiteral(" optimizer = sgd, lars ; world_size=2"), &error);
        QCOMPARE(when, QJsonObject({{QStringLiteral("optimizer"), QJsonArray{QStringLiteral("sgd"), QStringLiteral("lars")}},
                                    {QStringLiteral("world_size"), QJsonArray{2}}}));
        QCOMPARE(conditionText(when), QStringLiteral("optimizer = sgd, lars; world_size = 2"));
        QVERIFY(conditionFromText(QStringLiteral("   "), &error).isEmpty());
        error.clear();
        QVERIFY(conditionFromText(QStringLiteral("optimizer sgd"), &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("optimizer = sgd")), qPrintable(error));
        error.clear();
        QVERIFY(conditionFromText(QStringLiteral("optimizer ="), &error).isEmpty());
        QVERIFY(!error.isEmpty());
    }
};

DDPLAB_UI_TEST_MAIN(TestStudyResults)
#include "tst_study_results.moc"
