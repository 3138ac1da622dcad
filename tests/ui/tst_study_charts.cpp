// SPDX-License-Identifier: GPL-3.0-or-later
// What a study's charts and findings say, from made-up results with known answers: a target
// judged on the mini-batch loss puts a caution on the critical-batch findings (one on the
// training set's loss none); Zhang et al.'s critical batch beside McCandlish's, as a marker and a
// finding; the engine's B_simple marked on the charts against the effective batch; the figure
// summed up as chosen, in the charts' titles and values; a chart per colour of the `curves`
// figure against epochs; the best of the study's `best` axis (the weight decay) against the
// batch while the figure is drawn against a resolved x.

#include "client/study/study_plan.hpp"
#include "stored_study_of.hpp"
#include "plots/study_charts.hpp"
#include "plots/study_plot.hpp"
#include "ui_test_main.hpp"

#include <QApplication>
#include <QBuffer>
#include <QFontInfo>
#include <QImage>
#include <QJsonDocument>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QTemporaryDir>

#include <cmath>

using namespace ddplab::ui;
using ddplab::test::finishedRunOf;
using ddplab::test::studyOf;

namespace {

// Batches 8 ... 256 x two LRs; the steps follow S = 50 (1 + 140 / B) at lr 0.1, 1.5 times that
// at lr 0.2; B_simple 100 at the target and 120 as the runs end.
QList<StudyRunResult> mcCandlishResults(const StoredStudy& study)
{
    QList<StudyRunResult> results;
    for (const StudyPoint& point : study.points) {
        StudyRunResult result = finishedRunOf(point);
        const double batch = double(result.effectiveBatch);
        const double slower = point.values.value(QStringLiteral("lr")).toDouble() == 0.1 ? 1.0 : 1.5;
        result.stepsToTarget = qint64(std::round(50.0 * (1.0 + 140.0 / batch) * slower));
        result.samplesToTarget = double(result.stepsToTarget) * batch;
        result.noiseScaleAtTarget = 100.0;
        result.noiseScale = 120.0;
        result.trainLoss = 0.01;
        results.append(result);
    }
    return results;
}

QByteArray targetStudy(const QString& metric)
{
    return QStringLiteral(R"({"id": "cb", "title": "cb",
        "base": {"workload": "linreg", "batch_size": 8, "epochs": 1, "num_examples": 4096},
        "axes": [{"key": "effective_batch", "from": 8, "to": 256, "factor": 2, "split": "batch_first"},
                 {"key": "lr", "values": [0.1, 0.2]}],
        "target": {"metric": "%1", "at_most": 0.012}})")
        .arg(metric)
        .toUtf8();
}

const PlotSpec* plotNamed(const StudyCharts& charts, const QString& id)
{
    for (const PlotSpec& plot : charts.plots) {
        if (plot.id == id)
            return &plot;
    }
    return nullptr;
}

bool hasMarker(const PlotSpec& plot, const QString& labelStart, double x)
{
    return std::any_of(plot.markers.begin(), plot.markers.end(), [&](const PlotMarker& marker) {
        return marker.label.startsWith(labelStart) && std::abs(marker.x - x) < 1e-6 * x;
    });
}

QString findingWith(const StudyCharts& charts, const QString& part)
{
    for (const QString& line : charts.findingLines()) {
        if (line.contains(part))
            return line;
    }
    return QString();
}

}  // namespace

class TestStudyCharts : public QObject {
    Q_OBJECT

private slots:
    // A y title longer than the plot is high is drawn whole on two lines: the chart as the Study
    // page shows it at 1280 x 720 in presentation mode (about 410 x 360 px, the words 1.6 times)
    // had it on one, its end cut ("update variance (poole…", "loss over the training set (m…").
    void aLongYTitleIsWholeOnTwoLines()
    {
        PlotSpec plot;
        plot.title = QStringLiteral("loss against the effective batch");
        plot.yTitle = QStringLiteral("loss over the training set (mean of the last epoch)");
        plot.xTitle = QStringLiteral("effective batch");
        plot.logX = true;
        plot.logY = true;
        plot.lines.append({QStringLiteral("LR rule linear"), QColor(Qt::blue), {{16, 0.3}, {64, 0.2}, {256, 0.1}}, {}, {}, true, false});
        plot.lines.append({QStringLiteral("LR rule none"), QColor(Qt::red), {{16, 0.3}, {64, 0.35}, {256, 0.4}}, {}, {}, true, false});
        QBuffer svg;
        QSvgGenerator generator;
        generator.setOutputDevice(&svg);
        generator.setResolution(96);  // a screen's, as the offscreen one
        generator.setSize(QSize(410, 360));
        QPainter painter(&generator);
        QFont presenting = QApplication::font();
        presenting.setPointSizeF(presenting.pointSizeF() * 1.6);
        painter.setFont(presenting);
        paintPlot(painter, QRect(0, 0, 410, 360), plot);
        painter.end();
        const QString drawn = QString::fromUtf8(svg.data());
        QVERIFY2(drawn.contains(QStringLiteral("loss over the training")), qPrintable(drawn.left(200)));
        QVERIFY2(drawn.contains(QStringLiteral("(mean of the last epoch)")), "the y title's end is cut");
        QVERIFY2(!drawn.contains(QChar(0x2026)) && !drawn.contains(QStringLiteral("&#8230;")), "a text of the chart ends in \u2026");
    }

    // A marker the x axis does not reach is not drawn as an arrow at its edge ("B_simple 6.39e+03
    // >" read as a point of the chart): a note says where it lies, and no pixel of its colour is
    // painted.
    void aMarkerBeyondTheAxisIsANoteNotAnArrow()
    {
        PlotSpec plot;
        plot.title = QStringLiteral("update variance against the effective batch");
        plot.logX = true;
        plot.lines.append({QStringLiteral("none"), QColor(Qt::blue), {{16, 1e-7}, {64, 3e-8}, {1024, 2e-9}}, {}, {}, true, false});
        const QColor marker(255, 0, 255);
        plot.markers.append({6390, QStringLiteral("B_simple 6390"), marker});
        plot.markers.append({100, QStringLiteral("B_crit 100"), QColor(0, 200, 0)});
        const QStringList notes = outsideMarkerNotes(plot);
        QCOMPARE(notes.size(), 1);
        QVERIFY2(notes.first().startsWith(QStringLiteral("B_simple 6390: beyond the x axis")), qPrintable(notes.first()));
        QImage image(800, 500, QImage::Format_ARGB32);
        QPainter painter(&image);
        paintPlot(painter, image.rect(), plot);
        painter.end();
        int magenta = 0, green = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QColor pixel = image.pixelColor(x, y);
                magenta += pixel.red() > 200 && pixel.blue() > 200 && pixel.green() < 60;
                green += pixel.green() > 150 && pixel.red() < 60 && pixel.blue() < 60;
            }
        }
        QCOMPARE(magenta, 0);
        QVERIFY(green > 50);  // the marker inside the axis is drawn
    }

    // A study's slide: 1920 x 1080, each chart headed by the study's title, its words sized by
    // the image's height (its first line of text, the heading, measured in the pixels; the
    // smallest words' font at least 28 px at 1080, where the live charts' slides promise 30), not the screen's.
    void aStudySlideHasItsTitleAndReadableWords()
    {
        const StoredStudy study = studyOf(targetStudy(QStringLiteral("train_loss")));
        const QList<StudyRunResult> results = mcCandlishResults(study);
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        QTemporaryDir dir;
        QString error;
        ImageFormat slide(QSize(1920, 1080), 1.6, true);
        const QStringList written = exportStudy(study, results, charts, dir.path(), slide, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString png = written.value(0);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(1920, 1080));
        QFile svg(written.value(1));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QString drawing = QString::fromUtf8(svg.readAll());
        QVERIFY2(drawing.contains(QStringLiteral("cb: ")), "no study title on the slide");
        QVERIFY2(drawing.contains(QStringLiteral("Every run: ")), "no runs' settings on the slide");
        // The heading's height in pixels: the first rows from the top with dark ink.
        int first = -1, last = -1;
        for (int y = 0; y < image.height() / 4; ++y) {
            bool ink = false;
            for (int x = 0; x < image.width() / 2 && !ink; ++x)
                ink = image.pixelColor(x, y).lightness() < 100;
            if (ink && first < 0)
                first = y;
            if (!ink && first >= 0) {
                last = y;
                break;
            }
        }
        QVERIFY2(first >= 0 && last - first >= 0.7 * 28, qPrintable(QStringLiteral("heading %1 px high").arg(last - first)));
        QFont small;
        small.setPointSizeF(std::max(small.pointSizeF(), 10.0) * studyScaleForTextPixels(30) * 0.85);
        QVERIFY(QFontInfo(small).pixelSize() >= 28 || small.pointSizeF() * 96.0 / 72.0 >= 28);
    }

    // A study whose only batch axis is the ranks (world_size) still finds the best LR against
    // the effective batch, as its subtitle promises.
    void theRanksAloneStillGiveTheBestLr()
    {
        const StoredStudy study = studyOf(R"({"id": "r", "title": "r",
            "base": {"workload": "linreg", "batch_size": 8, "epochs": 1, "num_examples": 4096},
            "axes": [{"key": "world_size", "values": [1, 2, 4, 8]}, {"key": "lr", "values": [0.05, 0.1, 0.2, 0.4, 0.8]}]})");
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = finishedRunOf(point);
            const double lr = point.values.value(QStringLiteral("lr")).toDouble();
            const double best = 0.05 * double(result.effectiveBatch) / 8.0;  // linear in the batch
            result.loss = 1.0 + std::pow(std::log(lr / best), 2);
            results.append(result);
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        QStringList ids;
        for (const PlotSpec& plot : charts.plots)
            ids.append(plot.id);
        QVERIFY2(plotNamed(charts, QStringLiteral("best-lr")), qPrintable(ids.join(QLatin1Char(' '))));
        QVERIFY2(!findingWith(charts, QStringLiteral("the best learning rate grows as batch^")).isEmpty(),
                 qPrintable(charts.findingLines().join(QLatin1Char('\n'))));
    }

    // Two lines of one colour axis value (lr 0.1 and 0.2 of the same rule) no longer share a
    // colour: every line of a chart has one of its own.
    void everyLineOfAChartHasAColourOfItsOwn()
    {
        const StoredStudy study = studyOf(R"({"id": "c", "title": "c",
            "base": {"workload": "linreg", "batch_size": 8, "epochs": 1, "num_examples": 4096},
            "axes": [{"key": "world_size", "values": [1, 2, 4]}, {"key": "lr_rule", "values": ["none", "linear"]},
                     {"key": "lr", "values": [0.1, 0.2]}]})");
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = finishedRunOf(point);
            result.loss = 0.5;
            results.append(result);
        }
        StudyChartChoices choices = defaultChartChoices(study);
        choices.colourBy = QStringLiteral("lr_rule");
        const StudyCharts charts = buildStudyCharts(study, results, choices);
        QVERIFY(!charts.plots.isEmpty());
        const PlotSpec& plot = charts.plots.first();
        QStringList colours;
        for (const PlotLine& line : plot.lines) {
            if (line.dashed && !line.markers)
                continue;
            QVERIFY2(!colours.contains(line.color.name()), qPrintable(line.label + QStringLiteral(": ") + line.color.name()));
            colours.append(line.color.name());
        }
        QCOMPARE(colours.size(), 4);  // none and linear, each at two LRs
    }

    // An x title wider than its plot is drawn whole where the chart has room for it: at 1280 x 720
    // in presentation mode the study chart's "effective batch (log)" read "ffective batch (log".
    // The title's pixels (the chart with it against the chart without it) span as much in a
    // narrow chart as in a wide one, and stay inside the chart.
    void aLongXTitleIsDrawnWhole()
    {
        const auto titleSpan = [](int width) {
            PlotSpec spec;
            spec.logX = true;
            PlotLine line;
            line.label = QStringLiteral("LR rule linear");
            line.color = Qt::blue;
            line.points = {QPointF(16, 1.0), QPointF(64, 2.0), QPointF(256, 3.0)};
            spec.lines.append(line);
            spec.notes = {QStringLiteral("LR rule linear: log-log slope 0.969")};
            const auto render = [&spec, width](const QString& xTitle) {
                spec.xTitle = xTitle;
                QImage image(width, 260, QImage::Format_ARGB32);
                image.fill(Qt::white);
                QPainter painter(&image);
                paintPlot(painter, image.rect(), spec, 1.0, nullptr);
                return image;
            };
            const QImage with = render(QStringLiteral("effective batch, all ranks together"));
            const QImage without = render(QString());
            int left = width, right = -1;
            for (int y = 0; y < with.height(); ++y)
                for (int x = 0; x < width; ++x)
                    if (with.pixel(x, y) != without.pixel(x, y)) {
                        left = std::min(left, x);
                        right = std::max(right, x);
                    }
            return std::pair{left, right};
        };
        const auto [wideLeft, wideRight] = titleSpan(1200);
        const auto [narrowLeft, narrowRight] = titleSpan(330);
        QVERIFY(wideRight > wideLeft);
        QVERIFY2(narrowLeft > 0 && narrowRight < 329, qPrintable(QStringLiteral("%1 to %2").arg(narrowLeft).arg(narrowRight)));
        QVERIFY2(std::abs((narrowRight - narrowLeft) - (wideRight - wideLeft)) <= 2,
                 qPrintable(QStringLiteral("%1 px wide in a narrow chart, %2 in a wide one").arg(narrowRight - narrowLeft).arg(wideRight - wideLeft)));
    }

    // Notes that do not fit under the legend wrapped at a third of the chart widen its column so
    // that the last is drawn whole: at 1280 x 720 in presentation mode the notes ran off the
    // chart's foot ("LR rule sqrt: log-log slope" and no number). Seen by changing the last
    // note's last digits: the pixels that change are there, inside the chart, as many as in a
    // chart tall enough for every note.
    void everyNoteIsDrawnWholeInAShortChart()
    {
        constexpr int kShortChartHeight = 200;  // the old column cut the note from 220 px down
        const auto lastDigits = [](int height) {
            PlotSpec spec;
            spec.logX = true;
            spec.xTitle = QStringLiteral("effective batch");
            spec.yTitle = QStringLiteral("update variance");
            const QList<std::pair<QString, QColor>> rules{{QStringLiteral("LR rule linear"), Qt::blue},
                                                          {QStringLiteral("LR rule none"), Qt::red},
                                                          {QStringLiteral("LR rule sqrt"), Qt::darkGreen}};
            for (const auto& [label, colour] : rules) {
                PlotLine line;
                line.label = label;
                line.color = colour;
                line.points = {QPointF(16, 1.0), QPointF(64, 2.0), QPointF(256, 3.0)};
                spec.lines.append(line);
            }
            const auto render = [&spec, height](const QString& last) {
                spec.notes = {QStringLiteral("LR rule linear: log-log slope 0.969"), QStringLiteral("LR rule none: log-log slope -1.03"),
                              QStringLiteral("LR rule sqrt: log-log slope -0.0324"), QStringLiteral("B_simple 1.19 (measured as the runs ended, mean)"),
                              QStringLiteral("B_simple 1.19: beyond the x axis (11.85 to %1)").arg(last)};
                QImage image(420, height, QImage::Format_ARGB32);
                image.fill(Qt::white);
                QPainter painter(&image);
                paintPlot(painter, image.rect(), spec, 1.0, nullptr);
                return image;
            };
            const QImage one = render(QStringLiteral("1382"));
            const QImage other = render(QStringLiteral("1999"));
            int changed = 0, lowest = -1;
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < one.width(); ++x)
                    if (one.pixel(x, y) != other.pixel(x, y)) {
                        ++changed;
                        lowest = y;
                    }
            return std::pair{changed, lowest};
        };
        const auto [tallChanged, tallLowest] = lastDigits(900);
        const auto [shortChanged, shortLowest] = lastDigits(kShortChartHeight);
        QVERIFY(tallChanged > 20);
        QVERIFY2(shortChanged >= tallChanged * 9 / 10 && shortChanged <= tallChanged * 11 / 10,
                 qPrintable(QStringLiteral("the last digits changed %1 pixels in a short chart, %2 in a tall one").arg(shortChanged).arg(tallChanged)));
        QVERIFY(shortLowest < kShortChartHeight - 1);
    }

    // A point that has no place on the axes (an x of NaN, an x of 0 on a log axis) is left out,
    // not drawn from NaN arcs (Qt said "QPainterPath::arcTo … NaN" on stderr).
    void aPointWithNoPlaceIsLeftOut()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral("NaN|nan")));
        PlotSpec spec;
        spec.logX = true;
        PlotLine line;
        line.color = Qt::blue;
        line.points = {QPointF(0.0, 1.0), QPointF(std::nan(""), 2.0), QPointF(4.0, 3.0), QPointF(8.0, 2.0)};
        spec.lines.append(line);
        QImage image(400, 300, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        paintPlot(painter, image.rect(), spec, 1.0, nullptr);
        painter.end();
        int blue = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                blue += image.pixelColor(x, y) == QColor(Qt::blue);
        QVERIFY(blue > 20);  // the points that have a place are drawn
    }

    void aMiniBatchTargetIsSaidToBeNoisy()
    {
        const StoredStudy noisy = studyOf(targetStudy(QStringLiteral("batch_loss")));
        const StudyCharts charts = buildStudyCharts(noisy, mcCandlishResults(noisy), defaultChartChoices(noisy));
        // Both readings of the critical batch carry it.
        const QString caution = QStringLiteral("[caution: the target is judged on the step's mini-batch loss (noisy)");
        const QString fit = findingWith(charts, QStringLiteral("from the fit"));
        QVERIFY2(fit.contains(caution), qPrintable(charts.findingLines().join(QLatin1Char('\n'))));
        QVERIFY(fit.contains(QStringLiteral("train_loss is the noise-free measure")));
        QVERIFY(findingWith(charts, QStringLiteral("Zhang et al.")).contains(caution));
        const StoredStudy clean = studyOf(targetStudy(QStringLiteral("train_loss")));
        const StudyCharts quiet = buildStudyCharts(clean, mcCandlishResults(clean), defaultChartChoices(clean));
        QVERIFY(findingWith(quiet, QStringLiteral("judged on")).isEmpty());
        QCOMPARE(plotNamed(quiet, QStringLiteral("steps-to-target"))->title, QStringLiteral("Optimizer steps to reach train_loss ≤ 0.012"));
    }

    void zhangsCriticalBatchStandsBesideMcCandlishs()
    {
        const StoredStudy study = studyOf(targetStudy(QStringLiteral("train_loss")));
        const StudyCharts charts = buildStudyCharts(study, mcCandlishResults(study), defaultChartChoices(study));
        // The best LR (0.1) follows S = 50 (1 + 140 / B), rounded to whole steps: McCandlish's
        // fit finds 140; the steps exceed linear scaling from batch 8 by 20 % between 32 and 64.
        const QString mcCandlish = findingWith(charts, QStringLiteral("from the fit"));
        QVERIFY2(mcCandlish.contains(QStringLiteral("B_simple measured at the target 100")), qPrintable(mcCandlish));
        const QString zhang = findingWith(charts, QStringLiteral("Zhang et al. 2024"));
        QVERIFY2(!zhang.isEmpty(), qPrintable(charts.findingLines().join(QLatin1Char('\n'))));
        const QList<QPointF> measured{QPointF(8, 925), QPointF(16, 488), QPointF(32, 269), QPointF(64, 159), QPointF(128, 105),
                                      QPointF(256, 77)};
        const ExcessStepsBatch expected = batchAtExcessSteps(measured, 0.2);
        QVERIFY(expected.ok && !expected.beyond && expected.batch > 32 && expected.batch < 64);
        QVERIFY2(zhang.startsWith(QStringLiteral("critical batch %1 where the steps exceed linear scaling from batch 8 by 20 %")
                                      .arg(QString::number(expected.batch, 'g', 3))),
                 qPrintable(zhang));
        const PlotSpec* steps = plotNamed(charts, QStringLiteral("steps-to-target"));
        QVERIFY(steps);
        QVERIFY(hasMarker(*steps, QStringLiteral("B* "), expected.batch));
        QVERIFY(std::any_of(steps->markers.begin(), steps->markers.end(), [](const PlotMarker& marker) {
            return marker.label.startsWith(QStringLiteral("B_crit ")) && std::abs(marker.x - 140.0) < 7.0;
        }));
        // Only one finding each, though two charts (steps and samples) draw the marker.
        QCOMPARE(charts.findingLines().filter(QStringLiteral("Zhang et al.")).size(), 1);
        QVERIFY(hasMarker(*plotNamed(charts, QStringLiteral("samples-to-target")), QStringLiteral("B* "), expected.batch));
    }

    void bSimpleIsMarkedAgainstTheEffectiveBatch()
    {
        const StoredStudy study = studyOf(targetStudy(QStringLiteral("train_loss")));
        QList<StudyRunResult> results = mcCandlishResults(study);
        results[0].noiseScale = 80.0;  // the mean of the runs' last B_simple: (80 + 10 * 120) / 11
        results[1].noiseScale = StudyRunResult::kNone;  // not measured (one rank): left out
        StudyChartChoices choices = defaultChartChoices(study);
        choices.figure = QStringLiteral("train_loss");
        const StudyCharts charts = buildStudyCharts(study, results, choices);
        const double mean = (80.0 + 10 * 120.0) / 11.0;
        QVERIFY(hasMarker(*plotNamed(charts, QStringLiteral("figure-vs-effective_batch")), QStringLiteral("B_simple"), mean));
        QVERIFY(hasMarker(*plotNamed(charts, QStringLiteral("best-lr")), QStringLiteral("B_simple"), mean));
    }

    void theFigureIsSummedUpAsChosen()
    {
        const StoredStudy study = studyOf(R"({"id": "s", "title": "s",
            "base": {"workload": "linreg", "batch_size": 8, "epochs": 1, "num_examples": 256},
            "axes": [{"key": "lr", "values": [0.1, 0.2]}],
            "show": {"figure": "train_loss", "summarise": "best"}})");
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = finishedRunOf(point);
            result.trainLoss = 0.5;
            result.ends.insert(QStringLiteral("train_loss"), SeriesEnds{0.4, 0.3 + point.index});
            results.append(result);
        }
        StudyChartChoices choices = defaultChartChoices(study);
        QCOMPARE(choices.summary, FigureSummary::Best);
        const StudyCharts best = buildStudyCharts(study, results, choices);
        QCOMPARE(best.plots.first().yTitle, QStringLiteral("loss over the training set (best value)"));
        QCOMPARE(best.plots.first().lines.first().points, (QList<QPointF>{QPointF(0.1, 0.3), QPointF(0.2, 1.3)}));
        choices.summary = FigureSummary::LastEpochMean;
        const StudyCharts mean = buildStudyCharts(study, results, choices);
        QCOMPARE(mean.plots.first().yTitle, QStringLiteral("loss over the training set (mean of the last epoch)"));
        QCOMPARE(mean.plots.first().lines.first().points, (QList<QPointF>{QPointF(0.1, 0.5), QPointF(0.2, 0.5)}));
    }

    void curvesAreAChartPerColour()
    {
        const StoredStudy study = studyOf(R"({"id": "c", "title": "c",
            "base": {"workload": "linreg", "optimizer": "adam", "batch_size": 8, "epochs": 2, "num_examples": 256},
            "axes": [{"key": "effective_batch", "values": [8, 16], "split": "batch_first"},
                     {"key": "lr_rule", "values": ["none", "sde"]}],
            "show": {"colour": "lr_rule", "curves": "train_loss"}})");
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = finishedRunOf(point);
            result.curve = {QPointF(0.5, 1.0), QPointF(1.0, 0.5), QPointF(2.0, 0.25)};
            results.append(result);
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        const PlotSpec* none = plotNamed(charts, QStringLiteral("curves-lr_rule-none"));
        const PlotSpec* sde = plotNamed(charts, QStringLiteral("curves-lr_rule-sde"));
        QVERIFY(none && sde);
        QCOMPARE(sde->title, QStringLiteral("loss over the training set against epochs: LR rule sde"));  // by its Setup label
        QCOMPARE(sde->xTitle, QStringLiteral("training epoch"));
        QVERIFY(!sde->logX && sde->logY);
        QCOMPARE(sde->lines.size(), 2);
        // In the order of the batches as numbers (8 before 16).
        QCOMPARE(sde->lines[0].label, QStringLiteral("effective batch 8"));  // Setup's words, not the key's
        QCOMPARE(sde->lines[1].label, QStringLiteral("effective batch 16"));
        QCOMPARE(sde->lines[0].points, (QList<QPointF>{QPointF(0.5, 1.0), QPointF(1.0, 0.5), QPointF(2.0, 0.25)}));
        QVERIFY(sde->lines[0].color != sde->lines[1].color);
    }

    void theBestWeightDecayIsDrawnAgainstTheBatch()
    {
        const StoredStudy study = studyOf(R"({"id": "w", "title": "w",
            "base": {"workload": "linreg", "optimizer": "adamw", "batch_size": 4, "epochs": 1, "num_examples": 64, "lr": 0.01},
            "axes": [{"key": "effective_batch", "values": [4, 8, 16], "split": "batch_first"},
                     {"key": "weight_decay", "values": [1, 2, 4, 8]}],
            "show": {"x": "weight_decay_timescale_epochs", "colour": "effective_batch", "figure": "val_loss", "best": "weight_decay"}})");
        QList<StudyRunResult> results;
        for (const StudyPoint& point : study.points) {
            StudyRunResult result = finishedRunOf(point);
            const double batch = point.values.value(QStringLiteral("effective_batch")).toDouble();
            const double decay = point.values.value(QStringLiteral("weight_decay")).toDouble();
            const double tau = batch / (0.01 * decay * 64.0);
            result.config.insert(QStringLiteral("weight_decay_timescale_epochs"), tau);
            result.valLoss = 1.0 + std::abs(std::log2(tau / 3.125));  // best at tau 3.125: lambda 2, 4, 8
            results.append(result);
        }
        const StudyCharts charts = buildStudyCharts(study, results, defaultChartChoices(study));
        QCOMPARE(charts.plots.first().xTitle, QStringLiteral("weight decay timescale τ (epochs)"));
        QCOMPARE(charts.plots.first().lines.size(), 3);  // a line per batch
        const PlotSpec* best = plotNamed(charts, QStringLiteral("best-weight_decay"));
        QVERIFY(best);
        QCOMPARE(best->xTitle, QStringLiteral("effective batch"));
        QCOMPARE(best->lines.first().points, (QList<QPointF>{QPointF(4, 2), QPointF(8, 4), QPointF(16, 8)}));
        const QString slope = findingWith(charts, QStringLiteral("the best weight_decay grows as batch^"));
        QVERIFY2(slope.contains(QStringLiteral("batch^1")), qPrintable(slope));
        QCOMPARE(best->lines[1].label, QStringLiteral("slope 1"));
    }
};

DDPLAB_UI_TEST_MAIN(TestStudyCharts)
#include "tst_study_charts.moc"
