#!/usr/bin/env python3
"""pbt.py - end-to-end tests of property-based testing (docs/pbt.md).

Groups (one ctest each):
  find         each buggy example fails within 100 tests at seed 1, with
               the failure kind expected, and shrinks to a counterexample
               within the stated size
  determinism  the same seed twice gives the same counterexample and a
               byte-identical trace
  replay       the failure's replay ticket shows it failing again, once
  fixed        the corrected examples pass 1,000 tests (random mode) and
               100 tests explored exhaustively
  sequential   --branches 0: sequential tests (the registry's kill bug
               needs no parallelism and is found; the fixed one passes)
  badargs      bad arguments: one line on stderr, exit status 2
  run          through `ravel run`: options before the program
               (RAVEL_OPTIONS) and after it (its arguments) both apply
  failures     test cases that crash the process or deadlock are shrunk
               too (the driver resumes in a new executor after a crash)
               and reported as the crash or deadlock, with the
               counterexample, and their tickets replay them
  race         a plain-long counter: its data race is reported, then,
               the racing accesses made scheduling points, the lost
               update as a shrunk linearizability failure whose ticket
               replays it
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

FAILED = []


def check(cond, what):
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        FAILED.append(what)


def run(args, cwd, env=None):
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    if env:
        e.update(env)
    return subprocess.run(args, cwd=cwd, env=e, capture_output=True,
                          text=True, timeout=600)


def counterexample(err):
    """The counterexample block: (total, parallel, branch sizes, text)."""
    m = re.search(r"counterexample of (\d+) commands? \((\d+) in (\d+) "
                  r"branch", err)
    if not m:
        return None
    block = []
    sizes = []
    for line in err.splitlines():
        line = line.lstrip(" |")
        if line.startswith("ravel: property") and "counterexample" in line:
            block = [line]
            continue
        if block and not line.startswith("fails"):
            if line.startswith("branch"):
                sizes.append(0)
            elif line.startswith("$") and sizes:
                sizes[-1] += 1
            block.append(line)
        elif block:
            break
    return int(m.group(1)), int(m.group(2)), sizes, "\n".join(block)


# name -> (kinds accepted, most commands, most per branch)
BUGGY = {
    "pbt_counter": ({"linearizability"}, 3, 2),
    "pbt_queue": ({"linearizability"}, 4, 3),
    "pbt_registry": ({"linearizability", "postcondition"}, 8, 3),
}


def summary(out):
    return json.loads(out.strip().splitlines()[-1])


def group_find(a, tmp):
    for name, (kinds, most, per_branch) in BUGGY.items():
        for mode in ("random", "exhaustive"):
            r = run([os.path.join(a.exe_dir, name), "--seed", "1", "--tests",
                     "100", "--mode", mode, "--json"], tmp)
            check(r.returncode == 1, f"{name} {mode}: exit status 1 "
                  f"(got {r.returncode})")
            s = summary(r.stdout)
            check(s["result"] == "bug" and s["property"]["failed"],
                  f"{name} {mode}: fails")
            check(s["property"]["tests"] <= 100,
                  f"{name} {mode}: within 100 tests "
                  f"({s['property']['tests']})")
            check(s["bugs"][0]["kind"] in kinds,
                  f"{name} {mode}: kind {s['bugs'][0]['kind']}")
            ce = counterexample(r.stderr)
            check(ce is not None, f"{name} {mode}: counterexample shown")
            if ce:
                total, par, sizes, _ = ce
                check(total <= most, f"{name} {mode}: {total} commands "
                      f"<= {most}")
                check(all(n <= per_branch for n in sizes),
                      f"{name} {mode}: branches {sizes} <= {per_branch}")
                check(s["property"]["counterexample"]["commands"] == total,
                      f"{name} {mode}: JSON counterexample size")
            check("ravel: commands generated" in r.stderr,
                  f"{name} {mode}: statistics")
    # The counter's minimal case: two increments in parallel (and at
    # most a read).
    r = run([os.path.join(a.exe_dir, "pbt_counter"), "--seed", "1"], tmp)
    ce = counterexample(r.stderr)
    check(ce and ce[1] >= 2 and ce[3].count("incr()") == 2,
          "counter: two parallel increments")


def group_determinism(a, tmp):
    for name in BUGGY:
        outs = []
        for i in range(2):
            trace = os.path.join(tmp, f"{name}.{i}.trace")
            r = run([os.path.join(a.exe_dir, name), "--seed", "7",
                     "--trace", trace], tmp)
            ce = counterexample(r.stderr)
            with open(trace) as f:
                outs.append((ce[3] if ce else None, f.read()))
        check(outs[0][0] is not None and outs[0][0] == outs[1][0],
              f"{name}: same counterexample for the same seed")
        check(outs[0][1] == outs[1][1] and outs[0][1],
              f"{name}: byte-identical trace for the same seed")


def group_replay(a, tmp):
    for name in BUGGY:
        r = run([os.path.join(a.exe_dir, name), "--seed", "3", "--json"],
                tmp)
        s = summary(r.stdout)
        ticket = os.path.join(tmp, s["bugs"][0]["ticket"])
        ce = counterexample(r.stderr)
        rr = run([a.ravel, "replay", ticket], tmp)
        check(rr.returncode == 1, f"{name}: replay exits 1 "
              f"(got {rr.returncode})")
        check(f"BUG ({s['bugs'][0]['kind']})" in rr.stderr,
              f"{name}: replay shows the same kind of failure")
        rce = counterexample(rr.stderr)
        check(ce and rce and ce[3] == rce[3],
              f"{name}: replay shows the same counterexample")


def group_fixed(a, tmp):
    for name in BUGGY:
        exe = os.path.join(a.exe_dir, name + "_fixed")
        r = run([exe, "--seed", "1", "--tests", "1000", "--json"], tmp)
        s = summary(r.stdout)
        check(r.returncode == 0 and s["property"]["passed"] == 1000,
              f"{name}_fixed: 1000 random tests pass "
              f"(exit {r.returncode})")
        r = run([exe, "--seed", "2", "--tests", "100", "--mode",
                 "exhaustive", "--json"], tmp)
        s = summary(r.stdout)
        check(r.returncode == 0 and s["property"]["passed"] == 100,
              f"{name}_fixed: 100 exhaustive tests pass "
              f"(exit {r.returncode})")


def group_sequential(a, tmp):
    r = run([os.path.join(a.exe_dir, "pbt_registry"), "--seed", "1",
             "--branches", "0", "--tests", "300", "--json"], tmp)
    s = summary(r.stdout)
    check(r.returncode == 1 and s["bugs"][0]["kind"] == "postcondition",
          "registry, sequential: the kill bug is a postcondition failure")
    ce = counterexample(r.stderr)
    check(ce and ce[1] == 0, "registry, sequential: no parallel calls")
    for name in BUGGY:
        r = run([os.path.join(a.exe_dir, name + "_fixed"), "--seed", "1",
                 "--branches", "0", "--tests", "500"], tmp)
        check(r.returncode == 0 and "500 tests passed" in r.stderr,
              f"{name}_fixed, sequential: 500 tests pass")


def group_badargs(a, tmp):
    exe = os.path.join(a.exe_dir, "pbt_counter")
    for args in (["--mode", "sideways"], ["--branches", "5"],
                 ["--tests", "0"], ["--tests", "many"], ["--no-such"],
                 ["stray"], ["--seed"]):
        r = run([exe] + args, tmp)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and
              lines[0].startswith("ravel: error:"),
              f"bad arguments {args}: one line, exit 2 "
              f"(got {r.returncode}: {lines})")
    r = run([a.ravel, "run", "--mode", "sideways", "--", exe], tmp)
    check(r.returncode == 2, "ravel run --mode sideways: exit 2")


def group_run(a, tmp):
    exe = os.path.join(a.exe_dir, "pbt_counter_fixed")
    r = run([a.ravel, "run", "--tests", "20", "--seed", "3", "--json", "--",
             exe], tmp)
    s = summary(r.stdout)
    check(r.returncode == 0 and s["property"]["tests"] == 20 and
          s["seed"] == 3, "ravel run --tests 20 --seed 3 -- prog")
    r = run([a.ravel, "run", "--json", "--", exe, "--tests", "30",
             "--mode", "exhaustive"], tmp)
    s = summary(r.stdout)
    check(r.returncode == 0 and s["property"]["tests"] == 30 and
          s["property"]["mode"] == "exhaustive",
          "ravel run -- prog --tests 30 --mode exhaustive")
    r = run([a.ravel, "run", "--json", "--",
             os.path.join(a.exe_dir, "pbt_queue"), "--seed", "1"], tmp)
    s = summary(r.stdout)
    check(r.returncode == 1 and s["bugs"][0]["kind"] == "linearizability",
          "ravel run -- pbt_queue: the bug, exit 1")
    r = run([exe, "--tests", "5"], tmp,
            env={"RAVEL_OPTIONS": "seed=9 json=1"})
    s = summary(r.stdout)
    check(r.returncode == 0 and s["seed"] == 9 and
          s["property"]["tests"] == 5, "RAVEL_OPTIONS and arguments")


def group_failures(a, tmp):
    for name, kind in (("pbt_stack_crash", "crash"),
                       ("pbt_transfer_deadlock", "deadlock")):
        for mode in ("random", "exhaustive"):
            r = run([os.path.join(a.exe_dir, name), "--seed", "1",
                     "--mode", mode, "--json"], tmp)
            s = summary(r.stdout)
            check(r.returncode == 1 and s["bugs"][0]["kind"] == kind,
                  f"{name} {mode}: reported as {kind} "
                  f"(exit {r.returncode})")
            check(s["property"]["failed"] and
                  s["property"]["shrink_steps"] > 0,
                  f"{name} {mode}: shrunk")
            ce = counterexample(r.stderr)
            check(ce is not None and ce[0] <= 3 and ce[1] == 2,
                  f"{name} {mode}: minimal counterexample "
                  f"({ce[0] if ce else None} commands)")
            rr = run([a.ravel, "replay",
                      os.path.join(tmp, s["bugs"][0]["ticket"])], tmp)
            rce = counterexample(rr.stderr)
            check(rr.returncode == 1 and f"BUG ({kind})" in rr.stderr and
                  rce is not None and ce is not None and rce[3] == ce[3],
                  f"{name} {mode}: the ticket replays it")


def group_race(a, tmp):
    # A plain-long counter: the data race is reported first; then, with
    # the racing accesses made scheduling points, the tests start over and
    # find the lost update as a non-linearizable history, shrunk, whose
    # ticket replays it.
    exe = os.path.join(a.exe_dir, "pbt_counter_plain")
    for mode in ("random", "exhaustive"):
        r = run([exe, "--seed", "1", "--mode", mode, "--json"], tmp)
        s = summary(r.stdout)
        kinds = [b["kind"] for b in s["bugs"]]
        if not check(r.returncode == 1 and
                     kinds == ["data-race", "linearizability"],
                     f"counter_plain {mode}: race then linearizability, "
                     f"got {kinds} (exit {r.returncode})"):
            continue
        check(s["bugs"][1].get("race_directed") is True and
              "race-directed:" in r.stderr,
              f"counter_plain {mode}: the failure is marked race-directed")
        ce = counterexample(r.stderr.split("BUG (linearizability)")[1])
        check(ce is not None and ce[0] <= 3 and ce[1] == 2,
              f"counter_plain {mode}: minimal counterexample "
              f"({ce[0] if ce else None} commands)")
        rr = run([a.ravel, "replay",
                  os.path.join(tmp, s["bugs"][1]["ticket"])], tmp)
        check(rr.returncode == 1 and "BUG (linearizability)" in rr.stderr,
              f"counter_plain {mode}: the ticket replays the lost update")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("group")
    p.add_argument("--ravel", required=True)
    p.add_argument("--exe-dir", required=True)
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        globals()["group_" + a.group](a, tmp)
    if FAILED:
        print(f"{len(FAILED)} failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
