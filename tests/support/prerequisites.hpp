// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What some suites need from set-up, said plainly when it is missing. The suite still fails
// (scripts/setup-deps.sh installs all of it), but with a sentence instead of a bare assertion.

#include <QString>

namespace ddplab::test {

// The Fashion-MNIST files Debian's dataset-fashion-mnist installs.
QString fashionMnistFolder();
// "" when all four files are there, else which are missing and what installs them.
QString missingFashionMnist();

// Debian's python3, which has python3-torch and numpy (the Python DDP peers, the tools that
// write test models), never another one found first on PATH.
QString debianPython();
// "" when it imports torch and numpy, else what installs them.
QString missingPythonTorch();

// "" when Debian's python3 imports optuna (bench/advisor_panel.py's comparison), else what installs it.
QString missingPythonOptuna();

// Debian's torchrun (python3-torch), never another one found first on PATH.
QString torchrunProgram();
// "" when it is there, else what installs it.
QString missingTorchrun();

}  // namespace ddplab::test
