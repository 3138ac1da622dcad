# SPDX-License-Identifier: GPL-3.0-or-later
"""Optuna beside the advisor (bench/advisor_panel.py): Debian's python3-optuna, its TPE sampler over
batch per GPU x LR, driving the engine with the panel's emulation for as long as the advice took.
Its trials are kept with the time each ended, so an answer for any wall time up to theirs costs
nothing, and a longer one extends them."""
import json
import math
import os
import time

from panel_engine import GPUS, EngineRuns, at_batch


def optuna_trials(engine, base, planned, batches_per_gpu, seconds, path, cap_trials=None):
    """Optuna's TPE over batch per GPU x LR (log-uniform from the base's LR / 10 to its LR x 8 x 10, the
    span of the advisor's range test at 8 GPUs) on the user's seed, each trial a run at the horizon
    through one engine process; trials until `seconds` of wall time (engine start included) have
    passed. The trials are kept in `path` with the time each ended at: a later, longer budget extends
    them (the caller names the path by everything the trials depend on)."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    trials = json.load(open(path)) if os.path.exists(path) else []
    space = {"batch_per_gpu": optuna.distributions.CategoricalDistribution(batches_per_gpu),
             "lr": optuna.distributions.FloatDistribution(base["lr"] / 10, base["lr"] * GPUS * 10, log=True)}
    enough = lambda: (trials and trials[-1]["elapsed_s"] >= seconds) or (cap_trials is not None and len(trials) >= cap_trials)
    if enough():
        return trials
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=0))
    for trial in trials:
        study.add_trial(optuna.trial.create_trial(params={"batch_per_gpu": trial["batch_per_gpu"], "lr": trial["lr"]},
                                                  distributions=space, value=trial["value"]))
    start = time.perf_counter() - (trials[-1]["elapsed_s"] if trials else 0.0)
    runs = EngineRuns(engine)
    try:
        while not enough():
            trial = study.ask(space)
            per_gpu, lr = trial.params["batch_per_gpu"], trial.params["lr"]
            measure = runs.train(at_batch(base, per_gpu, lr, base.get("seed", 0), planned))["measure"]
            value = measure if math.isfinite(measure) else 1e9  # diverged: worse than anything
            study.tell(trial, value)
            trials.append({"batch_per_gpu": per_gpu, "lr": lr, "value": value, "elapsed_s": time.perf_counter() - start})
    finally:
        runs.close()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".partial", "w") as out:
            json.dump(trials, out)
        os.replace(path + ".partial", path)
    return trials


def optuna_best(trials, seconds):
    """Optuna's answer after `seconds`: the best trial that had ended by then (at least the first)."""
    ended = [t for t in trials if t["elapsed_s"] <= seconds] or trials[:1]
    return min(ended, key=lambda t: t["value"]), len(ended)
