// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's Advise page (docs/advisor.md, issue 28 §5): the advisor asked about Setup's
// settings (AdviseInputs), started and stopped here, its progress (every run moves the bar), time
// left and log lines; the card fills in as phases end, and when it is done, the recommendation on
// top (AdviceCard) and the evidence charts below (advice_charts), with Use these settings (Setup
// takes the recommendation), Copy as PyTorch and Save advice…. The advice itself is the one advice
// job (client/advisor/advice_job.hpp) that `ddplab --advise` runs too. It runs through the
// window's one LabSession, as the Study page does: it starts only while nothing else runs. Every
// finished advice is stored (AdviceStore) and listed under Past advice with its model and data,
// newest first; choosing one reopens it, a damaged one says why instead.

#include "client/advisor/advice.hpp"
#include "client/advisor/advice_store.hpp"
#include "core/config.hpp"
#include "plots/study_plot.hpp"

#include <QWidget>

#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QGridLayout;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
QT_END_NAMESPACE

namespace ddplab::ui {

class AdviceCard;
class DeviceInventory;
struct ModelInspection;
class AdviseInputs;
class AdviceJob;
class LabSession;
struct MachineSpeed;
class RunStore;
class StudyChartView;

class AdvisePage : public QWidget {
    Q_OBJECT

public:
    // `session` runs the advisor's runs (and whatever else the window runs); `setupConfig`
    // gives Setup's settings, asked for when the page is shown and when the advice starts.
    AdvisePage(const RunStore& store, LabSession& session, std::function<ddplab::Config()> setupConfig, QWidget* parent = nullptr);
    ~AdvisePage() override;
    // What the most batch per GPU's default is drawn from (batch_memory.hpp), asked for with
    // Setup's settings: the Run-on host's `devices` report and inspect's report on your own
    // model (null: none). Without them: this computer's memory, the engine's estimate.
    void setMemorySources(std::function<DeviceInventory()> runOn, std::function<const ModelInspection*()> inspection);

    // Starts the advisor on Setup's settings and the inputs; false, with the reason in one
    // sentence on the page (statusText()), when something else runs or the settings are refused.
    bool start();
    void stop();
    bool isRunning() const;

    // Shows a finished advice: the card, the charts (the range test's curve from its stored
    // run) and the buttons that use it.
    void showAdvice(const Advice& advice);
    const Advice& shownAdvice() const { return m_advice; }
    bool hasAdvice() const { return m_hasAdvice; }
    // advice.json, advice.md and every chart as PNG and SVG into `folder` (made when missing).
    bool saveTo(const QString& folder, QString* error) const;

    // Past advice, newest first, as listed; `row` reopened (false: it is damaged, and the card
    // says why).
    QListWidget* pastAdvice() const { return m_past; }
    void refreshPastAdvice();
    bool openPastAdvice(int row);
    // Resumes the stopped advice at `row` (its finished runs are taken, not run again); false,
    // with the reason on the page, when it is no stopped advice or it cannot start.
    bool resumePastAdvice(int row);
    const AdviceStore& adviceStore() const { return m_adviceStore; }

    AdviseInputs* inputs() const { return m_inputs; }
    AdviceCard* card() const { return m_card; }
    const QList<PlotSpec>& charts() const { return m_charts; }
    QString statusText() const;
    QString progressText() const;
    // How long the advice set up here would take (expectedAdviceSeconds, as `ddplab --advise`
    // says it), or the stopped one chosen under Past advice its resumption; -1 while one runs.
    double estimatedSeconds() const;

signals:
    // Use these settings: Setup takes `config` (the recommendation).
    void useSettingsRequested(const ddplab::Config& config);
    void logMessage(const QString& text, bool isWarning);
    void runsStored();    // an advisor's phase ended: the Runs list has new entries
    void adviceEnded(bool succeeded);

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void refreshInputs();
    void updateEstimate();
    void onProgress();
    void onPhaseEnded();
    void onFinished(bool succeeded);
    void updateButtons();
    void say(const QString& sentence, bool problem);
    void copySnippet();
    void saveInteractively();
    void showCharts(const QList<PlotSpec>& charts);
    void layOutCharts();
    void clearCharts();
    QList<QPointF> storedRangeCurve(const Advice& advice) const;

    const RunStore& m_store;
    LabSession& m_session;
    std::function<ddplab::Config()> m_setupConfig;
    std::function<DeviceInventory()> m_runOn;
    std::function<const ModelInspection*()> m_inspection;
    AdviceStore m_adviceStore;
    std::unique_ptr<AdviceJob> m_job;  // the one advice job, the same as ddplab --advise's
    std::unique_ptr<MachineSpeed> m_speed;  // this machine's, measured from the run store when the page is shown
    double m_estimate = -1.0;  // the advice's (or the resumed one's) seconds, said before and while it starts
    QList<StoredAdvice> m_stored;  // as m_past lists them
    int m_stoppedRow = -1;   // the stopped advice chosen under Past advice: Resume resumes it
    Advice m_advice;
    bool m_hasAdvice = false;
    QList<PlotSpec> m_charts;

    AdviseInputs* m_inputs = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_resume = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QListWidget* m_past = nullptr;
    QScrollArea* m_resultsScroll = nullptr;
    AdviceCard* m_card = nullptr;
    QPushButton* m_use = nullptr;
    QPushButton* m_copy = nullptr;
    QPushButton* m_save = nullptr;
    QWidget* m_chartBox = nullptr;
    QGridLayout* m_chartGrid = nullptr;
    QList<StudyChartView*> m_chartViews;
    int m_chartColumns = 0;
};

}  // namespace ddplab::ui
