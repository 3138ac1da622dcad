// SPDX-License-Identifier: GPL-3.0-or-later
#include "client/script/script_source.hpp"

#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/preset_resolver.hpp"

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace ddplab::ui {

ScriptSource scriptSourceOfRun(const RunRecord& run)
{
    ScriptSource source;
    QString error;
    const std::optional<QJsonObject> settings =
        readSettingsFile(RunStore::configPath(run), QStringLiteral("run %1's config.json").arg(run.id), &error);
    if (!settings) {
        source.error = error;
        return source;
    }
    source.settings = presetFromConfig(*settings);
    source.title = QStringLiteral("Run %1").arg(run.name.isEmpty() ? run.id : run.name);
    return source;
}

ScriptSource resolveScriptSource(const QString& name, const RunStore& runs, const LessonLibrary& lessons, const PresetLibrary& presets)
{
    // A run's folder, wherever it is: it holds the config.json the engine was given.
    const QFileInfo folder(name);
    if (folder.isDir()) {
        RunRecord run;
        run.id = folder.fileName();
        run.directory = folder.absoluteFilePath();
        if (QFileInfo::exists(RunStore::configPath(run))) {
            run.name = run.id;
            for (const RunRecord& stored : RunStore(folder.absolutePath()).listRuns()) {
                if (stored.id == run.id)
                    run = stored;
            }
            return scriptSourceOfRun(run);
        }
    }
    const QList<RunRecord> stored = runs.listRuns();
    const auto byId = std::find_if(stored.begin(), stored.end(), [&](const RunRecord& r) { return r.id == name; });
    const auto byName = std::find_if(stored.begin(), stored.end(), [&](const RunRecord& r) { return r.name == name; });
    if (const auto found = byId != stored.end() ? byId : byName; found != stored.end())
        return scriptSourceOfRun(*found);

    const ResolvedPreset preset = resolvePreset(name, lessons, presets);
    ScriptSource source;
    if (!preset.error.isEmpty()) {
        source.error = QStringLiteral("\"%1\" is not a run (a folder, or an id or name in %2) nor a preset: %3").arg(name, runs.root(), preset.error);
        return source;
    }
    if (preset.runs.size() != 1) {
        QStringList labels;
        for (const RunRequest& run : preset.runs)
            labels.append(run.label);
        source.error = QStringLiteral("\"%1\" holds %2 runs (%3); a script trains one: run it and export one of its runs, or save "
                                      "one as a preset")
                           .arg(name)
                           .arg(preset.runs.size())
                           .arg(labels.join(QStringLiteral(", ")));
        return source;
    }
    source.settings = presetFromCoreConfig(preset.runs.first().config);
    source.title = QStringLiteral("Preset %1").arg(preset.title.isEmpty() ? name : preset.title);
    return source;
}

}  // namespace ddplab::ui
