// Events become chart series: step fields by name, eval and epoch fields prefixed, non-finite
// values dropped on arrival; the comparison table and progress text are read from them.

#include "client/run_comparison.hpp"
#include "client/run_data.hpp"
#include "client/run_progress.hpp"
#include "ui_test_main.hpp"

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
        QCOMPARE(rows.value(QStringLiteral("loss")), (QStringList{QStringLiteral("1"), QStringLiteral("2")}));
        QCOMPARE(rows.value(QStringLiteral("w")).first(), QStringLiteral("0.97"));
        QCOMPARE(rows.value(QStringLiteral("update var")).first(), QStringLiteral("6.5e-08"));
        QCOMPARE(rows.value(QStringLiteral("val accuracy")), (QStringList{QStringLiteral("0.5"), QString()}));
        const QString text = comparisonText(comparison);
        QCOMPARE(text.count(QLatin1Char('\n')), 4);  // header, rule, one line per run
        QVERIFY(text.contains(QStringLiteral("finished")));
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
};

DDPLAB_UI_TEST_MAIN(TestRunData)
#include "tst_run_data.moc"
