#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""One Debian python3 that has imported torch, forking each Python program a suite runs
(tests/support/forked_python.hpp; the suites that run Python programs, tst_pytorch_script first).

Usage: forked_python.py   (requests on stdin, answers on stdout, one JSON object a line)

Each `import torch` costs about 2 s of CPU; a suite that starts 40 Python programs spends 80 s
on it. This process imports torch and numpy once, says {"ready": true, "torch": VERSION}, then for
each request {"processes": [{"argv": [PROGRAM, ARG...], "env": {NAME: VALUE}}...], "timeout_s": S}
forks one child per process, all at once (the ranks of one script meet each other), and answers
{"processes": [{"code": EXIT, "stdout": TEXT, "stderr": TEXT}...], "timed_out": BOOL} when every
child has ended. As torchrun's agent does, the first to fail ends the others (code -9, so a rank
never waits out its collectives' timeout for a peer that is gone); so do S seconds ("timed_out").

A child runs PROGRAM as `python3 PROGRAM ARG...` would, with the environment's additions: sys.argv
is [PROGRAM, ARG...], sys.path[0] PROGRAM's folder, __name__ "__main__", stdin /dev/null, its
stdout and stderr its own files; its exit code is what SystemExit says (1 after an uncaught
exception, whose traceback goes to stderr), or what os._exit gives. The only differences from a
fresh interpreter: torch and what it imports are imported already, and nothing of them has run
(this process runs no tensor operation, so no thread pool exists to be forked).
"""
import json
import os
import runpy
import signal
import sys
import tempfile
import time
import traceback

import numpy  # noqa: F401  (torch imports it too; imported here so that a missing numpy says so at once)
import torch


def child(argv, env, stdout_fd, stderr_fd):
    """In the forked child: becomes `python3 ARGV...`; never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(stdout_fd, 1)
        os.dup2(stderr_fd, 2)
        os.environ.update(env)
        sys.argv = list(argv)
        sys.path[0] = os.path.dirname(os.path.abspath(argv[0]))
        try:
            runpy.run_path(argv[0], run_name="__main__")
            code = 0
        except SystemExit as e:
            if e.code is None:
                code = 0
            elif isinstance(e.code, int):
                code = e.code
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF)


def run(request, folder):
    """Forks the request's processes, waits for them (or kills them at its timeout); the answer."""
    started = []
    sys.stdout.flush()
    for i, process in enumerate(request["processes"]):
        out = os.open(os.path.join(folder, f"{i}.out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(os.path.join(folder, f"{i}.err"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        pid = os.fork()
        if pid == 0:
            child(process["argv"], process.get("env", {}), out, err)
        try:
            os.setpgid(pid, pid)  # as the child does: either one first, no kill misses it
        except OSError:
            pass
        os.close(out)
        os.close(err)
        started.append(pid)
    codes = {}
    deadline = time.monotonic() + float(request.get("timeout_s", 240))
    timed_out = False
    while len(codes) < len(started):
        for pid in started:
            if pid in codes:
                continue
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                codes[pid] = os.waitstatus_to_exitcode(status)
        if len(codes) < len(started):
            failed = any(code != 0 for code in codes.values())  # as torchrun's agent, which stops the other ranks
            if failed or time.monotonic() > deadline:
                timed_out = not failed
                for pid in started:
                    if pid not in codes:
                        try:
                            os.killpg(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                for pid in started:
                    if pid not in codes:
                        codes[pid] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
            else:
                time.sleep(0.05)
    answers = []
    for i, pid in enumerate(started):
        texts = {}
        for stream in ("out", "err"):
            with open(os.path.join(folder, f"{i}.{stream}"), encoding="utf-8", errors="replace") as f:
                texts[stream] = f.read()
        answers.append({"code": codes[pid], "stdout": texts["out"], "stderr": texts["err"]})
    return {"processes": answers, "timed_out": timed_out}


def main():
    print(json.dumps({"ready": True, "torch": torch.__version__}), flush=True)
    with tempfile.TemporaryDirectory(prefix="forked-python-") as folder:
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(run(json.loads(line), folder)), flush=True)


if __name__ == "__main__":
    main()
