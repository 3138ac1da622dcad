// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs list as a person reads it: a study's and a lesson's runs grouped under them (one
// collapsible row, closed until one of its runs is on the charts), each named by what tells it
// apart, with its ranks × batch, effective LR and optimizer beside it; names not cut short; the
// settings read back from a run's config.json.

#include "client/library/preset_file.hpp"
#include "client/runs/run_store.hpp"
#include "runs/run_list_panel.hpp"
#include "ui_test_main.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QTreeWidget>

using namespace ddplab::ui;

namespace {

enum Column { kName, kStatus, kShape, kLr, kOptimizer, kStarted };

RunRecord record(const QString& id, const QString& name, int minutesAgo)
{
    RunRecord run;
    run.id = id;
    run.name = name;
    run.status = RunStatus::Finished;
    run.started = QDateTime::currentDateTime().addSecs(-60 * minutesAgo);
    run.settings = runSettingsOf(QJsonObject{{QStringLiteral("world_size"), 4},
                                             {QStringLiteral("batch_size"), 16},
                                             {QStringLiteral("lr"), 0.001},
                                             {QStringLiteral("lr_rule"), QStringLiteral("linear")},
                                             {QStringLiteral("optimizer"), QStringLiteral("adam")}});
    return run;
}

RunRecord studyRun(const QString& id, int point, int minutesAgo)
{
    RunRecord run = record(id, QStringLiteral("batch %1 · lr 0.004 — Batch against LR").arg(16 << point), minutesAgo);
    run.studyId = QStringLiteral("batch-lr-1");
    run.studyPoint = point;
    return run;
}

// Newest first, as the store lists them: a single run, a study's three runs (the third stopped),
// a lesson's two runs, and an old single run.
QList<RunRecord> someRuns()
{
    RunRecord lessonA = record(QStringLiteral("l1"), QStringLiteral("1 GPU x 128 — One neuron"), 30);
    RunRecord lessonB = record(QStringLiteral("l2"), QStringLiteral("8 GPUs x 16 — One neuron"), 29);
    lessonA.lessonId = lessonB.lessonId = QStringLiteral("seed000-four-ways");
    RunRecord stopped = studyRun(QStringLiteral("s3"), 2, 8);
    stopped.status = RunStatus::Cancelled;
    return {record(QStringLiteral("single"), QStringLiteral("4×16 · lr 0.001 linear adam · toy"), 1),
            stopped,
            studyRun(QStringLiteral("s2"), 1, 9),
            studyRun(QStringLiteral("s1"), 0, 10),
            lessonB,
            lessonA,
            record(QStringLiteral("old"), QStringLiteral("1×128 · lr 0.001 · toy"), 60 * 24 * 40)};
}

RunGroupTitles titles()
{
    RunGroupTitles titles;
    titles.studies.insert(QStringLiteral("batch-lr-1"), QStringLiteral("Batch against LR"));
    titles.lessons.insert(QStringLiteral("seed000-four-ways"), QStringLiteral("One neuron"));
    return titles;
}

}  // namespace

class TestRunList : public QObject {
    Q_OBJECT

private slots:
    void studiesAndLessonsAreGroupedNewestFirst()
    {
        RunListPanel panel;
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        QTreeWidget& tree = *panel.tree();
        // single, the study, the lesson, old: four rows where there were seven.
        QCOMPARE(tree.topLevelItemCount(), 4);
        QCOMPARE(panel.runCount(), 7);
        QTreeWidgetItem* study = panel.groupItem(QStringLiteral("study:batch-lr-1"));
        QTreeWidgetItem* lesson = panel.groupItem(QStringLiteral("lesson:seed000-four-ways"));
        QVERIFY(study && lesson);
        QCOMPARE(tree.indexOfTopLevelItem(panel.runItem(QStringLiteral("single"))), 0);
        QCOMPARE(tree.indexOfTopLevelItem(study), 1);
        QCOMPARE(tree.indexOfTopLevelItem(lesson), 2);
        QCOMPARE(tree.indexOfTopLevelItem(panel.runItem(QStringLiteral("old"))), 3);
        QCOMPARE(study->text(kName), QStringLiteral("Batch against LR · 3 runs"));
        QVERIFY2(study->toolTip(kName).contains(QStringLiteral("1 cancelled")), qPrintable(study->toolTip(kName)));
        // Inside: in the order they ran, named by the point (the study's title is the group's).
        QCOMPARE(study->childCount(), 3);
        QCOMPARE(study->child(0)->text(kName), QStringLiteral("batch 16 · lr 0.004"));
        QCOMPARE(study->child(2)->text(kName), QStringLiteral("batch 64 · lr 0.004"));
        QCOMPARE(study->child(2)->text(kStatus), QStringLiteral("cancelled"));
        QCOMPARE(lesson->child(0)->text(kName), QStringLiteral("1 GPU x 128"));
        QCOMPARE(lesson->child(1)->text(kName), QStringLiteral("8 GPUs x 16"));
        // A run of its own keeps its whole name.
        QCOMPARE(panel.runItem(QStringLiteral("single"))->text(kName), QStringLiteral("4×16 · lr 0.001 linear adam · toy"));
        // Closed until asked: a study does not flood the list.
        QVERIFY(!study->isExpanded());
        QVERIFY(!lesson->isExpanded());
    }

    void everyRowSaysRanksBatchLrAndOptimizer()
    {
        RunListPanel panel;
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        const QTreeWidgetItem* run = panel.runItem(QStringLiteral("s1"));
        QCOMPARE(run->text(kShape), QStringLiteral("4 × 16"));
        // lr 0.001 tuned for the batch per GPU (16), linear rule at 64: 0.004.
        QCOMPARE(run->text(kLr), QStringLiteral("0.004"));
        QCOMPARE(run->text(kOptimizer), QStringLiteral("adam"));
        // Today's runs by time; one of forty days ago by its date.
        QCOMPARE(run->text(kStarted).count(QLatin1Char(':')), 2);
        QVERIFY2(!panel.runItem(QStringLiteral("old"))->text(kStarted).isEmpty(), "no date");
        QCOMPARE(panel.tree()->headerItem()->text(kShape), QStringLiteral("Ranks × batch"));
    }

    void aShownRunOpensItsGroupAndTheGroupStaysOpen()
    {
        RunListPanel panel;
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        QTreeWidgetItem* lesson = panel.groupItem(QStringLiteral("lesson:seed000-four-ways"));
        panel.setShown(QStringLiteral("l2"), true);
        QVERIFY(lesson->isExpanded());
        QCOMPARE(panel.shownRunIds(), QStringList{QStringLiteral("l2")});
        // Read again from the store (a study ended): what was open and ticked stays so.
        panel.setRuns(someRuns());
        QVERIFY(panel.groupItem(QStringLiteral("lesson:seed000-four-ways"))->isExpanded());
        QVERIFY(!panel.groupItem(QStringLiteral("study:batch-lr-1"))->isExpanded());
        QCOMPARE(panel.shownRunIds(), QStringList{QStringLiteral("l2")});
        // Ticking a run emits it; the group row is no run.
        QSignalSpy shown(&panel, &RunListPanel::shownChanged);
        panel.runItem(QStringLiteral("s1"))->setCheckState(kName, Qt::Checked);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.first().first().value<RunRecord>().id, QStringLiteral("s1"));
    }

    void aNewRunOfAGroupJoinsItAndBringsItToTheTop()
    {
        RunListPanel panel;
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        RunRecord next = studyRun(QStringLiteral("s4"), 3, 0);
        next.status = RunStatus::Running;
        panel.updateRun(next);
        QTreeWidgetItem* study = panel.groupItem(QStringLiteral("study:batch-lr-1"));
        QCOMPARE(panel.tree()->indexOfTopLevelItem(study), 0);
        QCOMPARE(study->childCount(), 4);
        QCOMPARE(study->child(3)->data(kName, Qt::UserRole + 1).toString(), QStringLiteral("s4"));
        QCOMPARE(study->text(kName), QStringLiteral("Batch against LR · 4 runs, one running"));
        QCOMPARE(panel.runCount(), 8);
    }

    void selectingAGroupSelectsItsRuns()
    {
        RunListPanel panel;
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        panel.groupItem(QStringLiteral("study:batch-lr-1"))->setSelected(true);
        QStringList ids;
        for (const RunRecord& run : panel.selectedRuns())
            ids.append(run.id);
        ids.sort();
        QCOMPARE(ids, (QStringList{QStringLiteral("s1"), QStringLiteral("s2"), QStringLiteral("s3")}));
    }

    void theFilterFindsRunsInsideGroups()
    {
        RunListPanel panel;
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        auto* filter = panel.findChild<QLineEdit*>();
        filter->setText(QStringLiteral("8 GPUs"));
        QTreeWidgetItem* lesson = panel.groupItem(QStringLiteral("lesson:seed000-four-ways"));
        QVERIFY(!lesson->isHidden());
        QVERIFY(lesson->isExpanded());
        QVERIFY(lesson->child(0)->isHidden());
        QVERIFY(!lesson->child(1)->isHidden());
        QVERIFY(panel.groupItem(QStringLiteral("study:batch-lr-1"))->isHidden());
        QVERIFY(panel.runItem(QStringLiteral("single"))->isHidden());
        filter->setText(QStringLiteral("against"));  // the study's title: all of its runs
        QVERIFY(!panel.groupItem(QStringLiteral("study:batch-lr-1"))->isHidden());
        QVERIFY(!panel.runItem(QStringLiteral("s2"))->isHidden());
    }

    // At the width the Runs pane has on a 1280-pixel screen, the names are whole: the name
    // column takes what they need and the other columns scroll into view.
    void namesAreNotCutShort()
    {
        RunListPanel panel;
        panel.resize(288, 400);
        panel.setGroupTitles(titles());
        panel.setRuns(someRuns());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTreeWidget& tree = *panel.tree();
        const QTreeWidgetItem* single = panel.runItem(QStringLiteral("single"));
        const int needed = tree.fontMetrics().horizontalAdvance(single->text(kName));
        QVERIFY2(tree.columnWidth(kName) >= needed + tree.indentation(),
                 qPrintable(QStringLiteral("%1 < %2").arg(tree.columnWidth(kName)).arg(needed)));
        QCOMPARE(tree.header()->sectionResizeMode(kName), QHeaderView::Interactive);
        // The person's width stays.
        tree.header()->resizeSection(kName, 150);
        panel.updateRun(record(QStringLiteral("newer"), QStringLiteral("a much longer name than any before it, surely"), 0));
        QCOMPARE(tree.columnWidth(kName), 150);
    }

    void theStoreReadsEachRunsSettingsBack()
    {
        QTemporaryDir root;
        const RunStore store(root.path());
        RunRecord draft;
        draft.name = QStringLiteral("a run");
        draft.started = QDateTime::currentDateTime();
        QString error;
        const QJsonObject config{{QStringLiteral("world_size"), 2},     {QStringLiteral("batch_size"), 32},
                                 {QStringLiteral("grad_accum"), 2},     {QStringLiteral("lr"), 0.1},
                                 {QStringLiteral("lr_rule"), QStringLiteral("sqrt")}, {QStringLiteral("base_batch_size"), 32},
                                 {QStringLiteral("optimizer"), QStringLiteral("lamb")}};
        const std::optional<RunRecord> created = store.createRun(draft, coreConfigOf(config).value(), &error);
        QVERIFY2(created, qPrintable(error));
        QCOMPARE(created->settings.shapeText(), QStringLiteral("2 × 32 × 2"));
        const QList<RunRecord> listed = store.listRuns();
        QCOMPARE(listed.size(), 1);
        const RunSettings& settings = listed.first().settings;
        QCOMPARE(settings.shapeText(), QStringLiteral("2 × 32 × 2"));
        // Effective batch 128 against 32 tuned for: sqrt(4) = 2 times the LR.
        QCOMPARE(settings.effectiveLr, 0.2);
        QCOMPARE(settings.optimizer, QStringLiteral("lamb"));
        // A config the engine refuses says nothing rather than something wrong.
        QVERIFY(!runSettingsOf(QJsonObject{{QStringLiteral("world_size"), 0}}).isKnown());
    }
};

DDPLAB_UI_TEST_MAIN(TestRunList)
#include "tst_run_list.moc"
