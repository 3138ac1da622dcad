// SPDX-License-Identifier: GPL-3.0-or-later
#include "setting_field.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QJsonValue>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>
#include <climits>

namespace ddplab::ui {
namespace {

QString jsonText(const QJsonValue& value)
{
    if (value.isNull() || value.isUndefined())
        return QString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 12);
    return value.toString();  // strings; arrays and objects are no config value and show as empty
}

}  // namespace

QString SettingField::text() const
{
    if (auto* box = qobject_cast<QCheckBox*>(editor))
        return box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        return combo->currentData().toString();
    if (auto* spin = qobject_cast<QSpinBox*>(editor))
        return QString::number(spin->value());
    if (auto* line = qobject_cast<QLineEdit*>(editor))
        return line->text().trimmed();
    return QString();
}

void SettingField::setText(const QString& text)
{
    if (auto* box = qobject_cast<QCheckBox*>(editor))
        box->setChecked(text == QLatin1String("true"));
    else if (qobject_cast<QComboBox*>(editor))
        setValue(text);
    else if (auto* spin = qobject_cast<QSpinBox*>(editor))
        spin->setValue(text.toInt());
    else if (auto* line = qobject_cast<QLineEdit*>(editor))
        line->setText(text);
}

void SettingField::setValue(const QJsonValue& value)
{
    if (auto* box = qobject_cast<QCheckBox*>(editor)) {
        box->setChecked(value.toBool());
    } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        const int index = combo->findData(value.toString());
        if (index >= 0) {
            combo->setCurrentIndex(index);
        } else {
            combo->addItem(jsonText(value), jsonText(value));
            combo->setCurrentIndex(combo->count() - 1);
        }
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->setValue(int(std::clamp<double>(value.toDouble(), -INT_MAX, INT_MAX)));
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        line->setText(jsonText(value));
    }
}

bool SettingField::isShown() const
{
    return form->isRowVisible(cell);
}

}  // namespace ddplab::ui
