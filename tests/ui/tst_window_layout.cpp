// SPDX-License-Identifier: GPL-3.0-or-later
// The window on the screens people have, and in front of a class: on a 1280 x 720 projector
// (the offscreen platform given that screen) it fits, nothing of it lies off-screen, no pane
// loses its title bar; a problem shows under its own field and hides no other; presentation
// mode takes the whole screen, enlarges every font at least 1.6 times, shows one chart large with
// the lesson beside it wide enough to read, and puts everything back; the experiment's fields
// are in sight on a first launch;
// a first launch offers a run that finishes in seconds and draws lines worth reading.

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "charts/run_model.hpp"
#include "client/runs/run_data.hpp"
#include "lessons/lesson_panel.hpp"
#include "runs/comparison_table.hpp"
#include "setup/parameter_panel.hpp"
#include "study/study_editor.hpp"
#include "study/study_page.hpp"
#include "support/window_launch.hpp"
#include "ui_test_main.hpp"
#include "window/lab_actions.hpp"
#include "window/chart_page.hpp"
#include "window/main_window.hpp"

#include <QComboBox>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QThread>
#include <QAbstractTextDocumentLayout>

#include <cmath>

using namespace ddplab::ui;
using ddplab::test::withEngine;

namespace {

// The font a dialog of `window` opens with: a window of its own takes the application's font for
// its class when it is polished (shown), not when it is made.
double dialogFontSize(QWidget& window)
{
    QDialog dialog(&window);
    dialog.ensurePolished();
    return dialog.font().pointSizeF();
}

constexpr int kPatienceMs = 60000;
const QSize kProjector(1280, 720);

// A first launch: nothing remembered from an earlier test.
void forgetSettings()
{
    QSettings().clear();
}

QRect inWindow(const QWidget& window, const QWidget& widget)
{
    return QRect(widget.mapTo(&window, QPoint(0, 0)), widget.size());
}

// Where the fonts of the lesson text, a chart's title and a field's label are, in points.
struct FontSizes {
    double lesson = 0, chartTitle = 0, field = 0;
};

FontSizes fontSizesOf(MainWindow& window)
{
    FontSizes sizes;
    if (auto* lesson = window.findChild<QTextBrowser*>())
        sizes.lesson = lesson->font().pointSizeF();
    if (!window.chartGrid()->panels().isEmpty())
        sizes.chartTitle = window.chartGrid()->panels().first()->font().pointSizeF();
    sizes.field = window.parameterPanel()->font().pointSizeF();
    return sizes;
}

}  // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT

private slots:
    void init() { forgetSettings(); }

    void fitsA1280x720Projector()
    {
        QCOMPARE(QGuiApplication::primaryScreen()->availableGeometry().size(), kProjector);
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(minimum.width() <= kProjector.width() && minimum.height() <= kProjector.height(),
                 qPrintable(QStringLiteral("the window needs at least %1 x %2").arg(minimum.width()).arg(minimum.height())));
        const QRect screen = QGuiApplication::primaryScreen()->availableGeometry();
        QVERIFY2(screen.contains(window.frameGeometry()),
                 qPrintable(QStringLiteral("the window lies at %1,%2 %3 x %4")
                                .arg(window.x()).arg(window.y()).arg(window.width()).arg(window.height())));
        const QRect inside(QPoint(0, 0), window.size());
        for (QDockWidget* dock : window.findChildren<QDockWidget*>()) {
            if (!dock->isVisible() || dock->visibleRegion().isEmpty())
                continue;  // a tab behind another
            const QRect title = inWindow(window, *dock).adjusted(0, 0, 0, -(dock->height() - 20));
            QVERIFY2(inside.contains(title), qPrintable(dock->windowTitle() + QStringLiteral("'s title bar is outside the window")));
            QVERIFY2(dock->width() >= dock->minimumSizeHint().width(), qPrintable(dock->windowTitle() + QStringLiteral(" is squeezed")));
        }
        QVERIFY2(inside.contains(inWindow(window, *window.statusBar())), "the status bar is outside the window");
        // The charts keep room to be read.
        QVERIFY2(window.chartGrid()->width() >= 400, qPrintable(QString::number(window.chartGrid()->width())));
    }

    // A newcomer's first Run: seed 000's noisy neuron on 4 ranks, long enough for every chart
    // to draw a line worth reading (640 steps), short enough to watch (seconds on a laptop).
    void aFirstLaunchOffersAShortRunWorthReading()
    {
        MainWindow window(withEngine());
        ParameterPanel& panel = *window.parameterPanel();
        QCOMPARE(panel.fieldText(QStringLiteral("workload")), QStringLiteral("toy"));
        QCOMPARE(panel.fieldText(QStringLiteral("world_size")), QStringLiteral("4"));
        QCOMPARE(panel.fieldText(QStringLiteral("batch_size")), QStringLiteral("16"));
        QCOMPARE(panel.fieldText(QStringLiteral("epochs")), QStringLiteral("40"));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(window.runModel().runs().size(), 1);
        const RunData& run = *window.runModel().runs().first().data;
        QVERIFY(run.hasSummary());
        QCOMPARE(run.stepCount(), qint64(640));
        // The weight moves from 1 towards 0 (lr 1e-3 over 640 steps): a line, not a dot.
        const QList<QPointF>& weight = run.series(QStringLiteral("w_mean"));
        QVERIFY(weight.size() == 640);
        QVERIFY2(weight.last().y() < weight.first().y() - 0.2, qPrintable(QString::number(weight.last().y())));
        QVERIFY(run.series(QStringLiteral("update_var")).size() == 640);
    }

    // On a projector's first launch the fields that define the experiment are in sight
    // without scrolling: ranks, batch, LR, its rule and the optimizer.
    void theExperimentsFieldsAreInSightOnAFirstLaunch()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(50);
        ParameterPanel& panel = *window.parameterPanel();
        auto* scroll = panel.findChild<QScrollArea*>();
        const QRect sight(scroll->viewport()->mapTo(&window, QPoint(0, 0)), scroll->viewport()->size());
        for (const char* key : {"world_size", "batch_size", "lr", "lr_rule", "optimizer"}) {
            QWidget* editor = panel.editor(QLatin1String(key));
            const QRect at(editor->mapTo(&window, QPoint(0, 0)), editor->size());
            QVERIFY2(sight.contains(at), qPrintable(QStringLiteral("%1 lies at %2 px, the Setup pane shows %3 to %4")
                                                        .arg(QLatin1String(key)).arg(at.top()).arg(sight.top()).arg(sight.bottom())));
        }
    }

    void aProblemShowsUnderItsOwnFieldAndHidesNone_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("next");
        QTest::addColumn<QString>("label");
        QTest::newRow("GPUs 999") << QStringLiteral("world_size") << QStringLiteral("999") << QStringLiteral("batch_size")
                                  << QStringLiteral("GPUs (ranks)");
        QTest::newRow("GPUs 20") << QStringLiteral("world_size") << QStringLiteral("200") << QStringLiteral("batch_size")
                                 << QStringLiteral("GPUs (ranks)");
        QTest::newRow("LR -1") << QStringLiteral("lr") << QStringLiteral("-1") << QStringLiteral("lr_rule")
                               << QStringLiteral("Base LR");
        QTest::newRow("LR abc") << QStringLiteral("lr") << QStringLiteral("abc") << QStringLiteral("lr_rule")
                                << QStringLiteral("Base LR");
    }

    void aProblemShowsUnderItsOwnFieldAndHidesNone()
    {
        QFETCH(QString, key);
        QFETCH(QString, text);
        QFETCH(QString, next);
        QFETCH(QString, label);
        ParameterPanel panel;
        panel.resize(360, 1400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const QRect nextBefore = QRect(panel.editor(next)->mapTo(&panel, QPoint(0, 0)), panel.editor(next)->size());
        panel.setFieldText(key, text);
        QTest::qWait(20);
        QVERIFY(panel.problems().contains(key));
        QVERIFY2(panel.isFieldShown(next), qPrintable(next + QStringLiteral(" was hidden")));
        QVERIFY(panel.editor(next)->isVisible());
        // The message sits under the field, between it and the next one, which moved down.
        const QLabel* message = nullptr;
        for (const QLabel* candidate : panel.findChildren<QLabel*>()) {
            if (candidate->isVisible() && candidate->text().startsWith(label + QStringLiteral(" must be")))
                message = candidate;
        }
        QVERIFY2(message, qPrintable(QStringLiteral("no message naming the field \"%1\"").arg(label)));
        const QRect messageAt(message->mapTo(&panel, QPoint(0, 0)), message->size());
        const QRect editorAt(panel.editor(key)->mapTo(&panel, QPoint(0, 0)), panel.editor(key)->size());
        const QRect nextAt(panel.editor(next)->mapTo(&panel, QPoint(0, 0)), panel.editor(next)->size());
        QVERIFY(messageAt.top() >= editorAt.bottom());
        QVERIFY(nextAt.top() >= messageAt.bottom());
        QVERIFY(nextAt.top() > nextBefore.top());
    }

    void presentationModeEnlargesAndPutsEverythingBack()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY(window.chartGrid()->panels().size() >= 3);
        QTest::qWait(50);
        // After a run, as at launch, the window needs no more than the screen: a few pixels more
        // (1285 on 1280) and leaving presentation could not give its docks back their widths.
        const int screenWidth = window.screen()->availableGeometry().width();
        QVERIFY2(window.minimumSizeHint().width() <= screenWidth,
                 qPrintable(QStringLiteral("the window needs %1 pixels of %2").arg(window.minimumSizeHint().width()).arg(screenWidth)));
        const FontSizes before = fontSizesOf(window);
        const QByteArray layoutBefore = window.saveState();
        const QRect geometryBefore = window.geometry();
        QDockWidget* setup = window.findChild<QDockWidget*>(QStringLiteral("setupDock"));
        QDockWidget* log = window.findChild<QDockWidget*>(QStringLiteral("logDock"));
        QVERIFY(setup->isVisible() && log->isVisible());

        QMenu* menu = window.findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        QVERIFY(menu);
        const double menuBefore = menu->font().pointSizeF();
        const double dialogBefore = dialogFontSize(window);
        window.actions().presentation->trigger();  // F11
        QVERIFY(window.isPresenting());
        const FontSizes presenting = fontSizesOf(window);
        // Menus and dialogs are windows of their own: enlarged as well, so the back row reads them.
        QVERIFY2(std::fabs(menu->font().pointSizeF() - 1.6 * menuBefore) < 0.05, qPrintable(QString::number(menu->font().pointSizeF())));
        QVERIFY2(std::fabs(dialogFontSize(window) - 1.6 * dialogBefore) < 0.05, qPrintable(QString::number(dialogFontSize(window))));
        QVERIFY2(presenting.lesson >= 1.6 * before.lesson - 0.01, qPrintable(QString::number(presenting.lesson)));
        QVERIFY2(presenting.field >= 1.6 * before.field - 0.01, qPrintable(QString::number(presenting.field)));
        ChartPanel* large = window.chartGrid()->enlarged();
        QVERIFY(large);
        QVERIFY(large->font().pointSizeF() >= 1.6 * before.chartTitle - 0.01);
        QVERIFY(large->lineScale() >= 1.6);
        QVERIFY(!setup->isVisible() && !log->isVisible());
        // The whole screen, no title bar; the Runs list away, the lesson wide enough to read. The
        // screen's geometry whether or not a window manager gave it (a bare Xvfb has none).
        QVERIFY(window.windowState() & Qt::WindowFullScreen);
        QTRY_COMPARE(window.geometry(), window.screen()->geometry());
        QVERIFY(!window.findChild<QDockWidget*>(QStringLiteral("runsDock"))->isVisible());
        QDockWidget* lesson = window.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
        QTRY_VERIFY2(lesson->isVisible() && lesson->width() >= window.width() * 3 / 10, qPrintable(QString::number(lesson->width())));
        // The others stay, small, as thumbnails below the chosen one, their plots without axis
        // titles or notes (so the tick labels have room).
        for (ChartPanel* panel : window.chartGrid()->panels()) {
            QVERIFY(panel->isVisible());
            QCOMPARE(panel->isCompact(), panel != large);
            if (panel != large)
                QVERIFY(panel->height() < large->height());
        }

        window.actions().leavePresentation->trigger();  // Esc
        QVERIFY(!window.isPresenting());
        const FontSizes after = fontSizesOf(window);
        QCOMPARE(after.lesson, before.lesson);
        QCOMPARE(menu->font().pointSizeF(), menuBefore);
        QCOMPARE(dialogFontSize(window), dialogBefore);
        QCOMPARE(after.field, before.field);
        QCOMPARE(window.chartGrid()->panels().first()->font().pointSizeF(), before.chartTitle);
        QVERIFY(setup->isVisible() && log->isVisible());
        QVERIFY(!(window.windowState() & Qt::WindowFullScreen));
        QTRY_COMPARE(window.geometry(), geometryBefore);
        QCOMPARE(window.chartGrid()->enlarged(), nullptr);
        for (ChartPanel* panel : window.chartGrid()->panels())
            QVERIFY(!panel->isCompact());
        QTRY_COMPARE(window.saveState(), layoutBefore);  // once the window has its size back
    }

    void aClassCanStartInPresentationMode()
    {
        LaunchOptions options = withEngine();
        options.present = true;  // ddplab --present
        MainWindow window(options);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.isPresenting());
        QVERIFY(!window.findChild<QDockWidget*>(QStringLiteral("setupDock"))->isVisible());
        // The charts come with the first run: one of them large, the others thumbnails.
        QCOMPARE(window.chartGrid()->enlarged(), nullptr);
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY(window.chartGrid()->enlarged());
        QCOMPARE(window.chartGrid()->enlarged(), window.chartGrid()->panels().first());
    }

    // Every lesson start puts its own lead chart large and its own x axis, whatever the lesson
    // before left: the chart the teacher had enlarged and the axis it counted along.
    void aLessonStartsWithItsLeadChartAndItsAxis()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startLesson(QStringLiteral("seed000-linear-rule"));
        QVERIFY(done.wait(kPatienceMs));
        ChartGrid* grid = window.chartGrid();
        QCOMPARE(grid->enlarged(), grid->panel(QStringLiteral("weight")));  // its lead: w
        QCOMPARE(grid->xAxis(), XAxis::SamplesSeen);
        ChartPanel* lr = grid->panel(QStringLiteral("lr"));
        emit lr->enlargeRequested(lr);  // the teacher looks at the LR a while
        QCOMPARE(grid->enlarged(), lr);
        window.startLesson(QStringLiteral("seed004-sgd-scaling"));
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(grid->enlarged(), grid->panel(QStringLiteral("loss")));  // this lesson's lead, not the LR
        QCOMPARE(grid->xAxis(), XAxis::Step);                              // its axis, not samples seen
        // The thumbnails: their titles at the enlarged chart's font, no tick labels smaller than it.
        QVERIFY(grid->panels().size() == 3);
        for (ChartPanel* panel : grid->panels()) {
            if (panel == grid->enlarged())
                continue;
            QVERIFY(panel->isCompact());
            QVERIFY(!panel->tickLabelsShown());
            QVERIFY2(panel->font().pointSizeF() >= grid->enlarged()->font().pointSizeF() - 0.01,
                     qPrintable(QString::number(panel->font().pointSizeF())));
        }
        // Out of presentation, a lesson shows all its charts, its lead first.
        window.setPresentationMode(false);
        window.startLesson(QStringLiteral("seed000-linear-rule"));
        QVERIFY(done.wait(kPatienceMs));
        QCOMPARE(grid->enlarged(), nullptr);
        QCOMPARE(grid->panels().first(), grid->panel(QStringLiteral("weight")));
    }

    // Each lesson says how long it takes, in the Lessons menu and on its Run button, from the one
    // estimator (here, with no runs stored yet, at the development machine's speed).
    void everyLessonSaysHowLongItTakes()
    {
        MainWindow window(withEngine());
        QMenu* lessons = window.findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        QVERIFY(lessons);
        emit lessons->aboutToShow();
        const QRegularExpression duration(QStringLiteral("\\(about \\d+ (s|min)\\)$"));
        int entries = 0;
        for (QAction* entry : lessons->actions()) {
            if (entry->data().toString().isEmpty())
                continue;
            ++entries;
            QVERIFY2(duration.match(entry->text()).hasMatch(), qPrintable(entry->text()));
        }
        QVERIFY(entries >= 13);  // the thirteen of the seeds, and any added since
        auto* panel = window.findChild<LessonPanel*>();
        panel->selectLesson(QStringLiteral("seed003-warmup"));
        QVERIFY2(panel->runButtonText().startsWith(QStringLiteral("Run all 2 runs · about ")), qPrintable(panel->runButtonText()));
    }

    // Predict first: a lesson's charts stay under its question and its pane says neither what to
    // look for nor the explanation until F9 reveals them; the runs go on beneath.
    void predictFirstHidesTheOutcomeUntilRevealed()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.actions().predictFirst->setChecked(true);
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startLesson(QStringLiteral("seed000-linear-rule"));
        auto* panel = window.findChild<LessonPanel*>();
        const QString hidden = panel->text()->toPlainText();
        QVERIFY(window.chartPage()->isCovered());
        QVERIFY2(hidden.contains(QStringLiteral("Predict first")) && hidden.contains(QStringLiteral("0.9840")), qPrintable(hidden));
        QVERIFY2(!hidden.contains(QStringLiteral("both end at w")) && !hidden.contains(QStringLiteral("2 big steps")), qPrintable(hidden));
        QVERIFY(window.actions().reveal->isEnabled());
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY(window.chartPage()->isCovered());  // the runs ended beneath the question
        QTest::keyClick(&window, Qt::Key_F9);
        QVERIFY(!window.chartPage()->isCovered());
        const QString shown = panel->text()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("What to look for")) && shown.contains(QStringLiteral("2 big steps")), qPrintable(shown));
        QVERIFY(!window.actions().reveal->isEnabled());
        // Off, a lesson shows at once.
        window.actions().predictFirst->setChecked(false);
        window.startLesson(QStringLiteral("seed000-linear-rule"));
        QVERIFY(!window.chartPage()->isCovered());
        QVERIFY(done.wait(kPatienceMs));
    }

    // A lesson whose ranks outnumber the cores says so first, under its title: at 1280 x 720 in
    // presentation mode the note is in sight without scrolling.
    void aLessonsNoteAboutThisComputerIsInSight()
    {
        if (QThread::idealThreadCount() >= 4)
            QSKIP("this computer has a core for each of the throughput lesson's ranks: it has no note");
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        auto* panel = window.findChild<LessonPanel*>();
        panel->selectLesson(QStringLiteral("seed003-throughput"));
        QTest::qWait(50);
        const QTextDocument* document = panel->text()->document();
        const QTextCursor note = document->find(QStringLiteral("On this computer"));
        QVERIFY(!note.isNull());
        const QRectF where = document->documentLayout()->blockBoundingRect(note.block());
        QVERIFY2(where.bottom() <= panel->text()->viewport()->height(),
                 qPrintable(QStringLiteral("the note ends at %1, the pane shows %2").arg(where.bottom()).arg(panel->text()->viewport()->height())));
        window.setPresentationMode(false);
    }

    // Inline code in a lesson's text is as large as the words around it, in presentation too.
    void inlineCodeIsAtTextSize()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* panel = window.findChild<LessonPanel*>();
        QVERIFY(panel);
        panel->selectLesson(QStringLiteral("seed000-linear-rule"));  // "Suppose `lr = 1e-3` is right…"
        for (bool presenting : {false, true}) {
            window.setPresentationMode(presenting);
            QCoreApplication::processEvents();
            const QTextDocument* document = panel->text()->document();
            int codeFragments = 0;
            for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
                for (auto it = block.begin(); !it.atEnd(); ++it) {
                    const QTextCharFormat format = it.fragment().charFormat();
                    if (!format.fontFixedPitch())
                        continue;
                    ++codeFragments;
                    QVERIFY2(std::fabs(format.font().pointSizeF() - panel->text()->font().pointSizeF()) < 0.01,
                             qPrintable(QStringLiteral("%1: %2 pt against %3 pt").arg(it.fragment().text()).arg(format.font().pointSizeF()).arg(panel->text()->font().pointSizeF())));
                }
            }
            QVERIFY(codeFragments >= 2);
        }
        window.setPresentationMode(false);
    }

    // Three runs side by side on the Compare page of a 1280 x 720 window: every run's column
    // at least as wide as its figures, its name whole (wrapped at its words), nothing scrolled.
    void compareFitsThreeRuns()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startLesson(QStringLiteral("seed000-update-variance"));
        QVERIFY(done.wait(kPatienceMs));
        auto* compare = window.findChild<ComparisonTable*>();
        QVERIFY(compare);
        window.pages()->setCurrentWidget(compare);
        QCoreApplication::processEvents();
        QTableWidget* table = compare->table();
        QCOMPARE(table->columnCount(), 3);
        for (bool presenting : {false, true}) {  // and in front of a class, at 1.6 times the font
        window.setPresentationMode(presenting);
        QCoreApplication::processEvents();
        QVERIFY(table->horizontalHeaderItem(0)->font().pointSizeF() >= table->font().pointSizeF() - 0.01);
        int total = 0;
        for (int column = 0; column < 3; ++column) {
            const int width = compare->columnWidth(column);
            total += width;
            const QFontMetrics metrics(table->horizontalHeaderItem(column)->font());
            for (const QString& line : compare->headerLines(column))
                QVERIFY2(metrics.horizontalAdvance(line) <= width, qPrintable(QStringLiteral("%1 in %2 px").arg(line).arg(width)));
            QString label = window.runModel().runs().at(column).label;
            QCOMPARE(compare->headerLines(column).join(QLatin1Char(' ')).remove(QLatin1Char(' ')),
                     label.remove(QStringLiteral(" · ")).remove(QLatin1Char(' ')).remove(QLatin1Char(',')));
            // Every figure whole on one line; a note of why there is none wraps in its cell.
            for (int row = 0; row < table->rowCount(); ++row) {
                const QTableWidgetItem* item = table->item(row, column);
                const QFontMetrics itemMetrics(item->font());
                if (item->font().italic() && itemMetrics.horizontalAdvance(item->text()) > width)
                    QVERIFY2(table->rowHeight(row) >= 2 * itemMetrics.lineSpacing() - 2,
                             qPrintable(QStringLiteral("%1: row %2 px (presenting: %3)").arg(item->text()).arg(table->rowHeight(row)).arg(presenting)));
                else if (item->font().italic())
                    continue;
                else
                    QVERIFY2(QFontMetrics(item->font()).horizontalAdvance(item->text()) < width, qPrintable(item->text()));
            }
        }
        QVERIFY2(total <= table->viewport()->width() + 3, qPrintable(QStringLiteral("%1 of %2 px").arg(total).arg(table->viewport()->width())));
        QVERIFY2(compare->columnWidth(2) >= 80, qPrintable(QString::number(compare->columnWidth(2))));
        }
        window.setPresentationMode(false);
    }

    // A study of one's own at 1280 x 720: its axes' values have room to be read and typed
    // (they had about 40 px beside a fixed-width key and condition).
    void aStudysValuesHaveRoom()
    {
        MainWindow window(withEngine());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        StudyPage* page = window.studyPage();
        window.pages()->setCurrentWidget(page);
        auto* source = page->findChild<QComboBox*>(QStringLiteral("studySource"));
        const int own = source->findData(QStringLiteral(":setup"));
        source->setCurrentIndex(own);
        emit source->activated(own);
        auto* axes = page->editor()->findChild<QTableWidget*>();
        QVERIFY(axes);
        QTRY_VERIFY2(axes->columnWidth(1) >= 90, qPrintable(QString::number(axes->columnWidth(1))));
    }

    void anyChartEnlargesAndComesBack()
    {
        MainWindow window(withEngine());
        window.show();
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.startRun();
        QVERIFY(done.wait(kPatienceMs));
        ChartGrid* grid = window.chartGrid();
        QVERIFY(grid->panels().size() >= 2);
        ChartPanel* second = grid->panels().at(1);
        emit second->enlargeRequested(second);  // the title's double-click, or its button
        QCOMPARE(grid->enlarged(), second);
        for (ChartPanel* panel : grid->panels())
            QCOMPARE(panel->isVisible(), panel == second);
        emit second->enlargeRequested(second);
        QCOMPARE(grid->enlarged(), nullptr);
        for (ChartPanel* panel : grid->panels())
            QVERIFY(panel->isVisible());
    }
};

// On a 1280 x 720 screen of the offscreen platform (its size is read from a config file).
int main(int argc, char* argv[])
{
    ddplab::test::IsolatedUserFolders isolatedFolders;
    const QString config = isolatedFolders.path() + QStringLiteral("/screen.json");
    QFile screen(config);
    if (screen.open(QIODevice::WriteOnly))
        screen.write(R"({"screens":[{"name":"projector","x":0,"y":0,"width":1280,"height":720,"logicalDpi":96,"logicalBaseDpi":96,"dpr":1}]})");
    screen.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(config));
    QApplication application(argc, argv);
    ddplab::ui::setLabIdentity();
    TestWindowLayout test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_window_layout.moc"
