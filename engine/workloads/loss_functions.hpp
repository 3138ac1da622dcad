// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The losses a TorchScript model can be trained with (config key `loss`), each the batch's mean
// as PyTorch's functional losses compute it, and the check that a model's output and the data's
// targets fit one, worded for the person who made them.
//
//   cross_entropy    output [N, C] (or [N, ..., C], class scores last, as a language model's
//                    [batch, sequence, vocabulary]), targets [N] (or [N, ...]) of class indices
//                    0..C-1; accuracy is the share of positions whose top score is the target
//   mse, l1          output and targets of one shape, targets converted to the output's dtype
//   bce_with_logits  the same, targets in [0, 1]
//   model            forward(inputs, targets) returns the mean loss itself: one number

#include "core/config.hpp"

#include <ATen/core/Tensor.h>

#include <string>

namespace ddplab {

struct LossFigures {
    at::Tensor loss;       // the batch's mean, with its graph
    // 0-dim tensors on the output's device, detached and never read here (the trainer reads a
    // step's figures once): mean x samples, for sums over ranks and micro-batches, and for
    // cross_entropy the correct positions / positions per sample (undefined for other losses).
    at::Tensor lossSum;
    at::Tensor correct;
};

// `output` is forward's result: the predictions, or the loss itself for loss model.
LossFigures applyLoss(LossKind kind, const at::Tensor& output, const at::Tensor& targets, int64_t samples);

// "" when `output` (of a batch) and `targets` (the same batch's) fit `kind`, else what differs,
// as the end of a sentence about forward's output.
std::string lossMismatch(LossKind kind, const at::Tensor& output, const at::Tensor& targets);

// cross_entropy: the classes forward scores (its output's last dimension).
int64_t classCount(const at::Tensor& output);

// What the loss compares, for the inspection: "10 class scores per sample against class indices".
std::string lossFitText(LossKind kind, const at::Tensor& output, const at::Tensor& targets);

}  // namespace ddplab
