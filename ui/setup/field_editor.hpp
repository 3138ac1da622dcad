// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The editor of one config key in the Setup pane, by the key's type: a check box for a switch,
// a chooser for a choice (the engine's labels, its values as data), a spin box for a required
// whole number (negative ones too: the engine judges the range and says so at the field), a
// line for the rest. Choosers take the wheel only with the focus (wheel_guard).

#include <QtGlobal>

#include <functional>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab {
struct ConfigKey;
}

namespace ddplab::ui {

// `edited` is called whenever the person changes the value.
QWidget* createFieldEditor(const ConfigKey& key, const std::function<void()>& edited);

}  // namespace ddplab::ui
