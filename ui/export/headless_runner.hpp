// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab --preset NAME --run --export DIR --quit`: the same runs, charts and exports as the
// window, with no window. Prints progress and a summary table; the exit code is 0 when every
// run succeeded, 2 when NAME is unknown or invalid, else the failed run's engine exit code
// (or 1 when it had none, e.g. the engine could not start; or the export failed).

#include "client/session/launch_options.hpp"

#include <QObject>
#include <QTextStream>

namespace ddplab::ui {

class HeadlessRunner : public QObject {
    Q_OBJECT

public:
    HeadlessRunner(LaunchOptions options, QTextStream& out, QTextStream& err, QObject* parent = nullptr);

    // Runs to the end in a local event loop; returns the process exit code.
    int exec();

private:
    LaunchOptions m_options;
    QTextStream& m_out;
    QTextStream& m_err;
};

}  // namespace ddplab::ui
