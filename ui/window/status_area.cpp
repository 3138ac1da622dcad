// SPDX-License-Identifier: GPL-3.0-or-later
#include "status_area.hpp"

#include "charts/run_model.hpp"
#include "client/engine/device_inventory.hpp"
#include "client/runs/run_data.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/run_progress.hpp"
#include "client/wire.hpp"
#include "theme/message_colors.hpp"
#include "window/eliding_label.hpp"

#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace ddplab::ui {
namespace {

constexpr int kRefreshMs = 250;  // progress and time remaining, between events
constexpr int kProgressBarWidth = 140;

// The word beside the bar for how the last sequence ended.
QString outcomeWord(RunStatus status)
{
    switch (status) {
    case RunStatus::Cancelled:
        return StatusArea::tr("stopped");
    case RunStatus::Failed:
        return StatusArea::tr("failed");
    default:
        return StatusArea::tr("done");
    }
}

}  // namespace

StatusArea::StatusArea(QStatusBar& bar, const LabSession& session, const DeviceInventory& inventory, const RunModel& model)
    : QObject(&bar), m_session(session), m_inventory(inventory), m_model(model)
{
    m_status = new ElidingLabel;
    // The progress text beside the bar, not on it: a fill never covers it.
    m_progressText = new QLabel;
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setTextVisible(false);
    m_progress->setFixedWidth(kProgressBarWidth);
    bar.addWidget(m_status, 1);
    bar.addPermanentWidget(m_progressText);
    bar.addPermanentWidget(m_progress);

    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &StatusArea::refresh);
    connect(&session, &LabSession::runningChanged, this, [this](bool running) {
        if (running)
            m_refresh.start();
        else
            m_refresh.stop();
        refresh();
    });
    connect(&session, &LabSession::runStarted, this, &StatusArea::refresh);
}

void StatusArea::sequenceEnded(RunStatus lastStatus)
{
    m_lastOutcome = lastStatus;
    refresh();
}

void StatusArea::setRunBlocked(const QString& reason)
{
    if (reason == m_runBlocked)
        return;
    m_runBlocked = reason;
    // In the colours the Setup pane marks problems with (lighter on a dark theme).
    m_status->setStyleSheet(reason.isEmpty() ? QString() : QStringLiteral("color: %1;").arg(problemTextColor(m_status->palette()).name()));
    refresh();
}

void StatusArea::refresh()
{
    const QSharedPointer<RunData> run = m_session.currentRun();
    if (!m_session.isRunning() || !run) {
        if (!m_runBlocked.isEmpty())
            m_status->setFullText(m_runBlocked);
        else
            m_status->setFullText(m_inventory.isKnown() ? tr("Ready · %1 · engine %2, LibTorch %3")
                                                              .arg(m_inventory.shortDescription(), m_inventory.engineVersion(),
                                                                   m_inventory.torchVersion())
                                                        : tr("Ready"));
        m_progress->setValue(m_lastOutcome == RunStatus::Finished ? 100 : 0);
        m_progressText->setText(m_model.runs().isEmpty() || !m_lastOutcome ? tr("idle") : outcomeWord(*m_lastOutcome));
        return;
    }
    const QJsonObject config = run->config();
    QStringList parts;
    if (!config.isEmpty()) {
        const QString backend = config.value(wire(key::kBackend)).toString();
        parts.append(tr("%1 backend").arg(backend == wire(choice::backend::kNccl) ? QStringLiteral("NCCL") : QStringLiteral("Gloo")));
        parts.append(tr("%1 ranks on %2")
                         .arg(config.value(wire(key::kWorldSize)).toInt())
                         .arg(config.value(wire(field::kDeviceName)).toString()));
    }
    if (const double throughput = recentThroughput(*run); throughput > 0)
        parts.append(tr("%L1 samples/s").arg(throughput, 0, 'f', 0));
    parts.append(m_inventory.shortDescription());
    m_status->setFullText(parts.join(QStringLiteral(" · ")));
    const RunProgress progress = m_session.progress();
    m_progress->setValue(progress.percent);
    m_progressText->setText(progress.text);
}

QString StatusArea::statusText() const
{
    return m_status->fullText();
}

QString StatusArea::progressText() const
{
    return m_progressText->text();
}

}  // namespace ddplab::ui
