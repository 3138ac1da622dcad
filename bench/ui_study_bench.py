#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window during a study: runs build/bin/ddplab-ui-study-bench (offscreen, a fresh data
folder) and writes its table into docs/benchmarks.md, section "ui-study".

    python3 bench/ui_study_bench.py [STUDY ...]     (default: seed000-variance-curve)
"""
import os
import subprocess
import sys
import tempfile

from bench_common import ROOT, machine_line, write_section

BENCH = os.path.join(ROOT, "build", "bin", "ddplab-ui-study-bench")


def main():
    studies = sys.argv[1:] or ["seed000-variance-curve"]
    if not os.access(BENCH, os.X_OK):
        sys.exit(f"{BENCH} is missing: build with -DDDPLAB_BUILD_UI=ON -DDDPLAB_BUILD_BENCH=ON")
    rows = []
    for study in studies:
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=home, XDG_CONFIG_HOME=home)
            done = subprocess.run([BENCH, study], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            if done.returncode != 0:
                sys.exit(f"{study}: exit {done.returncode}: {done.stdout}{done.stderr[-2000:]}")
            rows.append(done.stdout.strip().splitlines()[-1])
            print(rows[-1], flush=True)
    lines = [
        "## Desktop lab: the window during a study",
        "",
        f"Machine: {machine_line()}. Command: `python3 bench/ui_study_bench.py`.",
        "The window (1600 x 1000, offscreen) runs a built-in study from its Study page while a 5 ms timer",
        "measures how late the event loop comes back: every gap between ticks, in milliseconds. The",
        "study's charts are rebuilt from the stored runs as each run ends. Goal: no gap over 100 ms.",
        "",
        "| study | runs | wall (s) | median gap (ms) | 99th percentile (ms) | worst (ms) | gaps > 100 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ] + rows
    write_section("ui-study", "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
