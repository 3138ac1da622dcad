// SPDX-License-Identifier: GPL-3.0-or-later
// The Qt headers nearly every suite includes (QtTest brings all of Qt Core), compiled once per
// folder of suites and reused by each of them when DDPLAB_PCH is on (tests/CMakeLists.txt):
// a suite's compiler then reads mostly the suite. Nothing here is needed for a suite to
// compile: each includes what it uses itself.
#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#ifdef QT_WIDGETS_LIB
#include <QApplication>
#endif
