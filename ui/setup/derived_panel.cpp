// SPDX-License-Identifier: GPL-3.0-or-later
#include "derived_panel.hpp"

#include "client/engine/model_inspection.hpp"
#include "core/derived.hpp"
#include "core/protocol_names.hpp"
#include "setup/batch_schedule_preview.hpp"
#include "setup/lr_schedule_preview.hpp"

#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

QString plural(qint64 count, const QString& one, const QString& many)
{
    return QStringLiteral("%L1 %2").arg(count).arg(count == 1 ? one : many);
}

}  // namespace

DerivedPanel::DerivedPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 8);
    // Your own model's inspection: one wrapped label above the form, whose rows keep one line.
    m_ownModel = new QLabel(this);
    m_ownModel->setWordWrap(true);
    m_ownModel->setTextFormat(Qt::RichText);
    m_ownModel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_ownModel);
    auto* form = m_form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);
    const auto row = [&](const char* id, const QString& title) {
        QLabel* value = addRow(QString::fromLatin1(id), title);
        form->addRow(title, value);
    };
    row(protocol::field::kEffectiveBatch, tr("Effective batch"));
    row("effective_lr", tr("Effective LR"));
    row("applied_beta1", tr("β1"));
    row("applied_beta2", tr("β2"));
    row("applied_eps", tr("ε"));
    row("applied_decay", tr("Weight decay"));
    row("decay_timescale", tr("Decay timescale τ"));
    row("per_rank", tr("Each rank sees"));
    row("uneven", tr("Uneven split"));
    row("last_batch", tr("Last batch"));
    row("steps", tr("Optimizer steps"));
    row("warmup", tr("Warmup"));
    m_preview = new LrSchedulePreview(this);
    m_preview->setToolTip(tr("The learning rate at every optimizer step of this run (warmup shaded)."));
    layout->addWidget(m_preview);
    m_batchPreview = new BatchSchedulePreview(this);
    m_batchPreview->hide();
    layout->addWidget(m_batchPreview);
    setInspection(false, nullptr, QString());
}

void DerivedPanel::setInspection(bool shown, const ModelInspection* inspection, const QString& note)
{
    m_ownTexts.clear();
    m_ownModel->setVisible(shown);
    if (!shown)
        return;
    const QList<QPair<QString, QString>> parts =
        inspection ? QList<QPair<QString, QString>>{{QStringLiteral("own_model"), inspection->modelText},
                                                    {QStringLiteral("own_data"), inspection->dataText},
                                                    {QStringLiteral("own_output"), inspection->outputText},
                                                    {QStringLiteral("own_memory"), inspection->memoryText}}
                   : QList<QPair<QString, QString>>{{QStringLiteral("own_model"), note}};
    const QHash<QString, QString> titles{{QStringLiteral("own_model"), tr("Your model")},
                                         {QStringLiteral("own_data"), tr("Training data")},
                                         {QStringLiteral("own_output"), tr("Output")},
                                         {QStringLiteral("own_memory"), tr("Memory per rank")}};
    QString html;
    for (const auto& [id, text] : parts) {
        m_ownTexts.insert(id, text);
        html += QStringLiteral("<p style='margin:0 0 4px 0'><b>%1</b> %2</p>").arg(titles.value(id), text.toHtmlEscaped());
    }
    m_ownModel->setText(html);
}

QLabel* DerivedPanel::addRow(const QString& id, const QString& title)
{
    auto* value = new QLabel(this);
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setAccessibleName(title);
    m_rows.append({id, value});
    return value;
}

QLabel* DerivedPanel::rowLabel(const QString& row) const
{
    for (const auto& [id, label] : m_rows) {
        if (id == row)
            return label;
    }
    return nullptr;
}

QString DerivedPanel::valueText(const QString& row) const
{
    if (m_ownTexts.contains(row))
        return m_ownTexts.value(row);
    const QLabel* label = rowLabel(row);
    return label ? label->text() : QString();
}

bool DerivedPanel::rowShown(const QString& row) const
{
    if (row.startsWith(QLatin1String("own_")))
        return !m_ownModel->isHidden() && m_ownTexts.contains(row);
    const QLabel* label = rowLabel(row);
    return label && !label->isHidden();
}

void DerivedPanel::showRow(const QString& row, bool shown)
{
    if (QLabel* label = rowLabel(row))
        m_form->setRowVisible(label, shown);
}

void DerivedPanel::setConfig(const Config& config, bool valid)
{
    const auto set = [&](const char* id, const QString& text) {
        for (const auto& [rowId, label] : m_rows) {
            if (rowId == QLatin1String(id))
                label->setText(text);
        }
    };
    if (!valid) {
        for (const auto& [id, label] : m_rows)
            label->setText(QStringLiteral("—"));
        m_preview->clear();
        m_batchPreview->hide();
        return;
    }

    QString batch = tr("%L1 = %2 × %L3").arg(effectiveBatchSize(config)).arg(plural(config.worldSize, tr("rank"), tr("ranks"))).arg(config.batchSize);
    if (config.gradAccum > 1)
        batch += tr(" × %1 accumulated").arg(config.gradAccum);
    set(protocol::field::kEffectiveBatch, batch);

    QString lr = number(effectiveLr(config));
    if (config.lrRule != LrRule::None)
        lr += QStringLiteral(" = ") + QString::fromStdString(lrRuleFormula(config));
    else if (effectiveBatchSize(config) != baseBatchSize(config))
        lr += tr(" (not scaled: rule none)");
    set("effective_lr", lr);

    // Malladi et al.'s SDE rule scales Adam's betas and eps with the batch, as it does the LR.
    const bool sde = config.lrRule == LrRule::Sde;
    const AdamSettings adam = appliedAdamSettings(config);
    const auto withFormula = [](double value, const std::string& formula) {
        return number(value) + QStringLiteral(" = ") + QString::fromStdString(formula);
    };
    set("applied_beta1", sde ? withFormula(adam.beta1, sdeBetaFormula(config, config.beta1)) : number(adam.beta1));
    set("applied_beta2", sde ? withFormula(adam.beta2, sdeBetaFormula(config, config.beta2)) : number(adam.beta2));
    set("applied_eps", sde ? withFormula(adam.eps, sdeEpsFormula(config)) : number(adam.eps));
    for (const char* id : {"applied_beta1", "applied_beta2", "applied_eps"})
        showRow(QString::fromLatin1(id), usesMoments(config));

    // The weight decay, and the timescale it sets (Wang and Aitchison), rule or not.
    const double decay = appliedWeightDecay(config);
    const bool timescaleRule = config.weightDecayRule == WeightDecayRule::Timescale;
    set("applied_decay", timescaleRule ? withFormula(decay, weightDecayRuleFormula(config)) : number(decay));
    const double tau = weightDecayTimescaleEpochs(config);
    const QString tauText = tau >= 1000 ? QStringLiteral("%L1").arg(qRound64(tau)) : number(tau);
    set("decay_timescale", tr("%1 epochs = %2").arg(tauText, QString::fromStdString(weightDecayTimescaleFormula(config))));
    showRow(QStringLiteral("applied_decay"), decay > 0);
    showRow(QStringLiteral("decay_timescale"), decay > 0);

    // One short line per row: a wrapped second line would not get its height in the splitter.
    const ShardPlan plan = planShards(config);
    set("per_rank", tr("%L1 of %2 an epoch").arg(plan.samplesPerRank).arg(plural(datasetSize(config), tr("example"), tr("examples"))));
    if (plan.paddedSamples > 0)
        set("uneven", tr("%1 repeated (padding)").arg(plural(plan.paddedSamples, tr("sample"), tr("samples"))));
    else if (plan.droppedSamples > 0)
        set("uneven", tr("%1 dropped (drop_last)").arg(plural(plan.droppedSamples, tr("example"), tr("examples"))));
    else
        set("uneven", tr("none: the ranks split it evenly"));
    set("last_batch", plan.lastBatchSize > 0 && plan.lastBatchSize < config.batchSize
                          ? tr("%1 of %2 samples").arg(plan.lastBatchSize).arg(config.batchSize)
                          : tr("full"));

    // A growing batch: the LR preview below is the schedule's by optimizer step of the starting
    // batch; the batch preview shows the batch and the LR against the samples, and its plan
    // counts the steps.
    const bool grows = config.batchSchedule != BatchScheduleKind::Constant;
    m_batchPreview->setVisible(grows);
    if (grows)
        m_batchPreview->setConfig(config);

    const qint64 perEpoch = stepsPerEpoch(config);
    const qint64 total = totalSteps(config);
    QString steps = tr("%L1 per epoch · %L2 in total").arg(perEpoch).arg(total);
    if (config.maxSteps > 0 && total < perEpoch * config.epochs)
        steps += tr(" (max steps)");
    if (grows && m_batchPreview->plannedSteps() > 0)
        steps += tr(" at the starting batch; about %L1 as it grows").arg(m_batchPreview->plannedSteps());
    set("steps", steps);

    const qint64 warmup = warmupStepCount(config);
    set("warmup", warmup > 0 ? tr("%1 from %2 × LR").arg(plural(warmup, tr("step"), tr("steps")), number(warmupStartFactor(config)))
                             : tr("none"));
    m_preview->setConfig(config);
}

}  // namespace ddplab::ui
