// SPDX-License-Identifier: GPL-3.0-or-later
// What the charts draw: per pixel column the first, lowest, highest and last point (so spikes
// survive any length), and a debiased EMA that starts at the data, not at zero.

#include "client/series/decimation.hpp"
#include "client/series/series_summary.hpp"
#include "client/series/smoothed_series.hpp"
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

    void smoothingOfAConstantIsTheConstant()
    {
        // No pull towards zero at the start, however long the span.
        SmoothedSeries smoothing;
        smoothing.setSpan(100.0);
        const QList<QPointF> smoothed = smoothing.update({{1, 4.0}, {2, 4.0}, {30, 4.0}});
        for (const QPointF& point : smoothed)
            QVERIFY(qFuzzyCompare(point.y(), 4.0));
    }

    void smoothingOfALineLagsByTheSpan()
    {
        // ds/dx = (y - s) / span on y = 2x solves to s = 2x - 2 span (1 - exp(-x / span)): a line
        // is followed with a lag of one span, exactly, whatever the spacing of its points.
        SmoothedSeries smoothing;
        const double span = 10.0;
        smoothing.setSpan(span);
        QList<QPointF> line;
        for (int x = 0; x <= 100; x += 7)
            line.append(QPointF(x, 2.0 * x));
        const QList<QPointF> smoothed = smoothing.update(line);
        for (const QPointF& point : smoothed) {
            const double expected = 2 * point.x() - 2 * span * (1 - std::exp(-point.x() / span));
            QVERIFY2(std::fabs(point.y() - expected) < 1e-9, qPrintable(QStringLiteral("x %1: %2 against %3")
                                                                              .arg(point.x()).arg(point.y()).arg(expected)));
        }
    }

    void smoothingDoesNotDependOnHowDenselyARunLogs()
    {
        // The same underlying curve logged every 32 samples and every sample (as a run of batch
        // 32 and one of batch 1 log per sample seen): the same smoothed curve where both have
        // points. Per-point averaging smoothed the dense one over 32 times as many samples.
        const auto curve = [](double x) { return 2.0 * std::exp(-x / 300.0) + 0.2 * std::sin(x / 40.0); };
        QList<QPointF> sparse, dense;
        for (int x = 0; x <= 2048; ++x) {
            dense.append(QPointF(x, curve(x)));
            if (x % 32 == 0)
                sparse.append(QPointF(x, curve(x)));
        }
        SmoothedSeries sparseSmoothing, denseSmoothing;
        sparseSmoothing.setSpan(60.0);
        denseSmoothing.setSpan(60.0);
        const QList<QPointF> fromSparse = sparseSmoothing.update(sparse);
        const QList<QPointF> fromDense = denseSmoothing.update(dense);
        double worst = 0;
        for (const QPointF& point : fromSparse) {
            const double other = fromDense.at(qsizetype(point.x())).y();
            worst = std::max(worst, std::fabs(point.y() - other));
        }
        QVERIFY2(worst < 0.01, qPrintable(QStringLiteral("the two smoothed curves differ by up to %1").arg(worst)));
    }

    void incrementalSmoothingEqualsSmoothingAtOnce()
    {
        const QList<QPointF> points = wave(1000);
        SmoothedSeries atOnce;
        atOnce.setSpan(25.0);
        const QList<QPointF> expected = atOnce.update(points);
        SmoothedSeries growing;
        growing.setSpan(25.0);
        for (qsizetype end = 1; end <= points.size(); end += 37)
            growing.update(points.mid(0, end));
        QCOMPARE(growing.update(points), expected);
    }

    void zeroSpanLeavesTheSeries()
    {
        SmoothedSeries smoothing;
        smoothing.setSpan(0.0);
        const QList<QPointF> points = wave(50);
        QCOMPARE(smoothing.update(points), points);
    }
};

DDPLAB_UI_TEST_MAIN(TestSeriesReduction)
#include "tst_series_reduction.moc"
