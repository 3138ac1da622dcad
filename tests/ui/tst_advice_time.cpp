// SPDX-License-Identifier: GPL-3.0-or-later
// How long an advice takes, and what its plan does with the time, without a process
// (docs/advisor.md, "What it measures, in order"; issue 46 §4):
//   - what the base run's cost cut from the branch test comes back as the plan's own runs once
//     the branch test's runs show the time is there;
//   - Start and `ddplab --advise` say the plan's time and the budget the rounds may fill;
//   - a stopped advice, resumed, is estimated as its plan less the runs it had finished, within
//     what its budget leaves after its clock;
//   - the engine's start is no part of the runs' pace;
//   - the test hook that pins the runs' cost.

#include "client/advisor/advice_estimate.hpp"
#include "client/advisor/advice_phases.hpp"
#include "client/advisor/advice_plan.hpp"
#include "client/advisor/advice_progress.hpp"
#include "client/advisor/advice_request.hpp"
#include "client/advisor/advice_time.hpp"
#include "client/advisor/run_cost.hpp"
#include "client/library/preset_file.hpp"
#include "client/study/study_estimate.hpp"
#include "core/derived.hpp"
#include "advice_test_requests.hpp"
#include "ui_test_main.hpp"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>

#include <algorithm>
#include <cmath>

using namespace ddplab::ui;
using namespace ddplab::ui::test;

class TestAdviceTime : public QObject {
    Q_OBJECT

private slots:
    // The base run is the advice's first engine start: linreg at 1 min timed its start and end at
    // 0.5-1.1 s where every later run took 0.2 s, so the plan cut the wider batches per GPU for
    // time that was there (a branch test "of about 57 s" took 12 s) and the answer moved between
    // 8 x 8 and 8 x 32 on an idle machine. What the plan cuts without changing its runs' shape
    // comes back as exactly the runs it would have planned, first what decides most.
    void whatTheBaseRunsCostLeftOutComesBackAsThePlansOwnRuns()
    {
        const auto keyOf = [](const PlannedRun& run) {
            return QStringLiteral("%1 %2x%3 lr %4 seed %5 steps %6 every %7 from %8")
                .arg(run.phase)
                .arg(run.gpus)
                .arg(run.batch)
                .arg(run.lr, 0, 'g', 12)
                .arg(run.seed)
                .arg(run.config.maxSteps)
                .arg(qint64(run.config.evalEvery.value_or(-1)))
                .arg(QString::fromStdString(run.config.resumeFrom));
        };
        const auto keysOf = [&](const QList<PlannedRun>& runs) {
            QStringList keys;
            for (const PlannedRun& run : runs)
                keys.append(keyOf(run));
            keys.sort();
            return keys;
        };
        PlanContext context = planContextAfterBase(fashionMlpRequest(), RunCost::measured(1.0, 1e5, 1.2, 2.0, 5), 300);
        const BranchPlan whole = planBranchTest(context);
        QVERIFY(whole.leftOut.isEmpty() && !whole.thinned && !whole.reshaped);
        int onlyLeftOut = 0, reshaped = 0;
        for (double secondsLeft = 300; secondsLeft >= 20; secondsLeft -= 5) {
            context.secondsLeft = secondsLeft;
            const BranchPlan plan = planBranchTest(context);
            QStringList said;
            QList<PlannedRun> all = plan.runs;
            for (const BranchCut& cut : plan.leftOut) {
                said.append(cut.said);
                QVERIFY2(plan.trimmed.contains(cut.said), qPrintable(cut.said));
                all.append(leftOutBranchRuns(context, plan, cut));
            }
            QCOMPARE(plan.thinned, plan.reshaped || !plan.leftOut.isEmpty());
            if (plan.leftOut.isEmpty())
                continue;
            if (!plan.reshaped) {
                // Only batches and range tests were left out: brought back, the plan at the time it needed.
                ++onlyLeftOut;
                QCOMPARE(keysOf(all), keysOf(whole.runs));
                QCOMPARE(plan.trimmed, said);
                continue;
            }
            // Its runs reshaped too (from the checkpoint, measured at the end, shorter): what comes
            // back is shaped as its branches are, in the same data orders.
            ++reshaped;
            QMap<double, qint64> stepsAt;
            for (const PlannedRun& run : plan.runs)
                if (run.phase == advice_phase::kBranch)
                    stepsAt[double(run.gpus) * double(run.batch)] = run.config.maxSteps - (plan.fromStart ? 0 : context.checkpointStep);
            for (const BranchCut& cut : plan.leftOut)
                for (const PlannedRun& run : leftOutBranchRuns(context, plan, cut)) {
                    if (run.phase != advice_phase::kBranch)
                        continue;
                    QCOMPARE(run.config.resumeFrom.empty(), plan.fromStart);
                    QVERIFY(run.seed >= context.request.base.seed && run.seed < context.request.base.seed + plan.orders);
                    const double batch = double(run.gpus) * double(run.batch);
                    QCOMPARE(run.config.maxSteps - (plan.fromStart ? 0 : context.checkpointStep), std::max<qint64>(1, qRound64(plan.samples / batch)));
                    if (!plan.measureAlong)
                        QVERIFY(run.config.evalEvery.value_or(-1) == 0);
                    QVERIFY(!stepsAt.contains(batch));  // a batch the plan does not train already
                }
        }
        QVERIFY2(onlyLeftOut > 0 && reshaped > 0, qPrintable(QStringLiteral("%1 plans left out only, %2 reshaped too").arg(onlyLeftOut).arg(reshaped)));
        // What comes back: the first cuts whose runs fit what is left of the branch test's share.
        QCOMPARE(cutsThatFit({4.0, 3.0, 5.0}, 6.9), qsizetype(1));
        QCOMPARE(cutsThatFit({4.0, 3.0, 5.0}, 7.0), qsizetype(2));
        QCOMPARE(cutsThatFit({4.0, 30.0, 1.0}, 20.0), qsizetype(1));  // never one past a cut that did not fit
        QCOMPARE(cutsThatFit({4.0}, -1.0), qsizetype(0));
        QCOMPARE(cutsThatFit({}, 10.0), qsizetype(0));
    }

    // What `ddplab --advise --resume` and the Advise page's Resume say before it goes on: the
    // plan less the runs the progress file names as ended (taken from the store, not run
    // again), never past what the budget leaves after the advice's clock.
    void aResumedAdviceIsEstimatedAsThePlanLessItsFinishedRuns()
    {
        const AdviceRequest request = fashionMlpRequest();
        const MachineSpeed speed = MachineSpeed::uniform(2.0);
        const double whole = expectedAdviceSeconds(request, speed);
        const ddplab::Config base = planBase(request).run.config;
        const double baseSeconds = estimatedSeconds(base, speed);
        QVERIFY2(baseSeconds > 1 && whole > baseSeconds + 1, qPrintable(QStringLiteral("%1 s, its base run %2 s").arg(whole).arg(baseSeconds)));
        using namespace advice_progress;
        const QJsonObject baseRun{{kSettings, presetFromCoreConfig(base)}};
        // Stopped in its base run: nothing ended, the whole plan is left.
        const QJsonObject notEnded = progressJson(request, QJsonArray{QJsonObject{{kStartedS, 0.0}, {kRuns, QJsonArray{baseRun}}}});
        QCOMPARE(expectedResumedAdviceSeconds(request, notEnded, speed), whole);
        // Its base run ended (named by its stored run): the rest of the plan.
        QJsonObject ended = baseRun;
        ended.insert(kRunId, QStringLiteral("20261129-141500-advice-base"));
        const QJsonObject afterBase = progressJson(
            request, QJsonArray{QJsonObject{{kStartedS, 0.0}, {kEndedS, baseSeconds}, {kRuns, QJsonArray{ended}}},
                                QJsonObject{{kStartedS, baseSeconds}, {kRuns, QJsonArray{}}}});
        QVERIFY(std::fabs(expectedResumedAdviceSeconds(request, afterBase, speed) - (whole - baseSeconds)) < 1e-9);
        // Its clock near the budget's end: what the budget leaves.
        const QJsonObject late = progressJson(request, QJsonArray{QJsonObject{{kStartedS, 0.0}, {kEndedS, request.budgetSeconds - 10}, {kRuns, QJsonArray{ended}}}});
        QCOMPARE(expectedResumedAdviceSeconds(request, late, speed), 10.0);
        QCOMPARE(resumedBudgetSeconds(request, late), 10.0);
        QCOMPARE(resumedBudgetSeconds(request, afterBase), request.budgetSeconds - baseSeconds);  // the latest phase start
        // Stopped part way through a phase: its clock had reached the last of its runs that ended.
        QJsonObject branchRun = ended;
        branchRun.insert(kEndedS, baseSeconds + 7.5);
        const QJsonObject partWay = progressJson(request, QJsonArray{QJsonObject{{kStartedS, 0.0}, {kEndedS, baseSeconds}, {kRuns, QJsonArray{ended}}},
                                                                     QJsonObject{{kStartedS, baseSeconds}, {kRuns, QJsonArray{branchRun, baseRun}}}});
        QCOMPARE(clockOfProgress(partWay), baseSeconds + 7.5);
        QCOMPARE(resumedBudgetSeconds(request, partWay), request.budgetSeconds - baseSeconds - 7.5);
        // Every planned run ended (it was in its rounds of more orders and seeds): what the budget
        // leaves, which those rounds may take ("about 1 s" before).
        QJsonArray everyRun;
        for (int i = 0; i < 400; ++i)
            everyRun.append(ended);
        const QJsonObject pastThePlan = progressJson(request, QJsonArray{QJsonObject{{kStartedS, 0.0}, {kEndedS, 40.0}, {kRuns, everyRun}}});
        QCOMPARE(expectedResumedAdviceSeconds(request, pastThePlan, speed), request.budgetSeconds - 40.0);
    }

    // A phase that launched an engine (a resumed advice's first; one on a Run-on host whose
    // engine went) paid its start, which no later run pays: the pace later phases are scaled by
    // leaves it out. A stopped phase's engine start is read back only where its time can hold it.
    void theEnginesStartIsNoPartOfThePace()
    {
        PlanContext context = planContextAfterBase(fashionMlpRequest(), RunCost::measured(1.0, 1e5, 1.2, 2.0, 5), 300);
        const QList<PlannedRun> runs = planBranchTest(context).runs;
        QVERIFY(runs.size() > 1);
        AdviceTime time;
        time.setCost(context.cost, context.checkpointStep);
        const double predicted = time.runsSeconds(runs);
        QVERIFY(predicted > 1);
        time.calibrate(runs, 1.5 * predicted + 3.0, 3.0);
        QVERIFY2(std::fabs(time.scale() - 1.5) < 1e-9, qPrintable(QString::number(time.scale())));
        time.calibrate(runs, 1.5 * predicted + 3.0);  // with no engine started, all of it was the runs'
        QVERIFY(time.scale() > 1.5 + 2.9 / predicted);
        time.calibrate(runs, 2.0, 5.0);  // a start longer than the phase: nothing measured of the runs, the pace kept
        QVERIFY(time.scale() > 1.5 + 2.9 / predicted);

        using namespace advice_progress;
        const auto phase = [](double started, double ended, const QJsonValue& engineStart) {
            return QJsonObject{{kStartedS, started}, {kEndedS, ended}, {kEngineStartS, engineStart}};
        };
        QCOMPARE(engineStartOfPhase(phase(10.0, 14.0, 0.8)), 0.8);
        QCOMPARE(engineStartOfPhase(phase(10.0, 14.0, 4.0)), 4.0);
        QCOMPARE(engineStartOfPhase(phase(10.0, 14.0, 4.5)), 0.0);  // more than the phase took
        QCOMPARE(engineStartOfPhase(phase(10.0, 14.0, -1.0)), 0.0);
        QCOMPARE(engineStartOfPhase(phase(10.0, 14.0, QStringLiteral("0.8"))), 0.0);
        QCOMPARE(engineStartOfPhase(QJsonObject{{kStartedS, 10.0}, {kEngineStartS, 0.8}}), 0.0);  // a phase that never ended
    }

    // Start and `ddplab --advise`'s first line: the plan's time, and the budget that rounds of more
    // orders and seeds may fill after it (an advice whose LR stayed within noise took 52 s of 1 min
    // where Start had said "about 31 s"); the budget alone when the plan fills it.
    void theEstimateSaysTheBudgetTheRoundsMayFill()
    {
        QCOMPARE(adviceDurationText(31.0, 60.0), QStringLiteral("about 31 s, up to 1 min"));
        QCOMPARE(adviceDurationText(20.0, 45.0), QStringLiteral("about 20 s, up to 45 s"));
        QCOMPARE(adviceDurationText(20.0, 65.0), QStringLiteral("about 20 s, up to 65 s"));
        QCOMPARE(adviceDurationText(42.0, 300.0), QStringLiteral("about 42 s, up to 5 min"));
        QCOMPARE(adviceDurationText(150.0, 450.0), QStringLiteral("about 3 min, up to 7.5 min"));
        QCOMPARE(adviceDurationText(57.0, 60.0), QStringLiteral("about 57 s"));  // within 10 % of it
        QCOMPARE(adviceDurationText(75.0, 60.0), QStringLiteral("about 60 s"));  // never past it
    }

    // The test hook DDPLAB_ADVICE_PINNED_COST=F: the estimator's cost of the base run on a machine
    // F times as slow as the development machine, whatever this one measures; nothing unless F is
    // a number > 0.
    void aPinnedCostIsTheEstimatorsOnlyWhenAsked()
    {
        const AdviceRequest request = fashionMlpRequest();
        const QByteArray before = qgetenv(kPinnedCostVariable);
        for (const char* notAFactor : {"", "0", "-2", "abc", "nan", "inf"}) {
            qputenv(kPinnedCostVariable, notAFactor);
            QVERIFY2(!pinnedRunCost(request), notAFactor);
        }
        qunsetenv(kPinnedCostVariable);
        QVERIFY(!pinnedRunCost(request));
        qputenv(kPinnedCostVariable, "2");
        const std::optional<RunCost> twice = pinnedRunCost(request);
        qputenv(kPinnedCostVariable, "1");
        const std::optional<RunCost> once = pinnedRunCost(request);
        before.isNull() ? qunsetenv(kPinnedCostVariable) : qputenv(kPinnedCostVariable, before);
        QVERIFY(twice && once && twice->isMeasured());
        const RunCost estimated = estimatedBaseCost(request, MachineSpeed::uniform(2.0)).cost;
        QCOMPARE(twice->perSample(), estimated.perSample());
        QCOMPARE(twice->perRun(), estimated.perRun());
        QCOMPARE(twice->perEvaluation(), estimated.perEvaluation());
        QVERIFY(std::fabs(twice->perSample() - 2.0 * once->perSample()) < 1e-12 * twice->perSample());  // F times as slow
    }
};

DDPLAB_UI_TEST_MAIN(TestAdviceTime)
#include "tst_advice_time.moc"
