// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's status bar: what the engine's machine is and, while something runs, its backend,
// ranks and throughput; beside the progress bar, where the run is and how long it has to go
// (refreshed between events), or how the last thing ended.

#include "client/runs/run_record.hpp"

#include <QObject>
#include <QTimer>

#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QStatusBar;
QT_END_NAMESPACE

namespace ddplab::ui {

class DeviceInventory;
class ElidingLabel;
class LabSession;
class RunModel;

class StatusArea : public QObject {
    Q_OBJECT

public:
    StatusArea(QStatusBar& bar, const LabSession& session, const DeviceInventory& inventory, const RunModel& model);

    // How the last sequence ended (the word beside the bar until the next one starts).
    void sequenceEnded(RunStatus lastStatus);
    // Why Run cannot start (a setting to fix), said instead of "Ready" while nothing runs; "": it can.
    void setRunBlocked(const QString& reason);
    void refresh();

    QString statusText() const;
    QString progressText() const;

private:
    const LabSession& m_session;
    const DeviceInventory& m_inventory;
    const RunModel& m_model;
    std::optional<RunStatus> m_lastOutcome;  // none yet: idle
    QString m_runBlocked;
    QTimer m_refresh;                        // time remaining moves between events
    ElidingLabel* m_status = nullptr;
    QLabel* m_progressText = nullptr;
    QProgressBar* m_progress = nullptr;
};

}  // namespace ddplab::ui
