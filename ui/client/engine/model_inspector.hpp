// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs `ddplab-engine inspect` on your own model and data (workload torchscript) as soon as a
// model file and training data are set, asynchronously (the window never waits on LibTorch),
// on the machine that runs the engine: here, or the SSH host through engineCommand. Only what
// the inspection depends on is sent, on stdin; the same settings are not inspected twice.
// Your model is code and may never return: an inspection whose settings or machine changed is
// killed at once, as is one still running when the inspector goes (or the lab, by any signal:
// EngineQuery), so no `inspect` is ever left running behind the window.

#include "client/engine/engine_query.hpp"
#include "client/engine/engine_target.hpp"
#include "client/engine/model_inspection.hpp"

#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <optional>

namespace ddplab::ui {

class ModelInspector : public QObject {
    Q_OBJECT

public:
    explicit ModelInspector(QString localEngine, QObject* parent = nullptr);

    void setTarget(const EngineTarget& target);
    // The window's settings (a preset); inspected after a short pause when they are workload
    // torchscript with model_file and train_data and differ from the last inspected.
    void inspect(const QJsonObject& settings);

    bool applies() const { return !m_request.isEmpty(); }  // the settings are your own model
    bool isRunning() const;
    const std::optional<ModelInspection>& inspection() const { return m_inspection; }
    const std::optional<InspectionProblem>& problem() const { return m_problem; }

signals:
    // A new answer, or the state changed (inspecting, nothing to inspect).
    void changed();

private:
    void start();
    void onFinished(const QueryResult& result);

    QString m_localEngine;
    EngineTarget m_target;
    EngineQuery m_query;
    QTimer m_pause;
    QJsonObject m_request;    // what the next inspection sends
    QJsonObject m_asked;      // what the running one sent
    QJsonObject m_inspected;  // what the answer shown was for
    std::optional<ModelInspection> m_inspection;
    std::optional<InspectionProblem> m_problem;
};

}  // namespace ddplab::ui
