#include "preset_file.hpp"

#include "client/io/read_file.hpp"
#include "client/wire.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"

#include <QJsonDocument>

namespace ddplab::ui {
namespace {

const QString kEventsKey = wire(key::kEvents);

ddplab::Json toCoreJson(const QJsonObject& object)
{
    return ddplab::Json::parse(QJsonDocument(object).toJson(QJsonDocument::Compact).toStdString());
}

QJsonObject toQJsonObject(const ddplab::Json& object)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(object.dump())).object();
}

}  // namespace

QJsonObject presetFromCoreConfig(const Config& config)
{
    return presetFromConfig(toQJsonObject(configToJson(config)));
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

PresetReadResult readPresetFile(const QString& path)
{
    // The engine's limits and checks (io/read_file.hpp); built-in presets live in Qt resources.
    PresetReadResult result;
    if (const std::optional<QJsonObject> config = readSettingsFile(path, QStringLiteral("preset %1").arg(path), &result.error))
        result.config = *config;
    return result;
}

std::optional<Config> coreConfigOf(const QJsonObject& config, QString* error)
{
    try {
        Config parsed;
        applyJson(parsed, toCoreJson(config), "preset");
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
