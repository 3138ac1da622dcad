// SPDX-License-Identifier: GPL-3.0-or-later
#include "preset_resolver.hpp"

#include "client/io/read_file.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/wire.hpp"

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
    resolved.xAxis = lesson.xAxis;
    if (lesson.modelBandwidthBytesPerSecond > 0)
        resolved.throughputModel = ThroughputModel{lesson.modelBandwidthBytesPerSecond, lesson.modelLink};
    for (const LessonRun& run : lesson.runs) {
        const QString problem = presetProblem(run.config, QStringLiteral("lesson %1, run \"%2\"").arg(lesson.id, run.label));
        if (!problem.isEmpty()) {
            resolved.error = problem;
            return resolved;
        }
        // The label first: it is what tells the runs of one lesson apart in the Runs list.
        RunRequest request{run.label + QStringLiteral(" — ") + lesson.title, run.label, lesson.id, *coreConfigOf(run.config)};
        if (!run.checkpointAt.isEmpty()) {
            // Checked as the engine reads it; the folder is the run's own, set when it starts.
            QString error;
            const std::optional<ddplab::Config> checkpointing = withSettings(
                request.config, {{wire(key::kCheckpointAt), run.checkpointAt}, {wire(key::kCheckpointDir), QStringLiteral("checkpoints")}}, &error);
            if (!checkpointing) {
                resolved.error = QStringLiteral("lesson %1, run \"%2\": %3").arg(lesson.id, run.label, error);
                return resolved;
            }
            request.config = *checkpointing;
            request.checkpointsInRunFolder = true;
        }
        request.resumeFromRun = run.resumeFromRun;
        request.meantToFail = run.meantToFail;
        resolved.runs.append(request);
    }
    return resolved;
}

ResolvedPreset fromConfig(const QString& title, const QJsonObject& config, const QString& origin)
{
    ResolvedPreset resolved;
    resolved.error = presetProblem(config, origin);
    if (!resolved.error.isEmpty())
        return resolved;
    resolved.title = title;
    resolved.runs.append({title, title, QString(), *coreConfigOf(config)});  // presetProblem read it
    return resolved;
}

// Only a glance: whatever cannot be read is read again as a preset, which says why not.
bool looksLikeLesson(const QString& path)
{
    QString ignored;
    const std::optional<QByteArray> text = readRegularFile(path, kMaxSettingsFileBytes, &ignored);
    return text && QJsonDocument::fromJson(*text).object().value(QStringLiteral("runs")).isArray();
}

}  // namespace

ResolvedPreset resolvePreset(const QString& name, const LessonLibrary& lessons, const PresetLibrary& presets)
{
    if (const Lesson* lesson = lessons.find(name))
        return fromLesson(*lesson);
    if (const BuiltInPreset* preset = presets.find(name))
        return fromConfig(preset->name, preset->config, QStringLiteral("preset %1").arg(name));

    ResolvedPreset resolved;
    const QFileInfo file(name);
    if (!file.isFile()) {
        QStringList presetNames;
        for (const BuiltInPreset& preset : presets.presets())
            presetNames.append(preset.name);
        resolved.error = QStringLiteral("Unknown preset \"%1\": it is not a lesson, a built-in preset or a file. Lessons: %2. Presets: %3.")
                             .arg(name, lessons.ids().join(QStringLiteral(", ")), presetNames.join(QStringLiteral(", ")));
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
    return fromConfig(file.completeBaseName(), preset.config, QStringLiteral("preset %1").arg(name));
}

}  // namespace ddplab::ui
