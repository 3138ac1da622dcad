// SPDX-License-Identifier: GPL-3.0-or-later
// Lessons are discovered from resources/lessons (every file there is compiled in), each one's
// runs are configurations the engine accepts, and --preset NAME resolves lesson ids and files.

#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/session/preset_resolver.hpp"
#include "support/test_data.hpp"
#include "ui_test_main.hpp"

#include <QJsonArray>
#include <QJsonDocument>

using namespace ddplab::ui;
using ddplab::test::writeFile;

namespace {

QString lessonSourceDir()
{
    return QStringLiteral(DDPLAB_SOURCE_DIR "/resources/lessons");
}

}  // namespace

class TestLessonLibrary : public QObject {
    Q_OBJECT

private slots:
    void everyLessonFileIsCompiledInAndLoads()
    {
        const QStringList files = QDir(lessonSourceDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        const LessonLibrary library = LessonLibrary::load();
        QVERIFY2(library.problems().isEmpty(), qPrintable(library.problems().join(QLatin1Char('\n'))));
        QStringList ids;
        for (const QString& file : files)
            ids.append(QFileInfo(file).completeBaseName());
        QCOMPARE(library.ids(), ids);
    }

    void everyLessonRunIsAConfigTheEngineAccepts()
    {
        const LessonLibrary library = LessonLibrary::load();
        for (const Lesson& lesson : library.lessons()) {
            QVERIFY2(!lesson.runs.isEmpty(), qPrintable(lesson.id));
            for (const LessonRun& run : lesson.runs) {
                const QString problem = presetProblem(run.config, lesson.id + QLatin1Char('/') + run.label);
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
                QVERIFY(!run.label.isEmpty());
            }
        }
    }

    void everyLessonHasTextAndChartsTheLabDraws()
    {
        QStringList known;
        for (const ChartDefinition& chart : chartCatalog())
            known += chart.metricNames();
        const LessonLibrary library = LessonLibrary::load();
        for (const Lesson& lesson : library.lessons()) {
            QVERIFY2(!lesson.title.isEmpty() && !lesson.summary.isEmpty() && !lesson.lookFor.isEmpty(), qPrintable(lesson.id));
            QVERIFY2(lesson.explanationMarkdown.size() > 40, qPrintable(lesson.id + QStringLiteral(": explanation missing")));
            QVERIFY2(!lesson.charts.isEmpty(), qPrintable(lesson.id));
            for (const QString& metric : lesson.charts)
                QVERIFY2(known.contains(metric), qPrintable(lesson.id + QStringLiteral(" names an unknown metric: ") + metric));
        }
    }

    void shardingLessonCarriesItsExample()
    {
        const LessonLibrary library = LessonLibrary::load();
        const Lesson* lesson = library.find(QStringLiteral("seed004-sharding"));
        QVERIFY(lesson);
        QVERIFY(lesson->sharding);
        QCOMPARE(lesson->sharding->numExamples, 9);
        QCOMPARE(lesson->sharding->worldSize, 2);
        QCOMPARE(lesson->sharding->batchSize, 3);
        QCOMPARE(lesson->sharding->shuffle, false);
        QCOMPARE(lesson->sharding->dropLast, false);
    }

    void lessonChartsMapToChartsOnce()
    {
        const QList<ChartDefinition> charts =
            chartsForMetrics({QStringLiteral("update_var"), QStringLiteral("update_var_estimate"), QStringLiteral("w_mean")});
        QCOMPARE(charts.size(), 2);
        QCOMPARE(charts.at(0).id, QStringLiteral("update_variance"));
        QCOMPARE(charts.at(1).id, QStringLiteral("weight"));
        QCOMPARE(chartForMetric(QStringLiteral("brand_new_metric")).metricNames(), QStringList{QStringLiteral("brand_new_metric")});
    }

    // The throughput lesson on a computer with fewer cores than its 4 ranks says what holds
    // instead of a speed-up; with enough cores, or for a lesson not about speed, nothing is added.
    void aLessonAboutSpeedSaysWhatHoldsOnFewerCores()
    {
        const LessonLibrary library = LessonLibrary::load();
        const Lesson* throughput = library.find(QStringLiteral("seed003-throughput"));
        QVERIFY(throughput);
        const QString note = machineNote(*throughput, 2);
        QVERIFY2(note.startsWith(QStringLiteral("On this computer (2 cores for up to 4 ranks): ")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("which can look like a speed-up and is none")));
        QVERIFY(note.contains(QStringLiteral("64 images a rank")));
        QCOMPARE(machineNote(*throughput, 1).left(35), QStringLiteral("On this computer (1 core for up to "));
        QVERIFY(machineNote(*throughput, 4).isEmpty());
        QVERIFY(machineNote(*library.find(QStringLiteral("seed000-four-ways")), 1).isEmpty());
    }

    void lessonIdResolvesToItsRuns()
    {
        const LessonLibrary library = LessonLibrary::load();
        const ResolvedPreset resolved = resolvePreset(QStringLiteral("seed000-four-ways"), library, PresetLibrary());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.lessonId, QStringLiteral("seed000-four-ways"));
        QCOMPARE(resolved.runs.size(), 5);
        QCOMPARE(resolved.runs.at(3).label, QStringLiteral("8 GPUs x 16, square-root rule"));
        QCOMPARE(resolved.runs.at(4).config.batchSize, 16);  // the reference the rules aim at
        QCOMPARE(resolved.runs.at(3).config.lrRule, ddplab::LrRule::Sqrt);
        QCOMPARE(resolved.chartMetrics, (QStringList{QStringLiteral("w_mean"), QStringLiteral("update_var"), QStringLiteral("lr")}));
    }

    void lessonFileResolvesLikeItsId()
    {
        const LessonLibrary library = LessonLibrary::load();
        const ResolvedPreset resolved = resolvePreset(lessonSourceDir() + QStringLiteral("/seed004-sgd-scaling.json"), library, PresetLibrary());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.runs.size(), 3);
        QCOMPARE(resolved.lessonId, QStringLiteral("seed004-sgd-scaling"));
    }

    void lessonRunsNamePresets()
    {
        // A lesson of one's own, outside resources/: its runs may name built-in presets.
        QTemporaryDir dir;
        const QString good = writeFile(dir.filePath(QStringLiteral("mine.json")),
                                       R"({"id": "mine", "runs": [{"label": "eight", "preset": "seed000-8x16"}]})");
        const ResolvedPreset resolved = resolvePreset(good, LessonLibrary::load(), PresetLibrary());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.runs.size(), 1);
        QCOMPARE(resolved.runs.first().config.worldSize, 8);
        QCOMPARE(resolved.runs.first().config.batchSize, 16);

        const QString bad = writeFile(dir.filePath(QStringLiteral("broken.json")),
                                      R"({"id": "broken", "runs": [{"label": "gone", "preset": "seed999-gone"}]})");
        const ResolvedPreset missing = resolvePreset(bad, LessonLibrary::load(), PresetLibrary());
        QVERIFY2(missing.error.contains(QStringLiteral("seed999-gone")), qPrintable(missing.error));
    }

    // Each built-in lesson file says its x axis and leads with a chart of the catalog (the one
    // enlarged in presentation mode when it starts).
    void everyBuiltInLessonSetsItsAxisAndItsLeadChart()
    {
        const QDir folder(QStringLiteral(DDPLAB_SOURCE_DIR "/resources/lessons"));
        const QStringList files = folder.entryList({QStringLiteral("*.json")}, QDir::Files);
        QCOMPARE(files.size(), LessonLibrary::load().lessons().size());
        for (const QString& name : files) {
            QFile file(folder.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject lesson = QJsonDocument::fromJson(file.readAll()).object();
            QVERIFY2(xAxisFromName(lesson.value(QStringLiteral("x_axis")).toString()).has_value(), qPrintable(name));
            const QJsonArray charts = lesson.value(QStringLiteral("charts")).toArray();
            QVERIFY2(!charts.isEmpty(), qPrintable(name));
            const QString lead = charts.first().toString();
            const bool inCatalog = std::any_of(chartCatalog().begin(), chartCatalog().end(),
                                               [&](const ChartDefinition& chart) { return chart.metricNames().contains(lead); });
            QVERIFY2(inCatalog, qPrintable(name + QStringLiteral(": ") + lead));
        }
    }

    // The lessons' words name what the window shows: its panes by their titles, the sharding
    // view's examples and ranks as it numbers them (from 0).
    void lessonTextNamesWhatTheWindowShows()
    {
        const LessonLibrary library = LessonLibrary::load();
        for (const Lesson& lesson : library.lessons()) {
            const QString text = lesson.title + lesson.summary + lesson.lookFor + lesson.explanationMarkdown;
            for (const QString& gone : {QStringLiteral("parameter panel"), QStringLiteral("derived panel"), QStringLiteral("process 1"),
                                        QStringLiteral("process 2"), QStringLiteral("x9")})
                QVERIFY2(!text.contains(gone, Qt::CaseInsensitive), qPrintable(lesson.id + QStringLiteral(": ") + gone));
        }
        const Lesson* sharding = library.find(QStringLiteral("seed004-sharding"));
        QVERIFY(sharding);
        // What `ddplab-engine shard --num-examples 9 --world-size 2 --batch-size 3` prints.
        QVERIFY(sharding->explanationMarkdown.contains(QStringLiteral("rank 0 `0 2 4`")));
        QVERIFY(sharding->explanationMarkdown.contains(QStringLiteral("rank 1 gets `7 0`")));
    }

    // The Lessons menu and the Lesson pane name each lesson by its source's first words: a source
    // with a comma or a bracket ("seed 004, Malladi et al. 2022") is cut there, not after two words.
    void lessonsAreNamedBySourceAndTitle()
    {
        const LessonLibrary library = LessonLibrary::load();
        QCOMPARE(lessonMenuTitle(*library.find(QStringLiteral("seed004-adam-larger-batch"))),
                 QStringLiteral("seed 004 · Adam at a larger effective batch: its LR should grow"));
        QCOMPARE(lessonMenuTitle(*library.find(QStringLiteral("seed000-single-vs-multi"))), QStringLiteral("seed 000 · 8 GPUs x 16 is 1 GPU x 128"));
        QCOMPARE(lessonMenuTitle(*library.find(QStringLiteral("smith-grow-the-batch"))),
                 QStringLiteral("Smith 2018 · Grow the batch instead of decaying the LR"));
        for (const Lesson& lesson : library.lessons()) {
            const QString title = lessonMenuTitle(lesson);
            QVERIFY2(!title.contains(QStringLiteral(", ·")) && !title.contains(QStringLiteral("( ·")), qPrintable(title));
        }
    }

    // A lesson that sends the reader to a Setup section names one Setup has, and the fields it
    // names are in it: the linear rule's Tuned for batch and LR rule are under Experiment.
    void lessonsSendTheReaderToSetupSectionsThatExist()
    {
        const LessonLibrary library = LessonLibrary::load();
        const Lesson* linear = library.find(QStringLiteral("seed000-linear-rule"));
        QVERIFY(linear);
        QVERIFY2(linear->explanationMarkdown.contains(QStringLiteral("under *Experiment*")), qPrintable(linear->explanationMarkdown));
        QVERIFY(!linear->explanationMarkdown.contains(QStringLiteral("under *Learning rate*")));
    }

    // Predict first: every lesson asks its class a question before the runs are shown.
    void everyLessonAsksItsQuestionFirst()
    {
        const LessonLibrary library = LessonLibrary::load();
        for (const Lesson& lesson : library.lessons())
            QVERIFY2(lesson.prediction.endsWith(QLatin1Char('?')) && lesson.prediction.size() > 20, qPrintable(lesson.id));
    }

    // A lesson's runs may write checkpoints into their own folders and branch from an earlier
    // run's: the resolver turns them into requests the session fills in; a branch from a run
    // that writes none, or from a later one, is refused with a sentence naming the run.
    void lessonRunsBranchFromEarlierRunsCheckpoints()
    {
        const LessonLibrary library = LessonLibrary::load();
        const ResolvedPreset failing = resolvePreset(QStringLiteral("a-rank-fails"), library, PresetLibrary());
        QVERIFY2(failing.error.isEmpty(), qPrintable(failing.error));
        QCOMPARE(failing.runs.size(), 3);
        QVERIFY(failing.runs[0].checkpointsInRunFolder && failing.runs[0].meantToFail);
        QCOMPARE(failing.runs[0].config.checkpointAt.every, qint64(10));
        QVERIFY(failing.runs[0].config.failAt.has_value());
        QCOMPARE(failing.runs[1].resumeFromRun, 0);
        QVERIFY(!failing.runs[1].meantToFail && !failing.runs[1].config.failAt && failing.runs[2].resumeFromRun < 0);
        const ResolvedPreset branches = resolvePreset(QStringLiteral("critical-batch-branches"), library, PresetLibrary());
        QVERIFY2(branches.error.isEmpty(), qPrintable(branches.error));
        for (qsizetype i = 1; i < branches.runs.size(); ++i)
            QCOMPARE(branches.runs[i].resumeFromRun, 0);

        QTemporaryDir dir;
        const QString bad = writeFile(dir.filePath(QStringLiteral("bad.json")), R"({"id": "bad", "runs": [
            {"label": "first", "preset": "seed000-8x16"},
            {"label": "second", "preset": "seed000-8x16", "resume_from_run": 0}]})");
        const ResolvedPreset refused = resolvePreset(bad, library, PresetLibrary());
        QVERIFY2(refused.error.contains(QStringLiteral("run 2 (\"second\"): \"resume_from_run\" must name an earlier run (0 to 0) that has \"checkpoint_at\"")),
                 qPrintable(refused.error));
    }

    void lessonsNameTheXAxisTheirPointNeeds()
    {
        const LessonLibrary library = LessonLibrary::load();
        // 1 x 32 takes 376 steps where 2 x 32 takes 188 for the same two epochs.
        QCOMPARE(resolvePreset(QStringLiteral("seed002-effective-batch"), library, PresetLibrary()).xAxis, XAxis::Epoch);
        QCOMPARE(resolvePreset(QStringLiteral("seed000-linear-rule"), library, PresetLibrary()).xAxis, XAxis::SamplesSeen);
        // Every lesson has its axis, so none inherits the one the lesson before it left: a file
        // that names none counts steps.
        QCOMPARE(resolvePreset(QStringLiteral("seed000-single-vs-multi"), library, PresetLibrary()).xAxis, XAxis::Step);
        // Four ways draws 1 x 16 beside 8 x 16: compared per sample seen.
        QCOMPARE(resolvePreset(QStringLiteral("seed000-four-ways"), library, PresetLibrary()).xAxis, XAxis::SamplesSeen);
        for (const Lesson& lesson : library.lessons())
            QVERIFY2(lesson.xAxis.has_value(), qPrintable(lesson.id));

        QTemporaryDir dir;
        const QString plain = writeFile(dir.filePath(QStringLiteral("plain.json")), R"({"id": "plain", "runs": [{"label": "one", "preset": "seed000-8x16"}]})");
        QCOMPARE(resolvePreset(plain, library, PresetLibrary()).xAxis, XAxis::Step);
        const QString bad = writeFile(dir.filePath(QStringLiteral("sideways.json")),
                                      R"({"id": "sideways", "x_axis": "samples", "runs": [{"label": "one", "preset": "seed000-8x16"}]})");
        const ResolvedPreset resolved = resolvePreset(bad, library, PresetLibrary());
        QVERIFY2(resolved.error.contains(QStringLiteral("\"x_axis\" must be one of step, epoch, samples_seen, wall_s, not \"samples\"")),
                 qPrintable(resolved.error));
    }

    void presetFileResolvesToOneRun()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir.filePath(QStringLiteral("eight-by-sixteen.json")),
                                        R"({"world_size": 8, "batch_size": 16, "lr_rule": "sqrt", "base_batch_size": null})");
        const ResolvedPreset resolved = resolvePreset(path, LessonLibrary::load(), PresetLibrary());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.runs.size(), 1);
        QCOMPARE(resolved.runs.first().label, QStringLiteral("eight-by-sixteen"));
        QCOMPARE(resolved.runs.first().config.worldSize, 8);
        QVERIFY(resolved.lessonId.isEmpty());
    }

    void badNamesAndPresetsSayWhy_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown key") << QByteArray(R"({"batchsize": 16})") << QStringLiteral("did you mean \"batch_size\"");
        QTest::newRow("bad value") << QByteArray(R"({"batch_size": 0})") << QStringLiteral("batch_size must be an integer from 1");
        QTest::newRow("bad combination") << QByteArray(R"({"warmup_steps": 5, "warmup_epochs": 1})")
                                         << QStringLiteral("set warmup_steps or warmup_epochs, not both");
        QTest::newRow("not JSON") << QByteArray("{ world_size: 2 }") << QStringLiteral("preset.json");
    }
    void badNamesAndPresetsSayWhy()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const ResolvedPreset resolved = resolvePreset(writeFile(dir.filePath(QStringLiteral("preset.json")), contents), LessonLibrary::load(), PresetLibrary());
        QVERIFY2(resolved.error.contains(expected), qPrintable(resolved.error));
        QVERIFY(resolved.runs.isEmpty());
    }

    void unknownNameListsTheLessons()
    {
        const ResolvedPreset resolved = resolvePreset(QStringLiteral("seed999-nothing"), LessonLibrary::load(), PresetLibrary::load());
        QVERIFY(resolved.error.startsWith(QStringLiteral("Unknown preset \"seed999-nothing\"")));
        QVERIFY(resolved.error.contains(QStringLiteral("seed000-four-ways")));  // a lesson
        QVERIFY(resolved.error.contains(QStringLiteral("seed000-8x16-linear")));  // a preset
    }
};

DDPLAB_UI_TEST_MAIN(TestLessonLibrary)
#include "tst_lesson_library.moc"
