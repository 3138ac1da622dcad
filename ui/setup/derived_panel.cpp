#include "derived_panel.hpp"

#include "core/derived.hpp"
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
    auto* form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form);
    const auto row = [&](const char* id, const QString& title) {
        QLabel* value = addRow(QString::fromLatin1(id), title);
        form->addRow(title, value);
    };
    row("effective_batch", tr("Effective batch"));
    row("effective_lr", tr("Effective LR"));
    row("per_rank", tr("Each rank sees"));
    row("uneven", tr("Uneven split"));
    row("last_batch", tr("Last batch"));
    row("steps", tr("Optimizer steps"));
    row("warmup", tr("Warmup"));
    m_preview = new LrSchedulePreview(this);
    m_preview->setToolTip(tr("The learning rate at every optimizer step of this run (warmup shaded)."));
    layout->addWidget(m_preview);
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

QString DerivedPanel::valueText(const QString& row) const
{
    for (const auto& [id, label] : m_rows) {
        if (id == row)
            return label->text();
    }
    return QString();
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
        return;
    }

    QString batch = tr("%L1 = %2 × %L3").arg(effectiveBatchSize(config)).arg(plural(config.worldSize, tr("rank"), tr("ranks"))).arg(config.batchSize);
    if (config.gradAccum > 1)
        batch += tr(" × %1 accumulated").arg(config.gradAccum);
    set("effective_batch", batch);

    QString lr = number(effectiveLr(config));
    if (config.lrRule != LrRule::None)
        lr += QStringLiteral(" = ") + QString::fromStdString(lrRuleFormula(config));
    else if (effectiveBatchSize(config) != baseBatchSize(config))
        lr += tr(" (not scaled: rule none)");
    set("effective_lr", lr);

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

    const qint64 perEpoch = stepsPerEpoch(config);
    const qint64 total = totalSteps(config);
    QString steps = tr("%L1 per epoch · %L2 in total").arg(perEpoch).arg(total);
    if (config.maxSteps > 0 && total < perEpoch * config.epochs)
        steps += tr(" (max steps)");
    set("steps", steps);

    const qint64 warmup = warmupStepCount(config);
    set("warmup", warmup > 0 ? tr("%1 from %2 × LR").arg(plural(warmup, tr("step"), tr("steps")), number(warmupStartFactor(config)))
                             : tr("none"));
    m_preview->setConfig(config);
}

}  // namespace ddplab::ui
