#!/usr/bin/env python3
"""Stress tests of ravel's lanes and signal handling (issue 13, part 4).

The parallel default (two lanes, or more with --jobs) on programs whose
bug fires in many lanes at the same moment, and runs interrupted by
SIGTERM and SIGINT. The programs are in tests/stress/progs.

Groups (one ctest test each; `--runs` scales them up for scripts/soak):
    lanes    every run of a program that asserts, crashes, deadlocks or
             races in many lanes at once reports a bug of the expected
             kind with a stack (a "#0 function file:line" frame), never a
             report without a kind, never a tool error, and ends
    signals  `timeout -s TERM T ravel run ...` on a search no run
             finishes returns within T + a margin, with the summary, the
             guarantee the run earned (never "exhausted") and no process
             left behind; the same for SIGINT to the process group and
             SIGTERM to the supervisor alone; a program that sends itself
             SIGTERM is reported as killed by it, with its stack
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return bool(cond)


def env():
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    return e


def reports(stderr):
    """[(kind, text of the report)] in the order printed."""
    out = []
    for block in stderr.split("==================\n"):
        m = re.search(r"^ravel: BUG \(([^)]*)\)", block, re.M)
        if m:
            out.append((m.group(1), block))
    return out


def leftovers(exe):
    """Processes still running the program (executors left behind)."""
    p = subprocess.run(["pgrep", "-f", "^" + re.escape(exe) + "( |$)"],
                       capture_output=True, text=True)
    return [int(x) for x in p.stdout.split()]


# ---- lanes ---------------------------------------------------------------

# program -> kinds its reports may have, the kind the first must have
LANE_PROGRAMS = {
    "assert_lanes": ({"assertion"}, "assertion"),
    "crash_lanes": ({"crash"}, "crash"),
    "deadlock_lanes": ({"deadlock"}, "deadlock"),
    "race_lanes": ({"data-race", "assertion"}, "data-race"),
}


def lane_run(args, name, jobs, i):
    exe = os.path.join(args.progs, name)
    cmd = [args.ravel, "run"] + (["--jobs", str(jobs)] if jobs else []) + \
        ["--", exe]
    what = "%s (jobs %s, run %d)" % (name, jobs or "default", i)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                           env=env(), cwd=args.work,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        check(False, "%s: still running after 60 s" % what)
        for pid in leftovers(exe):
            os.kill(pid, signal.SIGKILL)
        return False
    kinds, first = LANE_PROGRAMS[name]
    rs = reports(p.stderr)
    ok = check(p.returncode == 1, "%s: exit %d, expected 1: %s"
               % (what, p.returncode, p.stderr[-1500:]))
    ok = check(len(rs) >= 1 and rs[0][0] == first,
               "%s: first report is %s, expected %s"
               % (what, rs[0][0] if rs else "none", first)) and ok
    for kind, text in rs:
        ok = check(kind in kinds, "%s: report of kind %r: %s"
                   % (what, kind, text[:600])) and ok
        ok = check(re.search(r"^\s+#0 .*\S \S+:\d+", text, re.M) is not None,
                   "%s: %s report without a stack frame in the program: %s"
                   % (what, kind, text[:800])) and ok
    ok = check("no stack recorded" not in p.stderr and
               "ravel: error" not in p.stderr,
               "%s: %s" % (what, p.stderr[-1500:])) and ok
    ok = check(not leftovers(exe), "%s: executors left running" % what) and ok
    return ok


def group_lanes(args):
    runs = args.runs or 10
    for name in LANE_PROGRAMS:
        # The assertion is the case: full count at the default
        # two lanes; the others fewer, and four lanes too.
        n = runs if name == "assert_lanes" else max(1, runs // 2)
        good = sum(lane_run(args, name, None, i) for i in range(n))
        good4 = sum(lane_run(args, name, 4, i) for i in range(max(1, n // 2)))
        print("%s: %d of %d runs right with the default lanes, %d of %d "
              "with 4" % (name, good, n, good4, max(1, n // 2)), flush=True)


# ---- signals -------------------------------------------------------------

def summary_checks(what, p, interrupted=True):
    err = p.stderr
    ok = check(re.search(r"^ravel: \d+ executions? in [\d.]+ s", err, re.M)
               is not None, "%s: no summary line: %r" % (what, err[-800:]))
    if interrupted:
        ok = check("; interrupted" in err,
                   "%s: summary does not say interrupted: %r"
                   % (what, err[-800:])) and ok
    lines = [l for l in err.splitlines() if l.startswith("ravel: ")]
    guarantee = [l for l in lines if "exhausted" in l or "stopped" in l or
                 "guarantee" in l or "probability" in l]
    ok = check(guarantee, "%s: no guarantee line: %r" % (what, err[-800:])) \
        and ok
    for l in guarantee:
        ok = check(not re.search(r"(?<!before )exhausted|all \d+ traces", l),
                   "%s: interrupted run claims %r" % (what, l)) and ok
    ok = check("BUG" not in err and "ravel: error" not in err,
               "%s: %r" % (what, err[-800:])) and ok
    return ok


def timeout_run(args, T, i):
    exe = os.path.join(args.progs, "endless")
    cmd = ["timeout", "-s", "TERM", str(T), args.ravel, "run",
           "--executions", "0", "--", exe]
    what = "timeout -s TERM %d (run %d)" % (T, i)
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=T + 60, env=env(), cwd=args.work,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        check(False, "%s: still running %d s after the signal" % (what, 60))
        for pid in leftovers(exe):
            os.kill(pid, signal.SIGKILL)
        return False
    took = time.monotonic() - t0
    ok = check(took < T + args.margin, "%s: returned after %.2f s"
               % (what, took))
    ok = check(p.returncode == 124, "%s: exit %d" % (what, p.returncode)) \
        and ok
    ok = summary_checks(what, p) and ok
    ok = check(not leftovers(exe), "%s: executors left running" % what) and ok
    return ok, took


def signal_run(args, sig, group, i):
    """Sends sig after 1 s to the process group (a terminal's Ctrl-C) or
    to the supervisor alone."""
    exe = os.path.join(args.progs, "endless")
    cmd = [args.ravel, "run", "--executions", "0", "--", exe]
    what = "%s to the %s (run %d)" % (signal.Signals(sig).name,
                                      "process group" if group else
                                      "supervisor", i)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env(), cwd=args.work,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    time.sleep(1)
    t0 = time.monotonic()
    if group:
        os.killpg(p.pid, sig)
    else:
        os.kill(p.pid, sig)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        check(False, "%s: still running 60 s after the signal" % what)
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return False
    took = time.monotonic() - t0
    r = subprocess.CompletedProcess(cmd, p.returncode, out, err)
    ok = check(took < args.margin, "%s: ended %.2f s after the signal"
               % (what, took))
    ok = check(p.returncode == 130, "%s: exit %d" % (what, p.returncode)) \
        and ok
    ok = summary_checks(what, r) and ok
    ok = check(not leftovers(exe), "%s: executors left running" % what) and ok
    return ok


def group_signals(args):
    runs = args.runs or 3
    T = args.term_after
    good, worst = 0, 0.0
    for i in range(runs):
        r = timeout_run(args, T, i)
        if r:
            ok, took = r
            good += ok
            worst = max(worst, took)
    print("timeout -s TERM %d: %d of %d runs right, slowest returned after "
          "%.2f s" % (T, good, runs, worst), flush=True)
    for sig, group in ((signal.SIGINT, True), (signal.SIGTERM, False),
                       (signal.SIGHUP, True)):
        n = max(1, runs // 3)
        good = sum(bool(signal_run(args, sig, group, i)) for i in range(n))
        print("%s to the %s: %d of %d runs right"
              % (sig.name, "group" if group else "supervisor", good, n),
              flush=True)
    # A program's own SIGTERM keeps its meaning: it kills the program.
    exe = os.path.join(args.progs, "raise_term")
    p = subprocess.run([args.ravel, "run", "--", exe], capture_output=True,
                       text=True, timeout=60, env=env(), cwd=args.work,
                       stdin=subprocess.DEVNULL)
    rs = reports(p.stderr)
    check(p.returncode == 1 and rs and rs[0][0] == "crash" and
          "SIGTERM" in rs[0][1] and
          re.search(r"#\d+ worker \S+raise_term.c:\d+", rs[0][1]),
          "raise_term: expected a crash by SIGTERM in worker: %s"
          % p.stderr[-1500:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=["lanes", "signals"])
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--progs", required=True)
    ap.add_argument("--runs", type=int, default=0,
                    help="runs of the main case (default: a ctest size)")
    ap.add_argument("--term-after", type=int, default=2,
                    help="seconds before timeout sends SIGTERM")
    ap.add_argument("--margin", type=float, default=3.0,
                    help="seconds a run may take to end after the signal")
    args = ap.parse_args()
    args.ravel = os.path.abspath(args.ravel)
    args.progs = os.path.abspath(args.progs)
    import tempfile
    args.work = tempfile.mkdtemp(prefix="ravel-stress-")
    {"lanes": group_lanes, "signals": group_signals}[args.group](args)
    import shutil
    shutil.rmtree(args.work, ignore_errors=True)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
