#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares a PyTorch script's first weights with a checkpoint of the engine (tst_pytorch_script).

Usage: script_first_weights.py SCRIPT CHECKPOINT

Runs SCRIPT's top level (its settings and functions; not main()), builds its model with
make_model() and prints one JSON line: "tensors", the parameters of each side, and "largest",
the largest absolute difference between them, parameter by parameter in registration order
(null when their number or shapes differ). The checkpoint is the lab's (docs/checkpoints.md),
read with torch.load as the document says it can be.
"""
import json
import runpy
import sys

import torch


def main():
    script = runpy.run_path(sys.argv[1], run_name="first_weights")
    ours = [p.detach() for p in script["make_model"]().parameters()]
    lab = torch.load(sys.argv[2])["parameters"]
    same_shapes = len(ours) == len(lab) and all(a.shape == b.shape for a, b in zip(ours, lab))
    largest = max((a - b).abs().max().item() for a, b in zip(ours, lab)) if same_shapes else None
    print(json.dumps({"tensors": [len(ours), len(lab)], "largest": largest}))


if __name__ == "__main__":
    main()
