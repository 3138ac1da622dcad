// SPDX-License-Identifier: GPL-3.0-or-later
#include "stored_runs.hpp"

#include "charts/run_model.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/script/script_source.hpp"
#include "client/session/lab_session.hpp"
#include "client/study/study_store.hpp"
#include "export/export_folder.hpp"
#include "export/export_service.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "window/chart_page.hpp"
#include "window/log_panel.hpp"
#include "window/notice_bar.hpp"
#include "window/script_clipboard.hpp"

#include <QDesktopServices>
#include <QInputDialog>
#include <QLocale>
#include <QMessageBox>
#include <QSet>
#include <QUrl>

namespace ddplab::ui {

StoredRuns::StoredRuns(const RunStore& store, RunModel& model, const LabSession& session, const LessonLibrary& lessons, Panes panes,
                       QWidget* dialogParent)
    : QObject(dialogParent), m_store(store), m_model(model), m_session(session), m_lessons(lessons), m_panes(panes),
      m_dialogParent(dialogParent)
{
    RunListPanel* list = &m_panes.list;
    connect(list, &RunListPanel::shownChanged, this, &StoredRuns::setShown);
    connect(list, &RunListPanel::renameRequested, this, &StoredRuns::rename);
    connect(list, &RunListPanel::deleteRequested, this, &StoredRuns::remove);
    connect(list, &RunListPanel::exportCsvRequested, this, &StoredRuns::exportCsv);
    connect(list, &RunListPanel::exportPresetRequested, this, &StoredRuns::exportPreset);
    connect(list, &RunListPanel::copyScriptRequested, this, &StoredRuns::copyScript);
    connect(list, &RunListPanel::loadSettingsRequested, this, &StoredRuns::loadSettings);
    connect(list, &RunListPanel::openFolderRequested, this,
            [](const RunRecord& run) { QDesktopServices::openUrl(QUrl::fromLocalFile(run.directory)); });
}

void StoredRuns::reload()
{
    const QList<RunRecord> runs = m_store.listRuns();
    updateGroupTitles(runs);
    m_panes.list.setRuns(runs);
    for (const DisplayedRun& run : m_model.runs()) {
        m_panes.list.setShown(run.data->id(), true);
        m_panes.list.setRunColor(run.data->id(), run.color);
    }
}

void StoredRuns::update(const RunRecord& run)
{
    if (run.belongsToStudy() && !m_titles.studies.contains(run.studyId))
        updateGroupTitles(m_store.listRuns());
    m_panes.list.updateRun(run);
}

// Lessons by their titles; studies too, with the day and time they were made when two share one.
void StoredRuns::updateGroupTitles(const QList<RunRecord>& runs)
{
    RunGroupTitles titles;
    for (const Lesson& lesson : m_lessons.lessons())
        titles.lessons.insert(lesson.id, lesson.title);
    QSet<QString> studyIds;
    for (const RunRecord& run : runs) {
        if (run.belongsToStudy())
            studyIds.insert(run.studyId);
    }
    const StudyStore studies;
    QHash<QString, StoredStudy> known;
    QHash<QString, int> sameTitle;
    for (const QString& id : studyIds) {
        QString error;
        if (const std::optional<StoredStudy> study = studies.open(id, &error)) {
            known.insert(id, *study);
            ++sameTitle[study->title()];
        }
    }
    for (const StoredStudy& study : known) {
        const bool twin = sameTitle.value(study.title()) > 1;
        titles.studies.insert(study.id, twin ? QStringLiteral("%1 (%2)").arg(study.title(), QLocale().toString(study.created, QStringLiteral("d MMM HH:mm")))
                                             : study.title());
    }
    m_titles = titles;
    m_panes.list.setGroupTitles(titles);
}

void StoredRuns::setShown(const RunRecord& run, bool shown)
{
    if (!shown) {
        m_model.removeRun(run.id);
        m_panes.list.setRunColor(run.id, QColor());
        return;
    }
    const QSharedPointer<RunData> live = m_session.currentRun();
    if (live && live->id() == run.id) {
        m_model.addRun(live);
        return;
    }
    const QSharedPointer<RunData> loaded = m_store.loadRun(run);
    reportReadingProblems(*loaded);
    m_model.addRun(loaded);
}

void StoredRuns::showOnCharts(const QList<RunRecord>& runs)
{
    // The study's runs in place of what was on display, not beside it.
    for (const DisplayedRun& shown : m_model.runs()) {
        m_panes.list.setShown(shown.data->id(), false);
        m_panes.list.setRunColor(shown.data->id(), QColor());
    }
    m_model.clear();
    m_panes.charts.setXAxis(XAxis::SamplesSeen);
    for (const RunRecord& run : runs) {
        setShown(run, true);
        m_panes.list.setShown(run.id, true);
    }
    emit chartsWanted();
}

void StoredRuns::reportReadingProblems(const RunData& run)
{
    // Said once, in the Log: a stored run shows as far as it reads.
    for (const QString& problem : run.loadProblems())
        m_panes.log.appendMessage(tr("\"%1\": %2").arg(run.record().name, problem), true);
    if (run.skippedValueCount() > 0)
        m_panes.log.appendMessage(tr("\"%1\": skipped %2 value(s) that cannot be right, not plotted (the first: %3)")
                                      .arg(run.record().name)
                                      .arg(run.skippedValueCount())
                                      .arg(run.firstSkippedValue()),
                                  true);
}

void StoredRuns::loadSettings(const RunRecord& run)
{
    const QSharedPointer<RunData> data = dataOf(run);
    const QJsonObject preset = presetFromConfig(data->effectiveConfig());
    if (preset.isEmpty()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Warning, tr("\"%1\" has no stored settings").arg(run.name));
        return;
    }
    m_panes.parameters.setValues(preset);
    m_panes.log.appendMessage(tr("Loaded the settings of \"%1\"").arg(run.name));
}

void StoredRuns::rename(const RunRecord& run)
{
    bool accepted = false;
    const QString name = QInputDialog::getText(m_dialogParent, tr("Rename Run"), tr("Name:"), QLineEdit::Normal, run.name, &accepted);
    if (!accepted)
        return;
    RunRecord renamed = run;
    QString error;
    if (!m_store.renameRun(renamed, name, &error)) {
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Cannot rename the run"), error);
        return;
    }
    if (const QSharedPointer<RunData> data = displayed(run.id)) {
        data->record().name = renamed.name;
        data->record().label = renamed.label;
        m_model.notifyLabelsChanged();  // legends follow the new name
    }
    m_panes.list.updateRun(renamed);
}

void StoredRuns::remove(const QList<RunRecord>& runs)
{
    // The run in progress keeps its folder: it is still being written.
    const QSharedPointer<RunData> live = m_session.isRunning() ? m_session.currentRun() : nullptr;
    QList<RunRecord> deletable;
    for (const RunRecord& run : runs) {
        if (!(live && live->id() == run.id))
            deletable.append(run);
    }
    if (deletable.isEmpty())
        return;
    const QString question = deletable.size() == 1 ? tr("Delete the run \"%1\"? Its folder and events are removed.").arg(deletable.first().name)
                                                   : tr("Delete %1 runs? Their folders and events are removed.").arg(deletable.size());
    if (QMessageBox::question(m_dialogParent, tr("Delete Runs"), question) != QMessageBox::Yes)
        return;
    for (const RunRecord& run : deletable) {
        m_model.removeRun(run.id);
        QString error;
        if (!m_store.removeRun(run, &error))
            m_panes.log.appendMessage(error, true);
    }
    reload();
}

QSharedPointer<RunData> StoredRuns::displayed(const QString& runId) const
{
    for (const DisplayedRun& run : m_model.runs()) {
        if (run.data->id() == runId)
            return run.data;
    }
    return nullptr;
}

QSharedPointer<RunData> StoredRuns::dataOf(const RunRecord& run) const
{
    // A run on the charts may be newer than its files (still streaming): take that one.
    const QSharedPointer<RunData> shown = displayed(run.id);
    return shown ? shown : m_store.loadRun(run);
}

void StoredRuns::exportCsv(const RunRecord& run)
{
    const QSharedPointer<RunData> data = dataOf(run);
    const QString path = askSavePath(m_dialogParent, tr("Export Run Metrics"), run.name, QStringLiteral(".csv"), tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    QString label = run.name;
    for (const DisplayedRun& shown : m_model.runs()) {
        if (shown.data->id() == run.id)
            label = shown.label;
    }
    if (ExportService::exportRunCsv(*data, label, path, &error))
        m_panes.log.appendMessage(tr("Exported %1 steps of \"%2\" to %3").arg(data->stepCount()).arg(run.name, path));
    else
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

void StoredRuns::exportCsvOfChosenRun()
{
    const QList<RunRecord> selected = m_panes.list.selectedRuns();
    if (selected.size() == 1) {
        exportCsv(selected.first());
        return;
    }
    const QList<DisplayedRun>& shown = m_model.runs();
    if (shown.isEmpty()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Information, tr("No run to export"),
                                  tr("Run something, or tick or select a run in the Runs list, then export its metrics."));
        return;
    }
    if (shown.size() == 1) {
        exportCsv(shown.first().data->record());
        return;
    }
    QStringList labels;
    for (const DisplayedRun& run : shown)
        labels.append(run.label);
    bool chosen = false;
    const QString label = QInputDialog::getItem(m_dialogParent, tr("Export Run Metrics"), tr("Which run's metrics?"), labels,
                                                int(labels.size()) - 1, false, &chosen);
    if (chosen)
        exportCsv(shown.at(labels.indexOf(label)).data->record());
}

void StoredRuns::exportPreset(const RunRecord& run)
{
    const QSharedPointer<RunData> data = dataOf(run);
    const QString path =
        askSavePath(m_dialogParent, tr("Export Run Config as Preset"), run.name, QStringLiteral(".json"), tr("Presets (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (ExportService::exportRunPreset(*data, path, &error))
        m_panes.log.appendMessage(tr("Saved the config of \"%1\" as the preset %2").arg(run.name, path));
    else
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
}

void StoredRuns::copyScript(const RunRecord& run)
{
    const ScriptSource source = scriptSourceOfRun(run);
    const CopiedScript copied = source.error.isEmpty() ? copyPyTorchScript(source.settings, source.title) : CopiedScript{false, source.error};
    if (copied.copied)
        m_panes.log.appendMessage(copied.message);
    else
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Cannot copy \"%1\" as a PyTorch script").arg(run.name), copied.message);
}

}  // namespace ddplab::ui
