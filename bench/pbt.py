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
Also printed: executions per test case. Usage:

    bench/pbt.py BUILD_DIR [--tests N]   (default: 20,000 random, 2,000
                                          exhaustive)
"""
import json
import os
import subprocess
import sys


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    # Enough tests for the run to last a good fraction of a second (the
    # summary's elapsed time has millisecond resolution).
    counts = {"random": 20000, "exhaustive": 2000}
    if "--tests" in sys.argv:
        n = int(sys.argv[sys.argv.index("--tests") + 1])
        counts = {"random": n, "exhaustive": n}
    env = dict(os.environ)
    env.pop("RAVEL_OPTIONS", None)
    print(f"{'example':<10} {'mode':<11} {'tests':>6} {'tests/s':>9} "
          f"{'execs/test':>10}")
    for ex in ("counter", "queue"):
        exe = os.path.join(build, "examples", f"pbt_{ex}_fixed")
        for mode in ("random", "exhaustive"):
            tests = counts[mode]
            best = None
            for _ in range(3):
                r = subprocess.run([exe, "--seed", "1", "--tests", str(tests),
                                    "--mode", mode, "--json"],
                                   capture_output=True, text=True, env=env,
                                   cwd="/tmp")
                s = json.loads(r.stdout.strip().splitlines()[-1])
                if r.returncode != 0 or s["property"]["passed"] != tests:
                    sys.exit(f"{ex} {mode}: the run failed:\n{r.stderr}")
                rate = tests / max(s["elapsed_s"], 1e-6)
                if best is None or rate > best[0]:
                    best = (rate, s["executions"] / tests)
            print(f"{ex:<10} {mode:<11} {tests:>6} {best[0]:>9.0f} "
                  f"{best[1]:>10.1f}")


if __name__ == "__main__":
    main()
