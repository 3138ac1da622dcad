#include "run_data.hpp"

#include "client/wire.hpp"

#include <cmath>

namespace ddplab::ui {
namespace {

const QString kType = wire(field::kType);
const QString kStep = wire(field::kStep);
const QString kEpoch = wire(field::kEpoch);

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
            const QJsonValue step = event.value(kStep);
            if (!step.isDouble())
                continue;
            m_steps.append(step.toInteger());
            m_lastEpoch = event.value(kEpoch).toInteger(m_lastEpoch);
            appendPoints(event, step.toDouble(), QString(), QString());
        } else if (type == wire(type::kEval)) {
            // Eval fields: val_loss, val_accuracy keep their names; `samples` becomes eval_samples.
            const QJsonValue step = event.value(kStep);
            if (step.isDouble())
                appendPoints(event, step.toDouble(), QStringLiteral("eval_"), QStringLiteral("val_"));
        } else if (type == wire(type::kEpoch)) {
            const QJsonValue step = event.value(kStep);
            if (step.isDouble())
                appendPoints(event, step.toDouble(), QStringLiteral("epoch_"), QString());
        } else if (type == wire(type::kConfig)) {
            m_config = event;
            m_config.remove(kType);
        } else if (type == wire(type::kSummary)) {
            m_summary = event;
        } else if (type == wire(type::kError)) {
            m_error = event;
        } else if (type == wire(type::kHello)) {
            m_sawHello = true;
            m_helloProtocol = event.value(wire(field::kProtocol)).toInt();
        }
        // Event types this version does not know are ignored, as docs/protocol.md asks.
    }
    ++m_revision;
}

void RunData::appendPoints(const QJsonObject& event, double x, const QString& prefix, const QString& keepPrefix)
{
    for (auto it = event.constBegin(); it != event.constEnd(); ++it) {
        const QString& field = it.key();
        if (field == kType || field == kStep || !it.value().isDouble())
            continue;
        if (prefix.isEmpty() || (!keepPrefix.isEmpty() && field.startsWith(keepPrefix)))
            appendPoint(field, x, it.value().toDouble());
        else if (field != kEpoch)
            appendPoint(prefix + field, x, it.value().toDouble());
    }
}

void RunData::appendPoint(const QString& metric, double x, double y)
{
    if (!std::isfinite(y))
        return;
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

qint64 RunData::totalSteps() const
{
    return m_config.value(wire(field::kTotalSteps)).toInteger();
}

qint64 RunData::epochs() const
{
    return effectiveConfig().value(wire(key::kEpochs)).toInteger();
}

}  // namespace ddplab::ui
