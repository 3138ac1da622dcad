// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The main() of every UI suite: a QApplication named like the lab, with XDG data, config and
// cache homes in a temporary folder, so runs and settings written by a test never reach the
// user's own (QStandardPaths and QSettings both follow XDG_*_HOME).

#include "client/session/lab_identity.hpp"
#include "support/engine_process.hpp"

#include <QApplication>
#include <QTemporaryDir>
#include <QtTest>

namespace ddplab::test {

class IsolatedUserFolders {
public:
    IsolatedUserFolders()
    {
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_folder.filePath(QStringLiteral("data"))));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_folder.filePath(QStringLiteral("config"))));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_folder.filePath(QStringLiteral("cache"))));
        // The lab finds the engine through DDPLAB_ENGINE first: make it the one this build made.
        qputenv("DDPLAB_ENGINE", QFile::encodeName(enginePath()));
    }
    QString path() const { return m_folder.path(); }

private:
    QTemporaryDir m_folder;
};

}  // namespace ddplab::test

#define DDPLAB_UI_TEST_MAIN(TestClass)                     \
    int main(int argc, char* argv[])                       \
    {                                                      \
        ddplab::test::IsolatedUserFolders isolatedFolders; \
        QApplication application(argc, argv);              \
        ddplab::ui::setLabIdentity();                      \
        TestClass test;                                    \
        return QTest::qExec(&test, argc, argv);            \
    }
