// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_data.hpp"

#include "client/wire.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

const QString kType = wire(field::kType);
const QString kStep = wire(field::kStep);
const QString kEpoch = wire(field::kEpoch);
// Epoch fields are kept under this prefix, eval fields other than val_* under the other one:
// the three kinds of event never collide.
const QString kEpochPrefix = QStringLiteral("epoch_");
const QString kEvalPrefix = QStringLiteral("eval_");
const QString kValidationPrefix = QStringLiteral("val_");
// Larger steps are not whole numbers in a double any more: nothing a run reaches.
constexpr double kLargestStep = 9e15;

size_t axisIndex(XAxis axis)
{
    return size_t(axis);
}

}  // namespace

RunData::RunData(RunRecord record)
    : m_record(std::move(record))
{
}

void RunData::appendEvents(const QList<QJsonObject>& events)
{
    for (const QJsonObject& event : events) {
        const QString type = event.value(kType).toString();
        if (type == kStep) {
            if (const std::optional<qint64> step = validStep(event))
                appendStep(event, *step);
        } else if (type == wire(type::kEval)) {
            // Eval fields: val_loss, val_accuracy keep their names; `samples` becomes eval_samples.
            if (const std::optional<qint64> step = validStep(event))
                appendPoints(event, double(*step), kEvalPrefix, kValidationPrefix);
        } else if (type == wire(type::kEpoch)) {
            if (const std::optional<qint64> step = validStep(event))
                appendPoints(event, double(*step), kEpochPrefix, QString());
        } else if (type == wire(type::kConfig)) {
            m_config = event;
            m_config.remove(kType);
        } else if (type == wire(type::kSummary)) {
            m_summary = event;
        } else if (type == wire(type::kError)) {
            m_error = event;
        } else if (type == wire(type::kRangeTest)) {
            m_rangeTest = event;
        } else if (type == wire(type::kCheckpoint)) {
            m_checkpoints.append(event);
        } else if (type == wire(type::kBatchChanged)) {
            const qint64 step = event.value(wire(field::kStep)).toInteger(-1);
            const double batch = event.value(wire(field::kEffectiveBatch)).toDouble();
            if (step >= 0 && std::isfinite(batch) && batch > 0)
                m_batchChanges.append({step, batch});
        } else if (type == wire(type::kHello)) {
            m_sawHello = true;
            m_helloProtocol = event.value(wire(field::kProtocol)).toInt();
        }
        // Event types this version does not know are ignored, as docs/protocol.md asks.
    }
    ++m_revision;
}

QString RunData::epochMetric(const QString& field)
{
    return kEpochPrefix + field;
}

double RunData::lastValue(const QString& metric) const
{
    const QList<QPointF>& points = series(metric);
    return points.isEmpty() ? std::numeric_limits<double>::quiet_NaN() : points.last().y();
}

double RunData::lastEpochMean(const QString& field, bool* fromLastStep) const
{
    const QList<QPointF>& epochs = epochSeries(field);
    if (fromLastStep)
        *fromLastStep = epochs.isEmpty() && hasMetric(field);
    return epochs.isEmpty() ? lastValue(field) : epochs.last().y();
}

std::optional<qint64> RunData::firstStepMeeting(const QString& metric, const std::function<bool(double)>& meets) const
{
    for (const QPointF& point : series(metric)) {
        if (meets(point.y()))
            return qint64(point.x());
    }
    return std::nullopt;
}

std::optional<qint64> RunData::validStep(const QJsonObject& event)
{
    const QJsonValue value = event.value(kStep);
    if (!value.isDouble())
        return std::nullopt;  // no step: an event this version cannot place, not a wrong value
    const double step = value.toDouble();
    if (!std::isfinite(step) || step < 0 || step > kLargestStep || std::floor(step) != step) {
        skip(QStringLiteral("a %1 event at step %2").arg(event.value(kType).toString()).arg(step));
        return std::nullopt;
    }
    // Steps only grow within a run: one that goes back cannot be drawn in order.
    if (event.value(kType).toString() == kStep && !m_steps.isEmpty() && qint64(step) <= m_steps.last()) {
        skip(QStringLiteral("step %1 after step %2").arg(qint64(step)).arg(m_steps.last()));
        return std::nullopt;
    }
    return qint64(step);
}

void RunData::skip(const QString& what)
{
    if (m_skippedValues == 0)
        m_firstSkipped = what;
    ++m_skippedValues;
}

void RunData::appendStep(const QJsonObject& event, qint64 step)
{
    m_steps.append(step);
    m_lastEpoch = event.value(kEpoch).toInteger(m_lastEpoch);
    StepPosition position;
    position.step = step;
    const qint64 perEpoch = stepsPerEpoch();
    position.epoch = perEpoch > 0 ? double(step) / double(perEpoch) : double(m_lastEpoch);
    const double samples = event.value(wire(field::kSamples)).toDouble();
    if (std::isfinite(samples) && samples > 0)
        m_samplesSeen += samples;
    position.samplesSeen = m_samplesSeen;
    // A batch that grows (batch_schedule) changes the steps an epoch takes: its epochs are
    // counted in the samples of the epoch's padded list every rank shares.
    const double epochSamples = double(m_config.value(wire(field::kSamplesPerRank)).toInteger()) *
                                double(m_config.value(wire(key::kWorldSize)).toInteger());
    const QString schedule = m_config.value(wire(key::kBatchSchedule)).toString();
    if (!schedule.isEmpty() && schedule != wire(choice::batch_schedule::kConstant) && epochSamples > 0)
        position.epoch = m_samplesSeen / epochSamples;
    const double stepMs = event.value(wire(field::kStepMs)).toDouble();
    if (std::isfinite(stepMs) && stepMs > 0)
        m_stepSeconds += stepMs / 1000.0;
    // The engine's clock since the first step (evaluations included); older streams lack it.
    const double wall = event.value(wire(field::kWallS)).toDouble(-1);
    position.wallSeconds = std::isfinite(wall) && wall >= 0 ? wall : m_stepSeconds;
    m_positions.append(position);
    m_divergence.observe(step, event.value(wire(field::kLoss)));
    appendPoints(event, double(step), QString(), QString());
}

void RunData::appendPoints(const QJsonObject& event, double x, const QString& prefix, const QString& keepPrefix)
{
    static const QString kWall = wire(field::kWallS);
    for (auto it = event.constBegin(); it != event.constEnd(); ++it) {
        const QString& field = it.key();
        // A step's wall time is where it lies on an x axis, not a figure of its own.
        if (field == kType || field == kStep || (prefix.isEmpty() && field == kWall) || !it.value().isDouble())
            continue;
        if (prefix.isEmpty() || (!keepPrefix.isEmpty() && field.startsWith(keepPrefix)))
            appendPoint(field, x, it.value().toDouble());
        else if (field != kEpoch)
            appendPoint(prefix + field, x, it.value().toDouble());
    }
}

void RunData::appendPoint(const QString& metric, double x, double y)
{
    if (!std::isfinite(y)) {
        // JSON has no infinity: a number that overflowed on the way is no value a chart can show.
        skip(QStringLiteral("%1 = %2 at step %3").arg(metric).arg(y).arg(qint64(x)));
        return;
    }
    auto it = m_series.find(metric);
    if (it == m_series.end()) {
        it = m_series.insert(metric, {});
        m_metricOrder.append(metric);
    }
    it->append(QPointF(x, y));
}

const QList<QPointF>& RunData::series(const QString& metric) const
{
    static const QList<QPointF> kEmpty;
    const auto it = m_series.constFind(metric);
    return it == m_series.constEnd() ? kEmpty : *it;
}

const QList<QPointF>& RunData::series(const QString& metric, XAxis axis) const
{
    const QList<QPointF>& bySteps = series(metric);
    if (axis == XAxis::Step)
        return bySteps;
    QList<QPointF>& converted = m_converted[axisIndex(axis)][metric];
    if (converted.size() > bySteps.size())
        converted.clear();  // cannot happen while series only grow; stay correct if it did
    converted.reserve(bySteps.size());
    for (qsizetype i = converted.size(); i < bySteps.size(); ++i)
        converted.append(QPointF(xAt(qint64(bySteps.at(i).x()), axis), bySteps.at(i).y()));
    return converted;
}

double RunData::xAt(qint64 step, XAxis axis) const
{
    if (axis == XAxis::Step)
        return double(step);
    // The last step event at or before `step` (evaluations and epochs share their step's place).
    const auto after = std::upper_bound(m_positions.begin(), m_positions.end(), step,
                                        [](qint64 wanted, const StepPosition& position) { return wanted < position.step; });
    if (after == m_positions.begin()) {
        const qint64 perEpoch = stepsPerEpoch();
        return axis == XAxis::Epoch && perEpoch > 0 ? double(step) / double(perEpoch) : 0.0;
    }
    const StepPosition& at = *(after - 1);
    switch (axis) {
    case XAxis::Step: return double(step);
    case XAxis::Epoch: return at.epoch;
    case XAxis::SamplesSeen: return at.samplesSeen;
    case XAxis::WallTime: return at.wallSeconds;
    }
    return double(step);
}

qint64 RunData::totalSteps() const
{
    return m_config.value(wire(field::kTotalSteps)).toInteger();
}

qint64 RunData::plannedSteps() const
{
    // Engines before batch_schedule wrote no planned_steps: their runs took total_steps.
    const QJsonValue planned = m_config.value(wire(field::kPlannedSteps));
    return planned.isDouble() ? planned.toInteger() : totalSteps();
}

qint64 RunData::epochs() const
{
    return effectiveConfig().value(wire(key::kEpochs)).toInteger();
}

qint64 RunData::stepsPerEpoch() const
{
    return m_config.value(wire(field::kStepsPerEpoch)).toInteger();
}

double RunData::plannedExtent(XAxis axis) const
{
    const double current = m_positions.isEmpty() ? 0.0 : xAt(m_positions.last().step, axis);
    const qint64 total = totalSteps();
    const qint64 perEpoch = stepsPerEpoch();
    const double effectiveBatch = m_config.value(wire(field::kEffectiveBatchSize)).toDouble();
    switch (axis) {
    case XAxis::Step:
        return std::max(current, double(plannedSteps()));
    case XAxis::Epoch:
        return perEpoch > 0 ? std::max(current, double(total) / double(perEpoch)) : current;
    case XAxis::SamplesSeen:
        // Every step but an epoch's short last one takes the effective batch.
        return std::max(current, double(total) * effectiveBatch);
    case XAxis::WallTime:
        return current;  // unknown until it has happened
    }
    return current;
}

}  // namespace ddplab::ui
