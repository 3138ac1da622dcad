// Lessons are discovered from resources/lessons (every file there is compiled in), each one's
// runs are configurations the engine accepts, and --preset NAME resolves lesson ids and files.

#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/session/preset_resolver.hpp"
#include "ui_test_main.hpp"

using namespace ddplab::ui;

namespace {

QString lessonSourceDir()
{
    return QStringLiteral(DDPLAB_SOURCE_DIR "/resources/lessons");
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& contents)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(contents);
    return path;
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

    void lessonIdResolvesToItsRuns()
    {
        const LessonLibrary library = LessonLibrary::load();
        const ResolvedPreset resolved = resolvePreset(QStringLiteral("seed000-four-ways"), library, PresetLibrary());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.lessonId, QStringLiteral("seed000-four-ways"));
        QCOMPARE(resolved.runs.size(), 4);
        QCOMPARE(resolved.runs.at(3).label, QStringLiteral("8 GPUs x 16, square-root rule"));
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
        const QString good = writeFile(dir, QStringLiteral("mine.json"),
                                       R"({"id": "mine", "runs": [{"label": "eight", "preset": "seed000-8x16"}]})");
        const ResolvedPreset resolved = resolvePreset(good, LessonLibrary::load(), PresetLibrary());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.runs.size(), 1);
        QCOMPARE(resolved.runs.first().config.worldSize, 8);
        QCOMPARE(resolved.runs.first().config.batchSize, 16);

        const QString bad = writeFile(dir, QStringLiteral("broken.json"),
                                      R"({"id": "broken", "runs": [{"label": "gone", "preset": "seed999-gone"}]})");
        const ResolvedPreset missing = resolvePreset(bad, LessonLibrary::load(), PresetLibrary());
        QVERIFY2(missing.error.contains(QStringLiteral("seed999-gone")), qPrintable(missing.error));
    }

    void lessonsNameTheXAxisTheirPointNeeds()
    {
        const LessonLibrary library = LessonLibrary::load();
        // 1 x 32 takes 376 steps where 2 x 32 takes 188 for the same two epochs.
        QCOMPARE(resolvePreset(QStringLiteral("seed002-effective-batch"), library, PresetLibrary()).xAxis, XAxis::Epoch);
        QCOMPARE(resolvePreset(QStringLiteral("seed000-linear-rule"), library, PresetLibrary()).xAxis, XAxis::SamplesSeen);
        QCOMPARE(resolvePreset(QStringLiteral("seed000-four-ways"), library, PresetLibrary()).xAxis, std::nullopt);

        QTemporaryDir dir;
        const QString bad = writeFile(dir, QStringLiteral("sideways.json"),
                                      R"({"id": "sideways", "x_axis": "samples", "runs": [{"label": "one", "preset": "seed000-8x16"}]})");
        const ResolvedPreset resolved = resolvePreset(bad, library, PresetLibrary());
        QVERIFY2(resolved.error.contains(QStringLiteral("\"x_axis\" must be one of step, epoch, samples_seen, wall_s, not \"samples\"")),
                 qPrintable(resolved.error));
    }

    void presetFileResolvesToOneRun()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir, QStringLiteral("eight-by-sixteen.json"),
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
        const ResolvedPreset resolved = resolvePreset(writeFile(dir, QStringLiteral("preset.json"), contents), LessonLibrary::load(), PresetLibrary());
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
