// SPDX-License-Identifier: GPL-3.0-or-later
// Real multi-process runs on Gloo over loopback: 1, 2 and 4 ranks with the same global batch
// follow the same trajectory (so gradients really are averaged across processes), the stream
// is mirrored to the events file, the private run directory is removed, and two runs at once
// do not collide.

#include "support/engine_process.hpp"
#include "support/process_table.hpp"

#include <QDir>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using ddplab::test::EngineResult;
using ddplab::test::runEngine;
using ddplab::test::runFlags;  // toyRun(...).mid(1): its flags, run as settings in the session

namespace {

QStringList toyRun(int worldSize, int batchSize)
{
    return {QStringLiteral("run"),          QStringLiteral("--world-size"), QString::number(worldSize),
            QStringLiteral("--batch-size"), QString::number(batchSize),      QStringLiteral("--lr"),
            QStringLiteral("0.01"),         QStringLiteral("--noise"),       QStringLiteral("1"),
            QStringLiteral("--experiments"), QStringLiteral("16"),           QStringLiteral("--epochs"),
            QStringLiteral("3"),            QStringLiteral("--num-examples"), QStringLiteral("200")};
}

}  // namespace

class MultiProcessTest : public QObject {
    Q_OBJECT

private slots:
    void sameGlobalBatchSameTrajectory();
    void perRankBatchMattersWithoutScaling();
    void eventsFileMirrorsStdout();
    void runDirectoryIsPrivateAndRemoved();
    void twoRunsAtOnceDoNotCollide();
    void localRunUsesLoopbackOnly();
};

void MultiProcessTest::sameGlobalBatchSameTrajectory()
{
    // 200 examples: 1 x 64 sees batches 64, 64, 64, 8; 2 x 32 and 4 x 16 split each of them.
    QList<EngineResult> results;
    for (const auto& [ranks, batch] : {std::pair{1, 64}, {2, 32}, {4, 16}}) {
        results.append(runFlags(toyRun(ranks, batch).mid(1)));
        QVERIFY2(results.last().exitCode == 0, qPrintable(results.last().summaryText()));
        const QJsonObject config = results.last().first(QStringLiteral("config"));
        QCOMPARE(config.value(QStringLiteral("world_size")).toInt(), ranks);
        QCOMPARE(config.value(QStringLiteral("backend")).toString(), QStringLiteral("gloo"));
        QCOMPARE(config.value(QStringLiteral("launched_by")).toString(), QStringLiteral("ddplab"));
        QCOMPARE(config.value(QStringLiteral("effective_batch_size")).toInt(), 64);
    }
    const auto reference = results[0].ofType(QStringLiteral("step"));
    QCOMPARE(reference.size(), 3 * 4);
    for (int r = 1; r < results.size(); ++r) {
        const auto steps = results[r].ofType(QStringLiteral("step"));
        QCOMPARE(steps.size(), reference.size());
        for (int i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i].value(QStringLiteral("samples")).toInt(), reference[i].value(QStringLiteral("samples")).toInt());
            const double w = steps[i].value(QStringLiteral("w_mean")).toDouble();
            const double w0 = reference[i].value(QStringLiteral("w_mean")).toDouble();
            QVERIFY2(std::fabs(w - w0) < 1e-6, qPrintable(QStringLiteral("step %1: %2 vs %3").arg(i).arg(w).arg(w0)));
            const double loss = steps[i].value(QStringLiteral("loss")).toDouble();
            const double loss0 = reference[i].value(QStringLiteral("loss")).toDouble();
            QVERIFY(std::fabs(loss - loss0) < 1e-5);
        }
    }
}

void MultiProcessTest::perRankBatchMattersWithoutScaling()
{
    // 2 ranks x 32 is a batch of 64, not of 32: half the steps, so a different weight.
    const EngineResult two = runFlags(toyRun(2, 32).mid(1));
    const EngineResult one = runFlags(toyRun(1, 32).mid(1));
    QVERIFY(two.exitCode == 0 && one.exitCode == 0);
    QCOMPARE(one.last(QStringLiteral("summary")).value(QStringLiteral("steps")).toInt(), 3 * 7);
    QCOMPARE(two.last(QStringLiteral("summary")).value(QStringLiteral("steps")).toInt(), 3 * 4);
    const double wOne = one.last(QStringLiteral("summary")).value(QStringLiteral("w_mean")).toDouble();
    const double wTwo = two.last(QStringLiteral("summary")).value(QStringLiteral("w_mean")).toDouble();
    QVERIFY2(std::fabs(wOne - wTwo) > 0.05, qPrintable(QStringLiteral("%1 vs %2").arg(wOne).arg(wTwo)));
}

void MultiProcessTest::eventsFileMirrorsStdout()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("events.jsonl"));
    const EngineResult result = runEngine(toyRun(2, 32) + QStringList{QStringLiteral("--events"), path});
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QJsonObject> fromFile = ddplab::test::parseEvents(file.readAll());
    QCOMPARE(fromFile.size(), result.events.size());
    QCOMPARE(fromFile.first().value(QStringLiteral("type")).toString(), QStringLiteral("hello"));
    QCOMPARE(fromFile.last(), result.events.last());
    QCOMPARE(fromFile.last().value(QStringLiteral("type")).toString(), QStringLiteral("summary"));
}

void MultiProcessTest::runDirectoryIsPrivateAndRemoved()
{
    QTemporaryDir tmp;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TMPDIR"), tmp.path());
    const EngineResult result = runEngine(toyRun(4, 16), 300000, environment);
    QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
    // The FileStore lived in TMPDIR/ddplab-run-XXXXXX and is gone with it.
    QCOMPARE(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList());
}

void MultiProcessTest::twoRunsAtOnceDoNotCollide()
{
    QProcess first, second;
    first.start(ddplab::test::enginePath(), toyRun(4, 16));
    second.start(ddplab::test::enginePath(), toyRun(2, 32));
    QVERIFY(first.waitForFinished(300000));
    QVERIFY(second.waitForFinished(300000));
    const EngineResult a = ddplab::test::collect(first);
    const EngineResult b = ddplab::test::collect(second);
    QVERIFY2(a.exitCode == 0, qPrintable(a.summaryText()));
    QVERIFY2(b.exitCode == 0, qPrintable(b.summaryText()));
    // Same global batch, same data: both reach the same weight despite running side by side.
    const double wa = a.last(QStringLiteral("summary")).value(QStringLiteral("w_mean")).toDouble();
    const double wb = b.last(QStringLiteral("summary")).value(QStringLiteral("w_mean")).toDouble();
    QVERIFY(std::fabs(wa - wb) < 1e-6);
}

void MultiProcessTest::localRunUsesLoopbackOnly()
{
    // Watch every TCP socket of a 4-rank run while it trains: the ranks talk over loopback
    // and nothing of the run ever listens on a public interface.
    QTemporaryDir dir;
    const QString marker = dir.filePath(QStringLiteral("loopback.jsonl"));
    QProcess engine;
    engine.start(ddplab::test::enginePath(),
                 {QStringLiteral("run"), QStringLiteral("--world-size"), QStringLiteral("4"), QStringLiteral("--batch-size"),
                  QStringLiteral("1"), QStringLiteral("--epochs"), QStringLiteral("100000"), QStringLiteral("--events"), marker});
    QVERIFY(engine.waitForStarted());
    // Each connection counts once, however many polls see it: 4 ranks are 6 pairs, each seen
    // from both of its ends.
    QSet<QString> ends;
    QSet<QString> pairs;
    QElapsedTimer watching;
    watching.start();
    while ((ends.size() < 12 || pairs.size() < 6) && watching.elapsed() < 60000) {
        for (const auto& socket : ddplab::test::tcpSocketsOf(ddplab::test::processesWithArgument(marker))) {
            const bool loopback = socket.localAddress.startsWith(QStringLiteral("127.")) || socket.localAddress == QStringLiteral("::1");
            QVERIFY2(loopback, qPrintable(QStringLiteral("%1 socket on %2:%3")
                                               .arg(socket.listening ? QStringLiteral("listening") : QStringLiteral("connected"))
                                               .arg(socket.localAddress).arg(socket.localPort)));
            if (socket.listening)
                continue;
            const QString local = QStringLiteral("%1:%2").arg(socket.localAddress).arg(socket.localPort);
            const QString remote = QStringLiteral("%1:%2").arg(socket.remoteAddress).arg(socket.remotePort);
            ends.insert(local + QStringLiteral("->") + remote);
            pairs.insert(std::min(local, remote) + QStringLiteral("<->") + std::max(local, remote));
        }
        QTest::qWait(50);
    }
    engine.terminate();
    QVERIFY(engine.waitForFinished(60000));
    QCOMPARE(engine.exitCode(), 5);  // cancelled
    QVERIFY2(ends.size() >= 12 && pairs.size() >= 6,
             qPrintable(QStringLiteral("saw %1 connection ends in %2 pairs").arg(ends.size()).arg(pairs.size())));
}

QTEST_GUILESS_MAIN(MultiProcessTest)
#include "tst_multiprocess.moc"
