// SPDX-License-Identifier: GPL-3.0-or-later
// `ddplab-engine shard` gives, index for index, what PyTorch's DistributedSampler +
// DataLoader give (golden file from tests/tools/make_sampler_goldens.py), and marks the padding
// repeats and the dropped tail as seed 004's tables show them.

#include "support/engine_process.hpp"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using ddplab::test::runEngine;

namespace {

QJsonObject loadGolden()
{
    QFile file(QStringLiteral(DDPLAB_TEST_DATA_DIR "/sampler_golden.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonObject shard(const QJsonObject& c)
{
    QStringList args{QStringLiteral("shard"),
                     QStringLiteral("--num-examples"), QString::number(c.value(QStringLiteral("num_examples")).toInt()),
                     QStringLiteral("--world-size"), QString::number(c.value(QStringLiteral("world_size")).toInt()),
                     QStringLiteral("--batch-size"), QString::number(c.value(QStringLiteral("batch_size")).toInt()),
                     QStringLiteral("--seed"), QString::number(c.value(QStringLiteral("seed")).toInt()),
                     QStringLiteral("--epoch"), QString::number(c.value(QStringLiteral("epoch")).toInt())};
    if (c.value(QStringLiteral("drop_last")).toBool())
        args << QStringLiteral("--drop-last");
    if (c.value(QStringLiteral("shuffle")).toBool())
        args << QStringLiteral("--shuffle");
    const auto result = runEngine(args);
    return result.exitCode == 0 && !result.events.isEmpty() ? result.events.first() : QJsonObject();
}

}  // namespace

class SamplerTest : public QObject {
    Q_OBJECT

private slots:
    void matchesPyTorch_data();
    void matchesPyTorch();
    void seed004TableMarksPaddingAndDrop();
    void rejectsBadArguments();
    void aHugeDataSetIsSummarised();
};

void SamplerTest::matchesPyTorch_data()
{
    QTest::addColumn<QJsonObject>("golden");
    const QJsonArray cases = loadGolden().value(QStringLiteral("cases")).toArray();
    QVERIFY2(cases.size() >= 15, "tests/data/sampler_golden.json is missing or short");
    for (const QJsonValue& value : cases) {
        const QJsonObject c = value.toObject();
        const QString name = QStringLiteral("N=%1 K=%2 B=%3%4%5 seed=%6 epoch=%7")
                                 .arg(c.value(QStringLiteral("num_examples")).toInt())
                                 .arg(c.value(QStringLiteral("world_size")).toInt())
                                 .arg(c.value(QStringLiteral("batch_size")).toInt())
                                 .arg(c.value(QStringLiteral("drop_last")).toBool() ? QStringLiteral(" drop_last") : QString())
                                 .arg(c.value(QStringLiteral("shuffle")).toBool() ? QStringLiteral(" shuffle") : QString())
                                 .arg(c.value(QStringLiteral("seed")).toInt())
                                 .arg(c.value(QStringLiteral("epoch")).toInt());
        QTest::newRow(qPrintable(name)) << c;
    }
}

void SamplerTest::matchesPyTorch()
{
    QFETCH(QJsonObject, golden);
    const QJsonObject report = shard(golden);
    QVERIFY(!report.isEmpty());
    QCOMPARE(report.value(QStringLiteral("ranks")).toArray(), golden.value(QStringLiteral("ranks")).toArray());
}

void SamplerTest::seed004TableMarksPaddingAndDrop()
{
    QJsonObject c{{QStringLiteral("num_examples"), 9}, {QStringLiteral("world_size"), 2}, {QStringLiteral("batch_size"), 3},
                  {QStringLiteral("seed"), 0},         {QStringLiteral("epoch"), 0},      {QStringLiteral("shuffle"), false}};
    // Iteration 2: process 1 gets x7 x9, process 2 gets x8 and x1 again (0-based 6 8 | 7 0).
    const QJsonObject padded = shard(c);
    QCOMPARE(padded.value(QStringLiteral("ranks")).toArray(),
             QJsonDocument::fromJson("[[[0,2,4],[6,8]],[[1,3,5],[7,0]]]").array());
    QCOMPARE(padded.value(QStringLiteral("padding")).toArray(), QJsonDocument::fromJson("[[1,1,1]]").array());
    QCOMPARE(padded.value(QStringLiteral("dropped")).toArray(), QJsonArray());

    // With drop_last: x9 is discarded and iteration 2 holds x7 | x8.
    c.insert(QStringLiteral("drop_last"), true);
    const QJsonObject dropped = shard(c);
    QCOMPARE(dropped.value(QStringLiteral("ranks")).toArray(), QJsonDocument::fromJson("[[[0,2,4],[6]],[[1,3,5],[7]]]").array());
    QCOMPARE(dropped.value(QStringLiteral("dropped")).toArray(), QJsonDocument::fromJson("[8]").array());
    QCOMPARE(dropped.value(QStringLiteral("padding")).toArray(), QJsonArray());
}

void SamplerTest::rejectsBadArguments()
{
    const auto zero = runEngine({QStringLiteral("shard"), QStringLiteral("--num-examples"), QStringLiteral("0"),
                                 QStringLiteral("--world-size"), QStringLiteral("2"), QStringLiteral("--batch-size"),
                                 QStringLiteral("3")});
    QCOMPARE(zero.exitCode, 2);
    QVERIFY2(zero.stderrText.contains("--num-examples"), zero.stderrText.constData());
    const auto missing = runEngine({QStringLiteral("shard"), QStringLiteral("--num-examples"), QStringLiteral("9")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.stderrText.contains("--world-size") && missing.stderrText.contains("required"), missing.stderrText.constData());
}

void SamplerTest::aHugeDataSetIsSummarised()
{
    // 10^7 examples over 128 ranks took 16 s and 2.2 GB (each rank's list was made from a list
    // of all), 10^8 ran past a minute, for a gigabyte of JSON: now the first iterations, in a
    // moment. The counts, padding and dropped indices stay whole.
    QElapsedTimer clock;
    clock.start();
    const auto huge = runEngine({QStringLiteral("shard"), QStringLiteral("--num-examples"), QStringLiteral("99999997"),
                                 QStringLiteral("--world-size"), QStringLiteral("128"), QStringLiteral("--batch-size"), QStringLiteral("1"),
                                 QStringLiteral("--drop-last")});
    QVERIFY2(huge.exitCode == 0, huge.stderrText.constData());
    QVERIFY2(clock.elapsed() < 30000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
    const QJsonObject report = huge.events.first();
    QCOMPARE(report.value(QStringLiteral("iterations")).toInt(), 781249);
    QCOMPARE(report.value(QStringLiteral("listed_iterations")).toInt(), 1000000 / 128);
    const QJsonArray ranks = report.value(QStringLiteral("ranks")).toArray();
    QCOMPARE(ranks.size(), 128);
    QCOMPARE(ranks.at(5).toArray().size(), 1000000 / 128);
    QCOMPARE(ranks.at(5).toArray().at(10).toArray(), QJsonArray{5 + 10 * 128});
    // 99999997 = 781249 x 128 + 125: drop_last drops the last 125.
    const QJsonArray dropped = report.value(QStringLiteral("dropped")).toArray();
    QCOMPARE(dropped.size(), 125);
    QCOMPARE(dropped.first().toInt(), 99999872);
    QCOMPARE(dropped.last().toInt(), 99999996);

    // Below the limit nothing changes: every iteration is listed.
    QJsonObject small{{QStringLiteral("num_examples"), 9}, {QStringLiteral("world_size"), 2}, {QStringLiteral("batch_size"), 3},
                      {QStringLiteral("shuffle"), true}};
    const QJsonObject listed = shard(small);
    QCOMPARE(listed.value(QStringLiteral("listed_iterations")).toInt(), listed.value(QStringLiteral("iterations")).toInt());
}

QTEST_GUILESS_MAIN(SamplerTest)
#include "tst_sampler.moc"
