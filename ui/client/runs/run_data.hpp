// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Everything one run streamed, as series ready for charts: for each metric its points in
// order, on any x axis (optimizer step, epoch, samples seen, wall time). Step fields keep their
// names; eval fields are `val_*` (others get `eval_`), epoch fields get `epoch_`, so the three
// kinds never collide. A null (a diverged loss) is not plotted; a value that cannot be right
// (a step that is negative or not whole, an infinite number) is skipped and counted.

#include "client/runs/divergence.hpp"
#include "client/runs/run_record.hpp"
#include "client/series/x_axis.hpp"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QStringList>

#include <array>
#include <functional>
#include <optional>

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

    // What could not be read of a stored run (RunStore::loadRun): shown in the Log.
    const QStringList& loadProblems() const { return m_loadProblems; }
    void addLoadProblem(const QString& problem) { m_loadProblems.append(problem); }
    // Values that cannot be right are skipped, not plotted: how many, and the first in words.
    qint64 skippedValueCount() const { return m_skippedValues; }
    QString firstSkippedValue() const { return m_firstSkipped; }

    bool sawHello() const { return m_sawHello; }
    int helloProtocol() const { return m_helloProtocol; }  // the engine's protocol version
    const QJsonObject& summary() const { return m_summary; }
    const QJsonObject& error() const { return m_error; }
    // lr_range_test's curve and suggestions (empty unless the run was one); checkpoint_at's files.
    const QJsonObject& rangeTest() const { return m_rangeTest; }
    const QList<QJsonObject>& checkpoints() const { return m_checkpoints; }
    // batch_schedule: after which steps the effective batch grew, and to what (batch_changed events).
    struct BatchChange {
        qint64 step = 0;
        double effectiveBatch = 0.0;
        bool operator==(const BatchChange& other) const { return step == other.step && effectiveBatch == other.effectiveBatch; }
    };
    const QList<BatchChange>& batchChanges() const { return m_batchChanges; }
    bool hasSummary() const { return !m_summary.isEmpty(); }
    bool hasError() const { return !m_error.isEmpty(); }

    // A metric's points with x the optimizer step.
    const QList<QPointF>& series(const QString& metric) const;
    // The same points with x on `axis` (converted once, as they arrive).
    const QList<QPointF>& series(const QString& metric, XAxis axis) const;
    bool hasMetric(const QString& metric) const { return m_series.contains(metric); }
    // In order of first appearance: step metrics, then eval and epoch ones as they arrived.
    const QStringList& metricNames() const { return m_metricOrder; }

    // --- the questions people ask of a run ---------------------------------------------
    // The name under which an epoch event's `field` is kept ("epoch_loss"), and its series.
    static QString epochMetric(const QString& field);
    const QList<QPointF>& epochSeries(const QString& field) const { return series(epochMetric(field)); }
    // The metric's last value; NaN when it has none.
    double lastValue(const QString& metric) const;
    // The mean of a step figure over the last finished epoch (one mini-batch's figure is noise).
    // A run stopped before its first epoch ended gives its last step's value, and says so in
    // `fromLastStep`; NaN when it has neither.
    double lastEpochMean(const QString& field, bool* fromLastStep = nullptr) const;
    // The first point of `metric` whose value `meets` (a study's target): its step, or nullopt.
    std::optional<qint64> firstStepMeeting(const QString& metric, const std::function<bool(double)>& meets) const;

    // The `step` of every step event, in arrival order.
    const QList<qint64>& steps() const { return m_steps; }
    qint64 stepCount() const { return m_steps.size(); }
    qint64 lastStep() const { return m_steps.isEmpty() ? 0 : m_steps.last(); }
    qint64 lastEpoch() const { return m_lastEpoch; }
    // Where step `step` lies on `axis` (the step of an eval or epoch event included).
    double xAt(qint64 step, XAxis axis) const;
    qint64 totalSteps() const;  // from the config event; 0 while unknown
    qint64 plannedSteps() const;  // as a growing batch takes them (planned_steps), else totalSteps()
    qint64 epochs() const;      // configured epochs; 0 while unknown
    qint64 stepsPerEpoch() const;  // from the config event; 0 while unknown
    // Where the loss stopped being a number or blew up (divergence.hpp); nullopt while it has not.
    const std::optional<Divergence>& divergence() const { return m_divergence.found(); }
    // How far the whole run will reach on `axis` (its configured length), for smoothing spans
    // and axes that should not jump as a live run grows; the current extent when unknown.
    double plannedExtent(XAxis axis) const;
    // Bumped by every append that changed something; lets views skip unchanged runs.
    quint64 revision() const { return m_revision; }

private:
    struct StepPosition {
        qint64 step = 0;
        double epoch = 0.0;
        double samplesSeen = 0.0;
        double wallSeconds = 0.0;
    };
    void appendStep(const QJsonObject& event, qint64 step);
    void appendPoints(const QJsonObject& event, double x, const QString& prefix, const QString& keepPrefix);
    void appendPoint(const QString& metric, double x, double y);
    // The step of an event, or nullopt (and the event skipped) when it is none a run has.
    std::optional<qint64> validStep(const QJsonObject& event);
    void skip(const QString& what);

    RunRecord m_record;
    QJsonObject m_requestedConfig;
    QJsonObject m_config;
    QJsonObject m_summary;
    QJsonObject m_error;
    QJsonObject m_rangeTest;
    QList<QJsonObject> m_checkpoints;
    QList<BatchChange> m_batchChanges;
    QStringList m_loadProblems;
    qint64 m_skippedValues = 0;
    QString m_firstSkipped;
    bool m_sawHello = false;
    int m_helloProtocol = 0;
    QHash<QString, QList<QPointF>> m_series;
    QStringList m_metricOrder;
    QList<qint64> m_steps;
    QList<StepPosition> m_positions;  // one per step event, in order
    DivergenceWatch m_divergence;
    double m_samplesSeen = 0.0;
    double m_stepSeconds = 0.0;       // the steps' own time, for runs whose events have no wall_s
    qint64 m_lastEpoch = 0;
    quint64 m_revision = 0;
    // Converted series per axis, extended as points arrive (a point's place never changes).
    mutable std::array<QHash<QString, QList<QPointF>>, 4> m_converted;
};

}  // namespace ddplab::ui
