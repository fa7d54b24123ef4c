#!/usr/bin/env python3
"""Speed of `ravel lin` on the project's Jepsen histories, against the
Porcupine timings published with the data (../shared/bench-data/lin/
README.md, measured on a machine of this kind).

    python3 bench/lin.py [--ravel build/bin/ravel] [--data DIR] [--runs 7]

Every figure is the median of --runs runs; ravel's minimum is shown too,
since a shared machine adds noise that only ever makes runs slower.
"check" figures are the search time ravel reports itself (--json
"seconds", reading and parsing excluded), as Porcupine's "check only"
benchmarks are; "wall" figures are whole processes (start, read, parse,
check, print), as Porcupine's kv figures include parsing.

Wall time on a shared machine is mostly waiting for a core (the load
average on the 2-core machine this was written on reached 19), and the
noise only ever adds time: so every wall figure also gives its minimum,
and a "cpu" column gives the median user+system time of the process,
which waiting does not inflate. Porcupine's figures are wall times of a
Go program that may use both cores, so dividing them by ravel's CPU
time is, if anything, unfair to ravel.

Every verdict is compared with the data's README (the etcd list of
linearizable histories, kv -ok/-bad); a disagreement is printed and
makes the script exit 1.

Two baselines are measured in the same run, so the ratios mean something
on any machine: ravel with --no-prune (the memoised Wing & Gong search
Porcupine implements, in ravel's code) and the cost of starting ravel on
an empty history. The "vs Porcupine" column divides the README's time by
ravel's; "prunings" divides ravel --no-prune by ravel.

No number here is asserted anywhere: this is a report, not a test.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time


CPU = {}  # id(result tuple) -> median CPU seconds of those runs
CODES = {}  # tuple(args) -> set of exit statuses seen


def cpu_now():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def wall(args, runs):
    """(median, min) wall seconds; the median CPU time goes to CPU."""
    ts, cs = [], []
    for _ in range(runs):
        c0 = cpu_now()
        t0 = time.perf_counter()
        p = subprocess.run(args, capture_output=True, text=True)
        ts.append(time.perf_counter() - t0)
        cs.append(cpu_now() - c0)
        if p.returncode not in (0, 1):
            sys.exit("bench: %s failed: %s" % (" ".join(args), p.stderr))
        CODES.setdefault(tuple(args), set()).add(p.returncode)
    res = (statistics.median(ts), min(ts))
    CPU[id(res)] = statistics.median(cs)
    return res


VERDICTS = {}  # history -> set of verdicts seen in --json runs


def check_times(args, runs):
    """Per run: (sum of check seconds, {history: seconds}) from --json;
    the per-history figures are medians over the runs."""
    sums, per = [], {}
    for _ in range(runs):
        p = subprocess.run(args + ["--json"], capture_output=True, text=True)
        d = json.loads(p.stdout)
        hs = d["histories"] if "histories" in d else [d]
        sums.append(sum(h["seconds"] for h in hs))
        for h in hs:
            per.setdefault(h["history"], []).append(h["seconds"])
            VERDICTS.setdefault(h["history"], set()).add(h["verdict"])
    return sums, {k: statistics.median(v) for k, v in per.items()}


def expected_etcd(data):
    """The etcd verdicts the data's README gives, by file name."""
    text = open(os.path.join(data, "README.md")).read()
    m = re.search(r"Linearizable:(.*?)All other", text, re.S)
    yes = {int(x.strip(".,")) for x in m.group(1).split()}
    want = {}
    for f in os.listdir(os.path.join(data, "jepsen")):
        n = re.match(r"etcd_(\d+)\.log$", f)
        if n:
            want[f] = ("linearizable" if int(n.group(1)) in yes or
                       int(n.group(1)) == 95 else "not linearizable")
    return want


def med_min(xs):
    return statistics.median(xs), min(xs)


def ms(x):
    if x >= 1:
        return "%.2f s" % x
    return "%.2f ms" % (x * 1e3) if x < 0.01 else "%.0f ms" % (x * 1e3)


def ratio(porc, ours):
    lo, hi = porc
    if lo == hi:
        return "%.0fx" % (lo / ours)
    return "%.0f-%.0fx" % (lo / ours, hi / ours)


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--ravel", default=os.path.join(here, "..", "build",
                                                    "bin", "ravel"))
    ap.add_argument("--data", default=os.environ.get(
        "RAVEL_LIN_DATA", os.path.join(here, "..", "..", "shared",
                                       "bench-data", "lin")))
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    rv, data, runs = os.path.abspath(a.ravel), a.data, a.runs
    etcd = sorted(os.path.join(data, "jepsen", f)
                  for f in os.listdir(os.path.join(data, "jepsen"))
                  if f.endswith(".log"))
    etcd2 = os.path.join(data, "jepsen", "etcd_002.log")
    kv = sorted(os.path.join(data, "kv", f)
                for f in os.listdir(os.path.join(data, "kv")))
    cas = [rv, "lin", "--model", "cas-register", "-q"]
    kvm = [rv, "lin", "--model", "kv", "-q"]
    rows = []  # (what, porcupine (lo, hi) seconds or None, ravel, plain)

    with tempfile.NamedTemporaryFile(suffix=".log") as empty:
        start = wall([rv, "lin", "--model", "register", empty.name], runs)

    sums, per = check_times(cas + etcd, runs)
    psums, pper = check_times(cas + ["--no-prune"] + etcd, runs)
    rows.append(("all 103 etcd histories, check only (sum)", (0.39, 0.72),
                 med_min(sums), statistics.median(psums)))
    w = wall(cas + etcd, runs)
    pw = wall(cas + ["--no-prune"] + etcd, runs)
    rows.append(("all 103 etcd histories, one process (wall)", (0.39, 0.72),
                 w, pw[0]))
    rows.append(("etcd_002 (slowest for Porcupine), check only",
                 (0.15, 0.28), (per[etcd2], per[etcd2]), pper[etcd2]))
    w2 = wall(cas + [etcd2], runs)
    pw2 = wall(cas + ["--no-prune", etcd2], runs)
    rows.append(("etcd_002, one process (wall)", (0.15, 0.28), w2,
                 pw2[0]))
    med = statistics.median(per.values())
    rows.append(("median etcd history, check only", (0.00019, 0.00019),
                 (med, med), statistics.median(pper.values())))
    slowest = max(per, key=per.get)
    rows.append(("slowest etcd history for ravel (%s), check only"
                 % os.path.basename(slowest), (0.15, 0.28),
                 (per[slowest], per[slowest]), pper[slowest]))

    porc_kv = {"c50-ok.txt": (0.29, 0.29), "c50-bad.txt": (0.058, 0.058)}
    for f in kv:
        name = os.path.basename(f)
        w = wall(kvm + [f], runs)
        pw = wall(kvm + ["--no-prune", f], runs)
        rows.append(("kv/%s, parse + check (wall)" % name,
                     porc_kv.get(name), w, pw[0]))
    w = wall(kvm + kv, runs)
    pw = wall(kvm + ["--no-prune"] + kv, runs)
    rows.append(("all 6 kv files, one process (wall)", (0.32, 0.50), w,
                 pw[0]))
    c10 = os.path.join(data, "kv", "c10-ok.txt")
    w = wall(kvm + ["--no-partition", c10], runs)
    pw = wall(kvm + ["--no-partition", "--no-prune", c10], runs)
    rows.append(("kv/c10-ok without partitioning by key (wall)", (4.4, 4.4),
                 w, pw[0]))

    # Verdicts against the README: etcd from every --json run (pruned and
    # --no-prune), kv from the exit status of every timed run.
    bad = []
    want = expected_etcd(data)
    for h, seen in sorted(VERDICTS.items()):
        w = want.get(os.path.basename(h))
        if w and seen != {w}:
            bad.append("%s: %s, README: %s" % (h, sorted(seen), w))
    nkv = 0
    for args, codes in sorted(CODES.items()):
        files = [x for x in args if x.startswith(os.path.join(data, "kv"))]
        if not files or "--max-steps" in args:
            continue
        nkv += 1
        w = 1 if any(f.endswith("-bad.txt") for f in files) else 0
        if codes != {w}:
            bad.append("%s: exit %s, want %d" % (" ".join(args[2:]),
                                                 sorted(codes), w))
    print("ravel lin benchmark: median of %d runs; %s" % (runs, rv))
    print("verdicts: %d etcd histories and %d kv runs checked against the "
          "data's README: %s" % (len([h for h in VERDICTS if
                                      os.path.basename(h) in want]),
                                 nkv, "all agree" if not bad else
                                 "%d DISAGREE" % len(bad)))
    for b in bad:
        print("  " + b)
    print("baseline in this run: starting ravel on an empty history takes "
          "%s (min %s)" % (ms(start[0]), ms(start[1])))
    print()
    hdr = ("what", "Porcupine", "ravel", "(min)", "vs Porcupine", "cpu",
           "vs Porcupine (cpu)", "ravel --no-prune", "prunings")
    table = [hdr]
    for what, porc, res, plain in rows:
        ours, best = res
        cpu = CPU.get(id(res))
        table.append((what,
                      "-" if porc is None else
                      (ms(porc[0]) if porc[0] == porc[1]
                       else "%s-%s" % (ms(porc[0]).split()[0],
                                       ms(porc[1]))),
                      ms(ours), ms(best),
                      "-" if porc is None else ratio(porc, ours),
                      "-" if cpu is None else ms(cpu),
                      "-" if porc is None or not cpu else ratio(porc, cpu),
                      ms(plain), "%.1fx" % (plain / ours)))
    widths = [max(len(r[i]) for r in table) for i in range(len(hdr))]
    for i, r in enumerate(table):
        print("| " + " | ".join(c.ljust(widths[j]) for j, c in enumerate(r))
              + " |")
        if i == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print()
    print("Porcupine: README of the data (Go 1.19, same kind of machine); "
          "its etcd set is 102 histories plus the empty etcd_095.")
    print("cpu: median user+system time of the ravel process (wall rows "
          "only); check-only rows are ravel's own search time.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
