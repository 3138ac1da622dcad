// SPDX-License-Identifier: GPL-3.0-or-later
#include "client/script/pytorch_script.hpp"

#include "client/library/preset_file.hpp"
#include "client/script/script_text.hpp"
#include "client/script/script_training.hpp"
#include "client/script/script_workloads.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <optional>

namespace ddplab::ui {

using namespace script;

namespace {

QString optimizerName(OptimizerKind kind)
{
    switch (kind) {
    case OptimizerKind::Sgd: return wire(choice::optimizer::kSgd);
    case OptimizerKind::Adam: return wire(choice::optimizer::kAdam);
    case OptimizerKind::AdamW: return wire(choice::optimizer::kAdamW);
    case OptimizerKind::NovoGrad: return wire(choice::optimizer::kNovoGrad);
    case OptimizerKind::Lamb: return wire(choice::optimizer::kLamb);
    case OptimizerKind::Lars: return wire(choice::optimizer::kLars);
    case OptimizerKind::AdamBsi: return wire(choice::optimizer::kAdamBsi);
    case OptimizerKind::AdamWBsi: return wire(choice::optimizer::kAdamWBsi);
    }
    return QString();
}

QString stopMeasureName(StopMeasure measure)
{
    switch (measure) {
    case StopMeasure::TrainLoss: return wire(choice::stop_measure::kTrainLoss);
    case StopMeasure::ValLoss: return wire(choice::stop_measure::kValLoss);
    case StopMeasure::BatchLoss: return wire(choice::stop_measure::kBatchLoss);
    }
    return QString();
}

// Why these settings cannot become a script that trains what the lab trained; "" when they can.
QString refusal(const Config& c)
{
    switch (c.optimizer) {
    case OptimizerKind::Sgd:
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
        break;
    case OptimizerKind::AdamBsi:
    case OptimizerKind::AdamWBsi:
        return QStringLiteral("%1 %2 is the lab's own batch-size-invariant Adam (its second moment from every rank's and "
                              "micro-batch's squared gradients, which DDP never sees); PyTorch has no such optimizer, so no "
                              "script of it would train what the lab did. Choose %3, %4 or %5 for a PyTorch script.")
            .arg(wire(key::kOptimizer), optimizerName(c.optimizer), wire(choice::optimizer::kSgd), wire(choice::optimizer::kAdam),
                 wire(choice::optimizer::kAdamW));
    case OptimizerKind::NovoGrad:
    case OptimizerKind::Lamb:
    case OptimizerKind::Lars:
        return QStringLiteral("%1 %2 is the lab's own (engine/optim/); PyTorch 1.13 has no such optimizer, so no script of it "
                              "would train what the lab did. Choose %3, %4 or %5 for a PyTorch script.")
            .arg(wire(key::kOptimizer), optimizerName(c.optimizer), wire(choice::optimizer::kSgd), wire(choice::optimizer::kAdam),
                 wire(choice::optimizer::kAdamW));
    }
    if (c.experiments > 1)
        return QStringLiteral("%1 %2 trains %2 independent models side by side, each on data of its own; a PyTorch script "
                              "trains one. Set %1 to 1 for a PyTorch script.")
            .arg(wire(key::kExperiments))
            .arg(c.experiments);
    return QString();
}

// What the script leaves out that the lab does; none of it changes a step's loss.
QStringList notesOf(const Config& c)
{
    QStringList notes;
    if (c.stopAtLoss)
        notes.append(QStringLiteral("%1 %2: the lab stops at the first step whose %3 is at or below it; this script trains "
                                    "every step (its losses up to there are the lab's).")
                         .arg(wire(key::kStopAtLoss), pyFloat(*c.stopAtLoss), stopMeasureName(c.stopMeasure)));
    if (c.workload == WorkloadKind::TorchScript && !c.valData.empty())
        notes.append(QStringLiteral("%1: the lab evaluates the validation set at each epoch's end (and every %2 steps); this "
                                    "script does not.")
                         .arg(wire(key::kValData), wire(key::kEvalEvery)));
    if (c.failAt)
        notes.append(QStringLiteral("%1: a testing aid that makes a rank fail; left out.").arg(wire(key::kFailAt)));
    if (!c.overlap)
        notes.append(QStringLiteral("%1 false: the lab all-reduces after backward; DDP always overlaps them, which changes "
                                    "the timing, not the numbers.")
                         .arg(wire(key::kOverlap)));
    return notes;
}

QString header(const Config& c, const QString& title, const QStringList& notes)
{
    QString text = filled(QStringLiteral(R"(#!/usr/bin/env python3
"""@TITLE@ as a PyTorch DDP script (written by DDP Lab: docs/pytorch-script.md).

Save it (say as train_ddp.py) and start one process per rank:

    torchrun --nproc_per_node=@RANKS@ train_ddp.py

(Debian 12's torchrun, PyTorch 1.13 on Python 3.11, also needs --redirects 2 --tee 2.)

It trains what the lab trained with these settings: the same model, data order, optimizer,
learning rate at every step and random seeds, under DistributedDataParallel. Rank 0 prints each
optimizer step's loss over all ranks' samples: the lab's `loss` of that step. The lab's other
figures (the training-set and validation losses, gradient norm, noise scale, timings) are not
computed here.
)"),
                          {{"@TITLE@", proseText(title)}, {"@RANKS@", pyInt(c.worldSize)}});
    if (!notes.isEmpty()) {
        text += QStringLiteral("\nLeft out (none of it changes a step's loss):\n");
        for (const QString& note : notes)
            text += QStringLiteral("- ") + proseText(note) + QLatin1Char('\n');
    }
    return text + QStringLiteral("\"\"\"\n");
}

QString imports(const Config& c, const WorkloadCode& workload)
{
    QStringList standard{QStringLiteral("import datetime"), QStringLiteral("import math"), QStringLiteral("import os")};
    if (c.gradAccum > 1)
        standard.append(QStringLiteral("import contextlib"));
    const bool sequential = (c.warmupSteps > 0 || c.warmupEpochs > 0) && c.schedule != ScheduleKind::Constant;
    if (sequential)
        standard.append(QStringLiteral("import warnings"));
    for (const QString& line : workload.imports.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        standard.append(line);
    standard.sort();
    QStringList torch{QStringLiteral("import torch"), QStringLiteral("import torch.distributed as dist")};
    if (c.workload != WorkloadKind::Toy && c.workload != WorkloadKind::Linreg && c.loss != LossKind::Model)
        torch.append(QStringLiteral("import torch.nn.functional as F"));
    if (c.workload != WorkloadKind::TorchScript)
        torch.append(QStringLiteral("from torch import nn"));
    torch.append(QStringLiteral("from torch.nn.parallel import DistributedDataParallel as DDP"));
    if (hasScheduler(c))
        torch.append(QStringLiteral("from torch.optim import lr_scheduler"));
    torch.append(QStringLiteral("from torch.utils.data import DataLoader, TensorDataset"));
    torch.append(QStringLiteral("from torch.utils.data.distributed import DistributedSampler"));
    return standard.join(QLatin1Char('\n')) + QStringLiteral("\n\n") + torch.join(QLatin1Char('\n')) + QLatin1Char('\n');
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
                   {"@BACKEND@", pyString(backendName(c))},
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
    const QString scheduler = schedulerFunction(c);
    script.text = header(c, title, script.notes) + imports(c, workload) + QLatin1Char('\n') + settingsOf(c) + workload.settings +
                  learningRateSettings(c) + QStringLiteral("\n\n") + workload.functions + QStringLiteral("\n\n") +
                  QStringLiteral("# ---- optimizer and learning rate ------------------------------------------------------------\n") +
                  optimizerFunction(c) + (scheduler.isEmpty() ? QString() : QStringLiteral("\n\n") + scheduler) +
                  QStringLiteral("\n\n") + trainingCode(c, workload);
    return script;
}

QString torchrunCommand(int ranks, const QString& file)
{
    return QStringLiteral("torchrun --nproc_per_node=%1 %2").arg(ranks).arg(file);
}

}  // namespace ddplab::ui
