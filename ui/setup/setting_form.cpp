// SPDX-License-Identifier: GPL-3.0-or-later
#include "setting_form.hpp"

#include "client/wire.hpp"
#include "core/config_keys.hpp"
#include "setup/field_editor.hpp"
#include "setup/path_field.hpp"

#include <QFormLayout>
#include <QHash>
#include <QLabel>
#include <QObject>
#include <QToolButton>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

// What defines an experiment, in the order people state one ("8 GPUs × 16, lr 0.001 with the
// square-root rule, SGD"): the panel's first section, in sight on a first launch even on a
// 1280 × 720 projector; the engine's groups follow with the rest of their keys.
const char* const kExperimentKeys[] = {key::kWorldSize, key::kBatchSize, key::kLr, key::kLrRule, key::kBaseBatchSize, key::kOptimizer};

// A titled section that opens and closes by its title; its form, for the fields.
QFormLayout* addSection(QWidget& content, const QString& title, bool collapsed)
{
    auto* header = new QToolButton(&content);
    header->setText(title);
    header->setCheckable(true);
    header->setChecked(!collapsed);
    header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    header->setArrowType(collapsed ? Qt::RightArrow : Qt::DownArrow);
    header->setAutoRaise(true);
    QFont bold = header->font();
    bold.setBold(true);
    header->setFont(bold);
    auto* body = new QWidget(&content);
    auto* bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(14, 0, 0, 8);
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addLayout(form);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    body->setVisible(!collapsed);
    QObject::connect(header, &QToolButton::toggled, body, [header, body](bool open) {
        body->setVisible(open);
        header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    auto* contentLayout = static_cast<QVBoxLayout*>(content.layout());
    contentLayout->addWidget(header);
    contentLayout->addWidget(body);
    return form;
}

std::unique_ptr<SettingField> makeField(const ConfigKey& key, QFormLayout* form, const FieldHooks& hooks)
{
    auto field = std::make_unique<SettingField>();
    field->key = &key;
    field->name = QString::fromStdString(key.name);
    field->form = form;
    field->label = new QLabel(QString::fromStdString(key.label.empty() ? key.name : key.label));
    field->editor = createFieldEditor(key, [edited = hooks.edited, name = field->name] { edited(name); });
    field->label->setBuddy(field->editor);
    const QString help = QStringLiteral("<b>%1</b> (%2)<br>%3<br><i>Allowed: %4</i>")
                             .arg(field->name, QString::fromStdString(key.flag()), QString::fromStdString(key.help).toHtmlEscaped(),
                                  QString::fromStdString(key.allowed).toHtmlEscaped());
    field->label->setToolTip(help);
    field->editor->setToolTip(help);
    // The field's problem sits under its editor, inside the same row: it can never take the
    // place of the next field (two form rows per field did, when one was hidden).
    field->cell = new QWidget;
    auto* cellLayout = new QVBoxLayout(field->cell);
    cellLayout->setContentsMargins(0, 0, 0, 0);
    cellLayout->setSpacing(1);
    field->message = new QLabel;
    field->message->setWordWrap(true);
    field->message->setVisible(false);
    QFont small = field->message->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    field->message->setFont(small);
    field->message->installEventFilter(hooks.messageFilter);
    const QString name = field->name;
    const QString label = field->label->text();
    const auto browse = [browse = hooks.browse, name, label] { browse(name, label); };
    cellLayout->addWidget(isPathKey(name) ? withBrowseButton(field->editor, label, browse) : field->editor);
    cellLayout->addWidget(field->message);
    form->addRow(field->label, field->cell);
    return field;
}

}  // namespace

SettingFields buildSettingForm(QWidget& content, QLabel& note, const FieldHooks& hooks)
{
    QList<const ConfigKey*> experiment;
    for (const char* name : kExperimentKeys)
        experiment.append(findConfigKey(name));
    QHash<QString, QList<const ConfigKey*>> keysByGroup;
    for (const ConfigKey& key : configKeys()) {
        if (!key.hidden && !experiment.contains(&key))
            keysByGroup[QString::fromStdString(key.group)].append(&key);
    }
    SettingFields fields;
    QFormLayout* form = addSection(content, QObject::tr("Experiment"), false);
    // A wrapped note spans the section above its form (a form row would squeeze its lines).
    static_cast<QVBoxLayout*>(form->parentWidget()->layout())->insertWidget(0, &note);
    for (const ConfigKey* key : experiment)
        fields.push_back(makeField(*key, form, hooks));
    for (const KeyGroup& keyGroup : keyGroups()) {
        const QString title = QString::fromStdString(keyGroup.title);
        const QList<const ConfigKey*> keys = keysByGroup.value(title);
        if (keys.isEmpty())
            continue;
        form = addSection(content, title, keyGroup.collapsedByDefault);
        for (const ConfigKey* key : keys)
            fields.push_back(makeField(*key, form, hooks));
    }
    return fields;
}

}  // namespace ddplab::ui
