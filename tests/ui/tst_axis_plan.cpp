// SPDX-License-Identifier: GPL-3.0-or-later
// Where the charts' axes end and what their ticks say (client/series/axis_plan): neighbouring ticks
// never read the same ("1" twice on a loss axis was a defect), an accuracy axis stops at 1, a
// loss axis never dips below 0, and a log axis zoomed inside one decade keeps several ticks.

#include "client/series/axis_plan.hpp"
#include "ui_test_main.hpp"

#include <cmath>

using namespace ddplab::ui;

namespace {

// The labels Qt Charts prints for a linear plan: tickCount evenly spaced values.
QStringList linearLabels(const LinearAxisPlan& plan)
{
    QStringList labels;
    for (int i = 0; i < plan.tickCount; ++i) {
        const double value = plan.low + (plan.high - plan.low) * i / (plan.tickCount - 1);
        labels.append(QString::asprintf(qPrintable(plan.labelFormat), value));
    }
    return labels;
}

// The labels of a log plan: base^n for every n with base^n inside [low, high].
QStringList logLabels(const LogAxisPlan& plan)
{
    QStringList labels;
    const double first = std::ceil(std::log(plan.low) / std::log(plan.base) - 1e-9);
    for (double n = first; std::pow(plan.base, n) <= plan.high * (1 + 1e-12); ++n)
        labels.append(QString::asprintf(qPrintable(plan.labelFormat), std::pow(plan.base, n)));
    return labels;
}

bool allDistinct(const QStringList& labels)
{
    return QSet<QString>(labels.begin(), labels.end()).size() == labels.size();
}

}  // namespace

class TestAxisPlan : public QObject {
    Q_OBJECT

private slots:
    void niceStepsAreOneTwoOrFiveTimesAPowerOfTen_data()
    {
        QTest::addColumn<double>("raw");
        QTest::addColumn<double>("nice");
        QTest::newRow("0.13") << 0.13 << 0.2;
        QTest::newRow("0.2") << 0.2 << 0.2;
        QTest::newRow("3") << 3.0 << 5.0;
        QTest::newRow("7") << 7.0 << 10.0;
        QTest::newRow("1e-7") << 1.1e-7 << 2e-7;
        QTest::newRow("nonsense") << -1.0 << 1.0;
    }
    void niceStepsAreOneTwoOrFiveTimesAPowerOfTen()
    {
        QFETCH(double, raw);
        QFETCH(double, nice);
        QVERIFY2(std::fabs(niceStep(raw) - nice) <= 1e-12 * nice, qPrintable(QString::number(niceStep(raw))));
    }

    void neighbouringTicksNeverReadTheSame_data()
    {
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::newRow("loss near 1") << 0.98 << 1.02;
        QTest::newRow("loss 0.3 to 2.3") << 0.3 << 2.3;
        QTest::newRow("tiny variance") << 1.2e-8 << 1.9e-8;
        QTest::newRow("large samples") << 1.0e7 << 1.00002e7;
        QTest::newRow("flat") << 0.5 << 0.5;
        QTest::newRow("flat zero") << 0.0 << 0.0;
        QTest::newRow("step 0.25") << 0.0 << 1.1;
    }
    void neighbouringTicksNeverReadTheSame()
    {
        QFETCH(double, min);
        QFETCH(double, max);
        const LinearAxisPlan plan = planValueAxis(min, max, 5, true, false);
        QVERIFY(plan.low <= min && plan.high >= max);
        QVERIFY(plan.tickCount >= 2);
        const QStringList labels = linearLabels(plan);
        QVERIFY2(allDistinct(labels), qPrintable(labels.join(QStringLiteral(" | "))));
    }

    void aLossAxisStopsAtZeroAndAnAccuracyAxisAtOne()
    {
        const LinearAxisPlan loss = planValueAxis(0.01, 2.3, 5, true, false);
        QCOMPARE(loss.low, 0.0);
        const LinearAxisPlan accuracy = planValueAxis(0.62, 0.99, 5, true, true);
        QVERIFY2(accuracy.high <= 1.0, qPrintable(QString::number(accuracy.high)));
        QVERIFY(accuracy.high >= 0.99);
        QVERIFY(allDistinct(linearLabels(accuracy)));
        // A perfect run too: all 1.
        const LinearAxisPlan perfect = planValueAxis(1.0, 1.0, 5, true, true);
        QVERIFY(perfect.high <= 1.0 + 1e-12 && perfect.low < 1.0);
        // A value that can go negative (the neuron's weight) keeps its room below zero.
        QVERIFY(planValueAxis(-0.2, 1.0, 5, false, false).low < -0.2 + 1e-12);
    }

    void aLogAxisCoversWholeDecades()
    {
        const LogAxisPlan plan = planLogAxis(3e-9, 4e-7);
        QVERIFY(plan.low <= 1e-9 && plan.low > 0.99e-9);
        QVERIFY(plan.high >= 1e-6 && plan.high < 1.01e-6);
        QCOMPARE(plan.base, 10.0);
        QCOMPARE(logLabels(plan), (QStringList{QStringLiteral("1e-09"), QStringLiteral("1e-08"), QStringLiteral("1e-07"),
                                               QStringLiteral("1e-06")}));
    }

    void aLogAxisInsideOneDecadeKeepsSeveralTicks()
    {
        // Zoomed in between 2e-8 and 5e-8: base 10 would label none of it.
        const LogAxisPlan plan = logAxisFor(2e-8, 5e-8);
        const QStringList labels = logLabels(plan);
        QVERIFY2(labels.size() >= 3, qPrintable(labels.join(QStringLiteral(" | "))));
        QVERIFY2(allDistinct(labels), qPrintable(labels.join(QStringLiteral(" | "))));
    }

    void xTicksOnWholeAxesAreWhole()
    {
        QCOMPARE(planXAxis(1, 3, true).interval, 1.0);  // two steps: 1, 2, 3, not 1.5
        QCOMPARE(planXAxis(0, 640, true).interval, 200.0);
        QCOMPARE(planXAxis(0, 0.5, false).interval, 0.1);  // epochs are fractional
        QCOMPARE(planXAxis(0, 640, true).labelFormat, QStringLiteral("%.0f"));
    }
};

DDPLAB_UI_TEST_MAIN(TestAxisPlan)
#include "tst_axis_plan.moc"
