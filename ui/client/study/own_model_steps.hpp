// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long your own models' training steps take on this machine, for a study's estimate (issue
// 28 §4: measure a step of the model before estimating, where a constant for "a CNN" was 20-100x
// off): each distinct model and training data of a study's plan is inspected by the engine in
// turn (`ddplab-engine inspect` times a training step on the first batch), and the seconds per
// sample it measured are kept by study_estimate's measuredStepKey.

#include "client/engine/model_inspector.hpp"
#include "client/study/study_estimate.hpp"
#include "client/study/study_plan.hpp"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSet>

#include <optional>

namespace ddplab::ui {

// What a study's estimate takes from one inspection that took `inspectSeconds` in all: its step's
// seconds per sample (the CPU seconds inspect's thread spent on it, where the engine says them:
// its wall seconds hold the instant's wait for a core, 2-4x the step beside busy programs; an
// older engine's wall median otherwise), its start-up (what inspect took besides its steps) and
// its data's sizes. nullopt when inspect timed no step.
std::optional<MeasuredModel> measuredModelOf(const ModelInspection& inspection, double inspectSeconds);

class OwnModelSteps : public QObject {
    Q_OBJECT

public:
    explicit OwnModelSteps(QString localEngine, QObject* parent = nullptr);

    // The plan's own-model runs: those not measured or asked yet are inspected, one after another.
    void measure(const StudyPlan& plan);
    const MeasuredSteps& steps() const { return m_steps; }
    bool isMeasuring() const { return !m_queue.isEmpty() || m_inspector.isRunning(); }

signals:
    void changed();  // a step measured (or refused: that model keeps the constant's estimate)

private:
    void next();
    void onInspected();

    ModelInspector m_inspector;
    QList<QPair<QString, QJsonObject>> m_queue;  // key, the settings inspect is given
    QString m_current;
    QElapsedTimer m_clock;  // since the current inspect started: its start-up is a run's
    QSet<QString> m_asked;
    MeasuredSteps m_steps;
};

}  // namespace ddplab::ui
