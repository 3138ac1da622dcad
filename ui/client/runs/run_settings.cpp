// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_settings.hpp"

#include "client/io/read_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <QJsonDocument>

namespace ddplab::ui {
namespace {

constexpr qint64 kMaxConfigBytes = 1 << 20;  // a config.json is a few kilobytes

}  // namespace

QString RunSettings::shapeText() const
{
    if (!isKnown())
        return QString();
    QString text = QStringLiteral("%1 × %2").arg(ranks).arg(batchPerRank);
    if (gradAccum > 1)
        text += QStringLiteral(" × %1").arg(gradAccum);
    return text;
}

QString RunSettings::effectiveLrText() const
{
    return isKnown() ? QString::number(effectiveLr, 'g', 4) : QString();
}

RunSettings runSettingsOf(const Config& config)
{
    RunSettings settings;
    settings.ranks = int(config.worldSize);
    settings.batchPerRank = int(config.batchSize);
    settings.gradAccum = int(config.gradAccum);
    settings.effectiveLr = effectiveLr(config);
    settings.optimizer = coreConfigValue(config, key::kOptimizer).toString();  // one key, not the whole config
    return settings;
}

RunSettings runSettingsOf(const QJsonObject& config)
{
    // The requested config with the engine's defaults filled in; one it refuses says nothing.
    const std::optional<Config> parsed = coreConfigOf(presetFromConfig(config));
    return parsed ? runSettingsOf(*parsed) : RunSettings{};
}

RunSettings readRunSettings(const QString& configPath)
{
    // A regular file only, never more than a config may be (a link to /dev/zero has size 0).
    QString why;
    const std::optional<QByteArray> config = readRegularFile(configPath, kMaxConfigBytes, &why);
    return config ? runSettingsOf(QJsonDocument::fromJson(*config).object()) : RunSettings{};
}

}  // namespace ddplab::ui
