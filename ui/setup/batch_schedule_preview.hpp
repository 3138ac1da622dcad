// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small drawing of a growing batch (batch_schedule) against the samples seen, each growth
// marked with the optimizer step it comes after: the effective batch as steps and the LR that
// goes with it, from ddplab_core's plannedBatchSteps, the
// arithmetic the engine itself uses. The schedules that follow a measurement (noise, adascale)
// say so in words: what they do is known only as the run goes.

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

namespace ddplab {
struct Config;
}

namespace ddplab::ui {

class BatchSchedulePreview : public QWidget {
    Q_OBJECT

public:
    static constexpr int kMaxSteps = 100000;  // planned steps drawn at most

    explicit BatchSchedulePreview(QWidget* parent = nullptr);

    void setConfig(const ddplab::Config& config);

    // For tests: (samples seen, effective batch) and (samples seen, LR) at each change, and
    // the sentence under the drawing.
    const QList<QPointF>& batchPoints() const { return m_batch; }
    const QList<QPointF>& lrPoints() const { return m_lr; }
    // The optimizer steps taken before each of batchPoints (the last: the run's last step).
    const QList<qlonglong>& batchSteps() const { return m_batchSteps; }
    QString caption() const { return m_caption; }
    // The optimizer steps the plan takes (steps, smith, seesaw); 0 where it follows a measurement.
    qlonglong plannedSteps() const { return m_plannedSteps; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QList<QPointF> m_batch;
    QList<QPointF> m_lr;
    QList<qlonglong> m_batchSteps;
    double m_totalSamples = 0;
    qlonglong m_plannedSteps = 0;
    QString m_caption;
};

}  // namespace ddplab::ui
