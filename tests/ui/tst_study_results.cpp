// What a study found, from recorded runs and synthetic data with known answers: steps and
// samples to the target read from a recorded linreg run, McCandlish's fit recovering a known
// critical batch, means with standard errors, the power law of the best LR, the heatmap's best
// cells, study.csv against a golden file, and the Study page's axis text.

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "study/scaling_fit.hpp"
#include "study/study_axis_text.hpp"
#include "study/study_csv.hpp"
#include "study/study_plan.hpp"
#include "study/study_results.hpp"
#include "ui_test_main.hpp"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

using namespace ddplab::ui;

namespace {

const QString kData = QStringLiteral(DDPLAB_SOURCE_DIR "/tests/ui/data/");

StoredStudy studyOf(const QByteArray& json)
{
    const StudyReadResult read = parseStudy(QJsonDocument::fromJson(json).object(), QStringLiteral("test"), QString());
    StoredStudy study;
    if (!read.spec)
        qWarning("%s", qPrintable(read.error));
    study.spec = *read.spec;
    study.points = planStudy(study.spec).points;
    study.id = QStringLiteral("test");
    return study;
}

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

}  // namespace

class TestStudyResults : public QObject {
    Q_OBJECT

private slots:
    void stepsToTargetAreReadFromARecordedRun()
    {
        // Recorded with the critical-batch study: linreg, 4 ranks x 8, lr 10, stop_at_loss 0.012.
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
        target.metric = QStringLiteral("loss");
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
        RunRecord run = *store.createRun(draft, study.points.first().config, nullptr);
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
};

DDPLAB_UI_TEST_MAIN(TestStudyResults)
#include "tst_study_results.moc"
