# SPDX-License-Identifier: GPL-3.0-or-later
"""The advisor panel's tables (bench/advisor_panel.py): per model the truth, the advice and Optuna
side by side, the truth batch by batch, the calibration of the advice's confidence, and whether
the issue's bar is met; as markdown for docs/benchmarks.md, docs/advisor.md and the interim status."""
import datetime
import math

import panel_truth
from bench_common import machine_line
from panel_engine import GPUS, steps_at


def lr_text(lr):
    return f"{lr:.3g}"


def percent(value, signed=True):
    if not math.isfinite(value):
        return "diverged" if value > 0 else "–"
    text = f"{100 * value:+.1f} %" if signed else f"{100 * value:.1f} %"
    # A difference that rounds to zero has no sign ("-0.0 %" read as a loss), as the advice's own words.
    return "0.0 %" if text in ("+0.0 %", "-0.0 %") else text


def band_text(band):
    edge = " (grid's edge)" if band["at_edge"] else ""
    return f"{lr_text(band['low'])}–{lr_text(band['high'])}{edge}"


def right_text(table):
    return "{" + ", ".join(str(b) for b in table["right_set"]) + "}"


def base_text(base):
    settings = [f"1 × {base['batch_size']}", base["optimizer"], f"lr {lr_text(base['lr'])}"]
    settings += [f"{key} {base[key]:g}" for key in ("momentum", "weight_decay") if base.get(key)]
    settings += ["nesterov"] if base.get("nesterov") else []
    return ", ".join(settings) + f", {base['epochs']} epochs"


def summary_table(results):
    lines = ["| model | base (1 GPU) | horizon | batches measured | right batch set (best) | advice: batch, LR | batch verdict | "
             "LR band at its batch (truth) | LR regret | confidence | advice's time | Optuna: trials, batch, LR | "
             "held-out loss: advice / Optuna |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        t = r["truth"]
        row = [f"`{r['model']}`", base_text(r["base"]), f"{r['planned_samples']:,}", f"{t['rows'][0]['batch']}–{t['rows'][-1]['batch']}",
               f"{right_text(t)} ({t['best_batch']})"]
        if "advice" in r:
            a = r["advice"]
            row += [f"8 × {a['batch_per_gpu']} = {a['batch']}, {lr_text(a['lr'])}" + (", warmup" if a["warmup_steps"] else ""),
                    r["verdict"], band_text(r["advised_band"]) if r["advised_band"] else "–", percent(r["lr_regret"]["regret"]),
                    a["confidence"],
                    f"{a['wall_s']:.0f} s"]
        else:
            row += ["not run"] + [""] * 5
        if "optuna" in r:
            o = r["optuna"]
            row += [f"{o['trials']}, {o['batch']}, {lr_text(o['lr'])}",
                    f"{r['advice_held_out']:.4g} / {o['held_out']:.4g} {'(advice)' if r['advice_wins'] else '(Optuna)'}"]
        else:
            row += ["not run", ""]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def truth_table(result):
    lines = [f"**`{result['model']}`** ({result['what']}; {result['samples']:,} training samples, horizon "
             f"{result['planned_samples']:,} samples):", "",
             "| batch (8 × per GPU) | steps | best LR | mean ± s.e. | excess over the best batch | LR band (±2 %) | right |",
             "|---|---|---|---|---|---|---|"]
    for row in result["truth"]["rows"]:
        error = panel_truth.standard_error(row["seeds"].values()) if "seeds" in row else row["best_se"]
        lines.append(f"| {row['batch']} (8 × {row['batch'] // GPUS}) | {steps_at(result['planned_samples'], row['batch'])} | "
                     f"{lr_text(row['best_lr'])} | {row['best']:.4g} ± {error:.2g} | {percent(row['excess'])} ± "
                     f"{100 * row['excess_se']:.1f} | {band_text(row['band'])} | "
                     f"{'yes' if row['right'] else 'within noise' if row['within_noise'] else 'no'} |")
    return "\n".join(lines)


def calibration_table(results):
    cases = [{"confidence": r["advice"]["confidence"], "verdict": judged(r)[0], "regret": judged(r)[1]}
             for r in results if "advice" in r]
    lines = ["| confidence | cases | batch right | LR regret ≤ 2 % | both |", "|---|---|---|---|---|"]
    for level in ("high", "moderate", "low"):
        c = panel_truth.calibration(cases).get(level)
        if c:
            lines.append(f"| {level} | {c['cases']} | {c['batch_right']} of {c['cases']} | {c['lr_within']} of {c['cases']} | "
                         f"{c['both']} of {c['cases']} ({100 * c['both'] / c['cases']:.0f} %) |")
    return "\n".join(lines)


def weakness_rows(results):
    """The calibration table the advisor reads (ui/client/advisor/confidence.cpp, panelCalibration()):
    per count of the advice's weaknesses, the panel's cases and those with the batch right and the LR
    regret at most 2 %; the last row holds that count or more."""
    by_count = {}
    for r in results:
        if "advice" not in r:
            continue
        count = len(r["advice"].get("weaknesses", []))
        row = by_count.setdefault(count, {"weaknesses": count, "cases": 0, "right": 0})
        row["cases"] += 1
        row["right"] += judged(r)[0] == "right" and judged(r)[1] <= panel_truth.LR_BAND
    return [by_count[c] for c in sorted(by_count)]


def weakness_table(results):
    lines = ["| weaknesses | panel cases | batch right and LR regret ≤ 2 % |", "|---|---|---|"]
    rows = weakness_rows(results)
    for i, row in enumerate(rows):
        count = f"{row['weaknesses']}" + (" or more" if i == len(rows) - 1 and len(rows) > 1 else "")
        lines.append(f"| {count} | {row['cases']} | {row['right']} ({100 * row['right'] / row['cases']:.0f} %) |")
    return "\n".join(lines)


def judged(r):
    """(verdict, regret, advice_wins or None) as the panel counts them: on the decisive seeds where
    the panel measured them (advisor_panel.decisive_truth), else on the truth's."""
    d = r.get("decisive")
    if d:
        return d["verdict"], d["regret"], d.get("advice_wins")
    return r["verdict"], r["lr_regret"]["regret"], r.get("advice_wins")


def done_when(results):
    advised = [r for r in results if "advice" in r]
    both = [r["model"] for r in advised if judged(r)[0] == "right" and judged(r)[1] <= panel_truth.LR_BAND]
    compared = [r for r in results if "optuna" in r]
    wins = [r["model"] for r in compared if judged(r)[2]]
    seeds = sorted({len(r["decisive"]["seeds"]) for r in advised if r.get("decisive")})
    on = f" (on {', '.join(map(str, seeds))} held-out seeds where the decision is made)" if seeds else ""
    return (f"Batch right and LR regret ≤ 2 %{on}: **{len(both)} of {len(advised)}** models ({', '.join(both) or 'none'}; the "
            f"issue asks for 7 of 8). The advice's held-out loss at most Optuna's at equal wall time: **{len(wins)} of "
            f"{len(compared)}** ({', '.join(wins) or 'none'}; the issue asks for 6 of 8).")


def decisive_table(results):
    """The judgement on the decisive seeds beside the truth's own seeds'."""
    lines = ["| model | seeds | LR rungs at its batch | batch verdict (excess over the best batch ± s.e.) | LR band at its batch | "
             "LR regret ± paired s.e. (on the truth's seeds) | held-out loss: advice / Optuna (on the truth's seeds) |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        d = r.get("decisive")
        if not d:
            continue
        held = "–"
        if "optuna_held_out" in d:
            held = (f"{d['advice_held_out']:.4g} / {d['optuna_held_out']:.4g} {'(advice)' if d['advice_wins'] else '(Optuna)'} "
                    f"({r['advice_held_out']:.4g} / {r['optuna']['held_out']:.4g})")
        lines.append(f"| `{r['model']}` | {len(d['seeds'])} | {d['lrs']} | {d['verdict']} ({percent(d['excess'])} ± "
                     f"{100 * d['excess_se']:.1f}) | {band_text(d['band'])} | {percent(d['regret'])} ± {100 * d['regret_se']:.1f} "
                     f"({percent(r['lr_regret']['regret'])}) | {held} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def record_note(results):
    """What a truth read from the record (bench/panel_record.py) is, and whether the engine still gives its numbers."""
    recorded = [r for r in results if r.get("truth_source") == "recorded"]
    if not recorded:
        return ""
    parts = []
    for r in recorded:
        check = r.get("record_check")
        load = r.get("advice", {}).get("load")
        said = f"`{r['model']}`"
        if check:
            said += (f" (its best LR at {check['batch']}, {lr_text(check['lr'])}, trained again on the four seeds: "
                     f"{check['remeasured']:.4g} where the record says {check['recorded']:.4g}, "
                     f"{'the same' if check['same'] else 'NOT the same'})")
        if load:
            said += f" (load {load[0]:g} before the advice, {load[1]:g} after)"
        parts.append(said)
    sources = sorted({r["truth_record"]["source"] for r in recorded})
    return ("**The truth of " + ", ".join(parts) + " is the recorded one** (bench/panel_truth_recorded.json: "
            + "; ".join(sources) + "): the batch verdict is the record's row; the LR regret is the advised settings "
            "retrained on the truth's seeds against the row's best mean.")


def report(results, grid, details=True):
    commits = sorted({r["advice"]["commit"] for r in results if "advice" in r})
    lines = [
        "## The advisor's ground-truth panel (issue 46)", "",
        f"`bench/advisor_panel.py` on {machine_line()}; the advisor measured at commit {', '.join(commits) or '(none)'}. "
        f"Eight models of a user's own (`bench/panel_models.py`), each from its base on 1 GPU to 8 GPUs, emulated as the advisor "
        f"emulates them (2 ranks × 4 micro-batches, `accumulate_as_ranks`). **Truth**: every effective batch from half the "
        f"base's up to where quality breaks, at each {grid.ladder} or more LRs {grid.step:.3g}× apart (extended past an "
        f"edge where the best sat) × {len(grid.seeds)} seeds ({', '.join(map(str, grid.seeds))}), every run at the user's "
        "horizon (their training's samples, equal at every batch), measured as the advisor measures: the validation loss "
        "at the end. The truth keeps the user's other settings at every batch (Adam's β1, β2 and ε too, as Optuna does); "
        "the advice is retrained as it recommends them (its LR, warmup and, for Adam, the SDE rule's moments), so its "
        "regret counts what all of them do.",
        "",
        "Columns: **right batch set**: the batches whose best mean loss is within 2 % (the advisor's stated tolerance) of "
        "the best batch's, paired over the seeds (the best batch in brackets); **batch verdict**: the advised batch in it "
        "(`right`), outside it by less than two standard errors (`within noise`), or further (`wrong`); **LR band**: the "
        "truth's LRs within 2 % of its best at the advised batch; **LR regret**: the advised settings retrained at the "
        "horizon on the truth's seeds (never used by the advisor) against the truth's best LR there; **advice's time**: "
        "`ddplab --advise --gpus 8` (default budget, 5 min) wall time; **Optuna**: TPE (python3-optuna, seed 0) over batch "
        "per GPU (the truth's batches) × LR (log-uniform from the base's / 10 to × 80) on the user's seed, for the "
        "advice's own wall time, its best re-measured on the truth's seeds; **held-out loss**: the mean over those "
        "seeds of the advice's settings and of Optuna's best (the lower in brackets).", "",
        summary_table(results), "",
        "**Where the decision is made, on more held-out seeds** (the whole LR ladder at the advised batch and at the "
        "truth's best batch, the advice and Optuna's best on the same seeds; the counts below use these where they exist):",
        "", decisive_table(results), "", done_when(results), "", record_note(results), "",
        "Calibration: for each confidence the advice gave, how often its batch was right and its LR regret at most 2 %.", "",
        calibration_table(results), "",
        "By the count of the advice's weaknesses (what `panelCalibration()` holds; a count with fewer than 5 cases "
        "calibrates nothing):", "", weakness_table(results), ""]
    if details:
        lines += ["### The truth per model", ""]
        for r in results:
            lines += [truth_table(r), ""]
    else:
        lines += ["Each model's truth, batch by batch: docs/benchmarks.md, the same section."]
    return "\n".join(lines)


def status(results):
    """The short form for whoever is reworking the advisor: per model the truth and the advice."""
    lines = [f"# Advisor panel: interim figures ({datetime.datetime.now().isoformat(timespec='minutes')})", "",
             summary_table(results), "", decisive_table(results), "", done_when(results), "", calibration_table(results), "", weakness_table(results), ""]
    for r in results:
        lines += [truth_table(r), ""]
    return "\n".join(lines)
