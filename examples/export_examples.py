#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Exports three ready-to-train models and their data for DDP Lab's workload `torchscript`
(docs/own-model.md), with Debian 12's python3-torch (PyTorch 1.13, the LibTorch the engine uses):

  fashion_resnet    a small ResNet-style CNN with BatchNorm on Fashion-MNIST
                    (Debian's dataset-fashion-mnist, /usr/share/datasets/fashion-mnist)
  char_transformer  a character-level transformer language model on the licence texts every
                    Debian machine has (/usr/share/common-licenses)
  tabular_mlp       an MLP regressing a smooth function of 8 features (a generated table,
                    written as .npy files)

    /usr/bin/python3 examples/export_examples.py          # into ~/.local/share/ddplab/examples
    build/bin/ddplab-engine run --config ~/.local/share/ddplab/examples/fashion_resnet.json

For each example NAME the folder gets NAME.pt (the TorchScript model), its training and
validation data (a torch.save file each, or a folder of .npy files) and NAME.json, a config
that trains it. The built-in studies that run on an exported model read them from the default
folder. Everything is seeded: the same files every time.
"""
import argparse
import gzip
import json
import math
import os
import sys

import numpy as np
import torch
from torch import nn

DEFAULT_OUT = os.path.expanduser("~/.local/share/ddplab/examples")
FASHION_DIR = "/usr/share/datasets/fashion-mnist"
LICENCES_DIR = "/usr/share/common-licenses"

# Fashion-MNIST's training pixels (in [0, 1]): mean and deviation, as the engine's own workload uses.
PIXEL_MEAN, PIXEL_STD = 0.2860, 0.3530
CONTEXT = 64  # characters the language model sees at once
TABLE_FEATURES = 8


# ---------------------------------------------------------------------------------------
# fashion_resnet
# ---------------------------------------------------------------------------------------
class ResidualBlock(nn.Module):
    """Two 3x3 convolutions with BatchNorm and a shortcut (a 1x1 convolution where the shape changes)."""

    def __init__(self, channels_in: int, channels_out: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels_out)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels_out)
        self.shortcut = nn.Sequential()
        if stride != 1 or channels_in != channels_out:
            self.shortcut = nn.Sequential(nn.Conv2d(channels_in, channels_out, 1, stride=stride, bias=False),
                                          nn.BatchNorm2d(channels_out))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + self.shortcut(x))


class FashionResNet(nn.Module):
    """uint8 images [N, 1, 28, 28] in, 10 class scores out; the images are scaled and normalised inside."""

    def __init__(self):
        super().__init__()
        self.pixel_mean = PIXEL_MEAN
        self.pixel_std = PIXEL_STD
        self.stem = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.blocks = nn.Sequential(ResidualBlock(16, 16, 1), ResidualBlock(16, 32, 2), ResidualBlock(32, 64, 2))
        self.head = nn.Linear(64, 10)

    def forward(self, images):
        x = (images.float() / 255.0 - self.pixel_mean) / self.pixel_std
        x = self.blocks(self.stem(x))
        return self.head(x.mean(dim=(2, 3)))


def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(dims)]
    return torch.frombuffer(bytearray(data[4 + 4 * dims:]), dtype=torch.uint8).reshape(shape)


def export_fashion(out, train_samples, val_samples):
    images = read_idx(os.path.join(FASHION_DIR, "train-images-idx3-ubyte.gz")).unsqueeze(1)
    labels = read_idx(os.path.join(FASHION_DIR, "train-labels-idx1-ubyte.gz")).long()
    test_images = read_idx(os.path.join(FASHION_DIR, "t10k-images-idx3-ubyte.gz")).unsqueeze(1)
    test_labels = read_idx(os.path.join(FASHION_DIR, "t10k-labels-idx1-ubyte.gz")).long()
    train = {"inputs": images[:train_samples].clone(), "targets": labels[:train_samples].clone()}
    val = {"inputs": test_images[:val_samples].clone(), "targets": test_labels[:val_samples].clone()}
    torch.save(train, os.path.join(out, "fashion-train.pt"))
    torch.save(val, os.path.join(out, "fashion-val.pt"))
    torch.manual_seed(0)
    save_model(FashionResNet(), out, "fashion_resnet")
    write_config(out, "fashion_resnet", "fashion-train.pt", "fashion-val.pt", {
        "loss": "cross_entropy", "world_size": 2, "batch_size": 64, "optimizer": "sgd", "lr": 0.05, "momentum": 0.9,
        "max_steps": 200, "eval_every": 100})
    return len(train["targets"]), len(val["targets"])


# ---------------------------------------------------------------------------------------
# char_transformer
# ---------------------------------------------------------------------------------------
class CausalSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int, dropout: float):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        batch, length, width = x.size(0), x.size(1), x.size(2)
        q, k, v = self.qkv(x).split(width, dim=2)
        head = width // self.heads
        q = q.view(batch, length, self.heads, head).transpose(1, 2)
        k = k.view(batch, length, self.heads, head).transpose(1, 2)
        v = v.view(batch, length, self.heads, head).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(head)
        future = torch.ones(length, length, dtype=torch.bool, device=x.device).triu(1)
        weights = self.dropout(torch.softmax(scores.masked_fill(future, float("-inf")), dim=-1))
        y = (weights @ v).transpose(1, 2).contiguous().view(batch, length, width)
        return self.dropout(self.proj(y))


class TransformerBlock(nn.Module):
    def __init__(self, width: int, heads: int, dropout: float):
        super().__init__()
        self.ln1 = nn.LayerNorm(width)
        self.attention = CausalSelfAttention(width, heads, dropout)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width), nn.Dropout(dropout))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class CharTransformer(nn.Module):
    """Character indices [N, T] in, next-character scores [N, T, vocabulary] out (class scores last)."""

    def __init__(self, vocabulary: int, context: int = CONTEXT, width: int = 64, heads: int = 4, layers: int = 2,
                 dropout: float = 0.1):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, width)
        self.position = nn.Parameter(torch.zeros(context, width))
        self.blocks = nn.Sequential(*[TransformerBlock(width, heads, dropout) for _ in range(layers)])
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocabulary)
        nn.init.normal_(self.position, std=0.02)

    def forward(self, characters):
        x = self.embedding(characters) + self.position[: characters.size(1)]
        return self.head(self.ln(self.blocks(x)))


def licence_text():
    """Every licence text under /usr/share/common-licenses once (the links name the same files), in name order."""
    text, seen = [], set()
    for name in sorted(os.listdir(LICENCES_DIR)):
        path = os.path.realpath(os.path.join(LICENCES_DIR, name))
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            text.append(f.read())
    return "\n".join(text)


def export_transformer(out):
    text = licence_text()
    vocabulary = sorted(set(text))
    index = {ch: i for i, ch in enumerate(vocabulary)}
    codes = torch.tensor([index[ch] for ch in text], dtype=torch.long)
    # Windows of CONTEXT + 1 characters side by side: the model reads the first CONTEXT and
    # predicts each next one. The last tenth of the text is held out for validation.
    windows = codes[: (len(codes) - 1) // CONTEXT * CONTEXT + 1]
    inputs = windows[:-1].view(-1, CONTEXT)
    targets = windows[1:].view(-1, CONTEXT)
    split = len(inputs) * 9 // 10
    torch.save({"inputs": inputs[:split].clone(), "targets": targets[:split].clone()}, os.path.join(out, "licences-train.pt"))
    torch.save({"inputs": inputs[split:].clone(), "targets": targets[split:].clone()}, os.path.join(out, "licences-val.pt"))
    with open(os.path.join(out, "licences-vocabulary.json"), "w") as f:
        json.dump("".join(vocabulary), f)
    torch.manual_seed(0)
    save_model(CharTransformer(len(vocabulary)), out, "char_transformer")
    write_config(out, "char_transformer", "licences-train.pt", "licences-val.pt", {
        "loss": "cross_entropy", "world_size": 2, "batch_size": 32, "optimizer": "adamw", "lr": 0.003,
        "weight_decay": 0.01, "max_steps": 300, "eval_every": 100})
    return split, len(inputs) - split


# ---------------------------------------------------------------------------------------
# tabular_mlp
# ---------------------------------------------------------------------------------------
class TabularMlp(nn.Module):
    """8 float features in, one number out."""

    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(TABLE_FEATURES, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, features):
        return self.layers(features)


def table(rows, generator):
    x = generator.standard_normal((rows, TABLE_FEATURES)).astype(np.float32)
    y = np.sin(x[:, 0]) + x[:, 1] * x[:, 2] + 0.5 * x[:, 3] ** 2 - x[:, 4] + 0.1 * generator.standard_normal(rows)
    return x, y.astype(np.float32).reshape(rows, 1)


def export_tabular(out, train_rows, val_rows):
    generator = np.random.default_rng(0)
    for name, rows in (("tabular-train", train_rows), ("tabular-val", val_rows)):
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        x, y = table(rows, generator)
        np.save(os.path.join(folder, "inputs.npy"), x)
        np.save(os.path.join(folder, "targets.npy"), y)
    torch.manual_seed(0)
    save_model(TabularMlp(), out, "tabular_mlp")
    write_config(out, "tabular_mlp", "tabular-train", "tabular-val", {
        "loss": "mse", "world_size": 2, "batch_size": 64, "optimizer": "adam", "lr": 0.003, "epochs": 5})
    return train_rows, val_rows


# ---------------------------------------------------------------------------------------
def save_model(model, out, name):
    torch.jit.script(model).save(os.path.join(out, name + ".pt"))


def write_config(out, name, train, val, settings):
    config = {"workload": "torchscript", "model_file": os.path.join(out, name + ".pt"),
              "train_data": os.path.join(out, train), "val_data": os.path.join(out, val)}
    config.update(settings)
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"the folder to write into (default {DEFAULT_OUT})")
    parser.add_argument("--small", action="store_true",
                        help="small data sets (2,000 Fashion-MNIST images, 2,048 table rows): for tests and quick looks")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    fashion = export_fashion(out, 2000 if args.small else 60000, 500 if args.small else 10000)
    transformer = export_transformer(out)
    tabular = export_tabular(out, 2048 if args.small else 16384, 512 if args.small else 4096)
    for name, (train, val) in (("fashion_resnet", fashion), ("char_transformer", transformer), ("tabular_mlp", tabular)):
        print(f"{name}: {os.path.join(out, name + '.pt')}, {train} training and {val} validation samples; "
              f"ddplab-engine run --config {os.path.join(out, name + '.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
