# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs for the advisor panel (bench/advisor_panel.py): N GPUs emulated as the advisor emulates them,
trained through one `ddplab-engine runs` process (LibTorch loaded once, a forked child per run), and
kept in a cache on disk so that a rerun after the advisor changed costs only what is new.

A run is kept by its whole config, the model's and data's files by what they hold (as
panel_models.write_model identifies them), not by their paths, with the engine's commit it was
trained at: a change to the advisor (ui/) keeps every run; after a change to the engine one run of
each model is trained again, and the model's kept runs stand if the engine gives its number again
(Trainer)."""
import hashlib
import json
import math
import os
import subprocess
import time

EMULATED_RANKS = 2  # this machine's ranks standing for the GPUs, as the advisor's runs use (Advisor::emulated)


def emulated(base, gpus, batch_per_gpu, lr, seed, steps):
    """The base's settings on `gpus` GPUs of `batch_per_gpu` each, for `steps` optimizer steps at a
    constant `lr`: two ranks, each running gpus / 2 GPUs' micro-batches (accumulate_as_ranks: exactly
    what those GPUs compute), measured at the end on the validation set."""
    ranks = EMULATED_RANKS if gpus % EMULATED_RANKS == 0 else 1
    config = dict(base, world_size=ranks, grad_accum=gpus // ranks, accumulate_as_ranks=gpus // ranks > 1,
                  batch_size=batch_per_gpu, lr=lr, seed=seed, max_steps=steps, epochs=1000000, lr_rule="none",
                  threads=1)
    config.pop("base_batch_size", None)
    return config


# ---------------------------------------------------------------------------------------
# The user's horizon and the settings at a batch
# ---------------------------------------------------------------------------------------
GPUS = 8  # the panel's N
# An optimizer with moments: its best LR follows the square root of the batch more than the batch
# (the truth's ladder starts from that rule, else from the linear one).
WITH_MOMENTS = ("adam", "adamw")


def planned_samples(base, size):
    """The user's training in samples, as the advisor plans it: the base's steps x its batch."""
    per_epoch = math.ceil(size / (base["batch_size"] * base["world_size"]))
    return per_epoch * base["epochs"] * base["batch_size"] * base["world_size"]


def steps_at(planned, batch):
    return max(1, round(planned / batch))


def at_batch(base, batch_per_gpu, lr, seed, planned, extra=None):
    """The base on 8 GPUs of `batch_per_gpu` at `lr` over the user's horizon, the rest of the user's
    settings (Adam's beta1, beta2 and eps too) kept; `extra` (the advice's own settings) last."""
    config = emulated(base, GPUS, batch_per_gpu, lr, seed, steps_at(planned, GPUS * batch_per_gpu))
    config.update(extra or {})
    return config


def source_commit(root, paths, program):
    """The last commit that changed `paths` (git pathspecs), with '+' when they have changes not
    committed; outside a git checkout, the built `program`'s own digest (it changes with its sources)."""
    try:
        commit = subprocess.run(["git", "-C", root, "log", "-1", "--format=%H", "--"] + paths, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()[:12]
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--"] + paths, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "", ""
    if not commit:
        digest = hashlib.sha256()
        with open(program, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        return "built-" + digest.hexdigest()[:12]
    return commit + ("+" if dirty else "")


def engine_commit(root, engine):
    """The last commit that changed the engine (engine/)."""
    return source_commit(root, ["engine"], engine)


FILE_KEYS = ("model_file", "train_data", "val_data")
# Numbers the engine gives again after it changed, to this relative difference, are its numbers
# still (the same source gives the same bits; a rebuild with another compiler may move the last ones).
SAME_NUMBERS = 1e-6


def run_key(keyed):
    """A run's key: its config with the files by what they hold."""
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:24]


class RunCache:
    """Finished runs on disk, one JSON line each ({config, engine_commit, measure, ...}), keyed by
    their config; appended as they finish, so a stopped panel keeps what it ran. Beside them, the
    engine changes checked (`checks.jsonl`): a model's runs at one engine commit kept at another."""

    def __init__(self, path):
        self.path = path
        self.checks_path = os.path.join(os.path.dirname(path) or ".", "checks.jsonl")
        self.runs, self.checks = {}, {}
        for file, add in ((path, self._add_run), (self.checks_path, self._add_check)):
            if os.path.exists(file):
                with open(file) as f:
                    for line in f:
                        try:
                            add(json.loads(line))
                        except (json.JSONDecodeError, KeyError):
                            continue  # a line cut by a stop: that run runs again

    def _add_run(self, record):
        self.runs[run_key(record["config"])] = record

    def _add_check(self, check):
        self.checks[(check["model"], check["from"], check["to"])] = check["same"]

    def _append(self, file, record):
        os.makedirs(os.path.dirname(file) or ".", exist_ok=True)
        with open(file, "a") as f:
            f.write(json.dumps(record) + "\n")

    def get(self, keyed):
        return self.runs.get(run_key(keyed))

    def put(self, record):
        self._add_run(record)
        self._append(self.path, record)

    def put_check(self, check):
        self._add_check(check)
        self._append(self.checks_path, check)


class EngineRuns:
    """One `ddplab-engine runs` process: `train(config)` sends the config as a request and reads the
    run's events to its run_end. The measure is the summary's validation loss when the config has
    validation data, else its training loss; inf for a run that diverged or failed."""

    def __init__(self, engine, env=None):
        self.process = subprocess.Popen([engine, "runs", "--stop-when-input-ends"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        hello = json.loads(self.process.stdout.readline())
        if hello.get("type") != "hello":
            raise RuntimeError(f"ddplab-engine runs did not say hello: {hello}")

    def train(self, config):
        start = time.perf_counter()
        self.process.stdin.write(json.dumps({"config": config}) + "\n")
        self.process.stdin.flush()
        summary, error = None, None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("ddplab-engine runs ended in the middle of a run")
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            kind = event.get("type")
            if kind == "summary":
                summary = event
            elif kind == "error":
                error = event.get("message")
            elif kind == "run_end":
                break
        field = "val_loss" if config.get("val_data") else "train_loss"
        value = summary.get(field) if summary else None
        measure = float(value) if isinstance(value, (int, float)) and math.isfinite(value) else math.inf
        if error and "diverg" not in error and "not finite" not in error and "NaN" not in error:
            raise RuntimeError(f"a panel run failed: {error}")
        return {"measure": measure, "seconds": time.perf_counter() - start,
                "steps": summary.get("steps") if summary else None, "error": error}

    def close(self):
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait()


class Trainer:
    """Cached runs: `measure(config)` answers from the cache, else trains through the engine (started
    the first time it is needed) and keeps the answer.

    A run kept from another engine commit counts when that model has been checked: after the engine
    changes, the first kept run of each model is trained again, and if the engine gives its number
    again (SAME_NUMBERS), every kept run of that model stands; if not, they are trained again as they
    are asked for. An engine change costs one run a model, unless it changes the numbers."""

    def __init__(self, engine, cache, commit, env=None):
        self.engine, self.cache, self.commit, self.env = engine, cache, commit, env
        self.identities = {}  # file path -> what it holds (panel_models.write_model says)
        self.runs = None
        self.trained = 0
        self.train_seconds = 0.0

    def keyed(self, config):
        return {k: (self.identities[v] if k in FILE_KEYS else v) for k, v in config.items()}

    def has(self, config):
        """Whether a run of this config is kept (from any engine commit); trains nothing."""
        return self.cache.get(self.keyed(config)) is not None

    def measure(self, config):
        keyed = self.keyed(config)
        record = self.cache.get(keyed)
        if record is None or not self.still_true(record, config):
            record = self.train(config, keyed)
        return record["measure"]

    def train(self, config, keyed):
        if self.runs is None:
            self.runs = EngineRuns(self.engine, self.env)
        result = self.runs.train(config)
        self.trained += 1
        self.train_seconds += result["seconds"]
        record = dict(result, batch=config["batch_size"] * config["world_size"] * config["grad_accum"], lr=config["lr"],
                      seed=config["seed"], config=keyed, engine_commit=self.commit)
        self.cache.put(record)
        return record

    def still_true(self, record, config):
        """Whether a kept run's number is this engine's: trained by it, or by one whose numbers it gives
        again for this model (checked once, on this very run)."""
        if record["engine_commit"] == self.commit:
            return True
        check = (record["config"]["model_file"], record["engine_commit"], self.commit)
        if check not in self.cache.checks:
            now = self.train(config, record["config"])["measure"]
            then = record["measure"]
            same = now == then or (math.isfinite(now) and math.isfinite(then) and abs(now / then - 1) <= SAME_NUMBERS)
            self.cache.put_check({"model": check[0], "from": check[1], "to": check[2], "same": same, "then": then,
                                  "now": now if math.isfinite(now) else None})
            return same
        return self.cache.checks[check]

    def close(self):
        if self.runs is not None:
            self.runs.close()
            self.runs = None
