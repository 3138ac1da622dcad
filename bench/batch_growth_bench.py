#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a batch that grows costs at the moment it grows (issue 32): a 2-rank Fashion-MNIST MLP run
(6,144 images, 2 epochs, 16 a rank) whose batch doubles in the middle of epoch 0
(batch_schedule steps: after step 48, x 2, carried as a rank's batch of 32, max_batch_per_rank 32),
against the same run at a constant batch. The gap between the wall clocks of consecutive steps
(the step events' wall_s) holds the step and everything between it and the next: the growth's
replanning of the epoch happens there. The growth costs the gap across it minus the median gap of
the steps at the new batch after it. REPEATS runs, alternating; medians. Writes the section
bench:batch-growth of docs/benchmarks.md."""
import argparse
import statistics

from bench_common import ENGINE, engine_events, machine_line, positive_int, timed, write_section

BASE = ["run", "--workload", "fashion_mnist", "--model", "mlp", "--train-subset", "6144", "--epochs", "2",
        "--world-size", "2", "--batch-size", "16", "--lr", "0.05", "--eval-every", "0"]
GROW = ["--batch-schedule", "steps", "--batch-schedule-steps", "48", "--batch-schedule-factors", "2",
        "--max-batch-per-rank", "32"]


def gaps(events):
    steps = [e for e in events if e["type"] == "step"]
    return [(b["step"], b["wall_s"] - a["wall_s"], b["step_ms"] / 1000.0) for a, b in zip(steps, steps[1:])]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=positive_int, default=3)
    args = parser.parse_args()
    costs, step_at_new, across, constant_walls, grown_walls, grown_steps = [], [], [], [], [], []
    for _ in range(args.repeats):
        wall, stdout = timed([ENGINE] + BASE + GROW)
        events = engine_events(stdout)
        changed = next(e for e in events if e["type"] == "batch_changed")["step"]
        by_step = {step: gap for step, gap, _ in gaps(events)}
        after = [gap for step, gap, _ in gaps(events) if changed + 1 < step <= changed + 40]
        typical = statistics.median(after)
        across.append(by_step[changed + 1])
        step_at_new.append(typical)
        costs.append(by_step[changed + 1] - typical)
        grown_walls.append(wall)
        grown_steps.append(next(e for e in events if e["type"] == "summary")["steps"])
        wall, _ = timed([ENGINE] + BASE)
        constant_walls.append(wall)
    cost, typical = statistics.median(costs), statistics.median(step_at_new)
    lines = ["## A batch that grows: what the growth itself costs", "",
             f"{machine_line()}; a 2-rank Fashion-MNIST MLP run, 6,144 images, 2 epochs, 16 a rank, its batch doubled "
             f"after step 48 (a rank's batch 16 → 32); medians of {args.repeats} runs "
             "(`python3 bench/batch_growth_bench.py`).", "",
             "| | seconds |", "|---|---|",
             f"| the step across the growth (wall clock, step to step) | {statistics.median(across):.4f} |",
             f"| a step at the new batch after it (median of the next 40) | {typical:.4f} |",
             f"| **the growth's own cost** (the difference) | **{cost:.4f}** ({cost / typical:.2f} of a step) |",
             f"| the whole run, growing ({statistics.median(grown_steps):.0f} steps) | {statistics.median(grown_walls):.2f} |",
             f"| the whole run, constant batch | {statistics.median(constant_walls):.2f} |", "",
             "The issue asks that growing cost no more than one step's time: replanning the rest of the epoch from "
             "the sampler's position is arithmetic on index lists, done on every rank between two steps. Wall times "
             "include start-up and reading Fashion-MNIST and vary with whatever else the machine runs."]
    write_section("batch-growth", "\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
