#!/usr/bin/env python3
"""Prints a one-line, human-readable summary of a ddplab-engine event stream (JSON Lines).

    ddplab-engine run ... | scripts/summarize-events.py "label"
"""
import json
import sys

label = sys.argv[1] if len(sys.argv) > 1 else "run"
config, summary, error, steps = {}, None, None, 0
for line in sys.stdin:
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        continue
    kind = event.get("type")
    if kind == "config":
        config = event
    elif kind == "step":
        steps += 1
    elif kind == "summary":
        summary = event
    elif kind == "error":
        error = event

if error or not summary:
    print(f"{label:<34} FAILED: {error.get('message') if error else 'no summary'}")
    sys.exit(1)

ranks = config.get("world_size", "?")
batch = config.get("batch_size", "?")
parts = [f"{label:<34}", f"{ranks}x{batch:<4}", f"lr {config.get('lr_effective', 0):.4e}", f"steps {summary['steps']:>3}"]
if "w_mean" in summary:
    parts.append(f"w {summary['w_mean']:.4f}")
if "update_var" in summary:
    parts.append(f"update var {summary['update_var']:.4e}")
if "val_accuracy" in summary:
    parts.append(f"val acc {summary['val_accuracy']:.3f}")
parts.append(f"{summary.get('wall_s', 0):.2f} s")
print("  ".join(parts))
