#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/data/linreg_golden.json: seed 004's equivalences run by PyTorch itself.

Each case is trained with nn.Linear wrapped in nn.DistributedDataParallel on K Gloo processes,
DistributedSampler + DataLoader, and the loss summed over the batch as seed 004's main.py does,
on the data the engine's linreg workload draws (same generator, same order of draws). Every
step's loss, averaged over all ranks' samples, and the final parameters are recorded;
tst_training_semantics runs the engine on the same cases and compares.

    /usr/bin/python3 tests/tools/make_linreg_goldens.py
"""
import json
import os
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

INPUT_SCALE = 0.1  # engine/workloads/linreg_workload.cpp: kInputScale
INIT_SCALE = 0.1   # kInitScale

BASE = {"workload": "linreg", "num_examples": 100, "dim": 8, "epochs": 3, "shuffle": False, "noise": 0.1, "seed": 0}
CASES = [
    ("sgd 1x10 lr 1", {"world_size": 1, "batch_size": 10, "lr": 1.0, "optimizer": "sgd"}),
    ("sgd 2x5 lr 2", {"world_size": 2, "batch_size": 5, "lr": 2.0, "optimizer": "sgd"}),
    ("sgd 2x5 lr 1", {"world_size": 2, "batch_size": 5, "lr": 1.0, "optimizer": "sgd"}),
    ("adam eps0 1x10 lr 1", {"world_size": 1, "batch_size": 10, "lr": 1.0, "optimizer": "adam", "eps": 0.0}),
    ("adam eps0 2x5 lr 1", {"world_size": 2, "batch_size": 5, "lr": 1.0, "optimizer": "adam", "eps": 0.0}),
    ("adam eps0 2x5 lr 2", {"world_size": 2, "batch_size": 5, "lr": 2.0, "optimizer": "adam", "eps": 0.0}),
    ("sgd momentum 3x4 shuffled padded", {"world_size": 3, "batch_size": 4, "lr": 0.5, "optimizer": "sgd",
                                          "momentum": 0.9, "shuffle": True, "seed": 7, "num_examples": 101}),
    ("adamw 2x8 shuffled drop_last", {"world_size": 2, "batch_size": 8, "lr": 0.05, "optimizer": "adamw",
                                      "weight_decay": 0.01, "shuffle": True, "seed": 3, "num_examples": 37,
                                      "drop_last": True, "epochs": 4}),
]


def linreg_data(c):
    g = torch.Generator().manual_seed(c["seed"])
    true_weight = torch.randn(1, c["dim"], generator=g)
    inputs = INPUT_SCALE * torch.randn(1, c["num_examples"], c["dim"], generator=g)
    noise = torch.randn(1, c["num_examples"], generator=g)
    targets = (inputs * true_weight.unsqueeze(1)).sum(2) + c["noise"] * noise
    start = INIT_SCALE * torch.randn(1, c["dim"], generator=g)
    return inputs[0], targets[0], start[0]


def make_optimizer(c, parameters):
    if c["optimizer"] == "sgd":
        return torch.optim.SGD(parameters, lr=c["lr"], momentum=c.get("momentum", 0.0))
    if c["optimizer"] == "adam":
        return torch.optim.Adam(parameters, lr=c["lr"], eps=c.get("eps", 1e-8))
    return torch.optim.AdamW(parameters, lr=c["lr"], eps=c.get("eps", 1e-8), weight_decay=c.get("weight_decay", 0.0))


def worker(rank, c, store, queue):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=c["world_size"])
    inputs, targets, start = linreg_data(c)
    model = torch.nn.Linear(c["dim"], 1, bias=False)
    with torch.no_grad():
        model.weight.copy_(start.unsqueeze(0))
    ddp = DDP(model)
    optimizer = make_optimizer(c, ddp.parameters())
    indices = list(range(c["num_examples"]))
    sampler = DistributedSampler(indices, num_replicas=c["world_size"], rank=rank, shuffle=c["shuffle"],
                                 seed=c["seed"], drop_last=c.get("drop_last", False))
    loader = DataLoader(indices, batch_size=c["batch_size"], sampler=sampler)
    losses = []
    for epoch in range(c["epochs"]):
        sampler.set_epoch(epoch)
        for batch in loader:
            squared = (ddp(inputs[batch]).squeeze(1) - targets[batch]) ** 2
            optimizer.zero_grad()
            squared.sum().backward()  # seed 004: reduction='sum'
            optimizer.step()
            figures = torch.tensor([squared.sum().item(), float(len(batch))], dtype=torch.float64)
            dist.all_reduce(figures)
            losses.append((figures[0] / figures[1]).item())
    if rank == 0:
        queue.put({"losses": losses, "weight": model.weight.detach()[0].tolist()})
    dist.destroy_process_group()


def main():
    cases = []
    for name, overrides in CASES:
        c = dict(BASE, **overrides)
        with tempfile.TemporaryDirectory() as private:
            queue = mp.get_context("spawn").SimpleQueue()
            mp.spawn(worker, args=(c, os.path.join(private, "store"), queue), nprocs=c["world_size"])
            result = queue.get()
        cases.append({"name": name, "config": c, **result})
        print(f"{name}: {len(result['losses'])} steps, last loss {result['losses'][-1]:.6g}")
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "linreg_golden.json")
    with open(out, "w") as f:
        json.dump({"generator": "tests/tools/make_linreg_goldens.py", "torch": torch.__version__, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
