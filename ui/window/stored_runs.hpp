// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The stored runs, as the Runs list offers them: shown on the charts or not, renamed, deleted,
// their settings loaded into Setup, their metrics or config exported; a study's runs put on the
// chart page. Owns what the Runs list asks for; the window only hands it the panes.

#include "client/runs/run_groups.hpp"
#include "client/runs/run_record.hpp"

#include <QObject>
#include <QSharedPointer>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartPage;
class LabSession;
class LessonLibrary;
class LogPanel;
class NoticeBar;
class ParameterPanel;
class RunData;
class RunListPanel;
class RunModel;
class RunStore;

class StoredRuns : public QObject {
    Q_OBJECT

public:
    struct Panes {
        RunListPanel& list;
        ParameterPanel& parameters;
        ChartPage& charts;
        LogPanel& log;
        NoticeBar& notice;
    };
    // `dialogParent` owns the dialogs it opens (rename, delete, save); `lessons` name the
    // groups of their runs in the list.
    StoredRuns(const RunStore& store, RunModel& model, const LabSession& session, const LessonLibrary& lessons, Panes panes,
               QWidget* dialogParent);

    // Lists the stored runs again, grouped under their studies and lessons.
    void reload();
    // A run that started or ended: its row (and its group's, a new study's titled).
    void update(const RunRecord& run);
    void setShown(const RunRecord& run, bool shown);
    // A study's runs on the chart page (on samples seen: their batches differ).
    void showOnCharts(const QList<RunRecord>& runs);
    // What could not be read of a run, said once in the Log.
    void reportReadingProblems(const RunData& run);

    void exportCsv(const RunRecord& run);
    // Ctrl+Shift+E: the run selected in the list, else the one on the charts, else asks which
    // of those on the charts.
    void exportCsvOfChosenRun();
    void exportPreset(const RunRecord& run);
    void copyScript(const RunRecord& run);  // its settings as a PyTorch script, on the clipboard
    void loadSettings(const RunRecord& run);
    void rename(const RunRecord& run);
    void remove(const QList<RunRecord>& runs);

signals:
    void chartsWanted();  // showOnCharts put runs on the chart page: show it

private:
    QSharedPointer<RunData> displayed(const QString& runId) const;
    QSharedPointer<RunData> dataOf(const RunRecord& run) const;  // displayed, else loaded from disk
    void updateGroupTitles(const QList<RunRecord>& runs);

    const RunStore& m_store;
    RunModel& m_model;
    const LabSession& m_session;
    const LessonLibrary& m_lessons;
    RunGroupTitles m_titles;
    Panes m_panes;
    QWidget* m_dialogParent;
};

}  // namespace ddplab::ui
