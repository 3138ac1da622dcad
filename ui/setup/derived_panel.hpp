// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What follows from the settings, before anything runs: effective batch and LR (and Adam's
// betas and eps, the weight decay and its timescale, with the scaling rules' formulas), how the
// sampler splits an epoch (padding, dropped samples), steps, warmup, and the LR schedule, all
// computed by ddplab_core's derived.hpp, exactly as the engine will.

#include <QHash>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
QT_END_NAMESPACE

namespace ddplab {
struct Config;
}

namespace ddplab::ui {

class BatchSchedulePreview;
class LrSchedulePreview;
struct ModelInspection;

class DerivedPanel : public QWidget {
    Q_OBJECT

public:
    explicit DerivedPanel(QWidget* parent = nullptr);

    // `valid` false: the settings have problems, and nothing is derived from them.
    void setConfig(const ddplab::Config& config, bool valid);
    // Your own model (workload torchscript; `shown` false hides its rows): what `ddplab-engine
    // inspect` found, or, without an inspection, `note` (inspecting, what is missing, a refusal).
    void setInspection(bool shown, const ModelInspection* inspection, const QString& note);

    // The texts shown, for tests ("effective_batch", "effective_lr", "applied_beta1",
    // "applied_beta2", "applied_eps", "applied_decay", "decay_timescale", "per_rank", "uneven",
    // "last_batch", "steps", "warmup"; your own model: "own_model", "own_data", "own_output", "own_memory").
    QString valueText(const QString& row) const;
    // Whether a row is shown: Adam's settings only for optimizers that have them, the weight
    // decay's only when there is one.
    bool rowShown(const QString& row) const;
    const LrSchedulePreview* schedulePreview() const { return m_preview; }
    const BatchSchedulePreview* batchSchedulePreview() const { return m_batchPreview; }

private:
    QLabel* addRow(const QString& id, const QString& title);
    QLabel* rowLabel(const QString& id) const;
    void showRow(const QString& id, bool shown);

    QFormLayout* m_form = nullptr;
    QList<QPair<QString, QLabel*>> m_rows;
    LrSchedulePreview* m_preview = nullptr;
    BatchSchedulePreview* m_batchPreview = nullptr;
    QLabel* m_ownModel = nullptr;
    QHash<QString, QString> m_ownTexts;  // row -> text, of the inspection shown
};

}  // namespace ddplab::ui
