#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python DDP peer for workload torchscript: what the engine does with a lab config, done by
PyTorch itself, so the two can be compared step by step (tests/engine/tst_own_model_fidelity.cpp)
and timed against each other (bench/own_model_bench.py).

The same TorchScript file (torch.jit.load) wrapped in nn.DistributedDataParallel over Gloo,
the same data (torch.load, or the folder's .npy files), DistributedSampler's order cut into
batches as DataLoader(batch_size) does, micro-batches under no_sync for grad_accum, the loss
as the engine computes it, torch.optim's SGD, Adam or AdamW, and the random generator of rank r
seeded with seed * 1000 + r. Evaluation goes through the DDP model under no_grad, as a script
usually does (it takes rank 0's buffers first, as the engine's evaluation does).

    /usr/bin/python3 bench/peers/torchscript_ddp_peer.py --config run.json [--save model.pt]
        prints one JSON line per step ({"step", "loss", "accuracy"}) and per evaluation
    /usr/bin/python3 bench/peers/torchscript_ddp_peer.py --config run.json --timed 50 --warmup 10
        prints {"samples_per_sec", "steps", "seconds"}: rank 0's clock over the timed steps
    ... --start-method fork
        the ranks are forks of this process, which has imported torch, instead of fresh
        interpreters that import it again (about 2 s of CPU each; the suite's many short runs)

Supported: lr_rule none, no warmup or schedule (a constant LR); the rest of the config is read
as the engine reads it (docs/configuration.md).
"""
import argparse
import datetime
import json
import os
import sys
import tempfile
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data.distributed import DistributedSampler

from rank_exit import end_rank

DEFAULTS = {"world_size": 1, "batch_size": 128, "grad_accum": 1, "threads": 0, "shuffle": True, "drop_last": False,
            "seed": 0, "lr": 1e-3, "optimizer": "sgd", "momentum": 0.0, "dampening": 0.0, "nesterov": False,
            "weight_decay": 0.0, "beta1": 0.9, "beta2": 0.999, "eps": 1e-8, "epochs": 1, "max_steps": 0,
            "eval_every": 0, "loss": "cross_entropy", "val_data": "", "device": "cpu",
            "collective_timeout": 60}
RANK_SEED_STRIDE = 1000  # engine/workloads/torchscript_workload.cpp


def load_data(path):
    path = os.path.expanduser(path)
    if os.path.isdir(path):
        return (torch.from_numpy(np.load(os.path.join(path, "inputs.npy"))),
                torch.from_numpy(np.load(os.path.join(path, "targets.npy"))))
    data = torch.load(path)
    return data["inputs"], data["targets"]


def loss_of(kind, output, targets):
    """The batch's mean loss and its correct positions per sample (cross_entropy), as the engine computes them."""
    if kind == "cross_entropy":
        classes = output.size(-1)
        scores, labels = output.reshape(-1, classes), targets.reshape(-1)
        loss = F.cross_entropy(scores, labels)
        positions = labels.numel() / targets.size(0)
        return loss, scores.argmax(1).eq(labels).sum().item() / positions
    if kind == "model":
        return output.reshape(()), 0.0
    targets = targets.to(output.dtype)
    if kind == "mse":
        return F.mse_loss(output, targets), 0.0
    if kind == "l1":
        return F.l1_loss(output, targets), 0.0
    return F.binary_cross_entropy_with_logits(output, targets), 0.0


def make_optimizer(c, parameters):
    if c["optimizer"] == "sgd":
        return torch.optim.SGD(parameters, lr=c["lr"], momentum=c["momentum"], dampening=c["dampening"],
                               nesterov=c["nesterov"], weight_decay=c["weight_decay"])
    betas = (c["beta1"], c["beta2"])
    if c["optimizer"] == "adam":
        return torch.optim.Adam(parameters, lr=c["lr"], betas=betas, eps=c["eps"], weight_decay=c["weight_decay"])
    if c["optimizer"] == "adamw":
        return torch.optim.AdamW(parameters, lr=c["lr"], betas=betas, eps=c["eps"], weight_decay=c["weight_decay"])
    raise SystemExit(f"torchscript_ddp_peer: optimizer {c['optimizer']} is not supported here (sgd, adam, adamw)")


def rank_batches(samples, c, rank, epoch):
    sampler = DistributedSampler(range(samples), num_replicas=c["world_size"], rank=rank, shuffle=c["shuffle"],
                                 seed=c["seed"], drop_last=c["drop_last"])
    sampler.set_epoch(epoch)
    order = list(sampler)
    return [order[i:i + c["batch_size"]] for i in range(0, len(order), c["batch_size"])]


class Peer:
    def __init__(self, c, rank, device):
        self.c, self.rank, self.device = c, rank, device
        self.world = c["world_size"]
        self.model = torch.jit.load(os.path.expanduser(c["model_file"]), map_location=device)
        self.inputs, self.targets = load_data(c["train_data"])
        self.val = load_data(c["val_data"]) if c["val_data"] else None
        self.passes_targets = c["loss"] == "model"
        self.ddp = DDP(self.model, device_ids=[device.index] if device.type == "cuda" else None)
        trained = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = make_optimizer(c, trained)
        torch.manual_seed(c["seed"] * RANK_SEED_STRIDE + rank)

    def batch(self, inputs, targets, rows):
        index = torch.tensor(rows, dtype=torch.long)
        x, y = inputs.index_select(0, index), targets.index_select(0, index)
        if self.c["loss"] == "cross_entropy":
            y = y.long()
        return x.to(self.device), y.to(self.device)

    def forward(self, x, y):
        output = self.ddp(x, y) if self.passes_targets else self.ddp(x)
        return loss_of(self.c["loss"], output, y)

    def step(self, micro_batches):
        """One optimizer step over `micro_batches` (lists of rows); returns (loss sum, correct, samples) of this rank."""
        self.model.train()
        self.optimizer.zero_grad()
        loss_sum = correct = samples = 0.0
        for m, rows in enumerate(micro_batches):
            x, y = self.batch(self.inputs, self.targets, rows)
            if m + 1 < len(micro_batches):
                with self.ddp.no_sync():
                    loss, right = self.forward(x, y)
                    (loss * (1.0 / len(micro_batches))).backward()
            else:
                loss, right = self.forward(x, y)
                (loss * (1.0 / len(micro_batches))).backward()
            loss_sum += loss.item() * len(rows)
            correct += right
            samples += len(rows)
        self.optimizer.step()
        return loss_sum, correct, samples

    def evaluate(self):
        self.model.eval()
        mine = list(range(self.rank, len(self.val[1]), self.world))
        chunk = max(self.c["batch_size"], 256)
        loss_sum = correct = 0.0
        with torch.no_grad():
            for start in range(0, len(mine), chunk):
                rows = mine[start:start + chunk]
                x, y = self.batch(self.val[0], self.val[1], rows)
                loss, right = self.forward(x, y)
                loss_sum += loss.item() * len(rows)
                correct += right
        sums = torch.tensor([loss_sum, correct, float(len(mine))], dtype=torch.double)
        dist.all_reduce(sums)
        return sums[0].item() / sums[2].item(), sums[1].item() / sums[2].item()


def summed(values):
    sums = torch.tensor(values, dtype=torch.double)
    dist.all_reduce(sums)
    return sums.tolist()


def worker(rank, c, args, store, queue):
    torch.set_num_threads(c["threads"] if c["threads"] > 0 else max(1, (os.cpu_count() or 1) // c["world_size"]))
    cuda = c["device"] == "cuda"
    device = torch.device("cuda", rank % torch.cuda.device_count()) if cuda else torch.device("cpu")
    # A peer that stops is an error within the engine's own collective_timeout, not a hang.
    dist.init_process_group("nccl" if cuda else "gloo", init_method=f"file://{store}", rank=rank,
                            world_size=c["world_size"], timeout=datetime.timedelta(seconds=c["collective_timeout"]))
    peer = Peer(c, rank, device)
    samples_total = len(peer.targets)
    limit = c["max_steps"] if c["max_steps"] > 0 else None
    timed_steps = args.timed + args.warmup if args.timed else None
    lines, step, start, timed_samples = [], 0, None, 0
    for epoch in range(c["epochs"]):
        batches = rank_batches(samples_total, c, rank, epoch)
        for first in range(0, len(batches), c["grad_accum"]):
            if (limit and step >= limit) or (timed_steps and step >= timed_steps):
                break
            if timed_steps and step == args.warmup:
                start = time.perf_counter()
            loss_sum, correct, samples = peer.step(batches[first:first + c["grad_accum"]])
            step += 1
            if timed_steps:
                timed_samples += samples * c["world_size"] if start is not None else 0
                continue
            loss_sum, correct, samples = summed([loss_sum, correct, samples])
            lines.append({"type": "step", "step": step, "epoch": epoch, "loss": loss_sum / samples,
                          "accuracy": correct / samples})
            if peer.val is not None and c["eval_every"] > 0 and step % c["eval_every"] == 0:
                val_loss, val_accuracy = peer.evaluate()
                lines.append({"type": "eval", "step": step, "val_loss": val_loss, "val_accuracy": val_accuracy})
        if not timed_steps and peer.val is not None and not (lines and lines[-1]["type"] == "eval"):
            val_loss, val_accuracy = peer.evaluate()
            lines.append({"type": "eval", "step": step, "val_loss": val_loss, "val_accuracy": val_accuracy})
        if (limit and step >= limit) or (timed_steps and step >= timed_steps):
            break
    if cuda:
        torch.cuda.synchronize()
    if rank == 0:
        if timed_steps:
            seconds = time.perf_counter() - start
            lines = [{"samples_per_sec": timed_samples / seconds, "steps": args.timed, "seconds": seconds}]
        if args.save:
            peer.model.save(args.save)
        queue.put(lines)
    end_rank()  # not dist.destroy_process_group(): see rank_exit.py


def rank_zero_lines(ranks, queue):
    """Rank 0's lines, read while the ranks are watched. Reading first and joining after would
    wait for ever when a rank fails before rank 0 has sent them; joining first would wait for a
    rank 0 blocked writing more than a pipe holds. join() raises, with the rank's traceback, as
    soon as one rank has failed, and ends the others."""
    while True:
        if not queue.empty():
            lines = queue.get()
            while not ranks.join():
                pass
            return lines
        if ranks.join(timeout=0.2):
            # Every rank has ended well: rank 0 has sent its lines, or had none to send.
            if queue.empty():
                raise SystemExit("torchscript_ddp_peer: the ranks ended without rank 0's lines")
            return queue.get()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", required=True, help="a lab config of workload torchscript (JSON)")
    parser.add_argument("--save", default="", help="rank 0 saves the trained model here (TorchScript) at the end")
    parser.add_argument("--timed", type=int, default=0, help="time this many steps after --warmup, print samples/sec")
    parser.add_argument("--warmup", type=int, default=10, help="untimed steps first (with --timed)")
    parser.add_argument("--start-method", choices=("spawn", "fork"), default="spawn",
                        help="how the ranks start: fresh interpreters (spawn) or forks of this one, whose torch has run "
                             "nothing yet (fork: no second import of torch); the same training either way")
    args = parser.parse_args()
    with open(args.config) as f:
        c = dict(DEFAULTS, **json.load(f))
    if c.get("lr_rule", "none") != "none" or c.get("warmup_steps", 0) or c.get("warmup_epochs", 0) or \
            c.get("schedule", "constant") != "constant":
        raise SystemExit("torchscript_ddp_peer: only a constant LR (lr_rule none, no warmup, no schedule) is supported")
    with tempfile.TemporaryDirectory(prefix="ddplab-peer-") as private:
        queue = mp.get_context(args.start_method).SimpleQueue()
        ranks = mp.start_processes(worker, args=(c, args, os.path.join(private, "store"), queue), nprocs=c["world_size"],
                                   join=False, start_method=args.start_method)
        lines = rank_zero_lines(ranks, queue)
        for line in lines:
            print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
