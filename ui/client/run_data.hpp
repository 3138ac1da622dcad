#pragma once
// Everything one run streamed, as series ready for charts: for each metric the (step, value)
// points in order. Step fields keep their names; eval fields are `val_*` (others get `eval_`),
// epoch fields get `epoch_`, so the three kinds never collide. Non-finite values (null in
// the JSON) are dropped on arrival.

#include "client/run_record.hpp"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QStringList>

namespace ddplab::ui {

class RunData {
public:
    explicit RunData(RunRecord record = RunRecord());

    RunRecord& record() { return m_record; }
    const RunRecord& record() const { return m_record; }
    QString id() const { return m_record.id; }
    QString label() const { return m_record.legendLabel(); }

    void appendEvents(const QList<QJsonObject>& events);

    // The engine's resolved `config` event (empty until it arrives).
    const QJsonObject& config() const { return m_config; }
    // What the lab asked for (the run's config.json).
    const QJsonObject& requestedConfig() const { return m_requestedConfig; }
    void setRequestedConfig(const QJsonObject& config) { m_requestedConfig = config; }
    // The config event when there is one, else the request: what the run was meant to be.
    QJsonObject effectiveConfig() const { return m_config.isEmpty() ? m_requestedConfig : m_config; }

    bool sawHello() const { return m_sawHello; }
    int helloProtocol() const { return m_helloProtocol; }  // the engine's protocol version
    const QJsonObject& summary() const { return m_summary; }
    const QJsonObject& error() const { return m_error; }
    bool hasSummary() const { return !m_summary.isEmpty(); }
    bool hasError() const { return !m_error.isEmpty(); }

    const QList<QPointF>& series(const QString& metric) const;
    bool hasMetric(const QString& metric) const { return m_series.contains(metric); }
    // In order of first appearance: step metrics, then eval and epoch ones as they arrived.
    const QStringList& metricNames() const { return m_metricOrder; }

    // The `step` of every step event, in arrival order.
    const QList<qint64>& steps() const { return m_steps; }
    qint64 stepCount() const { return m_steps.size(); }
    qint64 lastStep() const { return m_steps.isEmpty() ? 0 : m_steps.last(); }
    qint64 lastEpoch() const { return m_lastEpoch; }
    qint64 totalSteps() const;  // from the config event; 0 while unknown
    qint64 epochs() const;      // configured epochs; 0 while unknown
    // Bumped by every append that changed something; lets views skip unchanged runs.
    quint64 revision() const { return m_revision; }

private:
    void appendPoints(const QJsonObject& event, double x, const QString& prefix, const QString& keepPrefix);
    void appendPoint(const QString& metric, double x, double y);

    RunRecord m_record;
    QJsonObject m_requestedConfig;
    QJsonObject m_config;
    QJsonObject m_summary;
    QJsonObject m_error;
    bool m_sawHello = false;
    int m_helloProtocol = 0;
    QHash<QString, QList<QPointF>> m_series;
    QStringList m_metricOrder;
    QList<qint64> m_steps;
    qint64 m_lastEpoch = 0;
    quint64 m_revision = 0;
};

}  // namespace ddplab::ui
