// SPDX-License-Identifier: GPL-3.0-or-later
#include "field_editor.hpp"

#include "core/config_keys.hpp"
#include "setup/wheel_guard.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSpinBox>

#include <climits>

namespace ddplab::ui {

QWidget* createFieldEditor(const ConfigKey& key, const std::function<void()>& edited)
{
    if (key.type == KeyType::Boolean) {
        auto* box = new QCheckBox;
        QObject::connect(box, &QCheckBox::toggled, box, edited);
        return box;
    }
    if (key.type == KeyType::Choice) {
        auto* combo = new QComboBox;
        for (const std::string& choice : key.choices) {
            const QString value = QString::fromStdString(choice);
            combo->addItem(QString::fromStdString(key.choiceLabel(choice)), value);
        }
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
        guardAgainstStrayWheel(combo);
        QObject::connect(combo, &QComboBox::currentIndexChanged, combo, edited);
        return combo;
    }
    if (key.type == KeyType::Integer && !key.optional) {
        // The range is the engine's to judge (its message is shown at the field); the box
        // only keeps the text numeric. Negative numbers too: a box that refused the minus
        // sign turned a typed -1 into 1 without a word.
        auto* spin = new QSpinBox;
        spin->setRange(-INT_MAX, INT_MAX);
        guardAgainstStrayWheel(spin);
        QObject::connect(spin, &QSpinBox::valueChanged, spin, edited);
        return spin;
    }
    auto* line = new QLineEdit;
    line->setClearButtonEnabled(key.optional);
    QObject::connect(line, &QLineEdit::textChanged, line, edited);
    return line;
}

}  // namespace ddplab::ui
