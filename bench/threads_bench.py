#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A 1-rank Fashion-MNIST MLP run (6,000 images, 2 epochs, batch 64) beside one busy process (a
shell loop on one core), three ways in the same benchmark run: the default threads (a share of the
free cores, docs/metrics.md), --threads 1 and --threads 2. Each is run REPEATS times, alternating;
the medians of its training seconds (the summary's train_s: the steps alone) and of its wall time
(start-up and data included) are reported. Writes the section bench:threads of docs/benchmarks.md."""
import argparse
import statistics
import subprocess

from bench_common import ENGINE, engine_events, machine_line, positive_int, timed, write_section


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=positive_int, default=3)
    args = parser.parse_args()
    busy = subprocess.Popen(["/bin/sh", "-c", "while :; do :; done"])
    results = {setting: {"train": [], "wall": [], "threads": None} for setting in ("0", "1", "2")}
    try:
        for _ in range(args.repeats):
            for setting in results:
                wall, stdout = timed([ENGINE, "run", "--workload", "fashion_mnist", "--model", "mlp", "--train-subset", "6000",
                                      "--epochs", "2", "--batch-size", "64", "--threads", setting])
                events = engine_events(stdout)
                config = next(e for e in events if e["type"] == "config")
                summary = next(e for e in events if e["type"] == "summary")
                results[setting]["train"].append(summary["train_s"])
                results[setting]["wall"].append(wall)
                results[setting]["threads"] = config["threads_per_rank"]
    finally:
        busy.kill()
    median = {s: (statistics.median(r["train"]), statistics.median(r["wall"])) for s, r in results.items()}
    best = min(median["1"][0], median["2"][0])
    lines = ["## Threads beside a busy process: a 1-rank Fashion-MNIST MLP run", "",
             f"{machine_line()}; one busy shell loop beside the run; medians of {args.repeats} runs each "
             "(`python3 bench/threads_bench.py`).", "",
             "| threads | threads per rank | training s (train_s) | wall s | training time / best of 1 and 2 |",
             "|---|---|---|---|---|"]
    for setting, name in (("0", "default (free cores)"), ("1", "--threads 1"), ("2", "--threads 2")):
        train, wall = median[setting]
        lines.append(f"| {name} | {results[setting]['threads']} | {train:.3f} | {wall:.2f} | {train / best:.2f}× |")
    lines += ["", "The default must stay within 1.3× of the better fixed setting: it takes the free core and leaves the "
              "busy one, where two threads spin against the busy process. Wall times include start-up and reading "
              "Fashion-MNIST (about a second) and vary with whatever else the machine runs."]
    write_section("threads", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
