#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes tests/data/optimizer_golden.json: parameters after each step of PyTorch's own SGD,
Adam and AdamW, fed a fixed sequence of gradients and learning rates. tst_optimizers feeds the
engine's optimizers the same and compares.

    /usr/bin/python3 tests/tools/make_optimizer_goldens.py
"""
import json
import os

import torch

STEPS = 6
START = [0.5, -1.25, 2.0, 0.0, -0.125]

# (name, engine config keys, torch constructor)
CASES = [
    ("sgd plain", {"optimizer": "sgd"}, lambda p, lr: torch.optim.SGD(p, lr=lr)),
    ("sgd momentum dampening weight decay", {"optimizer": "sgd", "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
     lambda p, lr: torch.optim.SGD(p, lr=lr, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("sgd nesterov", {"optimizer": "sgd", "momentum": 0.9, "nesterov": True},
     lambda p, lr: torch.optim.SGD(p, lr=lr, momentum=0.9, nesterov=True)),
    ("adam", {"optimizer": "adam"}, lambda p, lr: torch.optim.Adam(p, lr=lr)),
    ("adam eps 0 weight decay", {"optimizer": "adam", "eps": 0.0, "weight_decay": 0.1, "beta1": 0.8, "beta2": 0.99},
     lambda p, lr: torch.optim.Adam(p, lr=lr, eps=0.0, weight_decay=0.1, betas=(0.8, 0.99))),
    ("adamw", {"optimizer": "adamw", "weight_decay": 0.01},
     lambda p, lr: torch.optim.AdamW(p, lr=lr, weight_decay=0.01)),
]


def main():
    generator = torch.Generator().manual_seed(2024)
    gradients = torch.randn(STEPS, len(START), generator=generator)
    gradients[2, 3] = 0.0  # a zero gradient coordinate
    lrs = [0.1, 0.1, 0.05, 0.2, 0.2, 0.01]  # the LR changes between steps, as a schedule would
    cases = []
    for name, keys, make in CASES:
        parameter = torch.nn.Parameter(torch.tensor(START))
        optimizer = make([parameter], lrs[0])
        trajectory = []
        for step in range(STEPS):
            for group in optimizer.param_groups:
                group["lr"] = lrs[step]
            parameter.grad = gradients[step].clone()
            optimizer.step()
            trajectory.append(parameter.detach().tolist())
        cases.append({"name": name, "config": keys, "trajectory": trajectory})
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "optimizer_golden.json")
    with open(out, "w") as f:
        json.dump({"generator": "tests/tools/make_optimizer_goldens.py", "torch": torch.__version__, "start": START,
                   "gradients": gradients.tolist(), "lrs": lrs, "cases": cases}, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} optimizer trajectories to {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
