// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A preset is a plain engine config file: the snake_case keys of configKeys(), without `events`,
// so that `ddplab-engine run --config preset.json` runs it. Messages come from ddplab_core, the
// same words the engine would use.

#include "core/config.hpp"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>
#include <string_view>

namespace ddplab::ui {

// Every key of `config` (unset optional keys as null), without `events`.
QJsonObject presetFromCoreConfig(const ddplab::Config& config);

// One key of `config` as JSON (a choice's name, a number; null when an optional key is unset or
// `key` is no config key): what a reader of one setting needs, without the whole config.
QJsonValue coreConfigValue(const ddplab::Config& config, std::string_view key);

// Keeps only config keys (drops derived fields of a `config` event, and `events`).
QJsonObject presetFromConfig(const QJsonObject& config);

// The file's text: keys in the engine's table order, one per line.
QByteArray presetFileContents(const QJsonObject& config);
// A run's config.json, made from its typed settings in one step (the key table's own writer,
// configToJson): the same text as presetFileContents(presetFromCoreConfig(config)), without
// passing through Qt's JSON and back. RunStore::createRun makes it once per run.
QByteArray runConfigFileText(const ddplab::Config& config);

struct PresetReadResult {
    QJsonObject config;
    QString error;  // empty when the file was read
};
PresetReadResult readPresetFile(const QString& path);

// A file of settings (a preset, a lesson, a study file) is at most this: the engine's limit for
// a config (core/config_file.hpp's kMaxConfigBytes; preset_file.cpp checks they agree).
constexpr qint64 kMaxSettingsFileBytes = 1 << 20;
// Its JSON object, read as the engine reads a config file (io/read_file.hpp's rules, then the
// engine's own parser: no key twice, naming it; no NUL; nothing nested 64 deep), in linear time.
// `origin` ("preset /x/y.json") names it in `error`.
std::optional<QJsonObject> readSettingsFile(const QString& path, const QString& origin, QString* error);
// The same checks on text already read.
std::optional<QJsonObject> parseSettings(const QByteArray& text, const QString& origin, QString* error);

// The preset read as the engine reads it (defaults filled in); nothing when it has an unknown key
// or a bad value (`error` says which).
std::optional<ddplab::Config> coreConfigOf(const QJsonObject& config, QString* error = nullptr);
// `base` with the keys of `changes` applied as the engine applies a config file's; nothing when
// one is unknown or its value bad.
std::optional<ddplab::Config> withSettings(const ddplab::Config& base, const QJsonObject& changes, QString* error = nullptr);

// The first thing the engine would reject in this preset (unknown key, bad value, impossible
// combination), or "" when it would run it.
QString presetProblem(const QJsonObject& config, const QString& origin);

}  // namespace ddplab::ui
