#pragma once
// The stored runs, as the Runs list offers them: shown on the charts or not, renamed, deleted,
// their settings loaded into Setup, their metrics or config exported; a study's runs put on the
// chart page. Owns what the Runs list asks for; the window only hands it the panes.

#include "client/runs/run_record.hpp"

#include <QObject>
#include <QSharedPointer>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartPage;
class LabSession;
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
    // `dialogParent` owns the dialogs it opens (rename, delete, save).
    StoredRuns(const RunStore& store, RunModel& model, const LabSession& session, Panes panes, QWidget* dialogParent);

    void reload();
    void setShown(const RunRecord& run, bool shown);
    // A study's runs on the chart page (on samples seen: their batches differ).
    void showOnCharts(const QList<RunRecord>& runs);
    // What could not be read of a run, said once in the Log.
    void reportReadingProblems(const RunData& run);

    void exportCsv(const RunRecord& run);
    void exportPreset(const RunRecord& run);
    void loadSettings(const RunRecord& run);
    void rename(const RunRecord& run);
    void remove(const QList<RunRecord>& runs);

signals:
    void chartsWanted();  // showOnCharts put runs on the chart page: show it

private:
    QSharedPointer<RunData> displayed(const QString& runId) const;
    QSharedPointer<RunData> dataOf(const RunRecord& run) const;  // displayed, else loaded from disk

    const RunStore& m_store;
    RunModel& m_model;
    const LabSession& m_session;
    Panes m_panes;
    QWidget* m_dialogParent;
};

}  // namespace ddplab::ui
