#include "preset_file.hpp"

#include "core/config_file.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"

#include <QJsonDocument>

namespace ddplab::ui {
namespace {

const QString kEventsKey = QStringLiteral("events");

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
    PresetReadResult result;
    try {
        const ddplab::Json object = readConfigFile(path.toStdString());
        if (!object.is_object()) {
            result.error = QStringLiteral("%1 must hold a JSON object of settings ({\"batch_size\": 16, ...})").arg(path);
            return result;
        }
        result.config = toQJsonObject(object);
    } catch (const ConfigError& error) {
        result.error = QString::fromStdString(error.what());
    }
    return result;
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
