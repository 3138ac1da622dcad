// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_starter.hpp"

#include "charts/chart_grid.hpp"
#include "charts/run_model.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_request.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/preset_resolver.hpp"
#include "client/wire.hpp"
#include "runs/comparison_table.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "window/chart_page.hpp"
#include "window/notice_bar.hpp"
#include "window/stored_runs.hpp"

#include <QAction>
#include <QTabWidget>

namespace ddplab::ui {

RunStarter::RunStarter(LabSession& session, RunModel& model, const LessonLibrary& lessons, const QAction& keepRuns, Panes panes,
                       std::function<void(const QString& lessonId)> showLesson, QObject* parent)
    : QObject(parent)
    , m_session(session)
    , m_model(model)
    , m_lessons(lessons)
    , m_keepRuns(keepRuns)
    , m_panes(panes)
    , m_showLesson(std::move(showLesson))
{
    connect(&m_session, &LabSession::runStarted, this, [this](int, const QSharedPointer<RunData>& run) { onRunStarted(run); });
    connect(&m_session, &LabSession::runFinished, this, [this](int, const QSharedPointer<RunData>& run) { onRunFinished(run); });
}

void RunStarter::startRun()
{
    if (m_session.activity().isBusy())
        return;
    ParameterPanel& parameters = m_panes.parameters;
    if (!parameters.isValid()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Warning, tr("Some settings need attention before Run"),
                                  tr("The fields marked in the Setup panel say what the engine allows."));
        return;
    }
    m_panes.charts.grid()->setThroughputModel(std::nullopt);  // a model is a lesson's
    // Unnamed: the store names it from the JSON its settings become there (once per Run).
    startSequence({{QString(), QString(), QString(), parameters.config()}});
}

void RunStarter::startLesson(const QString& lessonId)
{
    if (m_session.activity().isBusy())
        return;
    const ResolvedPreset resolved = resolvePreset(lessonId, m_lessons, PresetLibrary());
    if (!resolved.error.isEmpty() || resolved.lessonId.isEmpty()) {
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Cannot run the lesson \"%1\"").arg(lessonId), resolved.error);
        return;
    }
    m_showLesson(lessonId);
    m_panes.charts.grid()->setThroughputModel(resolved.throughputModel);
    startSequence(resolved.runs, resolved.chartMetrics, resolved.xAxis);
}

void RunStarter::startSequence(const QList<RunRequest>& requests, const QStringList& chartMetrics, std::optional<XAxis> xAxis)
{
    m_panes.notice.dismiss();
    if (!m_keepRuns.isChecked()) {
        for (const DisplayedRun& run : m_model.runs()) {
            m_panes.runList.setShown(run.data->id(), false);
            m_panes.runList.setRunColor(run.data->id(), QColor());
        }
        m_model.clear();
    }
    m_panes.charts.grid()->setFocusCharts(chartsForMetrics(chartMetrics));
    if (xAxis)
        m_panes.charts.setXAxis(*xAxis);
    m_panes.pages.setCurrentIndex(0);
    m_session.start(requests);
}

void RunStarter::onRunStarted(const QSharedPointer<RunData>& run)
{
    // The row first, so that the colour the model gives the run lands on it.
    m_panes.storedRuns.update(run->record());
    if (run->record().belongsToStudy())
        return;  // the Study page draws a study's runs; the chart page shows them when asked
    m_panes.runList.setShown(run->id(), true);  // the model shows it next (RunModel::follow)
}

void RunStarter::onRunFinished(const QSharedPointer<RunData>& run)
{
    const RunRecord& record = run->record();
    m_panes.storedRuns.update(record);
    if (record.belongsToStudy())
        return;  // the Study page reports its runs
    m_panes.comparison.refresh();
    m_panes.storedRuns.reportReadingProblems(*run);
    if (record.status == RunStatus::Failed) {
        QString details = record.error;
        if (record.exitCode > 0)
            details += tr("\n(engine exit code %1; its messages are in the Log below and in %2)")
                           .arg(record.exitCode)
                           .arg(RunStore::stderrPath(record));
        m_panes.notice.showNotice(NoticeBar::Kind::Error, tr("Run \"%1\" failed").arg(run->label()), details);
        const QString key = run->error().value(wire(field::kKey)).toString();
        if (!key.isEmpty() && m_panes.parameters.editor(key))
            m_panes.parameters.showEngineProblem(key, record.error);
    } else if (record.status == RunStatus::Cancelled) {
        m_panes.notice.showNotice(NoticeBar::Kind::Information, tr("Run \"%1\" stopped").arg(run->label()),
                                  tr("%1 steps were recorded; the run stays in the Runs list.").arg(run->stepCount()));
    }
}

}  // namespace ddplab::ui
