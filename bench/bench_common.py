# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared by the benchmark drivers: timing commands, and writing results into
docs/benchmarks.md between markers so each benchmark owns one section."""
import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINE = os.environ.get("DDPLAB_ENGINE", os.path.join(ROOT, "build", "bin", "ddplab-engine"))
DEBIAN_PYTHON = "/usr/bin/python3"  # the interpreter that has Debian's python3-torch
BENCHMARKS_MD = os.path.join(ROOT, "docs", "benchmarks.md")


def positive_int(text):
    """argparse type: a whole number of at least 1, or a clear error naming what was given."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {value}")
    return value


def timed(command, env=None):
    """Runs a command; returns (wall seconds including start-up, stdout)."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr[-2000:]}")
    return wall, done.stdout


def engine_events(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def machine_line():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}, {datetime.date.today().isoformat()}"


def write_section(name, markdown, path=BENCHMARKS_MD):
    """Replaces the section <!-- bench:name --> ... <!-- /bench:name --> of `path` (or appends it)."""
    begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = f"{begin}\n{markdown.rstrip()}\n{end}"
    text = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip() + "\n\n" + block + "\n"
    with open(path, "w") as out:
        out.write(text)
