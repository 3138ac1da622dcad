// SPDX-License-Identifier: GPL-3.0-or-later
// Python literals, and the optimizer and learning-rate sections of a PyTorch script: the LR the
// lab applies (core/derived.hpp's arithmetic, its formula as a comment), warmup and schedule as
// torch.optim.lr_scheduler giving the LR core/derived.cpp's learningRateAt gives.

#include "client/script/script_text.hpp"

#include "client/wire.hpp"
#include "core/derived.hpp"

#include <QLocale>

namespace ddplab::ui::script {

QString pyFloat(double value)
{
    QString text = QString::number(value, 'g', QLocale::FloatingPointShortest);
    if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e')))
        text += QStringLiteral(".0");
    return text;
}

QString pyInt(int64_t value)
{
    return QString::number(value);
}

QString pyBool(bool value)
{
    return value ? QStringLiteral("True") : QStringLiteral("False");
}

QString pyString(const QString& text)
{
    QString quoted = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == QLatin1Char('\\') || c == QLatin1Char('"'))
            quoted += QLatin1Char('\\') + c;
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            quoted += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            quoted += c;
    }
    return quoted + QLatin1Char('"');
}

QString filled(QString text, std::initializer_list<std::pair<const char*, QString>> values)
{
    for (const auto& [name, value] : values)
        text.replace(QLatin1String(name), value);
    return text;
}

namespace {

QString ruleName(LrRule rule)
{
    switch (rule) {
    case LrRule::None: return wire(choice::lr_rule::kNone);
    case LrRule::Linear: return wire(choice::lr_rule::kLinear);
    case LrRule::Sqrt: return wire(choice::lr_rule::kSqrt);
    case LrRule::Power: return wire(choice::lr_rule::kPower);
    case LrRule::Sde: return wire(choice::lr_rule::kSde);
    }
    return QString();
}

// "k = (2 x 16 x 2) / 16 = 4"
QString ratioText(const Config& c)
{
    return QStringLiteral("k = effective batch / base_batch_size = (%1 x %2 x %3) / %4 = %5")
        .arg(c.worldSize)
        .arg(c.batchSize)
        .arg(c.gradAccum)
        .arg(baseBatchSize(c))
        .arg(pyFloat(batchRatio(c)));
}

}  // namespace

QString learningRateSettings(const Config& c)
{
    QString text = QStringLiteral("\n# ---- the learning rate, as the lab applies it ---------------------------------------------\n");
    if (c.lrRule == LrRule::None) {
        text += filled(QStringLiteral("LR = @LR@  # lr_rule none: the LR as given, whatever the batch\n"), {{"@LR@", pyFloat(effectiveLr(c))}});
    } else {
        text += filled(QStringLiteral("# lr_rule @RULE@: lr * k^@P@ with @K@\n#   @FORMULA@\nLR = @LR@\n"),
                       {{"@RULE@", ruleName(c.lrRule)},
                        {"@P@", pyFloat(lrRuleExponent(c))},
                        {"@K@", ratioText(c)},
                        {"@FORMULA@", QString::fromStdString(lrRuleFormula(c))},
                        {"@LR@", pyFloat(effectiveLr(c))}});
    }
    if (c.warmupSteps > 0)
        text += filled(QStringLiteral("WARMUP_STEPS = @N@  # linear warmup over the first optimizer steps\n"), {{"@N@", pyInt(c.warmupSteps)}});
    else if (c.warmupEpochs > 0)
        text += filled(QStringLiteral("WARMUP_EPOCHS = @N@  # linear warmup over this many epochs' optimizer steps\n"),
                       {{"@N@", pyFloat(c.warmupEpochs)}});
    if (c.warmupSteps > 0 || c.warmupEpochs > 0)
        text += filled(QStringLiteral("WARMUP_START_FACTOR = @F@  # warmup starts at this fraction of LR@WHY@\n"),
                       {{"@F@", pyFloat(warmupStartFactor(c))},
                        {"@WHY@", c.warmupStartFactor ? QString() : QStringLiteral(" (1 / world_size, as LinearLR in seed 003)")}});
    if (c.schedule == ScheduleKind::Cosine)
        text += filled(QStringLiteral("MIN_LR = @V@  # the cosine schedule's final LR\n"), {{"@V@", pyFloat(c.minLr)}});
    if (c.schedule == ScheduleKind::Step)
        text += filled(QStringLiteral("STEP_SIZE = @S@  # epochs between decays\nGAMMA = @G@  # decay factor\n"),
                       {{"@S@", pyInt(c.stepSize)}, {"@G@", pyFloat(c.gamma)}});
    return text;
}

QString optimizerFunction(const Config& c)
{
    QString text = QStringLiteral("def make_optimizer(parameters):\n");
    if (c.optimizer == OptimizerKind::Sgd) {
        return text + filled(QStringLiteral("    return torch.optim.SGD(parameters, lr=LR, momentum=@M@, dampening=@D@, nesterov=@N@, "
                                            "weight_decay=@WD@)\n"),
                             {{"@M@", pyFloat(c.momentum)},
                              {"@D@", pyFloat(c.dampening)},
                              {"@N@", pyBool(c.nesterov)},
                              {"@WD@", pyFloat(c.weightDecay)}});
    }
    const AdamSettings adam = appliedAdamSettings(c);
    if (c.lrRule == LrRule::Sde) {
        text += filled(QStringLiteral("    # lr_rule sde (Malladi et al.): 1 - beta and eps follow k too:\n"
                                      "    #   beta1 = @B1@, beta2 = @B2@, eps = @EPS@\n"),
                       {{"@B1@", QString::fromStdString(sdeBetaFormula(c, c.beta1))},
                        {"@B2@", QString::fromStdString(sdeBetaFormula(c, c.beta2))},
                        {"@EPS@", QString::fromStdString(sdeEpsFormula(c))}});
    }
    if (c.weightDecayRule == WeightDecayRule::Timescale) {
        text += filled(QStringLiteral("    # weight_decay_rule timescale (Wang and Aitchison): weight_decay * k * lr / LR keeps the\n"
                                      "    # decay's timescale in epochs: @F@\n"),
                       {{"@F@", QString::fromStdString(weightDecayRuleFormula(c))}});
    }
    const QString name = c.optimizer == OptimizerKind::AdamW ? QStringLiteral("AdamW") : QStringLiteral("Adam");
    return text + filled(QStringLiteral("    return torch.optim.@NAME@(parameters, lr=LR, betas=(@B1@, @B2@), eps=@EPS@, weight_decay=@WD@)\n"),
                         {{"@NAME@", name},
                          {"@B1@", pyFloat(adam.beta1)},
                          {"@B2@", pyFloat(adam.beta2)},
                          {"@EPS@", pyFloat(adam.eps)},
                          {"@WD@", pyFloat(appliedWeightDecay(c))}});
}

bool hasScheduler(const Config& c)
{
    return c.warmupSteps > 0 || c.warmupEpochs > 0 || c.schedule != ScheduleKind::Constant;
}

QString schedulerFunction(const Config& c)
{
    if (!hasScheduler(c))
        return QString();
    const bool warmup = c.warmupSteps > 0 || c.warmupEpochs > 0;
    QString text = QStringLiteral("def make_scheduler(optimizer, steps_per_epoch, total_steps):\n");
    switch (c.schedule) {
    case ScheduleKind::Constant:
        text += QStringLiteral("    \"\"\"Linear warmup from WARMUP_START_FACTOR * LR to LR, then LR.\"\"\"\n");
        break;
    case ScheduleKind::Cosine:
        text += warmup ? QStringLiteral("    \"\"\"Linear warmup from WARMUP_START_FACTOR * LR to LR, then a cosine from LR to MIN_LR over the "
                                        "remaining steps.\"\"\"\n")
                       : QStringLiteral("    \"\"\"A cosine from LR to MIN_LR over the run's optimizer steps.\"\"\"\n");
        break;
    case ScheduleKind::Step:
        text += warmup ? QStringLiteral("    \"\"\"Linear warmup from WARMUP_START_FACTOR * LR to LR, then LR times GAMMA every STEP_SIZE epochs.\"\"\"\n")
                       : QStringLiteral("    \"\"\"LR times GAMMA every STEP_SIZE epochs.\"\"\"\n");
        break;
    }
    if (c.warmupSteps > 0)
        text += QStringLiteral("    warmup_steps = WARMUP_STEPS\n");
    else if (c.warmupEpochs > 0)
        text += QStringLiteral("    warmup_steps = int(WARMUP_EPOCHS * steps_per_epoch + 0.5)  # rounded half up, as the lab rounds it\n");
    if (c.schedule == ScheduleKind::Cosine)
        text += warmup ? QStringLiteral("    after = lr_scheduler.CosineAnnealingLR(optimizer, T_max=max(1, total_steps - warmup_steps), eta_min=MIN_LR)\n")
                       : QStringLiteral("    return lr_scheduler.CosineAnnealingLR(optimizer, T_max=max(1, total_steps), eta_min=MIN_LR)\n");
    if (c.schedule == ScheduleKind::Step)
        text += warmup ? QStringLiteral("    after = lr_scheduler.StepLR(optimizer, step_size=STEP_SIZE * steps_per_epoch, gamma=GAMMA)\n")
                       : QStringLiteral("    return lr_scheduler.StepLR(optimizer, step_size=STEP_SIZE * steps_per_epoch, gamma=GAMMA)\n");
    if (!warmup)
        return text;
    if (c.schedule == ScheduleKind::Constant) {
        if (c.warmupSteps == 0)
            text += QStringLiteral("    if warmup_steps == 0:\n        return lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)\n");
        return text + QStringLiteral("    return lr_scheduler.LinearLR(optimizer, start_factor=WARMUP_START_FACTOR, total_iters=warmup_steps)\n");
    }
    if (c.warmupSteps == 0)
        text += QStringLiteral("    if warmup_steps == 0:\n        return after\n");
    return text + QStringLiteral(R"(    warmup = lr_scheduler.LinearLR(optimizer, start_factor=WARMUP_START_FACTOR, total_iters=warmup_steps)
    # At the milestone SequentialLR calls the next scheduler's step(0), which PyTorch warns about.
    warnings.filterwarnings("ignore", message="The epoch parameter in `scheduler.step")
    return lr_scheduler.SequentialLR(optimizer, [warmup, after], milestones=[warmup_steps])
)");
}

}  // namespace ddplab::ui::script
