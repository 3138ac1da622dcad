// SPDX-License-Identifier: GPL-3.0-or-later
// Small files with one job: files are split by what they do, not by a line count, so 500
// lines is a prompt, not a rule. A source file of ui/ or app/ over it is named as a warning
// (read it: does it hold more than one job?); the check fails only when it finds no sources.
// Every source file of ours names its licence (SPDX), so a file copied out of the tree keeps it.

#include <QDirIterator>
#include <QFile>
#include <QtTest>

namespace {

constexpr int kMostLines = 500;

const QLatin1String kLicenceTag("SPDX-License-Identifier: GPL-3.0-or-later");

// The third-party files we carry under their own licence (TensorBoard's protos, Apache-2.0).
const QLatin1String kThirdParty("tests/tools/tensorboard_proto/");

bool isSourceFile(const QString& path)
{
    static const QStringList endings = {QStringLiteral(".cpp"), QStringLiteral(".hpp"), QStringLiteral(".py"),
                                        QStringLiteral(".sh"), QStringLiteral(".cmake"), QStringLiteral("CMakeLists.txt")};
    for (const QString& ending : endings)
        if (path.endsWith(ending))
            return true;
    return false;
}

}  // namespace

class TestSourceShape : public QObject {
    Q_OBJECT

private slots:
    void longUiSourcesAreNamed()
    {
        QStringList tooLong;
        int files = 0;
        for (const char* folder : {"ui", "app"}) {
            QDirIterator it(QStringLiteral(DDPLAB_SOURCE_DIR "/") + QLatin1String(folder), {QStringLiteral("*.cpp"), QStringLiteral("*.hpp")},
                            QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile file(it.next());
                QVERIFY(file.open(QIODevice::ReadOnly));
                ++files;
                const qsizetype lines = file.readAll().count('\n');
                if (lines > kMostLines)
                    tooLong.append(QStringLiteral("%1: %2 lines").arg(file.fileName()).arg(lines));
            }
        }
        QVERIFY(files > 50);
        for (const QString& file : tooLong)
            qWarning("over %d lines (split it if it holds more than one job): %s", kMostLines, qPrintable(file));
    }

    void everySourceFileNamesItsLicence()
    {
        const QString root = QStringLiteral(DDPLAB_SOURCE_DIR "/");
        QStringList unnamed;
        int files = 0;
        for (const char* folder : {"engine", "ui", "app", "tests", "bench", "scripts", "examples", "packaging", ".ci"}) {
            QDirIterator it(root + QLatin1String(folder), QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                const QString relative = path.mid(root.size());
                if (!isSourceFile(path) || relative.startsWith(kThirdParty))
                    continue;
                QFile file(path);
                QVERIFY(file.open(QIODevice::ReadOnly));
                ++files;
                // The tag is on the first line, or the second after a #! line.
                const QByteArray head = file.readLine() + file.readLine();
                if (!QString::fromUtf8(head).contains(kLicenceTag))
                    unnamed.append(relative);
            }
        }
        QVERIFY(files > 500);
        QVERIFY2(unnamed.isEmpty(), qPrintable(QStringLiteral("no '%1' in the first lines of: %2").arg(kLicenceTag, unnamed.join(QStringLiteral(", ")))));
    }
};

QTEST_GUILESS_MAIN(TestSourceShape)
#include "tst_source_shape.moc"
