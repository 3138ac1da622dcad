// SPDX-License-Identifier: GPL-3.0-or-later
// Threads per rank when `threads` is 0 (docs/metrics.md): a share of the free cores. The
// arithmetic on known loads, and a real 1-rank run beside a busy process, which must take fewer
// threads than the machine has cores (a thread spinning against the busy process made such runs
// 7-14x slower).

#include "launch/thread_share.hpp"
#include "support/engine_process.hpp"

#include <QProcess>
#include <QtTest>

#include <cmath>
#include <thread>

class ThreadShareTest : public QObject {
    Q_OBJECT

private slots:
    void sharesTheFreeCores()
    {
        QCOMPARE(ddplab::shareOfFreeCores(16, 0.0, 2).threads, 8);
        QCOMPARE(ddplab::shareOfFreeCores(16, 4.0, 2).threads, 6);
        QCOMPARE(ddplab::shareOfFreeCores(2, 1.0, 1).threads, 1);
        QCOMPARE(ddplab::shareOfFreeCores(2, 0.0, 1).threads, 2);
        // A core busy a quarter of the time or less counts as free; more, as taken.
        QCOMPARE(ddplab::shareOfFreeCores(2, 0.25, 1).threads, 2);
        QCOMPARE(ddplab::shareOfFreeCores(2, 0.3, 1).threads, 1);
        // Fewer free cores than ranks: one thread each, and said.
        const ddplab::ThreadShare crowded = ddplab::shareOfFreeCores(2, 1.9, 4);
        QCOMPARE(crowded.threads, 1);
        QVERIFY(crowded.reason.find("one thread each") != std::string::npos);
        // Unknown load: all cores, as before.
        QCOMPARE(ddplab::shareOfFreeCores(8, std::nan(""), 2).threads, 4);
    }

    void aRankBesideABusyProcessLeavesItsCore()
    {
        const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
        if (cores < 2)
            QSKIP("one core: nothing to share");
        QProcess busy;
        busy.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("while :; do :; done")});
        QVERIFY(busy.waitForStarted());
        QTest::qWait(300);
        const ddplab::test::EngineResult run = ddplab::test::runEngine({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("toy"),
                                                                        QStringLiteral("--max-steps"), QStringLiteral("2")});
        busy.kill();
        busy.waitForFinished();
        QVERIFY2(run.exitCode == 0, qPrintable(run.summaryText()));
        const QJsonObject config = run.first(QStringLiteral("config"));
        QVERIFY2(config.value(QStringLiteral("threads_per_rank")).toInt() <= cores - 1,
                 qPrintable(config.value(QStringLiteral("threads_reason")).toString()));
        QVERIFY(config.value(QStringLiteral("threads_reason")).toString().contains(QStringLiteral("busy with other programs")));
        // A setting is taken as it is.
        const ddplab::test::EngineResult set = ddplab::test::runEngine({QStringLiteral("run"), QStringLiteral("--workload"), QStringLiteral("toy"),
                                                                        QStringLiteral("--max-steps"), QStringLiteral("2"), QStringLiteral("--threads"), QStringLiteral("2")});
        QVERIFY2(set.exitCode == 0, qPrintable(set.summaryText()));
        QCOMPARE(set.first(QStringLiteral("config")).value(QStringLiteral("threads_per_rank")).toInt(), 2);
    }
};

QTEST_GUILESS_MAIN(ThreadShareTest)
#include "tst_thread_share.moc"
