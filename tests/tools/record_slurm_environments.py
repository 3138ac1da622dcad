#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Records the environment real Slurm gives each task of a few srun layouts, for
tests/engine/tst_worker_identity (tests/data/slurm_environments.json). Needs a running Slurm
with three nodes of 4 CPUs and 2 GPUs each (gres), as tests/support/test_slurm.cpp starts one;
SLURM_CONF must name its slurm.conf.

    SLURM_CONF=/tmp/.../slurm.conf tests/tools/record_slurm_environments.py > tests/data/slurm_environments.json
"""
import json
import os
import subprocess
import sys
import tempfile

KEEP = ("SLURM_", "SLURMD_", "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL")
DROP = ("SLURM_CONF", "SLURM_SUBMIT_DIR", "SLURM_TASK_PID", "SLURM_SRUN_COMM_PORT", "SLURM_STEP_LAUNCHER_PORT")

# (name, srun arguments, whether each task's GPU is its own). Under sbatch, the step runs in a
# bigger allocation than it uses.
CASES = [
    ("one node, 2 tasks", ["-N1", "-n2"], False),
    ("two nodes, 4 tasks, no --ntasks-per-node", ["-N2", "-n4"], False),
    ("two nodes, 3 tasks, no --ntasks-per-node (uneven)", ["-N2", "-n3"], False),
    ("two nodes, --ntasks-per-node 2", ["-N2", "--ntasks-per-node", "2"], False),
    ("three nodes, 11 tasks: 4(x2),3", ["-N3", "-n11"], False),
    ("two nodes, 4 tasks, --gpus-per-task 1", ["-N2", "-n4", "--gpus-per-task", "1"], True),
    ("one node, 2 tasks sharing --gres gpu:2", ["-N1", "-n2", "--gres", "gpu:2"], False),
    ("one node, 2 tasks, --gpus 2 --gpu-bind single:1", ["-N1", "-n2", "--gpus", "2", "--gpu-bind", "single:1"], True),
]


def read_tasks(folder):
    tasks = []
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "rb") as file:
            variables = dict(item.split("=", 1) for item in file.read().decode().split("\0") if "=" in item)
        tasks.append(dict(sorted((k, v) for k, v in variables.items() if k.startswith(KEEP) and k not in DROP)))
    return sorted(tasks, key=lambda t: int(t["SLURM_PROCID"]))


def record(arguments):
    """Each task writes its environment to a file of its own (srun -o FOLDER/%t)."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["srun", "-o", folder + "/%t"] + arguments + ["env", "-0"], check=True, timeout=60)
        return read_tasks(folder)


def record_in_batch_job(allocation, arguments):
    with tempfile.TemporaryDirectory() as folder:
        script = f"#!/bin/sh\nexec srun -o {folder}/%t {' '.join(arguments)} env -0\n"
        subprocess.run(["sbatch", "--wait", "-o", "/dev/null"] + allocation, input=script.encode(), stdout=subprocess.DEVNULL,
                       check=True, timeout=120)
        return read_tasks(folder)


def main():
    cases = []
    for name, arguments, own in CASES:
        cases.append({"name": name, "command": " ".join(["srun"] + arguments), "gpu_bound_per_task": own,
                      "tasks": record(arguments)})
        print(f"recorded: {name}", file=sys.stderr)
    # A step on part of a batch job's allocation: SLURM_NODEID and the counts are the step's.
    arguments = ["-N2", "-n3", "--relative=1"]
    cases.append({"name": "sbatch -N3 --ntasks-per-node=4, step on nodes 2-3 with 3 tasks",
                  "command": "sbatch -N3 --ntasks-per-node=4: srun " + " ".join(arguments), "gpu_bound_per_task": False,
                  "tasks": record_in_batch_job(["-N3", "--ntasks-per-node=4"], arguments)})
    json.dump({"recorded_with": "Slurm 22.05 (Debian 12), tests/tools/record_slurm_environments.py", "cases": cases},
              sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
