#include "parameter_layout.hpp"

#include <QHash>

namespace ddplab::ui {
namespace {

struct KeyPresentation {
    const char* key;
    const char* label;
    const char* group;
};

const QString kWorkload = QStringLiteral("Workload");
const QString kParallelism = QStringLiteral("Parallelism");
const QString kLearningRate = QStringLiteral("Learning rate");
const QString kOptimizer = QStringLiteral("Optimizer");
const QString kSchedule = QStringLiteral("Warmup and schedule");
const QString kLength = QStringLiteral("Length");
const QString kDataOrder = QStringLiteral("Data order");
const QString kAdvanced = QStringLiteral("Advanced");
const QString kOther = QStringLiteral("Other");

constexpr KeyPresentation kPresentation[] = {
    {"workload", "Workload", "Workload"},
    {"model", "Model", "Workload"},
    {"num_examples", "Training examples", "Workload"},
    {"dim", "Input dimension", "Workload"},
    {"experiments", "Experiments", "Workload"},
    {"noise", "Noise σ", "Workload"},
    {"train_subset", "Training subset", "Workload"},
    {"data_dir", "Data folder", "Workload"},
    {"world_size", "GPUs (ranks)", "Parallelism"},
    {"batch_size", "Batch per GPU", "Parallelism"},
    {"grad_accum", "Gradient accumulation", "Parallelism"},
    {"device", "Device", "Parallelism"},
    {"backend", "Backend", "Parallelism"},
    {"lr", "Base LR", "Learning rate"},
    {"base_batch_size", "Tuned for batch", "Learning rate"},
    {"lr_rule", "LR rule", "Learning rate"},
    {"lr_power", "Power p", "Learning rate"},
    {"optimizer", "Optimizer", "Optimizer"},
    {"momentum", "Momentum", "Optimizer"},
    {"dampening", "Dampening", "Optimizer"},
    {"nesterov", "Nesterov", "Optimizer"},
    {"weight_decay", "Weight decay", "Optimizer"},
    {"beta1", "β1", "Optimizer"},
    {"beta2", "β2", "Optimizer"},
    {"eps", "ε", "Optimizer"},
    {"grad_averaging", "Gradient averaging", "Optimizer"},
    {"trust_coefficient", "Trust coefficient η", "Optimizer"},
    {"warmup_steps", "Warmup steps", "Warmup and schedule"},
    {"warmup_epochs", "Warmup epochs", "Warmup and schedule"},
    {"warmup_start_factor", "Warmup starts at", "Warmup and schedule"},
    {"schedule", "Schedule", "Warmup and schedule"},
    {"step_size", "Decay every (epochs)", "Warmup and schedule"},
    {"gamma", "Decay factor γ", "Warmup and schedule"},
    {"min_lr", "Final LR", "Warmup and schedule"},
    {"epochs", "Epochs", "Length"},
    {"max_steps", "Stop after (steps)", "Length"},
    {"eval_every", "Evaluate every (steps)", "Length"},
    {"shuffle", "Shuffle", "Data order"},
    {"drop_last", "Drop last", "Data order"},
    {"seed", "Seed", "Data order"},
    {"threads", "Threads per rank", "Advanced"},
    {"bucket_cap_mb", "Bucket size (MiB)", "Advanced"},
    {"overlap", "Overlap all-reduce", "Advanced"},
    {"fail_at", "Inject a failure", "Advanced"},
};

const KeyPresentation* presentationOf(const QString& key)
{
    for (const KeyPresentation& entry : kPresentation) {
        if (key == QLatin1String(entry.key))
            return &entry;
    }
    return nullptr;
}

bool oneOf(OptimizerKind optimizer, std::initializer_list<OptimizerKind> kinds)
{
    return std::find(kinds.begin(), kinds.end(), optimizer) != kinds.end();
}

}  // namespace

QList<ParameterGroup> parameterGroups()
{
    return {{kWorkload}, {kParallelism}, {kLearningRate}, {kOptimizer}, {kSchedule},
            {kLength},   {kDataOrder},   {kAdvanced, true}, {kOther, true}};
}

QString parameterGroupOf(const QString& key)
{
    const KeyPresentation* entry = presentationOf(key);
    return entry ? QString::fromUtf8(entry->group) : kOther;
}

QString parameterLabel(const QString& key)
{
    const KeyPresentation* entry = presentationOf(key);
    if (entry)
        return QString::fromUtf8(entry->label);
    QString label = key;
    label.replace(QLatin1Char('_'), QLatin1Char(' '));
    if (!label.isEmpty())
        label[0] = label[0].toUpper();
    return label;
}

QString choiceLabel(const QString& key, const QString& choice)
{
    static const QHash<QString, QString> kLabels{
        {QStringLiteral("workload/toy"), QStringLiteral("toy: one neuron (seed 000)")},
        {QStringLiteral("workload/linreg"), QStringLiteral("linreg: linear model (seed 004)")},
        {QStringLiteral("workload/fashion_mnist"), QStringLiteral("fashion_mnist: images")},
        {QStringLiteral("lr_rule/none"), QStringLiteral("none: keep the LR")},
        {QStringLiteral("lr_rule/linear"), QStringLiteral("linear: × k")},
        {QStringLiteral("lr_rule/sqrt"), QStringLiteral("sqrt: × √k")},
        {QStringLiteral("lr_rule/power"), QStringLiteral("power: × k^p")},
    };
    return kLabels.value(key + QLatin1Char('/') + choice, choice);
}

bool isHiddenParameter(const QString& key)
{
    return key == QLatin1String("events");
}

bool isRelevant(const QString& key, const Config& c)
{
    const bool fashion = c.workload == WorkloadKind::FashionMnist;
    if (key == QLatin1String("model") || key == QLatin1String("train_subset") || key == QLatin1String("eval_every") ||
        key == QLatin1String("data_dir"))
        return fashion;
    if (key == QLatin1String("num_examples") || key == QLatin1String("experiments") || key == QLatin1String("noise"))
        return !fashion;
    if (key == QLatin1String("dim"))
        return c.workload == WorkloadKind::Linreg;
    if (key == QLatin1String("lr_power"))
        return c.lrRule == LrRule::Power;
    if (key == QLatin1String("momentum"))
        return oneOf(c.optimizer, {OptimizerKind::Sgd, OptimizerKind::Lars});
    if (key == QLatin1String("dampening") || key == QLatin1String("nesterov"))
        return c.optimizer == OptimizerKind::Sgd;
    if (key == QLatin1String("beta1") || key == QLatin1String("beta2") || key == QLatin1String("eps"))
        return oneOf(c.optimizer, {OptimizerKind::Adam, OptimizerKind::AdamW, OptimizerKind::NovoGrad, OptimizerKind::Lamb});
    if (key == QLatin1String("grad_averaging"))
        return c.optimizer == OptimizerKind::NovoGrad;
    if (key == QLatin1String("trust_coefficient"))
        return c.optimizer == OptimizerKind::Lars;
    if (key == QLatin1String("step_size") || key == QLatin1String("gamma"))
        return c.schedule == ScheduleKind::Step;
    if (key == QLatin1String("min_lr"))
        return c.schedule == ScheduleKind::Cosine;
    if (key == QLatin1String("warmup_start_factor"))
        return c.warmupSteps > 0 || c.warmupEpochs > 0;
    return true;
}

}  // namespace ddplab::ui
