// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Setup's "Run on": this computer, or an SSH host (an ~/.ssh/config alias or user@host[:port])
// with the path of the engine there. Choosing one runs `ddplab-engine devices` on it and says
// what it has (GPUs, NCCL, LibTorch, protocol) or, in one sentence, what to do when it cannot be
// reached. How each run starts there: the engine's own launcher, torchrun or srun, as a command
// template the person can edit. Hosts used before are remembered (QSettings); nothing secret
// is kept.

#include "client/engine/engine_query.hpp"
#include "client/engine/engine_target.hpp"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace ddplab::ui {

class RunTargetBox : public QWidget {
    Q_OBJECT

public:
    explicit RunTargetBox(QString localEngine, QWidget* parent = nullptr);

    const EngineTarget& target() const { return m_target; }
    // Runs `devices` on the current target; checked() reports it.
    void check();
    // Chooses a target by its text ("" or "this computer": here), as if typed and confirmed.
    bool chooseTarget(const QString& text, const QString& remoteEngine = QString());
    // Chooses a launch template by its id (`ddplab --launch`), as if picked; false when none has it.
    bool chooseLaunch(const QString& id);
    QString statusText() const;

signals:
    void targetChanged(const ddplab::ui::EngineTarget& target);
    // The devices of the target, or the reason there are none (said for a person).
    void checked(const ddplab::ui::QueryResult& result);

private:
    void apply();
    void applyLaunch(int index);
    void onChecked(const QueryResult& result);
    void remember(const EngineTarget& target);

    QString m_localEngine;
    EngineTarget m_target;
    EngineQuery m_query;
    QComboBox* m_host = nullptr;
    QLineEdit* m_engine = nullptr;
    QComboBox* m_launch = nullptr;
    QLineEdit* m_launchCommand = nullptr;
    QPushButton* m_check = nullptr;
    QLabel* m_status = nullptr;
};

}  // namespace ddplab::ui
