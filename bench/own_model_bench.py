#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Workload torchscript on CPU: the scripted ResNet-style CNN of examples/export_examples.py on
Fashion-MNIST, timed two ways.

1. The engine against the Python DDP peer (bench/peers/torchscript_ddp_peer.py: the same
   TorchScript file in nn.DistributedDataParallel over Gloo, the same data and sampler), same
   batch per rank and threads per rank, at 1 and 2 ranks: global samples per second over the
   same steady-state steps, engine and peer alternating, the verdict the median of the paired
   ratios (as bench/fashion_bench.py).
2. The lab's own overhead: the engine's median step time at 1 rank against a plain
   single-process LibTorch loop on the same module (build/bin/ddplab-script-loop-bench:
   gather a batch, forward, cross entropy, backward, SGD step), same threads.

    python3 bench/own_model_bench.py [--repeats 5]

Exports the example into a temporary folder first. Writes its section of docs/benchmarks.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench_common import DEBIAN_PYTHON, ENGINE, ROOT, engine_events, machine_line, positive_int, timed, write_section

WARMUP = 10
STEPS = 60
BATCH = 64
LOOP_BENCH = os.path.join(os.path.dirname(ENGINE), "ddplab-script-loop-bench")


def threads_for(ranks):
    return max(1, (os.cpu_count() or 1) // ranks)


def write_config(folder, ranks):
    config = {"workload": "torchscript", "model_file": os.path.join(folder, "fashion_resnet.pt"),
              "train_data": os.path.join(folder, "fashion-train.pt"), "loss": "cross_entropy", "world_size": ranks,
              "batch_size": BATCH, "optimizer": "sgd", "lr": 0.05, "momentum": 0.9, "threads": threads_for(ranks),
              "max_steps": WARMUP + STEPS}
    path = os.path.join(folder, f"bench-{ranks}.json")
    with open(path, "w") as f:
        json.dump(config, f)
    return path


def engine_steps(config):
    _, out = timed([ENGINE, "run", "--config", config])
    return [e for e in engine_events(out) if e["type"] == "step"][WARMUP:]


def engine_rate(config):
    steps = engine_steps(config)
    return sum(s["samples"] for s in steps) / (sum(s["step_ms"] for s in steps) / 1000.0)


def peer_rate(config):
    _, out = timed([DEBIAN_PYTHON, f"{ROOT}/bench/peers/torchscript_ddp_peer.py", "--config", config,
                    "--timed", str(STEPS), "--warmup", str(WARMUP)])
    return engine_events(out)[-1]["samples_per_sec"]


def loop_step_ms(folder):
    _, out = timed([LOOP_BENCH, os.path.join(folder, "fashion_resnet.pt"), os.path.join(folder, "fashion-train.pt"),
                    "--batch", str(BATCH), "--steps", str(STEPS), "--warmup", str(WARMUP), "--threads", str(threads_for(1)),
                    "--lr", "0.05", "--momentum", "0.9"])
    return json.loads(out.strip().splitlines()[-1])["median_step_ms"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=positive_int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ddplab-own-model-bench-") as folder:
        subprocess.run([DEBIAN_PYTHON, f"{ROOT}/examples/export_examples.py", "--out", folder], check=True,
                       stdout=subprocess.DEVNULL)
        rows = []
        for ranks in (1, 2):
            config = write_config(folder, ranks)
            engine, peer = [], []
            for _ in range(args.repeats):
                engine.append(engine_rate(config))
                peer.append(peer_rate(config))
            ratio = statistics.median(e / p for e, p in zip(engine, peer))
            rows.append((ranks, statistics.median(engine), statistics.median(peer), max(engine), max(peer), ratio))
            print(f"{ranks} rank(s): engine {[round(e) for e in engine]}, peer {[round(p) for p in peer]}, "
                  f"paired ratio {ratio:.3f}", flush=True)

        config = write_config(folder, 1)
        engine_ms, loop_ms = [], []
        for _ in range(args.repeats):
            engine_ms.append(statistics.median(s["step_ms"] for s in engine_steps(config)))
            loop_ms.append(loop_step_ms(folder))
        overhead = statistics.median(e / l for e, l in zip(engine_ms, loop_ms)) - 1.0
        print(f"1 rank step ms: engine {[round(e, 2) for e in engine_ms]}, plain loop {[round(l, 2) for l in loop_ms]}, "
              f"paired overhead {overhead * 100:+.1f} %", flush=True)

    lines = [
        "## Your own model: a scripted ResNet-style CNN, engine vs Python DDP vs a plain LibTorch loop",
        "",
        f"Machine: {machine_line()}. Command: `python3 bench/own_model_bench.py --repeats {args.repeats}`.",
        "Model and data: `fashion_resnet` of `examples/export_examples.py` (77,754 parameters, 9 BatchNorms,",
        "uint8 Fashion-MNIST images scaled inside forward), workload `torchscript`, loss `cross_entropy`,",
        f"batch {BATCH} per rank, SGD with momentum, {os.cpu_count()} cores split evenly between the ranks (intra-op threads).",
        f"{STEPS} timed steps after {WARMUP} untimed ones; {args.repeats} runs each, alternating, the verdict the median of",
        "the paired ratios (this shared machine's speed drifts by tens of percent over seconds).",
        "",
        "**Against the Python DDP peer** (`bench/peers/torchscript_ddp_peer.py`: the same TorchScript file in",
        "`nn.DistributedDataParallel` over Gloo, the same data, sampler and threads), global samples/sec on rank 0's",
        "clock (engine: the sum of its `step_ms`; peer: wall clock of its training loop):",
        "",
        "| ranks | engine median | peer median | engine best | peer best | median paired ratio | target (>= 1) |",
        "|---:|---:|---:|---:|---:|---:|---|",
    ]
    for ranks, e, p, e_best, p_best, ratio in rows:
        lines.append(f"| {ranks} | {e:.0f} | {p:.0f} | {e_best:.0f} | {p_best:.0f} | {ratio:.3f} | {'met' if ratio >= 1 else 'MISSED'} |")
    lines += [
        "",
        "**The lab's own overhead** at 1 rank: the engine's median `step_ms` against a plain single-process",
        "LibTorch loop on the same module (`bench/script_loop_bench.cpp`: gather a batch, forward, cross entropy,",
        "zero the gradients, backward, SGD step; nothing else):",
        "",
        "| engine median step (ms) | plain loop median step (ms) | median paired overhead | target (within 5 %) |",
        "|---:|---:|---:|---|",
        f"| {statistics.median(engine_ms):.2f} | {statistics.median(loop_ms):.2f} | {overhead * 100:+.1f} % | "
        f"{'met' if overhead <= 0.05 else 'MISSED'} |",
    ]
    write_section("own-model", "\n".join(lines))
    print("\n".join(lines))
    return 0 if all(row[-1] >= 1 for row in rows) and overhead <= 0.05 else 1


if __name__ == "__main__":
    sys.exit(main())
