// SPDX-License-Identifier: GPL-3.0-or-later
// DistributedSampler + DataLoader, in-process (data/distributed_sampler): every case of the
// golden file PyTorch wrote (tests/tools/make_sampler_goldens.py) index for index, and the
// sizes that follow from padding and drop_last. tst_sampler checks the same through the binary.

#include "data/distributed_sampler.hpp"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace ddplab;

namespace {

QJsonArray goldenCases()
{
    QFile file(QStringLiteral(DDPLAB_TEST_DATA_DIR "/sampler_golden.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("cases")).toArray();
}

QJsonArray asJson(const std::vector<std::vector<int64_t>>& batches)
{
    QJsonArray array;
    for (const auto& batch : batches) {
        QJsonArray indices;
        for (int64_t index : batch)
            indices.append(qint64(index));
        array.append(indices);
    }
    return array;
}

}  // namespace

class TestDistributedSampler : public QObject {
    Q_OBJECT

private slots:
    void matchesPyTorch_data()
    {
        QTest::addColumn<QJsonObject>("golden");
        const QJsonArray cases = goldenCases();
        QVERIFY2(cases.size() >= 15, "tests/data/sampler_golden.json is missing or short");
        int n = 0;
        for (const QJsonValue& value : cases)
            QTest::newRow(qPrintable(QStringLiteral("case %1").arg(n++))) << value.toObject();
    }

    void matchesPyTorch()
    {
        QFETCH(QJsonObject, golden);
        SamplerSettings settings;
        settings.numExamples = golden.value(QStringLiteral("num_examples")).toInt();
        settings.worldSize = golden.value(QStringLiteral("world_size")).toInt();
        settings.shuffle = golden.value(QStringLiteral("shuffle")).toBool();
        settings.seed = golden.value(QStringLiteral("seed")).toInt();
        settings.dropLast = golden.value(QStringLiteral("drop_last")).toBool();
        const int64_t epoch = golden.value(QStringLiteral("epoch")).toInt();
        const int64_t batch = golden.value(QStringLiteral("batch_size")).toInt();
        const QJsonArray ranks = golden.value(QStringLiteral("ranks")).toArray();
        QCOMPARE(ranks.size(), qsizetype(settings.worldSize));
        for (int64_t rank = 0; rank < settings.worldSize; ++rank)
            QCOMPARE(asJson(rankBatches(settings, rank, epoch, batch)), ranks.at(rank).toArray());
    }

    void paddingAndDropLastSizes()
    {
        // 10 examples on 4 ranks: 3 each with padding (2 repeated from the head), 2 each with drop_last.
        SamplerSettings settings{10, 4, false, 0, false};
        for (int64_t rank = 0; rank < 4; ++rank)
            QCOMPARE(rankIndices(settings, rank, 0).size(), size_t(3));
        QCOMPARE(rankIndices(settings, 2, 0), (std::vector<int64_t>{2, 6, 0}));  // 10, 11 wrap to 0, 1
        settings.dropLast = true;
        for (int64_t rank = 0; rank < 4; ++rank)
            QCOMPARE(rankIndices(settings, rank, 0).size(), size_t(2));
    }

    void anEpochIsAnotherShuffle()
    {
        const SamplerSettings settings{64, 2, true, 7, false};
        QVERIFY(rankIndices(settings, 0, 0) != rankIndices(settings, 0, 1));
        QCOMPARE(rankIndices(settings, 0, 3), rankIndices(settings, 0, 3));
    }
};

QTEST_GUILESS_MAIN(TestDistributedSampler)
#include "tst_distributed_sampler.moc"
