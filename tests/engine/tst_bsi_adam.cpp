// SPDX-License-Identifier: GPL-3.0-or-later
// Batch-size-invariant Adam and AdamW (adam_bsi, adamw_bsi) against a reference written in
// PyTorch from Wang and Aitchison's paper (tests/tools/make_bsi_adam_goldens.py), step for step:
// seed 004's linear model on 1, 2 and 4 ranks, with gradient accumulation (a short last step
// too), both weight decays. Plain Adam on the same runs differs visibly once there is more than
// one rank or micro-batch, so the reference is not Adam's trajectory by accident.

#include "support/engine_process.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using ddplab::test::EngineResult;
using ddplab::test::maxRelativeDifference;
using ddplab::test::runConfig;
using ddplab::test::stepValues;

namespace {

QList<double> numbers(const QJsonArray& array)
{
    QList<double> values;
    for (const QJsonValue& value : array)
        values.append(value.toDouble());
    return values;
}

// Float32 in another order (a stack of micro-batch gradients against buckets summed over ranks).
constexpr double kTolerance = 1e-5;

}  // namespace

class BsiAdamTest : public QObject {
    Q_OBJECT

private slots:
    void matchesPyTorchReference_data();
    void matchesPyTorchReference();
};

void BsiAdamTest::matchesPyTorchReference_data()
{
    QTest::addColumn<QJsonObject>("golden");
    QFile file(QStringLiteral(DDPLAB_TEST_DATA_DIR "/bsi_adam_golden.json"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray cases = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("cases")).toArray();
    QVERIFY2(cases.size() >= 8, "tests/data/bsi_adam_golden.json is missing or short");
    for (const QJsonValue& value : cases)
        QTest::newRow(qPrintable(value.toObject().value(QStringLiteral("name")).toString())) << value.toObject();
}

void BsiAdamTest::matchesPyTorchReference()
{
    QFETCH(QJsonObject, golden);
    const QJsonObject config = golden.value(QStringLiteral("config")).toObject();
    const EngineResult result = runConfig(config);
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    const QList<double> losses = numbers(golden.value(QStringLiteral("losses")).toArray());
    const QList<double> trainLosses = numbers(golden.value(QStringLiteral("train_losses")).toArray());
    QCOMPARE(stepValues(result, QStringLiteral("loss")).size(), losses.size());
    const double worstLoss = maxRelativeDifference(stepValues(result, QStringLiteral("loss")), losses);
    const double worstTrain = maxRelativeDifference(stepValues(result, QStringLiteral("train_loss")), trainLosses);
    qInfo("%lld steps, largest relative difference to the reference: step loss %.1e, training-set loss %.1e",
          qlonglong(losses.size()), worstLoss, worstTrain);
    QVERIFY2(worstLoss < kTolerance, qPrintable(QString::number(worstLoss)));
    QVERIFY2(worstTrain < kTolerance, qPrintable(QString::number(worstTrain)));

    // With one rank and one micro-batch the mean of squares is the square: Adam itself.
    // Otherwise Adam takes other steps.
    const bool single = config.value(QStringLiteral("world_size")).toInt() == 1 && config.value(QStringLiteral("grad_accum")).toInt(1) == 1;
    QJsonObject adam = config;
    adam.insert(QStringLiteral("optimizer"), config.value(QStringLiteral("optimizer")).toString().remove(QStringLiteral("_bsi")));
    const EngineResult plain = runConfig(adam);
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.summaryText()));
    const double fromAdam = maxRelativeDifference(stepValues(plain, QStringLiteral("train_loss")), trainLosses);
    if (single)
        QVERIFY2(fromAdam < kTolerance, qPrintable(QString::number(fromAdam)));
    else
        QVERIFY2(fromAdam > 0.01, qPrintable(QString::number(fromAdam)));
}

QTEST_GUILESS_MAIN(BsiAdamTest)
#include "tst_bsi_adam.moc"
