// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab --study NAME|FILE --export DIR --quit` and `ddplab --resume STUDY --quit`: a study
// without a window. Every combination is checked before any run starts; progress is printed as
// runs end; the charts (PNG, SVG), study.csv and findings.txt go into DIR; a table of the runs
// ends the output. Exit code: 0 when every run succeeded, 2 for a study that cannot run (bad
// file, a combination the engine refuses, over 500 runs without --yes), else the first failed
// run's engine exit code. Finished runs are kept, so --resume carries on where it stopped.

#include "client/session/launch_options.hpp"

#include <QObject>
#include <QTextStream>

namespace ddplab::ui {

class HeadlessStudy : public QObject {
    Q_OBJECT

public:
    HeadlessStudy(LaunchOptions options, QTextStream& out, QTextStream& err, QObject* parent = nullptr);

    // Runs to the end in a local event loop; returns the process exit code.
    int exec();

private:
    LaunchOptions m_options;
    QTextStream& m_out;
    QTextStream& m_err;
};

}  // namespace ddplab::ui
