// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The command line of `ddplab` and `ddplab-headless`, parsed in one place (the options and what
// they mean: ui/client/session/launch_options.hpp), and what a command needs of Qt: the two
// programs split there, as qBittorrent's gui and nox builds do.

#include "client/session/launch_options.hpp"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <optional>

namespace ddplab::ui {

// Which program reads the line: its --help's description and examples, its errors' "see … --help".
enum class Program { Lab, Headless };

QString programName(Program program);

LaunchOptions parseLaunchOptions(const QStringList& arguments, Program program = Program::Lab);

// What a command needs of Qt: files and processes alone (QCoreApplication), painting charts
// into files (QGuiApplication: QPainter and fonts, no widgets), or widgets (the window, and a
// preset's runs, whose live charts are Qt Charts). The first two are ddplab-headless's.
enum class Needs { Core, Painting, Widgets };

Needs needsOf(const LaunchOptions& options);

// --help, --version and a wrong line, answered alike by both programs before any application
// exists: the exit code, or nothing when the command is to run.
std::optional<int> answerWithoutRunning(const LaunchOptions& options, Program program, QTextStream& out, QTextStream& err);

// Charts painted without a display need fonts, not a screen: the offscreen platform, unless the
// user chose one.
void paintOffscreenWithoutDisplay();

}  // namespace ddplab::ui
