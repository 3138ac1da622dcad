#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Samples per second on one device, by per-GPU batch (docs/gpu-validation.md, docs/benchmarks.md):
the engine's Fashion-MNIST CNN beside the Python DDP peer's, and the engine on the examples'
`fashion_resnet` (examples/export_examples.py, exported here with this machine's PyTorch).

  python3 scripts/gpu_throughput.py --engine build-gpu/bin/ddplab-engine [--device cuda|cpu]

Both sides leave out the same warm-up steps (the first pays for the CUDA context and the
cuBLAS/cuDNN handles) and time the same steps after them, within one epoch, so no evaluation
falls inside the timed steps. Prints a Markdown table."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARMUP, TIMED = 10, 100


def engine_rate(engine, device, batch, workload_args, ranks=1, warmup=WARMUP, timed=TIMED):
    """The engine's samples/s over `timed` steps after `warmup` (by its steps' wall clock); a
    sentence instead when it did not run."""
    if not os.access(engine, os.X_OK):
        return "no engine"
    done = subprocess.run([engine, "run", "--device", device, "--world-size", str(ranks), "--batch-size", str(batch),
                           "--max-steps", str(warmup + timed)] + workload_args,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    steps = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"type":"step"')]
    if done.returncode != 0 or len(steps) < warmup + 2:
        return f"failed (exit {done.returncode}): {done.stderr.strip()[-200:]}"
    before, after = steps[warmup - 1], steps[warmup:]
    return sum(e["samples"] for e in after) / (after[-1]["wall_s"] - before["wall_s"])


def peer_run(device, batch, ranks=1, warmup=WARMUP, timed=TIMED, model="cnn"):
    """The Python DDP peer's figures on the same model, the same steps timed (samples/s as
    images_per_sec, and on a GPU peak_allocated_bytes); a sentence when it failed."""
    done = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "peers", "fashion_ddp_peer.py"), "--model", model,
                           "--device", device, "--world_size", str(ranks), "--batch_size", str(batch), "--steps", str(timed),
                           "--warmup_steps", str(warmup)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    if done.returncode != 0:
        return f"failed: {done.stderr.strip()[-200:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def peer_rate(device, batch, ranks=1, warmup=WARMUP, timed=TIMED, model="cnn"):
    """The Python DDP peer's samples/s; a sentence when it failed."""
    run = peer_run(device, batch, ranks, warmup, timed, model)
    return run["images_per_sec"] if isinstance(run, dict) else run


def shown(rate):
    return f"{rate:,.0f}" if isinstance(rate, float) else rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=os.path.join(ROOT, "build-gpu", "bin", "ddplab-engine"))
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--batches", default="32,128,512")
    args = parser.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    with tempfile.TemporaryDirectory(prefix="ddplab-gpu-throughput-") as folder:
        # Exported first: the engine's model and data are those a user of this machine would make.
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "export_examples.py"), "--out", folder],
                       check=True, stdout=subprocess.DEVNULL)
        resnet = ["--config", os.path.join(folder, "fashion_resnet.json"), "--epochs", "100"]
        print(f"| per-GPU batch | engine, Fashion CNN | Python DDP peer, Fashion CNN | engine / peer | engine, fashion_resnet |")
        print("|---|---|---|---|---|")
        for batch in batches:
            cnn = engine_rate(args.engine, args.device, batch, ["--workload", "fashion_mnist", "--model", "cnn"])
            peer = peer_rate(args.device, batch)
            own = engine_rate(args.engine, args.device, batch, resnet)
            ratio = f"{cnn / peer:.2f}x" if isinstance(cnn, float) and isinstance(peer, float) else "-"
            print(f"| {batch} | {shown(cnn)} | {shown(peer)} | {ratio} | {shown(own)} |", flush=True)
    print(f"\nsamples/s on 1 {args.device} rank, {TIMED} steps timed after {WARMUP} warm-up steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
