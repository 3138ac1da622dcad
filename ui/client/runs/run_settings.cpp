#include "run_settings.hpp"

#include "client/library/preset_file.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <QFile>
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

RunSettings runSettingsOf(const QJsonObject& config)
{
    RunSettings settings;
    // The requested config with the engine's defaults filled in; one it refuses says nothing.
    const std::optional<Config> parsed = coreConfigOf(presetFromConfig(config));
    if (!parsed)
        return settings;
    settings.ranks = int(parsed->worldSize);
    settings.batchPerRank = int(parsed->batchSize);
    settings.gradAccum = int(parsed->gradAccum);
    settings.effectiveLr = effectiveLr(*parsed);
    settings.optimizer = presetFromCoreConfig(*parsed).value(wire(key::kOptimizer)).toString();
    return settings;
}

RunSettings readRunSettings(const QString& configPath)
{
    QFile file(configPath);
    if (file.size() > kMaxConfigBytes || !file.open(QIODevice::ReadOnly))
        return {};
    return runSettingsOf(QJsonDocument::fromJson(file.readAll()).object());
}

}  // namespace ddplab::ui
