// ddplab: the desktop lab. Parses the command line, then either opens the window or, with
// --quit, runs a preset or lesson headless (see ui/launch_options.hpp).

#include "client/launch_options.hpp"
#include "headless/headless_runner.hpp"
#include "window/application_identity.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char* argv[])
{
    // Headless automation must work without a display: use the offscreen platform unless the
    // user chose one.
    if (ddplab::ui::requestsHeadless(argc, argv) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
        qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication application(argc, argv);
    ddplab::ui::setApplicationIdentity();
    QTextStream out(stdout);
    QTextStream err(stderr);

    const ddplab::ui::LaunchOptions options = ddplab::ui::parseLaunchOptions(QCoreApplication::arguments());
    if (options.showHelp) {
        out << options.helpText;
        return 0;
    }
    if (options.showVersion) {
        out << "ddplab " << QCoreApplication::applicationVersion() << Qt::endl;
        return 0;
    }
    if (!options.error.isEmpty()) {
        err << "ddplab: " << options.error << Qt::endl;
        return 2;
    }
    if (options.quit) {
        ddplab::ui::HeadlessRunner runner(options, out, err);
        return runner.exec();
    }
    ddplab::ui::MainWindow window(options);
    window.show();
    return QApplication::exec();
}
