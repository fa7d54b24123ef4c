#!/usr/bin/env python3
"""`ravel svcomp` on SV-COMP-style tasks written for these tests
(tests/svcomp/tasks: extern VERIFIER declarations, their own reach_error,
a preprocessed .i, __VERIFIER_error, unbounded thread creation,
no-data-race both ways). Each must get the verdict ravel can honestly
give: the task's expected verdict when ravel decides it, `unknown` where
only a bounded search is possible (threads created without bound), and
never `true` unless the search was exhaustive. An ILP32 task and bad
input are refused with one line and exit status 2.

usage: svcomp.py --ravel BIN --tasks DIR
"""
import argparse
import os
import re
import subprocess
import sys

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


# task, property, ravel's verdict, extra options
TASKS = [
    ("lost_update", "unreach-call", "false", []),
    ("mutex_counter", "unreach-call", "true", []),
    ("atomic_lock", "unreach-call", "true", []),
    ("atomic_alternate", "unreach-call", "false", []),
    ("handoff", "unreach-call", "true", []),
    ("verifier_error", "unreach-call", "false", []),
    # A section waits for a count written outside sections (racily): the
    # wait must end on that write once it is promoted.
    ("reader_count", "unreach-call", "false", []),
    ("nondet_types", "unreach-call", "false", []),
    # Unbounded thread creation: the error is unreachable, but ravel only
    # explores the program capped at 3 threads: it must not say true.
    ("spawn_forever", "unreach-call", "unknown", ["--max-threads", "3"]),
    # ... and a bug two threads show is found within the cap.
    ("spawn_race", "unreach-call", "false", ["--max-threads", "3", "--nondet-range", "1"]),
    ("racy_flag", "no-data-race", "false", []),
    ("locked_flag", "no-data-race", "true", []),
    ("locked_flag", "unreach-call", "true", []),
]


def svcomp(args, *argv):
    env = dict(os.environ)
    env.pop("RAVEL_OPTIONS", None)
    return subprocess.run([args.ravel, "svcomp"] + list(argv), capture_output=True, text=True,
                          timeout=300, env=env, cwd=args.tasks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--tasks", required=True)
    args = ap.parse_args()
    tickets = []
    for name, prop, want, extra in TASKS:
        p = svcomp(args, "--quiet", "--time", "30", "--property", prop, *extra, name + ".yml")
        lines = [l for l in p.stdout.splitlines() if l.startswith(name + ".yml: " + prop + ": ")]
        if not check(p.returncode == 0 and len(lines) == 1,
                     "%s %s: exit %d, output %r %s" % (name, prop, p.returncode, p.stdout, p.stderr[-500:])):
            continue
        verdict = lines[0].split(": ")[2].split(" ")[0]
        check(verdict == want, "%s %s: verdict %s, want %s: %s" % (name, prop, verdict, want, lines[0]))
        if verdict == "true":
            check("exhausted" in lines[0] and "cut short" not in lines[0] and "but" not in lines[0],
                  "%s: true without an exhaustive search: %s" % (name, lines[0]))
        m = re.search(r"replay: ravel replay (\S+)\)", lines[0])
        if verdict == "false" and check(m, "%s: no ticket in %s" % (name, lines[0])):
            tickets.append((name, m.group(1)))
    # A violation's ticket replays to the same failure.
    for name, t in tickets[:3]:
        r = subprocess.run([args.ravel, "replay", t], capture_output=True, text=True, timeout=120)
        check(r.returncode == 1 and "BUG" in r.stderr, "%s: replay of %s: %s" % (name, t, r.stderr[-400:]))
    for name, t in tickets:
        d = os.path.dirname(os.path.dirname(t))
        if d.startswith("/tmp/ravel-svcomp."):
            subprocess.run(["rm", "-rf", d])
    # Refused with one line.
    for argv, what in ((["ilp32.yml"], "ILP32"), (["missing.yml"], "missing.yml"),
                       (["--property", "termination", "mutex_counter.yml"], "termination"),
                       (["--no-such-flag", "mutex_counter.yml"], "no-such-flag"), ([], "no task")):
        p = svcomp(args, *argv)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and what in p.stderr,
              "svcomp %s: want one line naming %s and exit 2, got %d: %r" % (argv, what, p.returncode, p.stderr))
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("svcomp: %d tasks, all verdicts right" % len(TASKS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
