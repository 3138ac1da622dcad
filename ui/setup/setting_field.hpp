// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One engine key as a row of Setup: its label, its editor (setup/field_editor.hpp) with the
// field's problem under it, in the form of its section. Its value is read and written as the
// engine reads it, as text ("true", "0.1", "" for unset), or from a preset's JSON.

#include <QString>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QJsonValue;
class QLabel;
class QWidget;
QT_END_NAMESPACE

namespace ddplab {
struct ConfigKey;
}

namespace ddplab::ui {

struct SettingField {
    const ConfigKey* key = nullptr;
    QString name;
    QLabel* label = nullptr;
    QWidget* cell = nullptr;  // the editor and, under it, its problem
    QWidget* editor = nullptr;
    QLabel* message = nullptr;
    QFormLayout* form = nullptr;

    QString text() const;
    void setText(const QString& text);
    // A preset's value; one the engine does not offer as a choice stays visible, so the field
    // can say so.
    void setValue(const QJsonValue& value);
    bool isShown() const;
};

using SettingFields = std::vector<std::unique_ptr<SettingField>>;  // in configKeys() order

}  // namespace ddplab::ui
