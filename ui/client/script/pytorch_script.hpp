// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lab's settings (a run's config, a preset, the Setup page's) as a standalone PyTorch script
// for `torchrun --nproc_per_node=N` that trains what the engine trains: the same model, data
// order, optimizer, learning rate at every step and seeds under DistributedDataParallel, and
// the same loss printed at every step (docs/pytorch-script.md; tst_pytorch_script runs it
// against the engine). One generator for every place that offers it: the Runs list, Setup and
// `ddplab --export-script`.
//
// Settings PyTorch cannot reproduce are refused with a sentence (the lab's own optimizers,
// experiments trained side by side); what a script leaves out that does not change the
// training (validation, the lab's extra figures, stop_at_loss) is said in its docstring.

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct PyTorchScript {
    QString text;         // the script; empty when refused
    QString error;        // why these settings cannot be such a script; empty when written
    int ranks = 0;        // torchrun --nproc_per_node
    QStringList notes;    // what the script leaves out, one sentence each (also in its docstring)

    bool isWritten() const { return error.isEmpty(); }
};

// `settings` are an engine config (preset keys; unset keys take their defaults); `title` says
// where they came from ("run 2x16 · lr 0.01 · torchscript", "preset tiny.json").
PyTorchScript pytorchScriptOf(const QJsonObject& settings, const QString& title);

// "torchrun --nproc_per_node=2 --redirects 2 --tee 2 train_ddp.py": as it runs on Debian 12's
// torchrun (PyTorch 1.13 on Python 3.11 cannot parse its own default for the two options) and on
// PyTorch 2's; `file` quoted for a shell where it needs to be.
QString torchrunCommand(int ranks, const QString& file);

}  // namespace ddplab::ui
