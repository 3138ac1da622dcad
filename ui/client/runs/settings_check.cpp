// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings_check.hpp"

#include "client/wire.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"

#include <QObject>

namespace ddplab::ui {

SettingsCheck checkSettings(const QList<SettingText>& texts, const DeviceInventory& inventory,
                            const QHash<QString, QString>& engineProblems, const QPair<QString, QString>& inspectionProblem)
{
    Config config;
    QHash<QString, QString> problems;
    for (const SettingText& setting : texts) {
        const std::string text = setting.text.toStdString();
        try {
            // An empty optional field is unset: its derived default, as "null" on the command line.
            assignFromText(config, *setting.key, setting.key->optional && text.empty() ? "null" : text);
        } catch (const ConfigError& error) {
            problems.insert(QString::fromStdString(setting.key->name), QString::fromStdString(error.what()));
        }
    }
    // With what the engine's machine has (cores, memory), the same checks the engine makes there.
    const MachineResources machine = inventory.machine();
    const MachineResources* known = inventory.isKnown() ? &machine : nullptr;
    for (const ConfigProblem& problem : findProblems(config, known, config.worldSize)) {
        const QString key = QString::fromStdString(problem.key);
        if (!problems.contains(key))
            problems.insert(key, QString::fromStdString(problem.message));
    }
    if (inventory.isKnown() && config.device == DeviceKind::Cuda && !problems.contains(wire(key::kWorldSize))) {
        const int gpus = inventory.maxRanks(wire(choice::device::kCuda));
        if (gpus == 0)
            problems.insert(wire(key::kDevice),
                            QObject::tr("This machine has no CUDA device the engine can use: choose cpu (ranks over Gloo)."));
        else if (config.worldSize > gpus)
            problems.insert(wire(key::kWorldSize), QObject::tr("This machine has %1 GPU(s): at most %1 ranks on device cuda.").arg(gpus));
    }
    for (auto it = engineProblems.constBegin(); it != engineProblems.constEnd(); ++it) {
        if (!problems.contains(it.key()))
            problems.insert(it.key(), it.value());
    }
    if (!inspectionProblem.second.isEmpty() && !problems.contains(inspectionProblem.first))
        problems.insert(inspectionProblem.first, inspectionProblem.second);
    return {config, problems};
}

}  // namespace ddplab::ui
