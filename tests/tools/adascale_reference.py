#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""AdaScale SGD on the engine's linreg workload, written from the paper (Johnson, Agrawal, Gu and
Guestrin, "AdaScale SGD: A User-Friendly Algorithm for Distributed Training", ICML 2020,
Algorithm 1) in plain PyTorch: K ranks simulated in one process, each taking its shard of
DistributedSampler's order in batches of b, A consecutive batches accumulated per step (DDP's
no_sync), the gradients averaged over ranks.

Each step: the gradient variance and squared norm are estimated from the ranks' own gradients
and their average (the unbiased two-batch estimator of McCandlish et al. 2018, appendix A.1,
which the engine's noise scale uses), smoothed by an exponential moving average of 0.9 and
debiased; r = (sigma^2 + mu^2) / (sigma^2 / S + mu^2) with S = K and sigma^2 the variance of one
rank's gradient; the step is taken with LR r * lr; tau += r; the run ends once tau reaches the
schedule's length (epochs of the training set in steps of one rank's share, b * A).

    /usr/bin/python3 tests/tools/adascale_reference.py CONFIG.json   -> JSON lines {"step", "gain", "tau", "lr"}
"""
import json
import math
import sys

import torch
from torch.utils.data.distributed import DistributedSampler

sys.path.insert(0, __import__("os").path.dirname(__file__))
from make_linreg_goldens import linreg_data  # noqa: E402  the engine's data, draw for draw

SMOOTHING = 0.9


def rank_steps(c, rank, epoch):
    sampler = DistributedSampler(list(range(c["num_examples"])), num_replicas=c["world_size"], rank=rank,
                                 shuffle=c["shuffle"], seed=c["seed"], drop_last=False)
    sampler.set_epoch(epoch)
    order = list(sampler)
    batches = [order[i:i + c["batch_size"]] for i in range(0, len(order), c["batch_size"])]
    return [batches[i:i + c["grad_accum"]] for i in range(0, len(batches), c["grad_accum"])]


def main():
    c = {"seed": 0, "shuffle": True, "grad_accum": 1, "momentum": 0.0, "noise": 0.0, "dim": 8}
    c.update(json.load(open(sys.argv[1])))
    torch.set_num_threads(1)
    inputs, targets, start = linreg_data(c)
    weight = start.clone().requires_grad_(True)
    optimizer = torch.optim.SGD([weight], lr=c["lr"], momentum=c["momentum"])
    K, A, b = c["world_size"], c["grad_accum"], c["batch_size"]
    length = c["epochs"] * math.ceil(c["num_examples"] / (b * A))
    trace_avg = sqr_avg = 0.0
    updates, tau, step, epoch = 0, 0.0, 0, 0
    while tau < length:
        plans = [rank_steps(c, rank, epoch) for rank in range(K)]
        for s in range(len(plans[0])):
            if tau >= length:
                break
            local = []
            samples = 0
            for rank in range(K):
                grad = torch.zeros_like(weight)
                for batch in plans[rank][s]:
                    weight.grad = None
                    loss = ((inputs[batch] @ weight - targets[batch]) ** 2).mean() / len(plans[rank][s])
                    loss.backward()
                    grad += weight.grad
                    samples += len(batch)
                local.append(grad)
            average = sum(local[1:], local[0].clone()) / K
            small_sq = sum(float((g.double() ** 2).sum()) for g in local) / K
            big_sq = float((average.double() ** 2).sum())
            small, big = samples / K, float(samples)
            sqr = (big * big_sq - small * small_sq) / (big - small)
            trace = (small_sq - big_sq) / (1.0 / small - 1.0 / big)
            trace_avg = SMOOTHING * trace_avg + (1 - SMOOTHING) * trace
            sqr_avg = SMOOTHING * sqr_avg + (1 - SMOOTHING) * sqr
            updates += 1
            debias = 1 - SMOOTHING ** updates
            variance, mu2 = trace_avg / debias / small, sqr_avg / debias
            S = big / small
            if not mu2 > 0:
                gain = S
            elif not variance > 0:
                gain = 1.0
            else:
                gain = min(max((variance + mu2) / (variance / S + mu2), 1.0), S)
            for group in optimizer.param_groups:
                group["lr"] = gain * c["lr"]
            weight.grad = average
            optimizer.step()
            tau += gain
            step += 1
            print(json.dumps({"step": step, "gain": gain, "tau": tau, "lr": gain * c["lr"]}))
        epoch += 1


if __name__ == "__main__":
    main()
