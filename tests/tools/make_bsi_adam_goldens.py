#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/data/bsi_adam_golden.json: batch-size-invariant Adam and AdamW (Wang and
Aitchison 2024, "Batch size invariant Adam") written in PyTorch from the paper, run on seed 004's
linear model as the engine runs it under DDP, step for step.

Every rank's micro-batches come from DistributedSampler + DataLoader, each micro-batch's gradient
is taken on its own with autograd, and the optimizer gets all of them: the first moment from
their mean, the second from the mean of their squares. Recorded per step: the loss over every
rank's samples and the loss over the whole training set after the step (the engine's `loss` and
`train_loss`); tst_bsi_adam runs the engine on the same cases and compares.

    /usr/bin/python3 tests/tools/make_bsi_adam_goldens.py
"""
import json
import math
import os

import torch
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

INPUT_SCALE = 0.1  # engine/workloads/linreg_workload.cpp: kInputScale
INIT_SCALE = 0.1   # kInitScale

BASE = {"workload": "linreg", "num_examples": 100, "dim": 8, "epochs": 2, "shuffle": False, "noise": 0.1, "seed": 0,
        "lr": 0.05, "optimizer": "adam_bsi"}
CASES = [
    ("1 rank x 10", {"world_size": 1, "batch_size": 10}),
    ("2 ranks x 5", {"world_size": 2, "batch_size": 5}),
    ("4 ranks x 5 shuffled, padded", {"world_size": 4, "batch_size": 5, "shuffle": True, "seed": 3, "num_examples": 98}),
    ("2 ranks x 5 grad_accum 2", {"world_size": 2, "batch_size": 5, "grad_accum": 2}),
    ("1 rank x 5 grad_accum 3, short last step", {"world_size": 1, "batch_size": 5, "grad_accum": 3}),
    ("4 ranks x 4 grad_accum 2 mean loss", {"world_size": 4, "batch_size": 4, "grad_accum": 2, "loss_reduction": "mean",
                                            "lr": 0.1}),
    ("2 ranks x 5 weight decay (Adam's L2)", {"world_size": 2, "batch_size": 5, "weight_decay": 0.5}),
    ("adamw_bsi 4 ranks x 5 grad_accum 2 weight decay", {"optimizer": "adamw_bsi", "world_size": 4, "batch_size": 5,
                                                         "grad_accum": 2, "weight_decay": 0.5, "beta1": 0.8,
                                                         "beta2": 0.99, "eps": 1e-6}),
]


class BatchSizeInvariantAdam(torch.optim.Optimizer):
    """Adam whose second moment is the mean of the micro-batches' squared gradients.

    step() takes, for every parameter, the gradients of all micro-batches (every rank's, every
    accumulated one): m <- b1 m + (1 - b1) mean_k g_k, v <- b2 v + (1 - b2) mean_k g_k^2, then
    Adam's bias-corrected step. Weight decay is Adam's L2 term (added to every g_k) or, with
    `decoupled`, AdamW's decay of the weights.
    """

    def __init__(self, params, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, decoupled=False):
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, decoupled=decoupled))

    @torch.no_grad()
    def step(self, micro_gradients):
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p, gradients in zip(group["params"], micro_gradients):
                gradients = torch.stack(gradients)
                if group["weight_decay"] and group["decoupled"]:
                    p.mul_(1 - group["lr"] * group["weight_decay"])
                elif group["weight_decay"]:
                    gradients = gradients + group["weight_decay"] * p
                state = self.state[p]
                if not state:
                    state["step"] = 0
                    state["m"] = torch.zeros_like(p)
                    state["v"] = torch.zeros_like(p)
                state["step"] += 1
                t = state["step"]
                state["m"] = beta1 * state["m"] + (1 - beta1) * gradients.mean(0)
                state["v"] = beta2 * state["v"] + (1 - beta2) * (gradients ** 2).mean(0)
                m_hat = state["m"] / (1 - beta1 ** t)
                v_hat = state["v"] / (1 - beta2 ** t)
                p.sub_(group["lr"] * m_hat / (v_hat.sqrt() + group["eps"]))


def linreg_data(c):
    g = torch.Generator().manual_seed(c["seed"])
    true_weight = torch.randn(1, c["dim"], generator=g)
    inputs = INPUT_SCALE * torch.randn(1, c["num_examples"], c["dim"], generator=g)
    noise = torch.randn(1, c["num_examples"], generator=g)
    targets = (inputs * true_weight.unsqueeze(1)).sum(2) + c["noise"] * noise
    start = INIT_SCALE * torch.randn(1, c["dim"], generator=g)
    return inputs[0], targets[0], start[0]


def run(c):
    inputs, targets, start = linreg_data(c)
    weight = torch.nn.Parameter(start.clone())
    optimizer = BatchSizeInvariantAdam([weight], lr=c["lr"], betas=(c.get("beta1", 0.9), c.get("beta2", 0.999)),
                                       eps=c.get("eps", 1e-8), weight_decay=c.get("weight_decay", 0.0),
                                       decoupled=c["optimizer"] == "adamw_bsi")
    ranks, accumulate = c["world_size"], c.get("grad_accum", 1)
    mean_loss = c.get("loss_reduction", "sum") == "mean"
    samplers = [DistributedSampler(list(range(c["num_examples"])), num_replicas=ranks, rank=r, shuffle=c["shuffle"],
                                   seed=c["seed"]) for r in range(ranks)]
    losses, train_losses = [], []
    for epoch in range(c["epochs"]):
        batches = []
        for sampler in samplers:
            sampler.set_epoch(epoch)
            batches.append(list(DataLoader(list(sampler), batch_size=c["batch_size"])))
        for first in range(0, len(batches[0]), accumulate):
            micro_gradients, squared_sum, samples = [], 0.0, 0
            for rank_batches in batches:
                for batch in rank_batches[first:first + accumulate]:
                    squared = (inputs[batch] @ weight - targets[batch]) ** 2
                    loss = squared.mean() if mean_loss else squared.sum()
                    micro_gradients.append(torch.autograd.grad(loss, weight)[0])
                    squared_sum += squared.sum().item()
                    samples += len(batch)
            optimizer.step([micro_gradients])
            losses.append(squared_sum / samples)
            with torch.no_grad():
                train_losses.append(((inputs @ weight - targets) ** 2).mean().item())
    return {"losses": losses, "train_losses": train_losses, "weight": weight.detach().tolist()}


def main():
    cases = []
    for name, overrides in CASES:
        c = dict(BASE, **overrides)
        result = run(c)
        assert all(math.isfinite(x) for x in result["losses"])
        cases.append({"name": name, "config": c, **result})
        print(f"{name}: {len(result['losses'])} steps, last loss {result['losses'][-1]:.6g}")
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "bsi_adam_golden.json")
    with open(out, "w") as f:
        json.dump({"generator": "tests/tools/make_bsi_adam_goldens.py", "torch": torch.__version__, "cases": cases}, f,
                  indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
