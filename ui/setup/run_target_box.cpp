// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_target_box.hpp"

#include "client/engine/device_inventory.hpp"
#include "theme/message_colors.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

namespace ddplab::ui {
namespace {

const QString kHostsSetting = QStringLiteral("runOn/hosts");
const QString kEngineSetting = QStringLiteral("runOn/engine/");  // + host
constexpr int kRememberedHosts = 10;

QString thisComputer()
{
    return QObject::tr("this computer");
}

}  // namespace

RunTargetBox::RunTargetBox(QString localEngine, QWidget* parent) : QWidget(parent), m_localEngine(std::move(localEngine))
{
    m_host = new QComboBox;
    m_host->setObjectName(QStringLiteral("runOnHost"));
    m_host->setEditable(true);
    m_host->setInsertPolicy(QComboBox::NoInsert);
    m_host->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_host->setMinimumContentsLength(10);
    m_host->addItem(thisComputer());
    m_host->addItems(QSettings().value(kHostsSetting).toStringList());
    m_host->setToolTip(tr("Where runs go: this computer, or an SSH host — an ~/.ssh/config alias or user@host[:port]. "
                          "Your own ssh does the work (keys, agent, jump hosts); the lab never asks for a password."));
    m_engine = new QLineEdit(m_target.remoteEngine);
    m_engine->setObjectName(QStringLiteral("runOnEngine"));
    m_engine->setMinimumWidth(80);
    m_engine->setToolTip(tr("The engine's path on the host (default: ddplab-engine on its PATH)"));
    m_launch = new QComboBox;
    m_launch->setObjectName(QStringLiteral("runOnLaunch"));
    m_launch->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_launch->setMinimumContentsLength(10);
    for (const LaunchTemplate& launch : launchTemplates())
        m_launch->addItem(launch.name);
    m_launch->setToolTip(tr("How each run starts: the engine's own launcher (one node), torchrun, or srun on a Slurm cluster"));
    m_launchCommand = new QLineEdit;
    m_launchCommand->setObjectName(QStringLiteral("runOnLaunchCommand"));
    m_launchCommand->setToolTip(tr("The command each run starts with, run by sh on the host; {engine}, {config} and {ranks} "
                                   "are filled in (docs/remote.md)"));
    m_launchCommand->setVisible(false);
    m_check = new QPushButton(tr("Check"));
    m_check->setToolTip(tr("Run `ddplab-engine devices` there and show what it has"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("runOnStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* hostRow = new QHBoxLayout;
    hostRow->addWidget(m_host, 1);
    hostRow->addWidget(m_check);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(8, 4, 8, 4);
    form->addRow(tr("Run on:"), hostRow);
    form->addRow(tr("Engine there:"), m_engine);
    form->addRow(tr("Launch:"), m_launch);
    form->addRow(m_launchCommand);
    form->addRow(m_status);
    m_engine->setEnabled(false);

    connect(m_host->lineEdit(), &QLineEdit::editingFinished, this, &RunTargetBox::apply);
    connect(m_host, &QComboBox::activated, this, &RunTargetBox::apply);
    connect(m_engine, &QLineEdit::editingFinished, this, &RunTargetBox::apply);
    connect(m_check, &QPushButton::clicked, this, &RunTargetBox::check);
    connect(m_launch, &QComboBox::activated, this, &RunTargetBox::applyLaunch);
    connect(m_launchCommand, &QLineEdit::editingFinished, this, &RunTargetBox::apply);
    connect(&m_query, &EngineQuery::finished, this, &RunTargetBox::onChecked);
}

bool RunTargetBox::chooseTarget(const QString& text, const QString& remoteEngine)
{
    m_host->setEditText(text.isEmpty() ? thisComputer() : text);
    if (!remoteEngine.isEmpty())
        m_engine->setText(remoteEngine);
    apply();
    return m_target.text() == (text == thisComputer() ? QString() : text.trimmed());
}

bool RunTargetBox::chooseLaunch(const QString& id)
{
    const LaunchTemplate* launch = findLaunchTemplate(id);
    if (!launch)
        return false;
    const int index = int(launch - launchTemplates().data());
    m_launch->setCurrentIndex(index);
    applyLaunch(index);
    return true;
}

void RunTargetBox::applyLaunch(int index)
{
    m_launchCommand->setText(launchTemplates().at(index).command);
    m_launchCommand->setVisible(!m_launchCommand->text().isEmpty());
    apply();
}

QString RunTargetBox::statusText() const
{
    return m_status->text();
}

void RunTargetBox::apply()
{
    const QString text = m_host->currentText().trimmed();
    const bool here = text.isEmpty() || text == thisComputer();
    QString error;
    const EngineTarget target = here ? EngineTarget() : parseEngineTarget(text, m_engine->text(), &error);
    m_engine->setEnabled(!here);
    // A host used before comes back with the engine path it had.
    const QString rememberedEngine = QSettings().value(kEngineSetting + text).toString();
    if (!here && !rememberedEngine.isEmpty() && m_engine->text() == EngineTarget().remoteEngine && rememberedEngine != m_engine->text()) {
        m_engine->setText(rememberedEngine);
        apply();
        return;
    }
    if (!error.isEmpty()) {
        m_status->setText(error);
        m_status->setStyleSheet(QStringLiteral("color: %1;").arg(QColor(kRefusalTextRgb).name()));
        return;
    }
    if (!here && m_engine->text().trimmed().isEmpty())
        m_engine->setText(target.remoteEngine);
    EngineTarget chosen = target;
    chosen.launcher = m_launchCommand->text().trimmed();
    chosen.runDirectory = chosen.launcher.isEmpty() ? QString() : launchTemplates().at(m_launch->currentIndex()).runDirectory;
    const bool sameMachine = chosen.host == m_target.host && chosen.port == m_target.port && chosen.remoteEngine == m_target.remoteEngine;
    if (chosen == m_target && !m_status->text().isEmpty())
        return;
    m_target = chosen;
    if (sameMachine && !m_status->text().isEmpty()) {
        emit targetChanged(m_target);  // only how runs start changed: the devices are the same
        return;
    }
    emit targetChanged(m_target);
    check();
}

void RunTargetBox::check()
{
    m_status->setStyleSheet(QString());
    m_status->setText(m_target.isRemote() ? tr("Asking %1 what it has…").arg(m_target.describe()) : tr("Asking the engine…"));
    const EngineCommand command = engineCommand(m_target, m_localEngine, {QStringLiteral("devices")});
    m_query.start(command.program, command.arguments);
}

void RunTargetBox::onChecked(const QueryResult& result)
{
    QueryResult explained = result;
    if (!result.ok && m_target.isRemote()) {
        const QString why = explainRemoteFailure(m_target, result.exitCode, result.stderrText);
        if (!why.isEmpty())
            explained.error = why;
    }
    if (explained.ok) {
        const DeviceInventory inventory = DeviceInventory::fromJson(result.object);
        m_status->setStyleSheet(QString());
        m_status->setText(tr("%1: %2 · engine %3, LibTorch %4")
                              .arg(m_target.describe(), inventory.shortDescription(), inventory.engineVersion(), inventory.torchVersion()));
        if (m_target.isRemote())
            remember(m_target);
    } else {
        m_status->setStyleSheet(QStringLiteral("color: %1;").arg(QColor(kRefusalTextRgb).name()));
        m_status->setText(explained.error);
    }
    emit checked(explained);
}

void RunTargetBox::remember(const EngineTarget& target)
{
    QSettings settings;
    QStringList hosts = settings.value(kHostsSetting).toStringList();
    hosts.removeAll(target.text());
    hosts.prepend(target.text());
    settings.setValue(kHostsSetting, hosts.mid(0, kRememberedHosts));
    settings.setValue(kEngineSetting + target.text(), target.remoteEngine);
    if (m_host->findText(target.text()) < 0)
        m_host->insertItem(1, target.text());
}

}  // namespace ddplab::ui
