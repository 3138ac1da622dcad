#!/usr/bin/env python3
"""Fashion-MNIST throughput on CPU: the engine against the Python DDP peer
(bench/peers/fashion_ddp_peer.py) with the same model, batch per rank and threads per rank, at
1 and 2 ranks, in the same run. Both are timed over the same steady-state steps (the first
steps are untimed), as global images per second on rank 0's clock.

    python3 bench/fashion_bench.py [--repeats 3]

Writes its section of docs/benchmarks.md.
"""
import argparse
import os
import statistics
import sys

from bench_common import DEBIAN_PYTHON, ENGINE, ROOT, engine_events, machine_line, timed, write_section

WARMUP = 10
STEPS = {"mlp": 300, "cnn": 60}
BATCH = 64


def threads_for(ranks):
    return max(1, (os.cpu_count() or 1) // ranks)


def engine_rate(model, ranks):
    _, out = timed([ENGINE, "run", "--workload", "fashion_mnist", "--model", model, "--world-size", str(ranks),
                    "--batch-size", str(BATCH), "--lr", "0.05", "--momentum", "0.9", "--threads", str(threads_for(ranks)),
                    "--max-steps", str(WARMUP + STEPS[model])])
    steps = [e for e in engine_events(out) if e["type"] == "step"][WARMUP:]
    return sum(s["samples"] for s in steps) / (sum(s["step_ms"] for s in steps) / 1000.0)


def peer_rate(model, ranks):
    _, out = timed([DEBIAN_PYTHON, f"{ROOT}/bench/peers/fashion_ddp_peer.py", "--model", model, "--world_size", str(ranks),
                    "--batch_size", str(BATCH), "--threads", str(threads_for(ranks)), "--steps", str(STEPS[model]),
                    "--warmup_steps", str(WARMUP)])
    return engine_events(out)[-1]["images_per_sec"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for model in ("mlp", "cnn"):
        for ranks in (1, 2):
            # Alternate the two, so a machine that speeds up or slows down meanwhile (shared
            # cores, frequency changes) weighs on both alike.
            engine, peer = [], []
            for _ in range(args.repeats):
                engine.append(engine_rate(model, ranks))
                peer.append(peer_rate(model, ranks))
            e, p = statistics.median(engine), statistics.median(peer)
            rows.append((model, ranks, e, p))
            print(f"{model} {ranks} rank(s): engine {e:.0f} img/s, peer {p:.0f} img/s, ratio {e / p:.2f}", flush=True)

    lines = [
        "## Fashion-MNIST throughput on CPU: engine vs Python DDP",
        "",
        f"Machine: {machine_line()}. Command: `python3 bench/fashion_bench.py`.",
        f"Global images/sec on rank 0's clock over {STEPS['mlp']} (MLP) or {STEPS['cnn']} (CNN) steps after {WARMUP} untimed ones,",
        f"batch {BATCH} per rank, SGD with momentum, {os.cpu_count()} cores split evenly between the ranks (intra-op threads).",
        "Peer: `bench/peers/fashion_ddp_peer.py` (Debian's python3-torch: nn.DistributedDataParallel over Gloo,",
        "DistributedSampler + DataLoader), same models, same threads. Median of "
        f"{args.repeats} runs each, engine and peer alternating.",
        "",
        "| model | ranks | engine (img/s) | peer (img/s) | engine / peer | target (>= 1) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for model, ranks, e, p in rows:
        lines.append(f"| {model} | {ranks} | {e:.0f} | {p:.0f} | {e / p:.2f} | {'met' if e >= p else 'MISSED'} |")
    write_section("fashion", "\n".join(lines))
    print("\n".join(lines))
    return 0 if all(e >= p for _, _, e, p in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
