// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab-headless: DDP Lab's commands without a window (--study … --quit, --advise, --export-script,
// --export-tensorboard), a program that links no widget library, as qBittorrent's nox build
// (app/CMakeLists.txt checks it; tst_tensorboard_export reads its ldd). `ddplab` hands these
// commands to it, and it can be run on its own. Each command runs on the least application it
// needs: QCoreApplication for the exports, QGuiApplication for the charts a study or an advice
// paints into files.

#include "command_line.hpp"

#include "client/session/lab_identity.hpp"
#include "headless/headless_advise.hpp"
#include "headless/headless_script.hpp"
#include "headless/headless_study.hpp"
#include "headless/headless_tensorboard.hpp"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QTextStream>

namespace {

using ddplab::ui::LaunchOptions;

int runCommand(const LaunchOptions& options, QTextStream& out, QTextStream& err)
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
    using ddplab::ui::Needs;
    LaunchOptions options;
    {
        // Read before any GUI exists: --help and a wrong option are answered without a display.
        const QCoreApplication probe(argc, argv);
        ddplab::ui::setLabIdentity();
        options = ddplab::ui::parseLaunchOptions(QCoreApplication::arguments(), ddplab::ui::Program::Headless);
    }
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (options.error.isEmpty() && !options.showHelp && !options.showVersion && ddplab::ui::needsOf(options) == Needs::Widgets)
        options.error = QStringLiteral("only --study NAME --quit, --advise, --export-script and --export-tensorboard run here; "
                                       "the window and a preset's runs with their live charts (--preset NAME --run) are ddplab's");
    if (const auto answered = ddplab::ui::answerWithoutRunning(options, ddplab::ui::Program::Headless, out, err))
        return *answered;
    if (const QString problem = ddplab::ui::homeProblem(); !problem.isEmpty()) {
        err << "ddplab-headless: " << problem << Qt::endl;
        return 2;
    }

    if (ddplab::ui::needsOf(options) == Needs::Core) {
        const QCoreApplication application(argc, argv);
        ddplab::ui::setLabIdentity();
        return runCommand(options, out, err);
    }
    ddplab::ui::paintOffscreenWithoutDisplay();  // charts painted into files
    const QGuiApplication application(argc, argv);
    ddplab::ui::setLabIdentity();
    return runCommand(options, out, err);
}
