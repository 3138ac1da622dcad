#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the crafted checkpoints of tests/engine/tst_checkpoints.cpp (issue 41), with Debian's python3-torch,
from a checkpoint the engine wrote (a linreg run with momentum: it has a momentum buffer and update
statistics), into one folder:

    /usr/bin/python3 tests/tools/make_hostile_checkpoint_case.py CHECKPOINT OUT

round_trip.pt is the checkpoint read and saved again by PyTorch, unchanged: what a user saving with
torch.save writes (pickle's APPEND and SETITEM for a list and a dict of one item, which LibTorch 1.13's
unpickler does not read). Every other file is the same checkpoint with one field changed, named by what
it holds; deep_checkpoint.pt is no checkpoint but a list nested a million deep, and renamed_mlp.pt is
make_own_model_case's mlp.pt with other parameter names for the same shapes.
"""
import json
import math
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_hostile_model_case import MILLION, nested_list, pickle_archive  # noqa: E402
from make_own_model_case import CLASSES, SIDE, save_script  # noqa: E402


class RenamedMlp(nn.Module):
    """make_own_model_case's Mlp with other names for the same shapes: its checkpoint is not Mlp's."""

    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.hidden = nn.Linear(SIDE * SIDE, 32)
        self.out = nn.Linear(32, CLASSES)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(self.flatten(x))))


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    original = torch.load(source)
    config = json.loads(original["config"])

    def crafted(name, change):
        checkpoint = torch.load(source)
        change(checkpoint)
        torch.save(checkpoint, os.path.join(out, name + ".pt"))

    crafted("round_trip", lambda c: None)
    # A constant schedule's batch multiplied by 3 (it trained at 3 x the batch).
    crafted("batch_growth_3", lambda c: c["batch_growth"].__setitem__(0, 3.0))
    crafted("step_2_62", lambda c: c.__setitem__("step", 1 << 62))
    crafted("epoch_past", lambda c: (c.__setitem__("epoch", config["epochs"] + 1), c.__setitem__("position", 0)))
    crafted("position_past", lambda c: c.__setitem__("position", 10 * c["dataset_size"]))
    crafted("noise_scale_nan", lambda c: c["noise_scale"].__setitem__(1, math.nan))
    crafted("momentum_int64", lambda c: c["optimizer_state"][0].__setitem__("momentum_buffer", c["optimizer_state"][0]["momentum_buffer"].long()))
    crafted("momentum_bool", lambda c: c["optimizer_state"][0].__setitem__("momentum_buffer", c["optimizer_state"][0]["momentum_buffer"] != 0))
    crafted("update_mean_shape", lambda c: c.__setitem__("update_mean", torch.zeros(c["update_mean"].numel() + 1, dtype=torch.float64)))
    pickle_archive(os.path.join(out, "deep_checkpoint.pt"), nested_list(MILLION) + b".")
    save_script(RenamedMlp, os.path.join(out, "renamed_mlp.pt"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
