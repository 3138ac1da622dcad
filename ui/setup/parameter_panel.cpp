#include "parameter_panel.hpp"

#include "client/library/preset_file.hpp"
#include "client/wire.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"
#include "setup/field_editor.hpp"
#include "setup/path_field.hpp"
#include "theme/message_colors.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QJsonValue>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

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

// The engine's messages name keys ("world_size must be ..."); the panel names its fields by
// their labels ("GPUs (ranks) must be ..."), the key being in each field's tooltip.
QString inPanelWords(QString message)
{
    for (const ConfigKey& key : configKeys()) {
        if (key.label.empty())
            continue;
        // The first mention only: "threads must be ...; more threads than cores" reads right.
        const QRegularExpression name(QStringLiteral("\\b%1\\b").arg(QString::fromStdString(key.name)));
        const QRegularExpressionMatch match = name.match(message);
        if (match.hasMatch())
            message.replace(match.capturedStart(), match.capturedLength(), QString::fromStdString(key.label));
    }
    return message;
}

// A wrapped label's floor: the height of its lines at its present width.
void fitHeightToText(QLabel& label)
{
    const int needed = label.heightForWidth(label.width());
    if (needed > 0 && needed != label.minimumHeight())
        label.setMinimumHeight(needed);
}

}  // namespace

struct ParameterPanel::Field {
    const ConfigKey* key = nullptr;
    QString name;
    QLabel* label = nullptr;
    QWidget* cell = nullptr;  // the editor and, under it, its problem
    QWidget* editor = nullptr;
    QLabel* message = nullptr;
    QFormLayout* form = nullptr;
};

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

    buildFields(content);
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

// What defines an experiment, in the order people state one ("8 GPUs × 16, lr 0.001 with the
// square-root rule, SGD"): the panel's first section, in sight on a first launch even on a
// 1280 × 720 projector; the engine's groups follow with the rest of their keys.
const char* const kExperimentKeys[] = {key::kWorldSize, key::kBatchSize, key::kLr, key::kLrRule, key::kBaseBatchSize, key::kOptimizer};

void ParameterPanel::buildFields(QWidget* content)
{
    QList<const ConfigKey*> experiment;
    for (const char* name : kExperimentKeys)
        experiment.append(findConfigKey(name));
    QHash<QString, QList<const ConfigKey*>> keysByGroup;
    for (const ConfigKey& key : configKeys()) {
        if (!key.hidden && !experiment.contains(&key))
            keysByGroup[QString::fromStdString(key.group)].append(&key);
    }
    QFormLayout* form = addSection(content, tr("Experiment"), false);
    // A wrapped note spans the section above its form (a form row would squeeze its lines).
    static_cast<QVBoxLayout*>(form->parentWidget()->layout())->insertWidget(0, m_deviceNote);
    for (const ConfigKey* key : experiment)
        addField(*key, form);
    for (const KeyGroup& keyGroup : keyGroups()) {
        const QString title = QString::fromStdString(keyGroup.title);
        const QList<const ConfigKey*> keys = keysByGroup.value(title);
        if (keys.isEmpty())
            continue;
        form = addSection(content, title, keyGroup.collapsedByDefault);
        for (const ConfigKey* key : keys)
            addField(*key, form);
    }
}

// A titled section that opens and closes by its title; its form, for the fields.
QFormLayout* ParameterPanel::addSection(QWidget* content, const QString& title, bool collapsed)
{
    auto* header = new QToolButton(content);
    header->setText(title);
    header->setCheckable(true);
    header->setChecked(!collapsed);
    header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    header->setArrowType(collapsed ? Qt::RightArrow : Qt::DownArrow);
    header->setAutoRaise(true);
    QFont bold = header->font();
    bold.setBold(true);
    header->setFont(bold);
    auto* body = new QWidget(content);
    auto* bodyLayout = new QVBoxLayout(body);
    bodyLayout->setContentsMargins(14, 0, 0, 8);
    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addLayout(form);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
    body->setVisible(!collapsed);
    connect(header, &QToolButton::toggled, body, [header, body](bool open) {
        body->setVisible(open);
        header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    auto* contentLayout = static_cast<QVBoxLayout*>(content->layout());
    contentLayout->addWidget(header);
    contentLayout->addWidget(body);
    return form;
}

void ParameterPanel::addField(const ConfigKey& key, QFormLayout* form)
{
    auto field = std::make_unique<Field>();
    field->key = &key;
    field->name = QString::fromStdString(key.name);
    field->form = form;
    field->label = new QLabel(QString::fromStdString(key.label.empty() ? key.name : key.label));
    field->editor = createFieldEditor(key, [this, name = field->name] {
        if (m_loading)
            return;
        m_engineProblems.remove(name);
        validate();
    });
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
    field->message->installEventFilter(this);  // its height follows its width (eventFilter)
    const QString name = field->name;
    const QString label = field->label->text();
    const auto browse = [this, name, label] {
        const QString chosen = askForPath(this, name, label);
        if (!chosen.isEmpty())
            choosePath(name, chosen);
    };
    cellLayout->addWidget(isPathKey(name) ? withBrowseButton(field->editor, label, browse) : field->editor);
    cellLayout->addWidget(field->message);
    form->addRow(field->label, field->cell);
    m_fieldByKey.insert(field->name, field.get());
    m_fields.push_back(std::move(field));
}

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

void ParameterPanel::setEditorValue(const Field& field, const QJsonValue& value)
{
    if (auto* box = qobject_cast<QCheckBox*>(field.editor)) {
        box->setChecked(value.toBool());
    } else if (auto* combo = qobject_cast<QComboBox*>(field.editor)) {
        const int index = combo->findData(value.toString());
        if (index >= 0) {
            combo->setCurrentIndex(index);
        } else {
            // A value the engine does not offer stays visible, so the field can say so.
            combo->addItem(jsonText(value), jsonText(value));
            combo->setCurrentIndex(combo->count() - 1);
        }
    } else if (auto* spin = qobject_cast<QSpinBox*>(field.editor)) {
        spin->setValue(int(std::clamp<double>(value.toDouble(), -INT_MAX, INT_MAX)));
    } else if (auto* line = qobject_cast<QLineEdit*>(field.editor)) {
        line->setText(jsonText(value));
    }
}

QStringList ParameterPanel::setValues(const QJsonObject& preset)
{
    m_loading = true;
    m_engineProblems.clear();
    const QJsonObject defaults = presetFromCoreConfig(Config{});
    for (const auto& field : m_fields)
        setEditorValue(*field, defaults.value(field->name));
    QStringList unknown;
    for (auto it = preset.constBegin(); it != preset.constEnd(); ++it) {
        if (Field* field = m_fieldByKey.value(it.key()))
            setEditorValue(*field, it.value());
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
    const Field* field = m_fieldByKey.value(key);
    if (!field)
        return QString();
    if (auto* box = qobject_cast<QCheckBox*>(field->editor))
        return box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    if (auto* combo = qobject_cast<QComboBox*>(field->editor))
        return combo->currentData().toString();
    if (auto* spin = qobject_cast<QSpinBox*>(field->editor))
        return QString::number(spin->value());
    if (auto* line = qobject_cast<QLineEdit*>(field->editor))
        return line->text().trimmed();
    return QString();
}

void ParameterPanel::setFieldText(const QString& key, const QString& text)
{
    Field* field = m_fieldByKey.value(key);
    if (!field)
        return;
    if (auto* box = qobject_cast<QCheckBox*>(field->editor))
        box->setChecked(text == QLatin1String("true"));
    else if (qobject_cast<QComboBox*>(field->editor))
        setEditorValue(*field, text);
    else if (auto* spin = qobject_cast<QSpinBox*>(field->editor))
        spin->setValue(text.toInt());
    else if (auto* line = qobject_cast<QLineEdit*>(field->editor))
        line->setText(text);
}

bool ParameterPanel::isFieldShown(const QString& key) const
{
    const Field* field = m_fieldByKey.value(key);
    return field && field->form->isRowVisible(field->cell);
}

QWidget* ParameterPanel::editor(const QString& key) const
{
    const Field* field = m_fieldByKey.value(key);
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
    Config config;
    QHash<QString, QString> problems;
    for (const auto& field : m_fields) {
        const std::string text = fieldText(field->name).toStdString();
        try {
            // An empty optional field is unset: its derived default, as "null" on the command line.
            assignFromText(config, *field->key, field->key->optional && text.empty() ? "null" : text);
        } catch (const ConfigError& error) {
            problems.insert(field->name, QString::fromStdString(error.what()));
        }
    }
    // With what the engine's machine has (cores, memory), the same checks the engine makes there.
    const MachineResources machine = m_inventory.machine();
    const MachineResources* known = m_inventory.isKnown() ? &machine : nullptr;
    for (const ConfigProblem& problem : findProblems(config, known, config.worldSize)) {
        const QString key = QString::fromStdString(problem.key);
        if (!problems.contains(key))
            problems.insert(key, QString::fromStdString(problem.message));
    }
    if (m_inventory.isKnown() && config.device == DeviceKind::Cuda && !problems.contains(wire(key::kWorldSize))) {
        const int gpus = m_inventory.maxRanks(wire(choice::device::kCuda));
        if (gpus == 0)
            problems.insert(wire(key::kDevice),
                            tr("This machine has no CUDA device the engine can use: choose cpu (ranks over Gloo)."));
        else if (config.worldSize > gpus)
            problems.insert(wire(key::kWorldSize), tr("This machine has %1 GPU(s): at most %1 ranks on device cuda.").arg(gpus));
    }
    for (auto it = m_engineProblems.constBegin(); it != m_engineProblems.constEnd(); ++it) {
        if (!problems.contains(it.key()))
            problems.insert(it.key(), it.value());
    }
    if (!m_inspectionProblem.second.isEmpty() && !problems.contains(m_inspectionProblem.first))
        problems.insert(m_inspectionProblem.first, m_inspectionProblem.second);
    m_config = config;
    m_problems = problems;
    showProblems();
    updateRelevance();
    updatePlaceholders();
    emit changed();
}

void ParameterPanel::showProblems()
{
    const QColor color = problemTextColor(palette());
    QStringList elsewhere;
    for (auto it = m_problems.constBegin(); it != m_problems.constEnd(); ++it) {
        if (!m_fieldByKey.contains(it.key()))
            elsewhere.append(inPanelWords(it.value()));
    }
    for (const auto& field : m_fields) {
        const QString problem = m_problems.value(field->name);
        const bool bad = !problem.isEmpty();
        field->message->setText(inPanelWords(problem));
        fitHeightToText(*field->message);
        field->message->setVisible(bad);
        QPalette labelPalette = field->label->palette();
        labelPalette.setColor(QPalette::WindowText, bad ? color : palette().color(QPalette::WindowText));
        field->label->setPalette(labelPalette);
        QPalette messagePalette = field->message->palette();
        messagePalette.setColor(QPalette::WindowText, color);
        field->message->setPalette(messagePalette);
        // From the panel's palette as it is now, so a theme change is followed.
        QPalette editorPalette = palette();
        if (bad) {
            QColor tint = editorPalette.color(QPalette::Base);
            tint = QColor::fromRgbF(tint.redF() * 0.75 + color.redF() * 0.25, tint.greenF() * 0.75 + color.greenF() * 0.25,
                                    tint.blueF() * 0.75 + color.blueF() * 0.25);
            editorPalette.setColor(QPalette::Base, tint);
            editorPalette.setColor(QPalette::Button, tint);
        }
        field->editor->setPalette(editorPalette);
    }
    const qsizetype count = m_problems.size();
    m_summary->setVisible(count > 0);
    if (count > 0) {
        QString text = count == 1 ? tr("1 setting needs attention before Run (marked below).")
                                  : tr("%1 settings need attention before Run (marked below).").arg(count);
        for (const QString& problem : elsewhere)
            text += QStringLiteral("\n• ") + problem;
        m_summary->setText(text);
        QPalette summaryPalette = m_summary->palette();
        summaryPalette.setColor(QPalette::WindowText, color);
        m_summary->setPalette(summaryPalette);
    }
}

QStringList ParameterPanel::problemSentences() const
{
    QStringList sentences;
    for (const auto& field : m_fields) {
        if (m_problems.contains(field->name))
            sentences.append(inPanelWords(m_problems.value(field->name)));
    }
    for (auto it = m_problems.constBegin(); it != m_problems.constEnd(); ++it) {
        if (!m_fieldByKey.contains(it.key()))
            sentences.append(inPanelWords(it.value()));
    }
    return sentences;
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
