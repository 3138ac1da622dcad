// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice.hpp"

#include "adam_moments.hpp"
#include "client/library/preset_file.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/wire.hpp"
#include "core/config_validate.hpp"
#include "core/derived.hpp"

#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

QString figure(double value)
{
    return std::isfinite(value) ? QString::number(value, 'g', 4) : QStringLiteral("—");
}

}  // namespace

QString criticalBatchWords(const Advice& a)
{
    QStringList words;
    words << QStringLiteral("The branch test puts the critical batch %1%2 (within %3 % of the base batch's loss).")
                 .arg(a.criticalBatchBeyond ? QStringLiteral("at or above ") : QString(), figure(a.criticalBatch), figure(100.0 * a.branchTolerance));
    const StepsToTarget& f = a.stepsFit;
    if (f.ok)
        words << QStringLiteral("McCandlish's fit of the steps to reach %1 (S = S_min (1 + B_crit/B), S_min %2 steps) gives B_crit %3 over batches %4 to %5%6")
                     .arg(figure(f.target), figure(f.fit.sMin), figure(f.fit.bCrit), figure(f.smallestBatch), figure(f.largestBatch))
                     .arg(f.doubts.isEmpty() ? QStringLiteral(", and nothing argues against it.") : QStringLiteral(", but it cannot be trusted: ") + f.doubts.join(QLatin1Char(' ')));
    else if (!f.doubts.isEmpty())
        words << QStringLiteral("McCandlish's fit was not made: ") + f.doubts.join(QLatin1Char(' '));
    if (!a.noiseScale.isEmpty() && std::isfinite(a.noiseScale.last().y()))
        words << QStringLiteral("The simple noise scale B_simple read %1 at the end of the base run (a lower bound in McCandlish's model, corroboration only).")
                     .arg(figure(a.noiseScale.last().y()));
    return words.join(QLatin1Char(' '));
}

void putRecommendation(Advice& a, const ddplab::Config& base)
{
    ddplab::Config& r = a.recommended;
    r = base;
    r.worldSize = a.gpus;
    r.batchSize = a.batchPerGpu;
    r.gradAccum = 1;
    r.accumulateAsRanks = false;
    r.lr = a.lr;
    r.lrRule = LrRule::None;
    r.baseBatchSize.reset();
    r.schedule = ScheduleKind::Constant;
    if (a.warmup.helped) {
        r.warmupSteps = a.warmupSteps;
        r.warmupEpochs = 0.0;
        r.warmupStartFactor = a.warmup.startFactor;
    }
    a.betasRule.clear();
    if (usesMoments(base)) {
        // The rule from the base's batch to the recommended one, as the engine would apply it,
        // and as the advisor's runs at that batch used it (emulatedRun): yours kept at or below
        // your batch, or where the engine refuses the rule.
        const AdamSettings baseMoments = appliedAdamSettings(base);
        const ScaledMoments scaled = sdeMomentsAt(base, r);
        r.beta1 = scaled.settings.beta1;
        r.beta2 = scaled.settings.beta2;
        r.eps = scaled.settings.eps;
        if (scaled.refusal.isEmpty()) {
            a.betasRule = wire(choice::lr_rule::kSde);
            a.cautions.append(QStringLiteral("beta1, beta2 and eps were scaled from yours (%1, %2, %3) by the SDE rule (Malladi et al. 2022) at k = %4: "
                                             "1 - beta by k, eps by 1/sqrt(k), to %5, %6, %7. They come from the rule, not from their own "
                                             "measurement: the advisor's runs at each batch used the rule's values for it, so the LR was "
                                             "confirmed with these.")
                                  .arg(figure(baseMoments.beta1), figure(baseMoments.beta2), QString::number(baseMoments.eps, 'g', 3), figure(scaled.k),
                                       QString::number(r.beta1, 'g', 6), QString::number(r.beta2, 'g', 6), QString::number(r.eps, 'g', 3)));
        } else {
            a.betasRule = wire(choice::lr_rule::kNone);
            a.cautions.append(QStringLiteral("beta1, beta2 and eps were kept at yours (%1, %2, %3), not scaled: %4.")
                                  .arg(figure(r.beta1), figure(r.beta2), QString::number(r.eps, 'g', 3), scaled.refusal));
        }
        a.beta1 = r.beta1;
        a.beta2 = r.beta2;
        a.eps = r.eps;
    }
    const PyTorchScript script = pytorchScriptOf(presetFromCoreConfig(r), QStringLiteral("the advisor's recommendation"));
    a.snippet = script.isWritten() ? script.text + QStringLiteral("\n# run it: ") + torchrunCommand(a.gpus, QStringLiteral("train_ddp.py")) + QLatin1Char('\n')
                                   : QStringLiteral("# no script: ") + script.error + QLatin1Char('\n');
}
QString speedWords(const Advice& a)
{
    if (!a.goodput)
        return QStringLiteral("not chosen by speed: the runs were timed on this computer's CPU, and its times do not transfer to your GPUs (give "
                              "Setup's Run on a host with them, and the advisor times each batch per GPU there)");
    return QStringLiteral("timed on %1: %2.").arg(a.goodput->timedOn, a.goodput->verdict);
}

QString Advice::toMarkdown() const
{
    QStringList text;
    text << QStringLiteral("# Advice: %1 GPUs").arg(gpus) << QString();
    if (!model.isEmpty())
        text << QStringLiteral("For %1 on %2.").arg(model, data) << QString();
    if (dontScale)
        text << QStringLiteral("**Don't scale this far.** %1 × the base's batch per GPU is past the measured critical batch (%2); "
                               "the recommendation below uses a smaller batch per GPU.")
                    .arg(gpus)
                    .arg(figure(criticalBatch))
             << QString();
    text << QStringLiteral("- **Batch per GPU** %1, gradient accumulation %2: an effective batch of %3%4")
                .arg(batchPerGpu)
                .arg(gradAccum)
                .arg(effectiveBatch)
                .arg(mostBatchPerGpu > 0 ? QStringLiteral(" (the most one GPU holds, as asked: %1 per GPU)").arg(mostBatchPerGpu) : QString());
    text << QStringLiteral("- **Learning rate** %1 (trained at this batch in every seed%2), safe from %3 to %4 (within 10 % of its measure)")
                .arg(figure(lr),
                     lrRule == QStringLiteral("measured") || lrRule.isEmpty() ? QString()
                                                                             : QStringLiteral("; the %1 rule's LR, %2, lies in the safe band").arg(lrRule, figure(ruleLr)),
                     figure(safeLow), figure(safeHigh));
    text << QStringLiteral("- **Warmup** %1 steps; schedule: %2").arg(warmupSteps).arg(schedule);
    if (!betasRule.isEmpty())
        text << QStringLiteral("- **beta1** %1, **beta2** %2, **eps** %3 (%4)")
                    .arg(QString::number(beta1, 'g', 6), QString::number(beta2, 'g', 6), QString::number(eps, 'g', 3),
                         betasRule == wire(choice::lr_rule::kSde) ? QStringLiteral("scaled from yours by the SDE rule; the LR was confirmed with them") : QStringLiteral("yours, not scaled"));
    text << QStringLiteral("- **Confidence** %1: %2").arg(confidence, confidenceReason) << QString();
    text << QStringLiteral("## Objective") << QString() << objective << QString();
    text << QStringLiteral("## Evidence") << QString();
    if (std::isfinite(lrExponentLow))
        text << QStringLiteral("- The best LR grows as batch^%1 over the mean of the branch test's %4 data orders (each order fitted alone: from %2 to %3%6)%5.")
                    .arg(figure(lrExponent), figure(lrExponentLow), figure(lrExponentHigh))
                    .arg(branchSeeds)
                    .arg(lrExponentRules.isEmpty() ? QStringLiteral(": neither the linear nor the square-root rule lies within")
                                                   : QStringLiteral(": within it, the %1 rule").arg(lrExponentRules.join(QStringLiteral(" and the "))))
                    .arg(lrExponent >= lrExponentLow && lrExponent <= lrExponentHigh
                             ? QString()
                             : QStringLiteral("; the mean's optimum is not between the orders' own, so its exponent is outside them"));
    else
        text << QStringLiteral("- The best LR grows as batch^%1 over the branch test's batches (one data order: its spread is not measured).")
                    .arg(figure(lrExponent));
    for (const BatchVerdict& verdict : batchVerdicts)
        text << (verdict.yours ? QStringLiteral("- Batch %1 is yours: every other is compared with it, over the same data orders (%2 of them).")
                                     .arg(qint64(verdict.batch))
                                     .arg(verdict.orders)
                               : QStringLiteral("- Batch %1 against yours: %2.").arg(qint64(verdict.batch)).arg(verdictWords(verdict, branchTolerance)));
    text << QStringLiteral("- Critical batch: ") + (criticalBatchFinding.isEmpty() ? criticalBatchWords(*this) : criticalBatchFinding);
    if (!warmup.verdict.isEmpty())
        text << QStringLiteral("- Warmup: ") + warmup.verdict;
    if (!noiseScale.isEmpty())
        text << QStringLiteral("- The noise scale B_simple went from %1 to %2 over the base run (corroboration, not a decision).")
                    .arg(figure(noiseScale.first().y()), figure(noiseScale.last().y()));
    text << QStringLiteral("- Speed: ") + speedWords(*this);
    text << QStringLiteral("- Steps to reach the base run's %1: %2 at the recommendation, %3 for the base.")
                .arg(measureName)
                .arg(stepsToMatch >= 0 ? QString::number(stepsToMatch)
                                       : QStringLiteral("not reached in the %1 samples the confirmation ran").arg(qRound64(horizonSamples)))
                .arg(baseSteps);
    text << QStringLiteral("- Horizon: the LR was confirmed over %1 samples (your whole training: %2).").arg(qRound64(horizonSamples)).arg(qRound64(plannedSamples))
         << QString();
    if (!cautions.isEmpty()) {
        text << QStringLiteral("## Cautions") << QString();
        for (const QString& caution : cautions)
            text << QStringLiteral("- ") + caution;
        text << QString();
    }
    if (!trimmed.isEmpty()) {
        text << QStringLiteral("## Trimmed to fit the time budget") << QString();
        for (const QString& cut : trimmed)
            text << QStringLiteral("- ") + cut;
        text << QString();
    }
    text << QStringLiteral("## Runs") << QString() << QStringLiteral("| phase | run | measure | status |") << QStringLiteral("|---|---|---|---|");
    for (const AdviceEvidence& run : evidence)
        text << QStringLiteral("| %1 | %2 | %3 | %4 |").arg(run.phase, run.label, figure(run.measure), run.status);
    text << QString() << QStringLiteral("Took %1 s.").arg(qRound(tookSeconds)) << QString();
    if (!snippet.isEmpty())
        text << QStringLiteral("## Your script") << QString() << QStringLiteral("```python") << snippet.trimmed() << QStringLiteral("```") << QString();
    return text.join(QLatin1Char('\n'));
}

}  // namespace ddplab::ui
