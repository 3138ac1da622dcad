// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the lab's readers of the files a user gives it or keeps — a preset, a
// lesson, a study file — read as the window and `ddplab --preset/--study` read them (with the
// engine's limits: size, no key twice, no NUL, bounded nesting). Whatever the file holds: no
// crash, no hang, bounded memory; and a file that is refused says why.

#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/study/study_file.hpp"

#include <QFile>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ddplab::ui;
    static QTemporaryDir folder;
    static const QString path = folder.filePath(QStringLiteral("file.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        std::abort();
    file.write(reinterpret_cast<const char*>(data), qint64(size));
    file.close();

    const PresetReadResult preset = readPresetFile(path);
    if (preset.error.isEmpty())
        presetProblem(preset.config, QStringLiteral("preset"));  // as Setup checks it
    QString error;
    if (!LessonLibrary::loadFile(path, &error) && error.isEmpty())
        std::abort();  // refused without a word
    const StudyReadResult study = readStudyFile(path);
    if (!study.spec && study.error.isEmpty())
        std::abort();
    return 0;
}
