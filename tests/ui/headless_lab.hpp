// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Running the built `ddplab` headless from a suite, as a person runs it from a shell: in its
// own data, config and runtime folders under `home` (so no suite touches the user's runs), with
// the offscreen platform, to its end.

#include "support/engine_process.hpp"
#include "support/forked_python.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>

namespace ddplab::test {

inline constexpr int kLabPatienceMs = 300000;

// `ddplab` beside the engine the suites run.
inline QString ddplabPath()
{
    return QFileInfo(enginePath()).dir().filePath(QStringLiteral("ddplab"));
}

struct LabOutcome {
    int exitCode = -1;  // -1: it crashed or did not end within kLabPatienceMs
    QString out, err;
};

inline QProcessEnvironment labEnvironment(const QString& home)
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
    // Qt says on stderr when it has no runtime folder: that line is no part of what is asserted.
    QDir(home).mkpath(QStringLiteral("runtime"));
    QFile::setPermissions(home + QStringLiteral("/runtime"), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    environment.insert(QStringLiteral("XDG_RUNTIME_DIR"), home + QStringLiteral("/runtime"));
    return environment;
}

inline LabOutcome runLab(const QString& home, const QStringList& arguments)
{
    QProcess process;
    process.setProcessEnvironment(labEnvironment(home));
    process.start(ddplabPath(), arguments);
    LabOutcome outcome;
    if (!process.waitForFinished(kLabPatienceMs))
        return outcome;
    outcome.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    outcome.out = QString::fromUtf8(process.readAllStandardOutput());
    outcome.err = QString::fromUtf8(process.readAllStandardError());
    return outcome;
}

// tests/tools/make_own_model_case.py's models and data (small CNN with BatchNorm, MLP, train.pt,
// val.pt, ...) written into `folder` with Debian's python3: "" when made, else why not. The tool
// is forked from a python3 that has imported torch (support/forked_python.hpp), whose start is
// the check that torch imports: one `import torch`, not the check's and the tool's.
inline QString makeOwnModelCase(const QString& folder)
{
    ForkedPython python;
    if (const QString missing = python.start(QStringLiteral(DDPLAB_SOURCE_DIR "/tests/tools/forked_python.py")); !missing.isEmpty())
        return missing;
    const PythonExit made = python.run({QStringLiteral(DDPLAB_SOURCE_DIR "/tests/tools/make_own_model_case.py"), folder}, kLabPatienceMs / 1000);
    if (made.code != 0)
        return QStringLiteral("make_own_model_case.py failed: ") + made.err;
    return {};
}

}  // namespace ddplab::test
