// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `ddplab-engine inspect` says about your own model and data (workload torchscript): the
// `inspection` event of docs/protocol.md read into what Setup shows, or the engine's refusal
// with the key it names. The texts are for a person, one short line each.

#include <QJsonObject>
#include <QString>

#include <optional>

namespace ddplab::ui {

struct ModelInspection {
    qint64 parameterCount = 0;
    qint64 trainSamples = 0;  // what the sampler splits (before train_subset)
    qint64 valSamples = 0;    // 0: no validation data
    QString modelText;   // "77,754 parameters in 20 tensors · 9 buffers · forward(Tensor x) -> Tensor"
    QString dataText;    // "train 8,192 × [1, 28, 28] float32 → int64 · validation 2,000"
    QString outputText;  // "[16, 10] float32: 10 class scores per sample, against class indices · first loss 2.31"
    QString memoryText;  // "≈ 68.4 MiB: parameters 304 KiB, ... one step 34.2 MiB, ..."
    // The memory figures the most batch per GPU is drawn from: per rank whatever the batch
    // (parameters, buffers, gradients, optimizer state, the process), and a training step's
    // measured peak on the first batch of `stepSamples` samples.
    qint64 fixedBytes = 0;
    qint64 stepBytes = 0;
    qint64 stepSamples = 0;
    // The same step on this machine, the median of its timed takes (0: an engine too old to say),
    // and how long those takes took together (inspect's own time, not a run's start).
    double stepSeconds = 0.0;
    double stepTakesSeconds = 0.0;
    // The same takes' CPU seconds, their median (0: an engine too old to say): the step's work
    // without the instant's wait for a core, what a study's runs are estimated from.
    double stepCpuSeconds = 0.0;
    // Its submodules that couple or randomise a batch's samples (the advisor's cautions);
    // layersKnown false: an engine too old to say.
    bool layersKnown = false;
    qint64 batchNormLayers = 0;
    qint64 dropoutLayers = 0;
    qint64 layerNormLayers = 0;

    // From the `inspection` event; nullopt when it is none.
    static std::optional<ModelInspection> fromJson(const QJsonObject& event);
};

// The engine refused the model or the data: its sentence and the key it names (model_file,
// train_data, loss, ...; empty when it named none).
struct InspectionProblem {
    QString key;
    QString message;
};

}  // namespace ddplab::ui
