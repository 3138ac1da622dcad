// SPDX-License-Identifier: GPL-3.0-or-later
// Exports, checked by reading them back: a PNG decodes to the size asked for and has a chart
// drawn in it, an SVG parses and has the size and title, a CSV has one row per step and one
// column per metric, and a run's preset is something the real engine runs.

#include "charts/chart_panel.hpp"
#include "client/runs/run_data.hpp"
#include "export/export_service.hpp"
#include "ui_test_main.hpp"

#include <QImage>
#include <QSvgRenderer>
#include <QXmlStreamReader>

using namespace ddplab::ui;

namespace {

QSharedPointer<RunData> sampleRun(const QString& label, const QJsonObject& settings = {})
{
    RunRecord record;
    record.id = label;
    record.name = label;
    record.label = label;
    auto run = QSharedPointer<RunData>::create(record);
    QList<QJsonObject> events{QJsonDocument::fromJson(R"({"type":"config","workload":"toy","world_size":2,"batch_size":8,
        "lr":0.001,"lr_rule":"none","num_examples":64,"epochs":1,"effective_batch_size":16,"total_steps":4,
        "steps_per_epoch":4,"optimizer":"sgd","lr_effective":0.001,"events":"/x"})").object()};
    for (auto it = settings.begin(); it != settings.end(); ++it)
        events.first().insert(it.key(), it.value());
    for (int step = 1; step <= 4; ++step) {
        events.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("step")}, {QStringLiteral("step"), step},
                                  {QStringLiteral("epoch"), 0}, {QStringLiteral("loss"), 1.0 / step},
                                  {QStringLiteral("samples"), 16}, {QStringLiteral("wall_s"), 0.5 * step},
                                  {QStringLiteral("lr"), 0.001}, {QStringLiteral("w_mean"), 1.0 - 0.001 * step}});
    }
    events.append(QJsonDocument::fromJson(R"({"type":"eval","step":2,"epoch":0,"val_loss":0.75,"val_accuracy":0.5})").object());
    run->appendEvents(events);
    return run;
}

ChartDefinition lossChart()
{
    return chartForMetric(QStringLiteral("loss"));
}

QList<QStringList> readCsv(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    for (const QByteArray& line : file.readAll().split('\n')) {
        if (!line.isEmpty())
            rows.append(QString::fromUtf8(line).split(QLatin1Char(',')));
    }
    return rows;
}

// Where a line of dark text lies in `area` of `image`, as (top, height) bands of rows: a row is
// ink when a pixel in it is near-black and grey (text; not a coloured run line, not the light
// grid). Only the columns between `fromX` and `toX` are looked at.
QList<QPair<int, int>> textBands(const QImage& image, const QRect& area, int fromX, int toX)
{
    QList<QPair<int, int>> bands;
    int start = -1;
    for (int y = area.top(); y <= area.bottom() + 1; ++y) {
        bool ink = false;
        for (int x = fromX; y <= area.bottom() && x < toX && !ink; ++x) {
            const QColor pixel = image.pixelColor(x, y);
            const int high = std::max({pixel.red(), pixel.green(), pixel.blue()});
            const int low = std::min({pixel.red(), pixel.green(), pixel.blue()});
            ink = high < 110 && high - low < 40;
        }
        if (ink && start < 0)
            start = y;
        if (!ink && start >= 0) {
            bands.append({start, y - start});
            start = -1;
        }
    }
    return bands;
}

}  // namespace

class TestExportService : public QObject {
    Q_OBJECT

private slots:
    // A chart's data from its export dialog: every point of each run's line, with the four x
    // axes, as pandas reads it (one row per point, the run and the series named).
    void aChartsDataIsACsvOfEveryPoint()
    {
        const auto first = sampleRun(QStringLiteral("first"));
        const auto second = sampleRun(QStringLiteral("second"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("loss.csv"));
        QString error;
        QVERIFY2(ExportService::exportChartCsv(lossChart(), {{first, Qt::blue, QStringLiteral("one")}, {second, Qt::red, QStringLiteral("two")}},
                                               path, &error),
                 qPrintable(error));
        const QList<QStringList> rows = readCsv(path);
        QCOMPARE(rows.first(), (QStringList{QStringLiteral("run"), QStringLiteral("series"), QStringLiteral("step"), QStringLiteral("epoch"),
                                            QStringLiteral("samples_seen"), QStringLiteral("wall_s"), QStringLiteral("value")}));
        // Per run: 4 training losses and 1 validation loss.
        QCOMPARE(rows.size(), 1 + 2 * 5);
        QCOMPARE(rows.at(1), (QStringList{QStringLiteral("one"), QStringLiteral("loss"), QStringLiteral("1"), QStringLiteral("0.25"),
                                          QStringLiteral("16"), QStringLiteral("0.5"), QStringLiteral("1")}));
        const QStringList validation = rows.at(5);
        QCOMPARE(validation.at(1), QStringLiteral("val_loss"));
        QCOMPARE(validation.at(2), QStringLiteral("2"));
        QCOMPARE(validation.at(6), QStringLiteral("0.75"));
        QCOMPARE(rows.at(6).first(), QStringLiteral("two"));
    }

    void pngHasTheRequestedSizeAndAChart_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("640x480") << QSize(640, 480);
        QTest::newRow("1200x800") << QSize(1200, 800);
        QTest::newRow("odd 1921x1081") << QSize(1921, 1081);
        QTest::newRow("tall 400x900") << QSize(400, 900);
    }
    void pngHasTheRequestedSizeAndAChart()
    {
        QFETCH(QSize, size);
        ChartPanel panel(lossChart());
        panel.resize(500, 300);
        const auto run = sampleRun(QStringLiteral("A"));
        panel.setRuns({{run, QColor(0xd6, 0x27, 0x28)}});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("loss.png"));
        QString error;
        QVERIFY2(ExportService::exportChartPng(panel, path, ImageFormat{size}, &error), qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.size(), size);
        // The run's colour is in the picture: the line was drawn at export size.
        int redPixels = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2) {
                const QColor pixel = image.pixelColor(x, y);
                redPixels += pixel.red() > 180 && pixel.green() < 90 && pixel.blue() < 90;
            }
        }
        QVERIFY2(redPixels > 20, qPrintable(QString::number(redPixels)));
        // The on-screen chart is back at its own size afterwards.
        QCOMPARE(panel.drawnPoints(run->id(), QStringLiteral("loss")).size(), 4);
    }

    void slideWordsAreReadableFromTheBack_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1920x1080") << QSize(1920, 1080);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    // A slide's smallest words, measured in its pixels: the digits of the x axis's tick labels
    // are at least those of the promised 30 px font at 1080 (0.7 of the font's size, scaled with the image's
    // height), larger than a screen export's at the same size; the lesson's title and each run's
    // settings are in the image, at least as large.
    void slideWordsAreReadableFromTheBack()
    {
        QFETCH(QSize, size);
        ChartPanel panel(lossChart());
        panel.resize(500, 300);
        panel.setRuns({{sampleRun(QStringLiteral("A")), QColor(0xd6, 0x27, 0x28)}});
        QTemporaryDir dir;
        ImageFormat slide = ExportService::slideFormat(QStringLiteral("Tuned at 16 on 1 GPU"));
        slide.size = size;
        QString error;
        QVERIFY2(ExportService::exportChartPng(panel, dir.filePath(QStringLiteral("slide.png")), slide, &error), qPrintable(error));
        ImageFormat screen{size, 1.6};  // what "For slides" used to be: the screen's fonts, scaled
        QVERIFY2(ExportService::exportChartPng(panel, dir.filePath(QStringLiteral("screen.png")), screen, &error), qPrintable(error));
        const QImage image(dir.filePath(QStringLiteral("slide.png")));
        QCOMPARE(image.size(), size);
        const double least = 0.7 * ExportService::kSlideTextPixels * size.height() / 1080.0;  // a 30 px font's digits, at 1080

        const ExportService::SlideLayout layout = ExportService::slideLayout(size, 1);
        const QRect chart = layout.chart;
        // Title of the chart, then the tick labels below the plot (the y axis's are left of the band).
        const QList<QPair<int, int>> bands = textBands(image, chart, chart.left() + chart.width() * 2 / 5, chart.right() - chart.width() / 20);
        QVERIFY2(bands.size() >= 2, qPrintable(QString::number(bands.size())));
        const int ticks = bands.at(1).second;
        QStringList seen;
        for (const auto& band : bands)
            seen.append(QStringLiteral("%1+%2").arg(band.first).arg(band.second));
        QVERIFY2(ticks >= least, qPrintable(QStringLiteral("tick digits %1 px high, want >= %2 in %3 px (bands %4 in %5..%6)")
                                                .arg(ticks).arg(least).arg(size.height()).arg(seen.join(QLatin1Char(' '))).arg(chart.top()).arg(chart.bottom())));
        const QImage old(dir.filePath(QStringLiteral("screen.png")));
        const QList<QPair<int, int>> oldBands = textBands(old, old.rect(), old.width() * 2 / 5, old.width() * 19 / 20);
        QVERIFY(oldBands.size() >= 2);
        QVERIFY2(oldBands.at(1).second < ticks, qPrintable(QStringLiteral("screen ticks %1 px, slide %2").arg(oldBands.at(1).second).arg(ticks)));
        // The lesson's title above the chart, the run's settings below it, both at least as large.
        const QList<QPair<int, int>> title = textBands(image, layout.title, layout.title.left(), layout.title.right());
        QVERIFY(!title.isEmpty());
        QVERIFY2(title.first().second >= least, qPrintable(QString::number(title.first().second)));
        const QList<QPair<int, int>> settings = textBands(image, layout.settings, layout.settings.left(), layout.settings.right());
        QCOMPARE(settings.size(), 1);
        QVERIFY2(settings.first().second >= least, qPrintable(QString::number(settings.first().second)));
        QCOMPARE(ExportService::slideRunLine({sampleRun(QStringLiteral("A")), Qt::red}), QStringLiteral("A — 2 × 8 · lr 0.001 · sgd"));
    }

    // Presentation mode's thumbnails are exported as the charts they stand for: the slide of a
    // compact chart has tick labels left of its plot and under it, read in its pixels.
    void aThumbnailsSlideHasItsAxes()
    {
        ChartPanel panel(lossChart());
        panel.resize(300, 160);
        panel.setCompact(true);
        panel.setRuns({{sampleRun(QStringLiteral("A")), QColor(0xd6, 0x27, 0x28)}});
        panel.redrawNow();
        QVERIFY(!panel.tickLabelsShown());
        QTemporaryDir dir;
        QString error;
        const QString path = dir.filePath(QStringLiteral("slide.png"));
        QVERIFY2(ExportService::exportChartPng(panel, path, ExportService::slideFormat(QStringLiteral("A lesson")), &error), qPrintable(error));
        QVERIFY(panel.isCompact() && !panel.tickLabelsShown());  // the thumbnail stays one on screen
        const QImage image(path);
        const ExportService::SlideLayout layout = ExportService::slideLayout(image.size(), 1);
        const QRect plot = panel.exportedPlotArea().toRect().translated(layout.chart.topLeft());
        QVERIFY2(plot.width() > 200 && plot.left() > layout.chart.left() + layout.textPixels, qPrintable(QStringLiteral("plot at x %1").arg(plot.left())));
        const double least = 0.7 * ExportService::kSlideTextPixels;
        // The y axis's labels: the last digits of each, right of the y title and left of the plot.
        const QList<QPair<int, int>> yLabels =
            textBands(image, plot.adjusted(0, -layout.textPixels, 0, layout.textPixels), plot.left() - layout.textPixels * 4 / 5, plot.left() - 3);
        QStringList seen;
        for (const auto& band : yLabels)
            seen.append(QStringLiteral("%1+%2").arg(band.first).arg(band.second));
        // Each label a band of text as high as a slide's digits (a thin one is the axis's corner).
        const qsizetype labels = std::count_if(yLabels.begin(), yLabels.end(), [&](const QPair<int, int>& band) {
            return band.second >= least && band.second < 2 * ExportService::kSlideTextPixels;
        });
        QVERIFY2(labels >= 3, qPrintable(QStringLiteral("y tick labels: %1").arg(seen.join(QLatin1Char(' ')))));
        // The x axis's labels under the plot.
        const QRect under(plot.left(), plot.bottom() + 3, plot.width(), 2 * layout.textPixels);
        const QList<QPair<int, int>> xLabels = textBands(image, under, under.left(), under.right());
        QVERIFY(!xLabels.isEmpty());
        QVERIFY2(xLabels.first().second >= least, qPrintable(QString::number(xLabels.first().second)));
    }

    // The runs' lines under a slide's chart say what else differs between them, in Setup's words:
    // the warmup lesson's two runs are not both "4 × 256 · lr 0.5 · sgd".
    void slideLinesNameWhatDiffers()
    {
        const auto cold = sampleRun(QStringLiteral("no warmup"), {{QStringLiteral("warmup_epochs"), 0}});
        const auto warm = sampleRun(QStringLiteral("warmup"), {{QStringLiteral("warmup_epochs"), 5}});
        const QStringList lines = ExportService::slideRunLines({{cold, Qt::red}, {warm, Qt::blue}});
        QCOMPARE(lines, (QStringList{QStringLiteral("no warmup — 2 × 8 · lr 0.001 · sgd · Warmup epochs 0"),
                                     QStringLiteral("warmup — 2 × 8 · lr 0.001 · sgd · Warmup epochs 5")}));
        // What the line says already (the batch, the LR, the optimizer) is not said twice.
        const auto wider = sampleRun(QStringLiteral("wider"), {{QStringLiteral("batch_size"), 16}, {QStringLiteral("effective_batch_size"), 32},
                                                               {QStringLiteral("warmup_epochs"), 0}});
        QCOMPARE(ExportService::slideRunLines({{cold, Qt::red}, {wider, Qt::blue}}).at(1), QStringLiteral("wider — 2 × 16 · lr 0.001 · sgd"));
    }

    void svgParsesWithSizeAndTitle()
    {
        ChartPanel panel(lossChart());
        panel.setRuns({{sampleRun(QStringLiteral("A")), Qt::blue}});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("loss.svg"));
        QString error;
        QVERIFY2(ExportService::exportChartSvg(panel, path, ImageFormat{QSize(900, 600)}, &error), qPrintable(error));
        QSvgRenderer renderer(path);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 900, 600));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&file);
        int elements = 0;
        bool hasTitle = false;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                ++elements;
                if (xml.name() == QLatin1String("title"))
                    hasTitle = xml.readElementText() == QLatin1String("Loss");
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(hasTitle);
        QVERIFY(elements > 20);
    }

    void badSizeIsRefusedWithAReason()
    {
        ChartPanel panel(lossChart());
        QTemporaryDir dir;
        QString error;
        QVERIFY(!ExportService::exportChartPng(panel, dir.filePath(QStringLiteral("x.png")), ImageFormat{QSize(5, 5)}, &error));
        QVERIFY(error.contains(QStringLiteral("between 16 and")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.png"))));
    }

    void csvHasARowPerStepAndAColumnPerMetric()
    {
        const auto run = sampleRun(QStringLiteral("A"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a.csv"));
        QString error;
        QVERIFY2(ExportService::exportRunCsv(*run, QStringLiteral("A · epochs 1"), path, &error), qPrintable(error));
        const QList<QStringList> rows = readCsv(path);
        QCOMPARE(rows.size(), 1 + 4);
        const QStringList header = rows.first();
        // The four x axes first: a spreadsheet can plot against any of them.
        QCOMPARE(header.mid(0, 4), (QStringList{QStringLiteral("step"), QStringLiteral("epoch"), QStringLiteral("samples_seen"),
                                                QStringLiteral("wall_s")}));
        for (const char* column : {"loss", "lr", "w_mean", "val_loss", "val_accuracy"})
            QVERIFY2(header.contains(QLatin1String(column)), column);
        QCOMPARE(header.size(), QSet<QString>(header.begin(), header.end()).size());
        const qsizetype loss = header.indexOf(QStringLiteral("loss"));
        const qsizetype valLoss = header.indexOf(QStringLiteral("val_loss"));
        for (int step = 1; step <= 4; ++step) {
            const QStringList& row = rows.at(step);
            QCOMPARE(row.size(), header.size());
            QCOMPARE(row.first().toInt(), step);
            QCOMPARE(row.at(1).toDouble(), step / 4.0);    // step / steps_per_epoch
            QCOMPARE(row.at(2).toDouble(), 16.0 * step);   // running sum of samples
            QCOMPARE(row.at(3).toDouble(), 0.5 * step);    // the engine's wall_s
            QCOMPARE(row.at(loss).toDouble(), 1.0 / step);  // shortest round-trip text, exact
            QCOMPARE(row.at(valLoss), step == 2 ? QStringLiteral("0.75") : QString());
        }
        // What the run was, beside it.
        QFile settings(dir.filePath(QStringLiteral("a.settings.json")));
        QVERIFY(settings.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(settings.readAll()).object();
        QCOMPARE(json.value(QStringLiteral("world_size")).toInt(), 2);
        QCOMPARE(json.value(QStringLiteral("effective_batch_size")).toInt(), 16);
        QCOMPARE(json.value(QStringLiteral("lr_effective")).toDouble(), 0.001);
        QCOMPARE(json.value(QStringLiteral("optimizer")).toString(), QStringLiteral("sgd"));
        QCOMPARE(json.value(QStringLiteral("run_label")).toString(), QStringLiteral("A · epochs 1"));
    }

    void presetOfARunIsRunByTheRealEngine()
    {
        const auto run = sampleRun(QStringLiteral("A"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("preset.json"));
        QString error;
        QVERIFY2(ExportService::exportRunPreset(*run, path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject preset = QJsonDocument::fromJson(file.readAll()).object();
        QVERIFY(!preset.contains(QStringLiteral("events")));
        QVERIFY(!preset.contains(QStringLiteral("effective_batch_size")));  // derived, not a key
        const ddplab::test::EngineResult result = ddplab::test::runEngine({QStringLiteral("run"), QStringLiteral("--config"), path});
        QVERIFY2(result.exitCode == 0, qPrintable(result.summaryText()));
        QCOMPARE(result.ofType(QStringLiteral("step")).size(), 4);
        QCOMPARE(result.first(QStringLiteral("config")).value(QStringLiteral("world_size")).toInt(), 2);
    }

    void exportAllWritesEveryChartTwiceAndEveryRun()
    {
        ChartPanel loss(lossChart());
        ChartPanel lr(chartForMetric(QStringLiteral("lr")));
        const auto first = sampleRun(QStringLiteral("1 GPU x 128"));
        const auto second = sampleRun(QStringLiteral("8 GPUs x 16, sqrt"));
        for (ChartPanel* panel : {&loss, &lr})
            panel->setRuns({{first, Qt::blue}, {second, Qt::red}});
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("out/nested"));
        QString error;
        const QList<DisplayedRun> runs{{first, Qt::blue, first->label()}, {second, Qt::red, second->label()}};
        const QStringList written = ExportService::exportAll({&loss, &lr}, runs, folder, ImageFormat{QSize(800, 500)}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList names;
        for (const QString& path : written)
            names.append(QFileInfo(path).fileName());
        QCOMPARE(names, (QStringList{QStringLiteral("loss.png"), QStringLiteral("loss.svg"), QStringLiteral("lr.png"),
                                     QStringLiteral("lr.svg"), QStringLiteral("01-1-gpu-x-128.csv"),
                                     QStringLiteral("01-1-gpu-x-128.settings.json"), QStringLiteral("02-8-gpus-x-16-sqrt.csv"),
                                     QStringLiteral("02-8-gpus-x-16-sqrt.settings.json")}));
        QCOMPARE(QImage(QDir(folder).filePath(QStringLiteral("lr.png"))).size(), QSize(800, 500));
    }
};

DDPLAB_UI_TEST_MAIN(TestExportService)
#include "tst_export_service.moc"
