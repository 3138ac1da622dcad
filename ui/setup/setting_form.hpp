// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Setup's form, built from ddplab_core's key table: the experiment's keys first, in the order
// people state one, then the engine's groups, each a section that opens and closes by its
// title; every key a row (setup/setting_field.hpp) with its help as a tooltip and a Browse
// button where it names a file.

#include "setup/setting_field.hpp"

#include <functional>

QT_BEGIN_NAMESPACE
class QLabel;
class QObject;
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

// What the rows ask of the panel they are built for.
struct FieldHooks {
    std::function<void(const QString& key)> edited;                       // a person changed the value
    std::function<void(const QString& key, const QString& label)> browse;  // the "…" of a path field
    QObject* messageFilter = nullptr;  // sees each problem message's resizes (its height follows its width)
};

// The sections and their rows, added to `content`'s QVBoxLayout; `note` spans the top of the
// first section.
SettingFields buildSettingForm(QWidget& content, QLabel& note, const FieldHooks& hooks);

}  // namespace ddplab::ui
