#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/data/sampler_golden.json: the sample indices PyTorch's own
DistributedSampler + DataLoader give each rank in each iteration, over a table of cases.
tst_sampler compares `ddplab-engine shard` with it.

Run with Debian's python3-torch (the LibTorch the engine links):
    /usr/bin/python3 tests/tools/make_sampler_goldens.py
"""
import json
import os

import torch
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

# (num_examples, world_size, batch_size, drop_last, shuffle, seed, epoch)
CASES = [
    (9, 2, 3, False, False, 0, 0),    # seed 004's table: x9 repeats x1 on process 2
    (9, 2, 3, True, False, 0, 0),     # seed 004 with --drop_last: x9 is dropped
    (9, 2, 3, False, True, 0, 0),
    (9, 2, 3, True, True, 42, 1),
    (10, 3, 4, False, True, 0, 0),
    (10, 3, 4, False, True, 0, 1),    # set_epoch changes the permutation
    (10, 3, 4, False, True, 0, 2),
    (10, 3, 4, True, True, 0, 2),
    (256, 8, 16, False, True, 0, 0),  # seed 000's 8 x 16
    (256, 1, 128, False, True, 0, 0), # seed 000's 1 x 128
    (100, 7, 8, False, True, 5, 3),
    (100, 7, 8, True, True, 5, 3),
    (3, 8, 2, False, True, 0, 0),     # fewer examples than ranks: the head repeats twice
    (3, 8, 2, False, False, 0, 0),
    (17, 4, 5, True, False, 0, 0),
    (1000, 4, 32, False, True, 123, 7),
    (1, 1, 1, False, True, 0, 0),
]


def main():
    cases = []
    for n, k, b, drop_last, shuffle, seed, epoch in CASES:
        dataset = list(range(n))
        ranks = []
        for rank in range(k):
            sampler = DistributedSampler(dataset, num_replicas=k, rank=rank, shuffle=shuffle, seed=seed,
                                         drop_last=drop_last)
            sampler.set_epoch(epoch)
            loader = DataLoader(dataset, batch_size=b, sampler=sampler)
            ranks.append([batch.tolist() for batch in loader])
        cases.append({"num_examples": n, "world_size": k, "batch_size": b, "drop_last": drop_last,
                      "shuffle": shuffle, "seed": seed, "epoch": epoch, "ranks": ranks})
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "sampler_golden.json")
    with open(out, "w") as f:
        json.dump({"generator": "tests/tools/make_sampler_goldens.py", "torch": torch.__version__, "cases": cases}, f)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
