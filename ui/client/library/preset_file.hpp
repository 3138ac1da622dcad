#pragma once
// A preset is a plain engine config file: the snake_case keys of configKeys(), without `events`,
// so that `ddplab-engine run --config preset.json` runs it. Messages come from ddplab_core, the
// same words the engine would use.

#include "core/config.hpp"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

namespace ddplab::ui {

// Every key of `config` (unset optional keys as null), without `events`.
QJsonObject presetFromCoreConfig(const ddplab::Config& config);

// Keeps only config keys (drops derived fields of a `config` event, and `events`).
QJsonObject presetFromConfig(const QJsonObject& config);

// The file's text: keys in the engine's table order, one per line.
QByteArray presetFileContents(const QJsonObject& config);

struct PresetReadResult {
    QJsonObject config;
    QString error;  // empty when the file was read
};
PresetReadResult readPresetFile(const QString& path);

// The preset read as the engine reads it (defaults filled in); nothing when it has an unknown key
// or a bad value (`error` says which).
std::optional<ddplab::Config> coreConfigOf(const QJsonObject& config, QString* error = nullptr);

// The first thing the engine would reject in this preset (unknown key, bad value, impossible
// combination), or "" when it would run it.
QString presetProblem(const QJsonObject& config, const QString& origin);

}  // namespace ddplab::ui
