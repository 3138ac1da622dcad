// SPDX-License-Identifier: GPL-3.0-or-later
// scripts/check-deps.sh, the guard against a set-up list that only works on machines which
// already have what it forgot: on this build it passes with setup-deps.sh's own list, and a
// list missing one package the build or the tests use makes it fail and name that package.

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

constexpr int kPatienceMs = 120000;

struct CheckResult {
    int exitCode = -1;
    QString output;
};

QString sourceDir() { return QStringLiteral(DDPLAB_SOURCE_DIR); }

CheckResult runCheck(const QStringList& extraArguments)
{
    QProcess check;
    check.setProcessChannelMode(QProcess::MergedChannels);
    check.start(sourceDir() + QStringLiteral("/scripts/check-deps.sh"),
                QStringList{QStringLiteral("--build"), QStringLiteral(DDPLAB_BINARY_DIR)} + extraArguments);
    if (!check.waitForFinished(kPatienceMs))
        return {};
    return {check.exitCode(), QString::fromLocal8Bit(check.readAll())};
}

QStringList setupList()
{
    QProcess list;
    list.start(sourceDir() + QStringLiteral("/scripts/setup-deps.sh"), {QStringLiteral("--list")});
    list.waitForFinished();
    return QString::fromLocal8Bit(list.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

}  // namespace

class DependencyCheckTest : public QObject {
    Q_OBJECT

private slots:
    void setupListPasses();
    void listWithoutAUsedPackageFails_data();
    void listWithoutAUsedPackageFails();
    void unknownArgumentIsRefused();
};

void DependencyCheckTest::setupListPasses()
{
    const CheckResult result = runCheck({});
    QVERIFY2(result.exitCode == 0, qPrintable(result.output));
    QVERIFY2(result.output.contains(QStringLiteral("are installed by scripts/setup-deps.sh")), qPrintable(result.output));
}

void DependencyCheckTest::listWithoutAUsedPackageFails_data()
{
    QTest::addColumn<QString>("removed");
    QTest::addColumn<QString>("because");
    // Found by CMake (Qt Charts needs it), read by the tests, run by the tests, run by the build.
    QTest::newRow("build") << QStringLiteral("libqt6opengl6-dev") << QStringLiteral("Qt6OpenGLConfig.cmake");
    QTest::newRow("data") << QStringLiteral("dataset-fashion-mnist") << QStringLiteral("/usr/share/datasets/fashion-mnist/");
    QTest::newRow("tool") << QStringLiteral("python3-torch") << QStringLiteral("torch");
    QTest::newRow("manual pages") << QStringLiteral("help2man") << QStringLiteral("/usr/bin/help2man");
}

void DependencyCheckTest::listWithoutAUsedPackageFails()
{
    QFETCH(QString, removed);
    QFETCH(QString, because);
    QStringList packages = setupList();
    QVERIFY2(packages.removeAll(removed) == 1, qPrintable(removed + QStringLiteral(" is not in setup-deps.sh's list")));
    QTemporaryDir dir;
    QFile list(dir.filePath(QStringLiteral("packages")));
    QVERIFY(list.open(QIODevice::WriteOnly));
    list.write(packages.join(QLatin1Char('\n')).toUtf8() + '\n');
    list.close();

    const CheckResult result = runCheck({QStringLiteral("--packages"), list.fileName()});
    QCOMPARE(result.exitCode, 1);
    // The package, on the line that also names the file that pulled it in.
    const QStringList lines = result.output.split(QLatin1Char('\n'));
    const auto named = std::find_if(lines.begin(), lines.end(), [&](const QString& line) {
        return line.trimmed().startsWith(removed + QLatin1Char(' ')) && line.contains(because);
    });
    QVERIFY2(named != lines.end(), qPrintable(result.output));
}

void DependencyCheckTest::unknownArgumentIsRefused()
{
    const CheckResult result = runCheck({QStringLiteral("--bogus")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.output.contains(QStringLiteral("--bogus")), qPrintable(result.output));
}

QTEST_GUILESS_MAIN(DependencyCheckTest)
#include "tst_dependency_check.moc"
