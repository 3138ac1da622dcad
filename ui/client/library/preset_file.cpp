// SPDX-License-Identifier: GPL-3.0-or-later
#include "preset_file.hpp"

#include "client/io/read_file.hpp"
#include "client/wire.hpp"
#include "core/config_error.hpp"
#include "core/config_file.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/json.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>
#include <cstdint>

namespace ddplab::ui {

static_assert(kMaxSettingsFileBytes == qint64(ddplab::kMaxConfigBytes), "a lab file of settings has the engine's limit");

namespace {

const QString kEventsKey = wire(key::kEvents);

// The one place the window's JSON (Qt's) and the engine's (nlohmann's) meet: value by value, so
// that the key table reads a preset exactly as the engine reads a config file. Whole numbers
// become JSON integers (the engine's integer keys ask for one), as they are in a file.
ddplab::Json toCoreJson(const QJsonValue& value)
{
    constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
    switch (value.type()) {
    case QJsonValue::Bool:
        return value.toBool();
    case QJsonValue::Double: {
        const double number = value.toDouble();
        if (std::trunc(number) == number && std::fabs(number) <= kLargestExactInteger)
            return static_cast<std::int64_t>(number);
        return number;
    }
    case QJsonValue::String:
        return value.toString().toStdString();
    case QJsonValue::Array: {
        ddplab::Json array = ddplab::Json::array();
        for (const QJsonValue& element : value.toArray())
            array.push_back(toCoreJson(element));
        return array;
    }
    case QJsonValue::Object: {
        ddplab::Json object = ddplab::Json::object();
        const QJsonObject from = value.toObject();
        for (auto member = from.begin(); member != from.end(); ++member)
            object[member.key().toStdString()] = toCoreJson(member.value());
        return object;
    }
    default:
        return nullptr;  // null, and undefined (a missing value)
    }
}

QJsonValue toQJson(const ddplab::Json& value)
{
    if (value.is_boolean())
        return value.get<bool>();
    if (value.is_number())
        return value.get<double>();
    if (value.is_string())
        return QString::fromStdString(value.get<std::string>());
    if (value.is_array()) {
        QJsonArray array;
        for (const ddplab::Json& element : value)
            array.append(toQJson(element));
        return array;
    }
    if (value.is_object()) {
        QJsonObject object;
        for (const auto& [name, member] : value.items())
            object.insert(QString::fromStdString(name), toQJson(member));
        return object;
    }
    return QJsonValue(QJsonValue::Null);
}

}  // namespace

QJsonObject presetFromCoreConfig(const Config& config)
{
    return presetFromConfig(toQJson(configToJson(config)).toObject());
}

QJsonValue coreConfigValue(const Config& config, std::string_view key)
{
    const ConfigKey* found = findConfigKey(key);
    return found ? toQJson(found->read(config)) : QJsonValue(QJsonValue::Null);
}

QJsonObject presetFromConfig(const QJsonObject& config)
{
    QJsonObject preset;
    for (const ConfigKey& key : configKeys()) {
        const QString name = QString::fromStdString(key.name);
        if (name != kEventsKey && config.contains(name))
            preset.insert(name, config.value(name));
    }
    return preset;
}

QByteArray presetFileContents(const QJsonObject& config)
{
    ddplab::Json ordered = ddplab::Json::object();
    const ddplab::Json values = toCoreJson(presetFromConfig(config));
    for (const ConfigKey& key : configKeys()) {
        if (values.contains(key.name))
            ordered[key.name] = values[key.name];
    }
    return QByteArray::fromStdString(ordered.dump(2)) + '\n';
}

namespace {

// Whole numbers written as integers (1, not 1.0), as toCoreJson writes them: a run's config.json
// reads the same whichever way it was made.
void writeWholeNumbersAsIntegers(ddplab::Json& value)
{
    constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
    if (value.is_number_float()) {
        const double number = value.get<double>();
        if (std::trunc(number) == number && std::fabs(number) <= kLargestExactInteger)
            value = static_cast<std::int64_t>(number);
    } else if (value.is_structured()) {
        for (ddplab::Json& element : value)
            writeWholeNumbersAsIntegers(element);
    }
}

}  // namespace

QByteArray runConfigFileText(const Config& config)
{
    const ddplab::Json values = configToJson(config);
    ddplab::Json ordered = ddplab::Json::object();
    for (const ConfigKey& key : configKeys()) {
        if (key.name != key::kEvents && values.contains(key.name))
            ordered[key.name] = values[key.name];
    }
    writeWholeNumbersAsIntegers(ordered);
    // A path that is not UTF-8 reads as Qt's strings read it (U+FFFD), not as an exception.
    return QByteArray::fromStdString(ordered.dump(2, ' ', false, ddplab::Json::error_handler_t::replace)) + '\n';
}

std::optional<QJsonObject> parseSettings(const QByteArray& text, const QString& origin, QString* error)
{
    try {
        // The engine's own reader: its checks and its words, on both sides of the process boundary.
        ddplab::parseConfigText(text.toStdString(), origin.toStdString());
    } catch (const ddplab::ConfigError& problem) {
        *error = QString::fromStdString(problem.what());
        return std::nullopt;
    }
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = QStringLiteral("%1 is not valid JSON: %2 at byte %3").arg(origin, parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    if (!document.isObject()) {
        *error = QStringLiteral("%1 must hold one JSON object").arg(origin);
        return std::nullopt;
    }
    return document.object();
}

std::optional<QJsonObject> readSettingsFile(const QString& path, const QString& origin, QString* error)
{
    QString why;
    const std::optional<QByteArray> text = readRegularFile(path, kMaxSettingsFileBytes, &why);
    if (!text) {
        *error = QStringLiteral("%1 %2").arg(origin, why);
        return std::nullopt;
    }
    return parseSettings(*text, origin, error);
}

PresetReadResult readPresetFile(const QString& path)
{
    // The engine's limits and checks (readSettingsFile); built-in presets live in Qt resources.
    PresetReadResult result;
    if (const std::optional<QJsonObject> config = readSettingsFile(path, QStringLiteral("preset %1").arg(path), &result.error))
        result.config = *config;
    return result;
}

std::optional<Config> coreConfigOf(const QJsonObject& config, QString* error)
{
    return withSettings(Config{}, config, error);
}

std::optional<Config> withSettings(const Config& base, const QJsonObject& changes, QString* error)
{
    try {
        Config parsed = base;
        applyJson(parsed, toCoreJson(changes), "preset");
        return parsed;
    } catch (const ConfigError& problem) {
        if (error)
            *error = QString::fromStdString(problem.what());
        return std::nullopt;
    }
}

QString presetProblem(const QJsonObject& config, const QString& origin)
{
    try {
        Config parsed;
        applyJson(parsed, toCoreJson(config), origin.toStdString());
        const ConfigProblems problems = findProblems(parsed);
        if (!problems.empty())
            return QStringLiteral("%1: %2").arg(origin, QString::fromStdString(problems.front().message));
    } catch (const ConfigError& error) {
        return QString::fromStdString(error.what());
    }
    return QString();
}

}  // namespace ddplab::ui
