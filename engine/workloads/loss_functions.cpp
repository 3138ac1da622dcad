// SPDX-License-Identifier: GPL-3.0-or-later
#include "loss_functions.hpp"

#include "core/key_names.hpp"
#include "core/wording.hpp"
#include "data/tensor_text.hpp"

#include <ATen/ATen.h>

namespace ddplab {
namespace {

std::string described(const at::Tensor& tensor)
{
    return shapeText(tensor.sizes()) + " " + dtypeName(tensor.scalar_type());
}

// "cross_entropy": the loss as the config names it.
std::string nameOf(LossKind kind)
{
    switch (kind) {
    case LossKind::CrossEntropy: return choice::loss::kCrossEntropy;
    case LossKind::Mse: return choice::loss::kMse;
    case LossKind::L1: return choice::loss::kL1;
    case LossKind::BceWithLogits: return choice::loss::kBceWithLogits;
    case LossKind::Model: return choice::loss::kModel;
    }
    return "";
}

// Element-wise losses compare output and targets of one shape in the output's dtype.
at::Tensor alike(const at::Tensor& targets, const at::Tensor& output)
{
    return targets.scalar_type() == output.scalar_type() ? targets : targets.to(output.scalar_type());
}

}  // namespace

int64_t classCount(const at::Tensor& output)
{
    return output.dim() > 0 ? output.size(-1) : 0;
}

LossFigures applyLoss(LossKind kind, const at::Tensor& output, const at::Tensor& targets, int64_t samples)
{
    LossFigures figures;
    switch (kind) {
    case LossKind::CrossEntropy: {
        const int64_t classes = classCount(output);
        const at::Tensor scores = output.reshape({-1, classes});
        const at::Tensor labels = targets.reshape({-1});
        figures.loss = at::cross_entropy_loss(scores, labels);
        const double positions = double(labels.numel()) / double(samples);
        figures.correct = scores.detach().argmax(1).eq(labels).sum().to(at::kDouble) / positions;
        break;
    }
    case LossKind::Mse:
        figures.loss = at::mse_loss(output, alike(targets, output));
        break;
    case LossKind::L1:
        figures.loss = at::l1_loss(output, alike(targets, output));
        break;
    case LossKind::BceWithLogits:
        figures.loss = at::binary_cross_entropy_with_logits(output, alike(targets, output));
        break;
    case LossKind::Model:
        figures.loss = output.reshape({});
        break;
    }
    figures.lossSum = figures.loss.detach().to(at::kDouble) * double(samples);
    return figures;
}

std::string lossMismatch(LossKind kind, const at::Tensor& output, const at::Tensor& targets)
{
    if (!at::isFloatingType(output.scalar_type()))
        return "is " + described(output) + "; a loss needs floating-point numbers";
    switch (kind) {
    case LossKind::CrossEntropy: {
        if (!at::isIntegralType(targets.scalar_type(), /*includeBool=*/false))
            return "is scored against targets of " + dtypeName(targets.scalar_type()) + ", but loss " + nameOf(kind) +
                   " needs class indices (an integer tensor); save the targets as int64, or use a loss for numbers "
                   "(mse, l1, bce_with_logits)";
        const bool classesLast = output.dim() == targets.dim() + 1 && output.sizes().slice(0, targets.dim()) == targets.sizes();
        if (!classesLast)
            return "is " + shapeText(output.sizes()) + " for targets " + shapeText(targets.sizes()) + ", but loss " + nameOf(kind) +
                   " needs the targets' shape plus a last dimension of class scores (targets [N] -> output [N, C]; "
                   "[N, T] -> [N, T, C])";
        return "";
    }
    case LossKind::Mse:
    case LossKind::L1:
    case LossKind::BceWithLogits:
        if (output.sizes() != targets.sizes())
            return "is " + shapeText(output.sizes()) + " but the targets are " + shapeText(targets.sizes()) + "; loss " +
                   nameOf(kind) + " compares them element by element, so their shapes must be equal (save the targets as " +
                   shapeText(output.sizes()) + ", or make forward return " + shapeText(targets.sizes()) + ")";
        return "";
    case LossKind::Model:
        if (output.numel() != 1)
            return "is " + shapeText(output.sizes()) + ", but with loss " + nameOf(kind) +
                   " forward(inputs, targets) must return the batch's mean loss: one number";
        return "";
    }
    return "";
}

std::string lossFitText(LossKind kind, const at::Tensor& output, const at::Tensor& targets)
{
    switch (kind) {
    case LossKind::CrossEntropy: {
        const std::string per = targets.dim() > 1 ? " at each of " + std::to_string(targets.numel() / targets.size(0)) +
                                                        " positions per sample" : " per sample";
        return std::to_string(classCount(output)) + " class scores" + per + ", against class indices";
    }
    case LossKind::Mse:
    case LossKind::L1:
    case LossKind::BceWithLogits:
        return countOf(output.numel() / std::max<int64_t>(1, output.size(0)), "number") +
               " per sample, compared element by element with the targets";
    case LossKind::Model:
        return "forward(inputs, targets) returns the batch's mean loss";
    }
    return "";
}

}  // namespace ddplab
