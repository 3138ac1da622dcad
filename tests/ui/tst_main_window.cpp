// SPDX-License-Identifier: GPL-3.0-or-later
// The whole window against the real engine: a preset runs and its charts fill, a lesson runs
// its runs in sequence and overlays them, Stop leaves no process, a missing or broken engine
// and invalid settings end in clear messages with the window alive, and past runs and
// settings are there again in the next session; Run says why it is off, one busy state gates Run
// and the Study and Advise pages' starts, the title names the lab once, Tab leaves Compare,
// pages have shortcuts, exporting a run's metrics asks which.

#include "advisor/advise_page.hpp"
#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "core/protocol_names.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "support/process_table.hpp"
#include "support/test_data.hpp"
#include "support/window_launch.hpp"
#include "ui_test_main.hpp"
#include "study/study_page.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/main_window.hpp"
#include "window/notice_bar.hpp"

#include <QAction>
#include <QDockWidget>
#include <QInputDialog>
#include <QPushButton>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>

using namespace ddplab::ui;
using ddplab::test::jsonObject;
using ddplab::test::withEngine;

namespace {

constexpr int kPatienceMs = 180000;  // a safety net only

QList<QJsonObject> readEvents(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return ddplab::test::parseEvents(file.readAll());
}

QAction* actionNamed(QWidget& window, const QString& text)
{
    for (QAction* action : window.findChildren<QAction*>()) {
        if (action->text().remove(QLatin1Char('&')) == text)
            return action;
    }
    return nullptr;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void presetRunsAndItsChartsFill()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.parameterPanel()->setValues(jsonObject(R"({"workload": "toy", "world_size": 2, "batch_size": 16,
            "num_examples": 256, "epochs": 2, "noise": 1.0, "experiments": 100, "lr": 0.001, "lr_rule": "sqrt",
            "base_batch_size": 16})")).isEmpty());
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(window.isRunning());
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(done.first().first().toBool(), true);

        QCOMPARE(window.runModel().runs().size(), 1);
        const QSharedPointer<RunData> run = window.runModel().runs().first().data;
        QCOMPARE(run->record().status, RunStatus::Finished);
        QCOMPARE(run->stepCount(), 16);  // 256 / (2 x 16) = 8 a epoch, 2 epochs
        QCOMPARE(run->config().value(QStringLiteral("lr_effective")).toDouble(), 0.001 * std::sqrt(2.0));

        // Every chart of a noisy multi-rank toy run, each drawing what the engine sent.
        for (const char* id : {"loss", "weight", "update_variance", "noise_scale", "lr", "throughput", "grad_norm", "step_time"})
            QVERIFY2(window.chartGrid()->panel(QLatin1String(id)), id);
        QVERIFY(!window.chartGrid()->panel(QStringLiteral("accuracy")));
        ChartPanel* weight = window.chartGrid()->panel(QStringLiteral("weight"));
        QCOMPARE(weight->drawnPoints(run->id(), QStringLiteral("w_mean")), run->series(QStringLiteral("w_mean")));
        QCOMPARE(weight->drawnPoints(run->id(), QStringLiteral("w_mean")).size(), 16);
        QCOMPARE(window.chartGrid()->panel(QStringLiteral("noise_scale"))->effectiveBatchMark(run->id()), 32.0);
        QCOMPARE(window.chartGrid()->panel(QStringLiteral("update_variance"))->drawnPoints(run->id(), QStringLiteral("update_var_estimate")).size(), 16);

        // Stored as it streamed: the engine's own stream, the config, and how it ended.
        const RunRecord& record = run->record();
        const QList<QJsonObject> events = readEvents(RunStore::eventsPath(record));
        QCOMPARE(events.first().value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
        QCOMPARE(events.last().value(QStringLiteral("type")).toString(), QStringLiteral("summary"));
        QCOMPARE(std::count_if(events.begin(), events.end(), [](const QJsonObject& e) { return e.value(QStringLiteral("type")) == QStringLiteral("step"); }), 16);
        QFile meta(RunStore::metaPath(record));
        QVERIFY(meta.open(QIODevice::ReadOnly));
        const QJsonObject metaJson = QJsonDocument::fromJson(meta.readAll()).object();
        QCOMPARE(metaJson.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(metaJson.value(QStringLiteral("exit_code")).toInt(), 0);
        QCOMPARE(metaJson.value(QStringLiteral("steps")).toInt(), 16);
        QVERIFY(QFile::exists(RunStore::configPath(record)));
        QVERIFY(QFile::exists(RunStore::stderrPath(record)));
        QVERIFY(record.directory.startsWith(qEnvironmentVariable("XDG_DATA_HOME")));

        QCOMPARE(window.runList()->shownRunIds(), QStringList{run->id()});
        QVERIFY(window.statusText().startsWith(QStringLiteral("Ready")));
        QVERIFY(!window.notice()->isVisible());
    }

    void progressAndStatusTellWhereARunIs()
    {
        MainWindow window(withEngine());
        window.show();
        window.parameterPanel()->setValues(jsonObject(R"({"world_size": 2, "batch_size": 1, "num_examples": 64, "epochs": 100000})"));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->currentRun() && window.session()->currentRun()->stepCount() > 20, kPatienceMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.progressText().contains(QStringLiteral(" left")), kPatienceMs);
        QVERIFY2(window.progressText().startsWith(QStringLiteral("step ")), qPrintable(window.progressText()));
        QVERIFY(window.progressText().contains(QStringLiteral("/ 3,200,000")) || window.progressText().contains(QStringLiteral("/ 3200000")));
        QVERIFY2(window.statusText().contains(QStringLiteral("Gloo backend")), qPrintable(window.statusText()));
        QVERIFY(window.statusText().contains(QStringLiteral("2 ranks on cpu")));
        QVERIFY(window.statusText().contains(QStringLiteral("samples/s")));
        window.stopRun();
        QVERIFY(done.wait(kPatienceMs));
    }

    void lessonRunsInSequenceAndOverlays()
    {
        MainWindow window(withEngine());
        window.show();
        const int runsBefore = window.runList()->runCount();
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startLesson(QStringLiteral("seed000-single-vs-multi"));
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(done.first().first().toBool(), true);
        QStringList ids;
        for (ChartPanel* panel : window.chartGrid()->panels())
            ids.append(panel->definition().id);
        QCOMPARE(ids, (QStringList{QStringLiteral("weight"), QStringLiteral("loss"), QStringLiteral("lr")}));
        QCOMPARE(window.runModel().runs().size(), 2);
        ChartPanel* weight = window.chartGrid()->panel(QStringLiteral("weight"));
        QCOMPARE(weight->legendLabels(), (QStringList{QStringLiteral("1 GPU x 128, lr 1e-3"), QStringLiteral("8 GPUs x 16, lr 1e-3")}));
        // Seed 000: 8 x 16 is 1 x 128, step for step.
        const auto single = window.runModel().runs().at(0).data;
        const auto multi = window.runModel().runs().at(1).data;
        QCOMPARE(single->series(QStringLiteral("w_mean")).size(), 2);
        for (int i = 0; i < 2; ++i)
            QVERIFY(std::abs(single->series(QStringLiteral("w_mean")).at(i).y() - multi->series(QStringLiteral("w_mean")).at(i).y()) < 1e-6);
        QCOMPARE(weight->drawnPoints(multi->id(), QStringLiteral("w_mean")), multi->series(QStringLiteral("w_mean")));
        QCOMPARE(single->record().lessonId, QStringLiteral("seed000-single-vs-multi"));
        QCOMPARE(window.runList()->shownRunIds().size(), 2);
        QCOMPARE(window.runList()->runCount(), runsBefore + 2);

        QTemporaryDir dir;
        QString error;
        QVERIFY2(window.exportEverything(dir.path(), QSize(640, 400), 1.0, &error), qPrintable(error));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("weight.svg"))));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("02-8-gpus-x-16-lr-1e-3.csv"))));
    }

    void stopEndsTheRunAndLeavesNoProcess()
    {
        MainWindow window(withEngine());
        window.show();
        window.parameterPanel()->setValues(jsonObject(R"({"world_size": 3, "batch_size": 1, "num_examples": 64, "epochs": 1000000})"));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->currentRun() && window.session()->currentRun()->stepCount() >= 3, kPatienceMs);
        const QSharedPointer<RunData> run = window.session()->currentRun();
        // The engine (`runs`), the run it forked, and that run's three ranks.
        const qint64 engine = window.session()->engineProcessId();
        const QList<qint64> processes = QList<qint64>{engine} + ddplab::test::descendantsOf(engine);
        QCOMPARE(processes.size(), 1 + 1 + 3);
        actionNamed(window, QStringLiteral("Stop"))->trigger();
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(done.first().first().toBool(), false);
        QCOMPARE(run->record().status, RunStatus::Cancelled);
        QCOMPARE(run->record().exitCode, 5);
        for (const qint64 process : processes)
            QVERIFY(!ddplab::test::isRunning(process));
        QVERIFY(window.notice()->text().contains(QStringLiteral("stopped")));
        QVERIFY(!window.isRunning());
        QVERIFY(actionNamed(window, QStringLiteral("Run"))->isEnabled());
    }

    void invalidSettingsNeverReachTheEngine()
    {
        MainWindow window(withEngine());
        window.show();
        window.parameterPanel()->setFieldText(QStringLiteral("batch_size"), QStringLiteral("0"));
        QAction* run = actionNamed(window, QStringLiteral("Run"));
        QVERIFY(!run->isEnabled());
        window.startRun();
        QVERIFY(!window.isRunning());
        QVERIFY(window.notice()->isVisible());
        QVERIFY(window.notice()->text().contains(QStringLiteral("need attention")));
        window.parameterPanel()->setFieldText(QStringLiteral("batch_size"), QStringLiteral("16"));
        QVERIFY(run->isEnabled());
    }

    void missingEngineIsExplainedAndTheWindowLives()
    {
        MainWindow window(withEngine(QStringLiteral("/nonexistent/bin/ddplab-engine")));
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.notice()->isVisible(), kPatienceMs);  // from asking it for devices
        QVERIFY(window.notice()->text().contains(QStringLiteral("cannot be used")));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY2(window.notice()->text().contains(QStringLiteral("Cannot start the training engine")), qPrintable(window.notice()->text()));
        QVERIFY(window.notice()->text().contains(QStringLiteral("/nonexistent/bin/ddplab-engine")));
        QCOMPARE(window.runModel().runs().first().data->record().status, RunStatus::Failed);
        QVERIFY(window.isVisible());
    }

    void brokenEngineOutputIsExplainedAndTheWindowLives()
    {
        QTemporaryDir dir;
        const QString broken = dir.filePath(QStringLiteral("ddplab-engine"));
        QFile script(broken);
        QVERIFY(script.open(QIODevice::WriteOnly));
        // Valid events, then garbage and a huge line, then a crash: the window must take it all.
        script.write("#!/bin/sh\n"
                     "echo '{\"type\":\"hello\",\"protocol\":" + QByteArray::number(ddplab::kProtocolVersion) + "}'\n"
                     "echo '{\"type\":\"step\",\"step\":1,\"loss\":1.5}'\n"
                     "echo 'this is not json'\n"
                     "head -c 300000 /dev/zero | tr '\\0' 'x'; echo\n"
                     "echo '{\"type\":\"step\",\"step\":2,\"loss\":null}'\n"
                     "echo 'Segmentation fault' >&2\n"
                     "kill -SEGV $$\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        MainWindow window(withEngine(broken));
        window.show();
        // First it is asked for its devices, and that fails too.
        QTRY_VERIFY_WITH_TIMEOUT(window.notice()->text().contains(QStringLiteral("cannot be used")), kPatienceMs);
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        const QSharedPointer<RunData> run = window.runModel().runs().first().data;
        QCOMPARE(run->record().status, RunStatus::Failed);
        QCOMPARE(run->stepCount(), 2);
        QCOMPARE(run->series(QStringLiteral("loss")).size(), 1);
        QVERIFY2(window.notice()->text().contains(QStringLiteral("killed by a signal")), qPrintable(window.notice()->text()));
        QVERIFY(window.log()->toPlainText().contains(QStringLiteral("Segmentation fault")));
        QVERIFY(window.log()->toPlainText().contains(QStringLiteral("malformed")));
        QVERIFY(window.isVisible());
    }

    void engineOfAnotherProtocolIsRefused()
    {
        // An engine from another version: its events may mean something else, so none is shown.
        QTemporaryDir dir;
        const QString older = dir.filePath(QStringLiteral("ddplab-engine"));
        QFile script(older);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\n"
                     "echo '{\"type\":\"hello\",\"protocol\":1}'\n"
                     "echo '{\"type\":\"step\",\"step\":1,\"loss\":1.5}'\n"
                     "exec sleep 60\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        MainWindow window(withEngine(older));
        window.show();
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        const QSharedPointer<RunData> run = window.runModel().runs().first().data;
        QCOMPARE(run->record().status, RunStatus::Failed);
        QVERIFY2(run->record().error.contains(QStringLiteral("speaks event protocol 1, this lab reads protocol %1")
                                                  .arg(ddplab::kProtocolVersion)),
                 qPrintable(run->record().error));
        QVERIFY2(window.notice()->text().contains(QStringLiteral("protocol 1")), qPrintable(window.notice()->text()));
    }

    void pastRunsCanBeOverlaidFromTheRunsList()
    {
        MainWindow window(withEngine());
        window.show();
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startLesson(QStringLiteral("seed000-linear-rule"));
        QVERIFY(done.wait(kPatienceMs));
        // 1 x 16 against 8 x 16: the lesson's point is per sample seen, so its charts count those.
        QCOMPARE(window.chartGrid()->xAxis(), XAxis::SamplesSeen);
        const QStringList lessonRuns = window.runList()->shownRunIds();
        QCOMPARE(lessonRuns.size(), 2);
        window.parameterPanel()->setValues(jsonObject(R"({"world_size": 2, "batch_size": 64})"));
        window.startRun();  // replaces what the charts show
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(window.runModel().runs().size(), 1);

        // Tick the lesson's runs again: they come back from their run folders, overlaid.
        // They are in the lesson's group of the list, which stays open.
        QTreeWidgetItem* lesson = window.runList()->groupItem(QStringLiteral("lesson:seed000-linear-rule"));
        QVERIFY(lesson && lesson->isExpanded());
        for (const QString& id : lessonRuns) {
            QCOMPARE(window.runList()->runItem(id)->parent(), lesson);
            window.runList()->runItem(id)->setCheckState(0, Qt::Checked);
        }
        QCOMPARE(window.runModel().runs().size(), 3);
        QSet<QRgb> colors;
        for (const DisplayedRun& run : window.runModel().runs())
            colors.insert(run.color.rgb());
        QCOMPARE(colors.size(), 3);
        ChartPanel* weight = window.chartGrid()->panel(QStringLiteral("weight"));
        QVERIFY(weight);
        weight->redrawNow();
        QVERIFY(weight->legendLabels().contains(QStringLiteral("8 GPUs x 16, linear rule (lr 8e-3)")));
        const QSharedPointer<RunData> reloaded = window.runModel().runs().last().data;
        QCOMPARE(reloaded->stepCount(), reloaded->record().steps);
        QCOMPARE(weight->drawnPoints(reloaded->id(), QStringLiteral("w_mean")), reloaded->series(QStringLiteral("w_mean"), XAxis::SamplesSeen));
    }

    void closingTheWindowMidRunStopsEveryProcess()
    {
        QString eventsPath;
        QList<qint64> processes;
        {
            MainWindow window(withEngine());
            window.show();
            window.parameterPanel()->setValues(jsonObject(R"({"world_size": 2, "batch_size": 1, "num_examples": 64, "epochs": 1000000})"));
            window.startRun();
            QTRY_VERIFY_WITH_TIMEOUT(window.session()->currentRun() && window.session()->currentRun()->stepCount() >= 2, kPatienceMs);
            eventsPath = RunStore::eventsPath(window.session()->currentRun()->record());
            const qint64 engine = window.session()->engineProcessId();
            processes = QList<qint64>{engine} + ddplab::test::descendantsOf(engine);
            QCOMPARE(processes.size(), 1 + 1 + 2);
            QVERIFY(window.close());
        }
        for (const qint64 process : processes)
            QVERIFY(!ddplab::test::isRunning(process));
        const QList<RunRecord> runs = RunStore().listRuns();
        const auto closed = std::find_if(runs.begin(), runs.end(), [&](const RunRecord& run) { return RunStore::eventsPath(run) == eventsPath; });
        QVERIFY(closed != runs.end());
        QCOMPARE(closed->status, RunStatus::Cancelled);
        QVERIFY(closed->steps >= 2);
    }

    void shortcutsRunStopAndExport()
    {
        MainWindow window(withEngine());
        QCOMPARE(actionNamed(window, QStringLiteral("Run"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        QCOMPARE(actionNamed(window, QStringLiteral("Stop"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Period));
        QCOMPARE(actionNamed(window, QStringLiteral("Export Charts and CSVs…"))->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        QCOMPARE(actionNamed(window, QStringLiteral("Open Preset…"))->shortcut(), QKeySequence(QKeySequence::Open));
        QCOMPARE(actionNamed(window, QStringLiteral("Save Settings as Preset…"))->shortcut(), QKeySequence(QKeySequence::Save));
    }

    // Tab leaves the Compare table (arrows move between its cells); each page has Ctrl+1..4.
    void theKeyboardMovesBetweenPagesAndOutOfCompare()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTabWidget* pages = window.pages();
        for (int page = 0; page < pages->count(); ++page) {
            QCOMPARE(window.actions().pages.at(page)->shortcut(), QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + page)));
            window.actions().pages.at(page)->trigger();
            QCOMPARE(pages->currentIndex(), page);
            QVERIFY2(pages->tabToolTip(page).contains(QString::number(page + 1)), qPrintable(pages->tabToolTip(page)));
        }
        window.actions().pages.at(2)->trigger();
        auto* table = pages->currentWidget()->findChild<QTableWidget*>();
        QVERIFY(table);
        QVERIFY(!table->tabKeyNavigation());
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QTest::keyClick(table, Qt::Key_Tab);
        QVERIFY2(!table->hasFocus(), "Tab stayed in the Compare table");
    }

    // The title says what the lab does now; the platform adds the application's name once.
    void theTitleNamesTheLabOnce()
    {
        QGuiApplication::setApplicationDisplayName(QStringLiteral("DDP Lab"));
        MainWindow window(withEngine());
        QCOMPARE(window.windowTitle(), QString());  // the platform shows "DDP Lab"
        window.parameterPanel()->setValues(jsonObject(R"({"world_size": 2, "batch_size": 1, "num_examples": 64, "epochs": 100000})"));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QTRY_VERIFY_WITH_TIMEOUT(window.isRunning(), kPatienceMs);
        QCOMPARE(window.windowTitle(), QStringLiteral("Running"));  // "Running — DDP Lab"
        QVERIFY(!window.windowTitle().contains(QGuiApplication::applicationDisplayName()));
        window.stopRun();
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(window.windowTitle(), QString());
    }

    // Why Run is off, in its tooltip and in the status bar (which stays when Setup is hidden).
    void runSaysWhyItIsDisabled()
    {
        MainWindow window(withEngine());
        window.show();
        QAction* run = window.actions().run;
        QVERIFY(run->isEnabled());
        QVERIFY(window.runBlockedReason().isEmpty());
        window.parameterPanel()->setFieldText(QStringLiteral("world_size"), QStringLiteral("0"));
        QVERIFY(!run->isEnabled());
        QVERIFY2(run->toolTip().contains(QStringLiteral("GPUs (ranks) must be an integer from 1")), qPrintable(run->toolTip()));
        QVERIFY2(window.statusText().contains(QStringLiteral("GPUs (ranks) must be")), qPrintable(window.statusText()));
        window.parameterPanel()->setFieldText(QStringLiteral("lr"), QStringLiteral("-1"));
        QVERIFY2(run->toolTip().startsWith(QStringLiteral("Run waits for 2 settings")), qPrintable(run->toolTip()));
        window.setPresentationMode(true);
        QVERIFY(!window.findChild<QDockWidget*>(QStringLiteral("setupDock"))->isVisible());
        QVERIFY(window.statusBar()->isVisible());
        QVERIFY(window.statusText().contains(QStringLiteral("Base LR must be")));
        window.setPresentationMode(false);
        window.parameterPanel()->setFieldText(QStringLiteral("world_size"), QStringLiteral("2"));
        window.parameterPanel()->setFieldText(QStringLiteral("lr"), QStringLiteral("0.01"));
        QVERIFY(run->isEnabled());
        QVERIFY(window.statusText().startsWith(QStringLiteral("Ready")));
    }

    // One busy state gates every start: while the lab is held by an advice between its phases
    // (no run going) or by a study, Run, the Study page's Run and the Advise page's Start refuse,
    // saying with what; let go, they are open again.
    void oneBusyStateGatesEveryStart()
    {
        MainWindow window(withEngine());
        LabSession& session = *window.session();
        QAction* run = window.actions().run;
        QPushButton* runStudy = window.studyPage()->findChild<QPushButton*>(QStringLiteral("runStudy"));
        auto* advise = window.findChild<AdvisePage*>();
        QVERIFY(runStudy && advise);
        QPushButton* startAdvice = advise->findChild<QPushButton*>(QStringLiteral("startAdvice"));
        QVERIFY(run->isEnabled() && runStudy->isEnabled() && startAdvice->isEnabled());

        QVERIFY(session.claim(Busy::Advice));
        QVERIFY(!session.isRunning());  // between two phases: nothing runs, the lab is busy all the same
        QVERIFY(!run->isEnabled());
        QVERIFY2(window.runBlockedReason().contains(QStringLiteral("an advice is running")), qPrintable(window.runBlockedReason()));
        QCOMPARE(window.windowTitle(), QStringLiteral("Running"));
        window.startRun();
        QVERIFY(!session.isRunning());
        QVERIFY(!runStudy->isEnabled());
        QVERIFY2(runStudy->toolTip().contains(QStringLiteral("an advice is running")), qPrintable(runStudy->toolTip()));
        QVERIFY(!window.studyPage()->runStudy(true));
        QString refusal;
        QVERIFY(!session.claim(Busy::Study, &refusal));
        QCOMPARE(refusal, QStringLiteral("an advice is running"));
        session.release(Busy::Study);  // not its claim: nothing is let go
        QCOMPARE(session.activity().busy(), Busy::Advice);
        session.release(Busy::Advice);
        QVERIFY(run->isEnabled() && runStudy->isEnabled() && startAdvice->isEnabled());

        QVERIFY(session.claim(Busy::Study));
        QVERIFY(!run->isEnabled() && !startAdvice->isEnabled());
        QVERIFY(!advise->start());
        QVERIFY(!advise->isRunning());
        QVERIFY2(advise->statusText().startsWith(QStringLiteral("Something else is running (a study is running)")), qPrintable(advise->statusText()));
        session.release(Busy::Study);
        QVERIFY(run->isEnabled() && startAdvice->isEnabled());
        QCOMPARE(window.windowTitle(), QString());
    }

    // Ctrl+Shift+E with several runs on the charts asks which one.
    void exportingARunsMetricsAsksWhichRun()
    {
        MainWindow window(withEngine());
        window.show();
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startLesson(QStringLiteral("seed000-linear-rule"));
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(window.runModel().runs().size(), 2);
        QStringList offered;
        QTimer::singleShot(0, &window, [&] {
            for (QWidget* top : QApplication::topLevelWidgets()) {
                if (auto* dialog = qobject_cast<QInputDialog*>(top)) {
                    offered = dialog->comboBoxItems();
                    dialog->reject();
                }
            }
        });
        window.actions().exportCsv->trigger();
        QCOMPARE(offered.size(), 2);
        QCOMPARE(offered.last(), window.runModel().runs().last().label);
    }

    void pastRunsAndSettingsComeBackNextSession()
    {
        int runsBefore = 0;
        {
            MainWindow window(withEngine());
            window.show();
            runsBefore = window.runList()->runCount();
            window.parameterPanel()->setValues(jsonObject(R"({"world_size": 4, "batch_size": 8, "num_examples": 64})"));
            QSignalSpy done(&window, &MainWindow::sequenceDone);
            window.startRun();
            QVERIFY(done.wait(kPatienceMs));
            window.close();
        }
        MainWindow next(withEngine());
        QCOMPARE(next.runList()->runCount(), runsBefore + 1);
        QCOMPARE(next.parameterPanel()->fieldText(QStringLiteral("world_size")), QStringLiteral("4"));
        QCOMPARE(next.parameterPanel()->fieldText(QStringLiteral("batch_size")), QStringLiteral("8"));
    }
};

DDPLAB_UI_TEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
