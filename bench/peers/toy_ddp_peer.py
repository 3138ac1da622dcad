#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python DDP peer for seed 000: what the seed's multi_gpu.py sandbox does, on CPU/Gloo.

One process per rank (torch.multiprocessing.spawn, rendezvous through a file in a private
temporary directory). For each of --n_experiments experiments: a fresh one-neuron model
(w = 1) wrapped in nn.DistributedDataParallel, a DistributedSampler + DataLoader over the
noisy data of that experiment, one epoch of SGD; every applied update lr * grad is recorded.
Rank 0 prints the mean final w and the unbiased variance of all updates, as JSON.

Runs on Debian's python3-torch:  /usr/bin/python3 bench/peers/toy_ddp_peer.py --world_size 8 ...
"""
import argparse
import json
import os
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from rank_exit import end_rank


class Neuron(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(1))

    def forward(self, x):
        return self.w * x


def worker(rank, args, store_path, queue):
    torch.set_num_threads(args.threads)
    dist.init_process_group("gloo", init_method=f"file://{store_path}", rank=rank, world_size=args.world_size)
    finals, updates = [], []
    for experiment in range(args.n_experiments):
        generator = torch.Generator().manual_seed(args.seed + experiment)
        x = 1 + args.noise * torch.randn(args.num_examples, generator=generator)
        y = args.noise * torch.randn(args.num_examples, generator=generator)
        model = DDP(Neuron())
        optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
        sampler = DistributedSampler(TensorDataset(x, y), shuffle=True, seed=args.seed)
        loader = DataLoader(TensorDataset(x, y), batch_size=args.batch_size, sampler=sampler)
        for epoch in range(args.epochs):
            sampler.set_epoch(epoch)
            for xb, yb in loader:
                optimizer.zero_grad()
                loss = torch.nn.functional.l1_loss(model(xb), yb)
                loss.backward()
                updates.append(args.lr * model.module.w.grad.item())
                optimizer.step()
        finals.append(model.module.w.item())
    if rank == 0:
        u = torch.tensor(updates, dtype=torch.float64)
        queue.put({"w_mean": sum(finals) / len(finals), "update_var": u.var().item(), "update_count": len(updates)})
    end_rank()  # not dist.destroy_process_group(): see rank_exit.py


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--world_size", type=int, default=8)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--n_experiments", type=int, default=1000)
    parser.add_argument("--num_examples", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--noise", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ddplab-peer-") as private:
        queue = mp.get_context("spawn").SimpleQueue()
        mp.spawn(worker, args=(args, os.path.join(private, "store"), queue), nprocs=args.world_size)
        result = queue.get()
    result["wall_s"] = time.perf_counter() - start
    print(json.dumps(result))


if __name__ == "__main__":
    main()
