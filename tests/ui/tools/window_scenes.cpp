// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab-window-scenes SCENE OUT.png [STUDY.json]: the real window, brought to a scene a person
// reaches by a few clicks, then the whole X screen saved as a PNG (docs/screenshots, taken under
// Xvfb with a fresh home by scripts/screenshots.sh --scene). Scenes:
//   first-launch         the window as a newcomer first sees it
//   setup-errors         Setup with two settings the engine refuses (GPUs 0, Batch per GPU -1)
//   setup-batch-growth   Setup with Smith's batch schedule on a step decay (its preview shown)
//   study                the study file run on the Study page (tests/ui/data/toy-grid-study.json:
//                        findings with cautions)
//   runs-study           a lesson's runs and the study file's, grouped in the Runs list, the
//                        study's runs on the charts
//   presentation-lesson  seed 000's four-ways lesson run, then presentation mode
//   presentation:LESSON  presentation mode, then the lesson LESSON run (its lead chart large)
//   slides:LESSON        as presentation:LESSON, then every chart exported as a slide
//   predict:LESSON       presentation mode and Predict First, then the lesson LESSON run: the
//                        class sees its question over the charts until F9
//   study-switch         the study file run on the Study page, then the built-in study
//                        critical-batch chosen: the page shows only the chosen one
//   compare:LESSON       the lesson LESSON run, its runs on the Compare page
//   file-menu            the File menu open, as the menu bar opens it (its exports and copies)
//   lessons-menu         the Lessons menu open: every lesson with how long it takes here
//   advise               the real advisor run from the Advise page on the settings file given
//                        (tests/ui/data/advise-linreg.json: 8 GPUs, a budget of 1 min), finished
//   advising             the same advisor during its advice: once the branch test has ended (the
//                        card filled in so far, the progress bar and time left), photographed
//                        while it goes on
//   advice               the Advise page showing a stored advice.json, as Past advice reopens it

#include "advisor/advise_inputs.hpp"
#include "advisor/advise_page.hpp"
#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/advisor/advice.hpp"
#include "client/runs/run_store.hpp"
#include "client/library/lesson_library.hpp"
#include "export/export_service.hpp"
#include "plots/advice_files.hpp"
#include "client/library/preset_file.hpp"
#include "setup/batch_schedule_preview.hpp"
#include "setup/parameter_panel.hpp"
#include "study/study_page.hpp"
#include "window/application_identity.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QDoubleSpinBox>
#include <QScreen>
#include <QTabWidget>
#include <QTextStream>
#include <QTimer>

#include <algorithm>

namespace {

using ddplab::ui::MainWindow;

constexpr int kSettleMs = 1500;  // the engine's devices answered, the layout and charts drawn

void wait(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// Presentation mode takes the whole screen itself where no window manager gives it (Xvfb).
void enterPresentationMode(MainWindow& window)
{
    window.setPresentationMode(true);
}

void waitForTheRuns(MainWindow& window)
{
    QEventLoop loop;
    QObject::connect(&window, &MainWindow::sequenceDone, &loop, &QEventLoop::quit);
    loop.exec();
}

void waitForTheStudy(ddplab::ui::StudyPage& page)
{
    QEventLoop loop;
    QObject::connect(&page, &ddplab::ui::StudyPage::studyEnded, &loop, &QEventLoop::quit);
    loop.exec();
}

bool runStudyFile(MainWindow& window, const QString& file)
{
    ddplab::ui::StudyPage& page = *window.studyPage();
    QString error;
    if (!page.chooseStudy(file, &error) || !page.runStudy(true)) {
        QTextStream(stderr) << "ddplab-window-scenes: " << error << Qt::endl;
        return false;
    }
    window.pages()->setCurrentWidget(&page);
    waitForTheStudy(page);
    return true;
}

// The advisor on the settings in `file`, started from the Advise page as a person would; with
// `midway`, returns once its branch test has ended (the advice goes on meanwhile).
bool adviseOn(MainWindow& window, const QString& file, bool midway = false)
{
    QString error;
    const std::optional<QJsonObject> settings = ddplab::ui::readSettingsFile(file, file, &error);
    auto* page = window.findChild<ddplab::ui::AdvisePage*>();
    if (!settings || !page) {
        QTextStream(stderr) << "ddplab-window-scenes: " << (settings ? QStringLiteral("no Advise page") : error) << Qt::endl;
        return false;
    }
    window.parameterPanel()->setValues(*settings);
    window.pages()->setCurrentWidget(page);
    page->inputs()->budgetMinutes()->setValue(1.0);
    QEventLoop loop;
    bool succeeded = false;
    QObject::connect(page, &ddplab::ui::AdvisePage::adviceEnded, &loop, [&](bool ok) {
        succeeded = ok;
        loop.quit();
    });
    if (midway) {
        // The card says what the branch test found once it has ended: grab then.
        QObject::connect(page, &ddplab::ui::AdvisePage::runsStored, &loop, [&] {
            if (page->isRunning() && page->progressText().startsWith(QStringLiteral("Confirming"))) {
                succeeded = true;
                loop.quit();
            }
        });
    }
    if (!page->start()) {
        QTextStream(stderr) << "ddplab-window-scenes: " << page->statusText() << Qt::endl;
        return false;
    }
    loop.exec();
    return succeeded;
}

// OUT.png's name without ".png": what the files a scene writes beside it are named from.
QString withoutPng(const QString& out)
{
    return out.endsWith(QLatin1String(".png")) ? out.chopped(4) : out;
}

// The Advise page showing the advice in `file` (an advice.json), as Past advice reopens it; its
// charts, as Save advice… writes them, into OUT-files/ beside the screenshot.
bool showAdviceFile(MainWindow& window, const QString& file, const QString& out)
{
    QFile json(file);
    QString error = QStringLiteral("cannot read ") + file;
    std::optional<ddplab::ui::Advice> advice;
    if (json.open(QIODevice::ReadOnly))
        advice = ddplab::ui::Advice::fromJson(QJsonDocument::fromJson(json.readAll()).object(), &error);
    auto* page = window.findChild<ddplab::ui::AdvisePage*>();
    if (!advice || !page) {
        QTextStream(stderr) << "ddplab-window-scenes: " << (page ? error : QStringLiteral("no Advise page")) << Qt::endl;
        return false;
    }
    window.pages()->setCurrentWidget(page);
    page->showAdvice(*advice);
    const QString files = withoutPng(out) + QStringLiteral("-files");
    if (ddplab::ui::writeAdviceFiles(files, *advice, ddplab::ui::RunStore(), &error).isEmpty()) {
        QTextStream(stderr) << "ddplab-window-scenes: " << error << Qt::endl;
        return false;
    }
    return true;
}

// Every chart of the window as a slide, the lead and the thumbnails alike, as *For slides* in the
// export dialog writes them: OUT-<chart>.png beside OUT.png.
bool exportSlides(MainWindow& window, const QString& lessonId, const QString& out)
{
    const ddplab::ui::LessonLibrary lessons = ddplab::ui::LessonLibrary::load();
    const ddplab::ui::Lesson* lesson = lessons.find(lessonId);
    const QString base = withoutPng(out);
    for (ddplab::ui::ChartPanel* panel : window.chartGrid()->panels()) {
        QString error;
        const QString path = base + QLatin1Char('-') + panel->definition().id + QStringLiteral(".png");
        if (!ddplab::ui::ExportService::exportChartPng(*panel, path, ddplab::ui::ExportService::slideFormat(lesson ? lesson->title : QString()), &error)) {
            QTextStream(stderr) << "ddplab-window-scenes: " << error << Qt::endl;
            return false;
        }
    }
    return true;
}

bool play(const QString& scene, MainWindow& window, const QString& studyFile, const QString& out)
{
    if (scene == QLatin1String("first-launch"))
        return true;
    if (scene == QLatin1String("setup-errors")) {
        window.parameterPanel()->setFieldText(QStringLiteral("world_size"), QStringLiteral("0"));
        window.parameterPanel()->setFieldText(QStringLiteral("batch_size"), QStringLiteral("-1"));
        return true;
    }
    if (scene == QLatin1String("setup-batch-growth")) {
        window.parameterPanel()->setFieldText(QStringLiteral("epochs"), QStringLiteral("4"));
        window.parameterPanel()->setFieldText(QStringLiteral("schedule"), QStringLiteral("step"));
        window.parameterPanel()->setFieldText(QStringLiteral("gamma"), QStringLiteral("0.5"));
        window.parameterPanel()->setFieldText(QStringLiteral("batch_schedule"), QStringLiteral("smith"));
        // The preview sits at the foot of "What the engine will do": scrolled into view.
        if (auto* preview = window.findChild<ddplab::ui::BatchSchedulePreview*>()) {
            for (QWidget* above = preview->parentWidget(); above; above = above->parentWidget()) {
                if (auto* scroll = qobject_cast<QScrollArea*>(above)) {
                    QApplication::processEvents();
                    scroll->ensureWidgetVisible(preview);
                    break;
                }
            }
        }
        return true;
    }
    if (scene == QLatin1String("study"))
        return runStudyFile(window, studyFile);
    if (scene == QLatin1String("runs-study")) {
        window.startLesson(QStringLiteral("seed000-four-ways"));
        waitForTheRuns(window);
        if (!runStudyFile(window, studyFile))
            return false;
        window.studyPage()->findChild<QPushButton*>(QStringLiteral("showRuns"))->click();
        auto* runs = window.findChild<QDockWidget*>(QStringLiteral("runsDock"));
        runs->show();
        runs->raise();
        return true;
    }
    if (scene == QLatin1String("file-menu") || scene == QLatin1String("lessons-menu")) {
        const QString title = scene == QLatin1String("file-menu") ? QStringLiteral("&File") : QStringLiteral("&Lessons");
        const QList<QAction*> menus = window.menuBar()->actions();
        const auto menu = std::find_if(menus.begin(), menus.end(), [&](QAction* a) { return a->text() == title && a->menu(); });
        if (menu == menus.end())
            return false;
        window.menuBar()->setActiveAction(*menu);
        return (*menu)->menu()->isVisible();
    }
    if (scene == QLatin1String("advise"))
        return adviseOn(window, studyFile);
    if (scene == QLatin1String("advising"))
        return adviseOn(window, studyFile, true);
    if (scene == QLatin1String("advice"))
        return showAdviceFile(window, studyFile, out);
    if (scene == QLatin1String("presentation-lesson")) {
        window.startLesson(QStringLiteral("seed000-four-ways"));
        waitForTheRuns(window);
        enterPresentationMode(window);
        return true;
    }
    // presentation:LESSON — a class in front of a projector: presentation mode first, then the
    // lesson run from the Lesson pane, its lead chart large.
    if (scene.startsWith(QLatin1String("presentation:"))) {
        enterPresentationMode(window);
        wait(kSettleMs);
        window.startLesson(scene.section(QLatin1Char(':'), 1));
        waitForTheRuns(window);
        return true;
    }
    // slides:LESSON — as presentation:LESSON, and then every chart exported as a slide from
    // presentation mode (OUT-<chart>.png), the thumbnails too.
    if (scene.startsWith(QLatin1String("slides:"))) {
        const QString lesson = scene.section(QLatin1Char(':'), 1);
        enterPresentationMode(window);
        wait(kSettleMs);
        window.startLesson(lesson);
        waitForTheRuns(window);
        wait(kSettleMs);
        return exportSlides(window, lesson, out);
    }
    // predict:LESSON — Predict First on in presentation mode: the runs go on under the lesson's
    // question until the teacher reveals them.
    if (scene.startsWith(QLatin1String("predict:"))) {
        QAction* predictFirst = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->isCheckable() && action->text().remove(QLatin1Char('&')) == QLatin1String("Predict First"))
                predictFirst = action;
        if (!predictFirst)
            return false;
        predictFirst->setChecked(true);
        enterPresentationMode(window);
        wait(kSettleMs);
        window.startLesson(scene.section(QLatin1Char(':'), 1));
        waitForTheRuns(window);
        return true;
    }
    // study-switch — a study run, then another chosen: nothing of the first may stay in sight.
    if (scene == QLatin1String("study-switch")) {
        if (!runStudyFile(window, studyFile))
            return false;
        QString error;
        if (!window.studyPage()->chooseStudy(QStringLiteral("critical-batch"), &error)) {
            QTextStream(stderr) << "ddplab-window-scenes: " << error << Qt::endl;
            return false;
        }
        return true;
    }
    // compare:LESSON — the lesson's runs side by side on the Compare page.
    if (scene.startsWith(QLatin1String("compare:"))) {
        window.startLesson(scene.section(QLatin1Char(':'), 1));
        waitForTheRuns(window);
        window.pages()->setCurrentIndex(2);
        return true;
    }
    return false;
}

}  // namespace

int main(int argc, char* argv[])
{
    QApplication application(argc, argv);
    ddplab::ui::setApplicationIdentity();
    QTextStream err(stderr);
    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 3 || arguments.size() > 4) {
        err << "usage: ddplab-window-scenes first-launch|setup-errors|study|runs-study|presentation-lesson|presentation:LESSON|slides:LESSON|predict:LESSON|study-switch|compare:LESSON|file-menu|lessons-menu|advise|advising|advice OUT.png [STUDY.json|SETTINGS.json|ADVICE.json]"
            << Qt::endl;
        return 2;
    }
    MainWindow window;
    window.show();
    wait(kSettleMs);
    if (!play(arguments.at(1), window, arguments.value(3), arguments.at(2))) {
        err << "ddplab-window-scenes: cannot play the scene " << arguments.at(1) << Qt::endl;
        return 2;
    }
    wait(kSettleMs);
    QScreen* screen = QGuiApplication::primaryScreen();
    const QImage image = screen ? screen->grabWindow(0).toImage() : QImage();
    if (image.isNull() || !image.save(arguments.at(2), "PNG")) {
        err << "ddplab-window-scenes: cannot grab the screen or write " << arguments.at(2) << Qt::endl;
        return 1;
    }
    window.close();  // as a person would: the settings are saved, nothing runs on
    return 0;
}
