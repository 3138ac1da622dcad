// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameter_panel.hpp"

#include "client/library/preset_file.hpp"
#include "client/runs/settings_check.hpp"
#include "client/wire.hpp"
#include "core/config_keys.hpp"
#include "core/derived.hpp"
#include "setup/path_field.hpp"
#include "setup/problem_marks.hpp"
#include "setup/setting_form.hpp"

#include <QEvent>
#include <QFormLayout>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace ddplab::ui {

ParameterPanel::ParameterPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* content = new QWidget;
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(8, 6, 8, 8);
    contentLayout->setSpacing(2);

    m_deviceNote = new QLabel(m_inventory.rankDescription(), content);
    m_deviceNote->setWordWrap(true);
    m_deviceNote->setForegroundRole(QPalette::PlaceholderText);

    FieldHooks hooks;
    hooks.edited = [this](const QString& key) {
        if (m_loading)
            return;
        m_engineProblems.remove(key);
        validate();
    };
    hooks.browse = [this](const QString& key, const QString& label) {
        const QString chosen = askForPath(this, key, label);
        if (!chosen.isEmpty())
            choosePath(key, chosen);
    };
    hooks.messageFilter = this;  // a message's height follows its width (eventFilter)
    m_fields = buildSettingForm(*content, *m_deviceNote, hooks);
    for (const auto& field : m_fields)
        m_fieldByKey.insert(field->name, field.get());
    contentLayout->addStretch(1);

    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Above the scrolled fields: what stops Run stays in sight however far the form scrolls.
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("settingsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setContentsMargins(8, 4, 8, 4);
    m_summary->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_summary);
    layout->addWidget(m_scroll, 1);

    setValues(QJsonObject());
}

ParameterPanel::~ParameterPanel() = default;

bool ParameterPanel::eventFilter(QObject* watched, QEvent* event)
{
    // A message as tall as its wrapped lines at the width it got. The form's own height-for-
    // width did not reach through the scrolled area: a three-line message got two lines' room,
    // cut at the top and bottom. As a minimum height it is a floor the scrolled form respects.
    auto* message = qobject_cast<QLabel*>(watched);
    if (message && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        fitHeightToText(*message);
    return QWidget::eventFilter(watched, event);
}

void ParameterPanel::choosePath(const QString& key, const QString& path)
{
    setFieldText(key, pathChosen(key, path));
}

void ParameterPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        showProblems();  // the marks are tints of the palette
}

QStringList ParameterPanel::setValues(const QJsonObject& preset)
{
    m_loading = true;
    m_engineProblems.clear();
    const QJsonObject defaults = presetFromCoreConfig(Config{});
    for (const auto& field : m_fields)
        field->setValue(defaults.value(field->name));
    QStringList unknown;
    for (auto it = preset.constBegin(); it != preset.constEnd(); ++it) {
        if (SettingField* field = m_fieldByKey.value(it.key()))
            field->setValue(it.value());
        else if (!(findConfigKey(it.key().toStdString()) && findConfigKey(it.key().toStdString())->hidden))
            unknown.append(it.key());
    }
    m_loading = false;
    validate();
    return unknown;
}

QJsonObject ParameterPanel::values() const
{
    return presetFromCoreConfig(m_config);
}

QString ParameterPanel::fieldText(const QString& key) const
{
    const SettingField* field = m_fieldByKey.value(key);
    return field ? field->text() : QString();
}

void ParameterPanel::setFieldText(const QString& key, const QString& text)
{
    if (SettingField* field = m_fieldByKey.value(key))
        field->setText(text);
}

bool ParameterPanel::isFieldShown(const QString& key) const
{
    const SettingField* field = m_fieldByKey.value(key);
    return field && field->isShown();
}

QWidget* ParameterPanel::editor(const QString& key) const
{
    const SettingField* field = m_fieldByKey.value(key);
    return field ? field->editor : nullptr;
}

void ParameterPanel::setDeviceInventory(const DeviceInventory& inventory)
{
    m_inventory = inventory;
    m_deviceNote->setText(inventory.rankDescription());
    validate();
}

void ParameterPanel::showEngineProblem(const QString& key, const QString& message)
{
    m_engineProblems.insert(key, message);
    validate();
    if (QWidget* field = editor(key))
        field->setFocus();
}

void ParameterPanel::setInspectionProblem(const QString& key, const QString& message)
{
    const QPair<QString, QString> problem{message.isEmpty() ? QString() : key, message};
    if (problem == m_inspectionProblem)
        return;
    m_inspectionProblem = problem;
    validate();
}

void ParameterPanel::validate()
{
    QList<SettingText> texts;
    for (const auto& field : m_fields)
        texts.append({field->key, field->text()});
    SettingsCheck check = checkSettings(texts, m_inventory, m_engineProblems, m_inspectionProblem);
    m_config = check.config;
    m_problems = std::move(check.problems);
    showProblems();
    updateRelevance();
    updatePlaceholders();
    emit changed();
}

void ParameterPanel::showProblems()
{
    markProblems(m_fields, m_problems, *m_summary, palette());
}

QStringList ParameterPanel::problemSentences() const
{
    return ui::problemSentences(m_fields, m_problems);
}

void ParameterPanel::updateRelevance()
{
    for (const auto& field : m_fields) {
        // A key that has a problem stays visible even where it has no effect, or the
        // problem could not be fixed.
        const bool shown = field->key->mattersFor(m_config) || m_problems.contains(field->name);
        field->form->setRowVisible(field->cell, shown);
    }
}

void ParameterPanel::updatePlaceholders()
{
    if (auto* line = qobject_cast<QLineEdit*>(editor(wire(key::kBaseBatchSize))))
        line->setPlaceholderText(tr("batch per GPU (%1)").arg(m_config.batchSize));
    if (auto* line = qobject_cast<QLineEdit*>(editor(wire(key::kWarmupStartFactor))))
        line->setPlaceholderText(tr("1 / ranks = %1 of the LR").arg(warmupStartFactor(m_config), 0, 'g', 4));
    if (auto* line = qobject_cast<QLineEdit*>(editor(wire(key::kFailAt))))
        line->setPlaceholderText(tr("none (e.g. 1:5, or 1:5:crash)"));
}

}  // namespace ddplab::ui
