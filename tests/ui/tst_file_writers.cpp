// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's one CSV writer and one image writer, used by every export (a run's metrics, a
// study's points; live charts and study charts): quoting and numbers as tools read them back,
// images of exactly the asked size, sizes refused with a sentence.

#include "client/io/csv_writer.hpp"
#include "plots/image_writer.hpp"
#include "ui_test_main.hpp"

#include <QImage>
#include <QPainter>

#include <limits>

using namespace ddplab::ui;

class TestFileWriters : public QObject {
    Q_OBJECT

private slots:
    void csvQuotesOnlyWhatNeedsIt()
    {
        CsvWriter csv({QStringLiteral("name"), QStringLiteral("value")});
        csv.addRow({QStringLiteral("plain"), QStringLiteral("1")});
        csv.addRow({QStringLiteral("a, b"), QStringLiteral("say \"hi\"")});
        csv.addRow({QStringLiteral("two\nlines"), QString()});
        QCOMPARE(csv.contents(), QByteArray("name,value\n"
                                            "plain,1\n"
                                            "\"a, b\",\"say \"\"hi\"\"\"\n"
                                            "\"two\nlines\",\n"));
    }

    void csvNumbersReadBackExactly_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("tenth") << 0.1 << QStringLiteral("0.1");
        QTest::newRow("sum of tenths") << 0.1 + 0.2 << QStringLiteral("0.30000000000000004");
        QTest::newRow("integer") << 1234567.0 << QStringLiteral("1234567");
        QTest::newRow("small") << 1.5e-9 << QStringLiteral("1.5e-09");
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << QString();
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << QString();
    }

    void csvNumbersReadBackExactly()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(CsvWriter::number(value), text);
        if (!text.isEmpty())
            QCOMPARE(text.toDouble(), value);
    }

    void imagesHaveTheAskedSize()
    {
        QTemporaryDir dir;
        const auto paint = [](QPainter& painter, const QRect& area) { painter.fillRect(area.adjusted(10, 10, -10, -10), Qt::red); };
        QString error;
        const QString png = dir.filePath(QStringLiteral("chart.png"));
        QVERIFY2(writePngImage(png, QSize(321, 123), Qt::white, paint, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), QSize(321, 123));
        QCOMPARE(image.pixelColor(0, 0), QColor(Qt::white));
        QCOMPARE(image.pixelColor(160, 60), QColor(Qt::red));

        const QString svg = dir.filePath(QStringLiteral("chart.svg"));
        QVERIFY2(writeSvgImage(svg, QSize(321, 123), QStringLiteral("A title"), paint, &error), qPrintable(error));
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("viewBox=\"0 0 321 123\""));
        QVERIFY(text.contains("<title>A title</title>"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);  // nothing left beside them
    }

    void badSizesAndPlacesAreRefusedWithASentence()
    {
        QTemporaryDir dir;
        const auto paint = [](QPainter&, const QRect&) {};
        QString error;
        QVERIFY(!writePngImage(dir.filePath(QStringLiteral("x.png")), QSize(5, 5), Qt::white, paint, &error));
        QVERIFY2(error.contains(QStringLiteral("between 16 and 16384")) && error.contains(QStringLiteral("5 × 5")), qPrintable(error));
        QVERIFY(!writeSvgImage(dir.filePath(QStringLiteral("x.svg")), QSize(20000, 100), QString(), paint, &error));
        QVERIFY2(error.contains(QStringLiteral("20000 × 100")), qPrintable(error));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));

        const QString inMissingFolder = dir.filePath(QStringLiteral("no/such/folder/x.png"));
        QVERIFY(!writePngImage(inMissingFolder, QSize(100, 100), Qt::white, paint, &error));
        QVERIFY2(error.contains(inMissingFolder), qPrintable(error));
    }
};

DDPLAB_UI_TEST_MAIN(TestFileWriters)
#include "tst_file_writers.moc"
