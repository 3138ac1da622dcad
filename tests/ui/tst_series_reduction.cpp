// What the charts draw: per pixel column the first, lowest, highest and last point (so spikes
// survive any length), and a debiased EMA that starts at the data, not at zero.

#include "client/decimation.hpp"
#include "client/series_summary.hpp"
#include "client/smoothed_series.hpp"
#include "ui_test_main.hpp"

#include <cmath>

using namespace ddplab::ui;

namespace {

QList<QPointF> wave(int count)
{
    QList<QPointF> points;
    for (int i = 0; i < count; ++i)
        points.append(QPointF(i, std::sin(i * 0.01)));
    return points;
}

}  // namespace

class TestSeriesReduction : public QObject {
    Q_OBJECT

private slots:
    void longSeriesIsBoundedByColumnsAndKeepsSpikes()
    {
        QList<QPointF> points = wave(100'000);
        points[54'321].setY(1000.0);
        points[77'777].setY(-1000.0);
        constexpr int kColumns = 500;
        const QList<QPointF> reduced = decimateForColumns(points, 0, 99'999, kColumns);
        QVERIFY2(reduced.size() <= 4 * kColumns + 2, qPrintable(QString::number(reduced.size())));
        QVERIFY(reduced.contains(points[54'321]));
        QVERIFY(reduced.contains(points[77'777]));
        QCOMPARE(reduced.first(), points.first());
        QCOMPARE(reduced.last(), points.last());
        for (qsizetype i = 1; i < reduced.size(); ++i)
            QVERIFY(reduced[i - 1].x() < reduced[i].x());  // still a function of x, in order
    }

    void everyColumnKeepsItsExtremes()
    {
        const QList<QPointF> points = wave(20'000);
        constexpr int kColumns = 100;
        const QList<QPointF> reduced = decimateForColumns(points, 0, 19'999, kColumns);
        const double width = 19'999.0 / kColumns;
        for (int column = 0; column < kColumns; ++column) {
            double low = INFINITY, high = -INFINITY, keptLow = INFINITY, keptHigh = -INFINITY;
            for (const QPointF& point : points) {
                if (std::min<int>(int(point.x() / width), kColumns - 1) == column) {
                    low = std::min(low, point.y());
                    high = std::max(high, point.y());
                }
            }
            for (const QPointF& point : reduced) {
                if (std::min<int>(int(point.x() / width), kColumns - 1) == column) {
                    keptLow = std::min(keptLow, point.y());
                    keptHigh = std::max(keptHigh, point.y());
                }
            }
            QCOMPARE(keptLow, low);
            QCOMPARE(keptHigh, high);
        }
    }

    void shortSeriesIsUnchanged()
    {
        const QList<QPointF> points = wave(300);
        QCOMPARE(decimateForColumns(points, 0, 299, 200), points);
    }

    void visibleRangeIsCutWithOneNeighbourEachSide()
    {
        const QList<QPointF> points = wave(100);
        const QList<QPointF> visible = decimateForColumns(points, 10, 20, 1000);
        QCOMPARE(visible.first().x(), 9.0);
        QCOMPARE(visible.last().x(), 21.0);
        QCOMPARE(visible.size(), 13);
    }

    void summaryStaysBoundedAndKeepsExtremesFirstAndLast()
    {
        QList<QPointF> points = wave(1'000'000);
        points[333'333].setY(7.0);
        points[666'666].setY(-7.0);
        SeriesSummary summary;
        summary.update(points);
        QVERIFY(summary.bucketCount() <= SeriesSummary::kMaxBuckets);
        QCOMPARE(summary.bucketSize(), 256);  // 1,000,000 / 4096 rounded up to a power of two
        const QList<QPointF>& kept = summary.points();
        QVERIFY(kept.size() <= 4 * SeriesSummary::kMaxBuckets);
        QVERIFY(kept.contains(points[333'333]));
        QVERIFY(kept.contains(points[666'666]));
        QCOMPARE(kept.first(), points.first());
        QCOMPARE(kept.last(), points.last());
        for (qsizetype i = 1; i < kept.size(); ++i)
            QVERIFY(kept[i - 1].x() < kept[i].x());
    }

    void summaryGrownInPiecesEqualsSummaryAtOnce()
    {
        const QList<QPointF> points = wave(50'000);
        SeriesSummary atOnce;
        atOnce.update(points);
        SeriesSummary growing;
        for (qsizetype end = 0; end <= points.size(); end += 997)
            growing.update(points.mid(0, end));
        growing.update(points);
        QCOMPARE(growing.bucketSize(), atOnce.bucketSize());
        QCOMPARE(growing.points(), atOnce.points());
    }

    void shortSeriesSummaryIsTheSeries()
    {
        const QList<QPointF> points = wave(1000);
        SeriesSummary summary;
        summary.update(points);
        QCOMPARE(summary.bucketSize(), 1);
        QCOMPARE(summary.points(), points);
    }

    void smoothingIsDebiased()
    {
        SmoothedSeries smoothing;
        smoothing.setWeight(0.9);
        const QList<QPointF> constant{{1, 4.0}, {2, 4.0}, {3, 4.0}};
        const QList<QPointF> smoothed = smoothing.update(constant);
        // Without the 1 - w^n correction the first value would be 0.4.
        for (const QPointF& point : smoothed)
            QVERIFY(qFuzzyCompare(point.y(), 4.0));
    }

    void smoothingMatchesTheFormula()
    {
        SmoothedSeries smoothing;
        smoothing.setWeight(0.5);
        const QList<QPointF> smoothed = smoothing.update({{1, 1.0}, {2, 2.0}, {3, 3.0}});
        // EMA 0.5, 1.25, 2.125 divided by 1 - 0.5^n = 0.5, 0.75, 0.875.
        QVERIFY(qFuzzyCompare(smoothed[0].y(), 1.0));
        QVERIFY(qFuzzyCompare(smoothed[1].y(), 1.25 / 0.75));
        QVERIFY(qFuzzyCompare(smoothed[2].y(), 2.125 / 0.875));
        QCOMPARE(smoothed[2].x(), 3.0);
    }

    void incrementalSmoothingEqualsSmoothingAtOnce()
    {
        const QList<QPointF> points = wave(1000);
        SmoothedSeries atOnce;
        atOnce.setWeight(0.8);
        const QList<QPointF> expected = atOnce.update(points);
        SmoothedSeries growing;
        growing.setWeight(0.8);
        for (qsizetype end = 1; end <= points.size(); end += 37)
            growing.update(points.mid(0, end));
        QCOMPARE(growing.update(points), expected);
    }

    void zeroWeightLeavesTheSeries()
    {
        SmoothedSeries smoothing;
        smoothing.setWeight(0.0);
        const QList<QPointF> points = wave(50);
        QCOMPARE(smoothing.update(points), points);
    }
};

DDPLAB_UI_TEST_MAIN(TestSeriesReduction)
#include "tst_series_reduction.moc"
