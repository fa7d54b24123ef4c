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
  typed        typed results: the hash map's strings print quoted and its
               two racing puts shrink together to key 0 (coupled values);
               the stack's pointers print as `new` and `$k`, never as
               addresses; the report blames the call at fault, and its
               ticket replays the same counterexample
  cover        labels and coverage: the stack's requirement is met and
               tabulated with a correct generator, and fails the run (exit
               1, one headline) with a skewed one
  shape        4 threads x 8 calls (the model's fields): the corrected
               queue passes, the buggy one is found and shrunk; --ops and
               --prefix bound the calls; bad values exit 2
  table        the table form: the queue written as a table finds the same
               bug as pbt_queue and shrinks it as small; its corrected
               version passes random and exhaustive tests; an argument
               drawn from the model's variables gives its operation weight
               0 and a precondition (pbt_files: a closed descriptor is
               never closed; sequential tests leave nothing out)
  invariant    the model's invariant: false after a prefix call fails the
               test (postcondition, naming the call); in parallel calls it
               rejects orders until none is left (linearizability)
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


def calls(ce_text):
    """The calls of a counterexample block, "$k = f(args) -> result"."""
    return [l.strip() for l in ce_text.splitlines()
            if l.strip().startswith("$")]


def group_typed(a, tmp):
    # The hash map: two puts of one key race; both keys shrink to 0
    # together (each alone would make the keys differ and the case pass).
    for seed in ("1", "2", "3", "4"):
        r = run([os.path.join(a.exe_dir, "pbt_hashmap"), "--seed", seed,
                 "--json"], tmp)
        s = summary(r.stdout)
        ce = counterexample(r.stderr)
        got = sorted(re.sub(r"^\$\d+ = ", "", c) for c in calls(ce[3])) \
            if ce else None
        check(r.returncode == 1 and s["bugs"][0]["kind"] == "linearizability"
              and ce is not None and ce[0] == 2 and ce[1] == 2 and
              got == ['put(0, "a") -> NULL', 'put(0, "a") -> NULL'],
              f"hashmap seed {seed}: shrunk to two parallel "
              f"put(0, \"a\") -> NULL (got {got})")
        check(re.search(r'the call no order can place: \$\d+ = put\(0, "a"\)'
                        r' -> NULL \(placed after \$\d+, in model state '
                        r'\{0: "a"\}, the model says "a"\)', r.stderr),
              f"hashmap seed {seed}: the header blames the put, with the "
              f"model's state and its string")
        check(re.search(r"judged by the model; the command:\n\s+#0 put_run",
                        r.stderr),
              f"hashmap seed {seed}: the frame is put_run")
    rr = run([a.ravel, "replay", os.path.join(tmp, s["bugs"][0]["ticket"])],
             tmp)
    rce = counterexample(rr.stderr)
    check(rr.returncode == 1 and rce and ce and rce[3] == ce[3],
          "hashmap: the ticket replays the same counterexample")
    # Strings print quoted with escapes in the corrected map's passing run:
    # nothing to see; the buggy stack's pointers instead.
    for seed in ("1", "2", "3"):
        r = run([os.path.join(a.exe_dir, "pbt_stack"), "--seed", seed,
                 "--json"], tmp)
        s = summary(r.stdout)
        ce = counterexample(r.stderr)
        cs = calls(ce[3]) if ce else []
        check(r.returncode == 1 and s["bugs"][0]["kind"] == "linearizability"
              and ce is not None and ce[0] <= 5,
              f"stack seed {seed}: found and shrunk "
              f"({ce[0] if ce else None} calls)")
        pushes = [c for c in cs if " = push(" in c]
        pops = [c for c in cs if " = pop()" in c]
        check(pushes and all(c.endswith("-> new") for c in pushes),
              f"stack seed {seed}: pushes print their node as new ({pushes})")
        check(pops and all(re.search(r"-> (NULL|\$\d+)$", c) for c in pops)
              and any(re.search(r"-> \$\d+$", c) for c in pops),
              f"stack seed {seed}: pops print NULL or $k ({pops})")
        check(not re.search(r"0x[0-9a-f]{6,}", ce[3] if ce else "x") and
              not re.search(r"-> \d{6,}", r.stderr),
              f"stack seed {seed}: no raw address printed")
        # Every $k a pop names is a push's variable.
        pv = {c.split(" ")[0] for c in pushes}
        check(all(c.split("-> ")[1] in pv | {"NULL"} for c in pops),
              f"stack seed {seed}: pops name pushes' nodes")


def group_cover(a, tmp):
    r = run([os.path.join(a.exe_dir, "pbt_stack_fixed"), "--seed", "1",
             "--tests", "300", "--json"], tmp)
    s = summary(r.stdout)
    m = re.search(r"cover 'stack depth >= 3': ([\d.]+)% of 300 test cases, "
                  r"10% required: met", r.stderr)
    check(r.returncode == 0 and s["property"]["passed"] == 300 and m and
          float(m.group(1)) >= 10, "stack_fixed: the requirement is met")
    m = re.search(r"labels \(share of 300 test cases\):\n\s+([\d.]+)% pop "
                  r"of an empty stack", r.stderr)
    check(m is not None and 0 < float(m.group(1)) < 100,
          "stack_fixed: the label is tabulated")
    r = run([os.path.join(a.exe_dir, "pbt_stack_skewed"), "--seed", "1",
             "--json"], tmp)
    s = summary(r.stdout)
    m = re.search(r"cover 'stack depth >= 3': ([\d.]+)% of 100 test cases, "
                  r"10% required: NOT MET", r.stderr)
    check(r.returncode == 1 and s["property"]["failed"] and
          s["property"]["passed"] == 100 and s["bugs"] == [] and m and
          float(m.group(1)) < 10,
          f"stack_skewed: fails on coverage alone (exit {r.returncode})")
    check(r.stderr.startswith("ravel: property stack: coverage requirement "
                              "not met after 100 tests (all passed)") and
          "ravel: the property failed: a coverage requirement was not met"
          in r.stderr and s["property"]["coverage_met"] is False and
          s["property"]["counterexample"] is None,
          "stack_skewed: one headline says why, and the JSON")


def group_shape(a, tmp):
    exe = os.path.join(a.exe_dir, "pbt_queue_table_fixed")
    r = run([exe, "--seed", "1", "--tests", "300", "--json"], tmp)
    s = summary(r.stdout)
    m = re.search(r"tests by non-empty branches:.* 4: ([\d.]+)%", r.stderr)
    check(r.returncode == 0 and s["property"]["passed"] == 300 and
          "up to 4 branches of up to 8 calls" in r.stderr and m and
          float(m.group(1)) > 20 and ">20:" in r.stderr,
          "queue_table_fixed: 300 tests of 4 x 8 pass, many of them wide")
    r = run([exe, "--seed", "1", "--tests", "30", "--mode", "exhaustive",
             "--ops", "2", "--json"], tmp)
    s = summary(r.stdout)
    check(r.returncode == 0 and s["property"]["passed"] == 30 and
          "up to 4 branches of up to 2 calls" in r.stderr,
          "queue_table_fixed --ops 2: 30 exhaustive tests pass")
    r = run([os.path.join(a.exe_dir, "pbt_queue_table"), "--seed", "2",
             "--json"], tmp)
    s = summary(r.stdout)
    ce = counterexample(r.stderr)
    check(r.returncode == 1 and s["bugs"][0]["kind"] == "linearizability" and
          ce and ce[0] <= 4, "queue_table: 4 x 8 finds the bug and shrinks "
          f"it ({ce[0] if ce else None} calls)")
    r = run([os.path.join(a.exe_dir, "pbt_counter_fixed"), "--seed", "1",
             "--branches", "0", "--prefix", "3", "--tests", "200",
             "--json"], tmp)
    s = summary(r.stdout)
    m = re.search(r"tests by commands: (.*)", r.stderr)
    check(r.returncode == 0 and "sequential tests of up to 3 calls" in
          r.stderr and m and "6-10" not in m.group(1),
          "counter_fixed --branches 0 --prefix 3: at most 3 calls")
    for args in (["--ops", "0"], ["--ops", "65"], ["--prefix", "100"]):
        r = run([exe] + args, tmp)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and
              "--ops and --prefix" in lines[0],
              f"bad shape {args}: one line, exit 2 ({lines})")


def group_table(a, tmp):
    r1 = run([os.path.join(a.exe_dir, "pbt_queue"), "--seed", "1",
              "--json"], tmp)
    r2 = run([os.path.join(a.exe_dir, "pbt_queue_table"), "--seed", "1",
              "--branches", "2", "--ops", "5", "--json"], tmp)
    c1, c2 = counterexample(r1.stderr), counterexample(r2.stderr)
    check(r2.returncode == 1 and
          summary(r2.stdout)["bugs"][0]["kind"] == "linearizability" and
          c1 and c2 and c2[0] <= c1[0] + 1,
          f"queue_table: the bug found and shrunk as small "
          f"({c2[0] if c2 else None} vs {c1[0] if c1 else None} calls)")
    check(c2 and re.search(r"= put\(\d\) -> 1", c2[3]) and
          re.search(r"= get\(\) -> ", c2[3]),
          "queue_table: ravel prints the table's arguments")
    for seed in ("1", "2"):
        r = run([os.path.join(a.exe_dir, "pbt_registry_table"), "--seed",
                 seed, "--json"], tmp)
        s = summary(r.stdout)
        ce = counterexample(r.stderr)
        check(r.returncode == 1 and s["bugs"][0]["kind"] in
              ("linearizability", "postcondition") and ce and ce[0] <= 8 and
              re.search(r'= register\("[ab]", \$\d+\) -> ', ce[3]),
              f"registry_table seed {seed}: found, shrunk, printed "
              f"({ce[0] if ce else None} calls)")
    r = run([os.path.join(a.exe_dir, "pbt_registry_table_fixed"), "--seed",
             "1", "--tests", "300", "--json"], tmp)
    check(r.returncode == 0 and summary(r.stdout)["property"]["passed"] == 300,
          "registry_table_fixed: 300 tests pass")
    exe = os.path.join(a.exe_dir, "pbt_files")
    r = run([exe, "--seed", "1", "--tests", "300", "--json"], tmp)
    m = re.search(r"(\d+) left out by preconditions", r.stderr)
    check(r.returncode == 0 and "close" in r.stderr and m,
          "files: 300 parallel tests pass, closes drawn from open ones")
    r = run([exe, "--seed", "1", "--tests", "300", "--branches", "0"], tmp)
    check(r.returncode == 0 and "0 left out by preconditions" in r.stderr,
          "files sequential: weight 0 while nothing is open, nothing left "
          "out")
    r = run([os.path.join(a.exe_dir, "pbt_files_bug"), "--seed", "1",
             "--json"], tmp)
    ce = counterexample(r.stderr)
    check(r.returncode == 1 and ce and ce[0] == 2 and
          ce[3].count("= open() -> 0") == 2,
          "files_bug: two parallel opens both get slot 0")
    exe = os.path.join(a.exe_dir, "pbt_queue_table_fixed")
    r = run([exe, "--seed", "3", "--tests", "40", "--mode", "exhaustive",
             "--branches", "2", "--ops", "3", "--json"], tmp)
    check(r.returncode == 0 and summary(r.stdout)["property"]["passed"] == 40,
          "queue_table_fixed: 40 exhaustive tests pass")


def group_invariant(a, tmp):
    exe = os.path.join(a.exe_dir, "pbt_files_cap3")
    r = run([exe, "--seed", "1", "--branches", "0", "--json"], tmp)
    s = summary(r.stdout)
    ce = counterexample(r.stderr)
    check(r.returncode == 1 and s["bugs"][0]["kind"] == "postcondition" and
          "invariant: false after $4 = open() -> 3" in r.stderr and ce and
          ce[0] == 4, "files_cap3 sequential: the invariant fails after the "
          "fourth open")
    r = run([exe, "--seed", "1", "--prefix", "1", "--json"], tmp)
    s = summary(r.stdout)
    ce = counterexample(r.stderr)
    check(r.returncode == 1 and s["bugs"][0]["kind"] == "linearizability" and
          "the invariant is false after it" in r.stderr and ce and
          ce[0] == 4 and ce[1] == 3,
          "files_cap3 --prefix 1: no order of the parallel opens keeps the "
          "invariant")
    r = run([os.path.join(a.exe_dir, "pbt_files"), "--seed", "1",
             "--tests", "300", "--json"], tmp)
    check(r.returncode == 0 and summary(r.stdout)["property"]["passed"] == 300,
          "files (no invariant): 300 tests pass")


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
