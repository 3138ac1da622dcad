// SPDX-License-Identifier: GPL-3.0-or-later
// Study files and their plans: axes combine as a product or zipped, ranges log- or evenly
// spaced, repeats become successive seeds, the effective batch splits into ranks x batch by its
// rule, an axis with a condition makes runs only where it applies, a stopping target stops on
// the measure it is judged on, and every combination is checked with the engine's rules before
// anything runs. Bad input (not JSON, unknown fields and keys, empty axes, a combination the
// engine refuses, an axis that changes nothing, a condition on nothing) is refused with the
// file, the axis or the combination named.

#include "client/study/study_file.hpp"
#include "client/study/study_library.hpp"
#include "client/study/study_plan.hpp"
#include "support/test_data.hpp"
#include "ui_test_main.hpp"

#include <sys/stat.h>

#include <QJsonArray>
#include <QJsonDocument>

using namespace ddplab::ui;
using ddplab::test::jsonObject;

namespace {

StudySpec spec(const char* json)
{
    const StudyReadResult read = parseStudy(jsonObject(json), QStringLiteral("test.json"), QString());
    if (!read.spec)
        qWarning("%s", qPrintable(read.error));
    return read.spec.value_or(StudySpec());
}

QString error(const char* json)
{
    const StudyReadResult read = parseStudy(jsonObject(json), QStringLiteral("test.json"), QString());
    if (!read.spec)
        return read.error;
    return planStudy(*read.spec).error;
}

QList<double> numbers(const QList<QJsonValue>& values)
{
    QList<double> out;
    for (const QJsonValue& value : values)
        out.append(value.toDouble());
    return out;
}

}  // namespace

class TestStudyPlan : public QObject {
    Q_OBJECT

private slots:
    void rangesAreLogOrEvenlySpaced()
    {
        const StudySpec study = spec(R"({"axes": [
            {"key": "lr", "from": 0.001, "to": 0.1, "factor": 10},
            {"key": "noise", "from": 0.1, "to": 0.5, "step": 0.1},
            {"key": "momentum", "from": 0, "to": 0.9, "count": 4},
            {"key": "weight_decay", "from": 0.0001, "to": 0.01, "count": 3, "scale": "log"}]})");
        QCOMPARE(numbers(study.axes[0].values), (QList<double>{0.001, 0.01, 0.1}));
        QCOMPARE(numbers(study.axes[1].values), (QList<double>{0.1, 0.2, 0.3, 0.4, 0.5}));  // not 0.30000000000000004
        QCOMPARE(numbers(study.axes[2].values), (QList<double>{0, 0.3, 0.6, 0.9}));
        QCOMPARE(numbers(study.axes[3].values), (QList<double>{0.0001, 0.001, 0.01}));
    }

    void axesCombineAsAProductWithTheFirstOutermost()
    {
        const StudyPlan plan = planStudy(spec(R"({"base": {"optimizer": "sgd"}, "axes": [
            {"key": "lr", "values": [0.01, 0.1]},
            {"key": "lr_rule", "values": ["none", "linear", "sqrt"]}]})"));
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.points.size(), 6);
        QCOMPARE(plan.combinations, 6);
        QCOMPARE(plan.shape, QStringLiteral("2 × 3 combinations"));
        QCOMPARE(plan.points[0].config.value(QStringLiteral("lr")).toDouble(), 0.01);
        QCOMPARE(plan.points[0].config.value(QStringLiteral("lr_rule")).toString(), QStringLiteral("none"));
        QCOMPARE(plan.points[2].config.value(QStringLiteral("lr_rule")).toString(), QStringLiteral("sqrt"));
        QCOMPARE(plan.points[3].config.value(QStringLiteral("lr")).toDouble(), 0.1);
        QCOMPARE(plan.points[5].label(), QStringLiteral("lr 0.1 · lr_rule sqrt"));
        for (int i = 0; i < plan.points.size(); ++i)
            QCOMPARE(plan.points[i].index, i);
    }

    void zippedAxesAdvanceTogether()
    {
        const StudyPlan plan = planStudy(spec(R"({"axes": [
            {"key": "world_size", "values": [1, 2, 4, 8]},
            {"key": "lr_rule", "values": ["none", "linear", "linear"]},
            {"key": "warmup_epochs", "values": [0, 0, 1]}],
            "zip": [["lr_rule", "warmup_epochs"]]})"));
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.points.size(), 4 * 3);
        QCOMPARE(plan.shape, QStringLiteral("4 × 3 combinations"));
        QCOMPARE(plan.points[2].config.value(QStringLiteral("lr_rule")).toString(), QStringLiteral("linear"));
        QCOMPARE(plan.points[2].config.value(QStringLiteral("warmup_epochs")).toDouble(), 1.0);
        QCOMPARE(plan.points[1].config.value(QStringLiteral("warmup_epochs")).toDouble(), 0.0);
        QCOMPARE(plan.points[11].config.value(QStringLiteral("world_size")).toInt(), 8);
    }

    void repeatsRunEachPointWithTheNextSeeds()
    {
        const StudyPlan plan = planStudy(spec(R"({"base": {"seed": 7}, "repeats": 3,
            "axes": [{"key": "lr", "values": [0.01, 0.1]}]})"));
        QCOMPARE(plan.points.size(), 6);
        QCOMPARE(plan.shape, QStringLiteral("2 values × 3 repeats"));
        QList<qint64> seeds;
        for (const StudyPoint& point : plan.points)
            seeds.append(point.config.value(QStringLiteral("seed")).toInteger());
        QCOMPARE(seeds, (QList<qint64>{7, 8, 9, 7, 8, 9}));
        QCOMPARE(plan.points[1].repeat, 1);
        QCOMPARE(plan.points[1].label(), QStringLiteral("lr 0.01 · repeat 2"));
    }

    void aStoppingTargetStopsOnTheMeasureItIsJudgedOn_data()
    {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<QString>("readAs");
        QTest::addColumn<QString>("stopMeasure");
        QTest::newRow("training set") << QStringLiteral("linreg") << QStringLiteral("train_loss") << QStringLiteral("train_loss")
                                      << QStringLiteral("train_loss");
        // A file's "loss", from before the measure was a choice: the noise-free default.
        QTest::newRow("loss") << QStringLiteral("linreg") << QStringLiteral("loss") << QStringLiteral("train_loss") << QStringLiteral("train_loss");
        QTest::newRow("mini-batch, chosen") << QStringLiteral("linreg") << QStringLiteral("batch_loss") << QStringLiteral("batch_loss")
                                            << QStringLiteral("batch_loss");
        QTest::newRow("validation") << QStringLiteral("fashion_mnist") << QStringLiteral("val_loss") << QStringLiteral("val_loss")
                                    << QStringLiteral("val_loss");
    }
    void aStoppingTargetStopsOnTheMeasureItIsJudgedOn()
    {
        QFETCH(QString, workload);
        QFETCH(QString, metric);
        QFETCH(QString, readAs);
        QFETCH(QString, stopMeasure);
        const QByteArray json = QStringLiteral(R"({"base": {"workload": "%1"}, "axes": [{"key": "lr", "values": [0.1]}],
            "target": {"metric": "%2", "at_most": 0.02, "stop": true}})").arg(workload, metric).toUtf8();
        const StudySpec study = spec(json.constData());
        QCOMPARE(study.target.metric, readAs);
        QCOMPARE(study.toJson().value(QStringLiteral("target")).toObject().value(QStringLiteral("metric")).toString(), readAs);
        const StudyPlan plan = planStudy(study);
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.points[0].config.value(QStringLiteral("stop_at_loss")).toDouble(), 0.02);
        QCOMPARE(plan.points[0].config.value(QStringLiteral("stop_measure")).toString(), stopMeasure);
    }

    void conditionalAxesMakeRunsOnlyWhereTheyApply()
    {
        // Momentum only for SGD: 2 LRs x (3 momenta for sgd + 1 run for adam) = 8, not 12.
        const StudyPlan plan = planStudy(spec(R"({"base": {"workload": "linreg"}, "axes": [
            {"key": "optimizer", "values": ["sgd", "adam"]},
            {"key": "momentum", "values": [0, 0.5, 0.9], "when": {"optimizer": "sgd"}},
            {"key": "lr", "values": [0.1, 0.01]}]})"));
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.points.size(), 8);
        QCOMPARE(plan.combinations, 8);
        QCOMPARE(plan.shape, QStringLiteral("8 combinations of 2 × 3 × 2 (momentum only where optimizer is sgd)"));
        int adam = 0;
        for (const StudyPoint& point : plan.points) {
            const bool sgd = point.values.value(QStringLiteral("optimizer")).toString() == QStringLiteral("sgd");
            QCOMPARE(point.values.contains(QStringLiteral("momentum")), sgd);
            QCOMPARE(point.config.contains(QStringLiteral("momentum")), sgd);  // the base's (the engine's default) elsewhere
            adam += sgd ? 0 : 1;
        }
        QCOMPARE(adam, 2);
        QCOMPARE(plan.points[6].label(), QStringLiteral("lr 0.1 · optimizer adam"));

        // lr_power only for the power rule, and an axis whose condition names a left-out axis
        // is left out with it.
        const StudyPlan power = planStudy(spec(R"({"base": {"workload": "linreg", "optimizer": "sgd"}, "axes": [
            {"key": "lr_rule", "values": ["none", "power"]},
            {"key": "lr_power", "values": [0.25, 0.75], "when": {"lr_rule": ["power"]}},
            {"key": "base_batch_size", "values": [4, 8], "when": {"lr_power": 0.75}},
            {"key": "batch_size", "values": [16]}]})"));
        QVERIFY2(power.error.isEmpty(), qPrintable(power.error));
        QStringList labels;
        for (const StudyPoint& point : power.points)
            labels.append(point.label());
        QCOMPARE(labels, (QStringList{QStringLiteral("batch_size 16 · lr_rule none"),
                                      QStringLiteral("batch_size 16 · lr_power 0.25 · lr_rule power"),
                                      QStringLiteral("base_batch_size 4 · batch_size 16 · lr_power 0.75 · lr_rule power"),
                                      QStringLiteral("base_batch_size 8 · batch_size 16 · lr_power 0.75 · lr_rule power")}));
    }

    // The share of their steps a study's runs train before they stop at its target (measured
    // where it was written) survives study.json, which a resumed study is read from, and reaches
    // the plan the estimate is made from; a study that says none leaves it to this machine.
    void aTrainedShareSurvivesTheStudyFile()
    {
        const StudySpec study = spec(R"({"base": {"workload": "linreg"}, "axes": [{"key": "lr", "values": [1, 2]}],
            "target": {"metric": "train_loss", "at_most": 0.012, "stop": true, "trained_share": 0.19}})");
        QCOMPARE(study.target.trainedShare, 0.19);
        QCOMPARE(planStudy(study).trainedShare, 0.19);
        const StudyReadResult again = parseStudy(study.toJson(), QStringLiteral("again"), QString());
        QVERIFY2(again.spec, qPrintable(again.error));
        QCOMPARE(again.spec->target.trainedShare, 0.19);
        QCOMPARE(again.spec->toJson(), study.toJson());
        const StudySpec unsaid = spec(R"({"base": {"workload": "linreg"}, "axes": [{"key": "lr", "values": [1, 2]}],
            "target": {"metric": "train_loss", "at_most": 0.012, "stop": true}})");
        QCOMPARE(planStudy(unsaid).trainedShare, 0.0);
        QVERIFY(!unsaid.toJson().value(QStringLiteral("target")).toObject().contains(QStringLiteral("trained_share")));
    }

    void aConditionSurvivesTheStudyFile()
    {
        const StudySpec study = spec(R"({"base": {"workload": "linreg"}, "repeats": 2, "axes": [
            {"key": "world_size", "values": [1, 2]},
            {"key": "optimizer", "values": ["sgd", "adam"], "when": {"world_size": 2.0}}],
            "show": {"figure": "val_loss", "summarise": "best", "x": "lr_effective", "curves": "train_loss", "best": "world_size"}})");
        QCOMPARE(study.axes[1].when.size(), 1);
        const StudyReadResult again = parseStudy(study.toJson(), QStringLiteral("again"), QString());
        QVERIFY2(again.spec, qPrintable(again.error));
        QCOMPARE(again.spec->toJson(), study.toJson());
        QCOMPARE(again.spec->figureSummary, FigureSummary::Best);
        QCOMPARE(again.spec->x, QStringLiteral("lr_effective"));
        QCOMPARE(again.spec->curves, QStringLiteral("train_loss"));
        QCOMPARE(again.spec->best, QStringLiteral("world_size"));
        // 2.0 in the condition is the axis's whole number 2: 1 + 2 combinations, 2 repeats each.
        QCOMPARE(planStudy(*again.spec).points.size(), 6);
    }

    void theEffectiveBatchSplitsByItsRule_data()
    {
        QTest::addColumn<QString>("split");
        QTest::addColumn<QList<qint64>>("ranks");
        QTest::addColumn<QList<qint64>>("batches");
        // Batches 16, 64, 256, 1024 over a base of 4 ranks x 16.
        QTest::newRow("ranks first, up to 8") << QStringLiteral("\"split\": \"ranks_first\", \"max_ranks\": 8")
                                              << QList<qint64>{1, 4, 8, 8} << QList<qint64>{16, 16, 32, 128};
        QTest::newRow("batch first, up to 128") << QStringLiteral("\"split\": \"batch_first\", \"max_batch\": 128")
                                                << QList<qint64>{1, 1, 2, 8} << QList<qint64>{16, 64, 128, 128};
        QTest::newRow("fixed ranks") << QStringLiteral("\"split\": \"fixed_ranks\"") << QList<qint64>{4, 4, 4, 4}
                                     << QList<qint64>{4, 16, 64, 256};
    }
    void theEffectiveBatchSplitsByItsRule()
    {
        QFETCH(QString, split);
        QFETCH(QList<qint64>, ranks);
        QFETCH(QList<qint64>, batches);
        const QByteArray json = QStringLiteral(R"({"base": {"world_size": 4, "batch_size": 16, "num_examples": 4096},
            "axes": [{"key": "effective_batch", "values": [16, 64, 256, 1024], %1}]})").arg(split).toUtf8();
        const StudyPlan plan = planStudy(spec(json.constData()));
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        for (int i = 0; i < 4; ++i) {
            QCOMPARE(plan.points[i].config.value(QStringLiteral("world_size")).toInteger(), ranks[i]);
            QCOMPARE(plan.points[i].config.value(QStringLiteral("batch_size")).toInteger(), batches[i]);
        }
    }

    void theAccumulationIsKeptWhenSplitting()
    {
        const StudyPlan plan = planStudy(spec(R"({"base": {"grad_accum": 2, "batch_size": 8, "num_examples": 4096},
            "axes": [{"key": "effective_batch", "values": [64], "max_ranks": 16}]})"));
        QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
        QCOMPARE(plan.points[0].config.value(QStringLiteral("world_size")).toInteger(), 4);  // 4 x 8 x 2
        QCOMPARE(plan.points[0].config.value(QStringLiteral("batch_size")).toInteger(), 8);
    }

    void badStudiesAreRefusedNamingWhatIsWrong_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown field") << QStringLiteral(R"({"axis": []})") << QStringLiteral("test.json: unknown field \"axis\"");
        QTest::newRow("no axes") << QStringLiteral(R"({"axes": []})") << QStringLiteral("\"axes\" must be a list of one axis or more");
        QTest::newRow("empty axis") << QStringLiteral(R"({"axes": [{"key": "lr", "values": []}]})")
                                    << QStringLiteral("axis 1 (\"lr\") has no values");
        QTest::newRow("unknown key") << QStringLiteral(R"({"axes": [{"key": "learning_rate", "values": [1]}]})")
                                     << QStringLiteral("\"learning_rate\" is no config key");
        QTest::newRow("misspelt key") << QStringLiteral(R"({"axes": [{"key": "batch_sise", "values": [1]}]})")
                                      << QStringLiteral("did you mean \"batch_size\"?");
        // It said: "events" is no config key; did you mean "events"?
        QTest::newRow("a key the lab sets") << QStringLiteral(R"({"axes": [{"key": "events", "values": ["a", "b"]}]})")
                                            << QStringLiteral("axis 1: \"events\" is set by the lab for every run, not by a study");
        QTest::newRow("a key the lab sets, in base") << QStringLiteral(R"({"base": {"events": "x"}, "axes": [{"key": "lr", "values": [1]}]})")
                                                     << QStringLiteral("\"base\": \"events\" is set by the lab for every run");
        QTest::newRow("no typo of a key the lab sets") << QStringLiteral(R"({"axes": [{"key": "event", "values": [1]}]})")
                                                       << QStringLiteral("axis 1: \"event\" is no config key (docs");
        // Every run met a loss target "at least 0.5" at its first step.
        QTest::newRow("at_least on a loss") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "target": {"metric": "loss", "at_least": 0.5}})")
                                            << QStringLiteral("target: \"loss\" is a loss, so its target is \"at_most\", not \"at_least\"");
        QTest::newRow("at_most on an accuracy")
            << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "target": {"metric": "val_accuracy", "at_most": 0.9}})")
            << QStringLiteral("\"val_accuracy\" is an accuracy, so its target is \"at_least\"");
        QTest::newRow("a figure no chart has") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "show": {"figure": "bogus"}})")
                                               << QStringLiteral("show: \"figure\": \"bogus\" is not a figure a study charts (one of loss, accuracy");
        QTest::newRow("half a range") << QStringLiteral(R"({"axes": [{"key": "lr", "from": 0.1, "to": 1}]})")
                                      << QStringLiteral("a range needs exactly one of \"factor\"");
        QTest::newRow("backward range") << QStringLiteral(R"({"axes": [{"key": "lr", "from": 1, "to": 0.1, "factor": 2}]})")
                                        << QStringLiteral("\"to\" (0.1) is below \"from\" (1)");
        QTest::newRow("not whole") << QStringLiteral(R"({"axes": [{"key": "batch_size", "values": [16, 22.5]}]})")
                                   << QStringLiteral("axis 1 (\"batch_size\"): 22.5 is not a whole number");
        QTest::newRow("twice") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}, {"key": "lr", "values": [2]}]})")
                               << QStringLiteral("\"lr\" is an axis twice");
        QTest::newRow("batch and its split") << QStringLiteral(R"({"axes": [{"key": "effective_batch", "values": [64]}, {"key": "batch_size", "values": [8]}]})")
                                             << QStringLiteral("\"effective_batch\" sets world_size and batch_size itself");
        QTest::newRow("zip of unequal") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1, 2]}, {"key": "seed", "values": [1]}], "zip": [["lr", "seed"]]})")
                                        << QStringLiteral("\"lr\" has 2 values and \"seed\" 1");
        QTest::newRow("bad target") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "target": {"metric": "loss"}})")
                                    << QStringLiteral("give one of \"at_most\" (a loss) or \"at_least\" (an accuracy)");
        QTest::newRow("unknown preset") << QStringLiteral(R"({"preset": "seed999", "axes": [{"key": "lr", "values": [1]}]})")
                                        << QStringLiteral("there is no built-in preset \"seed999\"");
        QTest::newRow("refused combination") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [0.1, -1]}, {"key": "lr_rule", "values": ["none", "sqrt"]}]})")
                                             << QStringLiteral("run 3 (lr -1 · lr_rule none): lr must be");
        QTest::newRow("a batch that does not split") << QStringLiteral(R"({"base": {"world_size": 4}, "axes": [{"key": "effective_batch", "values": [64, 66], "split": "fixed_ranks"}]})")
                                                     << QStringLiteral("run 2 (effective_batch 66): effective batch 66 does not split evenly over 4 ranks");
        QTest::newRow("an axis that changes nothing") << QStringLiteral(R"({"base": {"workload": "toy"}, "axes": [{"key": "dim", "values": [4, 8]}]})")
                                                      << QStringLiteral("the axis \"dim\" changes nothing with these settings (workload toy");
        QTest::newRow("a condition on itself") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1], "when": {"lr": 1}}]})")
                                               << QStringLiteral("axis \"lr\": \"when\": \"lr\" is not another axis of the study");
        QTest::newRow("a condition on no axis") << QStringLiteral(R"({"axes": [{"key": "momentum", "values": [0.9], "when": {"optimizer": "sgd"}}]})")
                                                << QStringLiteral("\"optimizer\" is not another axis of the study");
        QTest::newRow("a value the axis lacks") << QStringLiteral(R"({"axes": [{"key": "optimizer", "values": ["sgd", "adam"]},
                                                     {"key": "momentum", "values": [0.9], "when": {"optimizer": "lamb"}}]})")
                                                << QStringLiteral("the axis \"optimizer\" has no value \"lamb\"");
        QTest::newRow("a condition of no values") << QStringLiteral(R"({"axes": [{"key": "optimizer", "values": ["sgd"]},
                                                       {"key": "momentum", "values": [0.9], "when": {"optimizer": []}}]})")
                                                  << QStringLiteral("lists no values, so the axis would apply nowhere");
        QTest::newRow("a zipped condition") << QStringLiteral(R"({"axes": [{"key": "optimizer", "values": ["sgd", "adam"]},
                                                 {"key": "momentum", "values": [0, 0.9], "when": {"optimizer": "sgd"}}, {"key": "lr", "values": [1, 2]}],
                                                 "zip": [["momentum", "lr"]]})")
                                            << QStringLiteral("a zipped axis cannot have a condition of its own");
        QTest::newRow("a target on an unknown measure") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "target": {"metric": "test_loss", "at_most": 1}})")
                                                        << QStringLiteral("\"metric\" must be one of train_loss, train_accuracy, val_loss");
        QTest::newRow("stop on an accuracy") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "target": {"metric": "train_accuracy", "at_least": 0.5, "stop": true}})")
                                             << QStringLiteral("\"stop\" works only with a loss (train_loss, val_loss or batch_loss)");
        QTest::newRow("stop on a validation loss without one") << QStringLiteral(R"({"base": {"workload": "linreg"}, "axes": [{"key": "lr", "values": [1]}], "target": {"metric": "val_loss", "at_most": 0.1, "stop": true}})")
                                                               << QStringLiteral("stop_measure");
        QTest::newRow("a trained share without a stop") << QStringLiteral(R"({"base": {"workload": "linreg"}, "axes": [{"key": "lr", "values": [1]}], "target": {"metric": "train_loss", "at_most": 0.1, "trained_share": 0.2}})")
                                                        << QStringLiteral("\"trained_share\" says how much of their steps runs that stop at the target train; it needs \"stop\": true");
        QTest::newRow("a trained share above 1") << QStringLiteral(R"({"base": {"workload": "linreg"}, "axes": [{"key": "lr", "values": [1]}], "target": {"metric": "train_loss", "at_most": 0.1, "stop": true, "trained_share": 1.5}})")
                                                 << QStringLiteral("\"trained_share\" must be above 0 and at most 1");
        QTest::newRow("a summary of no kind") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "show": {"summarise": "median"}})")
                                              << QStringLiteral("\"summarise\" must be one of last_epoch_mean, last, best");
        QTest::newRow("an x of nothing") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "show": {"x": "tau"}})")
                                         << QStringLiteral("\"x\": \"tau\" is neither an axis of the study nor one of effective_batch, weight_decay_timescale_epochs");
        QTest::newRow("curves of a whole-run figure") << QStringLiteral(R"({"axes": [{"key": "lr", "values": [1]}], "show": {"curves": "wall_s"}})")
                                                      << QStringLiteral("\"curves\" must be one of train_loss");
        QTest::newRow("best of words") << QStringLiteral(R"({"axes": [{"key": "lr_rule", "values": ["none", "linear"]}], "show": {"best": "lr_rule"}})")
                                       << QStringLiteral("\"best\": \"lr_rule\" is not an axis of numbers of the study");
        QTest::newRow("too many runs") << QStringLiteral(R"({"repeats": 100, "axes": [{"key": "lr", "from": 1e-6, "to": 1, "count": 200, "scale": "log"}]})")
                                       << QStringLiteral("would make more than 10000 runs");
    }
    void badStudiesAreRefusedNamingWhatIsWrong()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const QString message = error(json.toUtf8().constData());
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void aStudyFileThatIsNotJsonSaysWhere()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("broken.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"axes\": [");
        file.close();
        const StudyReadResult read = readStudyFile(file.fileName());
        QVERIFY(!read.spec);
        QVERIFY2(read.error.startsWith(file.fileName() + QStringLiteral(" is not valid JSON: parse error at line 1, column 11")),
                 qPrintable(read.error));
        QVERIFY(resolveStudy(QStringLiteral("no-such-study"), StudyLibrary::load()).error.contains(QStringLiteral("seed000-variance-curve")));
    }

    void aStudyFileIsReadWithTheEnginesLimits_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("2 GiB") << QByteArray("sparse") << QStringLiteral("is 2147483648 bytes; at most 1048576");
        QTest::newRow("a FIFO") << QByteArray("fifo") << QStringLiteral("is a named pipe (FIFO)");
        QTest::newRow("a link to /dev/zero") << QByteArray("zero") << QStringLiteral("is a device");
        QTest::newRow("a key twice") << QByteArray(R"({"axes": [{"key": "lr", "values": [1], "values": [2]}]})")
                                     << QStringLiteral("key \"values\" appears twice in");
        QTest::newRow("a key twice in base") << QByteArray(R"({"base": {"lr": 1, "lr": 2}, "axes": [{"key": "seed", "values": [1]}]})")
                                             << QStringLiteral("key \"lr\" appears twice in");
    }

    void aStudyFileIsReadWithTheEnginesLimits()
    {
        QFETCH(QByteArray, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("study.json"));
        if (kind == "fifo") {
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (kind == "zero") {
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        } else {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            if (kind == "sparse")
                QVERIFY(file.resize(qint64(2) << 30));
            else
                file.write(kind);
        }
        const StudyReadResult read = readStudyFile(path);
        QVERIFY(!read.spec);
        // Named by its path (where the engine's own words put it: "... appears twice in <path>; ...").
        QVERIFY2(read.error.contains(path) && read.error.contains(expected), qPrintable(read.error));
    }

    void everyBuiltInStudyPlansWithoutProblems()
    {
        const StudyLibrary library = StudyLibrary::load();
        QVERIFY2(library.problems().isEmpty(), qPrintable(library.problems().join(QLatin1Char('\n'))));
        QVERIFY(library.studies().size() >= 1);
        for (const StudySpec& study : library.studies()) {
            QVERIFY2(!study.title.isEmpty() && !study.lookFor.isEmpty() && !study.explanationMarkdown.isEmpty(), qPrintable(study.id));
            const StudyPlan plan = planStudy(study);
            QVERIFY2(plan.error.isEmpty(), qPrintable(plan.error));
            QVERIFY2(plan.points.size() <= studyLimits::kConfirmAbove, qPrintable(study.id));
        }
        const StudyPlan curve = planStudy(*library.find(QStringLiteral("seed000-variance-curve")));
        QCOMPARE(curve.points.size(), 7 * 3);
        // 16 = 1 x 16 ... 256 = 16 x 16, then 16 ranks with larger batches.
        QCOMPARE(curve.points[0].config.value(QStringLiteral("world_size")).toInteger(), 1);
        QCOMPARE(curve.points[4 * 3].config.value(QStringLiteral("world_size")).toInteger(), 16);
        QCOMPARE(curve.points[6 * 3].config.value(QStringLiteral("batch_size")).toInteger(), 64);
    }

    void aPlanSurvivesTheStudyFolder()
    {
        const StudyPlan plan = planStudy(spec(R"({"repeats": 2, "axes": [{"key": "lr", "values": [0.01, 0.1]}]})"));
        QString problem;
        const QList<StudyPoint> back = planFromJson(planToJson(plan.points), &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(back.size(), plan.points.size());
        for (int i = 0; i < back.size(); ++i) {
            QCOMPARE(back[i].config, plan.points[i].config);
            QCOMPARE(back[i].values, plan.points[i].values);
            QCOMPARE(back[i].repeat, plan.points[i].repeat);
        }
    }
};

DDPLAB_UI_TEST_MAIN(TestStudyPlan)
#include "tst_study_plan.moc"
