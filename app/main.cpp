// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab: the desktop lab. Parses the command line (ui/client/session/launch_options.hpp, the
// one parser), then either opens the window or, with --quit, runs a preset, a lesson or a study
// headless, asks the advisor, writes stored runs and studies for TensorBoard, or writes a run's
// or preset's settings as a PyTorch script. Each on the least application it needs, as
// qBittorrent's nox build: a command that paints nothing on QCoreApplication, one that paints
// charts into files on QGuiApplication (QPainter and fonts, no widgets), the window and a
// preset's runs with their live charts (Qt Charts are widgets) on QApplication.

#include "client/session/lab_identity.hpp"
#include "client/session/launch_options.hpp"
#include "export/headless_runner.hpp"
#include "headless/headless_advise.hpp"
#include "headless/headless_script.hpp"
#include "headless/headless_study.hpp"
#include "headless/headless_tensorboard.hpp"
#include "window/application_identity.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QTextStream>

namespace {

// The command line is read before any GUI exists: --help, --version and a wrong option are
// answered anywhere, a terminal without a display included (QApplication would abort there).
ddplab::ui::LaunchOptions readCommandLine(int argc, char* argv[])
{
    const QCoreApplication probe(argc, argv);
    ddplab::ui::setLabIdentity();
    return ddplab::ui::parseLaunchOptions(QCoreApplication::arguments());
}

// What a command needs of Qt: files and processes alone, painting, or widgets.
enum class Needs { Core, Painting, Widgets };

Needs needsOf(const ddplab::ui::LaunchOptions& options)
{
    if (!options.tensorBoardDirectory.isEmpty() || !options.scriptFile.isEmpty())
        return Needs::Core;
    if (options.advise || (options.quit && (!options.study.isEmpty() || !options.resumeStudy.isEmpty())))
        return Needs::Painting;  // their charts, as PNG and SVG
    return Needs::Widgets;
}

// The commands without widgets (ui/headless/, which links none).
int runWithoutWidgets(const ddplab::ui::LaunchOptions& options, QTextStream& out, QTextStream& err)
{
    if (!options.tensorBoardDirectory.isEmpty())
        return ddplab::ui::exportTensorBoardHeadless(options, out, err);
    if (!options.scriptFile.isEmpty())
        return ddplab::ui::exportScriptHeadless(options, out, err);
    if (options.advise)
        return ddplab::ui::adviseHeadless(options, out, err);
    ddplab::ui::HeadlessStudy study(options, out, err);
    return study.exec();
}

}  // namespace

int main(int argc, char* argv[])
{
    const ddplab::ui::LaunchOptions options = readCommandLine(argc, argv);
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.showHelp) {
        out << options.helpText;
        return 0;
    }
    if (options.showVersion) {
        out << "ddplab " << DDPLAB_VERSION << Qt::endl;
        return 0;
    }
    if (!options.error.isEmpty()) {
        err << "ddplab: " << options.error << Qt::endl;
        return 2;
    }
    if (const QString problem = ddplab::ui::homeProblem(); !problem.isEmpty()) {
        err << "ddplab: " << problem << Qt::endl;
        return 2;
    }

    // Headless automation must work without a display: use the offscreen platform unless the
    // user chose one.
    if (options.quit && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    switch (needsOf(options)) {
    case Needs::Core: {
        const QCoreApplication application(argc, argv);
        ddplab::ui::setLabIdentity();
        return runWithoutWidgets(options, out, err);
    }
    case Needs::Painting: {
        const QGuiApplication application(argc, argv);
        ddplab::ui::setLabIdentity();
        return runWithoutWidgets(options, out, err);
    }
    case Needs::Widgets:
        break;
    }
    QApplication application(argc, argv);
    ddplab::ui::setApplicationIdentity();
    if (options.quit) {
        ddplab::ui::HeadlessRunner runner(options, out, err);
        return runner.exec();
    }
    ddplab::ui::MainWindow window(options);
    window.show();
    return QApplication::exec();
}
