// Small files with one job: files are split by what they do, not by a line count, so 500
// lines is a prompt, not a rule. A source file of ui/ or app/ over it is named as a warning
// (read it: does it hold more than one job?); the check fails only when it finds no sources.

#include <QDirIterator>
#include <QFile>
#include <QtTest>

namespace {

constexpr int kMostLines = 500;

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
};

QTEST_GUILESS_MAIN(TestSourceShape)
#include "tst_source_shape.moc"
