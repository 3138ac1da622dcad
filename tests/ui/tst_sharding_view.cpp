// SPDX-License-Identifier: GPL-3.0-or-later
// The sharding view asks the real engine how DistributedSampler splits the data and shows it:
// seed 004's 9 examples over 2 ranks (padding with a repeat of x1, or dropping x9), and a new
// order every epoch when shuffling.

#include "client/engine/engine_query.hpp"
#include "client/engine/shard_assignment.hpp"
#include "core/config.hpp"
#include "sharding/shard_grid_widget.hpp"
#include "sharding/sharding_view.hpp"
#include "ui_test_main.hpp"

using namespace ddplab::ui;

namespace {

ShardAssignment assignmentFromEngine(const ShardRequest& request)
{
    const QueryResult result = EngineQuery::runBlocking(ddplab::test::enginePath(), shardArguments(request));
    if (!result.ok)
        qFatal("%s", qPrintable(result.error));
    QString error;
    const std::optional<ShardAssignment> assignment = ShardAssignment::fromJson(result.object, &error);
    if (!assignment)
        qFatal("%s", qPrintable(error));
    return *assignment;
}

}  // namespace

class TestShardingView : public QObject {
    Q_OBJECT

private slots:
    void seed004PaddingRepeatsTheFirstExample()
    {
        const ShardAssignment assignment = assignmentFromEngine({9, 2, 3, false, false, 0, 0});
        QCOMPARE(assignment.samplesPerRank, 5);
        QCOMPARE(assignment.iterations, 2);
        QCOMPARE(assignment.ranks.at(0), (QList<QList<int>>{{0, 2, 4}, {6, 8}}));
        QCOMPARE(assignment.ranks.at(1), (QList<QList<int>>{{1, 3, 5}, {7, 0}}));
        QVERIFY(assignment.isPadding(1, 1, 1));  // x1 (index 0) again, on process 2
        int padded = 0;
        for (int rank = 0; rank < 2; ++rank)
            for (int iteration = 0; iteration < 2; ++iteration)
                for (int position = 0; position < 3; ++position)
                    padded += assignment.isPadding(rank, iteration, position);
        QCOMPARE(padded, 1);
        QVERIFY(assignment.dropped.isEmpty());
        QVERIFY(assignment.summary().contains(QStringLiteral("1 sample(s) repeated as padding")));
        QCOMPARE(assignment.maxBatchLength(), 3);
    }

    void seed004DropLastDropsTheLastExample()
    {
        const ShardAssignment assignment = assignmentFromEngine({9, 2, 3, true, false, 0, 0});
        QCOMPARE(assignment.samplesPerRank, 4);
        QCOMPARE(assignment.dropped, QList<int>{8});
        QVERIFY(assignment.padding.isEmpty());
        QVERIFY(assignment.summary().contains(QStringLiteral("1 example(s) dropped")));
    }

    void shuffleGivesEachEpochItsOwnOrder()
    {
        const ShardAssignment epoch0 = assignmentFromEngine({32, 2, 4, false, true, 7, 0});
        const ShardAssignment epoch1 = assignmentFromEngine({32, 2, 4, false, true, 7, 1});
        const ShardAssignment epoch0Again = assignmentFromEngine({32, 2, 4, false, true, 7, 0});
        QVERIFY(epoch0.ranks != epoch1.ranks);
        QCOMPARE(epoch0.ranks, epoch0Again.ranks);
        QSet<int> seen;
        for (const auto& rank : epoch1.ranks)
            for (const auto& batch : rank)
                for (const int sample : batch)
                    seen.insert(sample);
        QCOMPARE(seen.size(), 32);  // a permutation: every example once
    }

    void requestBecomesEngineArguments()
    {
        const ShardRequest request{10, 3, 2, true, true, 5, 4};
        QCOMPARE(shardArguments(request).join(QLatin1Char(' ')),
                 QStringLiteral("shard --num-examples 10 --world-size 3 --batch-size 2 --drop-last --shuffle --seed 5 --epoch 4"));
        const ShardRequest plain{10, 3, 2, false, false, 5, 4};
        QVERIFY(!shardArguments(plain).contains(QStringLiteral("--seed")));
    }

    void viewShowsWhatTheEngineSays()
    {
        ShardingView view;
        view.resize(1000, 600);
        view.show();
        QSignalSpy shown(&view, &ShardingView::assignmentShown);
        view.setEnginePath(ddplab::test::enginePath());
        view.setRequest({9, 2, 3, false, false, 0, 0});
        QVERIFY(shown.wait(60000));  // one debounced request, one answer
        QCOMPARE(view.grid()->assignment().ranks.at(1).at(1), (QList<int>{7, 0}));
        QVERIFY(view.grid()->sizeHint().width() > 200);

        ddplab::Config config;
        config.numExamples = 100'000;  // more than the view draws
        config.worldSize = 4;
        config.batchSize = 32;
        view.showConfig(config);
        QVERIFY(shown.wait(60000));
        QCOMPARE(view.request().numExamples, ShardingView::kMaxShownExamples);
        QCOMPARE(view.grid()->assignment().request.worldSize, 4);
        QCOMPARE(view.grid()->assignment().ranks.size(), 4);
    }

    // A hidden page asks nothing (each answer is an engine started); shown, it asks once.
    void aHiddenViewAsksWhenShown()
    {
        QTemporaryDir dir;
        const QString asked = dir.filePath(QStringLiteral("asked"));
        const QString engine = dir.filePath(QStringLiteral("ddplab-engine"));
        QFile script(engine);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(QStringLiteral("#!/bin/sh\necho asked >> '%1'\nexec '%2' \"$@\"\n").arg(asked, ddplab::test::enginePath()).toUtf8());
        script.close();
        QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

        ShardingView view;
        view.resize(1000, 600);
        QSignalSpy shown(&view, &ShardingView::assignmentShown);
        view.setEnginePath(engine);
        view.setRequest({9, 2, 3, false, false, 0, 0});
        QTest::qWait(1000);  // well past the 150 ms the view waits for typing to end
        QVERIFY(!QFile::exists(asked));
        QCOMPARE(shown.count(), 0);

        view.show();
        QVERIFY(shown.wait(60000));
        QCOMPARE(view.grid()->assignment().ranks.at(1).at(1), (QList<int>{7, 0}));
        QFile log(asked);
        QVERIFY(log.open(QIODevice::ReadOnly));
        QCOMPARE(log.readAll(), QByteArray("asked\n"));
    }
};

DDPLAB_UI_TEST_MAIN(TestShardingView)
#include "tst_sharding_view.moc"
