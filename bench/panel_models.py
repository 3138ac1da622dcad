# SPDX-License-Identifier: GPL-3.0-or-later
"""The advisor panel's models (bench/advisor_panel.py): eight small models of a user's own, unlike
each other, each a TorchScript file and its data as the engine trains them (workload `torchscript`,
docs/own-model.md), with the user's base: settings that train well on 1 GPU.

Written with Debian's python3-torch (PyTorch 1.13, the engine's LibTorch). Everything is seeded, so
the same files come out every time; `write_model` writes a model's files into a folder once and
returns its base config (the files' paths absolute). The widths are tiny and the data a few
thousand samples so that a brute-force grid of each fits on a 2-core machine.

| name | model | data | optimizer |
|---|---|---|---|
| cnn_bn | a CNN with BatchNorm | Fashion-MNIST at 14 x 14 | SGD, momentum 0.9 |
| attention_ln | a self-attention classifier with LayerNorm | token sequences: which token is most frequent | Adam |
| mlp_dropout | a residual MLP with Dropout | Fashion-MNIST at 14 x 14, flattened | SGD, momentum 0.9 |
| logreg | logistic regression | four Gaussian classes in 32 dimensions | plain SGD |
| embedding | mean of token embeddings, then a linear layer | bags of tokens with class-preferred words | SGD, Nesterov |
| autoencoder | an MLP autoencoder | Fashion-MNIST at 14 x 14 (mse on the pixels) | Adam |
| gru | a GRU regressing a noisy sine's frequency | generated sequences of 16 steps | Adam |
| tabular_adamw | an MLP with LayerNorm | a generated table (a smooth function plus noise) | AdamW, weight decay 0.1 |
"""
import gzip
import hashlib
import json
import math
import os

import torch
from torch import nn

FASHION_DIR = "/usr/share/datasets/fashion-mnist"
FASHION_TRAIN, FASHION_VAL = 4096, 1024  # images of the first 60,000 and of the 10,000 test images
PIXEL_MEAN, PIXEL_STD = 0.2860, 0.3530   # Fashion-MNIST's training pixels, as the engine's own workload uses


# ---------------------------------------------------------------------------------------
# The models
# ---------------------------------------------------------------------------------------
class CnnBn(nn.Module):
    """uint8 images [N, 1, 14, 14] in, 10 class scores out: two convolutions with BatchNorm."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Linear(16 * 3 * 3, 10)
        self.pixel_mean, self.pixel_std = PIXEL_MEAN, PIXEL_STD

    def forward(self, images):
        x = (images.float() / 255.0 - self.pixel_mean) / self.pixel_std
        return self.head(self.features(x).flatten(1))


class AttentionLn(nn.Module):
    """Token indices [N, T] in, class scores out: one pre-LayerNorm self-attention block, mean-pooled."""

    def __init__(self, vocabulary: int, length: int, classes: int, width: int = 24, heads: int = 2):
        super().__init__()
        self.heads = heads
        self.embedding = nn.Embedding(vocabulary, width)
        self.position = nn.Parameter(0.02 * torch.randn(length, width))
        self.ln1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.ln2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))
        self.ln = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, tokens):
        x = self.embedding(tokens) + self.position[: tokens.size(1)]
        batch, length, width = x.size(0), x.size(1), x.size(2)
        head = width // self.heads
        q, k, v = self.qkv(self.ln1(x)).split(width, dim=2)
        q = q.view(batch, length, self.heads, head).transpose(1, 2)
        k = k.view(batch, length, self.heads, head).transpose(1, 2)
        v = v.view(batch, length, self.heads, head).transpose(1, 2)
        weights = torch.softmax((q @ k.transpose(-2, -1)) / math.sqrt(head), dim=-1)
        x = x + self.proj((weights @ v).transpose(1, 2).contiguous().view(batch, length, width))
        x = x + self.mlp(self.ln2(x))
        return self.head(self.ln(x).mean(dim=1))


class MlpDropout(nn.Module):
    """uint8 images [N, 196] in, 10 class scores out: a residual MLP with Dropout."""

    def __init__(self, width: int = 64, dropout: float = 0.3):
        super().__init__()
        self.inp = nn.Linear(196, width)
        self.block = nn.Sequential(nn.ReLU(), nn.Dropout(dropout), nn.Linear(width, width), nn.ReLU(), nn.Dropout(dropout),
                                   nn.Linear(width, width))
        self.head = nn.Linear(width, 10)
        self.pixel_mean, self.pixel_std = PIXEL_MEAN, PIXEL_STD

    def forward(self, pixels):
        x = self.inp((pixels.float() / 255.0 - self.pixel_mean) / self.pixel_std)
        return self.head(torch.relu(x + self.block(x)))


class LogisticRegression(nn.Module):
    def __init__(self, features: int, classes: int):
        super().__init__()
        self.linear = nn.Linear(features, classes)

    def forward(self, x):
        return self.linear(x)


class EmbeddingBag(nn.Module):
    """Token indices [N, T] in: the mean of their (dense) embeddings, then a linear layer."""

    def __init__(self, vocabulary: int, classes: int, width: int = 16):
        super().__init__()
        self.embedding = nn.Embedding(vocabulary, width)
        self.head = nn.Linear(width, classes)

    def forward(self, tokens):
        return self.head(self.embedding(tokens).mean(dim=1))


class AutoEncoder(nn.Module):
    """Pixels [N, 196] in [0, 1] in, their reconstruction out, through a 16-wide code."""

    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(196, 64), nn.ReLU(), nn.Linear(64, 16))
        self.decoder = nn.Sequential(nn.ReLU(), nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 196))

    def forward(self, pixels):
        return self.decoder(self.encoder(pixels))


class GruRegressor(nn.Module):
    """A sequence [N, T, 1] in, one number out: the GRU's last hidden state through a linear layer."""

    def __init__(self, hidden: int = 16):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, sequence):
        out, _ = self.gru(sequence)
        return self.head(out[:, -1])


class TabularLn(nn.Module):
    def __init__(self, features: int, width: int = 64):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(features, width), nn.LayerNorm(width), nn.ReLU(), nn.Linear(width, width),
                                    nn.LayerNorm(width), nn.ReLU(), nn.Linear(width, 1))

    def forward(self, x):
        return self.layers(x)


# ---------------------------------------------------------------------------------------
# The data
# ---------------------------------------------------------------------------------------
def read_idx(path):
    with gzip.open(path, "rb") as f:
        data = f.read()
    dims = data[3]
    shape = [int.from_bytes(data[4 + 4 * i: 8 + 4 * i], "big") for i in range(dims)]
    return torch.frombuffer(bytearray(data[4 + 4 * dims:]), dtype=torch.uint8).reshape(shape)


def fashion_14():
    """Fashion-MNIST's first FASHION_TRAIN training and FASHION_VAL test images, each 2 x 2 block averaged
    (14 x 14, uint8), with their labels: ((images, labels), (images, labels))."""
    def load(images, labels, count):
        x = read_idx(os.path.join(FASHION_DIR, images))[:count].float().unsqueeze(1)
        x = torch.nn.functional.avg_pool2d(x, 2).round().to(torch.uint8)
        return x, read_idx(os.path.join(FASHION_DIR, labels))[:count].long()
    return (load("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", FASHION_TRAIN),
            load("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz", FASHION_VAL))


def most_frequent_token(generator, samples, vocabulary=12, length=16, classes=4, label_noise=0.1):
    """Sequences of tokens; the class is which of the first `classes` tokens occurs most often
    (ties: the smallest), except for a share `label_noise` of samples given a random class (so the
    loss has a floor). The other tokens are distractors."""
    tokens = torch.randint(0, vocabulary, (samples, length), generator=generator)
    counts = torch.stack([(tokens == c).sum(dim=1) for c in range(classes)], dim=1)
    noisy = torch.rand(samples, generator=generator) < label_noise
    return tokens, torch.where(noisy, torch.randint(0, classes, (samples,), generator=generator), counts.argmax(dim=1))


def gaussian_classes(generator, samples, centres):
    """Gaussian classes around `centres`, the features on scales from 1 down to 1/30: an
    ill-conditioned problem, whose small directions take many steps."""
    labels = torch.randint(0, centres.size(0), (samples,), generator=generator)
    scales = torch.logspace(0, -1.5, centres.size(1))
    return (centres[labels] + torch.randn(samples, centres.size(1), generator=generator)) * scales, labels


def token_bags(generator, samples, vocabulary=200, length=20, classes=4, preferred=10, share=0.15):
    """Bags of `length` tokens; each class draws a `share` of them from its own `preferred` words,
    the rest from the whole vocabulary."""
    labels = torch.randint(0, classes, (samples,), generator=generator)
    tokens = torch.randint(0, vocabulary, (samples, length), generator=generator)
    own = labels.unsqueeze(1) * preferred + torch.randint(0, preferred, (samples, length), generator=generator)
    use_own = torch.rand(samples, length, generator=generator) < share
    return torch.where(use_own, own, tokens), labels


def noisy_sines(generator, samples, length=16):
    """A sine of random frequency and phase plus noise; the target is the frequency, measured with noise
    (so the loss has a floor)."""
    frequency = 0.2 + 0.8 * torch.rand(samples, 1, generator=generator)
    phase = 2 * math.pi * torch.rand(samples, 1, generator=generator)
    t = torch.arange(length, dtype=torch.float32).unsqueeze(0)
    x = torch.sin(frequency * t + phase) + 0.3 * torch.randn(samples, length, generator=generator)
    return x.unsqueeze(2), frequency + 0.05 * torch.randn(samples, 1, generator=generator)


def smooth_table(generator, samples, features=16):
    x = torch.randn(samples, features, generator=generator)
    y = torch.sin(x[:, 0]) + x[:, 1] * x[:, 2] + 0.5 * x[:, 3] ** 2 - x[:, 4] + 0.3 * torch.tanh(x[:, 5:].sum(dim=1))
    return x, (y + 0.1 * torch.randn(samples, generator=generator)).unsqueeze(1)


# ---------------------------------------------------------------------------------------
# The panel: each model's files and the user's base on 1 GPU
# ---------------------------------------------------------------------------------------
def _fashion(model, flat, float_pixels=False):
    (x, y), (vx, vy) = fashion_14()
    if flat:
        x, vx = x.view(x.size(0), -1), vx.view(vx.size(0), -1)
    if float_pixels:  # the autoencoder: pixels in [0, 1], reconstructed
        x, vx = x.float() / 255.0, vx.float() / 255.0
        return model, (x, x.clone()), (vx, vx.clone())
    return model, (x, y), (vx, vy)


def _generated(make, model, train, val, seed):
    generator = torch.Generator().manual_seed(seed)
    return model, make(generator, train), make(generator, val)


def _centres():
    return 0.3 * torch.randn(4, 32, generator=torch.Generator().manual_seed(46))


# name -> (how its model and data are made, its loss, the user's base on 1 GPU, what it is in words)
MODELS = {
    "cnn_bn": (lambda: _fashion(CnnBn(), flat=False), "cross_entropy",
               {"batch_size": 32, "optimizer": "sgd", "lr": 0.05, "momentum": 0.9, "epochs": 2},
               "a CNN with BatchNorm (2 convolutions, 8 and 16 channels) on Fashion-MNIST at 14 x 14"),
    "attention_ln": (lambda: _generated(most_frequent_token, AttentionLn(12, 16, 4), 4096, 1024, 1), "cross_entropy",
                     {"batch_size": 32, "optimizer": "adam", "lr": 0.01, "epochs": 2},
                     "a self-attention block with LayerNorm (width 24, 2 heads): which token is most frequent"),
    "mlp_dropout": (lambda: _fashion(MlpDropout(), flat=True), "cross_entropy",
                    {"batch_size": 16, "optimizer": "sgd", "lr": 0.01, "momentum": 0.9, "epochs": 2},
                    "a residual MLP with Dropout 0.3 (width 64) on Fashion-MNIST at 14 x 14"),
    "logreg": (lambda: _generated(lambda g, n: gaussian_classes(g, n, _centres()), LogisticRegression(32, 4), 2048, 1024, 2),
               "cross_entropy", {"batch_size": 8, "optimizer": "sgd", "lr": 0.8, "epochs": 2},
               "logistic regression: four Gaussian classes in 32 dimensions on scales from 1 to 1/30"),
    "embedding": (lambda: _generated(token_bags, EmbeddingBag(200, 4), 4096, 1024, 3), "cross_entropy",
                  {"batch_size": 32, "optimizer": "sgd", "lr": 0.5, "momentum": 0.9, "nesterov": True, "epochs": 2},
                  "the mean of 16-wide token embeddings and a linear layer: bags of 20 tokens in 4 classes"),
    "autoencoder": (lambda: _fashion(AutoEncoder(), flat=True, float_pixels=True), "mse",
                    {"batch_size": 32, "optimizer": "adam", "lr": 0.005, "epochs": 2},
                    "an MLP autoencoder 196-64-16-64-196 on Fashion-MNIST at 14 x 14 (mse)"),
    "gru": (lambda: _generated(noisy_sines, GruRegressor(), 4096, 1024, 4), "mse",
            {"batch_size": 16, "optimizer": "adam", "lr": 0.01, "epochs": 2},
            "a GRU (16 hidden) regressing the frequency of a noisy sine of 16 steps"),
    "tabular_adamw": (lambda: _generated(smooth_table, TabularLn(16), 4096, 1024, 5), "mse",
                      {"batch_size": 64, "optimizer": "adamw", "lr": 0.006, "weight_decay": 0.1, "epochs": 2},
                      "an MLP with LayerNorm (16-64-64-1) on a generated table, AdamW with weight decay 0.1"),
}


def training_size(base):
    """How many training samples a base's data hold."""
    return len(torch.load(base["train_data"])["targets"])


def describe(name):
    return MODELS[name][3]


def model_identity(path):
    """A TorchScript file by what it computes: its code and its tensors (the file's bytes differ from
    one save to the next)."""
    module = torch.jit.load(path)
    digest = hashlib.sha256()
    for name, sub in module.named_modules():
        code = sub.code if hasattr(sub, "code") else ""  # a module without a method of its own has none
        digest.update(name.encode() + code.encode())
    for name, tensor in list(module.named_parameters()) + list(module.named_buffers()):
        digest.update(name.encode() + tensor.detach().contiguous().numpy().tobytes())
    return digest.hexdigest()[:16]


def file_identity(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:16]


def write_model(name, folder):
    """Writes NAME.pt, NAME-train.pt and NAME-val.pt into `folder` (again only when this file changed
    since) and returns (the user's base: a config for 1 GPU with the files' absolute paths, and each
    file's identity: what its numbers depend on, for the panel's cache)."""
    make, loss, settings, _ = MODELS[name]
    os.makedirs(folder, exist_ok=True)
    paths = {key: os.path.abspath(os.path.join(folder, name + suffix))
             for key, suffix in (("model_file", ".pt"), ("train_data", "-train.pt"), ("val_data", "-val.pt"))}
    stamp = os.path.join(folder, name + ".identity.json")
    recipe = file_identity(os.path.abspath(__file__))
    known = json.load(open(stamp)) if os.path.exists(stamp) else {}
    if known.get("recipe") != recipe or not all(os.path.exists(path) for path in paths.values()):
        torch.manual_seed(46)  # the model's initial weights: the same every time
        model, (x, y), (vx, vy) = make()
        for key, (inputs, targets) in (("train_data", (x, y)), ("val_data", (vx, vy))):
            torch.save({"inputs": inputs.contiguous().clone(), "targets": targets.contiguous().clone()}, paths[key] + ".partial")
        torch.jit.script(model).save(paths["model_file"] + ".partial")
        for path in paths.values():  # whole files or none: a stopped export is written again
            os.replace(path + ".partial", path)
        identities = {path: (model_identity(path) if key == "model_file" else file_identity(path)) for key, path in paths.items()}
        known = {"recipe": recipe, "identities": identities}
        with open(stamp + ".partial", "w") as out:
            json.dump(known, out)
        os.replace(stamp + ".partial", stamp)
    base = dict({"workload": "torchscript", "loss": loss, "world_size": 1, "seed": 0}, **paths, **settings)
    return base, known["identities"]
