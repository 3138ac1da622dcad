// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small drawing of the learning rate at every optimizer step of the planned run (warmup
// shaded), computed by ddplab_core's learningRateAt, the function the engine itself uses.

#include <QList>
#include <QPointF>
#include <QWidget>

namespace ddplab {
struct Config;
}

namespace ddplab::ui {

class LrSchedulePreview : public QWidget {
    Q_OBJECT

public:
    // At most this many steps are sampled; a run of any length draws in the same time.
    static constexpr int kMaxSamples = 400;

    explicit LrSchedulePreview(QWidget* parent = nullptr);

    void setConfig(const ddplab::Config& config);
    void clear();
    // (step, lr) pairs drawn, for tests.
    const QList<QPointF>& samples() const { return m_samples; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QList<QPointF> m_samples;
    qint64 m_totalSteps = 0;
    qint64 m_warmupSteps = 0;
};

}  // namespace ddplab::ui
