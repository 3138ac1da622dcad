// SPDX-License-Identifier: GPL-3.0-or-later
// The chart wrapper: redraws coalesced on a timer, each series handed over whole, long series
// reduced to the plot's pixel columns, log axes without non-positive points, smoothing with
// the raw curve kept, overlays with one legend entry per run, the effective batch marked.

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/series/redraw_scheduler.hpp"
#include "charts/run_model.hpp"
#include "client/runs/run_data.hpp"
#include "client/series/smoothed_series.hpp"
#include "ui_test_main.hpp"

#include <QBuffer>
#include <QLabel>
#include <QPainter>
#include <QSvgGenerator>

#include <cmath>
#include <functional>

using namespace ddplab::ui;

namespace {

QSharedPointer<RunData> makeRun(const QString& id, const QString& label, int steps, double scale = 1.0)
{
    RunRecord record;
    record.id = id;
    record.name = label;
    record.label = label;
    auto run = QSharedPointer<RunData>::create(record);
    QList<QJsonObject> events{QJsonObject{{QStringLiteral("type"), QStringLiteral("config")},
                                          {QStringLiteral("effective_batch_size"), 128},
                                          {QStringLiteral("total_steps"), steps}}};
    for (int step = 1; step <= steps; ++step) {
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")},
                                  {QStringLiteral("step"), step},
                                  {QStringLiteral("loss"), scale * (1.0 + std::sin(step * 0.1)) / step},
                                  {QStringLiteral("noise_scale"), 1.17},
                                  {QStringLiteral("lr"), 0.001}});
        if (step % 10 == 0)
            events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("eval")}, {QStringLiteral("step"), step},
                                      {QStringLiteral("val_loss"), 0.5 / step}});
    }
    run->appendEvents(events);
    return run;
}

// A run that trains for `healthy` steps (loss about 2, gradient norm about 1), then blows up
// (a loss of 3e27, a gradient norm of 1e18) until its end at step 2 * healthy (or `last`).
QSharedPointer<RunData> makeDivergedRun(const QString& id, int healthy, int last = -1)
{
    last = last < 0 ? 2 * healthy : last;
    RunRecord record;
    record.id = id;
    record.label = id;
    auto run = QSharedPointer<RunData>::create(record);
    QList<QJsonObject> events;
    for (int step = 1; step <= last; ++step) {
        const bool blownUp = step > healthy;
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")},
                                  {QStringLiteral("step"), step},
                                  {QStringLiteral("loss"), blownUp ? 3e27 : 2.0 - 0.01 * step},
                                  {QStringLiteral("grad_norm"), blownUp ? 1e18 : 1.0},
                                  {QStringLiteral("lr"), 0.5}});
    }
    run->appendEvents(events);
    return run;
}

// A run whose loss is `loss(step)` at the given steps.
QSharedPointer<RunData> makeLossRun(const QString& id, const QList<int>& steps, const std::function<double(int)>& loss)
{
    RunRecord record;
    record.id = id;
    record.label = id;
    auto run = QSharedPointer<RunData>::create(record);
    QList<QJsonObject> events;
    for (int step : steps)
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                  {QStringLiteral("loss"), loss(step)}});
    run->appendEvents(events);
    return run;
}

ChartDefinition chart(const char* id)
{
    for (const ChartDefinition& definition : chartCatalog()) {
        if (definition.id == QLatin1String(id))
            return definition;
    }
    return {};
}

}  // namespace

class TestChartPanel : public QObject {
    Q_OBJECT

private slots:
    // The dashed update-variance estimate (lr² tr(Σ) / B) is SGD's: for Adam the chart shows the
    // measured variance alone and says why the estimate is missing.
    void theUpdateVarianceEstimateIsDrawnForSgdOnly_data()
    {
        QTest::addColumn<QString>("optimizer");
        QTest::addColumn<bool>("estimated");
        QTest::newRow("sgd") << QStringLiteral("sgd") << true;
        QTest::newRow("adam") << QStringLiteral("adam") << false;
        QTest::newRow("lamb") << QStringLiteral("lamb") << false;
    }

    void theUpdateVarianceEstimateIsDrawnForSgdOnly()
    {
        QFETCH(QString, optimizer);
        QFETCH(bool, estimated);
        RunRecord record;
        record.id = optimizer;
        record.name = optimizer;
        auto run = QSharedPointer<RunData>::create(record);
        QList<QJsonObject> events{QJsonObject{{QStringLiteral("type"), QStringLiteral("config")},
                                              {QStringLiteral("optimizer"), optimizer},
                                              {QStringLiteral("world_size"), 4}}};
        for (int step = 1; step <= 20; ++step)
            events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                      {QStringLiteral("update_var"), 1e-6 * step}, {QStringLiteral("update_var_estimate"), 2e-6 * step}});
        run->appendEvents(events);
        ChartPanel panel(chart("update_variance"));
        panel.resize(600, 400);
        panel.show();
        panel.setRuns({{run, Qt::blue}});
        panel.redrawNow();
        QCOMPARE(panel.drawnPoints(run->id(), QStringLiteral("update_var")).size(), 20);
        QCOMPARE(panel.drawnPoints(run->id(), QStringLiteral("update_var_estimate")).isEmpty(), !estimated);
        QStringList notes;
        for (const QLabel* label : panel.findChildren<QLabel*>()) {
            if (label->isVisible())
                notes.append(label->text());
        }
        const bool saysWhy = notes.join(QLatin1Char('\n')).contains(QStringLiteral("holds for SGD only: not drawn for ") + optimizer);
        QCOMPARE(saysWhy, !estimated);
    }

    void scheduledRedrawOnlyAsks()
    {
        // Arrival never draws: the panel marks itself and asks its grid for a turn.
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        panel.show();
        const auto run = makeRun(QStringLiteral("a"), QStringLiteral("A"), 50);
        panel.setRuns({{run, Qt::blue}});
        panel.redrawNow();
        QCoreApplication::processEvents();  // the first redraw may resize the plot: one more for that
        panel.redrawNow();
        QVERIFY(!panel.needsRedraw());
        const qint64 before = panel.redrawStats().redraws;
        QSignalSpy asked(&panel, &ChartPanel::redrawWanted);
        for (int i = 0; i < 100; ++i)
            panel.scheduleRedraw();  // a burst of arrivals
        QCOMPARE(panel.redrawStats().redraws, before);  // nothing drawn synchronously
        QVERIFY(panel.needsRedraw());
        QCOMPARE(asked.count(), 100);
        panel.redrawNow();
        QVERIFY(!panel.needsRedraw());
    }

    void chartsTakeTurnsRoundThePage()
    {
        // The scheduler ChartGrid drives with its timer: the next waiting chart after the last
        // one served, never the same chart twice while another waits.
        RedrawScheduler scheduler;
        QCOMPARE(scheduler.pick({true, true, true}), qsizetype(0));
        QCOMPARE(scheduler.pick({true, true, true}), qsizetype(1));
        QCOMPARE(scheduler.pick({true, false, true}), qsizetype(2));
        QCOMPARE(scheduler.pick({true, true, true}), qsizetype(0));
        QCOMPARE(scheduler.pick({false, false, true}), qsizetype(2));  // only one waits: it, again
        QCOMPARE(scheduler.pick({false, false, true}), qsizetype(2));
        QCOMPARE(scheduler.pick({false, false, false}), qsizetype(-1));
        QCOMPARE(scheduler.pick({true, true}), qsizetype(0));  // charts removed: still in range
    }

    void intervalFollowsWhatAFrameCosts_data()
    {
        QTest::addColumn<double>("frameCostMs");
        QTest::addColumn<int>("intervalMs");
        QTest::newRow("light page: the fastest") << 2.0 << RedrawScheduler::kFastestIntervalMs;
        QTest::newRow("40 ms a frame: drawing keeps to 40 %") << 40.0 << 100;
        QTest::newRow("200 ms a frame") << 200.0 << 500;
        QTest::newRow("very heavy: at least once a second") << 5000.0 << RedrawScheduler::kSlowestIntervalMs;
    }

    void intervalFollowsWhatAFrameCosts()
    {
        QFETCH(double, frameCostMs);
        QFETCH(int, intervalMs);
        RedrawScheduler scheduler;
        scheduler.adapt(frameCostMs);
        QCOMPARE(scheduler.intervalMs(), intervalMs);
        // Four charts share the interval: each gets a quarter of it.
        QCOMPARE(scheduler.tickMs(4), intervalMs / 4);
        QCOMPARE(scheduler.tickMs(0), intervalMs);
    }

    void gridRedrawsEachWaitingChartOnce()
    {
        // A burst of arrivals on a grid of several charts: each chart is redrawn once, in turn.
        RunModel model;
        ChartGrid grid(model);
        grid.resize(1200, 900);
        grid.show();
        const auto run = makeRun(QStringLiteral("a"), QStringLiteral("A"), 30);
        model.addRun(run);
        grid.redrawAllNow();
        QVERIFY(grid.panels().size() >= 2);
        QList<qint64> before;
        for (ChartPanel* panel : grid.panels())
            before.append(panel->redrawStats().redraws);
        for (int i = 0; i < 50; ++i)
            model.notifyDataAppended(run->id());
        for (ChartPanel* panel : grid.panels())
            QTRY_VERIFY_WITH_TIMEOUT(!panel->needsRedraw(), 10000);
        for (qsizetype i = 0; i < grid.panels().size(); ++i)
            QCOMPARE(grid.panels().at(i)->redrawStats().redraws, before.at(i) + 1);
    }

    void drawnPointsAreTheRunsPoints()
    {
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        panel.show();
        const auto run = makeRun(QStringLiteral("a"), QStringLiteral("A"), 50);
        panel.setRuns({{run, Qt::blue}});
        panel.redrawNow();
        QCOMPARE(panel.drawnPoints(QStringLiteral("a"), QStringLiteral("loss")), run->series(QStringLiteral("loss")));
        QCOMPARE(panel.drawnPoints(QStringLiteral("a"), QStringLiteral("val_loss")).size(), 5);
    }

    void liveDataAppearsAfterTheNextRedraw()
    {
        RunModel model;
        ChartGrid grid(model);
        grid.resize(900, 700);
        grid.show();
        const auto run = makeRun(QStringLiteral("live"), QStringLiteral("live"), 3);
        model.addRun(run);
        QVERIFY(grid.panel(QStringLiteral("loss")));
        QVERIFY(!grid.panel(QStringLiteral("accuracy")));  // no accuracy in this run
        run->appendEvents({QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 4},
                                       {QStringLiteral("loss"), 0.125}, {QStringLiteral("accuracy"), 0.75}}});
        model.notifyDataAppended(run->id());
        QVERIFY(grid.panel(QStringLiteral("accuracy")));  // a new metric brings its chart
        QTRY_COMPARE_WITH_TIMEOUT(grid.panel(QStringLiteral("loss"))->drawnPoints(QStringLiteral("live"), QStringLiteral("loss")).size(), 4, 10000);
        QCOMPARE(grid.panel(QStringLiteral("loss"))->drawnPoints(QStringLiteral("live"), QStringLiteral("loss")).last(), QPointF(4, 0.125));
    }

    void longSeriesIsReducedToThePlotWidthKeepingSpikes()
    {
        RunRecord record;
        record.id = QStringLiteral("long");
        auto run = QSharedPointer<RunData>::create(record);
        QList<QJsonObject> events;
        for (int step = 1; step <= 200'000; ++step)
            events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                      {QStringLiteral("loss"), step == 123'456 ? 50.0 : 1.0 + 0.01 * std::sin(step)}});
        run->appendEvents(events);
        ChartPanel panel(chart("loss"));
        panel.resize(500, 300);
        panel.show();
        panel.setRuns({{run, Qt::red}});
        panel.redrawNow();
        const QList<QPointF> drawn = panel.drawnPoints(QStringLiteral("long"), QStringLiteral("loss"));
        QVERIFY2(drawn.size() <= 4 * 500 + 2, qPrintable(QString::number(drawn.size())));
        QVERIFY(drawn.size() > 100);
        QVERIFY(drawn.contains(QPointF(123'456, 50.0)));
    }

    void logAxisDropsValuesItCannotShow()
    {
        RunRecord record;
        record.id = QStringLiteral("signs");
        auto run = QSharedPointer<RunData>::create(record);
        run->appendEvents({QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 1}, {QStringLiteral("loss"), 0.0}},
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 2}, {QStringLiteral("loss"), -1.0}},
                           QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 3}, {QStringLiteral("loss"), 0.5}}});
        ChartPanel panel(chart("loss"));
        panel.resize(500, 300);
        panel.setRuns({{run, Qt::red}});
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.redrawNow();
        panel.grab();
        // Switching with zeros already drawn does not fill the Log with Qt's complaint.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("Logarithms")));
        panel.setLogScale(true);
        panel.grab();
        panel.redrawNow();
        panel.grab();
        QCOMPARE(panel.drawnPoints(QStringLiteral("signs"), QStringLiteral("loss")), (QList<QPointF>{{3, 0.5}}));
        panel.setLogScale(false);
        panel.redrawNow();
        QCOMPARE(panel.drawnPoints(QStringLiteral("signs"), QStringLiteral("loss")).size(), 3);
    }

    void smoothingDrawsTheAverageAndKeepsTheRawCurve()
    {
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        panel.show();
        const auto run = makeRun(QStringLiteral("a"), QStringLiteral("A"), 40);
        panel.setRuns({{run, Qt::blue}});
        panel.setSmoothingSpan(5.0);
        panel.redrawNow();
        const QList<QPointF> raw = panel.drawnPoints(QStringLiteral("a"), QStringLiteral("loss"));
        const QList<QPointF> smooth = panel.drawnPoints(QStringLiteral("a"), QStringLiteral("loss"), true);
        QCOMPARE(raw, run->series(QStringLiteral("loss")));
        QCOMPARE(smooth.size(), raw.size());
        SmoothedSeries reference;
        reference.setSpan(5.0);
        QCOMPARE(smooth, reference.update(raw));
        QVERIFY(smooth.at(10).y() != raw.at(10).y());
        // Evaluations are sparse: never smoothed.
        QVERIFY(panel.drawnPoints(QStringLiteral("a"), QStringLiteral("val_loss"), true).isEmpty());
        QCOMPARE(panel.legendLabels(), (QStringList{QStringLiteral("train"), QStringLiteral("validation")}));
    }

    void overlaidRunsGetOneLegendEntryEach()
    {
        ChartPanel panel(chart("loss"));
        panel.resize(700, 400);
        panel.show();
        const auto first = makeRun(QStringLiteral("a"), QStringLiteral("1 GPU x 128"), 30);
        const auto second = makeRun(QStringLiteral("b"), QStringLiteral("8 GPUs x 16"), 30, 2.0);
        panel.setRuns({{first, Qt::blue}, {second, Qt::red}});
        panel.redrawNow();
        QCOMPARE(panel.legendLabels(), (QStringList{QStringLiteral("1 GPU x 128"), QStringLiteral("8 GPUs x 16")}));
        QCOMPARE(panel.drawnPoints(QStringLiteral("b"), QStringLiteral("loss")), second->series(QStringLiteral("loss")));

        ChartPanel single(chart("weight"));
        single.setRuns({{first, Qt::blue}, {second, Qt::red}});
        single.redrawNow();
        QVERIFY(single.legendLabels().isEmpty());  // neither run has a weight
    }

    void noiseScaleChartMarksTheEffectiveBatch()
    {
        ChartPanel panel(chart("noise_scale"));
        panel.resize(600, 400);
        panel.show();
        const auto run = makeRun(QStringLiteral("a"), QStringLiteral("A"), 10);
        panel.setRuns({{run, Qt::blue}});
        panel.redrawNow();
        QCOMPARE(panel.effectiveBatchMark(QStringLiteral("a")), 128.0);
        QVERIFY(panel.legendLabels().contains(QStringLiteral("effective batch 128")));
        QVERIFY(panel.logScale());  // noise scale and B_eff differ by orders of magnitude
        ChartPanel loss(chart("loss"));
        loss.setRuns({{run, Qt::blue}});
        loss.redrawNow();
        QVERIFY(std::isnan(loss.effectiveBatchMark(QStringLiteral("a"))));
    }

    void aBlowUpDoesNotFlattenTheOtherCurves_data()
    {
        QTest::addColumn<QString>("chartId");
        QTest::addColumn<bool>("log");
        QTest::addColumn<double>("saneTop");  // the y axis ends below this
        QTest::newRow("loss") << QStringLiteral("loss") << false << 3.0;
        QTest::newRow("loss, log") << QStringLiteral("loss") << true << 11.0;  // whole decades: up to 10
        QTest::newRow("gradient norm") << QStringLiteral("grad_norm") << false << 2.0;
    }

    void aBlowUpDoesNotFlattenTheOtherCurves()
    {
        QFETCH(QString, chartId);
        QFETCH(bool, log);
        QFETCH(double, saneTop);
        ChartPanel panel(chart(qPrintable(chartId)));
        panel.resize(600, 400);
        panel.show();
        panel.setLogScale(log);
        const auto healthy = makeRun(QStringLiteral("a"), QStringLiteral("A"), 40);
        const auto diverged = makeDivergedRun(QStringLiteral("b"), 20);
        QVERIFY(diverged->divergence());
        QCOMPARE(diverged->divergence()->step, qint64(21));
        panel.setRuns({{healthy, Qt::blue}, {diverged, Qt::red}});
        panel.redrawNow();
        QCoreApplication::processEvents();
        panel.redrawNow();
        // The y axis is the sane data's: the healthy run's and the diverged one's before it blew up.
        const QPointF range = panel.yAxisRange();
        QVERIFY2(range.y() < saneTop, qPrintable(QStringLiteral("y axis up to %1").arg(range.y())));
        QVERIFY(range.y() > 1.0);
        // What lies beyond is marked at the edge, on screen and in an export.
        QCOMPARE(panel.divergenceLabels(), QStringList{QStringLiteral("diverged at step 21")});
        QBuffer svg;
        QSvgGenerator generator;
        generator.setOutputDevice(&svg);
        generator.setSize(QSize(800, 500));
        QPainter painter(&generator);
        panel.render(painter, QSize(800, 500));
        painter.end();
        QVERIFY(svg.data().contains("diverged at step 21"));
        QCOMPARE(panel.yAxisRange(), range);  // the screen's axes are back after the export
    }

    // Runs that blew up at the same step share one label, and every label lies inside the plot,
    // even for runs that stop where they diverged (their mark is at the right edge).
    void divergenceIsLabelledOnceInsideThePlot()
    {
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        panel.show();
        const auto first = makeDivergedRun(QStringLiteral("a"), 20, 21);
        const auto second = makeDivergedRun(QStringLiteral("b"), 20, 21);
        panel.setRuns({{first, Qt::red}, {second, Qt::blue}});
        panel.redrawNow();
        QCoreApplication::processEvents();
        panel.redrawNow();
        QCOMPARE(panel.divergenceLabels(), QStringList{QStringLiteral("2 runs diverged at step 21")});
        const QRectF plot = panel.plotArea();
        const QList<QRectF> rects = panel.divergenceLabelRects();
        QCOMPARE(rects.size(), 1);
        QVERIFY2(plot.contains(rects.first()), qPrintable(QStringLiteral("label (%1, %2, %3 x %4) outside the plot (%5, %6, %7 x %8)")
                                                             .arg(rects.first().x()).arg(rects.first().y()).arg(rects.first().width()).arg(rects.first().height())
                                                             .arg(plot.x()).arg(plot.y()).arg(plot.width()).arg(plot.height())));
        // A thumbnail keeps the mark and drops the words.
        panel.setCompact(true);
        panel.redrawNow();
        QVERIFY(!panel.tickLabelsShown());
        QVERIFY(!panel.findChild<QLabel*>()->text().isEmpty());  // its title stays
    }

    // An axis title longer than the plot is high goes over two lines instead of being cut.
    // A divergence is marked where the chart blows up with it; the learning rate of a diverged
    // run is a sane line, and a triangle there would point a class at nothing.
    void divergenceIsMarkedOnlyWhereTheValuesBlowUp()
    {
        const auto diverged = makeDivergedRun(QStringLiteral("b"), 20);
        for (const char* id : {"loss", "grad_norm", "lr"}) {
            ChartPanel panel(chart(id));
            panel.resize(600, 400);
            panel.show();
            panel.setRuns({{diverged, Qt::red}});
            panel.redrawNow();
            QCoreApplication::processEvents();
            panel.redrawNow();
            const QStringList expected = chart(id).blowsUp ? QStringList{QStringLiteral("diverged at step 21")} : QStringList{};
            QCOMPARE(panel.divergenceLabels(), expected);
        }
        QVERIFY(!chart("lr").blowsUp && chart("loss").blowsUp);
    }

    // A run that blew up is not "covered" by the healthy runs after it: its extent of 2 to 3e27
    // made their first steps lie "on" it, and the NovoGrad lesson drew it three times as wide.
    void aDivergedRunIsNotDrawnAsARim()
    {
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        panel.show();
        const auto diverged = makeDivergedRun(QStringLiteral("sgd"), 20);
        QList<int> steps;
        for (int step = 1; step <= 40; ++step)
            steps.append(step);
        const auto first = makeLossRun(QStringLiteral("novograd"), steps, [](int step) { return 2.0 - 0.02 * step; });
        const auto second = makeLossRun(QStringLiteral("novograd, warmup"), steps, [](int step) { return 2.0 - 0.015 * step; });
        panel.setRuns({{diverged, Qt::red}, {first, Qt::blue}, {second, Qt::darkGreen}});
        panel.redrawNow();
        QCoreApplication::processEvents();
        panel.redrawNow();
        QCOMPARE(panel.lineWidth(QStringLiteral("sgd"), QStringLiteral("loss")), panel.lineWidth(QStringLiteral("novograd"), QStringLiteral("loss")));
    }

    // The throughput lesson's model of GPUs: each run's modelled rate as a dash-dot level, named
    // a model with its GPUs and bandwidth, at the compute speed of the one-rank run (a GPU
    // computes alone), a ring all-reduce of the gradients between them.
    void theThroughputChartDrawsAModelOfGpus()
    {
        const auto runOn = [](const QString& id, int ranks, double computeMs) {
            RunRecord record;
            record.id = id;
            record.label = id;
            auto run = QSharedPointer<RunData>::create(record);
            QList<QJsonObject> events{QJsonObject{{QStringLiteral("type"), QStringLiteral("config")},
                                                  {QStringLiteral("world_size"), ranks},
                                                  {QStringLiteral("batch_size"), 64},
                                                  {QStringLiteral("effective_batch_size"), 64 * ranks},
                                                  {QStringLiteral("parameter_count"), 421642}}};
            for (int step = 1; step <= 10; ++step)
                events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                          {QStringLiteral("compute_ms"), computeMs},
                                          {QStringLiteral("samples_per_sec"), 64.0 * ranks / (computeMs * ranks / 2 / 1000.0)}});
            run->appendEvents(events);
            return run;
        };
        const auto one = runOn(QStringLiteral("1 rank"), 1, 46.0);
        const auto four = runOn(QStringLiteral("4 ranks"), 4, 140.0);  // contended on 2 cores
        ChartPanel panel(chart("throughput"));
        panel.resize(600, 400);
        panel.show();
        panel.setThroughputModel(ThroughputModel{10e9, QStringLiteral("PCIe")});
        panel.setRuns({{one, Qt::blue}, {four, Qt::red}});
        panel.redrawNow();
        panel.redrawNow();
        const double compute = 0.046 / 64;
        const double ring = 2.0 * 3 / 4 * 421642 * 4 / 10e9;
        const double modelledFour = 4 * 64 / (64 * compute + ring);
        QCOMPARE(panel.levelNames().size(), 2);
        QVERIFY2(panel.levelNames().at(1).startsWith(QStringLiteral("model: 4 GPU(s) at 10 GB/s, %1/s").arg(QString::number(modelledFour, 'f', 0))),
                 qPrintable(panel.levelNames().join(QStringLiteral(" | "))));
        QVERIFY2(panel.levelNames().at(0).startsWith(QStringLiteral("model: 1 GPU(s) at 10 GB/s, 1391/s")), qPrintable(panel.levelNames().at(0)));
        QVERIFY(panel.yAxisRange().y() >= modelledFour);  // in sight
        // A chart of another kind has no model, whatever it is given.
        ChartPanel loss(chart("loss"));
        loss.setThroughputModel(ThroughputModel{10e9, QStringLiteral("PCIe")});
        loss.setRuns({{one, Qt::blue}});
        loss.redrawNow();
        QVERIFY(loss.levelNames().isEmpty());
    }

    // A rate's axis starts at 0: from 500 it drew 574 against 361 images/s as a threefold lead.
    void throughputIsDrawnFromZero()
    {
        RunRecord record;
        record.id = QStringLiteral("fast");
        record.label = record.id;
        auto run = QSharedPointer<RunData>::create(record);
        QList<QJsonObject> events;
        for (int step = 1; step <= 20; ++step)
            events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                      {QStringLiteral("samples_per_sec"), 500.0 + 15.0 * step}});
        run->appendEvents(events);
        ChartPanel panel(chart("throughput"));
        panel.resize(600, 400);
        panel.show();
        panel.setRuns({{run, Qt::blue}});
        panel.redrawNow();
        QCOMPARE(panel.yAxisRange().x(), 0.0);
        QVERIFY(panel.yAxisRange().y() >= 800.0);
    }

    void aLongYTitleWrapsInsteadOfBeingCut()
    {
        ChartPanel panel(chart("update_variance"));
        QFont large = panel.font();
        large.setPointSizeF(large.pointSizeF() * 1.6);
        panel.setFont(large);  // presentation's
        panel.resize(400, 330);
        panel.show();
        panel.setRuns({{makeRun(QStringLiteral("a"), QStringLiteral("A"), 10), Qt::blue}});
        panel.redrawNow();
        QCoreApplication::processEvents();
        panel.redrawNow();
        const QString shown = panel.yTitleShown();
        QVERIFY2(shown.contains(QStringLiteral("<br>")), qPrintable(shown));
        QFont titleFont = large;
        titleFont.setPointSizeF(large.pointSizeF() * 0.9);
        for (const QString& line : shown.split(QStringLiteral("<br>")))
            QVERIFY2(QFontMetricsF(titleFont).horizontalAdvance(line) <= panel.plotArea().height() + 1, qPrintable(QStringLiteral("%1: %2 px, plot %3 px high").arg(line).arg(QFontMetricsF(titleFont).horizontalAdvance(line)).arg(panel.plotArea().height())));
        QCOMPARE(shown.split(QStringLiteral("<br>")).join(QLatin1Char(' ')), QStringLiteral("variance per parameter"));
        // Where there is room, one line.
        panel.resize(600, 600);
        QCoreApplication::processEvents();
        panel.redrawNow();
        QCOMPARE(panel.yTitleShown(), QStringLiteral("variance per parameter"));
    }

    // A run whose points lie on a later run's line (its straighter segments, as 1 x 16 under 8 x 16
    // with the linear rule) is drawn wider, a rim around the other; a run that only crosses
    // another is not.
    void aCoveredLineKeepsARim()
    {
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        const auto many = makeLossRun(QStringLiteral("many"), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
                                      [](int step) { return 16.0 - step; });
        const auto few = makeLossRun(QStringLiteral("few"), {8, 16}, [](int step) { return 16.0 - step; });
        const auto crossing = makeLossRun(QStringLiteral("crossing"), {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
                                          [](int step) { return double(step); });
        panel.setRuns({{many, Qt::blue}, {few, Qt::red}});
        panel.redrawNow();
        QVERIFY2(panel.lineWidth(QStringLiteral("many"), QStringLiteral("loss")) > panel.lineWidth(QStringLiteral("few"), QStringLiteral("loss")),
                 qPrintable(QString::number(panel.lineWidth(QStringLiteral("many"), QStringLiteral("loss")))));
        panel.setRuns({{many, Qt::blue}, {crossing, Qt::red}});
        panel.redrawNow();
        QCOMPARE(panel.lineWidth(QStringLiteral("many"), QStringLiteral("loss")), panel.lineWidth(QStringLiteral("crossing"), QStringLiteral("loss")));
    }

    // A lesson's first run, alone on the charts so far, is drawn as it will be once the others
    // come: validation in the run's colour (dashed), not in a metric colour that would change
    // meaning with the second run. A run on its own keeps colours by metric.
    void aLessonsColoursKeepTheirMeaning()
    {
        ChartPanel panel(chart("loss"));
        const auto alone = makeRun(QStringLiteral("a"), QStringLiteral("A"), 20);
        panel.setRuns({{alone, Qt::blue}});
        panel.redrawNow();
        QVERIFY(panel.lineColor(QStringLiteral("a"), QStringLiteral("val_loss")) != QColor(Qt::blue));
        RunRecord record;
        record.id = QStringLiteral("l");
        record.label = QStringLiteral("L");
        record.lessonId = QStringLiteral("seed003-warmup");
        auto lesson = QSharedPointer<RunData>::create(record);
        lesson->appendEvents({QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), 10}, {QStringLiteral("loss"), 1.0}},
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("eval")}, {QStringLiteral("step"), 10}, {QStringLiteral("val_loss"), 1.5}}});
        panel.setRuns({{lesson, Qt::blue}});
        panel.redrawNow();
        QCOMPARE(panel.lineColor(QStringLiteral("l"), QStringLiteral("val_loss")), QColor(Qt::blue));
        QCOMPARE(panel.lineColor(QStringLiteral("l"), QStringLiteral("loss")), QColor(Qt::blue));
    }

    // Per sample seen, a step's training loss (measured on its mini-batch before its update) is
    // drawn where the step began; a validation loss (measured after) where it ended.
    void aStepsLossIsDrawnWhereTheStepBegan()
    {
        RunRecord record;
        record.id = QStringLiteral("s");
        auto run = QSharedPointer<RunData>::create(record);
        QList<QJsonObject> events;
        for (int step = 1; step <= 4; ++step)
            events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                      {QStringLiteral("samples"), 16}, {QStringLiteral("loss"), 1.0 / step}});
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("eval")}, {QStringLiteral("step"), 2}, {QStringLiteral("val_loss"), 0.7}});
        run->appendEvents(events);
        ChartPanel panel(chart("loss"));
        panel.resize(600, 400);
        panel.setXAxis(XAxis::SamplesSeen);
        panel.setRuns({{run, Qt::blue}});
        panel.redrawNow();
        QList<double> xs;
        for (const QPointF& point : panel.drawnPoints(QStringLiteral("s"), QStringLiteral("loss")))
            xs.append(point.x());
        QCOMPARE(xs, (QList<double>{0, 16, 32, 48}));
        QCOMPARE(panel.drawnPoints(QStringLiteral("s"), QStringLiteral("val_loss")).value(0).x(), 32.0);
        panel.setXAxis(XAxis::Step);  // per step, at the step itself
        panel.redrawNow();
        QCOMPARE(panel.drawnPoints(QStringLiteral("s"), QStringLiteral("loss")).value(0).x(), 1.0);
    }

    void removingARunRemovesItsLines()
    {
        RunModel model;
        ChartGrid grid(model);
        grid.resize(900, 700);
        grid.show();
        const auto first = makeRun(QStringLiteral("a"), QStringLiteral("A"), 10);
        const auto second = makeRun(QStringLiteral("b"), QStringLiteral("B"), 10);
        model.addRun(first);
        model.addRun(second);
        QCOMPARE(model.runs().at(0).color == model.runs().at(1).color, false);
        model.removeRun(QStringLiteral("a"));
        ChartPanel* loss = grid.panel(QStringLiteral("loss"));
        loss->redrawNow();
        QVERIFY(loss->drawnPoints(QStringLiteral("a"), QStringLiteral("loss")).isEmpty());
        QCOMPARE(loss->drawnPoints(QStringLiteral("b"), QStringLiteral("loss")).size(), 10);
        model.clear();
        QVERIFY(grid.panels().isEmpty());
    }

    void lessonFocusShowsExactlyItsCharts()
    {
        RunModel model;
        ChartGrid grid(model);
        grid.setFocusCharts(chartsForMetrics({QStringLiteral("w_mean"), QStringLiteral("loss"), QStringLiteral("lr")}));
        QStringList ids;
        for (ChartPanel* panel : grid.panels())
            ids.append(panel->definition().id);
        QCOMPARE(ids, (QStringList{QStringLiteral("weight"), QStringLiteral("loss"), QStringLiteral("lr")}));
        model.addRun(makeRun(QStringLiteral("a"), QStringLiteral("A"), 5));
        QCOMPARE(grid.panels().size(), 3);  // noise_scale has data but is not the lesson's
    }

    // Every step carries its effective batch; its chart comes only once a run's batch has grown
    // (batch_schedule), and then with the steps where it did.
    void theEffectiveBatchIsChartedOnceItGrows()
    {
        RunModel model;
        ChartGrid grid(model);
        auto run = makeRun(QStringLiteral("a"), QStringLiteral("A"), 0);
        model.addRun(run);
        auto step = [&](int number, int batch) {
            run->appendEvents({QJsonObject{{QStringLiteral("type"), QStringLiteral("step")},
                                           {QStringLiteral("step"), number},
                                           {QStringLiteral("loss"), 1.0 / number},
                                           {QStringLiteral("noise_scale"), 20.0},
                                           {QStringLiteral("effective_batch"), batch}}});
            model.notifyDataAppended(QStringLiteral("a"));
        };
        step(1, 8);
        step(2, 8);
        QVERIFY(!grid.panel(QStringLiteral("effective_batch")));
        step(3, 16);
        ChartPanel* batch = grid.panel(QStringLiteral("effective_batch"));
        QVERIFY(batch);
        batch->redrawNow();
        QCOMPARE(batch->drawnPoints(QStringLiteral("a"), QStringLiteral("effective_batch")),
                 (QList<QPointF>{{1, 8}, {2, 8}, {3, 16}}));

        // Where it grew is marked on every chart the run has a line on, across the y range shown.
        run->appendEvents({QJsonObject{{QStringLiteral("type"), QStringLiteral("batch_changed")},
                                       {QStringLiteral("step"), 2},
                                       {QStringLiteral("previous_effective_batch"), 8},
                                       {QStringLiteral("effective_batch"), 16}}});
        step(4, 16);
        for (const QString& id : {QStringLiteral("loss"), QStringLiteral("effective_batch")}) {
            ChartPanel* panel = grid.panel(id);
            panel->redrawNow();
            const QList<QList<QPointF>> marks = panel->batchChangeMarks();
            QCOMPARE(marks.size(), 1);
            QCOMPARE(marks.first().size(), 2);
            QCOMPARE(marks.first().at(0).x(), 2.0);
            QCOMPARE(marks.first().at(1).x(), 2.0);
            QCOMPARE(QPointF(marks.first().at(0).y(), marks.first().at(1).y()), panel->yAxisRange());
        }
        // The noise scale is read against the batch: its level rises where the batch grew.
        ChartPanel* noise = grid.panel(QStringLiteral("noise_scale"));
        noise->redrawNow();
        const QList<QPointF> level = noise->effectiveBatchLine(QStringLiteral("a"));
        QCOMPARE(level.size(), 4);
        QCOMPARE(level.at(0).y(), 128.0);  // the config's effective batch (makeRun's)
        QCOMPARE(level.at(1), QPointF(2, 128));
        QCOMPARE(level.at(2), QPointF(2, 16));
        QCOMPARE(level.at(3).y(), 16.0);
    }
};

DDPLAB_UI_TEST_MAIN(TestChartPanel)
#include "tst_chart_panel.moc"
