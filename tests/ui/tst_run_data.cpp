// SPDX-License-Identifier: GPL-3.0-or-later
// Events become chart series: step fields by name, eval and epoch fields prefixed, non-finite
// values dropped on arrival; the comparison table and progress text are read from them.

#include "client/runs/run_comparison.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_names.hpp"
#include "client/session/run_progress.hpp"
#include "ui_test_main.hpp"

#include <cmath>
#include <limits>
#include <optional>

using namespace ddplab::ui;

namespace {

QJsonObject parseEvent(const char* json)
{
    return QJsonDocument::fromJson(QByteArray(json)).object();
}

QList<QJsonObject> toyStream()
{
    return {
        parseEvent(R"({"type":"hello","protocol":1,"engine":"ddplab-engine"})"),
        parseEvent(R"({"type":"config","world_size":8,"batch_size":16,"epochs":2,"total_steps":4,"effective_batch_size":128,"lr_rule":"sqrt","lr_effective":0.0028284,"optimizer":"sgd"})"),
        parseEvent(R"({"type":"step","step":1,"epoch":0,"loss":1.5,"lr":0.002,"w_mean":0.99})"),
        parseEvent(R"({"type":"step","step":2,"epoch":0,"loss":null,"lr":0.002,"w_mean":0.98})"),
        parseEvent(R"({"type":"eval","step":2,"epoch":0,"val_loss":1.25,"val_accuracy":0.5,"samples":10000})"),
        parseEvent(R"({"type":"epoch","epoch":0,"step":2,"loss":1.4,"samples_per_sec":5000})"),
        parseEvent(R"({"type":"step","step":3,"epoch":1,"loss":1.0,"lr":0.002,"w_mean":0.97})"),
        parseEvent(R"({"type":"mystery","step":3,"loss":99})"),
    };
}

}  // namespace

class TestRunData : public QObject {
    Q_OBJECT

private slots:
    void stepFieldsBecomeSeriesByStep()
    {
        RunData run;
        run.appendEvents(toyStream());
        QCOMPARE(run.series(QStringLiteral("w_mean")), (QList<QPointF>{{1, 0.99}, {2, 0.98}, {3, 0.97}}));
        QCOMPARE(run.series(QStringLiteral("lr")).size(), 3);
        QCOMPARE(run.steps(), (QList<qint64>{1, 2, 3}));
        QCOMPARE(run.lastStep(), 3);
        QCOMPARE(run.lastEpoch(), 1);
    }

    void nullValuesAreDroppedButTheStepCounts()
    {
        RunData run;
        run.appendEvents(toyStream());
        QCOMPARE(run.series(QStringLiteral("loss")), (QList<QPointF>{{1, 1.5}, {3, 1.0}}));
        QCOMPARE(run.stepCount(), 3);
    }

    void evalAndEpochFieldsDoNotCollideWithStepFields()
    {
        RunData run;
        run.appendEvents(toyStream());
        QCOMPARE(run.series(QStringLiteral("val_loss")), (QList<QPointF>{{2, 1.25}}));
        QCOMPARE(run.series(QStringLiteral("val_accuracy")), (QList<QPointF>{{2, 0.5}}));
        QCOMPARE(run.series(QStringLiteral("eval_samples")), (QList<QPointF>{{2, 10000}}));
        QCOMPARE(run.series(QStringLiteral("epoch_loss")), (QList<QPointF>{{2, 1.4}}));
        QCOMPARE(run.series(QStringLiteral("epoch_samples_per_sec")), (QList<QPointF>{{2, 5000}}));
        QVERIFY(!run.hasMetric(QStringLiteral("samples")));  // only the eval's, renamed
        QVERIFY(!run.hasMetric(QStringLiteral("epoch_epoch")));
    }

    void theQuestionsPeopleAskOfARun()
    {
        RunData run;
        run.appendEvents(toyStream());
        QCOMPARE(RunData::epochMetric(QStringLiteral("loss")), QStringLiteral("epoch_loss"));
        QCOMPARE(run.epochSeries(QStringLiteral("loss")).size(), 1);
        QCOMPARE(run.lastValue(QStringLiteral("loss")), 1.0);  // step 3's
        QVERIFY(std::isnan(run.lastValue(QStringLiteral("nothing"))));
        bool fromLastStep = true;
        QCOMPARE(run.lastEpochMean(QStringLiteral("loss"), &fromLastStep), 1.4);  // epoch 0's mean, not step 3's 1.0
        QVERIFY(!fromLastStep);
        // Without an epoch event the last step stands in, and says so.
        QCOMPARE(run.lastEpochMean(QStringLiteral("w_mean"), &fromLastStep), 0.97);
        QVERIFY(fromLastStep);
        QVERIFY(std::isnan(run.lastEpochMean(QStringLiteral("nothing"), &fromLastStep)));
        QVERIFY(!fromLastStep);
        // The first step meeting a target: step 3's loss 1.0 is the first at or below 1.2.
        QCOMPARE(run.firstStepMeeting(QStringLiteral("loss"), [](double loss) { return loss <= 1.2; }), std::optional<qint64>(3));
        QCOMPARE(run.firstStepMeeting(QStringLiteral("val_loss"), [](double loss) { return loss <= 1.3; }), std::optional<qint64>(2));
        QVERIFY(!run.firstStepMeeting(QStringLiteral("loss"), [](double loss) { return loss < 0.5; }));
    }

    void unknownEventTypesAreIgnored()
    {
        RunData run;
        run.appendEvents(toyStream());
        for (const QPointF& point : run.series(QStringLiteral("loss")))
            QVERIFY(point.y() != 99);
    }

    void configSummaryAndErrorAreKept()
    {
        RunData run;
        run.appendEvents(toyStream());
        QVERIFY(run.sawHello());
        QCOMPARE(run.config().value(QStringLiteral("effective_batch_size")).toInt(), 128);
        QVERIFY(!run.config().contains(QStringLiteral("type")));
        QCOMPARE(run.totalSteps(), 4);
        QCOMPARE(run.epochs(), 2);
        QVERIFY(!run.hasSummary());
        run.appendEvents({parseEvent(R"({"type":"error","message":"rank 1 failed","rank":1,"exit_code":4})")});
        QVERIFY(run.hasError());
        QCOMPARE(run.error().value(QStringLiteral("rank")).toInt(), 1);
    }

    void revisionMovesWithEveryAppend()
    {
        RunData run;
        const quint64 before = run.revision();
        run.appendEvents(toyStream());
        QVERIFY(run.revision() > before);
    }

    void effectiveConfigFallsBackToTheRequest()
    {
        RunData run;
        run.setRequestedConfig(QJsonObject{{QStringLiteral("world_size"), 2}});
        QCOMPARE(run.effectiveConfig().value(QStringLiteral("world_size")).toInt(), 2);
        run.appendEvents(toyStream());
        QCOMPARE(run.effectiveConfig().value(QStringLiteral("world_size")).toInt(), 8);
    }

    void comparisonListsFinalFigures()
    {
        auto first = QSharedPointer<RunData>::create();
        first->record().label = QStringLiteral("A");
        first->record().status = RunStatus::Finished;
        first->appendEvents(toyStream());
        first->appendEvents({parseEvent(R"({"type":"summary","steps":3,"loss":1.0,"w_mean":0.97,"update_var":6.5e-8,"samples_per_sec":4000})")});
        auto second = QSharedPointer<RunData>::create();
        second->record().label = QStringLiteral("B");
        second->record().status = RunStatus::Failed;
        second->appendEvents({parseEvent(R"({"type":"step","step":1,"loss":2.0})")});
        const Comparison comparison = compareRuns({first, second});
        QCOMPARE(comparison.runLabels, (QStringList{QStringLiteral("A"), QStringLiteral("B")}));
        QHash<QString, QStringList> rows;
        for (const ComparisonRow& row : comparison.rows)
            rows.insert(row.quantity, row.values);
        QCOMPARE(rows.value(QStringLiteral("status")), (QStringList{QStringLiteral("finished"), QStringLiteral("failed")}));
        QCOMPARE(rows.value(QStringLiteral("ranks × batch")), (QStringList{QStringLiteral("8 × 16"), QString()}));
        // The last epoch's mean, not the last mini-batch's; a run with no epoch ended says so.
        QCOMPARE(rows.value(QStringLiteral("loss, last epoch's mean")),
                 (QStringList{QStringLiteral("1.4"), QStringLiteral("2 (last step)")}));
        QCOMPARE(rows.value(QStringLiteral("w")).first(), QStringLiteral("0.97"));
        QCOMPARE(rows.value(QStringLiteral("update var")).first(), QStringLiteral("6.5e-08"));
        QCOMPARE(rows.value(QStringLiteral("val accuracy, last evaluation")), (QStringList{QStringLiteral("0.5"), QString()}));
        // An empty cell says why, where the settings tell.
        for (const ComparisonRow& row : comparison.rows) {
            if (row.quantity == QLatin1String("noise scale"))
                QCOMPARE(row.notes.first(), QString());
        }
        const QString text = comparisonText(comparison);
        QCOMPARE(text.count(QLatin1Char('\n')), 4);  // header, rule, one line per run
        QVERIFY(text.contains(QStringLiteral("finished")));
    }

    void comparisonSaysWhereARunDiverged()
    {
        auto run = QSharedPointer<RunData>::create();
        run->record().label = QStringLiteral("no warmup");
        run->record().status = RunStatus::Diverged;
        run->record().divergedAtStep = 28;
        run->appendEvents({parseEvent(R"({"type":"step","step":1,"loss":2.3})")});
        const Comparison comparison = compareRuns({run});
        QCOMPARE(comparison.rows.first().quantity, QStringLiteral("status"));
        QCOMPARE(comparison.rows.first().values, QStringList{QStringLiteral("diverged at step 28")});
        QVERIFY(comparisonText(comparison).contains(QStringLiteral("diverged at step 28")));
    }

    void comparisonSaysWhyAFigureIsMissing()
    {
        auto single = QSharedPointer<RunData>::create();
        single->appendEvents({parseEvent(R"({"type":"config","workload":"toy","world_size":1,"experiments":1})"),
                              parseEvent(R"({"type":"step","step":1,"loss":1.0,"w_mean":0.9})")});
        auto multi = QSharedPointer<RunData>::create();
        multi->appendEvents({parseEvent(R"({"type":"config","workload":"toy","world_size":4,"experiments":8})"),
                             parseEvent(R"({"type":"step","step":1,"loss":1.0,"noise_scale":3.0,"update_var":0.5})")});
        const Comparison comparison = compareRuns({single, multi});
        QHash<QString, QStringList> notes;
        for (const ComparisonRow& row : comparison.rows)
            notes.insert(row.quantity, row.notes);
        QCOMPARE(notes.value(QStringLiteral("noise scale")), (QStringList{QStringLiteral("noise scale needs 2 ranks or more"), QString()}));
    }

    void progressTellsStepEpochAndTimeLeft()
    {
        RunData run;
        run.appendEvents({parseEvent(R"({"type":"config","epochs":2,"total_steps":10})")});
        QCOMPARE(describeProgress(run, -1).text, QStringLiteral("first step…"));
        QList<QJsonObject> steps;
        for (int step = 1; step <= 5; ++step)
            steps.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                     {QStringLiteral("epoch"), step > 4 ? 1 : 0}});
        run.appendEvents(steps);
        // 4 intervals in 4 s: 1 s a step, 5 steps to go.
        const RunProgress progress = describeProgress(run, 4000);
        QCOMPARE(progress.percent, 50);
        QCOMPARE(progress.text, QStringLiteral("step 5 / 10 · epoch 2 / 2 · 0:05 left"));
        QCOMPARE(formatDuration(3725), QStringLiteral("1:02:05"));
    }

    void xAxesOfARecordedRun()
    {
        // A run of 3 steps per epoch: samples seen is the running sum of `samples` (all
        // ranks), the epoch is step / steps_per_epoch, wall time the engine's wall_s; an eval
        // lies where its step does.
        RunData run;
        run.appendEvents({
            parseEvent(R"({"type":"config","steps_per_epoch":3,"total_steps":6,"effective_batch_size":32})"),
            parseEvent(R"({"type":"step","step":1,"epoch":0,"loss":3.0,"samples":32,"wall_s":0.5})"),
            parseEvent(R"({"type":"step","step":2,"epoch":0,"loss":2.0,"samples":32,"wall_s":1.25})"),
            parseEvent(R"({"type":"step","step":3,"epoch":0,"loss":1.5,"samples":16,"wall_s":2.0})"),
            parseEvent(R"({"type":"eval","step":3,"epoch":0,"val_loss":1.75})"),
            parseEvent(R"({"type":"step","step":4,"epoch":1,"loss":1.0,"samples":32,"wall_s":4.0})"),
        });
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::Step), (QList<QPointF>{{1, 3.0}, {2, 2.0}, {3, 1.5}, {4, 1.0}}));
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::SamplesSeen),
                 (QList<QPointF>{{32, 3.0}, {64, 2.0}, {80, 1.5}, {112, 1.0}}));
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::Epoch),
                 (QList<QPointF>{{1.0 / 3, 3.0}, {2.0 / 3, 2.0}, {1.0, 1.5}, {4.0 / 3, 1.0}}));
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::WallTime), (QList<QPointF>{{0.5, 3.0}, {1.25, 2.0}, {2.0, 1.5}, {4.0, 1.0}}));
        QCOMPARE(run.series(QStringLiteral("val_loss"), XAxis::SamplesSeen), (QList<QPointF>{{80, 1.75}}));
        QVERIFY(!run.hasMetric(QStringLiteral("wall_s")));  // an axis, not a figure
        // Converted once and kept up to date as points arrive.
        run.appendEvents({parseEvent(R"({"type":"step","step":5,"epoch":1,"loss":0.5,"samples":32,"wall_s":5.0})")});
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::SamplesSeen).last(), QPointF(144, 0.5));
        QCOMPARE(run.plannedExtent(XAxis::Step), 6.0);
        QCOMPARE(run.plannedExtent(XAxis::Epoch), 2.0);
        QCOMPARE(run.plannedExtent(XAxis::SamplesSeen), 6.0 * 32);
    }

    // A batch that grows takes fewer steps an epoch as it goes: its epochs are counted in samples
    // (2 ranks x 16 a rank = 32 an epoch), and the steps after which it grew are kept.
    void aGrowingBatchCountsItsEpochsInSamples()
    {
        RunData run;
        run.appendEvents({
            parseEvent(R"({"type":"config","steps_per_epoch":4,"total_steps":8,"planned_steps":5,"epochs":2,"samples_per_rank":16,"world_size":2,"batch_schedule":"smith"})"),
            parseEvent(R"({"type":"step","step":1,"epoch":0,"loss":3.0,"samples":8,"effective_batch":8})"),
            parseEvent(R"({"type":"step","step":2,"epoch":0,"loss":2.0,"samples":8,"effective_batch":8})"),
            parseEvent(R"({"type":"batch_changed","step":2,"previous_effective_batch":8,"effective_batch":16})"),
            parseEvent(R"({"type":"step","step":3,"epoch":0,"loss":1.5,"samples":16,"effective_batch":16})"),
            parseEvent(R"({"type":"step","step":4,"epoch":1,"loss":1.0,"samples":16,"effective_batch":16})"),
        });
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::Epoch), (QList<QPointF>{{0.25, 3.0}, {0.5, 2.0}, {1.0, 1.5}, {1.5, 1.0}}));
        QCOMPARE(run.batchChanges(), (QList<RunData::BatchChange>{{2, 16}}));
        QCOMPARE(run.series(QStringLiteral("effective_batch")), (QList<QPointF>{{1, 8}, {2, 8}, {3, 16}, {4, 16}}));
        // The Step axis and the progress go to the steps the growing batch takes, not the
        // starting batch's 8; the epochs stay 2.
        QCOMPARE(run.plannedExtent(XAxis::Step), 5.0);
        QCOMPARE(run.plannedExtent(XAxis::Epoch), 2.0);
        QCOMPARE(describeProgress(run, -1).text, QStringLiteral("step 4 / 5 · epoch 2 / 2"));

        // Compared with others, where it started and where it ended.
        auto shared = QSharedPointer<RunData>::create();
        shared->appendEvents({parseEvent(R"({"type":"config","effective_batch_size":8,"batch_schedule":"smith"})"),
                              parseEvent(R"({"type":"step","step":1,"loss":3.0,"samples":8,"effective_batch":8})"),
                              parseEvent(R"({"type":"batch_changed","step":1,"previous_effective_batch":8,"effective_batch":16})"),
                              parseEvent(R"({"type":"step","step":2,"loss":2.0,"samples":16,"effective_batch":16})")});
        const Comparison comparison = compareRuns({shared});
        const auto row = std::find_if(comparison.rows.begin(), comparison.rows.end(),
                                      [](const ComparisonRow& r) { return r.quantity == QStringLiteral("effective batch"); });
        QVERIFY(row != comparison.rows.end());
        QCOMPARE(row->values, QStringList{QStringLiteral("8 → 16")});
    }

    void wallTimeOfOlderStreamsComesFromTheSteps()
    {
        RunData run;
        run.appendEvents({parseEvent(R"({"type":"step","step":1,"loss":1,"step_ms":250})"),
                          parseEvent(R"({"type":"step","step":2,"loss":1,"step_ms":750})")});
        QCOMPARE(run.series(QStringLiteral("loss"), XAxis::WallTime), (QList<QPointF>{{0.25, 1.0}, {1.0, 1.0}}));
    }

    void aLossThatStopsBeingANumberOrBlowsUpIsADivergence_data()
    {
        QTest::addColumn<QList<double>>("losses");  // NaN: the engine wrote null
        QTest::addColumn<qint64>("divergedAt");      // -1: it did not diverge
        QTest::addColumn<QString>("said");
        const double nan = std::nan("");
        QTest::newRow("healthy, falling") << QList<double>{2.3, 2.1, 1.7, 1.2, 0.6, 0.4} << qint64(-1) << QString();
        // A noisy run that swings tenfold is no blow-up.
        QTest::newRow("noisy") << QList<double>{0.15, 0.4, 0.9, 0.05, 2.5, 4.0, 0.2} << qint64(-1) << QString();
        QTest::newRow("NaN") << QList<double>{2.3, 2.0, nan, nan} << qint64(3) << QStringLiteral("the loss became NaN at step 3");
        QTest::newRow("NaN at once") << QList<double>{nan} << qint64(1) << QStringLiteral("the loss became NaN at step 1");
        // Thirty times the largest of the first three losses (2.3): 69.
        QTest::newRow("blow-up") << QList<double>{2.3, 2.0, 1.6, 12.6, 68.0, 71.2, 2.4} << qint64(6)
                                 << QStringLiteral("the loss grew from 2.3 to 71.2 at step 6");
        QTest::newRow("3e27") << QList<double>{2.3, 1.9, 1.8, 3e27} << qint64(4) << QStringLiteral("the loss grew from 2.3 to 3e+27 at step 4");
    }

    void aLossThatStopsBeingANumberOrBlowsUpIsADivergence()
    {
        QFETCH(QList<double>, losses);
        QFETCH(qint64, divergedAt);
        QFETCH(QString, said);
        RunData run;
        QList<QJsonObject> events;
        for (qsizetype i = 0; i < losses.size(); ++i) {
            const QJsonValue loss = std::isnan(losses[i]) ? QJsonValue(QJsonValue::Null) : QJsonValue(losses[i]);
            events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), i + 1},
                                      {QStringLiteral("loss"), loss}});
        }
        run.appendEvents(events);
        QCOMPARE(run.divergence().has_value(), divergedAt >= 0);
        if (divergedAt >= 0) {
            QCOMPARE(run.divergence()->step, divergedAt);
            QCOMPARE(run.divergence()->describe(), said);
        }
    }

    void valuesThatCannotBeRightAreSkippedAndCounted()
    {
        RunData run;
        run.appendEvents({
            parseEvent(R"({"type":"step","step":1,"loss":1.0})"),
            parseEvent(R"({"type":"step","step":-3,"loss":0.5})"),
            parseEvent(R"({"type":"step","step":2.5,"loss":0.5})"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 2},
                        {QStringLiteral("loss"), std::numeric_limits<double>::infinity()}},
            parseEvent(R"({"type":"step","step":1,"loss":0.25})"),
            parseEvent(R"({"type":"eval","step":-1,"val_loss":0.5})"),
            parseEvent(R"({"type":"step","step":3,"loss":null})"),
        });
        QCOMPARE(run.steps(), (QList<qint64>{1, 2, 3}));
        QCOMPARE(run.series(QStringLiteral("loss")), (QList<QPointF>{{1, 1.0}}));
        // A null is a diverged loss, not a wrong value; the rest are counted, the first named.
        QCOMPARE(run.skippedValueCount(), 5);
        QVERIFY2(run.firstSkippedValue().contains(QStringLiteral("step -3")), qPrintable(run.firstSkippedValue()));
        QVERIFY(!run.hasMetric(QStringLiteral("val_loss")));
    }

    void runsShownTogetherGetNamesThatTellThemApart()
    {
        const auto runWith = [](const char* name, const char* config) {
            RunRecord record;
            record.name = QString::fromUtf8(name);
            auto run = QSharedPointer<RunData>::create(record);
            run->setRequestedConfig(QJsonDocument::fromJson(QByteArray(config)).object());
            return run;
        };
        // Same name, different length: the name says which is which (it did not, in legends,
        // read-outs or CSV file names), in Setup's words for the settings.
        const auto short_ = runWith("fashion_mnist · 2×64 · lr 0.001 sqrt adam", R"({"epochs":1,"max_steps":0,"lr":0.001})");
        const auto long_ = runWith("fashion_mnist · 2×64 · lr 0.001 sqrt adam", R"({"epochs":3,"max_steps":200,"lr":0.001})");
        const auto other = runWith("toy · 1×128", R"({"epochs":1})");
        const auto twin = runWith("toy · 1×128", R"({"epochs":1})");
        const QStringList labels = distinguishingLabels({short_.data(), long_.data(), other.data(), twin.data()});
        QCOMPARE(labels.at(0), QStringLiteral("fashion_mnist · 2×64 · lr 0.001 sqrt adam · Epochs 1, Stop after (steps) 0"));
        QCOMPARE(labels.at(1), QStringLiteral("fashion_mnist · 2×64 · lr 0.001 sqrt adam · Epochs 3, Stop after (steps) 200"));
        QCOMPARE(labels.at(2), QStringLiteral("toy · 1×128 · #1"));
        QCOMPARE(labels.at(3), QStringLiteral("toy · 1×128 · #2"));
        QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), 4);
        // A run alone keeps its own name.
        QCOMPARE(distinguishingLabels({other.data()}), QStringList{QStringLiteral("toy · 1×128")});
    }
};

DDPLAB_UI_TEST_MAIN(TestRunData)
#include "tst_run_data.moc"
