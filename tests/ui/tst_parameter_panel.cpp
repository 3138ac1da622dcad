// SPDX-License-Identifier: GPL-3.0-or-later
// The parameter panel shows every engine key, checks each edit with the engine's own rules
// and marks the problem at its field, shows an optimizer's hyperparameters only when they
// matter, bounds the ranks by the machine, and produces presets the real engine runs.

#include "client/engine/device_inventory.hpp"
#include "client/library/preset_file.hpp"
#include "core/config_keys.hpp"
#include "setup/parameter_panel.hpp"
#include "ui_test_main.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QWheelEvent>

using namespace ddplab::ui;

namespace {

DeviceInventory cpuOnlyMachine()
{
    return DeviceInventory::fromJson(QJsonDocument::fromJson(R"({"engine_version":"0.1.0","torch_version":"1.13.0",
        "cpu_cores":2,"cuda_device_count":0,"cuda_devices":[],"max_local_ranks":128})").object());
}

DeviceInventory twoGpuMachine()
{
    return DeviceInventory::fromJson(QJsonDocument::fromJson(R"({"engine_version":"0.1.0","torch_version":"2.1",
        "cpu_cores":32,"cuda_device_count":2,"cuda_devices":[{"index":0,"name":"H100"},{"index":1,"name":"H100"}],
        "max_local_ranks":128})").object());
}

}  // namespace

class TestParameterPanel : public QObject {
    Q_OBJECT

private slots:
    void everyEngineKeyHasAFieldButEvents()
    {
        ParameterPanel panel;
        for (const ddplab::ConfigKey& key : ddplab::configKeys()) {
            const QString name = QString::fromStdString(key.name);
            if (name == QLatin1String("events"))
                QVERIFY(!panel.editor(name));
            else
                QVERIFY2(panel.editor(name), qPrintable(name));
        }
        QVERIFY(qobject_cast<QSpinBox*>(panel.editor(QStringLiteral("world_size"))));
        QVERIFY(qobject_cast<QComboBox*>(panel.editor(QStringLiteral("lr_rule"))));
        QVERIFY(qobject_cast<QCheckBox*>(panel.editor(QStringLiteral("drop_last"))));
        QVERIFY(qobject_cast<QLineEdit*>(panel.editor(QStringLiteral("lr"))));
    }

    void startsFromTheEnginesDefaults()
    {
        ParameterPanel panel;
        QVERIFY(panel.isValid());
        QCOMPARE(panel.values(), presetFromCoreConfig(ddplab::Config{}));
    }

    void presetValuesAppearInTheFields()
    {
        ParameterPanel panel;
        const QStringList unknown = panel.setValues(QJsonDocument::fromJson(
            R"({"world_size": 8, "batch_size": 16, "lr": 0.001, "lr_rule": "sqrt", "shuffle": false, "base_batch_size": 16, "typo_key": 1})").object());
        QCOMPARE(unknown, QStringList{QStringLiteral("typo_key")});
        QCOMPARE(panel.fieldText(QStringLiteral("world_size")), QStringLiteral("8"));
        QCOMPARE(panel.fieldText(QStringLiteral("lr_rule")), QStringLiteral("sqrt"));
        QCOMPARE(panel.fieldText(QStringLiteral("shuffle")), QStringLiteral("false"));
        QCOMPARE(panel.fieldText(QStringLiteral("base_batch_size")), QStringLiteral("16"));
        QCOMPARE(panel.config().worldSize, 8);
        QCOMPARE(panel.config().lrRule, ddplab::LrRule::Sqrt);
        QCOMPARE(panel.values().value(QStringLiteral("batch_size")).toInt(), 16);
    }

    void badValueIsMarkedAtItsFieldWithTheEnginesWords_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative lr") << QStringLiteral("lr") << QStringLiteral("-1") << QStringLiteral("lr must be a finite number > 0");
        QTest::newRow("lr not a number") << QStringLiteral("lr") << QStringLiteral("fast") << QStringLiteral("(got \"fast\")");
        QTest::newRow("zero batch") << QStringLiteral("batch_size") << QStringLiteral("0") << QStringLiteral("batch_size must be an integer from 1");
        QTest::newRow("momentum 1") << QStringLiteral("momentum") << QStringLiteral("1") << QStringLiteral("momentum must be");
        QTest::newRow("bad fail_at") << QStringLiteral("fail_at") << QStringLiteral("soon") << QStringLiteral("fail_at must be RANK:STEP");
    }
    void badValueIsMarkedAtItsFieldWithTheEnginesWords()
    {
        QFETCH(QString, key);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        ParameterPanel panel;
        QSignalSpy changed(&panel, &ParameterPanel::changed);
        panel.setFieldText(key, text);
        QVERIFY(changed.count() >= 1);
        QVERIFY(!panel.isValid());
        QVERIFY2(panel.problems().value(key).contains(expected), qPrintable(panel.problems().value(key)));
        QCOMPARE(panel.problems().size(), 1);
        QVERIFY(panel.isFieldShown(key));
    }

    void combinationProblemIsMarkedAtTheKeyToChange()
    {
        ParameterPanel panel;
        panel.setFieldText(QStringLiteral("warmup_steps"), QStringLiteral("10"));
        QVERIFY(panel.isValid());
        panel.setFieldText(QStringLiteral("warmup_epochs"), QStringLiteral("1"));
        QVERIFY(!panel.isValid());
        QCOMPARE(panel.problems().keys(), QStringList{QStringLiteral("warmup_steps")});
        QVERIFY(panel.problems().value(QStringLiteral("warmup_steps")).contains(QStringLiteral("not both")));
        panel.setFieldText(QStringLiteral("warmup_epochs"), QStringLiteral("0"));
        QVERIFY(panel.isValid());
    }

    void onlyTheChosenOptimizersHyperparametersShow()
    {
        ParameterPanel panel;
        panel.show();
        const auto shown = [&](const char* key) { return panel.isFieldShown(QLatin1String(key)); };
        panel.setFieldText(QStringLiteral("optimizer"), QStringLiteral("sgd"));
        QVERIFY(shown("momentum") && shown("dampening") && shown("nesterov") && shown("weight_decay"));
        QVERIFY(!shown("beta1") && !shown("beta2") && !shown("eps") && !shown("trust_coefficient") && !shown("grad_averaging"));
        panel.setFieldText(QStringLiteral("optimizer"), QStringLiteral("adam"));
        QVERIFY(shown("beta1") && shown("beta2") && shown("eps") && shown("weight_decay"));
        QVERIFY(!shown("momentum") && !shown("nesterov") && !shown("trust_coefficient"));
        panel.setFieldText(QStringLiteral("optimizer"), QStringLiteral("lars"));
        QVERIFY(shown("momentum") && shown("trust_coefficient") && !shown("beta1") && !shown("nesterov"));
        panel.setFieldText(QStringLiteral("optimizer"), QStringLiteral("novograd"));
        QVERIFY(shown("grad_averaging") && shown("beta1") && !shown("weight_decay_rule"));
        // AdamW's weight-decay timescale rule, for AdamW alone.
        panel.setFieldText(QStringLiteral("optimizer"), QStringLiteral("adamw_bsi"));
        QVERIFY(shown("weight_decay_rule") && shown("beta2"));
    }

    void workloadScheduleAndRuleShowTheirOwnKeys()
    {
        ParameterPanel panel;
        const auto shown = [&](const char* key) { return panel.isFieldShown(QLatin1String(key)); };
        QVERIFY(shown("experiments") && shown("noise") && !shown("model") && !shown("train_subset") && !shown("dim"));
        panel.setFieldText(QStringLiteral("workload"), QStringLiteral("fashion_mnist"));
        QVERIFY(shown("model") && shown("train_subset") && shown("eval_every") && !shown("experiments"));
        QVERIFY(!shown("lr_power"));
        panel.setFieldText(QStringLiteral("lr_rule"), QStringLiteral("power"));
        QVERIFY(shown("lr_power"));
        // What a loss target is judged on matters once there is one.
        QVERIFY(!shown("stop_measure"));
        panel.setFieldText(QStringLiteral("stop_at_loss"), QStringLiteral("0.1"));
        QVERIFY(shown("stop_measure"));
        QVERIFY(!shown("min_lr") && !shown("gamma"));
        panel.setFieldText(QStringLiteral("schedule"), QStringLiteral("cosine"));
        QVERIFY(shown("min_lr") && !shown("gamma"));
        QVERIFY(!shown("warmup_start_factor"));
        panel.setFieldText(QStringLiteral("warmup_steps"), QStringLiteral("5"));
        QVERIFY(shown("warmup_start_factor"));
    }

    void aHiddenKeyWithAProblemStaysVisible()
    {
        ParameterPanel panel;
        panel.setFieldText(QStringLiteral("nesterov"), QStringLiteral("true"));  // momentum is 0
        panel.setFieldText(QStringLiteral("optimizer"), QStringLiteral("adam"));
        QVERIFY(panel.problems().contains(QStringLiteral("nesterov")));
        QVERIFY(panel.isFieldShown(QStringLiteral("nesterov")));
    }

    void runsAreCheckedAgainstTheEnginesMachine()
    {
        // Its cores and available memory, as the engine's devices report says: the same checks
        // the engine makes, at the field, before Run.
        ParameterPanel panel;
        panel.setDeviceInventory(DeviceInventory::fromJson(QJsonDocument::fromJson(
            R"({"engine_version":"0.1.0","cpu_cores":2,"memory_available_bytes":1073741824,"cuda_devices":[],
                "max_local_ranks":128})").object()));
        panel.setFieldText(QStringLiteral("threads"), QStringLiteral("3"));
        QVERIFY(panel.problems().value(QStringLiteral("threads")).contains(QStringLiteral("at most the 2 CPU cores")));
        panel.setFieldText(QStringLiteral("threads"), QStringLiteral("2"));
        panel.setFieldText(QStringLiteral("num_examples"), QStringLiteral("10000000"));
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("8"));
        const QString memory = panel.problems().value(QStringLiteral("num_examples"));
        QVERIFY2(memory.contains(QStringLiteral("8 ranks x")) && memory.contains(QStringLiteral("1 GiB available")), qPrintable(memory));
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("1"));
        QVERIFY2(panel.isValid(), qPrintable(panel.problems().values().join(QLatin1Char('\n'))));
    }

    void ranksAreBoundedByWhatTheMachineHas()
    {
        ParameterPanel panel;
        // One limit for CPU ranks, the engine's own: 40 ranks are as fine here as for the engine.
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("40"));
        QVERIFY(panel.isValid());
        panel.setDeviceInventory(cpuOnlyMachine());
        QVERIFY(panel.isValid());
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("16"));
        QVERIFY(panel.isValid());
        panel.setFieldText(QStringLiteral("device"), QStringLiteral("cuda"));
        QVERIFY(panel.problems().value(QStringLiteral("device")).contains(QStringLiteral("no CUDA device")));

        panel.setDeviceInventory(twoGpuMachine());
        QVERIFY(panel.problems().value(QStringLiteral("world_size")).contains(QStringLiteral("2 GPU(s)")));
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("2"));
        QVERIFY(panel.isValid());
        QVERIFY(twoGpuMachine().rankDescription().contains(QStringLiteral("2 GPUs")));
        QVERIFY(cpuOnlyMachine().rankDescription().contains(QStringLiteral("CPU processes over Gloo")));
    }

    void engineProblemShowsUntilTheFieldIsEdited()
    {
        ParameterPanel panel;
        panel.showEngineProblem(QStringLiteral("data_dir"), QStringLiteral("no Fashion-MNIST files in /nowhere"));
        QVERIFY(!panel.isValid());
        QCOMPARE(panel.problems().value(QStringLiteral("data_dir")), QStringLiteral("no Fashion-MNIST files in /nowhere"));
        panel.setFieldText(QStringLiteral("data_dir"), QStringLiteral("/elsewhere"));
        QVERIFY(panel.isValid());
    }

    void optionalKeysEmptyMeansUnset()
    {
        ParameterPanel panel;
        QCOMPARE(panel.fieldText(QStringLiteral("base_batch_size")), QString());
        QVERIFY(panel.values().value(QStringLiteral("base_batch_size")).isNull());
        panel.setFieldText(QStringLiteral("base_batch_size"), QStringLiteral("16"));
        QCOMPARE(panel.values().value(QStringLiteral("base_batch_size")).toInt(), 16);
    }

    // Scrolling the form with the wheel passes over combo and spin boxes: none of them may
    // change unless it was given the focus (a click, Tab).
    void theWheelScrollsTheFormAndChangesNoUnfocusedChooser()
    {
        ParameterPanel panel;
        panel.resize(300, 260);  // the form scrolls
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* scroll = panel.findChild<QScrollArea*>();
        QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
        const auto wheelDown = [](QWidget* widget) {
            const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
            QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                              Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(widget, &event);
        };
        for (const char* key : {"optimizer", "batch_size", "lr_rule"}) {
            QWidget* chooser = panel.editor(QLatin1String(key));
            const QString before = panel.fieldText(QLatin1String(key));
            const int scrolledBefore = scroll->verticalScrollBar()->value();
            QVERIFY(!chooser->hasFocus());
            wheelDown(chooser);
            QCOMPARE(panel.fieldText(QLatin1String(key)), before);
            QVERIFY2(scroll->verticalScrollBar()->value() > scrolledBefore || scrolledBefore == scroll->verticalScrollBar()->maximum(),
                     "the form did not scroll");
            scroll->verticalScrollBar()->setValue(0);
        }
        // Given the focus, the wheel is the chooser's: the events did reach it.
        QWidget* batch = panel.editor(QStringLiteral("batch_size"));
        batch->setFocus();
        QTRY_VERIFY(batch->hasFocus());
        const QString before = panel.fieldText(QStringLiteral("batch_size"));
        wheelDown(batch);
        QVERIFY(panel.fieldText(QStringLiteral("batch_size")) != before);
    }

    // A minus typed into Batch per GPU is not dropped (turning -1 into 1): the field keeps -1
    // and says what is allowed.
    void aNegativeNumberIsKeptAndRefusedInWords()
    {
        ParameterPanel panel;
        panel.show();
        auto* batch = qobject_cast<QSpinBox*>(panel.editor(QStringLiteral("batch_size")));
        batch->setFocus();
        batch->selectAll();
        QTest::keyClicks(batch, QStringLiteral("-1"));
        QCOMPARE(panel.fieldText(QStringLiteral("batch_size")), QStringLiteral("-1"));
        const QString problem = panel.problems().value(QStringLiteral("batch_size"));
        QVERIFY2(problem.contains(QStringLiteral("must be")) && problem.contains(QStringLiteral("-1")), qPrintable(problem));
        QVERIFY(!panel.isValid());
    }

    // Under a field, however many lines its message takes at the pane's width, all of them
    // show: the message is as tall as its wrapped text needs, and the next field is below it.
    void aMessageIsNeverClipped()
    {
        ParameterPanel panel;
        // The Setup pane on a 1280 x 720 screen: 318 pixels wide, the form scrolled.
        panel.resize(318, 260);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("0"));
        panel.setFieldText(QStringLiteral("batch_size"), QStringLiteral("-1"));
        panel.setFieldText(QStringLiteral("lr"), QStringLiteral("-1"));
        QTest::qWait(20);
        QCOMPARE(panel.problems().size(), 3);
        const QList<std::pair<QString, QString>> fieldAndNext{{QStringLiteral("GPUs (ranks)"), QStringLiteral("batch_size")},
                                                              {QStringLiteral("Batch per GPU"), QStringLiteral("lr")},
                                                              {QStringLiteral("Base LR"), QStringLiteral("lr_rule")}};
        for (const auto& [label, next] : fieldAndNext) {
            const QLabel* message = nullptr;
            for (const QLabel* candidate : panel.findChildren<QLabel*>()) {
                if (candidate->isVisible() && candidate->text().startsWith(label + QStringLiteral(" must be")))
                    message = candidate;
            }
            QVERIFY2(message, qPrintable(label));
            // Its lines really wrap at this width, and every one of them has room.
            QVERIFY(message->fontMetrics().horizontalAdvance(message->text()) > message->width());
            const int needed = message->heightForWidth(message->width());
            QVERIFY2(message->height() >= needed, qPrintable(QStringLiteral("\"%1\" is %2 px high, its text needs %3")
                                                                 .arg(message->text())
                                                                 .arg(message->height())
                                                                 .arg(needed)));
            const int bottom = message->mapTo(&panel, QPoint(0, message->height())).y();
            QVERIFY(panel.editor(next)->mapTo(&panel, QPoint(0, 0)).y() >= bottom);
        }
    }

    // The line that says how many settings stop Run stays in sight however far the form scrolls.
    void theSummaryStaysInSightWhileTheFormScrolls()
    {
        ParameterPanel panel;
        panel.resize(300, 300);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setFieldText(QStringLiteral("world_size"), QStringLiteral("0"));
        panel.setFieldText(QStringLiteral("lr"), QStringLiteral("-1"));
        auto* summary = panel.findChild<QLabel*>(QStringLiteral("settingsSummary"));
        QVERIFY(summary && summary->isVisible());
        QVERIFY(summary->text().startsWith(QStringLiteral("2 settings need attention")));
        auto* scroll = panel.findChild<QScrollArea*>();
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QTest::qWait(20);
        QVERIFY(!scroll->isAncestorOf(summary));
        QVERIFY(summary->isVisible());
        QVERIFY(summary->mapTo(&panel, QPoint(0, 0)).y() >= 0 && summary->geometry().bottom() <= scroll->geometry().top());
        QCOMPARE(panel.problemSentences().first().left(23), QStringLiteral("GPUs (ranks) must be an"));
    }

    // The fields that define the experiment (ranks, batch, LR, its rule, the optimizer) come
    // before the workload's.
    void theExperimentsFieldsComeFirst()
    {
        ParameterPanel panel;
        panel.resize(300, 2000);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const auto top = [&](const char* key) { return panel.editor(QLatin1String(key))->mapTo(&panel, QPoint(0, 0)).y(); };
        QVERIFY(top("world_size") < top("batch_size"));
        QVERIFY(top("batch_size") < top("lr"));
        QVERIFY(top("lr") < top("lr_rule"));
        QVERIFY(top("lr_rule") < top("optimizer"));
        QVERIFY(top("optimizer") < top("workload"));
    }

    void presetFromThePanelRunsInTheRealEngine()
    {
        ParameterPanel panel;
        panel.setValues(QJsonDocument::fromJson(R"({"world_size": 2, "batch_size": 16, "lr": 0.001, "lr_rule": "linear",
            "base_batch_size": 16, "noise": 1, "experiments": 4, "num_examples": 64, "warmup_steps": 1})").object());
        QVERIFY(panel.isValid());
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("preset.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(presetFileContents(panel.values()));
        file.close();
        const ddplab::test::EngineResult result = ddplab::test::runEngine({QStringLiteral("run"), QStringLiteral("--config"), path});
        QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
        const QJsonObject config = result.first(QStringLiteral("config"));
        QCOMPARE(config.value(QStringLiteral("world_size")).toInt(), 2);
        QCOMPARE(config.value(QStringLiteral("effective_batch_size")).toInt(), 32);
        QCOMPARE(config.value(QStringLiteral("lr_effective")).toDouble(), 0.002);
        QCOMPARE(config.value(QStringLiteral("warmup_steps")).toInt(), 1);
        QCOMPARE(result.ofType(QStringLiteral("step")).size(), 2);
    }
};

DDPLAB_UI_TEST_MAIN(TestParameterPanel)
#include "tst_parameter_panel.moc"
