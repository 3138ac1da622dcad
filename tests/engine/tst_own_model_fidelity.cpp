// SPDX-License-Identifier: GPL-3.0-or-later
// The engine against PyTorch itself on the user's own model: the same TorchScript file (a CNN
// with BatchNorm and dropout), the same data and sampler order, trained by the engine and by
// nn.DistributedDataParallel over Gloo (bench/peers/torchscript_ddp_peer.py). Every step's
// loss and every evaluation agree within 1e-5 relative, and so do the BatchNorm running
// statistics and parameters after the last step, for 1 and 2 ranks, SGD with momentum and
// Adam, with and without gradient accumulation. The evaluations run on rank 0's buffers,
// broadcast as DDP broadcasts them, so they check that semantics too. The Python programs (the
// peer, its ranks, the tools that make and compare models) are forks of one python3 that has
// imported torch once (tests/support/forked_python.hpp): the peer forks its ranks
// (--start-method fork) rather than spawning interpreters that import torch again.

#include "support/engine_process.hpp"
#include "support/forked_python.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using ddplab::test::EngineResult;
using ddplab::test::runEngine;

namespace {

const QString kSource = QStringLiteral(DDPLAB_SOURCE_DIR);
// A peer runs in about 2 s. QtTest's own limit (300 s) is for a test function with all its
// rows: five rows each waiting this long for a hung peer stay under it, so a hang is a failure
// that says so, its processes ended, not an abort.
constexpr int kPythonMs = 50000;
constexpr double kRelative = 1e-5;

struct PythonResult {
    int exitCode = -1;
    QList<QJsonObject> lines;
    QString errors;
};

PythonResult runPython(ddplab::test::ForkedPython& python, const QStringList& arguments)
{
    bool timedOut = false;
    const ddplab::test::PythonExit exit = python.run({{arguments, {}}}, kPythonMs / 1000, &timedOut).first();
    PythonResult result;
    if (timedOut) {
        // The forking python3 has killed the program's process group: the peer and its ranks.
        result.errors = QStringLiteral("the Python peer did not finish within %1 s; it said: %2").arg(kPythonMs / 1000).arg(exit.err);
        return result;
    }
    result.exitCode = exit.code;
    result.lines = ddplab::test::parseEvents(exit.out.toUtf8());
    result.errors = exit.err;
    return result;
}

bool close(double engine, double peer)
{
    return std::abs(engine - peer) <= kRelative * std::max(std::abs(engine), std::abs(peer));
}

QList<QJsonObject> ofType(const QList<QJsonObject>& lines, const QString& type)
{
    QList<QJsonObject> found;
    for (const QJsonObject& line : lines) {
        if (line.value(QStringLiteral("type")).toString() == type)
            found.append(line);
    }
    return found;
}

}  // namespace

class OwnModelFidelityTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void engineMatchesPythonDdp_data();
    void engineMatchesPythonDdp();

private:
    QTemporaryDir m_dir;
    ddplab::test::ForkedPython m_python;
};

void OwnModelFidelityTest::initTestCase()
{
    // The forking python3 imports torch and numpy, or says what installs them.
    const QString missing = m_python.start(kSource + QStringLiteral("/tests/tools/forked_python.py"));
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
    const PythonResult made = runPython(m_python, {kSource + QStringLiteral("/tests/tools/make_own_model_case.py"), m_dir.path()});
    QVERIFY2(made.exitCode == 0, qPrintable(made.errors));
}

void OwnModelFidelityTest::engineMatchesPythonDdp_data()
{
    QTest::addColumn<int>("ranks");
    QTest::addColumn<QJsonObject>("settings");
    const QJsonObject sgd{{QStringLiteral("optimizer"), QStringLiteral("sgd")}, {QStringLiteral("lr"), 0.02}, {QStringLiteral("momentum"), 0.9}};
    const QJsonObject adam{{QStringLiteral("optimizer"), QStringLiteral("adam")}, {QStringLiteral("lr"), 0.005}};
    QJsonObject accumulating = sgd;
    accumulating.insert(QStringLiteral("grad_accum"), 2);
    QTest::newRow("1 rank, SGD with momentum") << 1 << sgd;
    QTest::newRow("2 ranks, SGD with momentum") << 2 << sgd;
    QTest::newRow("1 rank, Adam") << 1 << adam;
    QTest::newRow("2 ranks, Adam") << 2 << adam;
    QTest::newRow("2 ranks, SGD, grad_accum 2") << 2 << accumulating;
}

void OwnModelFidelityTest::engineMatchesPythonDdp()
{
    QFETCH(int, ranks);
    QFETCH(QJsonObject, settings);
    const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(QRegularExpression(QStringLiteral("\\W+")), QStringLiteral("-"));
    QJsonObject config{{QStringLiteral("workload"), QStringLiteral("torchscript")},
                       {QStringLiteral("model_file"), m_dir.filePath(QStringLiteral("bn_cnn.pt"))},
                       {QStringLiteral("train_data"), m_dir.filePath(QStringLiteral("train.pt"))},
                       {QStringLiteral("val_data"), m_dir.filePath(QStringLiteral("val.pt"))},
                       {QStringLiteral("world_size"), ranks},
                       {QStringLiteral("batch_size"), 16},
                       {QStringLiteral("epochs"), 4},
                       {QStringLiteral("seed"), 3},
                       {QStringLiteral("threads"), 1},
                       {QStringLiteral("eval_every"), 5},
                       {QStringLiteral("save_model"), m_dir.filePath(tag + QStringLiteral("-engine.pt"))}};
    for (auto it = settings.begin(); it != settings.end(); ++it)
        config.insert(it.key(), it.value());
    const QString configPath = m_dir.filePath(tag + QStringLiteral(".json"));
    QFile file(configPath);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(config).toJson());
    file.close();

    const EngineResult engine = runEngine({QStringLiteral("run"), QStringLiteral("--config"), configPath});
    QVERIFY2(engine.exitCode == 0, qPrintable(engine.summaryText()));
    const QString peerModel = m_dir.filePath(tag + QStringLiteral("-peer.pt"));
    const PythonResult peer = runPython(m_python, {kSource + QStringLiteral("/bench/peers/torchscript_ddp_peer.py"), QStringLiteral("--config"),
                                                   configPath, QStringLiteral("--save"), peerModel, QStringLiteral("--start-method"),
                                                   QStringLiteral("fork")});
    QVERIFY2(peer.exitCode == 0, qPrintable(peer.errors));

    const auto engineSteps = engine.ofType(QStringLiteral("step"));
    const auto peerSteps = ofType(peer.lines, QStringLiteral("step"));
    QVERIFY(engineSteps.size() >= 8);
    QCOMPARE(engineSteps.size(), peerSteps.size());
    for (int i = 0; i < engineSteps.size(); ++i) {
        const double mine = engineSteps[i].value(QStringLiteral("loss")).toDouble();
        const double theirs = peerSteps[i].value(QStringLiteral("loss")).toDouble();
        QVERIFY2(close(mine, theirs), qPrintable(QStringLiteral("step %1: engine %2, DDP %3").arg(i + 1).arg(mine, 0, 'g', 10).arg(theirs, 0, 'g', 10)));
        QCOMPARE(engineSteps[i].value(QStringLiteral("accuracy")).toDouble(), peerSteps[i].value(QStringLiteral("accuracy")).toDouble());
    }
    // The loss moved: a run that learned nothing would agree trivially.
    QVERIFY(engineSteps.last().value(QStringLiteral("loss")).toDouble() < 0.8 * engineSteps.first().value(QStringLiteral("loss")).toDouble());

    const auto engineEvals = engine.ofType(QStringLiteral("eval"));
    const auto peerEvals = ofType(peer.lines, QStringLiteral("eval"));
    QVERIFY(engineEvals.size() >= 3);
    QCOMPARE(engineEvals.size(), peerEvals.size());
    for (int i = 0; i < engineEvals.size(); ++i) {
        QCOMPARE(engineEvals[i].value(QStringLiteral("step")).toInt(), peerEvals[i].value(QStringLiteral("step")).toInt());
        const double mine = engineEvals[i].value(QStringLiteral("val_loss")).toDouble();
        const double theirs = peerEvals[i].value(QStringLiteral("val_loss")).toDouble();
        QVERIFY2(close(mine, theirs), qPrintable(QStringLiteral("evaluation %1: engine %2, DDP %3").arg(i + 1).arg(mine, 0, 'g', 10).arg(theirs, 0, 'g', 10)));
    }

    // Rank 0's model after the last step: BatchNorm's running statistics and every parameter.
    const PythonResult compared = runPython(m_python, {kSource + QStringLiteral("/tests/tools/compare_models.py"),
                                                       m_dir.filePath(tag + QStringLiteral("-engine.pt")), peerModel});
    QVERIFY2(compared.exitCode == 0 && !compared.lines.isEmpty(), qPrintable(compared.errors));
    const QJsonObject difference = compared.lines.first();
    QCOMPARE(difference.value(QStringLiteral("buffers")).toArray().size(), 6);
    QVERIFY2(difference.value(QStringLiteral("buffers_max_rel")).toDouble() <= kRelative, QJsonDocument(difference).toJson().constData());
    QVERIFY2(difference.value(QStringLiteral("parameters_max_rel")).toDouble() <= kRelative, QJsonDocument(difference).toJson().constData());
}

QTEST_GUILESS_MAIN(OwnModelFidelityTest)
#include "tst_own_model_fidelity.moc"
