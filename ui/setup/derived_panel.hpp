#pragma once
// What follows from the settings, before anything runs: effective batch and LR (and Adam's
// betas and eps, the weight decay and its timescale, with the scaling rules' formulas), how the
// sampler splits an epoch (padding, dropped samples), steps, warmup, and the LR schedule, all
// computed by ddplab_core's derived.hpp, exactly as the engine will.

#include <QWidget>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
QT_END_NAMESPACE

namespace ddplab {
struct Config;
}

namespace ddplab::ui {

class LrSchedulePreview;

class DerivedPanel : public QWidget {
    Q_OBJECT

public:
    explicit DerivedPanel(QWidget* parent = nullptr);

    // `valid` false: the settings have problems, and nothing is derived from them.
    void setConfig(const ddplab::Config& config, bool valid);

    // The texts shown, for tests ("effective_batch", "effective_lr", "applied_beta1",
    // "applied_beta2", "applied_eps", "applied_decay", "decay_timescale", "per_rank", "uneven",
    // "last_batch", "steps", "warmup").
    QString valueText(const QString& row) const;
    // Whether a row is shown: Adam's settings only for optimizers that have them, the weight
    // decay's only when there is one.
    bool rowShown(const QString& row) const;
    const LrSchedulePreview* schedulePreview() const { return m_preview; }

private:
    QLabel* addRow(const QString& id, const QString& title);
    QLabel* rowLabel(const QString& id) const;
    void showRow(const QString& id, bool shown);

    QFormLayout* m_form = nullptr;
    QList<QPair<QString, QLabel*>> m_rows;
    LrSchedulePreview* m_preview = nullptr;
};

}  // namespace ddplab::ui
