// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `ddplab --export-script NAME FILE` means by NAME: a stored run (its folder, id or name:
// the settings in its config.json) or a preset as --preset takes one (a lesson of one run, a
// built-in preset, a preset file).

#include <QJsonObject>
#include <QString>

namespace ddplab::ui {

class LessonLibrary;
class PresetLibrary;
class RunStore;
struct RunRecord;

struct ScriptSource {
    QJsonObject settings;
    QString title;  // "run 2×16 · lr 0.02 · torchscript", "preset tiny.json"
    QString error;  // why NAME names no settings; empty when found
};

// The settings a stored run was given (its config.json).
ScriptSource scriptSourceOfRun(const RunRecord& run);

ScriptSource resolveScriptSource(const QString& name, const RunStore& runs, const LessonLibrary& lessons, const PresetLibrary& presets);

}  // namespace ddplab::ui
