// SPDX-License-Identifier: GPL-3.0-or-later
// The window's exports of issue 33, driven as a person drives them: File → Export to TensorBoard…
// with one of two stored runs selected in the Runs list writes that run's event file and nothing
// else (its folder, its file name, its bytes), the folder answered in the real folder dialog,
// and a cancelled dialog writes nothing; File → Copy Settings as PyTorch Script puts the
// generator's text for Setup's settings on the clipboard and says how to run it in the Log, and
// for settings the generator refuses (NovoGrad) leaves the clipboard as it was and shows the
// refusal in the notice; a stored run's "Copy as PyTorch script" in the Runs list's context menu
// gives that run's script, not the other's.

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_record.hpp"
#include "client/runs/run_store.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/script/script_source.hpp"
#include "client/tensorboard/tensorboard_run.hpp"
#include "export/image_export_dialog.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "support/test_data.hpp"
#include "support/window_launch.hpp"
#include "ui_test_main.hpp"
#include "window/chart_page.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/main_window.hpp"
#include "window/notice_bar.hpp"
#include "window/stored_runs.hpp"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTreeWidget>

using namespace ddplab::ui;
using ddplab::test::jsonObject;
using ddplab::test::withEngine;

namespace {

constexpr int kDialogPatienceMs = 20000;  // a safety net only

// A finished run of `steps` steps in `store`: its config and an events.jsonl whose loss is
// `scale` / step, so two runs' files differ in every value.
RunRecord storedRun(const RunStore& store, const QString& name, const QJsonObject& config, const QDateTime& started, double scale)
{
    RunRecord draft;
    draft.name = name;
    draft.label = name;
    draft.started = started;
    RunRecord run = *store.createRun(draft, coreConfigOf(config).value(), nullptr);
    constexpr int kSteps = 4;
    run.status = RunStatus::Finished;
    run.exitCode = 0;
    run.steps = kSteps;
    run.finished = started.addSecs(5);
    store.saveMeta(run, nullptr);
    QByteArray events = R"({"type":"hello","protocol":3})"
                        "\n"
                        R"({"type":"config","effective_batch_size":32,"lr_effective":0.1,"total_steps":4,"steps_per_epoch":4,"epochs":1})"
                        "\n";
    for (int step = 1; step <= kSteps; ++step)
        events += QStringLiteral(R"({"type":"step","step":%1,"epoch":0,"lr":0.1,"loss":%2,"samples":32,"step_ms":10,"wall_s":%3})")
                      .arg(step)
                      .arg(scale / step, 0, 'g', 17)
                      .arg(0.01 * step)
                      .toUtf8() +
                  '\n';
    events += R"({"type":"summary","steps":4,"epochs":1})"
              "\n";
    QFile file(RunStore::eventsPath(run));
    if (file.open(QIODevice::WriteOnly))
        file.write(events);
    return run;
}

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Answers the folder dialog the next action opens: `folder` chosen (empty: Cancel). Polls, so
// it answers once the dialog's own event loop runs; *seen says whether one was open.
void answerFolderDialog(const QString& folder, bool* seen)
{
    auto* poll = new QTimer(qApp);
    poll->setInterval(20);
    auto* patience = new QElapsedTimer;
    patience->start();
    QObject::connect(poll, &QTimer::timeout, qApp, [=] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog && patience->elapsed() < kDialogPatienceMs)
            return;
        poll->deleteLater();
        delete patience;
        if (!dialog)
            return;
        *seen = true;
        if (folder.isEmpty()) {
            dialog->reject();
            return;
        }
        // As a person types the folder into the dialog's name field and presses Choose.
        auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
        if (!name || !QFileInfo(folder).isDir()) {  // the dialog would ask about a missing folder: blocking
            dialog->reject();
            return;
        }
        name->setText(folder);
        static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept(), as its Choose button does
    });
    poll->start();
}

// Right-clicks `run`'s row in the Runs list and chooses `entry` in its context menu with the
// keyboard; returns the menu's entries (empty when no menu opened).
QStringList chooseInContextMenu(RunListPanel& list, const RunRecord& run, const QString& entry)
{
    QTreeWidgetItem* item = list.runItem(run.id);
    if (!item)
        return {};
    list.tree()->scrollToItem(item);
    QStringList offered;
    QTimer::singleShot(0, qApp, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu)
            return;
        QAction* chosen = nullptr;
        for (QAction* action : menu->actions()) {
            offered.append(action->text());
            if (action->text() == entry)
                chosen = action;
        }
        if (!chosen) {
            menu->close();
            return;
        }
        menu->setActiveAction(chosen);
        QTest::keyClick(menu, Qt::Key_Return);
    });
    emit list.tree()->customContextMenuRequested(list.tree()->visualItemRect(item).center());
    return offered;
}

}  // namespace

class TestWindowExports : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void exportToTensorBoardWritesTheSelectedRunOnly();
    void cancellingTheFolderDialogWritesNothing();
    void copySettingsPutsTheGeneratorsScriptOnTheClipboard();
    void settingsTheGeneratorRefusesLeaveTheClipboard();
    void aStoredRunsContextMenuCopiesItsScript();
    void theFileMenuNamesItsEntriesAndNoShortcutClashes();
    void aChartsExportSaysSoOnScreenAndGivesTheKeyboardBack();
    void showingAStudysRunsReplacesWhatWasShown();

private:
    RunRecord m_first, m_second;  // stored before the window opens: it lists them
};

void TestWindowExports::initTestCase()
{
    // The widget dialogs, on every platform: the test answers them itself.
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs);
    const RunStore store;
    const QDateTime started(QDate(2026, 11, 20), QTime(9, 30, 15), Qt::UTC);
    m_first = storedRun(store, QStringLiteral("first 2×16 · lr 0.05"),
                        jsonObject(R"({"workload": "toy", "world_size": 2, "batch_size": 16, "lr": 0.05, "max_steps": 4})"), started, 2.0);
    m_second = storedRun(store, QStringLiteral("second 4×8 · lr 0.2"),
                         jsonObject(R"({"workload": "linreg", "world_size": 4, "batch_size": 8, "lr": 0.2, "max_steps": 4})"),
                         started.addSecs(60), 7.0);
    QCOMPARE(store.listRuns().size(), 2);
}

void TestWindowExports::exportToTensorBoardWritesTheSelectedRunOnly()
{
    MainWindow window(withEngine());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    RunListPanel& list = *window.runList();
    QCOMPARE(list.runCount(), 2);
    QTreeWidgetItem* second = list.runItem(m_second.id);
    QVERIFY(second);
    list.tree()->clearSelection();
    second->setSelected(true);
    QCOMPARE(list.selectedRuns().size(), 1);

    QTemporaryDir out;
    bool dialogSeen = false;
    answerFolderDialog(out.path(), &dialogSeen);
    window.actions().exportTensorBoard->trigger();
    QVERIFY(dialogSeen);

    // One folder, named by the selected run (its id and name), holding one event file.
    const QString folder = tensorBoardRunFolder(m_second);
    QVERIFY2(folder.startsWith(m_second.id) && folder.contains(QStringLiteral("second")), qPrintable(folder));
    QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{folder});
    const QString fileName = tensorBoardFileName(m_second);
    QVERIFY(fileName != tensorBoardFileName(m_first));  // the runs started a minute apart
    QCOMPARE(QDir(out.filePath(folder)).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{fileName});

    // Its bytes are the selected run's, which differ from the other run's in every loss.
    QTemporaryDir reference;
    const TensorBoardRunFile secondAlone = writeTensorBoardRun(m_second, reference.filePath(QStringLiteral("second")));
    const TensorBoardRunFile firstAlone = writeTensorBoardRun(m_first, reference.filePath(QStringLiteral("first")));
    QVERIFY2(!secondAlone.path.isEmpty() && !firstAlone.path.isEmpty(), qPrintable(secondAlone.error + firstAlone.error));
    const QByteArray written = contents(QDir(out.filePath(folder)).filePath(fileName));
    QVERIFY(written.size() > 100);
    QCOMPARE(written, contents(secondAlone.path));
    QVERIFY(written != contents(firstAlone.path));

    QVERIFY2(window.log()->toPlainText().contains(
                 QStringLiteral("Wrote 1 TensorBoard run to %1: open them with tensorboard --logdir %1").arg(out.path())),
             qPrintable(window.log()->toPlainText()));
}

void TestWindowExports::cancellingTheFolderDialogWritesNothing()
{
    MainWindow window(withEngine());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString logBefore = window.log()->toPlainText();
    bool dialogSeen = false;
    answerFolderDialog(QString(), &dialogSeen);
    window.actions().exportTensorBoard->trigger();
    QVERIFY(dialogSeen);
    QCOMPARE(window.log()->toPlainText(), logBefore);
}

void TestWindowExports::copySettingsPutsTheGeneratorsScriptOnTheClipboard()
{
    MainWindow window(withEngine());
    window.parameterPanel()->setValues(jsonObject(R"({"workload": "toy", "world_size": 3, "batch_size": 8, "lr": 0.04, "max_steps": 6})"));
    QVERIFY(window.parameterPanel()->isValid());
    const QJsonObject settings = window.parameterPanel()->values();
    const PyTorchScript expected = pytorchScriptOf(settings, QStringLiteral("Settings ") + defaultRunName(settings));
    QVERIFY2(expected.isWritten(), qPrintable(expected.error));
    QCOMPARE(expected.ranks, 3);

    QGuiApplication::clipboard()->setText(QStringLiteral("what was there"));
    window.actions().copyScript->trigger();
    const QString copied = QGuiApplication::clipboard()->text();
    QCOMPARE(copied, expected.text);
    QVERIFY(copied.contains(QStringLiteral("init_process_group")));
    QVERIFY2(window.log()->toPlainText().contains(QStringLiteral("Copied Settings 3×8 · lr 0.04 · toy as a PyTorch script")),
             qPrintable(window.log()->toPlainText()));
    QVERIFY(window.log()->toPlainText().contains(torchrunCommand(3, QStringLiteral("train_ddp.py"))));
}

void TestWindowExports::settingsTheGeneratorRefusesLeaveTheClipboard()
{
    MainWindow window(withEngine());
    window.parameterPanel()->setValues(jsonObject(R"({"workload": "toy", "world_size": 2, "batch_size": 8, "lr": 0.04, "optimizer": "novograd"})"));
    QVERIFY(window.parameterPanel()->isValid());
    const QJsonObject settings = window.parameterPanel()->values();
    const PyTorchScript refused = pytorchScriptOf(settings, QStringLiteral("Settings ") + defaultRunName(settings));
    QVERIFY(!refused.isWritten());
    QVERIFY2(refused.error.contains(QStringLiteral("novograd"), Qt::CaseInsensitive), qPrintable(refused.error));

    QGuiApplication::clipboard()->setText(QStringLiteral("what was there"));
    const QString logBefore = window.log()->toPlainText();
    window.actions().copyScript->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("what was there"));
    const QString notice = window.notice()->text();
    QVERIFY2(notice.contains(QStringLiteral("Cannot copy the settings as a PyTorch script")), qPrintable(notice));
    QVERIFY2(notice.contains(refused.error.toHtmlEscaped()), qPrintable(notice));
    QCOMPARE(window.log()->toPlainText(), logBefore);
}

void TestWindowExports::aStoredRunsContextMenuCopiesItsScript()
{
    MainWindow window(withEngine());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* runsDock = window.findChild<QDockWidget*>(QStringLiteral("runsDock"));
    QVERIFY(runsDock);
    runsDock->show();
    runsDock->raise();
    QTRY_VERIFY(window.runList()->isVisible());

    const ScriptSource first = scriptSourceOfRun(m_first);
    const ScriptSource second = scriptSourceOfRun(m_second);
    QVERIFY2(first.error.isEmpty() && second.error.isEmpty(), qPrintable(first.error + second.error));
    const PyTorchScript expected = pytorchScriptOf(second.settings, second.title);
    QVERIFY2(expected.isWritten(), qPrintable(expected.error));
    QCOMPARE(expected.ranks, 4);
    QVERIFY(expected.text != pytorchScriptOf(first.settings, first.title).text);

    QGuiApplication::clipboard()->setText(QStringLiteral("what was there"));
    const QStringList offered = chooseInContextMenu(*window.runList(), m_second, QStringLiteral("Copy as PyTorch script"));
    QVERIFY2(offered.contains(QStringLiteral("Copy as PyTorch script")), qPrintable(offered.join(QStringLiteral(", "))));
    QCOMPARE(QGuiApplication::clipboard()->text(), expected.text);
    QVERIFY2(window.log()->toPlainText().contains(QStringLiteral("Copied Run second 4×8 · lr 0.2 as a PyTorch script")),
             qPrintable(window.log()->toPlainText()));
    QVERIFY(window.log()->toPlainText().contains(torchrunCommand(4, QStringLiteral("train_ddp.py"))));
}

// The File menu as docs/ui.md shows it (docs/screenshots/file-menu-*.png): the new entries say
// what they take, "…" only where a dialog follows, tooltips shown on hover; no two of the
// window's actions share a shortcut.
void TestWindowExports::theFileMenuNamesItsEntriesAndNoShortcutClashes()
{
    MainWindow window(withEngine());
    QMenu* file = window.menuBar()->actions().value(0)->menu();
    QVERIFY(file);
    QStringList entries;
    for (const QAction* action : file->actions())
        entries.append(action->isSeparator() ? QStringLiteral("--") : action->text().remove(QLatin1Char('&')));
    QCOMPARE(entries, QStringList({QStringLiteral("Open Preset…"), QStringLiteral("Save Settings as Preset…"),
                                   QStringLiteral("Copy Settings as PyTorch Script"), QStringLiteral("--"),
                                   QStringLiteral("Export Charts and CSVs…"), QStringLiteral("Export Run Metrics as CSV…"),
                                   QStringLiteral("Export Runs to TensorBoard…"), QStringLiteral("Write TensorBoard Files During Runs"),
                                   QStringLiteral("--"), QStringLiteral("Quit")}));
    QVERIFY(file->toolTipsVisible());
    QVERIFY2(window.actions().exportTensorBoard->toolTip().contains(QStringLiteral("none: every stored run")),
             qPrintable(window.actions().exportTensorBoard->toolTip()));
    QVERIFY(window.actions().streamTensorBoard->isCheckable());
    QVERIFY2(window.actions().streamTensorBoard->toolTip().contains(QStringLiteral("as they arrive")),
             qPrintable(window.actions().streamTensorBoard->toolTip()));

    // Each entry's mnemonic is its own within the menu.
    QStringList mnemonics;
    for (const QAction* action : file->actions()) {
        const qsizetype at = action->text().indexOf(QLatin1Char('&'));
        if (at >= 0)
            mnemonics.append(action->text().mid(at + 1, 1).toLower());
    }
    const QStringList unique = QSet<QString>(mnemonics.begin(), mnemonics.end()).values();
    QCOMPARE(unique.size(), mnemonics.size());

    QHash<QString, QString> owners;  // shortcut -> the action that has it
    for (const QAction* action : window.findChildren<QAction*>()) {
        for (const QKeySequence& keys : action->shortcuts()) {
            const QString key = keys.toString();
            QVERIFY2(!owners.contains(key) || owners.value(key) == action->text(),
                     qPrintable(key + QStringLiteral(": ") + owners.value(key) + QStringLiteral(" and ") + action->text()));
            owners.insert(key, action->text());
        }
    }
    QVERIFY(owners.size() >= 15);  // Run, Stop, the pages, Open, Save, Export, ...: the loop saw them
}

// A chart exported from its button: the notice bar says so (the Log is hidden in presentation
// mode), and the keyboard is back where it was once the dialog closes. In presentation mode the
// status bar says so instead: the strip would take its height from the lead chart.
void TestWindowExports::aChartsExportSaysSoOnScreenAndGivesTheKeyboardBack()
{
    MainWindow window(withEngine());
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.storedRuns()->showOnCharts({m_first});
    ChartPanel* loss = window.chartGrid()->panel(QStringLiteral("loss"));
    QVERIFY(loss);
    auto* xAxis = window.chartPage()->findChild<QComboBox*>();
    QVERIFY(xAxis);
    xAxis->setFocus();
    QTRY_COMPARE(QApplication::focusWidget(), xAxis);

    QTemporaryDir out;
    const auto exportThrough = [&](ChartPanel* chart, const QString& path) {
        bool seen = false;
        auto* poll = new QTimer(qApp);
        poll->setInterval(20);
        QObject::connect(poll, &QTimer::timeout, qApp, [&seen, poll, path] {
            auto* dialog = qobject_cast<ImageExportDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            poll->deleteLater();
            seen = true;
            dialog->findChild<QLineEdit*>()->setText(path);  // the first field: where to
            dialog->accept();
        });
        poll->start();
        emit chart->exportRequested(chart);
        return seen;
    };
    const QString path = QDir(out.path()).filePath(QStringLiteral("loss.png"));
    QVERIFY(exportThrough(loss, path));
    QVERIFY(QFileInfo::exists(path));
    QVERIFY2(window.notice()->isVisible() && window.notice()->text().contains(QStringLiteral("Exported")),
             qPrintable(window.notice()->text()));
    QVERIFY2(window.notice()->text().contains(QDir::toNativeSeparators(path)), qPrintable(window.notice()->text()));
    QTRY_COMPARE(QApplication::focusWidget(), xAxis);

    window.setPresentationMode(true);
    QVERIFY(!window.notice()->isVisible());  // the strip of before goes with it
    ChartPanel* lead = window.chartGrid()->enlarged();
    QVERIFY(lead);
    QTest::qWait(50);
    lead->redrawNow();
    const QRectF plot = lead->plotArea();
    const QString slide = QDir(out.path()).filePath(QStringLiteral("lead.png"));
    QVERIFY(exportThrough(lead, slide));
    QVERIFY(QFileInfo::exists(slide));
    QVERIFY(!window.notice()->isVisible());
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Exported")), qPrintable(window.statusBar()->currentMessage()));
    QTest::qWait(50);
    lead->redrawNow();
    QCOMPARE(lead->plotArea(), plot);
    window.setPresentationMode(false);
}

// "Show runs on Charts" (a study's runs) puts them in place of what the charts showed, not
// beside it.
void TestWindowExports::showingAStudysRunsReplacesWhatWasShown()
{
    MainWindow window(withEngine());
    window.storedRuns()->showOnCharts({m_first});
    QCOMPARE(window.runModel().runs().size(), 1);
    window.storedRuns()->showOnCharts({m_second});
    QCOMPARE(window.runModel().runs().size(), 1);
    QCOMPARE(window.runModel().runs().first().data->id(), m_second.id);
    QCOMPARE(window.runList()->shownRunIds(), QStringList{m_second.id});
}

DDPLAB_UI_TEST_MAIN(TestWindowExports)

#include "tst_window_exports.moc"
