#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python DDP peer for Fashion-MNIST throughput: the same MLP or CNN as the engine
(engine/workloads/fashion_models.hpp), or torchvision's resnet18 (10 classes, 1 input channel: the
model scripts/gpu_second_light.py gives the engine as one's own; torchvision needed then alone),
nn.DistributedDataParallel over Gloo, DistributedSampler
+ DataLoader over the same uint8 images, normalised per batch as the engine does, SGD with
momentum. Prints rank 0's steady-state images/sec (global) as JSON.

    /usr/bin/python3 bench/peers/fashion_ddp_peer.py --model cnn --world_size 2 --batch_size 64
"""
import argparse
import gzip
import json
import os
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from rank_exit import end_rank

MEAN, STD = 0.2860, 0.3530


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(dims)]
    return torch.frombuffer(bytearray(data[4 + 4 * dims:]), dtype=torch.uint8).reshape(shape)


def make_model(kind):
    if kind == "resnet18":
        import torchvision  # only here: the MLP and CNN need no more than torch
        model = torchvision.models.resnet18(num_classes=10)
        model.conv1 = nn.Conv2d(1, 64, kernel_size=7, stride=2, padding=3, bias=False)
        return model
    if kind == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 10))
    return nn.Sequential(nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(64 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))


def worker(rank, args, store, queue):
    torch.set_num_threads(args.threads)
    cuda = args.device == "cuda"
    device = torch.device("cuda", rank % torch.cuda.device_count()) if cuda else torch.device("cpu")
    backend = "nccl" if cuda and torch.cuda.device_count() >= args.world_size else "gloo"
    dist.init_process_group(backend, init_method=f"file://{store}", rank=rank, world_size=args.world_size)
    images = read_idx(os.path.join(args.data_dir, "train-images-idx3-ubyte.gz")).unsqueeze(1)
    labels = read_idx(os.path.join(args.data_dir, "train-labels-idx1-ubyte.gz")).long()
    torch.manual_seed(0)
    model = DDP(make_model(args.model).to(device), device_ids=[device.index] if cuda else None)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    dataset = TensorDataset(images, labels)
    sampler = DistributedSampler(dataset, shuffle=True, seed=0)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler)
    steps, start, samples = 0, None, 0
    for x, y in loader:
        if steps == args.warmup_steps:
            start = time.perf_counter()
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        x = (x.float() / 255.0 - MEAN) / STD
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        steps += 1
        if start is not None:
            samples += len(y) * args.world_size
        if steps == args.warmup_steps + args.steps:
            break
    if cuda:
        torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    if rank == 0:
        peak = torch.cuda.max_memory_allocated(device) if cuda else None
        queue.put({"images_per_sec": samples / elapsed, "steps": args.steps, "seconds": elapsed, "peak_allocated_bytes": peak})
    end_rank()  # not dist.destroy_process_group(): see rank_exit.py


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=["mlp", "cnn", "resnet18"], default="mlp")
    parser.add_argument("--world_size", type=int, default=1)
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--steps", type=int, default=200, help="timed steps")
    parser.add_argument("--warmup_steps", type=int, default=10, help="untimed steps first")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--data_dir", default="/usr/share/datasets/fashion-mnist")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu", help="cuda: rank r on GPU r (NCCL when each has its own)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ddplab-peer-") as private:
        queue = mp.get_context("spawn").SimpleQueue()
        mp.spawn(worker, args=(args, os.path.join(private, "store"), queue), nprocs=args.world_size)
        print(json.dumps(queue.get()))


if __name__ == "__main__":
    main()
