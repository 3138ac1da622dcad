// SPDX-License-Identifier: GPL-3.0-or-later
#include "client/script/pytorch_script.hpp"

#include "client/library/preset_file.hpp"
#include "client/script/script_growth.hpp"
#include "client/script/script_text.hpp"
#include "client/script/script_training.hpp"
#include "client/script/script_workloads.hpp"
#include "client/wire.hpp"
#include "core/batch_schedule.hpp"
#include "core/config_keys.hpp"
#include "core/derived.hpp"
#include "core/workload_table.hpp"

#include <QRegularExpression>

#include <optional>

namespace ddplab::ui {

using namespace script;

namespace {

// Steps whose losses are printed together: one all-reduce and one read of the device for them.
constexpr int kLogEvery = 10;

// Why these settings cannot become a script that trains what the lab trained, each key's own
// sentence from the key table (core/script_treatment.hpp); "" when they can.
QString refusal(const Config& c)
{
    QStringList sentences;
    if (const QString workload = workloadRefusal(c); !workload.isEmpty())
        sentences.append(workload);
    for (const ConfigKey& key : configKeys()) {
        if (const std::string sentence = key.script.refusalFor(c); !sentence.empty())
            sentences.append(QString::fromStdString(sentence));
    }
    return sentences.join(QLatin1Char(' '));
}

// What the script leaves out that the lab does, from the key table; none of it changes a step's loss.
QStringList notesOf(const Config& c)
{
    QStringList notes;
    for (const ConfigKey& key : configKeys()) {
        if (const std::string note = key.script.noteFor(c); !note.empty())
            notes.append(QString::fromStdString(note));
    }
    return notes;
}

QString header(const Config& c, const QString& title, const QStringList& notes)
{
    QString text = filled(QStringLiteral(R"(#!/usr/bin/env python3
"""@TITLE@ as a PyTorch DDP script (written by DDP Lab: docs/pytorch-script.md).

Save it (say as train_ddp.py) and start one process per rank:

    @COMMAND@

As printed it runs on Debian 12's torchrun (PyTorch 1.13 on Python 3.11), which stops with
"'NoneType' object has no attribute 'get'" without --redirects 2 --tee 2; the torchrun of
PyTorch 2 or later runs it with or without them (torchrun --nproc_per_node=@RANKS@ train_ddp.py).

It trains what the lab trained with these settings: the same model, data order, optimizer,
learning rate at every step and random seeds, under DistributedDataParallel. Rank 0 prints each
optimizer step's loss over all ranks' samples (the lab's `loss` of that step), LOG_EVERY steps
at a time. The lab's other figures (the training-set and validation losses, gradient norm, noise
scale, timings, a range test's suggested LRs) are not computed here.
)"),
                          {{"@TITLE@", proseText(title)},
                           {"@COMMAND@", torchrunCommand(int(c.worldSize), QStringLiteral("train_ddp.py"))},
                           {"@RANKS@", pyInt(c.worldSize)}});
    if (!notes.isEmpty()) {
        text += QStringLiteral("\nLeft out (none of it changes a step's loss):\n");
        for (const QString& note : notes)
            text += QStringLiteral("- ") + proseText(note) + QLatin1Char('\n');
    }
    return text + QStringLiteral("\"\"\"\n");
}

QString imports(const Config& c, const WorkloadCode& workload)
{
    QStringList standard{QStringLiteral("import contextlib"), QStringLiteral("import datetime"), QStringLiteral("import math"),
                         QStringLiteral("import os")};
    if (c.lrRangeTest)
        standard.append(QStringLiteral("import itertools"));
    const bool sequential = hasScheduler(c) && (c.warmupSteps > 0 || c.warmupEpochs > 0) && c.schedule != ScheduleKind::Constant;
    if (sequential)
        standard.append(QStringLiteral("import warnings"));
    for (const QString& line : workload.imports.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        standard.append(line);
    standard.sort();
    QStringList torch{QStringLiteral("import torch"), QStringLiteral("import torch.distributed as dist")};
    if (!traitsOf(c).vectorised && c.loss != LossKind::Model)
        torch.append(QStringLiteral("import torch.nn.functional as F"));
    if (!traitsOf(c).ownModel)
        torch.append(QStringLiteral("from torch import nn"));
    torch.append(QStringLiteral("from torch.nn.parallel import DistributedDataParallel as DDP"));
    if (hasScheduler(c))
        torch.append(QStringLiteral("from torch.optim import lr_scheduler"));
    torch.append(QStringLiteral("from torch.utils.data import DataLoader, TensorDataset"));
    torch.append(QStringLiteral("from torch.utils.data.distributed import DistributedSampler"));
    return standard.join(QLatin1Char('\n')) + QStringLiteral("\n\n") + torch.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// backend auto: which one the lab picks, and why.
QString backendComment(const Config& c)
{
    if (c.backend != BackendKind::Auto)
        return QString();
    return QStringLiteral("  # backend auto: nccl when every rank has a GPU of its own (device cuda), else gloo");
}

QString settingsOf(const Config& c)
{
    return filled(QStringLiteral(R"(# ---- the lab's settings --------------------------------------------------------------------
WORLD_SIZE = @WORLD@  # ranks, one process each
BATCH_SIZE = @BATCH@  # per rank
GRAD_ACCUM = @ACCUM@  # micro-batches per optimizer step: an effective batch of @EFFECTIVE@
EPOCHS = @EPOCHS@
MAX_STEPS = @MAX@  # stop after this many optimizer steps (0: no limit)
SEED = @SEED@  # the data's shuffle (SEED + epoch), the model's start, the ranks' generators
SHUFFLE = @SHUFFLE@
DROP_LAST = @DROP@  # DistributedSampler's: drop the tail instead of padding
BACKEND = @BACKEND@
LOG_EVERY = @LOG_EVERY@  # @LOG_WHY@
TIMEOUT_S = @TIMEOUT@  # seconds a rank waits for its peers
BUCKET_CAP_MB = @BUCKET@  # gradient bucket size
)"),
                  {{"@WORLD@", pyInt(c.worldSize)},
                   {"@BATCH@", pyInt(c.batchSize)},
                   {"@ACCUM@", pyInt(c.gradAccum)},
                   {"@EFFECTIVE@", QStringLiteral("%1 x %2 x %3 = %4").arg(c.worldSize).arg(c.batchSize).arg(c.gradAccum).arg(effectiveBatchSize(c))},
                   {"@EPOCHS@", pyInt(c.epochs)},
                   {"@MAX@", pyInt(c.maxSteps)},
                   {"@SEED@", pyInt(c.seed)},
                   {"@SHUFFLE@", pyBool(c.shuffle)},
                   {"@DROP@", pyBool(c.dropLast)},
                   {"@BACKEND@", pyString(backendName(c)) + backendComment(c)},
                   {"@LOG_EVERY@", pyInt(c.lrRangeTest ? 1 : kLogEvery)},
                   {"@LOG_WHY@", c.lrRangeTest ? QStringLiteral("lr_range_test judges every step's loss over all ranks: read each step")
                                               : QStringLiteral("print the steps' losses this many at a time: one all-reduce for them all")},
                   {"@TIMEOUT@", pyInt(c.collectiveTimeout)},
                   {"@BUCKET@", pyFloat(c.bucketCapMb)}});
}

}  // namespace

PyTorchScript pytorchScriptOf(const QJsonObject& settings, const QString& title)
{
    PyTorchScript script;
    if (const QString problem = presetProblem(settings, title); !problem.isEmpty()) {
        script.error = problem;
        return script;
    }
    QString error;
    const std::optional<Config> config = coreConfigOf(settings, &error);
    if (!config) {
        script.error = error;
        return script;
    }
    const Config& c = *config;
    if (const QString refused = refusal(c); !refused.isEmpty()) {
        script.error = refused;
        return script;
    }
    script.ranks = int(c.worldSize);
    script.notes = notesOf(c);
    const WorkloadCode workload = workloadCode(c);
    const QString scheduler = learningRateFunctions(c);
    script.text = header(c, title, script.notes) + imports(c, workload) + QLatin1Char('\n') + settingsOf(c) + workload.settings +
                  (growsByPlan(c) ? growingBatchSettings(c) : QString()) + learningRateSettings(c) + QStringLiteral("\n\n") + workload.functions + QStringLiteral("\n\n") +
                  QStringLiteral("# ---- optimizer and learning rate ------------------------------------------------------------\n") +
                  optimizerFunction(c) + (scheduler.isEmpty() ? QString() : QStringLiteral("\n\n") + scheduler) +
                  QStringLiteral("\n\n") + trainingCode(c, workload);
    return script;
}

QString torchrunCommand(int ranks, const QString& file)
{
    // As a shell reads it: a file name with spaces or quotes in single quotes.
    static const QRegularExpression kPlain(QStringLiteral("^[A-Za-z0-9_./+=:,@%-]+$"));
    QString quoted = file;
    if (!kPlain.match(file).hasMatch())
        quoted = QLatin1Char('\'') + QString(file).replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
    return QStringLiteral("torchrun --nproc_per_node=%1 --redirects 2 --tee 2 %2").arg(ranks).arg(quoted);
}

}  // namespace ddplab::ui
