// SPDX-License-Identifier: GPL-3.0-or-later
#include "advisor/advise_inputs.hpp"

#include "client/advisor/advice_request.hpp"
#include "client/library/preset_file.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"
#include "setup/wheel_guard.hpp"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

#include <cmath>

namespace ddplab::ui {
namespace {

constexpr int kDefaultGpus = 8;
constexpr double kDefaultMinutes = 5.0;
constexpr double kFewestMinutes = 0.2;  // 12 s: within adviceRequestProblem's kFewestBudgetSeconds

}  // namespace

AdviseInputs::AdviseInputs(QWidget* parent) : QGroupBox(tr("Ask the advisor"), parent)
{
    m_baseSentence = new QLabel;
    m_baseSentence->setObjectName(QStringLiteral("adviseBase"));
    m_baseSentence->setWordWrap(true);
    m_gpus = new QSpinBox;
    m_gpus->setObjectName(QStringLiteral("adviseGpus"));
    m_gpus->setRange(1, kMostAdviceGpus);
    m_gpus->setValue(kDefaultGpus);
    m_gpus->setToolTip(tr("The GPUs you will train on; they may be more than this computer has: it emulates them"));
    m_maxBatch = new QSpinBox;
    m_maxBatch->setObjectName(QStringLiteral("adviseMaxBatch"));
    m_maxBatch->setRange(1, 1 << 20);
    m_maxBatch->setToolTip(tr("The most one GPU's memory holds; the advisor never recommends more per GPU"));
    m_budget = new QDoubleSpinBox;
    m_budget->setObjectName(QStringLiteral("adviseBudget"));
    m_budget->setRange(kFewestMinutes, 600.0);
    m_budget->setDecimals(1);
    m_budget->setSingleStep(1.0);
    m_budget->setValue(kDefaultMinutes);
    m_budget->setSuffix(tr(" min"));
    m_budget->setToolTip(tr("Wall time for all the runs; what the plan trims to fit is said with the advice"));
    for (QWidget* box : {static_cast<QWidget*>(m_gpus), static_cast<QWidget*>(m_maxBatch), static_cast<QWidget*>(m_budget)})
        guardAgainstStrayWheel(box);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("GPUs to plan for"), m_gpus);
    form->addRow(tr("Most batch per GPU"), m_maxBatch);
    m_maxBatchSource = new QLabel;
    m_maxBatchSource->setObjectName(QStringLiteral("adviseMaxBatchSource"));
    m_maxBatchSource->setWordWrap(true);
    QFont small = m_maxBatchSource->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_maxBatchSource->setFont(small);
    form->addRow(QString(), m_maxBatchSource);
    form->addRow(tr("Time budget"), m_budget);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_baseSentence);
    layout->addLayout(form);

    // setBase changes it with signals blocked: a change heard here is the person's.
    connect(m_maxBatch, &QSpinBox::valueChanged, this, [this] {
        m_maxBatchEdited = true;
        m_maxBatchSource->setText(tr("Yours (the default: %1).").arg(m_most.batch));
    });
    // The host's memory is split over the GPUs planned for.
    connect(m_gpus, &QSpinBox::valueChanged, this, [this] { updateMostBatch(); });
    setBase(ddplab::Config());
}

QString AdviseInputs::baseText() const
{
    const QString workload = coreConfigValue(m_base, key::kWorkload).toString();
    const double scaled = effectiveLr(m_base);
    const QString lr = std::abs(scaled - m_base.lr) > 1e-12 * std::abs(m_base.lr)
                           ? tr("Base LR %1 (%2 after Setup's LR rule)").arg(m_base.lr).arg(scaled)
                           : tr("Base LR %1").arg(m_base.lr);
    const int64_t gpus = m_base.worldSize * m_base.gradAccum;
    return tr("From Setup, the settings you know train well: %1, %2 × %3 per GPU (an effective batch of %4), %5. "
              "Change them in Setup.")
        .arg(workload)
        .arg(gpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(gpus))
        .arg(m_base.batchSize)
        .arg(effectiveBatchSize(m_base))
        .arg(lr);
}

void AdviseInputs::setBase(const ddplab::Config& base)
{
    m_base = base;
    m_baseSentence->setText(baseText());
    updateMostBatch();
}

void AdviseInputs::setMachine(const DeviceInventory& runOn, const ModelInspection* inspection)
{
    m_runOn = runOn;
    m_inspection = inspection ? std::optional<ModelInspection>(*inspection) : std::nullopt;
    updateMostBatch();
}

void AdviseInputs::updateMostBatch()
{
    // Your own data's size is inspect's to tell when Setup has not carried it yet.
    ddplab::Config sized = m_base;
    if (sized.trainSamples <= 0 && m_inspection)
        sized.trainSamples = m_inspection->trainSamples;
    m_most = mostBatchPerGpu(batchMemoryOf(m_base, m_inspection ? &*m_inspection : nullptr), memoryPerGpu(m_base, m_runOn, m_gpus->value()),
                             m_base.batchSize, trainingSamplesPerGpu(sized, m_gpus->value()));
    const QString from = tr("Default %1: %2.").arg(m_most.batch).arg(m_most.source);
    m_maxBatch->setToolTip(tr("The most one GPU's memory holds; the advisor never recommends more per GPU. ") + from);
    m_maxBatchSource->setToolTip(from);
    if (!m_maxBatchEdited) {
        const QSignalBlocker quiet(m_maxBatch);
        m_maxBatch->setValue(int(std::min<qint64>(m_most.batch, m_maxBatch->maximum())));
        m_maxBatchSource->setText(tr("Default: %1.").arg(m_most.brief));
    }
}

AdviceRequest AdviseInputs::request() const
{
    AdviceRequest request;
    request.base = m_base;
    // Your own data's size, as inspect read it: it plans the base run, the horizon and the most batch.
    if (request.base.trainSamples <= 0 && m_inspection)
        request.base.trainSamples = m_inspection->trainSamples;
    request.gpus = m_gpus->value();
    request.maxBatchPerGpu = m_maxBatch->value();
    request.budgetSeconds = m_budget->value() * 60.0;
    // What the cautions say of your model's layers: inspect's report on your own, none for the built-in ones.
    request.layers = m_inspection ? inspectedLayers(*m_inspection) : builtInLayers(m_base);
    return request;
}

}  // namespace ddplab::ui
