// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Setup's problems where a person sees them: each at its field (the label in the problem
// colour, the sentence under the editor, the editor tinted), and above the scrolled form a
// summary of how many, with those no field shows. The engine's sentences name keys
// ("world_size must be ..."); the panel says them with its labels ("GPUs (ranks) must be ...").

#include "setup/setting_field.hpp"

#include <QHash>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QLabel;
class QPalette;
QT_END_NAMESPACE

namespace ddplab::ui {

// `message` (an engine sentence about `ownKey`) with the first mention of each key replaced by its
// field's label: keys no English word spells anywhere, a plain-word key only where the message is
// about it and begins with it; the engine's own words are left alone.
QString inPanelWords(QString message, const QString& ownKey = QString());

// A wrapped label's floor: the height of its lines at its present width.
void fitHeightToText(QLabel& label);

// Marks every field with its problem (or none) and fills `summary`, in the colours of `palette`
// as it is now, so that a theme change is followed.
void markProblems(const SettingFields& fields, const QHash<QString, QString>& problems, QLabel& summary, const QPalette& palette);

// The problems in the panel's words, in the order of the fields, then those no field shows.
QStringList problemSentences(const SettingFields& fields, const QHash<QString, QString>& problems);

}  // namespace ddplab::ui
