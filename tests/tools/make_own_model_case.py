#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the models and data sets the own-model suites train and refuse (tests/engine/tst_own_model*.cpp,
tests/ui/tst_study_headless.cpp), with Debian's python3-torch, into one folder:

    /usr/bin/python3 tests/tools/make_own_model_case.py OUT

Good ones: bn_cnn.pt (a small CNN with BatchNorm and dropout: 4 classes of 12x12 images), bn_no_dropout.pt
(the same without dropout), mlp.pt
(the same task, no buffers), own_loss.pt (forward(inputs, targets) returns its loss), and the
data train.pt / val.pt (torch.save) with train_npy/ (the same training set as .npy files).
Bad ones, each wrong in one way: see BAD_MODELS and BAD_DATA below. Seeded: the same files
every time.
"""
import os
import sys
import zipfile

import numpy as np
import torch
from torch import nn

CLASSES, SIDE = 4, 12
TRAIN, VAL = 100, 40


class BnCnn(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 8, 3, stride=2, padding=1)
        self.bn2 = nn.BatchNorm2d(8)
        self.dropout = nn.Dropout(0.25)
        self.fc = nn.Linear(8 * 6 * 6, CLASSES)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        x = torch.relu(self.bn2(self.conv2(x)))
        return self.fc(self.dropout(x.flatten(1)))


class BnNoDropout(BnCnn):
    """BnCnn without its dropout: every GPU's forward is then a function of its batch alone, so
    GPUs emulated by accumulation (accumulate_as_ranks) must give the very same losses."""

    def __init__(self):
        super().__init__()
        self.dropout = nn.Identity()


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Flatten(), nn.Linear(SIDE * SIDE, 32), nn.ReLU(), nn.Linear(32, CLASSES))

    def forward(self, x):
        return self.layers(x)


class OwnLoss(nn.Module):
    """loss model: forward(inputs, targets) returns the batch's mean cross entropy."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x, y):
        return nn.functional.cross_entropy(self.mlp(x), y)


class Unused(nn.Module):
    """`spare` is never used: DDP would stop at it."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()
        self.spare = nn.Linear(3, 3)

    def forward(self, x):
        return self.mlp(x)


class SometimesUnused(nn.Module):
    """`extra` is used for full batches of 16 only: the short last batch of an epoch leaves it without a gradient."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()
        self.extra = nn.Linear(SIDE * SIDE, CLASSES)

    def forward(self, x):
        out = self.mlp(x)
        if x.size(0) == 16:
            out = out + self.extra(x.flatten(1))
        return out


class Throws(nn.Module):
    """Throws on a short batch (with batch 16: the last one of an epoch)."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        if x.size(0) < 16:
            raise ValueError("this model wants batches of 16")
        return self.mlp(x)


class ThreeClasses(nn.Module):
    """Scores 3 classes, but the targets go up to 3."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Flatten(), nn.Linear(SIDE * SIDE, 3))

    def forward(self, x):
        return self.layers(x)


class TwoArguments(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x, y):
        return self.mlp(x)


def images(count, generator):
    """Class c brightens quadrant c: learnable in a few steps, noisy enough to differ per sample."""
    labels = torch.randint(0, CLASSES, (count,), generator=generator)
    x = torch.randn(count, 1, SIDE, SIDE, generator=generator) * 0.5
    half = SIDE // 2
    for i, c in enumerate(labels.tolist()):
        row, col = divmod(c, 2)
        x[i, 0, row * half:(row + 1) * half, col * half:(col + 1) * half] += 1.0
    return x, labels


def save_script(model, path):
    torch.manual_seed(0)
    torch.jit.script(model()).save(path)


def rewrite_zip(source, target, change):
    """A copy of a zip archive with `change(name, bytes)` applied to every entry."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as copy:
        for entry in original.infolist():
            copy.writestr(entry, change(entry.filename, original.read(entry.filename)))


def npy_folder(path, inputs, targets):
    os.makedirs(path, exist_ok=True)
    np.save(os.path.join(path, "inputs.npy"), inputs)
    np.save(os.path.join(path, "targets.npy"), targets)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    generator = torch.Generator().manual_seed(0)
    x, y = images(TRAIN, generator)
    vx, vy = images(VAL, generator)
    torch.save({"inputs": x, "targets": y}, os.path.join(out, "train.pt"))
    torch.save({"inputs": vx, "targets": vy}, os.path.join(out, "val.pt"))
    npy_folder(os.path.join(out, "train_npy"), x.numpy(), y.numpy())
    for name, model in (("bn_cnn", BnCnn), ("bn_no_dropout", BnNoDropout), ("mlp", Mlp), ("own_loss", OwnLoss), ("unused", Unused),
                        ("sometimes_unused", SometimesUnused), ("throws", Throws), ("three_classes", ThreeClasses),
                        ("two_arguments", TwoArguments)):
        save_script(model, os.path.join(out, name + ".pt"))

    # Models that are no TorchScript this LibTorch reads.
    mlp = os.path.join(out, "mlp.pt")
    rewrite_zip(mlp, os.path.join(out, "newer_version.pt"),
                lambda name, data: b"11\n" if name.endswith("/version") else data)
    rewrite_zip(mlp, os.path.join(out, "newer_operator.pt"),
                lambda name, data: data.replace(b"torch.relu(", b"torch.scaled_dot_product_attention(")
                if "/code/" in name and name.endswith(".py") else data)
    torch.save(Mlp().state_dict(), os.path.join(out, "state_dict.pt"))
    with open(os.path.join(out, "not_a_model.txt"), "w") as f:
        f.write("a text file, not a model\n")

    # Data sets wrong in one way each.
    torch.save({"inputs": x, "targets": y.float()}, os.path.join(out, "float_targets.pt"))
    torch.save({"inputs": x, "targets": y[:-1]}, os.path.join(out, "short_targets.pt"))
    nan = x.clone()
    nan[7, 0, 3, 4] = float("nan")
    torch.save({"inputs": nan, "targets": y}, os.path.join(out, "nan.pt"))
    torch.save({"inputs": x.flatten(1), "targets": y}, os.path.join(out, "flat_inputs.pt"))
    # Inputs and labels, but no targets.
    torch.save({"inputs": x, "labels": y}, os.path.join(out, "no_targets.pt"))
    torch.save((x, y), os.path.join(out, "tuple.pt"))
    npy_folder(os.path.join(out, "fortran"), np.asfortranarray(x.numpy().reshape(TRAIN, -1)), y.numpy())
    npy_folder(os.path.join(out, "float16"), x.numpy().astype(np.float16), y.numpy())
    os.makedirs(os.path.join(out, "no_targets_npy"), exist_ok=True)
    np.save(os.path.join(out, "no_targets_npy", "inputs.npy"), x.numpy())
    # A header that claims 10^11 floats (400 GB) over a few bytes: more than any machine here holds.
    os.makedirs(os.path.join(out, "huge"), exist_ok=True)
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (100000000000, 1), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(os.path.join(out, "huge", "inputs.npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + b"\0" * 16)
    np.save(os.path.join(out, "huge", "targets.npy"), y.numpy())
    return 0


if __name__ == "__main__":
    sys.exit(main())
