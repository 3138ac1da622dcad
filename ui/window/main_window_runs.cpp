// MainWindow, continued: the stored runs of the Runs list (show, rename, delete, load their
// settings, export their metrics or config), finding a run's data, and a study's runs put on
// the chart page.

#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/session/lab_session.hpp"
#include "export/export_service.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "study_view/study_page.hpp"
#include "window/chart_page.hpp"
#include "window/log_panel.hpp"
#include "window/main_window.hpp"
#include "window/notice_bar.hpp"

#include <QInputDialog>
#include <QMessageBox>
#include <QTabWidget>

namespace ddplab::ui {

void MainWindow::reloadRunList()
{
    m_runList->setRuns(m_store.listRuns());
    for (const DisplayedRun& run : m_model.runs()) {
        m_runList->setShown(run.data->id(), true);
        m_runList->setRunColor(run.data->id(), run.color);
    }
}

void MainWindow::setRunShown(const RunRecord& run, bool shown)
{
    if (!shown) {
        m_model.removeRun(run.id);
        m_runList->setRunColor(run.id, QColor());
        return;
    }
    const QSharedPointer<RunData> live = m_session->currentRun();
    if (live && live->id() == run.id) {
        m_model.addRun(live);
        return;
    }
    const QSharedPointer<RunData> loaded = m_store.loadRun(run);
    reportReadingProblems(*loaded);
    m_model.addRun(loaded);
}

void MainWindow::reportReadingProblems(const RunData& run)
{
    // Said once, in the Log: a stored run shows as far as it reads.
    for (const QString& problem : run.loadProblems())
        m_log->appendMessage(tr("\"%1\": %2").arg(run.record().name, problem), true);
    if (run.skippedValueCount() > 0)
        m_log->appendMessage(tr("\"%1\": skipped %2 value(s) that cannot be right, not plotted (the first: %3)")
                                 .arg(run.record().name)
                                 .arg(run.skippedValueCount())
                                 .arg(run.firstSkippedValue()),
                             true);
}

void MainWindow::loadRunSettings(const RunRecord& run)
{
    const QSharedPointer<RunData> data = runData(run);
    const QJsonObject preset = presetFromConfig(data->effectiveConfig());
    if (preset.isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Warning, tr("\"%1\" has no stored settings").arg(run.name));
        return;
    }
    m_parameters->setValues(preset);
    m_log->appendMessage(tr("Loaded the settings of \"%1\"").arg(run.name));
}

void MainWindow::renameRun(const RunRecord& run)
{
    bool accepted = false;
    const QString name = QInputDialog::getText(this, tr("Rename Run"), tr("Name:"), QLineEdit::Normal, run.name, &accepted);
    if (!accepted)
        return;
    RunRecord renamed = run;
    QString error;
    if (!m_store.renameRun(renamed, name, &error)) {
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Cannot rename the run"), error);
        return;
    }
    if (const QSharedPointer<RunData> data = displayedRun(run.id)) {
        data->record().name = renamed.name;
        data->record().label = renamed.label;
        m_model.notifyLabelsChanged();  // legends follow the new name
    }
    m_runList->updateRun(renamed);
}

void MainWindow::deleteRuns(const QList<RunRecord>& runs)
{
    const QSharedPointer<RunData> live = m_session->currentRun();
    QList<RunRecord> deletable;
    for (const RunRecord& run : runs) {
        if (!(isRunning() && live && live->id() == run.id))
            deletable.append(run);
    }
    if (deletable.isEmpty())
        return;
    const QString question = deletable.size() == 1 ? tr("Delete the run \"%1\"? Its folder and events are removed.").arg(deletable.first().name)
                                                   : tr("Delete %1 runs? Their folders and events are removed.").arg(deletable.size());
    if (QMessageBox::question(this, tr("Delete Runs"), question) != QMessageBox::Yes)
        return;
    for (const RunRecord& run : deletable) {
        m_model.removeRun(run.id);
        QString error;
        if (!m_store.removeRun(run, &error))
            m_log->appendMessage(error, true);
    }
    reloadRunList();
}

QSharedPointer<RunData> MainWindow::displayedRun(const QString& runId) const
{
    for (const DisplayedRun& run : m_model.runs()) {
        if (run.data->id() == runId)
            return run.data;
    }
    return nullptr;
}

QSharedPointer<RunData> MainWindow::runData(const RunRecord& run) const
{
    // A run on the charts may be newer than its files (still streaming): take that one.
    const QSharedPointer<RunData> shown = displayedRun(run.id);
    return shown ? shown : m_store.loadRun(run);
}

void MainWindow::exportRunCsv(const RunRecord& run)
{
    const QSharedPointer<RunData> data = runData(run);
    const QString path = askSavePath(tr("Export Run Metrics"), run.name, QStringLiteral(".csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    QString label = run.name;
    for (const DisplayedRun& shown : m_model.runs()) {
        if (shown.data->id() == run.id)
            label = shown.label;
    }
    if (ExportService::exportRunCsv(*data, label, path, &error))
        m_log->appendMessage(tr("Exported %1 steps of \"%2\" to %3").arg(data->stepCount()).arg(run.name, path));
    else
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

void MainWindow::exportRunPreset(const RunRecord& run)
{
    const QSharedPointer<RunData> data = runData(run);
    const QString path = askSavePath(tr("Export Run Config as Preset"), run.name, QStringLiteral(".json"), tr("Presets (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (ExportService::exportRunPreset(*data, path, &error))
        m_log->appendMessage(tr("Saved the config of \"%1\" as the preset %2").arg(run.name, path));
    else
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

void MainWindow::showStudy(const QString& id)
{
    m_studyPage->chooseStudy(id, nullptr);
    m_tabs->setCurrentWidget(m_studyPage);
}

void MainWindow::showRunsOnCharts(const QList<RunRecord>& runs)
{
    // A study's runs differ in batch: samples seen puts them on one x (issue: unlike batches).
    m_chartPage->setXAxis(XAxis::SamplesSeen);
    for (const RunRecord& run : runs) {
        setRunShown(run, true);
        m_runList->setShown(run.id, true);
    }
    m_tabs->setCurrentWidget(m_chartPage);
}

}  // namespace ddplab::ui
