// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a run was, in the few words the Runs list shows beside its name: ranks × batch per rank,
// the effective LR (by the engine's own arithmetic: the rule applied to the LR as tuned), and
// the optimizer. Read from the config the run was given (its config.json).

#include "core/config.hpp"

#include <QJsonObject>
#include <QString>

namespace ddplab::ui {

struct RunSettings {
    int ranks = 0;  // 0: not known (no readable config)
    int batchPerRank = 0;
    int gradAccum = 1;
    double effectiveLr = 0.0;
    QString optimizer;

    bool isKnown() const { return ranks > 0; }
    QString shapeText() const;        // "4 × 16" ("4 × 16 × 2" with gradient accumulation)
    QString effectiveLrText() const;  // "0.002828"
};

RunSettings runSettingsOf(const ddplab::Config& config);
// A config read from JSON (the engine's defaults filled in); one it refuses says nothing.
RunSettings runSettingsOf(const QJsonObject& config);
// From a run's config.json; nothing known when it cannot be read.
RunSettings readRunSettings(const QString& configPath);

}  // namespace ddplab::ui
