// The window's Study page: a built-in study shows its run count before it starts; an axis typed
// wrongly is named in the plan line and Run study stays off; a small study run from the page
// fills its charts, keeps the window's Run off while it runs, shows in "Studies run before",
// and puts its runs on the chart page.

#include "charts/run_model.hpp"
#include "client/session/lab_session.hpp"
#include "study_view/study_editor.hpp"
#include "study_view/study_page.hpp"
#include "study_view/study_results_view.hpp"
#include "ui_test_main.hpp"
#include "window/lab_actions.hpp"
#include "window/main_window.hpp"

#include <QAction>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>

using namespace ddplab::ui;

namespace {

constexpr int kPatienceMs = 120000;

const QByteArray kSmallStudy = R"({"id": "small", "title": "Small",
    "base": {"workload": "toy", "num_examples": 64, "experiments": 10, "batch_size": 8, "epochs": 1, "noise": 1},
    "axes": [{"key": "world_size", "values": [1, 2]}, {"key": "lr_rule", "values": ["none", "linear"]}]})";

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
        const QString file = dir.filePath(QStringLiteral("small.json"));
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(kSmallStudy);
        out.close();

        MainWindow window;
        StudyPage* page = window.studyPage();
        QString error;
        QVERIFY2(page->chooseStudy(file, &error), qPrintable(error));
        QVERIFY2(page->planText().startsWith(QStringLiteral("4 run")), qPrintable(page->planText()));
        QSignalSpy running(page, &StudyPage::runningChanged);
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
        QVERIFY(page->currentStudy().has_value());
        QCOMPARE(page->currentStudy()->points.size(), 4);
        QVERIFY(!page->results()->chartTitles().isEmpty());
        QCOMPARE(page->results()->charts().plots.first().lines.size(), 2);  // none and linear
        const auto* past = page->findChild<QListWidget*>(QStringLiteral("pastStudies"));
        QCOMPARE(past->count(), 1);
        QVERIFY2(past->item(0)->text().contains(QStringLiteral("all 4 runs done")), qPrintable(past->item(0)->text()));

        page->findChild<QPushButton*>(QStringLiteral("showRuns"))->click();
        QCOMPARE(window.runModel().runs().size(), 4);
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
