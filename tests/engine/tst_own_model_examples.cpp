// SPDX-License-Identifier: GPL-3.0-or-later
// The examples that ship with workload torchscript (examples/export_examples.py): the script
// runs with Debian's python3-torch, writes the three models, their data and a config each, and
// every config trains: a few steps lower the loss of the ResNet-style CNN on Fashion-MNIST, the
// character-level transformer on the licence texts and the tabular MLP.

#include "support/engine_process.hpp"
#include "support/prerequisites.hpp"

#include <QTemporaryDir>
#include <QtTest>

using ddplab::test::EngineResult;
using ddplab::test::runEngine;

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);
constexpr int kSteps = 20;
constexpr int kAveraged = 5;  // steps at each end whose losses are averaged (a single step is noisy)

double meanLoss(const QList<QJsonObject>& steps, int from)
{
    double sum = 0.0;
    for (int i = from; i < from + kAveraged; ++i)
        sum += steps[i].value(QStringLiteral("loss")).toDouble();
    return sum / kAveraged;
}

}  // namespace

class OwnModelExamplesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everyExampleTrains_data();
    void everyExampleTrains();

private:
    QTemporaryDir m_dir;
    QString m_printed;
};

void OwnModelExamplesTest::initTestCase()
{
    const QString missing = ddplab::test::missingFashionMnist();
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    // The script as a user runs it, by itself; whether torch imports is asked only when it
    // failed, to say why (a check first was a second `import torch`, about 2 s of CPU).
    QProcess script;
    script.start(ddplab::test::debianPython(), {kSource + QStringLiteral("/examples/export_examples.py"), QStringLiteral("--small"),
                                                QStringLiteral("--out"), m_dir.path()});
    const bool ended = script.waitForFinished(300000);
    if (!ended || script.exitStatus() != QProcess::NormalExit || script.exitCode() != 0) {
        const QString noTorch = ddplab::test::missingPythonTorch();
        QVERIFY2(noTorch.isEmpty(), qPrintable(noTorch));
    }
    QVERIFY(ended);
    QVERIFY2(script.exitCode() == 0, script.readAllStandardError().constData());
    m_printed = QString::fromUtf8(script.readAllStandardOutput());
}

void OwnModelExamplesTest::everyExampleTrains_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("loss");
    QTest::newRow("ResNet-style CNN, Fashion-MNIST") << QStringLiteral("fashion_resnet") << QStringLiteral("cross_entropy");
    QTest::newRow("character transformer, licences") << QStringLiteral("char_transformer") << QStringLiteral("cross_entropy");
    QTest::newRow("tabular MLP, .npy") << QStringLiteral("tabular_mlp") << QStringLiteral("mse");
}

void OwnModelExamplesTest::everyExampleTrains()
{
    QFETCH(QString, name);
    QFETCH(QString, loss);
    const QString config = m_dir.filePath(name + QStringLiteral(".json"));
    // The script says how to run each one.
    QVERIFY2(m_printed.contains(QStringLiteral("ddplab-engine run --config ") + config), qPrintable(m_printed));
    const EngineResult result = runEngine({QStringLiteral("run"), QStringLiteral("--config"), config, QStringLiteral("--epochs"),
                                           QStringLiteral("10"), QStringLiteral("--max-steps"), QString::number(kSteps),
                                           QStringLiteral("--eval-every"), QString::number(kSteps)});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    QCOMPARE(result.first(QStringLiteral("config")).value(QStringLiteral("loss")).toString(), loss);
    const auto steps = result.ofType(QStringLiteral("step"));
    QCOMPARE(steps.size(), kSteps);
    const double first = meanLoss(steps, 0), last = meanLoss(steps, kSteps - kAveraged);
    QVERIFY2(last < 0.9 * first, qPrintable(QStringLiteral("%1: loss %2 -> %3").arg(name).arg(first).arg(last)));
    QVERIFY(!result.ofType(QStringLiteral("eval")).isEmpty());
}

QTEST_GUILESS_MAIN(OwnModelExamplesTest)
#include "tst_own_model_examples.moc"
