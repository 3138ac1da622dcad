// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's Study page: choose a study (a built-in one, a file, or the Setup pane's settings
// with axes of one's own), see how many runs it makes and roughly how long they take, run it,
// stop it, resume it, and reopen the studies that ran before; the charts fill in as runs end.
// A study's runs are ordinary stored runs: the page can put any of them on the chart page.
// It runs through the window's one LabSession (a StudyRunner on it): while the session runs
// anything, the page's Run and Resume wait, and the window's Run waits while a study runs.

#include "client/runs/run_record.hpp"
#include "client/study/study_estimate.hpp"
#include "client/study/study_library.hpp"
#include "client/study/study_results.hpp"
#include "client/study/study_store.hpp"
#include "plots/image_writer.hpp"

#include <QSharedPointer>
#include <QWidget>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
QT_END_NAMESPACE

namespace ddplab::ui {

class LabSession;
class OwnModelSteps;
class PastStudiesBox;
class RunData;
class RunStore;
class StudyEditor;
class StudyResultsView;
class StudyRunner;

class StudyPage : public QWidget {
    Q_OBJECT

public:
    // `session` runs the studies (and whatever else the window runs); `setupSettings` gives
    // the Setup pane's settings when the person builds on them.
    StudyPage(const RunStore& store, LabSession& session, std::function<QJsonObject()> setupSettings,
              QWidget* parent = nullptr);
    ~StudyPage() override;

    // True while the session runs this page's study.
    bool isRunning() const;
    void stop();

    // Chooses the built-in study `nameOrPath`, or reads a study file; false (with `error`) when
    // neither works.
    bool chooseStudy(const QString& nameOrPath, QString* error);
    // Creates the study folder and runs what the page shows; a plan larger than the confirm
    // limit asks first unless `confirmed`. False (with the reason shown) when nothing started.
    bool runStudy(bool confirmed = false);
    bool resumeStudy(const QString& idOrDirectory);
    // The shown study's charts (PNG and SVG), study.csv and findings.txt into `directory`,
    // made when it does not exist; false with `error` when something cannot be written.
    bool exportTo(const QString& directory, ImageFormat format, QString* error);

    StudyEditor* editor() const { return m_editor; }
    StudyResultsView* results() const { return m_results; }
    QString planText() const;
    QString progressText() const;
    std::optional<StoredStudy> currentStudy() const { return m_current; }
    const StudyLibrary& library() const { return m_library; }

signals:
    // The study's runner has let the session go: its progress and ending are shown. Whether
    // the lab is busy is its one busy state (LabSession::activity()), not this.
    void studyEnded();
    void runsStored();  // a study run ended: the Runs list has new entries
    void showRunsRequested(const QList<ddplab::ui::RunRecord>& runs);
    void logMessage(const QString& text, bool isWarning);

private:
    // How fast this machine runs against the estimator's constants, from its recent runs.
    MachineSpeed machineSpeed() const;
    void sourceChosen(int index);
    void showSpec(const StudySpec& spec, const QString& folder);
    void showFileInChooser(const QString& path, const QString& title);
    void openStudyFile();
    void updatePlan();
    bool sessionBusy() const;
    void refreshPastStudies();
    QString endingText(bool allSucceeded) const;
    void openPastStudy(const QString& id);
    void showStudy(const StoredStudy& study);
    // The right side follows the study chosen on the left, never another: the newest time it
    // ran here, else its plan with no run yet (Export… and Show runs then wait for one).
    void showChosen(const StudySpec& spec);
    void showUnrun(const StudySpec& spec);
    void addResult(const QSharedPointer<RunData>& run);
    void startRunner(const StoredStudy& study);
    void onRunnerFinished(bool allSucceeded);
    void exportCharts();
    void showRunsOnCharts();
    void updateButtons();

    const RunStore& m_store;
    mutable std::optional<MachineSpeed> m_speed;  // this machine against the estimator's, measured once per study
    OwnModelSteps* m_ownSteps = nullptr;           // your own models' steps, timed by inspect for the estimate
    std::function<QJsonObject()> m_setupSettings;
    StudyLibrary m_library;
    StudyStore m_studies;
    std::unique_ptr<StudyRunner> m_runner;
    std::optional<StoredStudy> m_current;  // the study the charts show
    QList<StudyRunResult> m_currentResults;  // its runs' results, by point
    bool m_planOk = false;                   // the editor's study plans without a problem

    QComboBox* m_source = nullptr;
    QLabel* m_about = nullptr;
    StudyEditor* m_editor = nullptr;
    QLabel* m_plan = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_resume = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_showRuns = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    PastStudiesBox* m_past = nullptr;
    StudyResultsView* m_results = nullptr;
};

}  // namespace ddplab::ui
