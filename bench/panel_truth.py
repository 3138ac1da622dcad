# SPDX-License-Identifier: GPL-3.0-or-later
"""What the advisor panel (bench/advisor_panel.py) concludes from measured runs: pure functions of
numbers, no engine, so that a test can check each on runs whose answer it knows.

A grid is {effective batch: {lr: {seed: measure}}}: every LR at a batch ran with the same seeds, and
a seed is the same data order at every batch (the sampler's permutation depends on the seed and the
epoch only, and every batch trains the same samples), so differences are paired over seeds."""
import math

TOLERANCE = 0.02  # the advisor's stated tolerance (docs/advisor.md: max(2 %, its noise)): its floor
LR_BAND = 0.02    # an LR is in the band when its mean measure is within 2 % of the batch's best


def mean(values):
    values = list(values)
    return sum(values) / len(values) if values and all(math.isfinite(v) for v in values) else math.inf


def standard_error(values):
    values = list(values)
    if len(values) < 2 or not all(math.isfinite(v) for v in values):
        return math.inf
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1) / len(values))


def best_lr(at_batch):
    """{lr: {seed: measure}} -> (the LR of the lowest mean measure, that mean); ties: the smaller LR."""
    return min(((lr, mean(seeds.values())) for lr, seeds in at_batch.items()), key=lambda pair: (pair[1], pair[0]))


def lr_band(at_batch, within=LR_BAND):
    """The LRs whose mean measure is within `within` of the best at this batch: (lowest, highest),
    and whether the band reaches the grid's edge (then the true band may be wider)."""
    _, best = best_lr(at_batch)
    inside = sorted(lr for lr, seeds in at_batch.items() if mean(seeds.values()) <= best * (1 + within))
    ladder = sorted(at_batch)
    return {"low": inside[0], "high": inside[-1], "at_edge": inside[0] == ladder[0] or inside[-1] == ladder[-1]}


def paired_excess(mine, best):
    """Per-seed excess of `mine` over `best` ({seed: measure} each, over their common seeds):
    (mean of measure/best - 1, its standard error)."""
    seeds = sorted(set(mine) & set(best))
    ratios = [mine[s] / best[s] - 1 if math.isfinite(mine[s]) and best[s] > 0 else math.inf for s in seeds]
    return mean(ratios), standard_error(ratios)


def batch_table(grid, tolerance=TOLERANCE):
    """Per batch: its best LR and mean, the LR band, and its excess over the best batch (paired over
    seeds, with its standard error). `right` is the right batch set: excess within `tolerance`;
    `within_noise`: outside it, but by less than two standard errors."""
    rows = {}
    for batch, at_batch in grid.items():
        lr, value = best_lr(at_batch)
        rows[batch] = {"batch": batch, "best_lr": lr, "best": value, "band": lr_band(at_batch), "seeds": at_batch[lr]}
    top = min(rows.values(), key=lambda row: (row["best"], row["batch"]))
    for row in rows.values():
        excess, error = paired_excess(row["seeds"], top["seeds"])
        row.update(excess=excess, excess_se=error, right=excess <= tolerance,
                   within_noise=excess > tolerance and excess - 2 * error <= tolerance)
    return {"best_batch": top["batch"], "tolerance": tolerance, "rows": [rows[b] for b in sorted(rows)],
            "right_set": sorted(b for b, row in rows.items() if row["right"]),
            "largest_right": max(b for b, row in rows.items() if row["right"])}


def quality_broken(table, factor=5):
    """Whether the largest batch measured is past where quality breaks: its excess over the best is
    more than `factor` times the tolerance, beyond two standard errors."""
    last = table["rows"][-1]
    return last["excess"] - 2 * last["excess_se"] > factor * table["tolerance"]


def regret(advised, truth_at_batch):
    """The advised setting's regret at its batch: its mean measure over the seeds it shares with the
    truth's grid ({seed: measure}), over the grid's best mean at that batch, minus 1; and the grid's
    best LR there."""
    lr, _ = best_lr(truth_at_batch)
    seeds = sorted(set(advised) & set(truth_at_batch[lr]))
    best = min(mean(s[k] for k in seeds) for s in truth_at_batch.values())
    mine = mean(advised[k] for k in seeds)
    return {"regret": mine / best - 1 if math.isfinite(best) and best > 0 else math.nan, "advised": mine, "best": best,
            "best_lr": lr, "seeds": seeds}


def decisive(rows, advised_batch, advised, truth_best_batch, tolerance=TOLERANCE):
    """The judgement on more seeds where the decision is made: `rows` {batch: {lr: {seed: measure}}}
    holds the whole LR ladder, on the same seeds, at the advised batch, at the truth's best batch
    (`truth_best_batch`, from its fewer seeds) and at any other batch worth asking (Optuna's),
    `advised` the advised settings on them ({seed: measure}). The regret is the advised mean over
    the ladder's best mean at its batch, minus 1, with its paired standard error (per seed, the
    advised measure over the best LR's, minus 1); the band the LRs within LR_BAND of that best; the
    batch verdict the advised batch's best against the best batch *on these seeds* (the lowest best
    mean of the rows: four seeds can name a best batch that sixteen do not), paired over the seeds,
    as batch_table judges (right when `advised_batch` is that batch or within `tolerance` of it)."""
    at = rows[advised_batch]
    lr, best = best_lr(at)
    seeds = sorted(set(advised) & set(at[lr]))
    mine = mean(advised[s] for s in seeds)
    _, spread = paired_excess({s: advised[s] for s in seeds}, at[lr])
    best_batch = min(rows, key=lambda batch: (best_lr(rows[batch])[1], batch))
    out = {"seeds": seeds, "regret": mine / best - 1 if math.isfinite(best) and best > 0 else math.nan,
           "regret_se": spread, "advised": mine, "best": best, "best_lr": lr, "band": lr_band(at),
           "lrs": len(at), "batch": advised_batch, "best_batch": best_batch, "truth_best_batch": truth_best_batch,
           "batches": sorted(rows)}
    if best_batch == advised_batch:
        excess, error = 0.0, 0.0
    else:
        other_lr, _ = best_lr(rows[best_batch])
        excess, error = paired_excess(at[lr], rows[best_batch][other_lr])
    out.update(excess=excess, excess_se=error,
               verdict="right" if excess <= tolerance else "within noise" if excess - 2 * error <= tolerance else "wrong")
    return out


def verdict(batch, table):
    """The batch verdict: 'right' (in the right set), 'within noise' (outside by less than two standard
    errors), 'wrong', or 'not measured' (a batch the truth has no row for)."""
    row = next((r for r in table["rows"] if r["batch"] == batch), None)
    if row is None:
        return "not measured"
    return "right" if row["right"] else "within noise" if row["within_noise"] else "wrong"


def calibration(cases, within=LR_BAND):
    """Per confidence level the advice gave: how many cases, how often its batch was right, its LR
    regret at most `within`, and both. `cases`: [{confidence, verdict, regret}]."""
    levels = {}
    for case in cases:
        level = levels.setdefault(case["confidence"], {"cases": 0, "batch_right": 0, "lr_within": 0, "both": 0})
        batch_right = case["verdict"] == "right"
        lr_within = math.isfinite(case["regret"]) and case["regret"] <= within
        level["cases"] += 1
        level["batch_right"] += batch_right
        level["lr_within"] += lr_within
        level["both"] += batch_right and lr_within
    return levels
