#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""An independent reader of the TensorBoard files DDP Lab writes, exported by the window or written
by the engine under tensorboard_dir (tests/ui/tst_tensorboard_export).

No TensorBoard code: the .proto definitions under tests/tools/tensorboard_proto/ (minimal copies
of TensorBoard's own, see their headers) are compiled here with protoc into a temporary folder
and read with Debian's python3-protobuf; every record's two CRCs are checked with python3-crc32c.

  read_tensorboard.py EXPORT_DIR [--compare FOLDER=RUN_DIR]...

Prints one JSON object:
  files        {path relative to EXPORT_DIR: {records, bad_crcs, file_version, header_wall_time,
                scalars (count), tags, groups {group: [tags]} (TensorBoard's cards: the tags by
                what comes before their first "/"), session_start {hparams, group_name},
                session_end {status}, experiment {hparam_infos, metric_infos}}}
  comparisons  {FOLDER: {compared, mismatches [...], extra}}: the scalars of EXPORT_DIR/FOLDER's event
               file against what RUN_DIR's events.jsonl and meta.json say they must be, read here
               by this script's own rules and its own copy of the tag table (docs/tensorboard.md),
               every value as a float32. A RUN_DIR without meta.json is an engine's run
               (tensorboard_dir, its --events file as RUN_DIR/events.jsonl): its start is the
               wall time of its file's first record.
Exit code 0 when it could read everything (mismatches are reported, not fatal), 2 otherwise.
"""

import argparse
import datetime
import glob
import json
import math
import os
import struct
import subprocess
import sys
import tempfile

import crc32c
from google.protobuf.message import DecodeError

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_ROOT = os.path.join(HERE, "tensorboard_proto")
MASK_DELTA = 0xA282EAD8


def masked(data):
    crc = crc32c.crc32c(data)
    return (((crc >> 15) | (crc << 17)) + MASK_DELTA) & 0xFFFFFFFF


def compile_protos(into):
    protos = sorted(glob.glob(os.path.join(PROTO_ROOT, "**", "*.proto"), recursive=True))
    subprocess.run(["protoc", "-I", PROTO_ROOT, "--python_out=" + into] + protos, check=True)
    sys.path.insert(0, into)


def records(path):
    """(data, crcs_ok) for every record of a TFRecord file."""
    with open(path, "rb") as f:
        blob = f.read()
    at = 0
    while at < len(blob):
        if len(blob) - at < 12:
            raise ValueError("%s: a cut-off record header at byte %d" % (path, at))
        header = blob[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (length_crc,) = struct.unpack("<I", blob[at + 8:at + 12])
        data = blob[at + 12:at + 12 + length]
        if len(data) != length or len(blob) < at + 16 + length:
            raise ValueError("%s: a cut-off record at byte %d" % (path, at))
        (data_crc,) = struct.unpack("<I", blob[at + 12 + length:at + 16 + length])
        yield data, masked(header) == length_crc and masked(data) == data_crc
        at += 16 + length


def struct_value(value):
    kind = value.WhichOneof("kind")
    return getattr(value, kind) if kind else None


def read_file(path, event_pb2, plugin_data_pb2, api_pb2):
    out = {"records": 0, "bad_crcs": 0, "file_version": None, "scalars": 0, "tags": [], "points": []}
    tags = set()
    for index, (data, crc_ok) in enumerate(records(path)):
        out["records"] += 1
        if not crc_ok:
            out["bad_crcs"] += 1
            continue  # its bytes are not what was written: nothing in it is read
        event = event_pb2.Event.FromString(data)
        if index == 0:
            out["file_version"] = event.file_version if event.HasField("file_version") else None
            out["header_wall_time"] = event.wall_time
        if not event.HasField("summary"):
            continue
        for value in event.summary.value:
            plugin = value.metadata.plugin_data
            if plugin.plugin_name == "hparams":
                info = plugin_data_pb2.HParamsPluginData.FromString(plugin.content)
                which = info.WhichOneof("data")
                entry = {"version": info.version, "tag": value.tag,
                         "tensor_dtype": value.tensor.dtype if value.HasField("tensor") else None}
                if which == "experiment":
                    e = info.experiment
                    entry["description"] = e.description
                    entry["hparam_infos"] = [
                        {"name": h.name, "type": api_pb2.DataType.Name(h.type), "differs": h.differs,
                         "values": [struct_value(v) for v in h.domain_discrete.values]}
                        for h in e.hparam_infos]
                    entry["metric_infos"] = [
                        {"group": m.name.group, "tag": m.name.tag, "display_name": m.display_name,
                         "dataset_type": api_pb2.DatasetType.Name(m.dataset_type)}
                        for m in e.metric_infos]
                elif which == "session_start_info":
                    s = info.session_start_info
                    entry["hparams"] = {k: struct_value(v) for k, v in s.hparams.items()}
                    entry["group_name"] = s.group_name
                    entry["start_time_secs"] = s.start_time_secs
                elif which == "session_end_info":
                    entry["status"] = api_pb2.Status.Name(info.session_end_info.status)
                out[which] = entry
            elif value.WhichOneof("value") == "simple_value":
                out["scalars"] += 1
                tags.add(value.tag)
                out["points"].append((value.tag, event.step, value.simple_value, event.wall_time))
    out["tags"] = sorted(tags)
    # TensorBoard's Scalars tab groups a run's tags by what comes before the first "/".
    out["groups"] = {}
    for tag in out["tags"]:
        out["groups"].setdefault(tag.split("/", 1)[0], []).append(tag)
    return out


FLOAT32_MAX = 3.4028234663852886e38

# docs/tensorboard.md's table, kept here on its own: the tag each number of an event is written
# under ("" for a number that is not written); a step, eval, epoch or summary number the table does
# not name goes under "<type>/<field>", any other event's numbers are not written.
TAGS = {
    "step": {"step": "", "loss": "loss/train", "train_loss": "loss/train_set", "accuracy": "accuracy/train",
             "train_accuracy": "accuracy/train_set", "lr": "lr/step", "effective_batch": "batch/effective",
             "samples": "batch/samples", "gain": "batch/adascale_gain", "tau": "batch/adascale_tau",
             "noise_scale": "noise/scale", "update_var": "noise/update_var",
             "update_var_estimate": "noise/update_var_estimate", "update_mean": "noise/update_mean",
             "grad_norm": "noise/grad_norm", "w_mean": "weight/mean", "samples_per_sec": "throughput/step",
             "data_ms": "time/data_ms", "compute_ms": "time/compute_ms", "comm_ms": "time/comm_ms",
             "optimizer_ms": "time/optimizer_ms", "step_ms": "time/step_ms", "wall_s": "time/wall_s",
             "epoch": "epoch/current"},
    "eval": {"step": "", "epoch": "", "val_loss": "loss/val", "val_accuracy": "accuracy/val", "samples": "eval/samples"},
    "epoch": {"step": "", "epoch": "", "loss": "loss/epoch", "accuracy": "accuracy/epoch",
              "samples_per_sec": "throughput/epoch", "train_s": "time/epoch_train_s", "steps": "epoch/steps",
              "samples": "epoch/samples"},
    "summary": {},
    "config": {"effective_batch_size": "batch/effective", "lr_effective": "lr/effective"},
}


def tag_of(kind, name):
    table = TAGS.get(kind)
    if table is None:
        return ""
    if name in table:
        return table[name]
    return "" if kind == "config" else kind + "/" + name


def float32(x):
    """x as TensorBoard keeps a scalar; a finite x beyond float32's range is written as the largest
    float32 of its sign (docs/tensorboard.md)."""
    if abs(x) > FLOAT32_MAX:
        return math.copysign(FLOAT32_MAX, x)
    return struct.unpack("<f", struct.pack("<f", x))[0]


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def valid_step(v):
    return is_number(v) and 0 <= v <= 9e15 and v == int(v)


def run_start(run_dir, header_wall):
    """The run's start as docs/tensorboard.md says: meta.json's `started`, else the local time its
    id (the folder's name, yyyyMMdd-HHmmss-zzz) names, else 0; a folder without meta.json (an
    engine's run: events.jsonl alone) starts where its file's first record says."""
    meta_path = os.path.join(run_dir, "meta.json")
    if not os.path.exists(meta_path):
        return header_wall
    with open(meta_path) as f:
        started = json.load(f).get("started")
    if started:
        return datetime.datetime.fromisoformat(started).timestamp()
    try:
        named = datetime.datetime.strptime(os.path.basename(os.path.normpath(run_dir))[:19], "%Y%m%d-%H%M%S-%f")
        return named.timestamp()
    except ValueError:
        return 0.0


def expected_points(run_dir, header_wall):
    """(tag, step, value, wall_time) as docs/tensorboard.md says the writer writes them."""
    start = run_start(run_dir, header_wall)
    points = []
    walls = []  # (step, wall) of every step event taken, in order
    summed_step_s = 0.0
    config_seen = False
    with open(os.path.join(run_dir, "events.jsonl")) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue  # a cut-off last line
            kind = event.get("type")
            if kind == "config":
                if config_seen:
                    continue
                config_seen = True
                at = int(event["resumed_step"]) if valid_step(event.get("resumed_step")) else 0
                for name, value in event.items():
                    if tag_of(kind, name) and is_number(value):
                        points.append((tag_of(kind, name), at, value, start))
                continue
            if kind == "summary":
                step = walls[-1][0] if walls else 0
            elif kind in ("step", "eval", "epoch"):
                if not valid_step(event.get("step")):
                    continue
                step = int(event["step"])
            else:
                continue
            if kind == "step":
                if walls and step <= walls[-1][0]:
                    continue  # steps only grow
                if is_number(event.get("step_ms")) and event["step_ms"] > 0:
                    summed_step_s += event["step_ms"] / 1000.0
                wall = event["wall_s"] if is_number(event.get("wall_s")) and event["wall_s"] >= 0 else summed_step_s
                walls.append((step, wall))
            at = [w for s, w in walls if s <= step]
            wall = start + (at[-1] if at else 0.0)
            for name, value in event.items():
                tag = tag_of(kind, name)
                if tag and is_number(value):
                    points.append((tag, step, value, wall))
    return points


def compare(actual, expected):
    """Every expected value in `actual` and nothing else, but the study's figures (study/*): those
    are no field of events.jsonl, and are reported as `extra` {tag: value} for the test to check."""
    mismatches = []
    have = {}
    extra = {}
    for tag, step, value, wall in actual:
        if tag.startswith("study/"):
            extra[tag] = value
            continue
        have.setdefault((tag, step), []).append((value, wall))
    for tag, step, value, wall in expected:
        got = have.get((tag, step))
        if not got:
            mismatches.append("%s at step %d: missing" % (tag, step))
            continue
        value_got, wall_got = got.pop(0)
        if value_got != float32(value):
            mismatches.append("%s at step %d: %r, expected %r" % (tag, step, value_got, float32(value)))
        if abs(wall_got - wall) > 1e-5:
            mismatches.append("%s at step %d: wall time %r, expected %r" % (tag, step, wall_got, wall))
    for (tag, step), left in have.items():
        for _ in left:
            mismatches.append("%s at step %d: not in events.jsonl" % (tag, step))
    return {"compared": len(expected), "mismatches": mismatches, "extra": extra}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("export_dir")
    parser.add_argument("--compare", action="append", default=[], metavar="FOLDER=RUN_DIR")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as generated:
        compile_protos(generated)
        from tensorboard.compat.proto import event_pb2
        from tensorboard.plugins.hparams import api_pb2, plugin_data_pb2

        files = {}
        for path in sorted(glob.glob(os.path.join(args.export_dir, "**", "events.out.tfevents.*"), recursive=True)):
            files[os.path.relpath(path, args.export_dir)] = read_file(path, event_pb2, plugin_data_pb2, api_pb2)
    comparisons = {}
    for pair in args.compare:
        folder, run_dir = pair.split("=", 1)
        found = [f for rel, f in files.items() if os.path.dirname(rel) == folder]
        if len(found) != 1:
            comparisons[folder] = {"compared": 0, "mismatches": ["%d event files in %s" % (len(found), folder)]}
            continue
        comparisons[folder] = compare(found[0]["points"], expected_points(run_dir, found[0].get("header_wall_time", 0.0)))
    for f in files.values():
        del f["points"]
    json.dump({"files": files, "comparisons": comparisons}, sys.stdout, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (OSError, ValueError, subprocess.CalledProcessError, DecodeError) as error:
        print("read_tensorboard: %s" % error, file=sys.stderr)
        sys.exit(2)
