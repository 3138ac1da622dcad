// SPDX-License-Identifier: GPL-3.0-or-later
#include "prerequisites.hpp"

#include <QFileInfo>
#include <QProcess>
#include <QStringList>

namespace ddplab::test {

QString fashionMnistFolder()
{
    return QStringLiteral("/usr/share/datasets/fashion-mnist");
}

QString missingFashionMnist()
{
    QStringList missing;
    for (const char* name : {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
                             "t10k-labels-idx1-ubyte.gz"}) {
        const QString path = fashionMnistFolder() + QLatin1Char('/') + QLatin1String(name);
        if (!QFileInfo(path).isFile())
            missing.append(path);
    }
    if (missing.isEmpty())
        return QString();
    return QStringLiteral("Fashion-MNIST is missing (%1): Debian's dataset-fashion-mnist package installs it; "
                          "scripts/setup-deps.sh installs that package")
        .arg(missing.join(QStringLiteral(", ")));
}

QString debianPython()
{
    return QStringLiteral("/usr/bin/python3");
}

QString missingPythonTorch()
{
    QProcess python;
    python.start(debianPython(), {QStringLiteral("-c"), QStringLiteral("import torch, numpy")});
    if (python.waitForFinished(120000) && python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0)
        return QString();
    return QStringLiteral("%1 cannot import torch and numpy: Debian's python3-torch package installs both; "
                          "scripts/setup-deps.sh installs that package")
        .arg(debianPython());
}

QString missingPythonOptuna()
{
    QProcess python;
    python.start(debianPython(), {QStringLiteral("-c"), QStringLiteral("import optuna")});
    if (python.waitForFinished(120000) && python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0)
        return QString();
    return QStringLiteral("%1 cannot import optuna: Debian's python3-optuna package installs it; scripts/setup-deps.sh "
                          "installs that package")
        .arg(debianPython());
}

QString torchrunProgram()
{
    return QStringLiteral("/usr/bin/torchrun");
}

QString missingTorchrun()
{
    if (QFileInfo(torchrunProgram()).isExecutable())
        return QString();
    return QStringLiteral("%1 is missing: Debian's python3-torch package installs it; scripts/setup-deps.sh installs "
                          "that package")
        .arg(torchrunProgram());
}

}  // namespace ddplab::test
