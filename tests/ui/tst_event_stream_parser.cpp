// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's stdout arrives in arbitrary pieces: lines split anywhere must come out whole,
// bad lines must be skipped with a warning without losing their neighbours, and a line that
// never ends must not grow the buffer without bound.

#include "client/engine/event_stream_parser.hpp"
#include "ui_test_main.hpp"

using ddplab::ui::EventStreamParser;
using ddplab::ui::StreamBatch;

namespace {

const QByteArray kThreeEvents = "{\"type\":\"hello\",\"protocol\":1}\n"
                                "{\"type\":\"step\",\"step\":1,\"loss\":0.5,\"lr\":0.001}\n"
                                "{\"type\":\"summary\",\"steps\":1,\"loss\":0.25}\n";

QList<QJsonObject> feedAll(EventStreamParser& parser, const QList<QByteArray>& chunks, QStringList* warnings = nullptr)
{
    QList<QJsonObject> events;
    for (const QByteArray& chunk : chunks) {
        const StreamBatch batch = parser.feed(chunk);
        events += batch.events;
        if (warnings)
            *warnings += batch.warnings;
    }
    return events;
}

}  // namespace

class TestEventStreamParser : public QObject {
    Q_OBJECT

private slots:
    void splitAnywhereGivesTheSameEvents_data()
    {
        QTest::addColumn<int>("splitAt");
        for (int split = 0; split <= kThreeEvents.size(); ++split)
            QTest::addRow("split at %d", split) << split;
    }
    void splitAnywhereGivesTheSameEvents()
    {
        QFETCH(int, splitAt);
        EventStreamParser parser;
        const QList<QJsonObject> events = feedAll(parser, {kThreeEvents.left(splitAt), kThreeEvents.mid(splitAt)});
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
        QCOMPARE(events.at(1).value(QStringLiteral("loss")).toDouble(), 0.5);
        QCOMPARE(events.at(1).value(QStringLiteral("lr")).toDouble(), 0.001);
        QCOMPARE(events.at(2).value(QStringLiteral("loss")).toDouble(), 0.25);
        QCOMPARE(parser.pendingBytes(), 0);
    }

    void byteByByteGivesTheSameEvents()
    {
        EventStreamParser parser;
        QList<QByteArray> bytes;
        for (const char byte : kThreeEvents)
            bytes.append(QByteArray(1, byte));
        QStringList warnings;
        const QList<QJsonObject> events = feedAll(parser, bytes, &warnings);
        QCOMPARE(events.size(), 3);
        QVERIFY(warnings.isEmpty());
        QCOMPARE(events.at(1).value(QStringLiteral("step")).toInt(), 1);
    }

    void oneBatchHoldsEveryCompleteLineOfAChunk()
    {
        EventStreamParser parser;
        const StreamBatch batch = parser.feed(kThreeEvents + "{\"type\":\"step\",\"st");
        QCOMPARE(batch.events.size(), 3);
        QVERIFY(parser.pendingBytes() > 0);
        const StreamBatch rest = parser.feed("ep\":2}\n");
        QCOMPARE(rest.events.size(), 1);
        QCOMPARE(rest.events.first().value(QStringLiteral("step")).toInt(), 2);
    }

    void crlfAndBlankLinesAreTolerated()
    {
        EventStreamParser parser;
        const StreamBatch batch = parser.feed("\n\r\n{\"type\":\"step\",\"step\":3}\r\n   \n{\"type\":\"step\",\"step\":4}\n");
        QCOMPARE(batch.events.size(), 2);
        QCOMPARE(batch.events.at(1).value(QStringLiteral("step")).toInt(), 4);
        QVERIFY(batch.warnings.isEmpty());
    }

    void malformedLineIsSkippedWithAWarning_data()
    {
        QTest::addColumn<QByteArray>("badLine");
        QTest::newRow("not JSON") << QByteArray("Segmentation fault (core dumped)");
        QTest::newRow("cut short") << QByteArray("{\"type\":\"step\",\"step\":");
        QTest::newRow("array") << QByteArray("[1,2,3]");
        QTest::newRow("object without type") << QByteArray("{\"step\":1}");
        QTest::newRow("type not a string") << QByteArray("{\"type\":5}");
        QTest::newRow("bare number") << QByteArray("42");
        QTest::newRow("invalid UTF-8") << QByteArray("{\"type\":\"step\",\"x\":\"\xff\xfe\"");
    }
    void malformedLineIsSkippedWithAWarning()
    {
        QFETCH(QByteArray, badLine);
        EventStreamParser parser;
        const StreamBatch batch = parser.feed("{\"type\":\"step\",\"step\":1}\n" + badLine + "\n{\"type\":\"step\",\"step\":2}\n");
        QCOMPARE(batch.events.size(), 2);
        QCOMPARE(batch.events.at(0).value(QStringLiteral("step")).toInt(), 1);
        QCOMPARE(batch.events.at(1).value(QStringLiteral("step")).toInt(), 2);
        QCOMPARE(batch.warnings.size(), 1);
        QVERIFY2(batch.warnings.first().contains(QStringLiteral("ignored")), qPrintable(batch.warnings.first()));
        QCOMPARE(parser.malformedLineCount(), 1);
    }

    void hugeLineArrivingInPiecesIsDroppedAndMemoryStaysBounded()
    {
        constexpr qsizetype kCap = 1024;
        EventStreamParser parser(kCap);
        QStringList warnings;
        feedAll(parser, {"{\"type\":\"step\",\"step\":1}\n"}, &warnings);
        qsizetype largestPending = 0;
        const QByteArray piece(100, 'x');
        for (int i = 0; i < 1000; ++i) {  // 100 KB without a newline
            warnings += parser.feed(piece).warnings;
            largestPending = std::max(largestPending, parser.pendingBytes());
        }
        QVERIFY2(largestPending <= kCap + piece.size(), qPrintable(QString::number(largestPending)));
        QCOMPARE(parser.pendingBytes(), 0);  // dropped, not kept
        const StreamBatch after = parser.feed("tail of the huge line\n{\"type\":\"step\",\"step\":2}\n");
        QCOMPARE(after.events.size(), 1);
        QCOMPARE(after.events.first().value(QStringLiteral("step")).toInt(), 2);
        QCOMPARE(parser.droppedLineCount(), 1);
        QCOMPARE(warnings.size(), 1);
        QVERIFY(warnings.first().contains(QStringLiteral("longer than")));
    }

    void hugeLineInOneChunkIsDropped()
    {
        EventStreamParser parser(1024);
        const QByteArray huge = "{\"type\":\"step\",\"blob\":\"" + QByteArray(50'000, 'a') + "\"}";
        const StreamBatch batch = parser.feed(huge + "\n{\"type\":\"step\",\"step\":7}\n");
        QCOMPARE(batch.events.size(), 1);
        QCOMPARE(batch.events.first().value(QStringLiteral("step")).toInt(), 7);
        QCOMPARE(parser.droppedLineCount(), 1);
    }

    void lineJustUnderTheCapIsKept()
    {
        EventStreamParser parser(4096);
        const QByteArray line = "{\"type\":\"config\",\"pad\":\"" + QByteArray(4000, 'p') + "\"}";
        QVERIFY(line.size() < 4096);
        const StreamBatch batch = parser.feed(line.left(2000));
        QVERIFY(batch.events.isEmpty());
        const StreamBatch rest = parser.feed(line.mid(2000) + '\n');
        QCOMPARE(rest.events.size(), 1);
        QCOMPARE(rest.events.first().value(QStringLiteral("pad")).toString().size(), 4000);
    }

    void warningsAreCappedButLinesCounted()
    {
        EventStreamParser parser;
        QByteArray garbage;
        for (int i = 0; i < 100; ++i)
            garbage += "garbage line " + QByteArray::number(i) + '\n';
        const StreamBatch batch = parser.feed(garbage);
        QCOMPARE(parser.malformedLineCount(), 100);
        QCOMPARE(batch.warnings.size(), 21);  // 20 shown, then one saying the rest are counted
        QVERIFY(batch.warnings.last().contains(QStringLiteral("counted")));
    }

    void finishParsesALastLineWithoutNewline()
    {
        EventStreamParser parser;
        QVERIFY(parser.feed("{\"type\":\"summary\",\"steps\":9}").events.isEmpty());
        const StreamBatch last = parser.finish();
        QCOMPARE(last.events.size(), 1);
        QCOMPARE(last.events.first().value(QStringLiteral("steps")).toInt(), 9);
        QCOMPARE(parser.pendingBytes(), 0);
    }

    void nullValuesReachTheReaderAsNull()
    {
        EventStreamParser parser;
        const StreamBatch batch = parser.feed("{\"type\":\"step\",\"step\":1,\"loss\":null}\n");
        QCOMPARE(batch.events.size(), 1);
        QVERIFY(batch.events.first().value(QStringLiteral("loss")).isNull());
    }
};

DDPLAB_UI_TEST_MAIN(TestEventStreamParser)
#include "tst_event_stream_parser.moc"
