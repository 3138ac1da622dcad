// SPDX-License-Identifier: GPL-3.0-or-later
// The window's Study page: a built-in study shows its run count before it starts; an axis typed
// wrongly is named in the plan line and Run study stays off; a small study run from the page
// fills its charts, keeps the window's Run off while it runs, shows in "Studies run before",
// and puts its runs on the chart page, grouped in the Runs list; stopped, it says so and
// resumes; its builder's choosers ignore a wheel that only passes over them, and its column is
// never cut at its right edge, nor its axes table's headers, choosers and values in presentation
// mode, nor the results' choosers at 1280 x 720 and 1920 x 1080; axes carry the Setup pane's labels.

#include "charts/run_model.hpp"
#include "client/runs/run_data.hpp"
#include "client/session/lab_session.hpp"
#include "runs/run_list_panel.hpp"
#include "study/study_editor.hpp"
#include "study/study_page.hpp"
#include "study/study_points_table.hpp"
#include "study/study_results_view.hpp"
#include "study/wrapping_combo_box.hpp"
#include "ui_test_main.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/main_window.hpp"

#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSplitter>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTableWidget>
#include <QTabWidget>
#include <QTreeWidget>
#include <QWheelEvent>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 120000;

const QByteArray kSmallStudy = R"({"id": "small", "title": "Small",
    "base": {"workload": "toy", "num_examples": 64, "experiments": 10, "batch_size": 8, "epochs": 1, "noise": 1},
    "axes": [{"key": "world_size", "values": [1, 2]}, {"key": "lr_rule", "values": ["none", "linear"]}]})";

// kSmallStudy as a study file in `dir`; "" when it could not be written.
QString smallStudyFile(const QTemporaryDir& dir)
{
    const QString file = dir.filePath(QStringLiteral("small.json"));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(kSmallStudy) != kSmallStudy.size())
        return QString();
    return file;
}

}  // namespace

class TestStudyPage : public QObject {
    Q_OBJECT

private slots:
    void aBuiltInStudySaysHowManyRunsBeforeItStarts()
    {
        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY(page->chooseStudy(QStringLiteral("seed000-variance-curve"), &error));
        QVERIFY2(page->planText().startsWith(QStringLiteral("21 run")), qPrintable(page->planText()));
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("runStudy"))->isEnabled());
        QVERIFY(!page->chooseStudy(QStringLiteral("no-such-study"), &error));
        QVERIFY2(error.contains(QStringLiteral("seed000-variance-curve")), qPrintable(error));  // the list of built-in ones
    }

    // A study of one's own starts afresh: not with the axes of the study shown before (a
    // built-in's model files, refused for the Setup pane's workload), but with the batch and the
    // rules, which plan without an error.
    // At 1280x720 the page has about 700 px between Setup and the Lesson pane: the line under
    // the buttons ("<a long study's title>" has not run here yet) on one line kept it 900 px wide
    // under Xvfb, squeezing the Lesson pane to 40 px. It wraps instead.
    void aLongStudyTitleLeavesThePageNarrow()
    {
        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY(page->chooseStudy(QStringLiteral("critical-batch"), &error));
        const auto* progress = page->findChild<QLabel*>(QStringLiteral("studyProgress"));
        QVERIFY(progress->text().contains(QStringLiteral("has not run here yet")));
        const int oneLine = progress->fontMetrics().horizontalAdvance(progress->text());
        QVERIFY2(progress->minimumSizeHint().width() < oneLine / 3,
                 qPrintable(QStringLiteral("%1 of %2 px").arg(progress->minimumSizeHint().width()).arg(oneLine)));
        QVERIFY2(page->minimumSizeHint().width() <= 760, qPrintable(QString::number(page->minimumSizeHint().width())));
    }

    void aStudyOfOnesOwnStartsAfresh()
    {
        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY(page->chooseStudy(QStringLiteral("own-models-best-lr"), &error));
        QVERIFY(page->editor()->axisCount() > 2);
        auto* source = page->findChild<QComboBox*>(QStringLiteral("studySource"));
        QVERIFY(source);
        const int own = source->findData(QStringLiteral(":setup"));
        source->setCurrentIndex(own);
        emit source->activated(own);  // as a person's choice in the list
        QCOMPARE(page->editor()->axisCount(), 2);
        QVERIFY2(page->planText().contains(QStringLiteral("run")) && !page->planText().contains(QStringLiteral("model_file")),
                 qPrintable(page->planText()));
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("runStudy"))->isEnabled());
    }

    void aWronglyTypedAxisIsNamedAndNothingCanStart()
    {
        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY(page->chooseStudy(QStringLiteral("seed000-variance-curve"), &error));
        page->editor()->addAxis(QStringLiteral("lr"), QStringLiteral("0.1 .. 0.5"));
        QVERIFY2(page->planText().contains(QStringLiteral("Axis 3")) && page->planText().contains(QStringLiteral("x2")),
                 qPrintable(page->planText()));
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("runStudy"))->isEnabled());
        QVERIFY(!page->runStudy(true));
    }

    void aSmallStudyRunsFromThePage()
    {
        QTemporaryDir dir;
        const QString file = smallStudyFile(dir);
        QVERIFY(!file.isEmpty());

        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY2(page->chooseStudy(file, &error), qPrintable(error));
        QVERIFY2(page->planText().startsWith(QStringLiteral("4 run")), qPrintable(page->planText()));
        // The chooser names the study the page shows: the file's, not a built-in one.
        const QComboBox* source = page->findChild<QComboBox*>(QStringLiteral("studySource"));
        QVERIFY(source);
        QCOMPARE(source->currentData().toString(), QFileInfo(file).absoluteFilePath());
        QVERIFY2(source->currentText().endsWith(QStringLiteral("(file %1)").arg(QFileInfo(file).fileName())), qPrintable(source->currentText()));
        QSignalSpy running(page, &StudyPage::studyEnded);
        QVERIFY(page->runStudy(true));
        QVERIFY(page->isRunning());
        QVERIFY(!window.actions().run->isEnabled());  // one thing at a time
        QVERIFY(window.actions().stop->isEnabled());
        // The study is a sequence of the window's one session, not of a session of its own.
        QVERIFY(window.session()->isRunning());
        QCOMPARE(window.session()->count(), 4);
        QVERIFY(running.wait(kPatienceMs) || !page->isRunning());
        while (page->isRunning())
            QVERIFY(running.wait(kPatienceMs));
        QVERIFY2(page->progressText().contains(QStringLiteral("4 of 4 runs done")), qPrintable(page->progressText()));
        QVERIFY(window.actions().run->isEnabled());
        // The Log shows each line once (the session's lines reached it twice during a study).
        const QStringList logLines = window.log()->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(logLines.size() >= 4);
        for (qsizetype i = 1; i < logLines.size(); ++i)
            QVERIFY2(logLines[i] != logLines[i - 1], qPrintable(QStringLiteral("written twice: ") + logLines[i]));
        QVERIFY(page->currentStudy().has_value());
        QCOMPARE(page->currentStudy()->points.size(), 4);
        QVERIFY(!page->results()->chartTitles().isEmpty());
        QCOMPARE(page->results()->charts().plots.first().lines.size(), 2);  // none and linear
        // Only what the runs measured is offered: a toy study has no validation accuracy.
        QVERIFY(page->results()->figureChoices().contains(QStringLiteral("loss")));
        QVERIFY2(!page->results()->figureChoices().contains(QStringLiteral("val_accuracy")),
                 qPrintable(page->results()->figureChoices().join(QLatin1Char(' '))));
        const auto* past = page->findChild<QListWidget*>(QStringLiteral("pastStudies"));
        QCOMPARE(past->count(), 1);
        QVERIFY2(past->item(0)->text().contains(QStringLiteral("all 4 runs done")), qPrintable(past->item(0)->text()));

        // Nothing left to resume.
        auto* resume = page->findChild<QPushButton*>(QStringLiteral("resumeStudy"));
        QVERIFY(!resume->isEnabled());
        QVERIFY2(resume->toolTip().contains(QStringLiteral("Every run of this study is done")), qPrintable(resume->toolTip()));
        // In the Runs list: one row for the study, its four runs in it, named by their point.
        QTreeWidgetItem* group = window.runList()->groupItem(QStringLiteral("study:") + page->currentStudy()->id);
        QVERIFY(group);
        QCOMPARE(group->childCount(), 4);
        QCOMPARE(group->text(0), QStringLiteral("Small · 4 runs"));
        QCOMPARE(group->child(0)->text(0), page->currentStudy()->points.first().displayLabel());  // Setup's words

        page->findChild<QPushButton*>(QStringLiteral("showRuns"))->click();
        QCOMPARE(window.runModel().runs().size(), 4);

        // Exported into a folder that does not exist yet: it is made.
        const QString target = dir.filePath(QStringLiteral("exports/small study"));
        QVERIFY(page->exportTo(target, ImageFormat{QSize(400, 300), 1.0}, &error));
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/study.csv")));
        QVERIFY(QFileInfo::exists(target + QStringLiteral("/findings.txt")));

        // Another study chosen: the right side is that one's, never Small's (its charts, its 4
        // runs, Export… and Show runs acting on it): not run here yet, nothing to export, and only
        // the figures its settings can have (a toy study of 2 ranks and more has no accuracy).
        QVERIFY(page->chooseStudy(QStringLiteral("seed000-variance-curve"), &error));
        QVERIFY(!page->currentStudy().has_value());
        QCOMPARE(page->results()->pointsTable()->rowCount(), 0);
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("exportStudy"))->isEnabled());
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("showRuns"))->isEnabled());
        QVERIFY2(page->progressText().contains(QStringLiteral("has not run here yet")), qPrintable(page->progressText()));
        QVERIFY(!page->exportTo(dir.filePath(QStringLiteral("nothing")), ImageFormat{QSize(400, 300), 1.0}, &error));
        const QStringList offered = page->results()->figureChoices();
        QVERIFY2(offered.contains(QStringLiteral("update_var")) && offered.contains(QStringLiteral("w_mean")) &&
                     !offered.contains(QStringLiteral("val_accuracy")) && !offered.contains(QStringLiteral("accuracy")) &&
                     !offered.contains(QStringLiteral("steps_to_target")),
                 qPrintable(offered.join(QLatin1Char(' '))));
        // Back to the file's study: its runs again.
        QVERIFY(page->chooseStudy(file, &error));
        QVERIFY(page->currentStudy().has_value());
        QCOMPARE(page->currentStudy()->spec.id, QStringLiteral("small"));
        QCOMPARE(page->results()->pointsTable()->rowCount(), 4);
        QVERIFY(page->findChild<QPushButton*>(QStringLiteral("exportStudy"))->isEnabled());
    }

    // Stopped halfway, the page says it was stopped (not that runs failed), and Resume is
    // ready for the study without choosing it first; resumed to the end, it has nothing left.
    void aStoppedStudySaysSoAndResumesFromWhereItStopped()
    {
        QTemporaryDir dir;
        const QString file = smallStudyFile(dir);
        QVERIFY(!file.isEmpty());
        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY2(page->chooseStudy(file, &error), qPrintable(error));
        // The toolbar's Stop, as the second of the four runs starts.
        QMetaObject::Connection stopper = connect(window.session(), &LabSession::runStarted, &window, [&](int index) {
            if (index == 1)
                window.stopRun();
        });
        QVERIFY(page->runStudy(true));
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), kPatienceMs);
        disconnect(stopper);
        QVERIFY2(page->progressText().contains(QStringLiteral("stopped; Resume runs the other")), qPrintable(page->progressText()));
        QVERIFY2(!page->progressText().contains(QStringLiteral("succeeded")), qPrintable(page->progressText()));
        // Shown again from the past studies, the line speaks of that study as stored, not of
        // the last thing that ran.
        auto* past = page->findChild<QListWidget*>(QStringLiteral("pastStudies"));
        past->setCurrentRow(0);
        Q_EMIT past->itemDoubleClicked(past->item(0));
        QVERIFY2(page->progressText().contains(QStringLiteral(" of 4 runs of this study done")), qPrintable(page->progressText()));
        auto* resume = page->findChild<QPushButton*>(QStringLiteral("resumeStudy"));
        QVERIFY(resume->isEnabled());  // no click on the list first
        resume->click();
        QVERIFY(page->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), kPatienceMs);
        QVERIFY2(page->progressText().contains(QStringLiteral("runs done")), qPrintable(page->progressText()));
        QVERIFY2(!page->progressText().contains(QStringLiteral("stopped")), qPrintable(page->progressText()));
        QVERIFY(!resume->isEnabled());
    }

    // Scrolling the builder passes over the batch split, the repeats, the target and each
    // axis's key: none of them changes unless it has the focus.
    void theWheelChangesNoUnfocusedChooserOfTheBuilder()
    {
        MainWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        StudyPage* page = window.studyPage();
        window.pages()->setCurrentWidget(page);
        QString error;
        QVERIFY(page->chooseStudy(QStringLiteral("seed000-variance-curve"), &error));
        const QJsonObject before = page->editor()->studyJson();
        QList<QWidget*> choosers;
        for (QComboBox* combo : page->findChildren<QComboBox*>())
            choosers.append(combo);
        for (QAbstractSpinBox* spin : page->editor()->findChildren<QAbstractSpinBox*>())
            choosers.append(spin);
        int wheeled = 0;
        for (QWidget* chooser : choosers) {
            if (!chooser->isVisible() || chooser->hasFocus() || page->results()->isAncestorOf(chooser))
                continue;
            for (const int delta : {-120, 120}) {
                const QPointF at(chooser->width() / 2.0, chooser->height() / 2.0);
                QWheelEvent event(at, chooser->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                                  Qt::NoScrollPhase, false);
                QCoreApplication::sendEvent(chooser, &event);
            }
            ++wheeled;
        }
        QVERIFY2(wheeled >= 5, qPrintable(QString::number(wheeled)));  // the source, an axis key, the split, ranks, repeats, ...
        QCOMPARE(page->editor()->studyJson(), before);
    }

    // The builder's column squeezed to its least still shows all it holds: at a fixed least of
    // 260 px the builder was wider than its column, which cut the study chooser's arrow and
    // every line of the study's description mid-word (1280 x 720 and presentation mode).
    void theBuilderIsNeverCutAtItsRightEdge()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (QDockWidget* pane : window.findChildren<QDockWidget*>())
            pane->hide();  // the offscreen screen is 800 pixels wide
        StudyPage* page = window.studyPage();
        window.pages()->setCurrentWidget(page);
        QString error;
        QVERIFY(page->chooseStudy(QStringLiteral("critical-batch"), &error));
        auto* column = page->findChild<QScrollArea*>(QStringLiteral("studyBuilderColumn"));
        QVERIFY(column);
        QSplitter* splitter = nullptr;
        for (QWidget* above = column->parentWidget(); above && !splitter; above = above->parentWidget())
            splitter = qobject_cast<QSplitter*>(above);
        QVERIFY(splitter);
        splitter->setSizes({1, 100000});  // the column at its least
        const auto cut = [column] {
            const int edge = column->viewport()->width();
            QStringList cut;
            if (column->widget()->width() > edge)
                cut << QStringLiteral("the builder is %1 px wide in %2").arg(column->widget()->width()).arg(edge);
            for (QComboBox* combo : column->widget()->findChildren<QComboBox*>()) {
                const int right = combo->mapTo(column->viewport(), QPoint(combo->width(), 0)).x();
                if (combo->isVisible() && right > edge)
                    cut << QStringLiteral("a chooser ends at %1 of %2").arg(right).arg(edge);
            }
            return cut.join(QStringLiteral("; "));
        };
        QTRY_VERIFY2(cut().isEmpty(), qPrintable(cut()));
    }

    // Presenting on a projector (the fonts 1.6 times), the axes table shows each header, each
    // axis's chooser and its values whole: at the builder's least width its headers read "/alues or range" and
    // "nly whe" (a section narrower than its text, the text centred and cut at both ends) and
    // the optimizers "sgd, …".
    void theAxesTableIsWholeWhilePresenting_data()
    {
        QTest::addColumn<QSize>("screenSize");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("1920x1080") << QSize(1920, 1080);
    }

    void theAxesTableIsWholeWhilePresenting()
    {
        QFETCH(QSize, screenSize);
        QScreen* projector = nullptr;
        for (QScreen* screen : QGuiApplication::screens())
            if (screen->size() == screenSize)
                projector = screen;
        QVERIFY2(projector, "no such screen: the suite runs on tests/ui/data/offscreen-screens.json (tests/ui/CMakeLists.txt)");
        MainWindow window;
        window.setScreen(projector);
        window.move(projector->geometry().topLeft());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setPresentationMode(true);
        StudyPage* page = window.studyPage();
        window.pages()->setCurrentWidget(page);
        QString error;
        QVERIFY2(page->chooseStudy(QStringLiteral("sgd-vs-adam-best-lr"), &error), qPrintable(error));
        auto* axes = page->findChild<QTableWidget*>(QStringLiteral("studyAxes"));
        QVERIFY(axes);
        QCOMPARE(axes->rowCount(), 3);
        const auto cut = [&window, projector, axes] {
            QStringList cut;
            if (window.geometry() != projector->geometry())
                cut << QStringLiteral("the window is at %1,%2 %3 x %4, not on the projector's whole screen")
                           .arg(window.x())
                           .arg(window.y())
                           .arg(window.width())
                           .arg(window.height());
            if (window.minimumSizeHint().width() > projector->size().width())
                cut << QStringLiteral("the window needs %1 px of the screen's %2").arg(window.minimumSizeHint().width()).arg(projector->size().width());
            const QHeaderView* header = axes->horizontalHeader();
            const int margins = 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
            for (int column = 0; column < axes->columnCount(); ++column) {
                const QString text = axes->horizontalHeaderItem(column)->text();
                const int needs = header->fontMetrics().size(0, text).width() + margins;  // its widest line
                if (header->sectionSize(column) < needs)
                    cut << QStringLiteral("\"%1\" needs %2 px in a section of %3").arg(text).arg(needs).arg(header->sectionSize(column));
                if (header->sectionViewportPosition(column) + header->sectionSize(column) > axes->viewport()->width())
                    cut << QStringLiteral("\"%1\" ends past the table's right edge").arg(text);
            }
            for (int row = 0; row < axes->rowCount(); ++row) {
                const auto* chooser = qobject_cast<QComboBox*>(axes->cellWidget(row, 0));
                QStyleOptionComboBox option;
                option.initFrom(chooser);
                const QRect field = chooser->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, chooser);
                if (field.width() < chooser->fontMetrics().horizontalAdvance(chooser->currentText()))
                    cut << QStringLiteral("the chooser \"%1\" shows %2 px of its text's %3")
                               .arg(chooser->currentText())
                               .arg(field.width())
                               .arg(chooser->fontMetrics().horizontalAdvance(chooser->currentText()));
                const QTableWidgetItem* values = axes->item(row, 1);
                const int margin = axes->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, axes) + 1;  // the style's
                const QRect cell = axes->visualRect(axes->indexFromItem(values)).adjusted(margin, 0, -margin, 0);
                const QRect needs = axes->fontMetrics().boundingRect(cell, Qt::AlignLeft | Qt::TextWordWrap, values->text());
                if (needs.width() > cell.width() || needs.height() > cell.height())
                    cut << QStringLiteral("\"%1\" needs %2 x %3 px in a cell of %4 x %5")
                               .arg(values->text())
                               .arg(needs.width())
                               .arg(needs.height())
                               .arg(cell.width())
                               .arg(cell.height());
            }
            return cut.join(QStringLiteral("; "));
        };
        QTRY_VERIFY2(cut().isEmpty(), qPrintable(cut()));
        window.setPresentationMode(false);
    }

    // The results' choosers (chart, figure, colour, summary) show every choice whole on a
    // projector, presenting or not: at 1280 x 720 in presentation mode the figure read
    // "update va", the colour "LR rule" with its end cut, the summary "mean of tl".
    void theResultsChoosersAreWhole_data()
    {
        QTest::addColumn<QSize>("screenSize");
        QTest::addColumn<bool>("presenting");
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
            for (const bool presenting : {true, false}) {
                const QString name = QStringLiteral("%1x%2%3").arg(size.width()).arg(size.height()).arg(presenting ? QStringLiteral(" presenting") : QString());
                QTest::newRow(qPrintable(name)) << size << presenting;
            }
        }
    }

    void theResultsChoosersAreWhole()
    {
        QFETCH(QSize, screenSize);
        QFETCH(bool, presenting);
        QScreen* projector = nullptr;
        for (QScreen* screen : QGuiApplication::screens())
            if (screen->size() == screenSize)
                projector = screen;
        QVERIFY2(projector, "no such screen: the suite runs on tests/ui/data/offscreen-screens.json (tests/ui/CMakeLists.txt)");
        MainWindow window;
        window.setScreen(projector);
        window.move(projector->geometry().topLeft());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setGeometry(projector->availableGeometry());  // as a teacher has it: the whole screen
        window.setPresentationMode(presenting);
        StudyPage* page = window.studyPage();
        window.pages()->setCurrentWidget(page);
        QString error;
        // Its chart's title is long ("update variance (pooled) against the effective batch"), and its
        // colour axis is the LR rule.
        QVERIFY2(page->chooseStudy(QStringLiteral("seed000-variance-curve"), &error), qPrintable(error));
        const QList<QComboBox*> choosers = page->results()->findChildren<QComboBox*>();
        QCOMPARE(choosers.size(), 4);
        const auto cut = [&window, projector, &choosers] {
            QStringList cut;
            if (window.minimumSizeHint().width() > projector->size().width())
                cut << QStringLiteral("the window needs %1 px of the screen's %2").arg(window.minimumSizeHint().width()).arg(projector->size().width());
            for (QComboBox* chooser : choosers) {
                // Where the style draws a chooser's text: its edit field less a pixel each side.
                QStyleOptionComboBox option;
                option.initFrom(chooser);
                option.frame = chooser->hasFrame();
                const QRect field =
                    chooser->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, chooser).adjusted(1, 0, -1, 0);
                const QFontMetrics metrics = chooser->fontMetrics();
                const QString text = chooser->currentText();
                // On one line, or on the lines a chooser that wraps says it draws: together the
                // text, each no wider than the field, all within its height.
                const auto* wrapping = qobject_cast<const WrappingComboBox*>(chooser);
                const QStringList lines = wrapping ? wrapping->shownLines(text) : QStringList{text};
                if (lines.join(QString()).remove(QLatin1Char(' ')) != QString(text).remove(QLatin1Char(' ')))
                    cut << QStringLiteral("\"%1\" drawn as \"%2\"").arg(text, lines.join(QLatin1Char('|')));
                for (const QString& line : lines) {
                    if (metrics.horizontalAdvance(line) > field.width())
                        cut << QStringLiteral("\"%1\" needs %2 px of %3").arg(line).arg(metrics.horizontalAdvance(line)).arg(field.width());
                }
                if (lines.size() * metrics.lineSpacing() > field.height() + metrics.leading())
                    cut << QStringLiteral("\"%1\" on %2 lines in %3 px").arg(lines.join(QLatin1Char('|'))).arg(lines.size()).arg(field.height());
            }
            return cut.join(QStringLiteral("; "));
        };
        QTRY_VERIFY2(cut().isEmpty(), qPrintable(cut()));
        // Every choice whole once chosen, not only the study's own.
        for (QComboBox* chooser : choosers) {
            if (!chooser->isEnabled())
                continue;
            const int chosen = chooser->currentIndex();
            for (int i = 0; i < chooser->count(); ++i) {
                chooser->setCurrentIndex(i);
                QTRY_VERIFY2(cut().isEmpty(), qPrintable(cut()));
            }
            chooser->setCurrentIndex(chosen);
        }
        window.setPresentationMode(false);
    }

    // Axes are named as the Setup pane names their keys, and still read back as keys.
    void axesAreNamedByTheirSetupLabels()
    {
        MainWindow window;
        StudyPage* page = window.studyPage();
        page->editor()->addAxis(QStringLiteral("world_size"), QStringLiteral("1, 2"));
        const QList<QComboBox*> keys = page->findChild<QTableWidget*>(QStringLiteral("studyAxes"))->findChildren<QComboBox*>();
        QStringList shown;
        for (const QComboBox* key : keys)
            shown.append(key->currentText());
        QVERIFY2(shown.contains(QStringLiteral("GPUs (ranks)")), qPrintable(shown.join(QStringLiteral(", "))));
        QVERIFY(!shown.contains(QStringLiteral("world_size")));
        bool found = false;
        for (const QJsonValue& axis : page->editor()->studyJson().value(QStringLiteral("axes")).toArray())
            found = found || axis.toObject().value(QStringLiteral("key")).toString() == QLatin1String("world_size");
        QVERIFY(found);
    }

    void aRunOfTheWindowHoldsTheStudyBack()
    {
        MainWindow window;
        StudyPage* page = window.studyPage();
        window.startRun();  // the first-run preset: a few seconds
        QVERIFY(window.isRunning());
        QVERIFY(!page->isRunning());
        QVERIFY(!page->findChild<QPushButton*>(QStringLiteral("runStudy"))->isEnabled());
        QVERIFY(!page->runStudy(true));
        QCOMPARE(window.session()->count(), 1);  // the study did not join or replace the run
        QSignalSpy done(&window, &MainWindow::sequenceDone);
        window.stopRun();
        QVERIFY(done.wait(kPatienceMs));
        QVERIFY(!window.isRunning());
    }
};

DDPLAB_UI_TEST_MAIN(TestStudyPage)
#include "tst_study_page.moc"
