// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_files.hpp"

#include "client/runs/run_store.hpp"
#include "client/study/study_tensorboard.hpp"
#include "client/tensorboard/tensorboard_stream.hpp"
#include "export/export_folder.hpp"
#include "runs/run_list_panel.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"
#include "window/window_settings.hpp"

#include <QAction>
#include <QDir>
#include <QFileDialog>

namespace ddplab::ui {

TensorBoardFiles::TensorBoardFiles(const RunStore& store, const LabSession& session, const LabActions& actions, Panes panes,
                                   QWidget* dialogParent)
    : QObject(dialogParent)
    , m_store(store)
    , m_actions(actions)
    , m_panes(panes)
    , m_dialogParent(dialogParent)
    , m_stream(new TensorBoardStream(session, this))
{
    connect(actions.exportTensorBoard, &QAction::triggered, this, &TensorBoardFiles::exportInteractively);
    connect(actions.streamTensorBoard, &QAction::toggled, this, &TensorBoardFiles::setStreaming);
    connect(m_stream, &TensorBoardStream::problem, this, [this](const QString& message) { m_panes.log.appendMessage(message, true); });
}

void TensorBoardFiles::exportInteractively()
{
    const QString directory = QFileDialog::getExistingDirectory(m_dialogParent, tr("Export Runs to TensorBoard"), lastExportFolder());
    if (directory.isEmpty())
        return;
    rememberExportFolder(directory);
    exportTo(directory);
}

QString TensorBoardFiles::exportTo(const QString& directory)
{
    QList<RunRecord> runs = m_panes.list.selectedRuns();
    if (runs.isEmpty())
        runs = m_store.listRuns();
    const TensorBoardExport done = exportToTensorBoard(tensorBoardSourcesOf(runs, StudyStore()), m_store, directory);
    for (const QString& problem : done.problems + done.warnings)
        m_panes.log.appendMessage(tr("TensorBoard: %1").arg(problem), true);
    QString said = done.runs == 1 ? tr("Wrote 1 TensorBoard run") : tr("Wrote %1 TensorBoard runs").arg(done.runs);
    if (done.studies > 0)
        said += done.studies == 1 ? tr(" (1 study with its hyperparameters)") : tr(" (%1 studies with their hyperparameters)").arg(done.studies);
    said += tr(" to %1: open them with tensorboard --logdir %1").arg(QDir::toNativeSeparators(directory));
    m_panes.log.appendMessage(said, !done.problems.isEmpty());
    return said;
}

void TensorBoardFiles::setStreaming(bool on)
{
    if (on == isStreaming())
        return;
    m_stream->setFolder(on ? streamFolder() : QString());
    if (m_actions.streamTensorBoard->isChecked() != on)
        m_actions.streamTensorBoard->setChecked(on);
    if (on)
        m_panes.log.appendMessage(tr("New runs write TensorBoard files into %1 as they stream: tensorboard --logdir %1")
                                      .arg(QDir::toNativeSeparators(streamFolder())));
}

bool TensorBoardFiles::isStreaming() const
{
    return m_stream->isOn();
}

QString TensorBoardFiles::streamFolder() const
{
    return m_streamFolder.isEmpty() ? TensorBoardStream::defaultFolder() : m_streamFolder;
}

void TensorBoardFiles::restore(const WindowSettings& settings)
{
    m_streamFolder = settings.tensorBoardFolder;
    m_actions.streamTensorBoard->setToolTip(
        tr("Write each new run's scalars as TensorBoard files into %1 as they arrive").arg(QDir::toNativeSeparators(streamFolder())));
    setStreaming(settings.tensorBoardStream);
}

void TensorBoardFiles::saveInto(WindowSettings& settings) const
{
    settings.tensorBoardStream = isStreaming();
    settings.tensorBoardFolder = m_streamFolder;
}

}  // namespace ddplab::ui
