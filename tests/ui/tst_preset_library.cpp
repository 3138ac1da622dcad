// The presets that come with the lab: every file in resources/presets is compiled in, each is a
// config the engine accepts, they group by seed, and --preset takes their names.

#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/library/preset_resolver.hpp"
#include "ui_test_main.hpp"

using namespace ddplab::ui;

class TestPresetLibrary : public QObject {
    Q_OBJECT

private slots:
    void everyPresetFileIsCompiledInAndValid()
    {
        const QStringList files = QDir(QStringLiteral(DDPLAB_SOURCE_DIR "/resources/presets"))
                                      .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(!files.isEmpty());
        const PresetLibrary library = PresetLibrary::load();
        QVERIFY2(library.problems().isEmpty(), qPrintable(library.problems().join(QLatin1Char('\n'))));
        QCOMPARE(library.presets().size(), files.size());
        for (const BuiltInPreset& preset : library.presets()) {
            QVERIFY(files.contains(preset.name + QStringLiteral(".json")));
            const QString problem = presetProblem(preset.config, preset.name);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    void namesGroupBySeed()
    {
        const PresetLibrary library = PresetLibrary::load();
        const BuiltInPreset* preset = library.find(QStringLiteral("seed000-8x16-linear"));
        QVERIFY(preset);
        QCOMPARE(preset->group, QStringLiteral("seed 000"));
        QCOMPARE(preset->title, QStringLiteral("8x16 linear"));
        QCOMPARE(preset->config.value(QStringLiteral("world_size")).toInt(), 8);
        QCOMPARE(preset->config.value(QStringLiteral("lr_rule")).toString(), QStringLiteral("linear"));
        QVERIFY(!library.find(QStringLiteral("seed000-nonexistent")));
    }

    void presetNameResolvesToOneRun()
    {
        const ResolvedPreset resolved = resolvePreset(QStringLiteral("seed000-8x16-sqrt-noisy"), LessonLibrary::load(), PresetLibrary::load());
        QVERIFY2(resolved.error.isEmpty(), qPrintable(resolved.error));
        QCOMPARE(resolved.runs.size(), 1);
        QCOMPARE(resolved.runs.first().label, QStringLiteral("seed000-8x16-sqrt-noisy"));
        QCOMPARE(resolved.runs.first().config.value(QStringLiteral("lr_rule")).toString(), QStringLiteral("sqrt"));
        QVERIFY(resolved.lessonId.isEmpty());
    }

    void aPresetFolderWithABadFileReportsIt()
    {
        QTemporaryDir dir;
        QFile good(dir.filePath(QStringLiteral("seed004-good.json")));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(R"({"world_size": 2})");
        good.close();
        QFile bad(dir.filePath(QStringLiteral("seed004-bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{ not json");
        bad.close();
        const PresetLibrary library = PresetLibrary::load(dir.path());
        QCOMPARE(library.presets().size(), 1);
        QCOMPARE(library.presets().first().name, QStringLiteral("seed004-good"));
        QCOMPARE(library.problems().size(), 1);
        QVERIFY(library.problems().first().contains(QStringLiteral("seed004-bad.json")));
    }
};

DDPLAB_UI_TEST_MAIN(TestPresetLibrary)
#include "tst_preset_library.moc"
