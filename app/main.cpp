// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab: the desktop lab. Reads the command line (app/command_line.hpp, the one parser), then
// opens the window, or with --preset NAME --run --quit runs a preset's or a lesson's runs
// headless with their live charts (Qt Charts are widgets: QApplication). The commands that need
// no widget (--study … --quit, --advise, --export-script, --export-tensorboard) it hands to
// ddplab-headless beside it (app/headless_main.cpp), a program that links no widget library, as
// qBittorrent's nox build: the same arguments, the same process (exec), so its output, exit code
// and signals are the command's own.

#include "command_line.hpp"

#include "client/session/lab_identity.hpp"
#include "export/headless_runner.hpp"
#include "window/application_identity.hpp"
#include "window/main_window.hpp"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTextStream>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace {

struct CommandLine {
    ddplab::ui::LaunchOptions options;
    QString headlessProgram;  // ddplab-headless, beside this program
};

// The command line is read before any GUI exists: --help, --version and a wrong option are
// answered anywhere, a terminal without a display included (QApplication would abort there).
CommandLine readCommandLine(int argc, char* argv[])
{
    const QCoreApplication probe(argc, argv);
    ddplab::ui::setLabIdentity();
    return {ddplab::ui::parseLaunchOptions(QCoreApplication::arguments()),
            QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("ddplab-headless"))};
}

// Replaces this process with ddplab-headless, given the same arguments; returns only on failure.
int handToHeadless(const QString& program, char* argv[], QTextStream& err)
{
    if (!QFileInfo(program).isExecutable()) {
        err << "ddplab: the commands without a window are ddplab-headless's, and " << program
            << " is missing or not executable (reinstall DDP Lab)" << Qt::endl;
        return 2;
    }
    const QByteArray path = QFile::encodeName(program);
    execv(path.constData(), argv);
    err << "ddplab: could not start " << program << ": " << std::strerror(errno) << Qt::endl;
    return 2;
}

}  // namespace

int main(int argc, char* argv[])
{
    const CommandLine commandLine = readCommandLine(argc, argv);
    const ddplab::ui::LaunchOptions& options = commandLine.options;
    QTextStream out(stdout);
    QTextStream err(stderr);
    if (const auto answered = ddplab::ui::answerWithoutRunning(options, ddplab::ui::Program::Lab, out, err))
        return *answered;
    if (ddplab::ui::needsOf(options) != ddplab::ui::Needs::Widgets)
        return handToHeadless(commandLine.headlessProgram, argv, err);
    if (const QString problem = ddplab::ui::homeProblem(); !problem.isEmpty()) {
        err << "ddplab: " << problem << Qt::endl;
        return 2;
    }

    if (options.quit)
        ddplab::ui::paintOffscreenWithoutDisplay();  // a preset's runs headless, their charts into files
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
