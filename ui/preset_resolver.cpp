#include "preset_resolver.hpp"

#include "lesson_library.hpp"
#include "preset_file.hpp"

#include <QFileInfo>
#include <QJsonDocument>

namespace ddplab::ui {
namespace {

ResolvedPreset fromLesson(const Lesson& lesson)
{
    ResolvedPreset resolved;
    resolved.title = lesson.title;
    resolved.lessonId = lesson.id;
    resolved.chartMetrics = lesson.charts;
    for (const LessonRun& run : lesson.runs) {
        const QString problem = presetProblem(run.config, QStringLiteral("lesson %1, run \"%2\"").arg(lesson.id, run.label));
        if (!problem.isEmpty()) {
            resolved.error = problem;
            return resolved;
        }
        // The label first: it is what tells the runs of one lesson apart in the Runs list.
        resolved.runs.append({run.label + QStringLiteral(" — ") + lesson.title, run.label, lesson.id, presetFromConfig(run.config)});
    }
    return resolved;
}

bool looksLikeLesson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("runs")).isArray();
}

}  // namespace

ResolvedPreset resolvePreset(const QString& name, const LessonLibrary& lessons)
{
    if (const Lesson* lesson = lessons.find(name))
        return fromLesson(*lesson);

    ResolvedPreset resolved;
    const QFileInfo file(name);
    if (!file.isFile()) {
        resolved.error = QStringLiteral("Unknown preset \"%1\": it is neither a lesson id nor a file. Lessons: %2.")
                             .arg(name, lessons.ids().join(QStringLiteral(", ")));
        return resolved;
    }
    if (looksLikeLesson(name)) {
        QString error;
        const std::optional<Lesson> lesson = LessonLibrary::loadFile(name, &error);
        if (!lesson) {
            resolved.error = error;
            return resolved;
        }
        return fromLesson(*lesson);
    }
    const PresetReadResult preset = readPresetFile(name);
    if (!preset.error.isEmpty()) {
        resolved.error = preset.error;
        return resolved;
    }
    const QString problem = presetProblem(preset.config, QStringLiteral("preset %1").arg(name));
    if (!problem.isEmpty()) {
        resolved.error = problem;
        return resolved;
    }
    resolved.title = file.completeBaseName();
    resolved.runs.append({resolved.title, resolved.title, QString(), presetFromConfig(preset.config)});
    return resolved;
}

}  // namespace ddplab::ui
