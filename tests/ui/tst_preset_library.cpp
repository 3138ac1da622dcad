// SPDX-License-Identifier: GPL-3.0-or-later
// The presets that come with the lab: every file in resources/presets is compiled in, each is a
// config the engine accepts, they group by seed, and --preset takes their names.

#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/session/preset_resolver.hpp"
#include "ui_test_main.hpp"

#include <sys/stat.h>

using namespace ddplab::ui;

namespace {

// `kind`: "fifo", "zero" (a link to /dev/zero), "sparse" (2 GiB that take no disk), else the
// text itself.
QString makeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& kind)
{
    const QString path = dir.filePath(name);
    if (kind == "fifo")
        ::mkfifo(QFile::encodeName(path).constData(), 0600);
    else if (kind == "zero")
        QFile::link(QStringLiteral("/dev/zero"), path);
    else {
        QFile file(path);
        if (file.open(QIODevice::WriteOnly)) {
            if (kind == "sparse")
                file.resize(qint64(2) << 30);
            else
                file.write(kind);
        }
    }
    return path;
}

}  // namespace

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

    void presetAndLessonFilesAreReadWithTheEnginesLimits_data()
    {
        QTest::addColumn<QByteArray>("kind");
        QTest::addColumn<QString>("expected");
        // A 2 GB preset was read whole (2.1 GB resident); a FIFO waited for a writer; /dev/zero never ended.
        QTest::newRow("2 GiB") << QByteArray("sparse") << QStringLiteral("is 2147483648 bytes; at most 1048576");
        QTest::newRow("a FIFO") << QByteArray("fifo") << QStringLiteral("is a named pipe (FIFO)");
        QTest::newRow("a link to /dev/zero") << QByteArray("zero") << QStringLiteral("is a device");
        // The last value won without a word; the engine refuses it.
        QTest::newRow("a key twice") << QByteArray(R"({"lr": 0.1, "runs": [], "lr": 0.2})") << QStringLiteral("key \"lr\" appears twice in");
        QTest::newRow("a key twice, nested") << QByteArray(R"({"runs": [{"config": {"batch_size": 8, "batch_size": 16}}]})")
                                             << QStringLiteral("key \"batch_size\" appears twice in");
        QTest::newRow("garbage after a NUL") << QByteArray("{\"lr\": 0.1}\0garbage", 20) << QStringLiteral("holds a NUL byte at byte 11");
    }

    void presetAndLessonFilesAreReadWithTheEnginesLimits()
    {
        QFETCH(QByteArray, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = makeFile(dir, QStringLiteral("file.json"), kind);
        QElapsedTimer clock;
        clock.start();
        const PresetReadResult preset = readPresetFile(path);
        // Named by what it was read as and its path (wherever the engine's own words put them).
        QVERIFY2(preset.error.contains(QStringLiteral("preset ") + path) && preset.error.contains(expected), qPrintable(preset.error));
        QString error;
        QVERIFY(!LessonLibrary::loadFile(path, &error));
        QVERIFY2(error.contains(QStringLiteral("lesson ") + path) && error.contains(expected), qPrintable(error));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QStringLiteral("took %1 ms").arg(clock.elapsed())));
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
        QCOMPARE(resolved.runs.first().config.lrRule, ddplab::LrRule::Sqrt);
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
