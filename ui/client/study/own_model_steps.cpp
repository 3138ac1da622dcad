// SPDX-License-Identifier: GPL-3.0-or-later
#include "own_model_steps.hpp"

#include "client/wire.hpp"

#include <algorithm>

namespace ddplab::ui {

std::optional<MeasuredModel> measuredModelOf(const ModelInspection& inspection, double inspectSeconds)
{
    if (!(inspection.stepSeconds > 0) || inspection.stepSamples <= 0)
        return std::nullopt;
    // What inspect took besides its steps on the first batch (an untimed first, then the timed
    // takes, in wall seconds): loading LibTorch, the model and the data, as each run of this model does.
    const double startSeconds = std::max(0.0, inspectSeconds - inspection.stepSeconds - inspection.stepTakesSeconds);
    const double step = inspection.stepCpuSeconds > 0 ? inspection.stepCpuSeconds : inspection.stepSeconds;
    return MeasuredModel{step / double(inspection.stepSamples), startSeconds, inspection.trainSamples, inspection.valSamples};
}

OwnModelSteps::OwnModelSteps(QString localEngine, QObject* parent) : QObject(parent), m_inspector(std::move(localEngine))
{
    connect(&m_inspector, &ModelInspector::changed, this, &OwnModelSteps::onInspected);
}

void OwnModelSteps::measure(const StudyPlan& plan)
{
    for (const StudyPoint& point : plan.points) {
        const bool ownModel = point.config.value(wire(key::kWorkload)).toString() == wire(choice::workload::kTorchScript) &&
                              !point.config.value(wire(key::kModelFile)).toString().isEmpty() &&
                              !point.config.value(wire(key::kTrainData)).toString().isEmpty();
        const QString key = measuredStepKey(point.config);
        if (!ownModel || m_asked.contains(key))
            continue;
        m_asked.insert(key);
        m_queue.append({key, point.config});
    }
    if (m_current.isEmpty())
        next();
}

void OwnModelSteps::next()
{
    if (m_queue.isEmpty())
        return;
    const auto [key, settings] = m_queue.takeFirst();
    m_current = key;
    m_inspector.inspect(settings);
}

void OwnModelSteps::onInspected()
{
    if (m_current.isEmpty())
        return;
    if (m_inspector.isRunning()) {
        m_clock.start();  // the engine was just started (after the inspector's pause)
        return;
    }
    const std::optional<ModelInspection>& inspection = m_inspector.inspection();
    if (inspection) {
        if (const std::optional<MeasuredModel> model = measuredModelOf(*inspection, m_clock.elapsed() / 1000.0))
            m_steps.insert(m_current, *model);
    }
    m_current.clear();
    emit changed();
    next();
}

}  // namespace ddplab::ui
