// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the advisor is asked, on the Advise page: the settings that train well (Setup's, shown
// read-only in a sentence: its batch per GPU × GPUs and its LR), the GPUs to plan for, the most
// batch per GPU (until it is edited here: from memory, batch_memory.hpp, else Setup's batch per
// GPU) and the time budget.

#include "client/advisor/advice_request.hpp"
#include "client/advisor/batch_memory.hpp"
#include "client/engine/device_inventory.hpp"
#include "client/engine/model_inspection.hpp"
#include "core/config.hpp"

#include <optional>

#include <QGroupBox>

QT_BEGIN_NAMESPACE
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
QT_END_NAMESPACE

namespace ddplab::ui {

class AdviseInputs : public QGroupBox {
    Q_OBJECT

public:
    explicit AdviseInputs(QWidget* parent = nullptr);

    // Setup's settings now: the sentence follows them, and so does the most batch per GPU
    // until it has been edited here.
    void setBase(const ddplab::Config& base);
    // The Run-on host's report and inspect's on your own model (null: none): the most batch per
    // GPU follows them until it has been edited here.
    void setMachine(const DeviceInventory& runOn, const ModelInspection* inspection);
    // The default the most batch per GPU has now, and where it came from (its tooltip and caption).
    const MostBatch& mostBatchDefault() const { return m_most; }
    // The request for the settings last given (its checkpoint folder left to the caller).
    AdviceRequest request() const;

    QSpinBox* gpus() const { return m_gpus; }
    QSpinBox* maxBatchPerGpu() const { return m_maxBatch; }
    QDoubleSpinBox* budgetMinutes() const { return m_budget; }
    QString baseText() const;

private:
    void updateMostBatch();

    ddplab::Config m_base;
    QLabel* m_baseSentence = nullptr;
    QSpinBox* m_gpus = nullptr;
    QSpinBox* m_maxBatch = nullptr;
    QDoubleSpinBox* m_budget = nullptr;
    QLabel* m_maxBatchSource = nullptr;
    bool m_maxBatchEdited = false;
    DeviceInventory m_runOn;
    std::optional<ModelInspection> m_inspection;
    MostBatch m_most;
};

}  // namespace ddplab::ui
