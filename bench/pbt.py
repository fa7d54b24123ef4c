#!/usr/bin/env python3
"""pbt.py - throughput of property-based testing (docs/pbt.md).

Generated parallel test cases per second for the counter and the queue
examples (their correct versions, so that every test runs to its end and
no time goes to shrinking), in each mode:

  random      one seeded schedule per test case (PULSE)
  exhaustive  every interleaving of each test case (DPOR)

Each figure is tests / the run's elapsed time (the --json summary's
elapsed_s: generation, execution under ravel, judging by the
linearizability checker, restoring the program), best of three runs.
Also printed: executions per test case.

Then, in the same build, the same queue and tests written in the table
form (pbt_queue_table_fixed at --branches 2 --ops 5, the shape of
pbt_queue: typed results, arguments drawn and printed by ravel) against
pbt_queue_fixed, and the table queue at its own shape, 4 threads x 8
calls (each history of up to 32 parallel calls judged by the
linearizability checker).

With --baseline OTHER_BUILD (a build of an earlier commit) the counter
and queue rows also run that build's examples, alternating with this
build's so that the machine's load falls on both alike, and print the
ratio new/old. Usage:

    bench/pbt.py BUILD_DIR [--tests N] [--baseline OTHER_BUILD]
                 (default: 20,000 random, 2,000 exhaustive)
"""
import json
import os
import subprocess
import sys

ENV = dict(os.environ)
ENV.pop("RAVEL_OPTIONS", None)


def rate(exe, tests, args):
    """tests/s and executions per test of one run."""
    r = subprocess.run([exe, "--seed", "1", "--tests", str(tests), "--json"]
                       + args, capture_output=True, text=True, env=ENV,
                       cwd="/tmp")
    s = json.loads(r.stdout.strip().splitlines()[-1])
    if r.returncode != 0 or s["property"]["passed"] != tests:
        sys.exit(f"{exe} {args}: the run failed:\n{r.stderr}")
    return tests / max(s["elapsed_s"], 1e-6), s["executions"] / tests


def best(runs):
    return max(runs, key=lambda x: x[0])


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    base = None
    if "--baseline" in sys.argv:
        base = os.path.abspath(sys.argv[sys.argv.index("--baseline") + 1])
    # Enough tests for the run to last a good fraction of a second (the
    # summary's elapsed time has millisecond resolution).
    counts = {"random": 20000, "exhaustive": 2000}
    if "--tests" in sys.argv:
        n = int(sys.argv[sys.argv.index("--tests") + 1])
        counts = {"random": n, "exhaustive": n}
    ex_dir = os.path.join(build, "examples")
    print(f"{'example':<22} {'mode':<11} {'tests':>6} {'tests/s':>9} "
          f"{'execs/test':>10}" + (f" {'baseline':>9} {'new/old':>7}"
                                   if base else ""))
    for ex in ("counter", "queue"):
        exe = os.path.join(ex_dir, f"pbt_{ex}_fixed")
        for mode in ("random", "exhaustive"):
            tests = counts[mode]
            new, old = [], []
            for _ in range(3):
                new.append(rate(exe, tests, ["--mode", mode]))
                if base:
                    old.append(rate(os.path.join(base, "examples",
                                                 f"pbt_{ex}_fixed"),
                                    tests, ["--mode", mode]))
            n = best(new)
            line = f"{ex:<22} {mode:<11} {tests:>6} {n[0]:>9.0f} {n[1]:>10.1f}"
            if base:
                o = best(old)
                line += f" {o[0]:>9.0f} {n[0] / o[0]:>7.2f}"
            print(line)
    # The table form against the function-pointer form, same tests.
    shape = ["--branches", "2", "--ops", "5"]
    for mode in ("random", "exhaustive"):
        tests = counts[mode]
        fp, tb = [], []
        for _ in range(3):
            fp.append(rate(os.path.join(ex_dir, "pbt_queue_fixed"), tests,
                           ["--mode", mode]))
            tb.append(rate(os.path.join(ex_dir, "pbt_queue_table_fixed"),
                           tests, ["--mode", mode] + shape))
        f, t = best(fp), best(tb)
        print(f"{'queue_table 2x5':<22} {mode:<11} {tests:>6} {t[0]:>9.0f} "
              f"{t[1]:>10.1f}  table/function-pointer {t[0] / f[0]:.2f}")
    tests = counts["random"] // 10
    runs = [rate(os.path.join(ex_dir, "pbt_queue_table_fixed"), tests, [])
            for _ in range(3)]
    t = best(runs)
    print(f"{'queue_table 4x8':<22} {'random':<11} {tests:>6} {t[0]:>9.0f} "
          f"{t[1]:>10.1f}")


if __name__ == "__main__":
    main()
