#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A 32-run study of the toy problem (4 ranks, 1000 experiments, 2 epochs; 8 learning rates x
4 seeds), three ways, in one benchmark run:
  study    `ddplab --study FILE --quit`: one `ddplab-engine runs` process loads LibTorch once and
           forks each run from it (what the window and headless lab do);
  process  the same 32 configs, each as its own `ddplab-engine run` process (the lab before studies);
  peer     the Python DDP peer (bench/peers/toy_ddp_peer.py, torchrun-style Gloo processes) for one
           of the runs, times 32: running all 32 takes half an hour on this machine.
Writes the section bench:study of docs/benchmarks.md."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

from bench_common import DEBIAN_PYTHON, ENGINE, ROOT, machine_line, timed, write_section

LAB = os.path.join(os.path.dirname(ENGINE), "ddplab")
STUDY = {
    "id": "bench-32", "title": "32 toy runs",
    "base": {"workload": "toy", "num_examples": 256, "experiments": 1000, "world_size": 4, "batch_size": 16,
             "epochs": 2, "noise": 1.0},
    "axes": [{"key": "lr", "from": 0.0001, "to": 0.0128, "factor": 2}],
    "repeats": 4,
}
GOAL_SECONDS, GOAL_SPEEDUP = 8.0, 3.0


def main():
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
        study_file = os.path.join(home, "study.json")
        with open(study_file, "w") as out:
            json.dump(STUDY, out)
        study_wall, _ = timed([LAB, "--study", study_file, "--quit"], env=env)
        plan_file = glob.glob(os.path.join(home, "ddplab", "ddplab", "studies", "*", "plan.json"))[0]
        configs = [point["config"] for point in json.load(open(plan_file))]
        assert len(configs) == 32, len(configs)
        print(f"study: {study_wall:.2f} s", flush=True)

        start = time.perf_counter()
        for index, config in enumerate(configs):
            path = os.path.join(home, f"run-{index}.json")
            with open(path, "w") as out:
                json.dump(config, out)
            subprocess.run([ENGINE, "run", "--config", path], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        process_wall = time.perf_counter() - start
        print(f"process per run: {process_wall:.2f} s", flush=True)

        peer_one, _ = timed([DEBIAN_PYTHON, os.path.join(ROOT, "bench", "peers", "toy_ddp_peer.py"), "--world_size", "4",
                             "--batch_size", "16", "--n_experiments", "1000", "--num_examples", "256", "--epochs", "2",
                             "--lr", "0.001"])
        print(f"peer, one run: {peer_one:.1f} s", flush=True)

    speedup = process_wall / study_wall
    met = study_wall <= GOAL_SECONDS and speedup >= GOAL_SPEEDUP
    lines = [
        "## Studies: 32 toy runs in one engine process",
        "",
        f"Machine: {machine_line()}. Command: `python3 bench/study_bench.py`.",
        "The toy problem on 4 Gloo ranks, 1000 experiments vectorised, 2 epochs of 256 examples, 8 learning rates x 4 seeds.",
        "Wall clock of the whole study, start-up included.",
        "",
        "| how | 32 runs (s) | per run (s) |",
        "|---|---:|---:|",
        f"| `ddplab --study` (one `ddplab-engine runs`, a fork per run) | {study_wall:.2f} | {study_wall / 32:.2f} |",
        f"| a `ddplab-engine run` process per run | {process_wall:.2f} | {process_wall / 32:.2f} |",
        f"| Python DDP peer, one run measured, x 32 | {peer_one * 32:.0f} | {peer_one:.1f} |",
        "",
        f"Speed-up of the study over a process per run: {speedup:.1f}x; goal <= {GOAL_SECONDS:.0f} s and >= {GOAL_SPEEDUP:.0f}x: "
        + ("met." if met else "MISSED."),
        "The peer loops over the 1000 experiments as the seed's sandbox does, so most of its time is that loop, not start-up.",
    ]
    write_section("study", "\n".join(lines))
    print("\n".join(lines))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
