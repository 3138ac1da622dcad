#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs every lesson and every built-in study headless, as a teacher would, and writes what the lab
estimated before each (its first line, "..., about N s") against what it took (its last line,
"took X s (estimated Y s, Rx)") into docs/lessons.md, section "How long lessons and studies take".

    python3 scripts/lessons-timing.py run [--only ID ...] [--budget SECONDS] [--data DIR]
    python3 scripts/lessons-timing.py table [--note TEXT] [--keep [--kept-load TEXT]]

`--lab` times a copy of the programs (the build may change meanwhile). `run` goes on where the last call stopped (the results are kept in DIR/timings.json) and stops
starting new work once --budget seconds have gone, so that it can run in chunks under
/work/tools/heavy (at most ~10 minutes a call). A study longer than a chunk is run with a time
limit and carried on with `ddplab --resume`: its actual time is the sum of its chunks. Every run
keeps its data in DIR (default: build/lessons-timing), so the lab's estimate is calibrated by the
runs before it, as on a teacher's machine. `table` writes the section from what has been run (the
1-minute load average as each chunk began and ended in its load column); with --keep, the rows of
items DATA has not run stay as docs/lessons.md has them.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAB = os.path.join(ROOT, "build", "bin", "ddplab")
START = "<!-- timing -->"
END = "<!-- /timing -->"
FIRST = re.compile(r"about (\d+(?:\.\d+)?) (s|min|h)\s*$")
TOOK = re.compile(r"took (\d+(?:\.\d+)?) s \(estimated (\d+(?:\.\d+)?) s")


def ids(folder):
    return [json.load(open(p))["id"] for p in sorted(glob.glob(os.path.join(ROOT, "resources", folder, "*.json")))]


def environment(data):
    return dict(os.environ, XDG_DATA_HOME=os.path.join(data, "data"), XDG_CONFIG_HOME=os.path.join(data, "config"),
                QT_QPA_PLATFORM="offscreen")


def run_once(command, env, limit):
    """Runs the lab; returns (its output, seconds, exit code; None when stopped by the limit)."""
    start = time.monotonic()
    try:
        done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=limit)
        return done.stdout, time.monotonic() - start, done.returncode
    except subprocess.TimeoutExpired as stopped:
        # SIGKILL of the lab ends its engine too (PR_SET_PDEATHSIG); the study resumes from its files.
        output = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else (stopped.stdout or "")
        return output, time.monotonic() - start, None


def first_estimate(output):
    for line in output.splitlines():
        match = FIRST.search(line)
        if line.startswith("DDP Lab") and match:
            value, unit = float(match.group(1)), match.group(2)
            return value * {"s": 1, "min": 60, "h": 3600}[unit]
    return None


def study_folder(output):
    match = re.search(r"stored in (\S+?),? about", output)
    return match.group(1) if match else None


def run(args):
    path = os.path.join(args.data, "timings.json")
    os.makedirs(args.data, exist_ok=True)
    results = json.load(open(path)) if os.path.exists(path) else {}
    env = environment(args.data)
    began = time.monotonic()
    work = [("lesson", i) for i in ids("lessons")] + [("study", i) for i in ids("studies")]
    for kind, item in work:
        if args.only and item not in args.only:
            continue
        done = results.get(item, {})
        if done.get("finished"):
            continue
        left = args.budget - (time.monotonic() - began)
        if left < 30:
            print(f"budget spent; call again to go on with {item}", flush=True)
            break
        if kind == "lesson":
            command = [args.lab, "--preset", item, "--run", "--quit"]
        elif done.get("folder"):
            command = [args.lab, "--resume", done["folder"], "--quit", "--yes"]
        else:
            command = [args.lab, "--study", item, "--quit", "--yes"]
        print(f"{kind} {item} ({' '.join(command[1:])}) ...", flush=True)
        load_before = os.getloadavg()[0]
        output, seconds, code = run_once(command, env, left)
        if code:
            # A run that failed measured nothing: it is not stored, and the next call tries it
            # anew. (A --lab copied without its ddplab-headless beside it ended every study with
            # exit code 2 in 0.06 s, and was recorded as a finished study of 0.06 s.)
            tail = "\n".join(output.splitlines()[-5:])
            print(f"{kind} {item} failed with exit code {code}, so it is no timing; stopped here:\n{tail}", file=sys.stderr)
            return 1
        entry = dict(done, kind=kind)
        # The machine's load (1-minute average) as each chunk began and ended: the table states it.
        entry["loads"] = entry.get("loads", []) + [round(load_before, 1), round(os.getloadavg()[0], 1)]
        if "estimate" not in entry:
            entry["estimate"] = first_estimate(output)
            entry["folder"] = study_folder(output) if kind == "study" else None
        entry["seconds"] = entry.get("seconds", 0.0) + seconds
        entry["chunks"] = entry.get("chunks", 0) + 1
        took = TOOK.search(output)
        if code is not None and took:
            entry["finished"] = True
            entry["exit_code"] = code
            if entry["chunks"] == 1:
                entry["estimate_precise"] = float(took.group(2))
                entry["took"] = float(took.group(1))
            else:
                entry["took"] = entry.get("took_before", 0.0) + float(took.group(1))
        elif code is None and took is None:
            # Stopped by the chunk's end: what it ran so far counts; --resume goes on.
            entry["took_before"] = entry.get("took_before", 0.0) + seconds
        else:
            entry["finished"] = True
            entry["exit_code"] = code
            entry["took"] = entry.get("took_before", 0.0) + seconds
        results[item] = entry
        json.dump(results, open(path, "w"), indent=1)
        print(f"  {entry}", flush=True)


def kept_rows(text, load):
    """The table's rows as docs/lessons.md has them, by id, with a load column (--kept-load where
    the row had none): what a --keep table leaves of items DATA has not measured."""
    rows = {}
    if START not in text:
        return rows
    for line in text[text.index(START):text.index(END)].splitlines():
        match = re.match(r"\| (lesson|study) \| `([^`]+)` \|", line)
        if not match or "not measured" in line:
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5:
            cells.append(load)
        rows[match.group(2)] = "| " + " | ".join(cells) + " |"
    return rows


def table(args):
    path = os.path.join(args.data, "timings.json")
    results = json.load(open(path))
    target = os.path.join(ROOT, "docs", "lessons.md")
    kept = kept_rows(open(target).read(), args.kept_load) if args.keep else {}
    rows = []
    for kind, folder in (("lesson", "lessons"), ("study", "studies")):
        for item in ids(folder):
            entry = results.get(item)
            if not entry or not entry.get("finished"):
                rows.append(kept.get(item, f"| {kind} | `{item}` | not measured | | | |"))
                continue
            estimate = entry.get("estimate_precise") or entry.get("estimate")
            took = entry["took"]
            ratio = took / estimate if estimate else float("nan")
            chunks = f" ({entry['chunks']} chunks, resumed)" if entry.get("chunks", 1) > 1 else ""
            loads = entry.get("loads", [])
            load = f"{min(loads):.1f}-{max(loads):.1f}" if loads else ""
            rows.append(f"| {kind} | `{item}` | {estimate:.1f} s | {took:.1f} s{chunks} | {ratio:.2f} | {load} |")
    section = "\n".join([
        START,
        "## How long lessons and studies take",
        "",
        "<!-- generated by scripts/lessons-timing.py; do not edit by hand -->",
        "",
        "Every lesson and built-in study run headless on this project's 2-core development machine, one",
        "after the other, each in the same data folder, so that the estimate on each first line was",
        "calibrated by the runs before it (`MachineSpeed`, docs/studies.md); the paragraph below says when,",
        "with which programs and beside what. *Estimated*: the lab's estimate before it",
        "started; *took*: from the session's start to the end of its exports (the last line of",
        "`ddplab --preset ID --run --quit` and `ddplab --study ID --quit`); *ratio*: took / estimated.",
        "",
    ] + ([args.note, ""] if args.note else []) + [
        "| | id | estimated | took | ratio | load |",
        "|---|---|---:|---:|---:|---|",
    ] + rows + ["", END])
    text = open(target).read()
    if START in text:
        text = text[:text.index(START)] + section + text[text.index(END) + len(END):]
    else:
        marker = "## Studies: what they measured"
        text = text.replace(marker, section + "\n\n" + marker, 1) if marker in text else text.rstrip() + "\n\n" + section + "\n"
    open(target, "w").write(text)
    print(f"wrote {target}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["run", "table"])
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--budget", type=float, default=540.0)
    parser.add_argument("--data", default=os.path.join(ROOT, "build", "lessons-timing"))
    parser.add_argument("--lab", default=LAB, help="the ddplab to time (its ddplab-engine beside it)")
    parser.add_argument("--note", default="", help="table: a paragraph above it (when, which programs, the machine's load)")
    parser.add_argument("--keep", action="store_true", help="table: keep the rows of items DATA has not measured")
    parser.add_argument("--kept-load", default="", help="table: the load cell of a kept row that has none")
    args = parser.parse_args()
    return (run if args.what == "run" else table)(args)


if __name__ == "__main__":
    sys.exit(main())
