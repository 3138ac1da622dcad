#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GPU second light (docs/gpu-validation.md): the engine features added since first light, on one
GPU, each check a row of one PASS/FAIL table.

  python3 scripts/gpu_second_light.py --engine build-gpu/bin/ddplab-engine --hostile DIR [--device cuda|cpu] [--only TEXT]

- checkpoint at step 10 and resume to 20: every step's loss against the straight run's, on linreg,
  the Fashion-MNIST CNN and a scripted CNN with BatchNorm; the bound is measured, and so is the
  difference between two straight runs (cuDNN may pick non-deterministic kernels);
- accumulate_as_ranks: 1 rank x 4 micro-batches against 4 ranks sharing the GPU over Gloo, the
  BatchNorm CNN, step-1 loss within 1e-5 relative;
- a `steps` batch schedule: the batch grows after the planned steps, an epoch's every sample once;
- torchvision's resnet18 (10 classes, 1 input channel), scripted, as one's own model on
  Fashion-MNIST at 128 and 512 per GPU: samples/s against the Python DDP peer, and the peak GPU
  memory against what `inspect` estimates;
- the hostile own-model files (tests/tools/make_hostile_model_case.py, written beforehand into
  DIR) loaded with the device: refused with the exit code and key of the CPU suite, no crash;
- `deterministic` on resnet18, whose pooling's backward has no deterministic CUDA kernel: the run
  stops at step 1 with exit code 2, naming the key and the operation.

--device cpu runs every row on CPU (no GPU needed: how the script was tried on a CPU machine).
Each row prints as it ends; the table and the exit code (0: every row PASS) come last."""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import torch
from torch import nn

import gpu_throughput  # beside this file
from gpu_selfcheck import events, losses, run_checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = 1e-5  # relative: float32 sums in another order
MEAN, STD = 0.2860, 0.3530  # Fashion-MNIST's, as the peer normalises
# The same count in both runs a resume is compared with: another count sums in another order.
THREADS = str(min(4, os.cpu_count() or 1))
HOSTILE_ROWS = [  # (model, data, exit code, key), as tests/engine/tst_own_model_hostile.cpp asserts them on CPU
    ("mlp.pt", "stride_past_storage.pt", 3, "train_data"),
    ("mlp.pt", "shape_past_storage.pt", 3, "train_data"),
    ("mlp.pt", "negative_stride.pt", 3, "train_data"),
    ("mlp.pt", "offset_past_storage.pt", 3, "train_data"),
    ("mlp.pt", "short_record_cut.pt", 3, "train_data"),
    ("mlp.pt", "bomb_data.pt", 2, "train_data"),
    ("mlp.pt", "one_entry.pt", 3, "train_data"),
    ("mlp.pt", "size_over_2_31.pt", 3, "train_data"),
    ("mlp.pt", "deep_data.pt", 3, "train_data"),
    ("mlp.pt", "npy_extra_key", 3, "train_data"),
    ("mlp.pt", "npy_many_dims", 3, "train_data"),
    ("bomb_model.pt", "train.pt", 2, "model_file"),
    ("weight_inside_forward.pt", "train.pt", 2, "model_file"),
    ("sparse_embedding.pt", "tokens.pt", 2, "model_file"),
    ("deep_constants.pt", "train.pt", 2, "model_file"),
    ("deep_code.pt", "train.pt", 2, "model_file"),
    ("nan_loss.pt", "train.pt", 2, "model_file"),
]


def relative_difference(these, those):
    return max((abs(a - b) / max(abs(b), 1e-12) for a, b in zip(these, those)), default=float("inf"))


def exported_examples(folder):
    subprocess.run([sys.executable, os.path.join(ROOT, "examples", "export_examples.py"), "--small", "--out", folder],
                   check=True, stdout=subprocess.DEVNULL)
    return os.path.join(folder, "fashion_resnet.json")


def checkpoint_and_resume(engine, device, folder, bn_config):
    """20 steps straight, twice; 10 steps with a checkpoint, then 10 resumed from it: each step's loss,
    with the fastest kernels and with deterministic ones only (`deterministic`)."""
    workloads = {
        "linreg": ["--workload", "linreg", "--batch-size", "16", "--epochs", "100"],
        "Fashion CNN": ["--workload", "fashion_mnist", "--model", "cnn", "--batch-size", "64", "--epochs", "1"],
        "BatchNorm CNN": ["--config", bn_config, "--world-size", "1", "--batch-size", "32", "--epochs", "10", "--eval-every", "0"],
    }
    figures, passed = [], True
    for name, workload in workloads.items():
        said = []
        for kernels, flag in (("fastest kernels", []), ("deterministic", ["--deterministic"])):
            common = workload + ["--device", device, "--threads", THREADS] + flag
            straight = losses(events(engine, common + ["--max-steps", "20"]))
            again = losses(events(engine, common + ["--max-steps", "20"]))
            checkpoints = os.path.join(folder, f"checkpoints-{name}-{kernels}".replace(" ", "-"))
            first = losses(events(engine, common + ["--max-steps", "10", "--checkpoint-at", "10", "--checkpoint-dir", checkpoints]))
            resumed = losses(events(engine, common + ["--max-steps", "20", "--resume-from", os.path.join(checkpoints, "step-000010.pt")]))
            if len(straight) != 20 or len(first) != 10 or len(resumed) != 10:
                said.append(f"{kernels}: {len(straight)}, {len(first)} and {len(resumed)} steps, not 20, 10 and 10")
                passed = False
                continue
            worst = relative_difference(first + resumed, straight)
            rerun = relative_difference(again, straight)
            said.append(f"{kernels}: resumed {'bit-exact' if worst == 0 else f'within {worst:.1e}'}, two straight runs "
                        f"{'bit-exact' if rerun == 0 else f'within {rerun:.1e}'}")
            # The resume's own claim: with deterministic kernels, the same bits as the straight run.
            if flag:
                passed = passed and worst == 0 and rerun == 0
        figures.append(f"{name}: " + ", ".join(said))
    return "; ".join(figures), passed


def accumulation_as_ranks(engine, device, bn_config):
    """The BatchNorm CNN as 4 GPUs of 16: 4 ranks sharing the device over Gloo, and 1 rank of 4 micro-batches."""
    common = ["--config", bn_config, "--batch-size", "16", "--max-steps", "5", "--epochs", "10", "--eval-every", "5",
              "--device", device, "--threads", "2"]
    ranks = events(engine, common + ["--world-size", "4", "--backend", "gloo"])
    emulated = events(engine, common + ["--world-size", "1", "--grad-accum", "4", "--accumulate-as-ranks"])
    reference, these = losses(ranks), losses(emulated)
    if len(these) != 5 or len(reference) != 5:
        return f"{len(these)} and {len(reference)} steps, not 5", False
    first = abs(these[0] - reference[0]) / abs(reference[0])
    validation = [[e["val_loss"] for e in run if e.get("type") == "eval" and "val_loss" in e][-1:] for run in (ranks, emulated)]
    said = (f"step 1 {these[0]:.6f} against 4 ranks' {reference[0]:.6f} (relative {first:.1e}); all 5 steps within "
            f"{relative_difference(these, reference):.1e}")
    if validation[0] and validation[1]:
        said += f"; validation loss {validation[1][0]:.5f} against {validation[0][0]:.5f}"
    return said, first <= TOLERANCE


def growing_batch(engine, device):
    """One epoch of the Fashion CNN from 64, doubled after steps 100 and 200: the steps' batches, the
    growth events and the epoch's samples (60,000, each once: none lost, none twice)."""
    run = events(engine, ["--workload", "fashion_mnist", "--model", "cnn", "--batch-size", "64", "--epochs", "1",
                          "--batch-schedule", "steps", "--batch-schedule-steps", "100, 200", "--batch-schedule-factors", "2, 2",
                          "--max-batch-per-rank", "256", "--device", device, "--threads", THREADS])
    steps = [e for e in run if e.get("type") == "step"]
    changed = [(e["step"], e["previous_effective_batch"], e["effective_batch"]) for e in run if e.get("type") == "batch_changed"]
    batches = [e["effective_batch"] for e in steps]
    planned = all(b == (64 if i < 100 else 128 if i < 200 else 256) for i, b in enumerate(batches[:-1]))
    seen = sum(e["samples"] for e in steps)
    size = next(e for e in run if e.get("type") == "config").get("dataset_size", 60000)
    said = f"grew {changed}; {len(steps)} steps, {seen} samples of an epoch of {size}"
    return said, changed == [(100, 64, 128), (200, 128, 256)] and planned and seen == size


class GpuMemoryPeak:
    """The most memory the GPU held while it ran, above what it held before (nvidia-smi, every 50 ms);
    0 when watching is False (a CPU run)."""

    def __init__(self, watching=True):
        self.watching = watching
        self.idle = self.read() if watching else 0
        self.peak = self.idle
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    @staticmethod
    def read():
        done = subprocess.run(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits", "--id=0"],
                              stdout=subprocess.PIPE, text=True)
        return int(done.stdout.split()[0]) * 1024 * 1024 if done.returncode == 0 and done.stdout.strip() else 0

    def watch(self):
        while not self.stop.is_set():
            self.peak = max(self.peak, self.read())
            time.sleep(0.05)

    def __enter__(self):
        if self.watching:
            self.thread.start()
        return self

    def __exit__(self, *_):
        self.stop.set()
        if self.watching:
            self.thread.join()

    def bytes(self):
        return self.peak - self.idle


def context_bytes():
    """What the CUDA context, cuBLAS and cuDNN hold in a process that ran one convolution and one
    product: the part of a process's GPU memory that no estimate of a model counts."""
    probe = ("import torch,time; x=torch.randn(64,1,28,28,device='cuda',requires_grad=True); "
             "torch.nn.functional.conv2d(x,torch.randn(8,1,3,3,device='cuda')).sum().backward(); "
             "(torch.randn(256,256,device='cuda')@torch.randn(256,256,device='cuda')).sum().item(); "
             "torch.cuda.synchronize(); print(torch.cuda.memory_reserved(), flush=True); time.sleep(2)")
    with GpuMemoryPeak() as memory:
        done = subprocess.run([sys.executable, "-c", probe], stdout=subprocess.PIPE, text=True)
    return memory.bytes() - int(done.stdout.strip())


class FashionResNet18(nn.Module):
    """torchvision's resnet18 with one input channel and 10 classes, normalising Fashion-MNIST's bytes
    inside as the examples' fashion_resnet does (the peer normalises the same way in its loop)."""

    def __init__(self):
        super().__init__()
        import torchvision  # only here: every other row needs torch alone

        self.net = torchvision.models.resnet18(num_classes=10)
        self.net.conv1 = nn.Conv2d(1, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.pixel_mean = MEAN  # attributes: TorchScript takes no Python globals
        self.pixel_std = STD

    def forward(self, images):
        return self.net((images.float() / 255.0 - self.pixel_mean) / self.pixel_std)


def export_resnet18(folder):
    """The model, scripted, and the 60,000 training images as they are, into folder."""
    sys.path.insert(0, os.path.join(ROOT, "bench", "peers"))
    from fashion_ddp_peer import read_idx

    data = "/usr/share/datasets/fashion-mnist"
    torch.manual_seed(0)
    torch.jit.script(FashionResNet18()).save(os.path.join(folder, "resnet18.pt"))
    torch.save({"inputs": read_idx(os.path.join(data, "train-images-idx3-ubyte.gz")).unsqueeze(1).clone(),
                "targets": read_idx(os.path.join(data, "train-labels-idx1-ubyte.gz")).long().clone()},
               os.path.join(folder, "fashion-train.pt"))


def resnet18_args(folder):
    return ["--workload", "torchscript", "--model-file", os.path.join(folder, "resnet18.pt"), "--train-data",
            os.path.join(folder, "fashion-train.pt"), "--loss", "cross_entropy", "--optimizer", "sgd", "--lr", "0.05",
            "--momentum", "0.9", "--epochs", "100", "--threads", THREADS]


def resnet18_speed_and_memory(engine, device, folder, batch, context):
    """samples/s of the engine and the peer, and memory three ways: inspect's estimate against what
    PyTorch's allocator held at its peak for the same model and batch (the peer's tensors), and the
    GPU memory the engine's process took at its peak against the peer's process (nvidia-smi)."""
    if not os.path.exists(os.path.join(folder, "resnet18.pt")):
        export_resnet18(folder)
    model = resnet18_args(folder)
    on_gpu = device == "cuda"
    with GpuMemoryPeak(on_gpu) as engine_memory:
        rate = gpu_throughput.engine_rate(engine, device, batch, model)
    if not isinstance(rate, float):
        return f"engine {rate}", False
    with GpuMemoryPeak(on_gpu) as peer_memory:
        peer = gpu_throughput.peer_run(device, batch, model="resnet18")
    if not isinstance(peer, dict):
        return f"engine {rate:,.0f} samples/s; the peer {peer}", False
    inspected = json.loads(subprocess.run([engine, "inspect", "--batch-size", str(batch), "--device", device] + model,
                                          stdout=subprocess.PIPE, text=True).stdout.strip().splitlines()[-1])["memory"]
    estimate = inspected["per_rank_bytes"] + inspected["data_bytes"]
    fast_enough = rate >= 0.8 * peer["images_per_sec"]
    said = (f"engine {rate:,.0f} samples/s, peer {peer['images_per_sec']:,.0f} ({rate / peer['images_per_sec']:.2f}x); "
            f"inspect's estimate {gib(estimate)} (rank {gib(inspected['per_rank_bytes'])}, data {gib(inspected['data_bytes'])})")
    if not on_gpu:
        return said, fast_enough
    tensors = peer["peak_allocated_bytes"]
    said += (f" against PyTorch's peak allocated {gib(tensors)} ({estimate / tensors:.2f}x); GPU memory at the peak: the "
             f"engine's process {gib(engine_memory.bytes())}, the peer's {gib(peer_memory.bytes())} (a process's CUDA "
             f"context with cuBLAS and cuDNN: {gib(context)})")
    return said, fast_enough and 0.5 <= estimate / tensors <= 2.0 and engine_memory.bytes() <= 1.25 * peer_memory.bytes()


def gib(size):
    return f"{size / 2**30:.2f} GiB"


def deterministic_stop(engine, device, folder):
    """resnet18 with deterministic true: on a GPU its pooling's backward has no deterministic kernel
    (on a CPU every kernel is deterministic, and the run trains). The run must stop at step 1 with
    exit code 2, the key and the operation named."""
    if not os.path.exists(os.path.join(folder, "resnet18.pt")):
        export_resnet18(folder)
    run = subprocess.run([engine, "run", "--device", device, "--batch-size", "32", "--max-steps", "2", "--deterministic"] + resnet18_args(folder),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    last = json.loads(run.stdout.strip().splitlines()[-1]) if run.stdout.strip() else {}
    if device != "cuda":
        return f"exit {run.returncode}: {last.get('type')}", run.returncode == 0
    message = last.get("message", run.stderr[-200:])
    return (f"exit {run.returncode}, key {last.get('key')}: {message[:260]}",
            run.returncode == 2 and last.get("key") == "deterministic" and "has no deterministic kernel" in message)


def hostile_case(engine, device, hostile, row):
    model, data, code, key = row
    done = subprocess.run([engine, "run", "--workload", "torchscript", "--model-file", os.path.join(hostile, model), "--train-data",
                           os.path.join(hostile, data), "--batch-size", "16", "--threads", "1", "--device", device],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    parsed = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    error = parsed[-1] if parsed and parsed[-1].get("type") == "error" else {}
    stepped = any(e.get("type") == "step" for e in parsed)
    fine = done.returncode == code and error.get("key") == key and not stepped
    return fine, f"{model} on {data}: exit {done.returncode} ({error.get('key')}): {error.get('message', done.stderr[-160:])[:160]}"


def hostile_files(engine, device, hostile):
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda row: hostile_case(engine, device, hostile, row), HOSTILE_ROWS))
    wrong = [said for fine, said in results if not fine]
    said = f"{len(results) - len(wrong)} of {len(results)} refused with the CPU suite's exit code and key, no step, no crash"
    return said + ("; " + " | ".join(wrong) if wrong else ""), not wrong


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "build-gpu", "bin", "ddplab-engine"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--hostile", required=True, help="the folder make_own_model_case.py and make_hostile_model_case.py wrote")
    parser.add_argument("--only", default="", help="the rows whose name holds this text alone (a rerun of one row)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ddplab-gpu-second-light-") as folder:
        bn_config = exported_examples(folder)
        context = context_bytes() if args.device == "cuda" else 0
        checks = [
            (f"checkpoint at step 10, resumed to 20, on {args.device}", lambda: checkpoint_and_resume(args.engine, args.device, folder, bn_config)),
            (f"accumulate_as_ranks on {args.device}: 1 rank x 4 micro-batches vs 4 ranks over Gloo, BatchNorm CNN",
             lambda: accumulation_as_ranks(args.engine, args.device, bn_config)),
            (f"a steps batch schedule on {args.device}: 64, x2 after step 100, x2 after 200", lambda: growing_batch(args.engine, args.device)),
            (f"scripted resnet18, 128 per GPU, vs the Python DDP peer", lambda: resnet18_speed_and_memory(args.engine, args.device, folder, 128, context)),
            (f"scripted resnet18, 512 per GPU, vs the Python DDP peer", lambda: resnet18_speed_and_memory(args.engine, args.device, folder, 512, context)),
            (f"hostile own-model files with device {args.device}", lambda: hostile_files(args.engine, args.device, args.hostile)),
            (f"deterministic meets an operation without a deterministic kernel (resnet18 on {args.device})",
             lambda: deterministic_stop(args.engine, args.device, folder)),
        ]
        rows = run_checks([(name, check) for name, check in checks if args.only in name])
    return 0 if all(passed for *_, passed in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
