// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Settings as typed checked with the engine's own rules, so Run is never pressed on something
// the engine would refuse: each value as the engine reads it (assignFromText), the combinations
// (findProblems) with what the engine's machine has, the rank limit of its GPUs, then what the
// engine itself refused and what the inspection of your own model found. One problem per key,
// the first found. Setup (setup/parameter_panel.cpp) hands its fields' texts in and marks the
// problems at the fields.

#include "client/engine/device_inventory.hpp"
#include "core/config.hpp"

#include <QHash>
#include <QList>
#include <QPair>
#include <QString>

namespace ddplab {
struct ConfigKey;
}

namespace ddplab::ui {

// One key's value as the person typed it: "true", "0.1", "" for unset.
struct SettingText {
    const ConfigKey* key = nullptr;
    QString text;
};

struct SettingsCheck {
    ddplab::Config config;
    QHash<QString, QString> problems;  // key -> the engine's sentence
};

// `texts` in configKeys() order; `engineProblems`: key -> what the engine said of a run it
// refused; `inspectionProblem`: (key, message) of the last inspection, an empty message for none.
SettingsCheck checkSettings(const QList<SettingText>& texts, const DeviceInventory& inventory,
                            const QHash<QString, QString>& engineProblems, const QPair<QString, QString>& inspectionProblem);

}  // namespace ddplab::ui
