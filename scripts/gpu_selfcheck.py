#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The GPU self-check (docs/gpu-validation.md): on a machine with NVIDIA GPUs, runs the engine
on 1 GPU and on every GPU (NCCL), compares every step's loss with the same run on CPU over Gloo,
trains a scripted model of one's own (workload torchscript) on the GPUs, measures the
Fashion-MNIST CNN against the Python DDP peer on the same GPUs, and prints one table: each
check, its figure, PASS/FAIL, and the facts of the machine.

  scripts/gpu-selfcheck.sh            builds the engine against this machine's LibTorch, then this
  python3 scripts/gpu_selfcheck.py --engine PATH [--device cuda|cpu]

--device cpu runs every check on CPU against CPU: no GPU is needed, and it proves the script
itself (CI does not run it; it is how the script was tried on a machine without a GPU)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import gpu_throughput  # beside this file: the engine's and the peer's samples/s, measured alike

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE = 1e-5  # relative, per step: float32 reductions in another order
# A convolution on a GPU may compute in TF32 (10-bit mantissa) where the CPU uses float32.
CONV_TOLERANCE = 1e-3


def events(engine, arguments):
    done = subprocess.run([engine, "run"] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    parsed = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0:
        error = next((e.get("message") for e in parsed if e.get("type") == "error"), done.stderr.strip()[-300:])
        raise RuntimeError(f"exit {done.returncode}: {error}")
    return parsed


def losses(parsed):
    return [e["loss"] for e in parsed if e.get("type") == "step"]


def compare(engine, device, ranks, workload_args):
    backend = "nccl" if device == "cuda" else "gloo"
    there = losses(events(engine, workload_args + ["--device", device, "--backend", backend, "--world-size", str(ranks)]))
    cpu = losses(events(engine, workload_args + ["--device", "cpu", "--backend", "gloo", "--world-size", str(ranks)]))
    if len(there) != len(cpu) or not cpu:
        return f"{len(there)} steps against {len(cpu)} on CPU", False
    worst = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(there, cpu))
    return f"{len(cpu)} steps, largest relative difference {worst:.2e}", worst <= TOLERANCE


def own_model(engine, device, ranks):
    """The ResNet-style CNN with BatchNorm of examples/export_examples.py, as one's own model: module,
    buffers and batches on the rank's GPU. Its first step's loss (before any update) against CPU's,
    and whether 30 steps lower it."""
    with tempfile.TemporaryDirectory(prefix="ddplab-gpu-selfcheck-") as folder:
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "export_examples.py"), "--small", "--out", folder],
                       check=True, stdout=subprocess.DEVNULL)
        config = ["--config", os.path.join(folder, "fashion_resnet.json"), "--world-size", str(ranks), "--max-steps", "30",
                  "--epochs", "10"]
        backend = "nccl" if device == "cuda" else "gloo"
        there = losses(events(engine, config + ["--device", device, "--backend", backend]))
        cpu = losses(events(engine, config + ["--device", "cpu", "--backend", "gloo"]))
    first = abs(there[0] - cpu[0]) / max(abs(cpu[0]), 1e-12)
    early, late = sum(there[:5]) / 5, sum(there[-5:]) / 5
    return (f"first step {there[0]:.5f} vs CPU {cpu[0]:.5f} (relative {first:.1e}); loss {early:.3f} -> {late:.3f} in 30 steps",
            first <= CONV_TOLERANCE and late < early)


def throughput(engine, device, ranks):
    # Like with like: both sides leave out the same warm-up steps (the first one pays for the
    # CUDA context, cuBLAS/cuDNN handles and NCCL's first launch) and time the same steps after.
    engine_rate = gpu_throughput.engine_rate(engine, device, 256, ["--workload", "fashion_mnist", "--model", "cnn"], ranks, 10, 200)
    if not isinstance(engine_rate, float):
        raise RuntimeError(engine_rate)
    peer_rate = gpu_throughput.peer_rate(device, 256, ranks, 10, 200)
    if not isinstance(peer_rate, float):
        return f"engine {engine_rate:.0f} samples/s; the peer {peer_rate}", False
    return f"engine {engine_rate:.0f} samples/s, peer {peer_rate:.0f} ({engine_rate / peer_rate:.2f}x)", engine_rate >= 0.8 * peer_rate


def stalled_rank(engine, device, ranks, backend):
    """A rank stuck at step 3 (--fail-at R:3:hang) must end the whole run within seconds, the stuck
    rank named: with one rank the launcher's watchdog stops it, with two its peer's collective
    times out. Exit 4 and the rank in the error, within collective_timeout and a generous margin."""
    stuck, timeout = ranks - 1, 5
    started = time.monotonic()
    done = subprocess.run([engine, "run", "--workload", "linreg", "--epochs", "1000", "--batch-size", "16",
                           "--device", device, "--backend", backend, "--world-size", str(ranks),
                           "--collective-timeout", str(timeout), "--fail-at", f"{stuck}:3:hang"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    took = time.monotonic() - started
    error = next((json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"type":"error"')), {})
    message = error.get("message", done.stderr.strip()[-200:])
    passed = done.returncode == 4 and error.get("rank") == stuck and took < timeout + 30
    return f"exit {done.returncode} after {took:.1f} s, rank {error.get('rank')} named: {message[:160]}", passed


def facts(engine, device):
    lines = []
    devices = json.loads(subprocess.run([engine, "devices"], stdout=subprocess.PIPE, text=True, check=True).stdout)
    lines.append(f"engine {devices.get('engine_version')}, protocol {devices.get('protocol')}, LibTorch {devices.get('torch_version')}, "
                 f"NCCL built {devices.get('nccl_built')} (version {devices.get('nccl_version')})")
    for gpu in devices.get("cuda_devices", []):
        lines.append(f"GPU {gpu.get('index')}: {gpu.get('name')}, {gpu.get('memory_mib', 0) / 1024:.0f} GiB, compute capability {gpu.get('compute_capability')}")
    if device == "cuda" and shutil.which("nvidia-smi"):
        smi = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], stdout=subprocess.PIPE, text=True)
        lines.append(f"driver {smi.stdout.strip().splitlines()[0] if smi.stdout.strip() else 'unknown'}")
    return devices, lines


def run_checks(checks):
    """Each (name, check) in turn, its row printed as it ends (with its seconds), then the table;
    returns the rows (name, figure, passed). A check that raises is a FAIL row, not the end."""
    rows = []
    for name, check in checks:
        started = time.monotonic()
        try:
            figure, passed = check()
        except Exception as failure:
            figure, passed = f"failed: {type(failure).__name__}: {failure}", False
        rows.append((name, figure, passed))
        print(f"{'PASS' if passed else 'FAIL'}  {name} ({time.monotonic() - started:.0f} s): {figure}", flush=True)
    print("\n| check | figure | result |\n|---|---|---|")
    for name, figure, passed in rows:
        print(f"| {name} | {figure} | {'PASS' if passed else 'FAIL'} |")
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "build-gpu", "bin", "ddplab-engine"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    args = parser.parse_args()
    if not os.access(args.engine, os.X_OK):
        print(f"gpu-selfcheck: no engine at {args.engine} (scripts/gpu-selfcheck.sh builds it)", file=sys.stderr)
        return 2
    devices, machine = facts(args.engine, args.device)
    gpus = devices.get("cuda_device_count", 0)
    if args.device == "cuda" and gpus < 1:
        print("gpu-selfcheck: this machine has no CUDA GPU the engine can use (cuda_device_count is 0, "
              f"LibTorch CUDA: {devices.get('torch_cuda')}); run it on a machine with NVIDIA GPUs and PyTorch with CUDA",
              file=sys.stderr)
        return 2
    every = gpus if args.device == "cuda" else 2
    linreg = ["--workload", "linreg", "--epochs", "3", "--batch-size", "16"]
    toy = ["--workload", "toy", "--experiments", "1000", "--noise", "1", "--batch-size", "16", "--num-examples", "256"]
    checks = [
        (f"seed 004 linreg, 1 {args.device} rank vs CPU", lambda: compare(args.engine, args.device, 1, linreg)),
        (f"seed 004 linreg, {every} {args.device} ranks vs CPU", lambda: compare(args.engine, args.device, every, linreg)),
        (f"seed 000 toy, 1 {args.device} rank vs CPU", lambda: compare(args.engine, args.device, 1, toy)),
        (f"seed 000 toy, {every} {args.device} ranks vs CPU", lambda: compare(args.engine, args.device, every, toy)),
        (f"your own model (scripted CNN with BatchNorm), {every} {args.device} ranks vs CPU",
         lambda: own_model(args.engine, args.device, every)),
        (f"Fashion-MNIST CNN throughput, {every} ranks, vs the Python DDP peer", lambda: throughput(args.engine, args.device, every)),
        (f"a stuck rank, 1 {args.device} rank ({'nccl' if args.device == 'cuda' else 'gloo'}), stops the run",
         lambda: stalled_rank(args.engine, args.device, 1, "nccl" if args.device == "cuda" else "gloo")),
        (f"a stalled peer, 2 ranks sharing {args.device} 0 over Gloo, times the run out",
         lambda: stalled_rank(args.engine, args.device, 2, "gloo")),
    ]
    rows = run_checks(checks)
    print("\n" + "\n".join(f"- {line}" for line in machine))
    return 0 if all(passed for *_, passed in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
