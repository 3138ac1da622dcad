#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The advisor's ground-truth panel (issue 46 §2): can its answer be bet on?

For each of eight small models of a user's own (bench/panel_models.py), from the user's base on
1 GPU to N = 8 GPUs:

  truth   brute force, with 8 GPUs emulated as the advisor emulates them (2 ranks x 4 micro-batches,
          accumulate_as_ranks): effective batches from half the base's up to where quality breaks,
          at each 7 or more LRs sqrt(2) apart (extended past an edge where the best sits) x 4 seeds,
          every run trained at the user's horizon (their training's samples: equal samples at every
          batch), measured as the advisor measures (the validation loss at the end). Per model: the
          right batch set (the batches whose best mean is within the advisor's stated tolerance, 2 %,
          of the best batch's, paired over seeds, with the seeds' spread) and the LR band within 2 %
          of the best at each batch.
  advice  `ddplab --advise --gpus 8` on the base (default budget); its batch verdict (in the right
          set?) and its LR regret at its batch on the truth's seeds, which the advisor never used
          (the advised settings retrained at the horizon, against the truth's best LR there); its
          confidence and its time.
  optuna  Optuna's TPE (Debian's python3-optuna) over batch per GPU x LR, driving the engine with the
          same emulation on the user's seed, for the advice's own wall time; its best re-measured on
          the truth's seeds. The held-out losses compare.

Every run goes through one `ddplab-engine runs` process and is kept on disk (bench/panel_engine.py:
by model, settings and the engine's commit, checked again once a model after the engine changed), so
a rerun after the advisor changed costs the advice, its retraining and Optuna's time only. Long: run
it in chunks (--max-minutes), each call goes on where the last stopped.

  advisor_panel.py [--models NAME ...] [--parts truth advice optuna] [--max-minutes M]
                   [--budget-min M] [--fresh-advice] [--write-docs] [--status FILE]
  advisor_panel.py --reduced --out FILE     two small models, a tiny grid (the test's panel)
  advisor_panel.py --analyse GRID.json      the truth's tables of a recorded grid, as JSON
"""
import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import panel_engine
import panel_optuna
import panel_record
import panel_report
import panel_truth
from bench_common import ENGINE, ROOT, positive_int, write_section
from panel_engine import GPUS, WITH_MOMENTS, at_batch, planned_samples, steps_at

LAB = os.path.join(os.path.dirname(ENGINE), "ddplab")
DEFAULT_CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "ddplab", "advisor-panel")
ADVISOR_MD = os.path.join(ROOT, "docs", "advisor.md")
FEWEST_STEPS = 4  # a batch that makes fewer steps over the horizon is past anything worth measuring


class Grid:
    """How large the brute force is: the full panel's, or the test's tiny one."""

    def __init__(self, seeds, ladder, step, extensions, lowest, widest, at_least_widest, decisive_seeds):
        self.seeds = seeds                      # the truth's seeds (data orders): held out from the advisor
        self.decisive_seeds = decisive_seeds    # more of them where the decision is made (decisive_truth())
        self.ladder = ladder                    # LRs at each batch, `step` apart
        self.step = step
        self.extensions = extensions            # times the ladder may grow by two past an edge
        self.lowest = lowest                    # the smallest effective batch, as a fraction of the base's
        self.widest = widest                    # the largest batch per GPU, as a multiple of the base's
        self.at_least_widest = at_least_widest  # measured up to here whatever the quality


FULL = Grid(seeds=(1001, 1002, 1003, 1004), ladder=7, step=math.sqrt(2), extensions=4, lowest=0.5, widest=32,
            at_least_widest=4, decisive_seeds=tuple(range(1001, 1017)))
REDUCED = Grid(seeds=(1001, 1002), ladder=3, step=2.0, extensions=0, lowest=8.0, widest=2, at_least_widest=2,
               decisive_seeds=(1001, 1002, 1003, 1004))
REDUCED_MODELS = ("logreg", "tabular_adamw")


# ---------------------------------------------------------------------------------------
# Truth
# ---------------------------------------------------------------------------------------
def lr_centre(base, batch):
    k = batch / (base["batch_size"] * base["world_size"])
    return base["lr"] * (math.sqrt(k) if base["optimizer"] in WITH_MOMENTS else k)


def ladder_at(trainer, base, planned, batch_per_gpu, centre, grid, deadline):
    """{lr: {seed: measure}} at this batch: `grid.ladder` LRs around `centre`, extended by two past an
    edge where the best mean sits, up to `grid.extensions` times. None when the deadline passed first."""
    half = grid.ladder // 2
    exponents = list(range(-half, grid.ladder - half))
    measured, done = {}, set()
    for _ in range(grid.extensions + 1):
        for j in exponents:
            lr = centre * grid.step ** j
            seeds = {}
            for seed in grid.seeds:
                if time.monotonic() > deadline:
                    return None
                seeds[seed] = trainer.measure(at_batch(base, batch_per_gpu, lr, seed, planned))
            measured[lr] = seeds
            done.add(j)
        best, _ = panel_truth.best_lr(measured)
        ordered = sorted(measured)
        if best == ordered[0]:
            exponents = [min(done) - 2, min(done) - 1]
        elif best == ordered[-1]:
            exponents = [max(done) + 1, max(done) + 2]
        else:
            break
    return measured


def truth(trainer, base, planned, size, grid, deadline, also=()):
    """{effective batch: {lr: {seed: measure}}}: from grid.lowest x the base's batch up, doubling, until
    quality breaks (past grid.at_least_widest x the base's batch per GPU); and the batches in `also`.
    None when the deadline passed first (the runs so far are cached)."""
    base_batch = base["batch_size"] * base["world_size"]
    per_gpu = max(1, round(base_batch * grid.lowest / GPUS))
    wanted = []
    while per_gpu <= grid.widest * base["batch_size"] and per_gpu * GPUS <= size:
        wanted.append(per_gpu)
        per_gpu *= 2
    measured, previous = {}, None
    for per_gpu in wanted:
        batch = per_gpu * GPUS
        if steps_at(planned, batch) < FEWEST_STEPS:
            break
        # Centred where the last batch's best was, moved by the rule: the optimum moves smoothly.
        centre = lr_centre(base, batch) if previous is None else \
            previous[1] * (lr_centre(base, batch) / lr_centre(base, previous[0]))
        ladder = ladder_at(trainer, base, planned, per_gpu, centre, grid, deadline)
        if ladder is None:
            return None
        measured[batch] = ladder
        previous = (batch, panel_truth.best_lr(ladder)[0])
        table = panel_truth.batch_table(measured)
        if per_gpu >= grid.at_least_widest * base["batch_size"] and panel_truth.quality_broken(table):
            break
    for per_gpu in also:
        batch = per_gpu * GPUS
        if batch not in measured:
            ladder = ladder_at(trainer, base, planned, per_gpu, lr_centre(base, batch), grid, deadline)
            if ladder is None:
                return None
            measured[batch] = ladder
    return measured


def decisive_truth(trainer, base, planned, grid, table, advised_per_gpu, extra, optuna, deadline):
    """The truth again where the decision is made, on grid.decisive_seeds (more held-out seeds than
    the brute force's: at 4 seeds a 2 % regret can be under what the seeds resolve, docs/advisor.md):
    the whole LR ladder (grid.ladder LRs centred at the row's best, extended past an edge as the
    truth's) at the advised batch, at the truth's best batch and at Optuna's (where Optuna's best
    beats the advice, its batch or its LR is why: the ladder there tells which), the advised
    settings (`extra`) and Optuna's best ({batch_per_gpu, lr} or None) on the same seeds. Every
    model alike; the runs are cached, so the seeds the truth has are not trained again. The judgement (panel_truth.decisive)
    with the rows' means and the held-out losses; None when the deadline passed first."""
    more = Grid(**dict(vars(grid), seeds=grid.decisive_seeds))
    advised_batch = GPUS * advised_per_gpu
    asked = {advised_batch, table["best_batch"]}
    if optuna:
        asked.add(GPUS * optuna["batch_per_gpu"])
    rows = {}
    for batch in sorted(asked):
        row = next((r for r in table["rows"] if r["batch"] == batch), None)
        centre = row["best_lr"] if row else lr_centre(base, batch)
        ladder = ladder_at(trainer, base, planned, batch // GPUS, centre, more, deadline)
        if ladder is None:
            return None
        rows[batch] = ladder
    runs = {}
    for who, per_gpu, lr, settings in (("advice", advised_per_gpu, extra["lr"], extra),) + \
            ((("optuna", optuna["batch_per_gpu"], optuna["lr"], None),) if optuna else ()):
        runs[who] = {}
        for seed in more.seeds:
            if time.monotonic() > deadline:
                return None
            runs[who][seed] = trainer.measure(at_batch(base, per_gpu, lr, seed, planned, settings))
    judged = panel_truth.decisive(rows, advised_batch, runs["advice"], table["best_batch"])
    judged.update(seeds=list(more.seeds), advice_held_out=panel_truth.mean(runs["advice"].values()),
                  measures={w: {str(s): v for s, v in r.items()} for w, r in runs.items()},
                  rows={str(b): {repr(lr): {str(s): v for s, v in at.items()} for lr, at in ladder.items()}
                        for b, ladder in rows.items()})
    if optuna:
        judged["optuna_held_out"] = panel_truth.mean(runs["optuna"].values())
        _, judged["optuna_se"] = panel_truth.paired_excess(runs["advice"], runs["optuna"])
        judged["advice_wins"] = judged["advice_held_out"] <= judged["optuna_held_out"]
    return judged


# ---------------------------------------------------------------------------------------
# The advice
# ---------------------------------------------------------------------------------------
def advisor_commit():
    """The commit of what answers the advice (the lab and the engine), '+' with changes not committed."""
    return panel_engine.source_commit(ROOT, ["ui", "engine", "app"], LAB)


def advise(name, base, budget_min, cache_dir, fresh):
    """advice.json of `ddplab --advise --gpus 8` on the base, with its wall time (`wall_s`); kept per
    model, budget and advisor commit."""
    commit = advisor_commit()
    budget = "default" if budget_min is None else f"{budget_min:g}"
    path = os.path.join(cache_dir, "advice", f"{name}-{budget}-{commit}.json")
    if os.path.exists(path) and not fresh:
        return json.load(open(path))
    with tempfile.TemporaryDirectory(prefix="ddplab-panel-advice-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=home, XDG_CONFIG_HOME=home,
                   XDG_RUNTIME_DIR=os.environ.get("XDG_RUNTIME_DIR", home), DDPLAB_ENGINE=ENGINE)
        preset = os.path.join(home, "base.json")
        with open(preset, "w") as out:
            json.dump(base, out)
        command = [LAB, "--advise", "--preset", preset, "--gpus", str(GPUS), "--export", os.path.join(home, "advice"), "--quit"]
        if budget_min is not None:
            command[-1:-1] = ["--budget-min", f"{budget_min:g}"]
        load_before = os.getloadavg()[0]
        start = time.perf_counter()
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise RuntimeError(f"ddplab --advise on {name} exited {done.returncode}: {done.stderr[-2000:]}")
        advice = json.load(open(os.path.join(home, "advice", "advice.json")))
    advice.pop("snippet", None)
    advice["wall_s"] = wall
    advice["load"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]  # the 1-minute load before and after
    advice["advisor_commit"] = commit
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".partial", "w") as out:
        json.dump(advice, out)
    os.replace(path + ".partial", path)
    return advice


# The advice's settings the retraining takes (the rest is the base's, the batch and the GPUs emulated).
ADVISED_KEYS = ("lr", "beta1", "beta2", "eps", "warmup_steps", "warmup_epochs", "warmup_start_factor", "schedule", "min_lr",
                "momentum", "weight_decay")


def advised_settings(advice, base):
    recommended = advice["recommended_settings"]
    extra = {key: recommended[key] for key in ADVISED_KEYS if recommended.get(key) is not None}
    if not recommended.get("warmup_steps") and not recommended.get("warmup_epochs"):
        extra.pop("warmup_start_factor", None)
    return extra


# ---------------------------------------------------------------------------------------
# One model
# ---------------------------------------------------------------------------------------
def grid_json(grid):
    return {str(b): {repr(lr): {str(s): v for s, v in seeds.items()} for lr, seeds in ladder.items()} for b, ladder in grid.items()}


def grid_from_json(recorded):
    return {int(b): {float(lr): {int(s): math.inf if v is None else float(v) for s, v in seeds.items()}
                     for lr, seeds in ladder.items()} for b, ladder in recorded.items()}


def recorded_truth(name, args, grid, trainer, base, planned):
    """The model's recorded truth (bench/panel_record.py) when the panel judges against it: asked to
    (--truth recorded), or, by default, when the record fits this grid and the truth's first run is not
    kept (a wiped cache: the brute force would take hours again). None: compute the truth."""
    record = panel_record.load(args.truth_record).get(name)
    fits = record is not None and record["planned_samples"] == planned and list(record["seeds"]) == list(grid.seeds)
    if args.truth == "recorded":
        if not fits:
            raise RuntimeError(f"{name}: no recorded truth for this grid in {args.truth_record}")
        return record
    if args.truth == "computed" or not fits:
        return None
    per_gpu = max(1, round(base["batch_size"] * base["world_size"] * grid.lowest / GPUS))
    first = at_batch(base, per_gpu, lr_centre(base, per_gpu * GPUS), grid.seeds[0], planned)
    return None if trainer.has(first) else record


def keep_truth(name, args, grid, trainer, measured, size, planned):
    """The computed truth into the record (bench/panel_truth_recorded.json, or --truth-record): what
    survives a wiped machine."""
    table = panel_truth.batch_table(measured)
    panel_record.store(args.truth_record, name, panel_record.from_table(
        table, measured, grid.seeds, size, planned, trainer.commit, panel_truth.standard_error), about=panel_record.ABOUT)
    return table


def one_model(name, args, grid, trainer, deadline):
    """The model's result (a dict), or None when the deadline passed first (what ran is cached)."""
    import panel_models
    base, identities = panel_models.write_model(name, os.path.join(args.cache, "models"))
    trainer.identities.update(identities)
    size = panel_models.training_size(base)
    planned = planned_samples(base, size)
    result = {"model": name, "what": panel_models.describe(name), "base": {k: v for k, v in base.items()
              if k not in ("model_file", "train_data", "val_data", "workload", "world_size", "seed")},
              "samples": size, "planned_samples": planned, "seeds": list(grid.seeds)}
    record = recorded_truth(name, args, grid, trainer, base, planned)
    if record is not None:
        return judged_on_record(name, args, grid, trainer, deadline, base, planned, record, result)
    measured = truth(trainer, base, planned, size, grid, deadline)
    if measured is None:
        return None
    result["truth"] = keep_truth(name, args, grid, trainer, measured, size, planned)
    result["truth_source"] = "computed"
    if "advice" not in args.parts:
        result["grid"] = grid_json(measured)
        return result
    advice = asked(name, args, base, deadline)
    if advice is None:
        return None
    per_gpu = advice["batch_per_gpu"]
    advised_batch = GPUS * per_gpu
    measured = truth(trainer, base, planned, size, grid, deadline, also=[per_gpu])
    if measured is None:
        return None
    table = keep_truth(name, args, grid, trainer, measured, size, planned)
    advised_runs = retrained(trainer, base, per_gpu, advice, grid, planned, deadline, result)
    if advised_runs is None:
        return None
    result.update(truth=table, grid=grid_json(measured))
    result["verdict"] = panel_truth.verdict(advised_batch, table)
    result["lr_regret"] = panel_truth.regret(advised_runs, measured[advised_batch])
    return against_optuna(name, args, grid, trainer, deadline, base, planned, identities_of(trainer, base),
                          sorted({b // GPUS for b in measured}), advice, advised_runs, table, result)


def asked(name, args, base, deadline):
    """The advice on 8 GPUs (advise()), or None when its budget would pass the deadline."""
    if time.monotonic() + 60 * (args.budget_min or 5.0) * 1.3 > deadline:
        return None
    advice = advise(name, base, args.budget_min, args.cache, args.fresh_advice)
    per_gpu = advice["batch_per_gpu"]
    if advice["gpus"] != GPUS or advice.get("grad_accum", 1) != 1:
        raise RuntimeError(f"{name}: the advice is for {advice['gpus']} GPUs x {per_gpu} x {advice.get('grad_accum')}")
    return advice


def identities_of(trainer, base):
    return {base[key]: trainer.identities[base[key]] for key in panel_engine.FILE_KEYS}


def judged_on_record(name, args, grid, trainer, deadline, base, planned, record, result):
    """A new advice judged against the recorded truth: its batch verdict is the record's row; its regret
    the advised settings retrained on the record's seeds against the row's best mean (against the runs
    themselves where the record keeps them). The row's best LR is trained again on those seeds, to show
    that this engine still gives the record's number (`record_check`)."""
    table = panel_record.table_of(record)
    measured = panel_record.grid_of(record)
    result.update(truth=table, truth_source="recorded", truth_record={
        k: record.get(k) for k in ("source", "engine_commit", "rounded")})
    if measured is not None:
        result["grid"] = grid_json(measured)
    if "advice" not in args.parts:
        return result
    advice = asked(name, args, base, deadline)
    if advice is None:
        return None
    per_gpu = advice["batch_per_gpu"]
    advised_batch = GPUS * per_gpu
    advised_runs = retrained(trainer, base, per_gpu, advice, grid, planned, deadline, result)
    if advised_runs is None:
        return None
    result["verdict"] = panel_record.verdict(record, advised_batch)
    row = panel_record.row_at(record, advised_batch)
    if measured is not None and advised_batch in measured:
        result["lr_regret"] = dict(panel_truth.regret(advised_runs, measured[advised_batch]), recorded=True)
    else:
        result["lr_regret"] = panel_record.regret(record, advised_batch, advised_runs) or {
            "regret": math.nan, "advised": panel_truth.mean(advised_runs.values()), "best": None, "recorded": True}
    if row is not None:
        again = {seed: trainer.measure(at_batch(base, per_gpu, row["best_lr"], seed, planned)) for seed in grid.seeds}
        remeasured = panel_truth.mean(again.values())
        result["record_check"] = {"batch": advised_batch, "lr": row["best_lr"], "recorded": row["best"],
                                  "remeasured": remeasured, "same": panel_record.same_as_recorded(record, remeasured, row["best"])}
    return against_optuna(name, args, grid, trainer, deadline, base, planned, identities_of(trainer, base),
                          sorted({r["batch"] // GPUS for r in table["rows"]}), advice, advised_runs, table, result)


def retrained(trainer, base, per_gpu, advice, grid, planned, deadline, result):
    """The advised settings trained again on the truth's seeds, {seed: measure}; the advice's figures
    into `result`. None when the deadline passed first."""
    advised_batch = GPUS * per_gpu
    extra = advised_settings(advice, base)
    advised_runs, advised_configs = {}, {}
    for seed in grid.seeds:
        if time.monotonic() > deadline:
            return None
        advised_configs[seed] = at_batch(base, per_gpu, extra["lr"], seed, planned, extra)
        advised_runs[seed] = trainer.measure(advised_configs[seed])
    used_seeds = sorted({e["seed"] for e in advice["evidence"]})
    result.update(advice={
        "batch_per_gpu": per_gpu, "batch": advised_batch, "lr": extra["lr"], "warmup_steps": extra.get("warmup_steps", 0),
        "confidence": advice["confidence"]["level"], "confidence_reason": advice["confidence"].get("reason", ""),
        "weaknesses": advice["confidence"].get("weaknesses", []),
        "tolerance": advice.get("critical_batch", {}).get("tolerance"), "wall_s": advice["wall_s"],
        "took_s": advice.get("took_s"), "load": advice.get("load"), "runs": len(advice["evidence"]), "commit": advice["advisor_commit"],
        "seeds_used": used_seeds, "held_out": not set(used_seeds) & set(grid.seeds),
        "lr_safe_range": advice.get("lr_safe_range"), "horizon_samples": advice.get("horizon_samples"),
        "measures": {str(s): v for s, v in advised_runs.items()}})
    # One run to check by hand: the advised settings on the first held-out seed, as the engine took them.
    result["witness"] = {"config": advised_configs[grid.seeds[0]], "measure": advised_runs[grid.seeds[0]]}
    return advised_runs


def against_optuna(name, args, grid, trainer, deadline, base, planned, identities, batches_per_gpu, advice, advised_runs,
                   table, result):
    """Optuna's TPE for the advice's wall time over the truth's batches, its best re-measured on the
    truth's seeds; the result, or None when the deadline passed first."""
    advised_batch = result["advice"]["batch"]
    band_row = next((r for r in table["rows"] if r["batch"] == advised_batch), None)
    result["advised_band"] = band_row["band"] if band_row else None
    if "optuna" not in args.parts:
        return with_decisive(grid, trainer, deadline, base, planned, advice, table, result)
    seconds = advice["wall_s"]
    if time.monotonic() + seconds * 1.2 > deadline:
        return None
    # Optuna's trials depend on the model, its base, the space and the engine, not on the advisor.
    depends = json.dumps([sorted(identities.values()), {k: v for k, v in base.items() if k not in panel_engine.FILE_KEYS},
                          batches_per_gpu, planned, trainer.commit], sort_keys=True)
    trials_file = os.path.join(args.cache, "optuna", f"{name}-{hashlib.sha256(depends.encode()).hexdigest()[:16]}.json")
    trials = panel_optuna.optuna_trials(ENGINE, base, planned, batches_per_gpu, seconds, trials_file, cap_trials=args.optuna_trials)
    best, count = panel_optuna.optuna_best(trials, seconds)
    optuna_runs = {seed: trainer.measure(at_batch(base, best["batch_per_gpu"], best["lr"], seed, planned))
                   for seed in grid.seeds}
    result["optuna"] = {"batch_per_gpu": best["batch_per_gpu"], "batch": GPUS * best["batch_per_gpu"], "lr": best["lr"],
                        "trials": count, "seconds": seconds, "tuning_value": best["value"],
                        "trial_log": [[t["batch_per_gpu"], t["lr"], t["value"], t["elapsed_s"]] for t in trials],
                        "measures": {str(s): v for s, v in optuna_runs.items()},
                        "held_out": panel_truth.mean(optuna_runs.values())}
    result["advice_held_out"] = panel_truth.mean(advised_runs.values())
    result["advice_wins"] = result["advice_held_out"] <= result["optuna"]["held_out"]
    return with_decisive(grid, trainer, deadline, base, planned, advice, table, result)


def with_decisive(grid, trainer, deadline, base, planned, advice, table, result):
    """`result` with the judgement on grid.decisive_seeds (decisive_truth()) as "decisive"; None when
    the deadline passed first."""
    judged = decisive_truth(trainer, base, planned, grid, table, result["advice"]["batch_per_gpu"],
                            advised_settings(advice, base), result.get("optuna"), deadline)
    if judged is None:
        return None
    result["decisive"] = judged
    return result


# ---------------------------------------------------------------------------------------
def strict_json(value):
    """`value` with every number that is not finite (a diverged run) as null: JSON as every reader takes it."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [strict_json(v) for v in (sorted(value) if isinstance(value, set) else value)]
    return value


def analyse(path):
    """The truth's tables of a recorded grid: {"grid": {batch: {lr: {seed: measure}}}, optionally
    "advised_batch" and "advised": {seed: measure}} -> JSON on stdout (a measure null or Infinity: diverged)."""
    recorded = json.load(open(path))
    grid = grid_from_json(recorded["grid"])
    out = {"truth": panel_truth.batch_table(grid)}
    if "advised_batch" in recorded:
        batch = int(recorded["advised_batch"])
        out["verdict"] = panel_truth.verdict(batch, out["truth"])
        if "advised" in recorded:
            advised = {int(s): math.inf if v is None else float(v) for s, v in recorded["advised"].items()}
            out["lr_regret"] = panel_truth.regret(advised, grid[batch])
    print(json.dumps(strict_json(out), allow_nan=False))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--models", nargs="+", default=None, help="which models (default: all eight; --reduced: two)")
    parser.add_argument("--parts", nargs="+", default=["truth", "advice", "optuna"], choices=["truth", "advice", "optuna"])
    parser.add_argument("--max-minutes", type=float, default=0.0, help="stop (exit 3) before starting what would pass this; 0: none")
    parser.add_argument("--budget-min", type=float, default=None, help="the advice's budget (default: the advisor's own)")
    parser.add_argument("--fresh-advice", action="store_true", help="ask for the advice again even if this commit's is kept")
    parser.add_argument("--optuna-trials", type=positive_int, default=None, help="at most this many Optuna trials")
    parser.add_argument("--cache", default=DEFAULT_CACHE, help=f"runs, advice and models kept here (default {DEFAULT_CACHE})")
    parser.add_argument("--out", help="write every result as JSON here")
    parser.add_argument("--write-docs", action="store_true", help="write the tables into docs/benchmarks.md and docs/advisor.md")
    parser.add_argument("--status", help="write the interim figures (markdown) here")
    parser.add_argument("--reduced", action="store_true", help="the test's panel: two small models, a tiny grid, a 0.2-minute advice")
    parser.add_argument("--analyse", metavar="GRID.json", help="only the truth's tables of a recorded grid (see analyse())")
    parser.add_argument("--truth", choices=["auto", "computed", "recorded"], default="auto",
                        help="judge against the recorded truth (--truth-record) or compute it; auto (default): the "
                             "recorded one when the truth's runs are not kept (a wiped cache)")
    parser.add_argument("--truth-record", default=None,
                        help=f"the recorded truth, written again whenever the panel computes one (default "
                             f"{os.path.relpath(panel_record.RECORD, ROOT)}; --reduced: truth_recorded.json in --cache)")
    args = parser.parse_args()
    if args.truth_record is None:
        args.truth_record = os.path.join(args.cache, "truth_recorded.json") if args.reduced else panel_record.RECORD
    if args.analyse:
        return analyse(args.analyse)
    import panel_models
    grid = REDUCED if args.reduced else FULL
    if args.reduced:
        args.budget_min = 0.2 if args.budget_min is None else args.budget_min
        args.optuna_trials = args.optuna_trials or 3
    models = args.models or list(REDUCED_MODELS if args.reduced else panel_models.MODELS)
    for name in models:
        if name not in panel_models.MODELS:
            parser.error(f"--models: no model {name!r}; the panel has {', '.join(panel_models.MODELS)}")
    if not os.access(ENGINE, os.X_OK):
        parser.error(f"no engine at {ENGINE}: build it (or set DDPLAB_ENGINE)")
    deadline = time.monotonic() + (60 * args.max_minutes if args.max_minutes > 0 else math.inf)
    cache = panel_engine.RunCache(os.path.join(args.cache, "runs.jsonl"))
    trainer = panel_engine.Trainer(ENGINE, cache, panel_engine.engine_commit(ROOT, ENGINE))
    results, unfinished = [], []
    try:
        for name in models:
            result = one_model(name, args, grid, trainer, deadline)
            if result is None:
                unfinished.append(name)
                continue
            results.append(result)
            if not args.reduced:
                folder = os.path.join(args.cache, "results")
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, name + ".json"), "w") as out:
                    json.dump(result, out)
            print(f"{name}: done ({trainer.trained} runs trained so far, {trainer.train_seconds:.0f} s)", flush=True)
    finally:
        trainer.close()
    summary = {"results": results, "unfinished": unfinished, "trained": trainer.trained, "grid": vars(grid),
               "engine_commit": trainer.commit}
    if args.out:
        with open(args.out, "w") as out:
            json.dump(strict_json(summary), out, allow_nan=False)
    markdown = panel_report.report(results, grid) if results else ""
    print(markdown)
    if args.status and results:
        with open(args.status, "w") as out:
            out.write(panel_report.status(results))
    if args.write_docs and results and not unfinished and not args.reduced:
        write_section("advisor-panel", markdown)
        write_section("advisor-panel", panel_report.report(results, grid, details=False), ADVISOR_MD)
    if unfinished:
        print(f"not finished within {args.max_minutes:g} min: {', '.join(unfinished)}; run again to go on (what ran is kept)")
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
