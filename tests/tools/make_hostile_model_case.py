#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the crafted models and data sets of tests/engine/tst_own_model_hostile.cpp (issue 29: a model
is code and data is a pickle), with Debian's python3-torch, into one folder:

    /usr/bin/python3 tests/tools/make_hostile_model_case.py OUT

Each file is wrong in one way, named by what it does. The plain ones (mlp.pt, train.pt) come from
make_own_model_case.py, run into the same folder first. Seeded: the same files every time.
"""
import collections
import os
import sys
import zipfile

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_own_model_case import CLASSES, SIDE, TRAIN, Mlp, images, rewrite_zip, save_script  # noqa: E402

# A claim no machine here can hold: an archive entry that unpacks to a tebibyte.
TEBIBYTE = 1 << 40
# A list nested this deep (2 MB of pickle) overflowed the stack of every reader of LibTorch 1.13 (issue 41).
MILLION = 1000 * 1000


class View:
    """A tensor as torch.save pickles it, with the sizes, strides and offset given here rather than a real
    tensor's: the unpickler rebuilds whatever view the file describes over the storage it holds."""

    def __init__(self, storage, offset, size, stride):
        self.storage, self.offset, self.size, self.stride = storage, offset, size, stride

    def __reduce__(self):
        return (torch._utils._rebuild_tensor_v2,
                (self.storage, self.offset, tuple(self.size), tuple(self.stride), False, collections.OrderedDict()))


class Prints(nn.Module):
    """An ordinary debugging print, and a line that looks like the engine's own error event."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        print("debug: batch", x.shape)
        print('{"type": "error", "message": "forged by the model", "key": "model_file"}')
        return self.mlp(x)


class Forever(nn.Module):
    """forward never returns."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        n = 0
        while x.size(0) > 0:
            n += 1
        return self.mlp(x)


class HangsOnShortBatch(nn.Module):
    """forward never returns on a short batch (with batch 16: the last one of an epoch), so the check passes."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        n = 0
        while x.size(0) < 16:
            n += 1
        return self.mlp(x)


class WeightInsideForward(nn.Module):
    """Its one trainable tensor is made inside forward: the module has no parameter at all."""

    def forward(self, x):
        w = torch.ones(144, 4).requires_grad_()  # SIDE * SIDE inputs, CLASSES outputs
        return x.flatten(1) @ w


class SparseEmbedding(nn.Module):
    """nn.Embedding(sparse=True): a sparse gradient, which DDP's dense all-reduce cannot take."""

    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(10, 8, sparse=True)
        self.out = nn.Linear(8, CLASSES)

    def forward(self, x):
        return self.out(self.embedding(x).mean(1))


class NanLoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        return self.mlp(x) * float("nan")


class PutInForward(nn.Module):
    """put_ inside forward: an operation LibTorch has no deterministic kernel for, so a run with
    deterministic true stops at its rank's check of the first batch (the launcher's runs without)."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        marker = x.new_zeros(1)
        marker.put_(torch.zeros(1, dtype=torch.long), x.new_ones(1))
        return self.mlp(x) + marker * 0.0


class PutWhenTraining(nn.Module):
    """put_ in training mode only, as a GPU's backward-only operations are met: past every check,
    at the first step."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        marker = x.new_zeros(1)
        if self.training:
            marker.put_(torch.zeros(1, dtype=torch.long), x.new_ones(1))
        return self.mlp(x) + marker * 0.0


class BigTemporary(nn.Module):
    """Allocates 256 MB inside forward and frees it before returning: the memory a step needs, not what stays."""

    def __init__(self):
        super().__init__()
        self.mlp = Mlp()

    def forward(self, x):
        scratch = x.new_ones(64 * 1024 * 1024)  # from x: not a constant TorchScript could fold away
        return self.mlp(x) + scratch.sum() * 0.0


def nested_list(depth):
    """Pickle protocol 2 (what torch.save writes) of a list nested `depth` deep, without its STOP: a mark
    for each level, then a LIST for each. Python's own pickler cannot write it (its recursion limit)."""
    return b"\x80\x02" + b"(" * depth + b"l" * depth


def pickle_archive(path, pickle):
    """A torch.save file (a zip archive: archive/data.pkl and archive/version) holding `pickle` as its data.pkl."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("archive/data.pkl", pickle)
        archive.writestr("archive/version", b"3\n")


def claim_tebibyte(source, target, entry_suffix):
    """A copy of a zip archive whose directory says the entry ending in `entry_suffix` unpacks to 1 TiB
    (its data unchanged): what a zip bomb looks like to a reader that trusts the directory."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as copy:
        for entry in original.infolist():
            copy.writestr(entry, original.read(entry.filename))
        for info in copy.infolist():
            if info.filename.endswith(entry_suffix):
                info.file_size = TEBIBYTE  # written into the central directory (zip64) at close


def npy_with_header(folder, header, payload, targets):
    """A data folder whose inputs.npy has the header dict given (NumPy's framing around it)."""
    os.makedirs(folder, exist_ok=True)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(os.path.join(folder, "inputs.npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + payload)
    np.save(os.path.join(folder, "targets.npy"), targets)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    generator = torch.Generator().manual_seed(1)
    x, y = images(TRAIN, generator)

    # Data whose tensors reach outside their storage (64 floats), or cannot be read at all.
    def floats():
        return torch.arange(64, dtype=torch.float32).storage()

    targets = torch.zeros(256, dtype=torch.long)
    views = {
        "stride_past_storage": View(floats(), 0, (256, 8), (1 << 28, 1)),
        "shape_past_storage": View(floats(), 0, (256, 8), (8, 1)),
        "negative_stride": View(floats(), 0, (256, 8), (-8, 1)),
        "offset_past_storage": View(floats(), 1000, (256, 8), (0, 0)),
    }
    for name, view in views.items():
        torch.save({"inputs": view, "targets": targets}, os.path.join(out, name + ".pt"))
    # A storage record shorter than the element count the pickle claims for it.
    torch.save({"inputs": torch.ones(256, 8), "targets": targets}, os.path.join(out, "short_record.pt"))
    rewrite_zip(os.path.join(out, "short_record.pt"), os.path.join(out, "short_record_cut.pt"),
                lambda name, data: data[:256] if name.endswith("/data/0") else data)
    os.remove(os.path.join(out, "short_record.pt"))
    # A size of 2^33: pickled as a 5-byte integer, which LibTorch 1.13's unpickler cannot read.
    torch.save({"inputs": View(floats(), 0, (1 << 33, 1), (1, 1)), "targets": targets}, os.path.join(out, "size_over_2_31.pt"))
    torch.save({"inputs": x}, os.path.join(out, "one_entry.pt"))
    claim_tebibyte(os.path.join(out, "train.pt"), os.path.join(out, "bomb_data.pt"), "/data/0")
    # A list nested a million deep (issue 41): LibTorch's reader crashed on it with SIGSEGV.
    pickle_archive(os.path.join(out, "deep_data.pt"), nested_list(MILLION) + b".")
    tokens = torch.randint(0, 10, (TRAIN, 4), generator=generator)
    torch.save({"inputs": tokens, "targets": y}, os.path.join(out, "tokens.pt"))

    # .npy headers NumPy itself refuses: a key it does not know, 203 dimensions.
    flat = x.numpy().reshape(TRAIN, -1)
    npy_with_header(os.path.join(out, "npy_extra_key"),
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (100, 144), 'extra': 1, }", flat.tobytes(), y.numpy())
    npy_with_header(os.path.join(out, "npy_many_dims"),
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (100, " + "1, " * 202 + "), }", b"\0" * 400, y.numpy())

    # Models that are code doing what a model should not.
    for name, model in (("prints", Prints), ("forever", Forever), ("hangs_on_short_batch", HangsOnShortBatch),
                        ("weight_inside_forward", WeightInsideForward), ("sparse_embedding", SparseEmbedding),
                        ("nan_loss", NanLoss), ("big_temporary", BigTemporary), ("put_in_forward", PutInForward),
                        ("put_when_training", PutWhenTraining)):
        save_script(model, os.path.join(out, name + ".pt"))
    claim_tebibyte(os.path.join(out, "mlp.pt"), os.path.join(out, "bomb_model.pt"), "/data/0")
    # A TorchScript model whose constants are a list nested a million deep (a 1-tuple of it).
    rewrite_zip(os.path.join(out, "mlp.pt"), os.path.join(out, "deep_constants.pt"),
                lambda name, data: nested_list(MILLION) + b"\x85." if name.endswith("/constants.pkl") else data)
    # Its code with an expression nested 100,000 deep: LibTorch's compiler overflowed its stack.
    rewrite_zip(os.path.join(out, "mlp.pt"), os.path.join(out, "deep_code.pt"),
                lambda name, data: data.replace(b"  def forward(", b"  def unused(self, x: Tensor) -> Tensor:\n    return " +
                                                b"-" * 100000 + b"x\n  def forward(")
                if "/code/" in name and name.endswith(".py") else data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
