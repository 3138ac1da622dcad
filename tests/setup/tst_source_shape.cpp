// Small files with one job: no source file of ui/ or app/ is over 500 lines
// (docs/architecture.md says so; this keeps it true). A file that grows past it is split.

#include <QDirIterator>
#include <QFile>
#include <QtTest>

namespace {

constexpr int kMostLines = 500;

}  // namespace

class TestSourceShape : public QObject {
    Q_OBJECT

private slots:
    void noUiSourceIsOver500Lines()
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
        QVERIFY2(tooLong.isEmpty(), qPrintable(tooLong.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestSourceShape)
#include "tst_source_shape.moc"
