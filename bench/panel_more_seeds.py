#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""More seeds at a few LRs of one panel model's batch, to see what its truth's four seeds can tell.

  /usr/bin/python3 bench/panel_more_seeds.py --model tabular_adamw --batch-per-gpu 4 \\
      --lrs 0.006 0.0069579335580127796 0.008485281374238571 0.012 --seeds 1001-1016

Each LR at 8 GPUs x the batch per GPU over the user's horizon, as the panel's truth trains it
(bench/panel_engine.py's `at_batch`, the panel's run cache: runs it has are not trained again).
Prints each LR's mean over the first four seeds and over all, its standard error, and its
difference from the lowest mean paired over the seeds (docs/advisor.md, ninth round).
"""
import argparse
import math
import os
import statistics

import panel_engine
import panel_models
from bench_common import ENGINE, ROOT
from panel_engine import at_batch, planned_samples

DEFAULT_CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ddplab", "advisor-panel")


def seed_range(text):
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=sorted(panel_models.MODELS))
    parser.add_argument("--batch-per-gpu", type=int, required=True)
    parser.add_argument("--lrs", type=float, nargs="+", required=True)
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1001-1016"), help="FIRST-LAST (default 1001-1016)")
    parser.add_argument("--cache", default=DEFAULT_CACHE)
    args = parser.parse_args()
    base, identities = panel_models.write_model(args.model, os.path.join(args.cache, "models"))
    trainer = panel_engine.Trainer(ENGINE, panel_engine.RunCache(os.path.join(args.cache, "runs.jsonl")), panel_engine.engine_commit(ROOT, ENGINE))
    trainer.identities.update(identities)
    planned = planned_samples(base, panel_models.training_size(base))
    runs = {lr: [trainer.measure(at_batch(base, args.batch_per_gpu, lr, seed, planned)) for seed in args.seeds] for lr in args.lrs}
    finite = lambda values: [v if v is not None and math.isfinite(v) else math.inf for v in values]
    runs = {lr: finite(values) for lr, values in runs.items()}
    lowest = min(runs, key=lambda lr: statistics.mean(runs[lr]))
    print(f"{args.model} at 8 x {args.batch_per_gpu}, seeds {args.seeds[0]}-{args.seeds[-1]}:")
    for lr, values in runs.items():
        paired = [a / b - 1 for a, b in zip(values, runs[lowest])]
        print(f"  LR {lr:.6g}: first four {statistics.mean(values[:4]):.4f}; all {statistics.mean(values):.4f} +- "
              f"{statistics.stdev(values) / math.sqrt(len(values)):.4f}; paired against LR {lowest:.6g}: "
              f"{100 * statistics.mean(paired):+.1f} % +- {100 * statistics.stdev(paired) / math.sqrt(len(paired)):.1f}")
        print(f"    {[round(v, 4) for v in values]}")


if __name__ == "__main__":
    main()
