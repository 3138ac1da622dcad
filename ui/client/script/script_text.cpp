// SPDX-License-Identifier: GPL-3.0-or-later
// Python literals, and the optimizer and learning-rate sections of a PyTorch script: the LR the
// lab applies (core/derived.hpp's arithmetic, its formula as a comment), warmup and schedule as
// torch.optim.lr_scheduler giving the LR core/derived.cpp's learningRateAt gives.

#include "client/script/script_text.hpp"

#include "client/wire.hpp"
#include "core/batch_schedule.hpp"
#include "core/derived.hpp"
#include "core/lr_schedule.hpp"

#include <QLocale>

#include <algorithm>
#include <cstring>

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

namespace {

// Python's str.isprintable(): what repr() writes as itself. Everything else (controls, format
// characters such as the bidirectional overrides, line and paragraph separators, unassigned and
// private-use code points, lone surrogates) is written as an escape, so no character of a value
// can end its literal, its line or the file, or read differently than it is.
bool isPrintable(char32_t codePoint)
{
    if (codePoint == U' ')
        return true;
    switch (QChar::category(codePoint)) {
    case QChar::Other_Control:
    case QChar::Other_Format:
    case QChar::Other_Surrogate:
    case QChar::Other_PrivateUse:
    case QChar::Other_NotAssigned:
    case QChar::Separator_Space:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return false;
    default:
        return true;
    }
}

// The code points of `text`, a lone surrogate (which a QString may hold) as itself.
template <class Visit>
void forEachCodePoint(const QString& text, Visit visit)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            visit(QChar::surrogateToUcs4(c, text[i + 1]));
            ++i;
        } else {
            visit(char32_t(c.unicode()));
        }
    }
}

QString codePointText(char32_t codePoint)
{
    return QString::fromUcs4(&codePoint, 1);
}

}  // namespace

QString pyString(const QString& text)
{
    // As Python's repr() of a str writes it, double-quoted: the literal reads back as exactly
    // these code points, whatever they are.
    QString quoted = QStringLiteral("\"");
    forEachCodePoint(text, [&](char32_t c) {
        switch (c) {
        case U'\\': quoted += QStringLiteral("\\\\"); return;
        case U'"': quoted += QStringLiteral("\\\""); return;
        case U'\n': quoted += QStringLiteral("\\n"); return;
        case U'\r': quoted += QStringLiteral("\\r"); return;
        case U'\t': quoted += QStringLiteral("\\t"); return;
        default: break;
        }
        if (isPrintable(c))
            quoted += codePointText(c);
        else if (c <= 0xff)
            quoted += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
        else if (c <= 0xffff)
            quoted += QStringLiteral("\\u%1").arg(uint(c), 4, 16, QLatin1Char('0'));
        else
            quoted += QStringLiteral("\\U%1").arg(uint(c), 8, 16, QLatin1Char('0'));
    });
    return quoted + QLatin1Char('"');
}

QString proseText(const QString& text)
{
    QString prose;
    forEachCodePoint(text, [&](char32_t c) {
        if (c == U'\\' || c == U'"')
            prose += QLatin1Char('\\') + codePointText(c);
        else if (c == U'\n' || c == U'\r' || c == U'\t')
            prose += QLatin1Char(' ');
        else if (isPrintable(c))
            prose += codePointText(c);
        else
            prose += QChar(QChar::ReplacementCharacter);
    });
    return prose;
}

QString filled(const QString& text, std::initializer_list<std::pair<const char*, QString>> values)
{
    // One pass over the template: a value is written as it is and never searched again, so a
    // placeholder (or anything else) inside a user's string stays text.
    QString result;
    result.reserve(text.size());
    qsizetype done = 0;
    for (qsizetype at = text.indexOf(QLatin1Char('@')); at >= 0; at = text.indexOf(QLatin1Char('@'), done)) {
        result += QStringView(text).mid(done, at - done);
        const QStringView rest = QStringView(text).mid(at);
        done = at + 1;
        const auto placeholder = std::find_if(values.begin(), values.end(),
                                              [&](const auto& entry) { return rest.startsWith(QLatin1String(entry.first)); });
        if (placeholder == values.end()) {
            result += QLatin1Char('@');
            continue;
        }
        result += placeholder->second;
        done = at + qsizetype(std::strlen(placeholder->first));
    }
    result += QStringView(text).mid(done);
    return result;
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
    if (c.lrRangeTest) {
        return text + filled(QStringLiteral("# lr_range_test (Smith 2017): the LR rises exponentially from LR_RANGE_MIN to LR_RANGE_MAX over\n"
                                            "# LR_RANGE_STEPS optimizer steps, in place of lr, its rule, warmup and schedule.\n"
                                            "LR_RANGE_MIN = @MIN@\nLR_RANGE_MAX = @MAX@\nLR_RANGE_STEPS = @STEPS@\n"
                                            "LR = LR_RANGE_MIN  # the optimizer's LR until each step sets its own\n"),
                             {{"@MIN@", pyFloat(c.lrRangeMin)}, {"@MAX@", pyFloat(c.lrRangeMax)}, {"@STEPS@", pyInt(c.lrRangeSteps)}});
    }
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
    // The range test and a growing batch set each step's LR themselves.
    if (c.lrRangeTest || growsByPlan(c))
        return false;
    return c.warmupSteps > 0 || c.warmupEpochs > 0 || c.schedule != ScheduleKind::Constant;
}

namespace {

QString rangeTestLrFunction()
{
    return QStringLiteral(R"(def range_test_lr(step):
    """The range test's LR `step` optimizer steps in: LR_RANGE_MIN * (LR_RANGE_MAX / LR_RANGE_MIN) to the
    power step / (LR_RANGE_STEPS - 1), held at LR_RANGE_MAX from there on."""
    progress = min(step, LR_RANGE_STEPS - 1) / (LR_RANGE_STEPS - 1)
    return LR_RANGE_MIN * (LR_RANGE_MAX / LR_RANGE_MIN) ** progress
)");
}

// The LR of engine/core/lr_schedule.cpp's learningRateAt, as a function of the step: a growing
// batch reads it on its own clock (script_growth.cpp).
QString scheduledLrFunction(const Config& c)
{
    const bool warmup = c.warmupSteps > 0 || c.warmupEpochs > 0;
    QString text;
    if (warmup) {
        text += QStringLiteral("def warmup_steps_of(steps_per_epoch):\n    \"\"\"Warmup's length in optimizer steps of the starting batch.\"\"\"\n");
        text += c.warmupSteps > 0 ? QStringLiteral("    return WARMUP_STEPS\n\n\n")
                                  : QStringLiteral("    return int(WARMUP_EPOCHS * steps_per_epoch + 0.5)  # rounded half up, as the lab rounds it\n\n\n");
    }
    QString after;
    QString body;
    const QString warmupSteps = warmup ? QStringLiteral(" - warmup_steps") : QString();
    switch (c.schedule) {
    case ScheduleKind::Constant:
        after = QStringLiteral("LR");
        body = QStringLiteral("    return LR\n");
        break;
    case ScheduleKind::Cosine:
        after = QStringLiteral("a cosine from LR to MIN_LR over the run's remaining steps");
        body = filled(QStringLiteral("    progress = min(1.0, step / max(1, total_steps@WARMUP@))\n"
                                     "    return MIN_LR + (LR - MIN_LR) * 0.5 * (1.0 + math.cos(math.pi * progress))\n"),
                      {{"@WARMUP@", warmupSteps}});
        break;
    case ScheduleKind::Step:
        after = QStringLiteral("LR times GAMMA every STEP_SIZE epochs");
        body = QStringLiteral("    return LR * GAMMA ** (step // max(1, STEP_SIZE * steps_per_epoch))\n");
        break;
    }
    text += filled(QStringLiteral("def scheduled_lr(step, steps_per_epoch, total_steps):\n"
                                  "    \"\"\"The LR the schedule gives `step` optimizer steps of the starting batch into the run, as the\n"
                                  "    lab computes it (engine/core/lr_schedule.cpp): @WHAT@.\"\"\"\n"),
                   {{"@WHAT@", warmup ? QStringLiteral("linear warmup from WARMUP_START_FACTOR * LR to LR\n    over warmup_steps_of(steps_per_epoch), then ") + after
                                      : after}});
    if (warmup) {
        text += QStringLiteral("    warmup_steps = warmup_steps_of(steps_per_epoch)\n"
                               "    if step < warmup_steps:\n"
                               "        return LR * (WARMUP_START_FACTOR + (1.0 - WARMUP_START_FACTOR) * step / warmup_steps)\n"
                               "    step -= warmup_steps\n");
    }
    return text + body;
}

}  // namespace

QString learningRateFunctions(const Config& c)
{
    if (c.lrRangeTest)
        return rangeTestLrFunction();
    if (growsByPlan(c))
        return scheduledLrFunction(c);
    return schedulerFunction(c);
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
