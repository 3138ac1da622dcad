// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the advisor is asked (docs/advisor.md): the user's settings that train well, the GPUs to
// plan for, the most batch per GPU, the time budget, the horizon the batches and LRs are compared
// at, and what the model's own layers are (inspect's word, for the cautions). Checked here, before
// anything runs.

#include "core/config.hpp"

#include <QString>

namespace ddplab::ui {

struct ModelInspection;

// Which layers of the model couple or randomise its samples: BatchNorm (a batch's statistics),
// Dropout (masks that differ from real GPUs' under emulation), LayerNorm (per sample: no coupling).
// Your own model: inspect's report; the built-in workloads have none of them.
struct ModelLayers {
    bool known = false;  // false: nothing was inspected (your own model before inspect): no layer caution is given
    bool batchNorm = false;
    bool dropout = false;
    bool layerNorm = false;
};

struct AdviceRequest {
    ddplab::Config base;         // the user's settings that train well (Setup's)
    int gpus = 8;                // to plan for
    qint64 maxBatchPerGpu = 0;   // 0: the base's batch per GPU is the most
    double budgetSeconds = 300;  // wall time for all the runs
    // The samples the batches and LRs are compared at: 0, the base's whole training (its epochs or
    // max_steps at its effective batch); else a horizon the user states, never more than that.
    double horizonSamples = 0;
    ModelLayers layers;
    // Set by the job (AdviceJob), from the advice store's folder it claims: where the base run's
    // checkpoint goes, and the progress file resume() reads back. Empty: nothing is kept.
    QString checkpointFolder;
    QString progressFile;
};

// What an advice may be asked: the command line's limits, and a stopped advice's request's.
inline constexpr double kFewestBudgetSeconds = 10.0;       // --budget-min 0.2
inline constexpr double kMostBudgetSeconds = 24 * 60 * 60;  // --budget-min 1440
inline constexpr int kMostAdviceGpus = 4096;
// "" when the request can be advised on; else one sentence.
QString adviceRequestProblem(const AdviceRequest& request);
// "1 GPU", "8 GPUs": as the advisor's log and progress say it.
QString gpuCountText(int gpus);
// The samples the batches and LRs are compared at: the request's horizon, else the base's training.
double horizonOf(const AdviceRequest& request);
// The base's whole training in samples: its steps at its effective batch.
double plannedSamplesOf(const ddplab::Config& base);
// The layers the built-in workloads have (none of the three); unknown for your own model.
ModelLayers builtInLayers(const ddplab::Config& base);
// Your own model's, from inspect's report (unknown from an engine too old to say).
ModelLayers inspectedLayers(const ModelInspection& inspection);
// What the advice is about, for Past advice and advice.json: "linreg (dim 16, 512 examples)",
// "Fashion-MNIST CNN", "mlp.pt"; and the data: "generated, data seed 0", "Fashion-MNIST train
// (60,000 images)", "train.pt (100 samples)".
QString modelNameOf(const ddplab::Config& base);
QString dataNameOf(const ddplab::Config& base);

}  // namespace ddplab::ui
