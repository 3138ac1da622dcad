#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The panel's counts again from each model's newest advice and Optuna's best as recorded
(bench/panel_advice_recorded.json), judged on more held-out seeds where the decision is made
(bench/advisor_panel.py's decisive_truth: the whole LR ladder at the advised batch and at the truth's
best batch, the advice and Optuna's best, on seeds 1001-1016), beside the recorded 4-seed figures.

  /usr/bin/python3 bench/panel_recount.py [--models NAME ...] [--max-minutes M] [--out FILE]

No advice is asked and no Optuna search run: their settings are the record's. Runs are kept in the
panel's cache (bench/panel_engine.py), so a call stopped by --max-minutes (exit 3) goes on where it
stopped. Prints a markdown table (docs/advisor.md, 2026-12-01)."""
import argparse
import json
import math
import os
import sys
import time

import advisor_panel
import panel_engine
import panel_models
import panel_record
import panel_truth
from advisor_panel import DEFAULT_CACHE, FULL
from bench_common import ENGINE, ROOT
from panel_engine import GPUS, planned_samples

ADVICE_RECORD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "panel_advice_recorded.json")


def recount(name, recorded, trainer, cache, deadline, grid=FULL):
    """One model's judgement on grid.decisive_seeds, or None when the deadline passed first."""
    base, identities = panel_models.write_model(name, os.path.join(cache, "models"))
    trainer.identities.update(identities)
    planned = planned_samples(base, panel_models.training_size(base))
    record = panel_record.load()[name]
    table = panel_record.table_of(record)
    advice, optuna = recorded["advice"], recorded["optuna"]
    judged = advisor_panel.decisive_truth(trainer, base, planned, grid, table, advice["batch_per_gpu"], {"lr": advice["lr"]},
                                          optuna, deadline)
    if judged is None:
        return None
    first = [int(s) for s in record["seeds"]]
    advised4 = {s: float(judged["measures"]["advice"][str(s)]) for s in first}
    old = panel_record.regret(record, GPUS * advice["batch_per_gpu"], advised4)
    optuna4 = panel_truth.mean(float(judged["measures"]["optuna"][str(s)]) for s in first)
    return {"model": name, "advice": advice, "optuna": optuna, "record_verdict": panel_record.verdict(record, GPUS * advice["batch_per_gpu"]),
            "regret_4_now": old["regret"] if old else math.nan, "advice_4_now": panel_truth.mean(advised4.values()),
            "optuna_4_now": optuna4, "decisive": judged}


def pct(value, signed=True):
    if not math.isfinite(value):
        return "–"
    text = f"{100 * value:+.1f} %" if signed else f"{100 * value:.1f}"
    return "0.0 %" if text in ("+0.0 %", "-0.0 %") else text


def table(results):
    lines = ["| model | advice: batch, LR (commit) | LR rungs × seeds at its batch | batch verdict: 4 seeds (record) / 16 seeds (excess ± s.e.) | "
             "LR band at its batch: 4 / 16 seeds | LR regret: 4 seeds (recorded; again now) / 16 seeds ± paired s.e. | "
             "held-out loss, advice / Optuna: 4 seeds (recorded; trained again now) / 16 seeds (paired difference ± s.e.) |",
             "|---|---|---|---|---|---|---|"]
    record = panel_record.load()
    for r in results:
        d, a, o = r["decisive"], r["advice"], r["optuna"]
        row4 = panel_record.row_at(record[r["model"]], d["batch"])
        band4 = f"{row4['band']['low']:.3g}–{row4['band']['high']:.3g}" if row4 else "–"
        band16 = f"{d['band']['low']:.3g}–{d['band']['high']:.3g}" + (" (edge)" if d["band"]["at_edge"] else "")
        verdict16 = d["verdict"] + ("" if d["batch"] == d["best_batch"] else f" ({pct(d['excess'])} ± {100 * d['excess_se']:.1f} over {d['best_batch']})")
        held = f"{a['held_out_4']:.4g} (now {r['advice_4_now']:.4g}) / {o['held_out_4']:.4g} (now {r['optuna_4_now']:.4g}); " \
               f"{d['advice_held_out']:.4g} / {d['optuna_held_out']:.4g} " \
               f"({pct(d['advice_held_out'] / d['optuna_held_out'] - 1)} ± {100 * d['optuna_se']:.1f}: {'advice' if d['advice_wins'] else 'Optuna'})"
        lines.append(f"| `{r['model']}` | 8 × {a['batch_per_gpu']} = {d['batch']}, {a['lr']:.3g} ({a['commit']}) | {d['lrs']} × {len(d['seeds'])} | "
                     f"{r['record_verdict']} / {verdict16} | {band4} / {band16} | {pct(a['regret_4'])} ({pct(r['regret_4_now'])}) / "
                     f"**{pct(d['regret'])}** ± {100 * d['regret_se']:.1f} | {held} |")
    return "\n".join(lines)


def counts(results):
    both = [r["model"] for r in results if r["decisive"]["verdict"] == "right" and r["decisive"]["regret"] <= panel_truth.LR_BAND]
    wins = [r["model"] for r in results if r["decisive"]["advice_wins"]]
    return (f"On {len(results[0]['decisive']['seeds']) if results else 0} seeds: batch right and LR regret ≤ 2 %: **{len(both)} of {len(results)}** "
            f"({', '.join(both) or 'none'}; the issue asks for 7 of 8). The advice's held-out loss at most Optuna's: "
            f"**{len(wins)} of {len(results)}** ({', '.join(wins) or 'none'}; the issue asks for 6 of 8).")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    recorded = json.load(open(ADVICE_RECORD))["models"]
    parser.add_argument("--models", nargs="+", default=list(recorded), choices=sorted(recorded))
    parser.add_argument("--max-minutes", type=float, default=0.0)
    parser.add_argument("--cache", default=DEFAULT_CACHE)
    parser.add_argument("--out")
    args = parser.parse_args()
    deadline = time.monotonic() + (60 * args.max_minutes if args.max_minutes > 0 else math.inf)
    trainer = panel_engine.Trainer(ENGINE, panel_engine.RunCache(os.path.join(args.cache, "runs.jsonl")),
                                   panel_engine.engine_commit(ROOT, ENGINE))
    results, unfinished = [], []
    try:
        for name in args.models:
            result = recount(name, recorded[name], trainer, args.cache, deadline)
            if result is None:
                unfinished.append(name)
                continue
            results.append(result)
            print(f"{name}: done ({trainer.trained} runs trained so far, {trainer.train_seconds:.0f} s)", flush=True)
    finally:
        trainer.close()
    if args.out:
        with open(args.out, "w") as out:
            json.dump(advisor_panel.strict_json({"results": results, "unfinished": unfinished, "engine_commit": trainer.commit}), out)
    if results:
        print(table(results) + "\n\n" + counts(results))
    if unfinished:
        print(f"not finished within {args.max_minutes:g} min: {', '.join(unfinished)}; run again to go on (what ran is kept)")
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
