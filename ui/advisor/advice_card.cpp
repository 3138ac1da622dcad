// SPDX-License-Identifier: GPL-3.0-or-later
#include "advisor/advice_card.hpp"

#include "client/advisor/advice.hpp"
#include "client/advisor/batch_verdict.hpp"
#include "client/wire.hpp"
#include "theme/message_colors.hpp"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace ddplab::ui {
namespace {

QString figure(double value)
{
    return std::isfinite(value) ? QString::number(value, 'g', 3) : QStringLiteral("—");
}

QLabel* wrapped(const QString& text)
{
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QString lrRuleWords(const Advice& a)
{
    // The LR given is always one the confirmation trained; a rule is named when its value lies in
    // the measured safe band.
    const QString rule = a.lrRule;
    const QString value = a.ruleLr > 0 ? QObject::tr(" (%1)").arg(figure(a.ruleLr)) : QString();
    if (rule == wire(choice::lr_rule::kLinear))
        return QObject::tr("measured; the linear rule's LR%1 lies in the safe band").arg(value);
    if (rule == wire(choice::lr_rule::kSqrt))
        return QObject::tr("measured; the square-root rule's LR%1 lies in the safe band").arg(value);
    if (rule == wire(choice::lr_rule::kNone))
        return QObject::tr("measured; your own LR%1 lies in the safe band").arg(value);
    return QObject::tr("measured: no rule's LR lies in the safe band");
}

// The LR, and why it is not the lowest mean's when the rungs around that one are within noise.
QString lrWords(const Advice& a)
{
    if (!a.lrIsMiddleOfNoise())
        return QObject::tr("%1: %2").arg(figure(a.lr), lrRuleWords(a));
    return QObject::tr("%1: the middle of LRs %2 to %3, which the seeds cannot rank against the lowest mean (%4); %5")
        .arg(figure(a.lr), figure(a.quietLow), figure(a.quietHigh), figure(a.lowestMeanLr), lrRuleWords(a));
}

QString capitalised(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    return text;
}

// How the best LR grew with the batch in the branch test, and which rules its interval holds.
QString exponentWords(const Advice& a)
{
    if (!std::isfinite(a.lrExponent))
        return QObject::tr("not measured (fewer than two batches had a best LR)");
    const QString rules = a.lrExponentRules.isEmpty()                               ? QObject::tr("neither the linear nor the square-root rule")
                          : a.lrExponentRules.size() == 2                           ? QObject::tr("both the linear and the square-root rule")
                          : a.lrExponentRules.front() == wire(choice::lr_rule::kLinear) ? QObject::tr("the linear rule")
                                                                                    : QObject::tr("the square-root rule");
    if (std::isfinite(a.lrExponentLow))
        return QObject::tr("batch^%1, from %2 to %3 over %4 data orders: within it, %5").arg(figure(a.lrExponent), figure(a.lrExponentLow), figure(a.lrExponentHigh)).arg(a.branchSeeds).arg(rules);
    return QObject::tr("batch^%1 (one data order: no interval); nearest, %2").arg(figure(a.lrExponent), rules);
}

// McCandlish's fit in one line, and why it cannot be trusted when it cannot.
QString fitWords(const StepsToTarget& fit)
{
    if (!fit.ok)
        return fit.doubts.isEmpty() ? QObject::tr("not made") : QObject::tr("not made: %1").arg(fit.doubts.join(QLatin1Char(' ')));
    const QString head = QObject::tr("B_crit %1, S_min %2 steps (steps to a loss of %3 over batches %4 to %5)")
                             .arg(figure(fit.fit.bCrit), figure(fit.fit.sMin), figure(fit.target), figure(fit.smallestBatch), figure(fit.largestBatch));
    return fit.doubts.isEmpty() ? head + QObject::tr("; nothing argues against it") : head + QObject::tr(". Not to be trusted: %1").arg(fit.doubts.join(QLatin1Char(' ')));
}

}  // namespace

AdviceCard::AdviceCard(QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("adviceCard"));
    setFrameShape(QFrame::StyledPanel);
    m_heading = new QLabel;
    m_heading->setObjectName(QStringLiteral("adviceHeading"));
    m_heading->setWordWrap(true);
    QFont bold = m_heading->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_heading->setFont(bold);
    m_rows = new QGridLayout;
    m_rows->setColumnStretch(1, 1);
    m_rows->setHorizontalSpacing(12);
    m_notes = new QVBoxLayout;
    m_notes->setSpacing(4);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addLayout(m_rows);
    layout->addLayout(m_notes);
    showMessage(tr("No advice yet. Choose the GPUs to plan for and a time budget, then Start: the advisor measures "
                   "your model and answers here with the batch per GPU and the LR, and the evidence below."));
}

void AdviceCard::clear()
{
    for (QLayout* layout : {static_cast<QLayout*>(m_rows), static_cast<QLayout*>(m_notes)})
        while (QLayoutItem* item = layout->takeAt(0)) {
            delete item->widget();
            delete item;
        }
    m_cautions.clear();
    m_rowsUsed = 0;
}

void AdviceCard::showMessage(const QString& text)
{
    clear();
    m_heading->setText(text);
    QFont font = m_heading->font();
    font.setBold(false);
    font.setPointSizeF(QLabel().font().pointSizeF());
    m_heading->setFont(font);
}

void AdviceCard::addRow(const QString& name, const QString& value)
{
    const int row = m_rowsUsed++;
    auto* nameLabel = new QLabel(name);
    nameLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    QFont bold = nameLabel->font();
    bold.setBold(true);
    nameLabel->setFont(bold);
    m_rows->addWidget(nameLabel, row, 0, Qt::AlignTop);
    m_rows->addWidget(wrapped(value), row, 1);
}

void AdviceCard::addSentences(const QString& heading, const QStringList& sentences, bool caution)
{
    if (sentences.isEmpty())
        return;
    auto* title = new QLabel(heading);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    m_notes->addWidget(title);
    for (const QString& sentence : sentences) {
        QLabel* label = wrapped(QStringLiteral("• ") + sentence);
        label->setContentsMargins(8, 0, 0, 0);
        m_notes->addWidget(label);
        if (caution)
            m_cautions.append(label);
    }
    colourCautions();
}

void AdviceCard::colourCautions()
{
    // A caution's colour reads on a light window; on a dark one the text colour does.
    for (QLabel* label : m_cautions) {
        QPalette palette = label->palette();
        if (!isDarkPalette(palette))
            palette.setColor(QPalette::WindowText, QColor(kCautionTextRgb));
        else
            palette.setColor(QPalette::WindowText, this->palette().color(QPalette::WindowText));
        label->setPalette(palette);
    }
}

void AdviceCard::changeEvent(QEvent* event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        colourCautions();
}

void AdviceCard::showAdvice(const Advice& a)
{
    clear();
    QFont bold = m_heading->font();
    bold.setBold(true);
    bold.setPointSizeF(QLabel().font().pointSizeF() * 1.2);
    m_heading->setFont(bold);
    m_heading->setText(a.dontScale ? tr("Don't scale this far: on %1 GPUs, %2 per GPU and LR %3").arg(a.gpus).arg(a.batchPerGpu).arg(figure(a.lr))
                                   : tr("On %1 GPUs: %2 per GPU and LR %3").arg(a.gpus).arg(a.batchPerGpu).arg(figure(a.lr)));

    addRow(tr("Batch"), tr("%1 per GPU × %2 GPUs, gradient accumulation %3: an effective batch of %4")
                            .arg(a.batchPerGpu).arg(a.gpus).arg(a.gradAccum).arg(a.effectiveBatch));
    addRow(tr("Model"), tr("%1 on %2").arg(a.model.isEmpty() ? tr("not named") : a.model, a.data.isEmpty() ? tr("its data") : a.data));
    addRow(tr("Learning rate"), lrWords(a));
    addRow(tr("Safe LR range"), a.safeHigh > a.safeLow ? tr("%1 to %2 (within 10 % of the best measure)").arg(figure(a.safeLow), figure(a.safeHigh))
                                                       : tr("only the best LR was within 10 %"));
    if (!a.betasRule.isEmpty())
        addRow(tr("β1, β2, ε"), tr("%1, %2, %3 (%4)")
                                    .arg(QString::number(a.beta1, 'g', 6), QString::number(a.beta2, 'g', 6), QString::number(a.eps, 'g', 3),
                                         a.betasRule == wire(choice::lr_rule::kSde) ? tr("yours scaled by the SDE rule, not measured") : tr("yours, not scaled")));
    const QString warmup = a.warmupSteps == 0 ? tr("none") : a.warmupSteps == 1 ? tr("1 step") : tr("%1 steps").arg(a.warmupSteps);
    addRow(tr("Warmup"), a.schedule.isEmpty() ? warmup : tr("%1; schedule: %2").arg(warmup, a.schedule));
    if (!a.warmup.verdict.isEmpty())
        addRow(tr("Warmup arm"), capitalised(a.warmup.verdict));
    addRow(tr("Best LR and batch"), exponentWords(a));
    addVerdicts(a);
    addRow(tr("Critical batch"), a.criticalBatch > 0 && std::isfinite(a.criticalBatch)
                                     ? tr("%1%2 (the branch test, within %3 % of your batch's loss)")
                                           .arg(a.criticalBatchBeyond ? tr("at least ") : QString(), figure(a.criticalBatch), figure(100.0 * a.branchTolerance))
                                     : tr("not measured"));
    if (a.stepsFit.ok || !a.stepsFit.doubts.isEmpty())
        addRow(tr("McCandlish's fit"), fitWords(a.stepsFit));
    if (!a.noiseScale.isEmpty() && std::isfinite(a.noiseScale.last().y()))
        addRow(tr("Noise scale"), tr("B_simple %1 at the end of your base run (corroboration, not a decision)").arg(figure(a.noiseScale.last().y())));
    addRow(tr("Speed"), capitalised(speedWords(a)));
    addRow(tr("Steps to match"), tr("%1 at the recommendation, %2 for your base run (to reach its %3)")
                                     .arg(a.stepsToMatch >= 0 ? QString::number(a.stepsToMatch) : tr("not reached in the horizon"))
                                     .arg(a.baseSteps)
                                     .arg(a.measureName));
    addRow(tr("Objective"), a.objective);
    addRow(tr("Horizon"), tr("%1 samples measured of the %2 planned%3")
                              .arg(qRound64(a.horizonSamples))
                              .arg(qRound64(a.plannedSamples))
                              .arg(a.horizonSamples + 0.5 < a.plannedSamples ? tr(": the LR beyond it is extrapolated") : QString()));
    addRow(tr("Confidence"), a.confidenceReason.isEmpty() ? a.confidence : tr("%1: %2").arg(a.confidence, a.confidenceReason));
    addSentences(tr("Cautions"), a.cautions, true);
    addSentences(tr("Trimmed to fit the time budget"), a.trimmed, false);
    m_notes->addWidget(wrapped(tr("Took %1 s; %2 runs, listed in Runs.").arg(qRound64(a.tookSeconds)).arg(a.evidence.size())));
}

void AdviceCard::addVerdicts(const Advice& a)
{
    if (a.batchVerdicts.isEmpty())
        return;
    QStringList lines;
    for (const BatchVerdict& verdict : a.batchVerdicts)
        lines.append(verdict.yours ? tr("%1: yours, the reference (%2 orders)").arg(qint64(verdict.batch)).arg(verdict.orders)
                                   : tr("%1: %2").arg(qint64(verdict.batch)).arg(verdictWords(verdict, a.branchTolerance)));
    addRow(tr("Each batch against yours"), lines.join(QLatin1Char('\n')));
}

void AdviceCard::showProgress(const Advice& a, const QString& now)
{
    clear();
    QFont font = m_heading->font();
    font.setBold(false);
    font.setPointSizeF(QLabel().font().pointSizeF());
    m_heading->setFont(font);
    m_heading->setText(tr("Measuring: %1. What the finished phases found so far:").arg(now));
    if (!a.model.isEmpty())
        addRow(tr("Model"), tr("%1 on %2").arg(a.model, a.data));
    if (a.baseSteps > 0)
        addRow(tr("Base run"), tr("your settings ran %1 steps; the rest is planned from their time").arg(a.baseSteps));
    if (a.batchPerGpu > 0)
        addRow(tr("Batch"), tr("%1 per GPU × %2 GPUs: an effective batch of %3 (the branch test's choice; its LR is confirmed next)")
                                .arg(a.batchPerGpu)
                                .arg(a.gpus)
                                .arg(a.effectiveBatch));
    addVerdicts(a);
    if (a.criticalBatch > 0 && std::isfinite(a.criticalBatch))
        addRow(tr("Critical batch"), tr("%1%2 (within %3 % of your batch's loss)")
                                         .arg(a.criticalBatchBeyond ? tr("at least ") : QString(), figure(a.criticalBatch), figure(100.0 * a.branchTolerance)));
    if (!a.noiseScale.isEmpty() && std::isfinite(a.noiseScale.last().y()))
        addRow(tr("Noise scale"), tr("B_simple %1 at the end of your base run (corroboration, not a decision)").arg(figure(a.noiseScale.last().y())));
    if (a.batchPerGpu <= 0 && a.baseSteps <= 0)
        addRow(tr("So far"), tr("nothing yet: the base run sizes the plan"));
    addSentences(tr("Trimmed to fit the time budget"), a.trimmed, false);
}

QString AdviceCard::text() const
{
    QStringList lines{m_heading->text()};
    for (int row = 0; row < m_rowsUsed; ++row)
        for (int column = 0; column < 2; ++column)
            if (QLayoutItem* item = m_rows->itemAtPosition(row, column))
                if (auto* label = qobject_cast<QLabel*>(item->widget()))
                    lines.append(label->text());
    for (int i = 0; i < m_notes->count(); ++i)
        if (auto* label = qobject_cast<QLabel*>(m_notes->itemAt(i)->widget()))
            lines.append(label->text());
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ddplab::ui
