// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's sequential rules for time left over, on recorded evidence (docs/advisor.md; the
// other decision rules: tst_advice_decision):
//   - the closest call's data orders go past kMostOrders while the budget left holds another order
//     beside the ladder's reserve and its more seeds, never past kMostOrdersWithTimeLeft (the
//     panel's autoencoder at 005cc36 stopped at 8 orders with 126 s of its 300 unused);
//   - the confirmation's two best rungs get more seeds while the choice between them is within
//     noise, up to kMostLadderSeeds each (the panel's tabular_adamw at 5dad9d0 chose between two
//     rungs in two seeds that the truth's four seeds put on either side of its best).

#include "advice_test_requests.hpp"
#include "ui_test_main.hpp"

#include <limits>

using namespace ddplab::ui;
using namespace ddplab::ui::test;

class TestAdviceDecisionOrders : public QObject {
    Q_OBJECT

private slots:
    // The autoencoder at 005cc36: its closest call (half your batch, 16) stopped at the 8-order
    // cap at -4.1 %, interval -7.4 % to -0.7 %, short of better by 1.3 points, and the advice
    // ended at 174 s of its 300 after a whole ladder of 10 runs. Its plan (the base run's pace:
    // 280 s left) keeps the ladder's reserve of 10 runs over your horizon; an order is 2 runs.
    void theClosestCallGoesPastEightOrdersWhileTheBudgetHoldsThem()
    {
        const PlanContext context = planContextAfterBase(adamOverTwoEpochsOf4096(), RunCost::measured(2.0, 6400, 3.0, 6.0, 9), 280);
        const BranchPlan plan = planBranchTest(context);
        const double run = context.cost.seconds(8192.0, 5.0);
        const double order = 2.0 * run;
        QVERIFY2(plan.ladderSeconds > 0 && sameLr(ladderMoreSeedsSeconds(plan), plan.ladderSeconds * 4.0 / 10.0),
                 qPrintable(QString::number(plan.ladderSeconds)));
        // At the cap: the time left then was the 126 s unused and the ladder's own, at the pace kept.
        const double pace = 1.0;
        const double atCap = 126.0 + plan.ladderSeconds * pace;
        QVERIFY2(!closestCallMayGoOn(plan, kMostOrders, order, 0.0, pace), "nothing left, no order");
        QVERIFY2(closestCallMayGoOn(plan, kMostOrders, order, atCap, pace),
                 qPrintable(QStringLiteral("order %1 s, ladder %2 s, left %3 s").arg(order).arg(plan.ladderSeconds).arg(atCap)));
        // Order by order, until what is left holds the ladder and its more seeds no longer.
        double left = atCap;
        int orders = kMostOrders;
        while (closestCallMayGoOn(plan, orders, order * pace, left, pace)) {
            left -= order * pace;
            ++orders;
        }
        QVERIFY2(orders > kMostOrders && orders <= kMostOrdersWithTimeLeft, qPrintable(QString::number(orders)));
        QVERIFY2(left >= (plan.ladderSeconds + ladderMoreSeedsSeconds(plan)) * pace, qPrintable(QString::number(left)));
        QVERIFY2(left < order * pace + (plan.ladderSeconds + ladderMoreSeedsSeconds(plan)) * pace, qPrintable(QString::number(left)));
        // With the interval's half-width falling as 1/sqrt(orders) (t quantiles aside), the -4.1 %
        // measured would be better than yours (high under -1.96 %) from about 20 orders; at the
        // orders the 126 s hold, the half-width is 3.35 x sqrt(8 / orders) points.
        QVERIFY2(orders >= 12, qPrintable(QString::number(orders)));
        // Never past the most, whatever is left.
        QVERIFY(!closestCallMayGoOn(plan, kMostOrdersWithTimeLeft, order, 1e9, pace));
        // A slower pace leaves fewer: the ladder's reserve grows with it.
        double slowLeft = atCap;
        int slowOrders = kMostOrders;
        while (closestCallMayGoOn(plan, slowOrders, order * 1.5, slowLeft, 1.5)) {
            slowLeft -= order * 1.5;
            ++slowOrders;
        }
        QVERIFY2(slowOrders < orders, qPrintable(QStringLiteral("%1 against %2").arg(slowOrders).arg(orders)));
        // Below the cap the rule is the one before: only the ladder's reserve is kept.
        const double justTheLadder = order + plan.ladderSeconds * pace;
        QVERIFY(closestCallMayGoOn(plan, kMostOrders - 1, order, justTheLadder, pace));
        QVERIFY(!closestCallMayGoOn(plan, kMostOrders, order, justTheLadder, pace));
    }

    // tabular_adamw at 5dad9d0: the ladder at 8 x 4 chose 0.0205 (0.338, 0.349) over 0.0102 (0.379,
    // 0.316) in two seeds; 0.00724 had 0.463 and 0.331. The truth's four seeds put the best at
    // 0.00849, between them (LR regret +11.3 %). The rungs these seeds did not record (0.00512,
    // 0.0145, 0.029, 0.041) are left out here: the choice between the two best is the rule's.
    void theLaddersTwoBestRungsGetMoreSeedsWhileWithinNoise()
    {
        QList<BracketPoint> ladder = ladderOf({{0.00724, {0.463, 0.331}}, {0.0102, {0.379, 0.316}}, {0.0205, {0.338, 0.349}}});
        const LrChoice choice = chooseLr(ladder);
        QVERIFY(choice.ok && choice.withinNoise);
        QVERIFY(sameLr(choice.lr, 0.0205) && sameLr(choice.runnerUp, 0.0102));
        QList<double> more = rungsForMoreSeeds(ladder, kMostLadderSeeds);
        QCOMPARE(more.size(), 2);
        QVERIFY(sameLr(more[0], 0.0205) && sameLr(more[1], 0.0102));
        // One more seed each, twice: then both have the most and no more are asked, whatever the
        // choice between them. Assumed, not recorded: these third and fourth seeds' losses (0.330,
        // 0.335 at 0.0102; 0.345, 0.350 at 0.0205) are made up to drive the stop condition and the
        // choice over four seeds; the advice that would have trained them was never run.
        ladder[1].measures.append(0.330);
        ladder[2].measures.append(0.345);
        QCOMPARE(rungsForMoreSeeds(ladder, kMostLadderSeeds).size(), 2);
        ladder[1].measures.append(0.335);
        ladder[2].measures.append(0.350);
        QVERIFY(rungsForMoreSeeds(ladder, kMostLadderSeeds).isEmpty());
        // The rungs with more seeds are chosen by their means over them (0.0102 at 0.340 now,
        // 0.0205 at 0.3455): the LR the four seeds prefer.
        QVERIFY(sameLr(chooseLr(ladder).lr, 0.0102));
        // A clear choice asks for none: the runner-up more than two standard errors above.
        const QList<BracketPoint> clear = ladderOf({{0.01, {0.40, 0.401}}, {0.02, {0.30, 0.301}}, {0.04, {0.50, 0.501}}});
        QVERIFY(!chooseLr(clear).withinNoise);
        QVERIFY(rungsForMoreSeeds(clear, kMostLadderSeeds).isEmpty());
        // Nothing trained safely: none.
        QVERIFY(rungsForMoreSeeds(ladderOf({{0.01, {std::numeric_limits<double>::infinity(), 0.3}}}), kMostLadderSeeds).isEmpty());
        // Only the one of the two below the most gets a seed.
        QList<BracketPoint> uneven = ladderOf({{0.0102, {0.379, 0.316, 0.330, 0.335}}, {0.0205, {0.338, 0.349}}});
        more = rungsForMoreSeeds(uneven, kMostLadderSeeds);
        QCOMPARE(more.size(), 1);
        QVERIFY(sameLr(more[0], 0.0205));
    }
};

DDPLAB_UI_TEST_MAIN(TestAdviceDecisionOrders)
#include "tst_advice_decision_orders.moc"
