#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Compares two TorchScript models' buffers and parameters by name, as the own-model fidelity suite
needs (tests/engine/tst_own_model_fidelity.cpp): prints one JSON line with the largest relative
difference of each, |a - b| / max(|a|, |b|, 1e-12) over every element.

    /usr/bin/python3 tests/tools/compare_models.py a.pt b.pt
"""
import json
import sys

import torch


def largest_difference(a, b):
    worst = 0.0
    for name, tensor in a.items():
        other = b[name].to(tensor.dtype)
        x, y = tensor.double(), other.double()
        scale = torch.maximum(torch.maximum(x.abs(), y.abs()), torch.tensor(1e-12, dtype=torch.double))
        worst = max(worst, ((x - y).abs() / scale).max().item() if x.numel() else 0.0)
    return worst


def main():
    a, b = torch.jit.load(sys.argv[1]), torch.jit.load(sys.argv[2])
    buffers_a, buffers_b = dict(a.named_buffers()), dict(b.named_buffers())
    parameters_a, parameters_b = dict(a.named_parameters()), dict(b.named_parameters())
    if buffers_a.keys() != buffers_b.keys() or parameters_a.keys() != parameters_b.keys():
        print(json.dumps({"error": "the two models have different buffers or parameters"}))
        return 1
    print(json.dumps({"buffers": sorted(buffers_a), "buffers_max_rel": largest_difference(buffers_a, buffers_b),
                      "parameters_max_rel": largest_difference(parameters_a, parameters_b)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
