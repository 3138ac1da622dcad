#pragma once
// How the parameter panel presents the engine's config keys: a label and a group for each,
// and when a key matters (the optimizer's own hyperparameters, the schedule's own settings).
// The keys themselves come from ddplab_core's configKeys(); a key this table does not know
// still appears, under "Other", with its own name.

#include "core/config.hpp"

#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct ParameterGroup {
    QString title;
    bool collapsedByDefault = false;
};

QList<ParameterGroup> parameterGroups();
QString parameterGroupOf(const QString& key);
QString parameterLabel(const QString& key);
// How a choice reads in its combo box ("sqrt" -> "sqrt: × √k").
QString choiceLabel(const QString& key, const QString& choice);
// Keys the lab sets itself and never shows (the events file of a run).
bool isHiddenParameter(const QString& key);
// Whether `key` has any effect with these settings.
bool isRelevant(const QString& key, const ddplab::Config& config);

}  // namespace ddplab::ui
