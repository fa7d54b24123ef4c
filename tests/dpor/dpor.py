#!/usr/bin/env python3
"""Systematic exploration, checked against numbers known in advance.

counts      DPOR explores exactly the Mazurkiewicz traces of the classic
            benchmarks (bench/dpor): complete executions == traces ==
            the published count; optimal DPOR abandons no execution,
            source DPOR counts the ones it abandons apart
jobs        --jobs 2 and 3 explore the same set of traces as one search
shards      --shard 1/N .. N/N (N = 2, 3): the union of the shards'
            traces is the unsharded run's set
oracle      on programs with locks, condition variables, heap objects,
            nested thread creation, data choices and atomic sections,
            optimal and source DPOR find exactly the set of traces that
            bounded DFS (which tries every interleaving) finds, compared
            by the digest of the set of trace fingerprints
bounds      a bug needing three preemptions: not reported at preemption
            bound 2, found at bound 3 (the first bug IPB reports needs the
            fewest preemptions), and found by delay bounding
choose      a bug behind one value of ravel_choose: found by DFS and DPOR
assume      executions with a false ravel_assume are discarded, not bugs
atomic      atomic sections and __VERIFIER_atomic_ functions
sections    entering an atomic section is a scheduling point: an error
            that needs sections to alternate is found by DPOR, DFS, PCT
            and random; its fixed variant is exhausted by optimal DPOR,
            source DPOR and DFS with the same 252 traces; a false assume
            in a section waits for another thread's section (rolled back,
            locals put back) instead of discarding the execution
stop        a run with two lanes that stops on a bug found late ends, every
            time (the supervisor kills the other lane wherever it is,
            perhaps holding the shared search tree's lock)
guarantees  every strategy states what it guarantees, and no more: runs
            whose executions were cut short at --max-threads are never
            complete; a race whose consequence needs a third access to the
            variable (race_reread) is found by the default strategy, and
            no run that found a data race prints a bare "exhausted"
spin        spin-waits (src/model/spin.c): Peterson, Dekker, Szymanski,
            Lamport's fast mutex, a TTAS lock on a volatile int, a ticket
            lock, a seqlock and a volatile flag are explored completely
            with no report and exact trace counts (GenMC's published SC
            counts where GenMC has the program: peterson 4, lamport(2) 16,
            dekker_f 3, szymanski 6 of its non-deadlocking executions),
            the same set for optimal, source and 2-lane DPOR and for DFS;
            a broken variant of each is found by DPOR, random and PCT; a
            wait that never ends is a deadlock naming the spinning thread
timeouts    timed waits and sleeps (progs/timed_wait.c): a timeout before
            the signal and a sleep that does not let the worker run are
            found by optimal, source and 2-lane DPOR, DFS, random and
            PCT; with --timeouts late they are clean, the guarantee says
            so and is not complete, and a timeout nobody prevents is
            reported and its ticket (which records the mode) replays it
fairness    a thread that sleeps or yields once before it takes a lock
            may take it first (progs/sleep_first.c): both traces, and
            the assertion that needs the worker first, for optimal,
            source and 2-lane DPOR, DFS and the default; a trylock loop
            that sleeps is explored only over fair schedules, and every
            strategy's guarantee says so and is not complete; a loop
            that only reads and yields is a spin-wait, exhausted with
            its exact count
snapshots   executions started from a snapshot (src/rt/process/resume.c)
            explore what executions replayed from main do: on the
            benchmarks and the programs of the other groups, the same
            traces (count, digest), blocked executions and findings with
            snapshots and --no-snapshots, in both DPOR modes and on two
            lanes; --snapshots-check (each execution that could start from
            a snapshot replays instead and must reach the snapshot's state
            byte for byte) reports nothing; snapshots are taken and used
            where they should be (resumed > 0), and not where the program
            imports what they cannot hold (printf: "off" says so); a data
            race found in a resumed execution is reported as without
            snapshots, and its ticket replays it
bench       `ravel bench --quick`: every count as published (exit status
            0), and its rc11 columns: filesystem(18) finishes under rc11
            with its 32 execution graphs and a rate; a benchmark whose
            rc11 exploration the budget stops shows "> N s" and no rate

usage: dpor.py GROUP --ravel BIN --bench DIR --progs DIR
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def ravel(args, *opts, prog, prog_args=(), timeout=900, options=None):
    env = dict(os.environ)
    env.pop("RAVEL_OPTIONS", None)
    if options:  # internal options (options.def's without help)
        env["RAVEL_OPTIONS"] = options
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([args.ravel, "run", "--json", "--ticket-dir", d] + list(opts)
                           + ["--", prog] + list(prog_args),
                           capture_output=True, text=True, timeout=timeout, env=env)
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        return p, None


# (program, size, traces) -- sizes the test suite can afford; `ravel bench`
# runs the large ones.
COUNTS = [
    ("readers", 2, 4), ("readers", 8, 256), ("readers", 13, 8192),
    ("lastzero", 5, 64), ("lastzero", 10, 3328),
    ("indexer", 12, 8), ("indexer", 13, 64), ("indexer", 14, 512),
    ("filesystem", 14, 2), ("filesystem", 15, 4), ("filesystem", 16, 8),
    ("filesystem", 17, 16), ("filesystem", 18, 32), ("filesystem", 19, 64),
    # Two shapes of GenMC's synthetic tests (MPI-SWS/genmc v0.10.3,
    # tests/correct/synthetic/{casrot,ainc}/expected.sc.mo.in: casrot
    # 2, 5, 14, 43, 144, 523, 2048, 8597 for N = 2..9; ainc N!).
    ("casrot", 5, 43), ("casrot", 7, 523), ("ainc", 4, 24), ("ainc", 6, 720),
]


def group_counts(args):
    for name, n, want in COUNTS:
        for mode in ("optimal", "source"):
            p, s = ravel(args, "--strategy", "dpor", "--dpor-mode", mode, "--jobs", "1", "--executions", "0",
                         "--trace-fingerprints", prog=os.path.join(args.bench, name), prog_args=[str(n)])
            what = "%s(%d) %s" % (name, n, mode)
            if not check(p.returncode == 0 and s, "%s: exit %d %s" % (what, p.returncode, p.stderr[-500:])):
                continue
            complete = s["executions"] - s["blocked"]
            print("%s: %d traces, %d executions, %d blocked" % (what, s["traces"], s["executions"], s["blocked"]))
            # Traces counted by fingerprint (distinct happens-before orders):
            # equal to the complete executions, so none was explored twice.
            check(s["traces"] == want, "%s: %d traces, expected %d" % (what, s["traces"], want))
            check(complete == want, "%s: %d complete executions, expected %d" % (what, complete, want))
            if mode == "optimal":
                check(s["blocked"] == 0, "%s: %d executions abandoned" % (what, s["blocked"]))
            check(s["complete"] and "exhausted: all %d traces" % want in s["guarantee"],
                  "%s: guarantee %r" % (what, s["guarantee"]))


# (program, traces): counted by hand or by unbounded DFS once; preemption
# bound 3 is enough for DFS to see them all.
ORACLE = [("nested", 6), ("locks", 16), ("condvar", 40), ("heap", 20),
          ("choose_race", 48), ("atomic_section", 2), ("condvar_shutdown", 6)]


def group_oracle(args):
    for name, want in ORACLE:
        prog = os.path.join(args.progs, name)
        p, ref = ravel(args, "--strategy", "dfs", "--preemption-bound", "3", "--jobs", "1", "--executions", "0",
                       prog=prog)
        if not check(p.returncode == 0 and ref and ref["complete"], "%s dfs: %s" % (name, p.stderr[-400:])):
            continue
        check(ref["traces"] == want, "%s: DFS saw %d traces, expected %d" % (name, ref["traces"], want))
        for mode in ("optimal", "source"):
            p, s = ravel(args, "--strategy", "dpor", "--dpor-mode", mode, "--jobs", "1", "--executions", "0",
                         "--trace-fingerprints", prog=prog)
            what = "%s %s" % (name, mode)
            if not check(p.returncode == 0 and s, "%s: exit %d %s" % (what, p.returncode, p.stderr[-400:])):
                continue
            print("%s: %d traces in %d executions (%d blocked); DFS: %d traces in %d" % (
                what, s["traces"], s["executions"], s["blocked"], ref["traces"], ref["executions"]))
            check(s["traces"] == ref["traces"] and s["trace_digest"] == ref["trace_digest"],
                  "%s: traces %d digest %s, DFS %d digest %s" % (
                      what, s["traces"], s["trace_digest"], ref["traces"], ref["trace_digest"]))
            if mode == "optimal" and name != "atomic_section":
                check(s["executions"] == s["traces"] and s["blocked"] == 0,
                      "%s: %d executions for %d traces" % (what, s["executions"], s["traces"]))


def group_jobs(args):
    # Lanes explore exactly the traces one search explores: same count, same
    # digest of the set of fingerprints. (Executions abandoned by sleep sets
    # can differ by a few: which lane takes a branch first depends on
    # timing.) Optimal DPOR on several lanes explores work units (a unit's
    # sleepers covered by another unit's branch cover only as initials):
    # the same set again.
    progs = [(os.path.join(args.bench, n), [str(k)]) for n, k in
             (("readers", 8), ("lastzero", 10), ("indexer", 14), ("filesystem", 18), ("fib_bench", 0))]
    progs += [(os.path.join(args.progs, n), []) for n, _ in ORACLE]
    for prog, pargs in progs:
        name = os.path.basename(prog) + "".join("(%s)" % a for a in pargs)
        runs = {}
        configs = (("1", "optimal"), ("1", "source"), ("2", "source"), ("3", "source"), ("2", "optimal"),
                   ("3", "optimal"))
        for jobs, mode in configs:
            p, s = ravel(args, "--strategy", "dpor", "--dpor-mode", mode, "--jobs", jobs, "--executions", "0",
                         "--trace-fingerprints", prog=prog, prog_args=pargs)
            done = s and s["complete"]
            if check(p.returncode == 0 and done, "%s --jobs %s: %s" % (name, jobs, p.stderr[-400:])):
                runs[(jobs, mode)] = s
        if len(runs) != len(configs):
            continue
        one = runs[("1", "optimal")]
        print("%s: %d traces; executions: optimal %d, source %d, source with 2 and 3 jobs %d %d, "
              "optimal with 2 and 3 jobs %d %d" % (
                  name, one["traces"], one["executions"], runs[("1", "source")]["executions"],
                  runs[("2", "source")]["executions"], runs[("3", "source")]["executions"],
                  runs[("2", "optimal")]["executions"], runs[("3", "optimal")]["executions"]))
        for jobs in ("2", "3"):
            check("optimal DPOR, %s jobs" % jobs in runs[(jobs, "optimal")]["method"],
                  "%s: --jobs %s optimal ran as %r" % (name, jobs, runs[(jobs, "optimal")]["method"]))
        for key, s in runs.items():
            check(s["traces"] == one["traces"] and s["trace_digest"] == one["trace_digest"],
                  "%s --jobs %s %s: %d traces (digest %s), one optimal search: %d (%s)" % (
                      name, key[0], key[1], s["traces"], s["trace_digest"], one["traces"], one["trace_digest"]))


def fingerprints(args, prog, pargs, *opts):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "fp")
        p, s = ravel(args, "--strategy", "dpor", "--executions", "0", "--jobs", "1", "--fingerprints-file", out,
                     *opts, prog=prog, prog_args=pargs)
        fps = open(out).read().split() if os.path.exists(out) else None
    return p, s, fps


def group_shards(args):
    # The union of the shards' traces is exactly the unsharded run's.
    progs = [(os.path.join(args.bench, n), [str(k)]) for n, k in
             (("readers", 8), ("lastzero", 10), ("indexer", 14), ("filesystem", 18))]
    progs += [(os.path.join(args.progs, n), []) for n in ("nested", "locks", "condvar", "heap", "choose_race")]
    for prog, pargs in progs:
        name = os.path.basename(prog) + "".join("(%s)" % a for a in pargs)
        p, s, whole = fingerprints(args, prog, pargs)
        if not check(p.returncode == 0 and s and whole, "%s unsharded: %s" % (name, p.stderr[-400:])):
            continue
        check(len(whole) == s["traces"], "%s: %d fingerprints written for %d traces" % (name, len(whole), s["traces"]))
        for n in (2, 3):
            union, total, execs = set(), 0, []
            for i in range(1, n + 1):
                p, s, fps = fingerprints(args, prog, pargs, "--shard", "%d/%d" % (i, n))
                if not check(p.returncode == 0 and s and fps is not None and s["complete"],
                             "%s shard %d/%d: %s" % (name, i, n, p.stderr[-400:])):
                    break
                check(("shard %d/%d" % (i, n)) in s["guarantee"], "%s: guarantee %r" % (name, s["guarantee"]))
                union |= set(fps)
                total += len(fps)
                execs.append(s["executions"])
            else:
                print("%s, %d shards: %d traces in all, %d distinct (unsharded %d); executions %s" % (
                    name, n, total, len(union), len(whole), "+".join(map(str, execs))))
                check(union == set(whole), "%s, %d shards: the union differs from the unsharded run" % (name, n))


def group_bounds(args):
    prog = os.path.join(args.progs, "preempt3")
    for strategy in ("dfs", "dpor"):
        p, s = ravel(args, "--strategy", strategy, "--preemption-bound", "2", "--executions", "0", prog=prog)
        check(p.returncode == 0 and s and s["result"] == "clean" and s["complete"] and s["bound"] == 2,
              "%s: reported at preemption bound 2: %s" % (strategy, p.stdout))
        check(s and "preemption bound 2 exhausted" in s["guarantee"], "%s: guarantee %r" % (strategy, s and s["guarantee"]))
        p, s = ravel(args, "--strategy", strategy, "--preemption-bound", "3", "--executions", "0", prog=prog)
        check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion" and s["bound"] == 3,
              "%s: not found at preemption bound 3: %s" % (strategy, p.stdout))
        if s and s["bugs"]:
            check("3 preemptions" in p.stderr, "%s: the first report does not need 3 preemptions" % strategy)
    p, s = ravel(args, "--strategy", "dfs", "--delay-bound", "4", "--executions", "0", prog=prog)
    check(p.returncode == 1 and s and s["bugs"], "dfs: not found by delay bounding: %s" % p.stdout)


def group_choose(args):
    prog = os.path.join(args.progs, "choose")
    for strategy in ("dfs", "dpor"):
        p, s = ravel(args, "--strategy", strategy, "--executions", "0", prog=prog)
        check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion",
              "%s: the value-7 bug was not found: %s %s" % (strategy, p.stdout, p.stderr[-400:]))
    # Two choices in one block: (0, 1) and (1, 0) are different traces,
    # whether counted per execution (DPOR, one lane) or by fingerprint
    # (DFS, --trace-fingerprints, two lanes).
    pair = os.path.join(args.progs, "choose_pair")
    for opts in (["--strategy", "dpor", "--jobs", "1"], ["--strategy", "dfs"],
                 ["--strategy", "dpor", "--jobs", "1", "--trace-fingerprints"],
                 ["--strategy", "dpor", "--jobs", "2"]):
        p, s = ravel(args, "--executions", "0", *opts, prog=pair)
        check(p.returncode == 0 and s and s["complete"] and s["traces"] == 18 and s["traces_exact"],
              "choose_pair with %s: not 18 traces: %s %s" % (" ".join(opts), p.stdout[-300:], p.stderr[-300:]))


def group_assume(args):
    prog = os.path.join(args.progs, "assume")
    for strategy in ("dpor", "dfs", "random"):
        p, s = ravel(args, "--strategy", strategy, "--seed", "1", "--executions", "200", prog=prog)
        check(p.returncode == 0 and s and s["result"] == "clean" and s["blocked"] > 0,
              "%s: assume did not discard: %s" % (strategy, p.stdout))


def group_atomic(args):
    prog = os.path.join(args.progs, "atomic_section")
    p, s = ravel(args, "--strategy", "dfs", "--executions", "0", prog=prog)
    check(p.returncode == 0 and s and s["result"] == "clean" and s["complete"],
          "atomic sections were interleaved: %s %s" % (p.stdout, p.stderr[-600:]))


def group_sections(args):
    prog = os.path.join(args.progs, "atomic_alternate")
    for opts in (["--strategy", "dpor", "--jobs", "1"], ["--strategy", "dfs", "--jobs", "1"],
                 ["--strategy", "pct", "--seed", "1"], ["--strategy", "random", "--seed", "1"]):
        p, s = ravel(args, "--executions", "0" if "dfs" in opts or "dpor" in opts else "2000",
                     *opts, prog=prog)
        check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion"
              and "reach_error" in s["bugs"][0]["message"],
              "alternating sections not found with %s: %s %s" % (" ".join(opts), p.stdout[-300:], p.stderr[-600:]))
    fixed = os.path.join(args.progs, "atomic_alternate_fixed")
    for opts in (["--strategy", "dpor", "--dpor-mode", "optimal"], ["--strategy", "dpor", "--dpor-mode", "source"],
                 ["--strategy", "dfs"]):
        p, s = ravel(args, "--executions", "0", "--jobs", "1", *opts, prog=fixed)
        check(p.returncode == 0 and s and s["complete"] and s["traces"] == 252 and s["blocked"] == 0,
              "fixed alternation with %s: not 252 traces: %s %s" % (" ".join(opts), p.stdout[-400:], p.stderr[-300:]))
    wait = os.path.join(args.progs, "atomic_wait")
    counts = set()
    for opts in (["--strategy", "dpor", "--dpor-mode", "optimal"], ["--strategy", "dpor", "--dpor-mode", "source"],
                 ["--strategy", "dfs"], ["--strategy", "dfs", "--backend", "threads"]):
        p, s = ravel(args, "--executions", "0", "--jobs", "1", *opts, prog=wait)
        if check(p.returncode == 0 and s and s["complete"] and s["blocked"] == 0,
                 "assume in a section with %s: %s %s" % (" ".join(opts), p.stdout[-400:], p.stderr[-600:])):
            counts.add(s["traces"])
    check(len(counts) == 1, "assume in a section: trace counts differ: %s" % counts)
    for strat in ("random", "pct"):
        p, s = ravel(args, "--strategy", strat, "--executions", "500", "--seed", "2", prog=wait)
        check(p.returncode == 0 and s and s["blocked"] == 0,
              "assume in a section with %s discarded executions: %s %s" % (strat, p.stdout[-300:], p.stderr[-300:]))


def group_stop(args):
    prog = os.path.join(args.progs, "late_bug")
    for i in range(30):
        try:
            p, s = ravel(args, "--strategy", "dpor", "--jobs", "2", "--executions", "0", prog=prog, timeout=120)
        except subprocess.TimeoutExpired:
            check(False, "run %d with 2 lanes did not end after finding the bug" % i)
            return
        if not check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion",
                     "run %d: the late bug was not reported: %s %s" % (i, p.stdout[-300:], p.stderr[-300:])):
            return


def group_guarantees(args):
    prog = os.path.join(args.bench, "readers")
    cases = [
        (["--strategy", "dpor", "--executions", "0"], "exhausted: all 4 traces"),
        (["--strategy", "dfs", "--executions", "0"], "exhausted: all 4 traces"),
        (["--strategy", "dfs", "--preemption-bound", "1", "--executions", "0"], "preemption bound 1"),
        (["--strategy", "pct", "--seed", "3", "--executions", "100"], "PCT d=3, 100 runs"),
        (["--strategy", "random", "--seed", "3", "--executions", "100"], "distinct traces seen"),
        (["--strategy", "auto"], "exhausted: all 4 traces"),
    ]
    for opts, want in cases:
        p, s = ravel(args, *opts, prog=prog, prog_args=["2"])
        check(s and want in s["guarantee"] and ("ravel: " + s["guarantee"]) in p.stderr,
              "%s: guarantee %r, wanted %r" % (" ".join(opts), s and s["guarantee"], want))
    p, s = ravel(args, "--strategy", "auto", "--executions", "200", prog=os.path.join(args.bench, "readers"),
                 prog_args=["13"])
    check(s and "then PCT" in s["guarantee"] and "missed with probability below" in s["guarantee"],
          "auto on a large space: %r" % (s and s["guarantee"]))


# (program, argument, traces): GenMC's count for its program of the same
# shape (tests/correct/synthetic/<name>), or, where GenMC has none, the
# count DPOR and DFS agree on (spin_dfs below checks some). A loop is
# recognised when a thread reaches the same load instruction again, so a
# count can depend on the compiler's layout: clang rotates Dekker's outer
# loop (its first test is another instruction than the later ones), which
# lets one more iteration go round before the loop is recognised: 7
# traces, 4 with gcc (a pair is (gcc, clang)).
SPIN = [("spin_peterson", None, 4), ("spin_lamport", None, 16), ("spin_dekker", "f", 3),
        ("spin_dekker", None, (4, 7)), ("spin_szymanski", None, 46), ("spin_ttas", None, 4),
        ("spin_ticket", None, 6), ("spin_seqlock", None, 9), ("spin_volflag", None, 1),
        ("spin_tas", None, 2)]
# spin_ttas was 6 until a read-modify-write that leaves the value as it was
# (its exchange failing because the other thread took the lock between
# the test and the set) counted as a read: the failed attempt and the
# re-read are now a vain iteration, covered by the execution in which the
# attempt comes after the unlock. DFS under the same rule agrees (4).


def group_spin(args):
    for name, arg, want in SPIN:
        prog = os.path.join(args.progs, name)
        if isinstance(want, tuple):
            with open(prog, "rb") as f:
                want = want[1] if b"clang version" in f.read() else want[0]
        pargs = [arg] if arg else []
        what = name + (" " + arg if arg else "")
        digests = set()
        for jobs, mode in (("1", "optimal"), ("1", "source"), ("2", "source")):
            p, s = ravel(args, "--strategy", "dpor", "--dpor-mode", mode, "--jobs", jobs, "--executions", "0",
                         "--trace-fingerprints", prog=prog, prog_args=pargs)
            w = "%s %s --jobs %s" % (what, mode, jobs)
            if not check(p.returncode == 0 and s, "%s: exit %d %s" % (w, p.returncode, p.stderr[-600:])):
                continue
            print("%s: %d traces, %d executions, %d blocked" % (w, s["traces"], s["executions"], s["blocked"]))
            check(s["result"] == "clean" and s["complete"] and s["traces"] == want and
                  "exhausted: all %d traces" % want in s["guarantee"],
                  "%s: %s, %d traces (expected %d), %r" % (w, s["result"], s["traces"], want, s["guarantee"]))
            digests.add(s["trace_digest"])
        check(len(digests) == 1, "%s: DPOR modes explore different sets of traces: %s" % (what, digests))
        for strategy in ("random", "pct"):
            p, s = ravel(args, "--strategy", strategy, "--seed", "1", "--executions", "2000", prog=prog,
                         prog_args=pargs)
            check(p.returncode == 0 and s and s["result"] == "clean" and s["executions"] == 2000,
                  "%s %s: %s" % (what, strategy, p.stderr[-600:]))
    # GenMC's szymanski is symmetric and can deadlock: both threads reach
    # flag 4 and wait for each other. Its 6 are the other executions.
    p, s = ravel(args, "--strategy", "dpor", "--jobs", "1", "--executions", "0", "--keep-going",
                 prog=os.path.join(args.progs, "spin_szymanski"), prog_args=["genmc"])
    if check(p.returncode == 1 and s and s["complete"] and s["bugs"], "szymanski genmc: %s" % p.stderr[-600:]):
        bug = s["bugs"][0]
        print("szymanski genmc: %d traces, %d deadlocked" % (s["traces"], bug["occurrences"]))
        check(len(s["bugs"]) == 1 and bug["kind"] == "deadlock" and "spins forever" in bug["message"] and
              s["traces"] - bug["occurrences"] == 6,
              "szymanski genmc: %d traces, bugs %r" % (s["traces"], s["bugs"]))


# The same programs built with -O0, where a loop keeps its condition's
# temporaries (and atomic_load's result) in stack slots: writes to the
# thread's own stack are no side effect for the spin-wait rules, so the
# loops are recognised as at -O2 (before, Peterson's and the ticket lock
# ran to the step limit). Counts as at -O2, with gcc and clang alike,
# but for Dekker's outer loop, which takes 4 with both compilers (clang's
# -O2: 7). Lamport's `for (j ...) await(b[j])` is one read instruction
# walking two locations at -O0; once it reads b[2] again it has settled,
# and waits as the unrolled loop of -O2 does: GenMC's 16 (it was 21 while
# any walk had to repeat an iteration value for value first).
SPIN_O0 = {"spin_dekker": 4}


def group_spin_O0(args):
    for name, arg, want in SPIN:
        if name in SPIN_O0 and not arg:
            want = SPIN_O0[name]
        prog = os.path.join(args.progs, name + "_O0")
        pargs = [arg] if arg else []
        what = name + "_O0" + (" " + arg if arg else "")
        p, s = ravel(args, "--strategy", "dpor", "--jobs", "1", "--executions", "0", prog=prog,
                     prog_args=pargs)
        if not check(p.returncode == 0 and s, "%s: exit %d %s" % (what, p.returncode, p.stderr[-600:])):
            continue
        print("%s: %d traces, %d executions, %d blocked" % (what, s["traces"], s["executions"], s["blocked"]))
        check(s["result"] == "clean" and s["complete"] and s["traces"] == want,
              "%s: %s, %d traces (expected %d), %r" % (what, s["result"], s["traces"], want, s["guarantee"]))
    # A broken variant is still found at -O0.
    p, s = ravel(args, "--strategy", "dpor", "--jobs", "1", "--executions", "0",
                 prog=os.path.join(args.progs, "spin_peterson_O0"), prog_args=["broken"])
    check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion",
          "spin_peterson_O0 broken: exit %d %s" % (p.returncode, p.stderr[-600:]))


def group_spin_broken(args):
    # Every broken variant is found by each strategy within its budget.
    for name in ("spin_peterson", "spin_szymanski", "spin_lamport", "spin_dekker", "spin_ttas", "spin_ticket",
                 "spin_seqlock", "spin_volflag", "spin_tas"):
        prog = os.path.join(args.progs, name)
        for opts in (("--strategy", "dpor", "--executions", "0"),
                     ("--strategy", "random", "--seed", "1", "--executions", "10000"),
                     ("--strategy", "pct", "--seed", "1", "--executions", "10000")):
            p, s = ravel(args, "--jobs", "1", *opts, prog=prog, prog_args=["broken"])
            what = "%s broken %s" % (name, opts[1])
            if check(p.returncode == 1 and s and s["bugs"], "%s: not found: %s" % (what, p.stderr[-600:])):
                print("%s: %s after %d executions" % (what, s["bugs"][0]["kind"], s["executions"]))
                check(s["bugs"][0]["kind"] in ("assertion", "deadlock", "data-race"),
                      "%s: %r" % (what, s["bugs"][0]))
    # A wait no write ends: a deadlock naming the spinning thread, with its
    # stack, found at once by every strategy.
    prog = os.path.join(args.progs, "spin_volflag")
    for strategy in ("dpor", "random", "pct"):
        env = dict(os.environ)
        env.pop("RAVEL_OPTIONS", None)
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([args.ravel, "run", "--strategy", strategy, "--ticket-dir", d, "--", prog, "forever"],
                               capture_output=True, text=True, timeout=300, env=env)
        check(p.returncode == 1 and "BUG (deadlock): thread 1 spins forever" in p.stderr and
              "thread 1 spins forever: its loop reads ready, which no thread writes any more" in p.stderr and
              "main " in p.stderr and "spin_volflag.c:" in p.stderr and "1 execution" in p.stderr,
              "volflag forever %s: %s" % (strategy, p.stderr[-1200:]))


    # A spin on a plain int (built with -O0, so the loop loads it): seen at
    # the access hooks, its read made a scheduling point, and then what it
    # is - a data race with the write that ends it - is reported; never a
    # hang (the watchdog is set far beyond the run's length).
    prog = os.path.join(args.progs, "spin_plain")
    for strategy, budget in (("dpor", "0"), ("random", "300"), ("pct", "300")):
        for mode in ("", "forever", "compute"):
            if mode == "compute" and budget != "0":
                budget = "30"  # each execution makes 600,000 plain reads
            p, s = ravel(args, "--strategy", strategy, "--seed", "1", "--executions", budget,
                         "--keep-going", "--watchdog", "120", prog=prog,
                         prog_args=[mode] if mode else [])
            what = "spin_plain %s %s" % (mode or "flag", strategy)
            if not check(s is not None, "%s: %s" % (what, p.stderr[-600:])):
                continue
            kinds = sorted(set(b["kind"] for b in s["bugs"]))
            print("%s: %s, %d executions, %d restarts, %d promoted" % (
                what, kinds, s["executions"], s["restarts"], s["promoted_locations"]))
            if strategy == "dpor":
                check(s["complete"] and "exhausted" in s["guarantee"],
                      "%s: not complete: %s" % (what, s["guarantee"]))
            if mode == "compute":
                # A long read-only computation is no spin.
                check(p.returncode == 0 and s["result"] == "clean" and s["promoted_locations"] == 0,
                      "%s: %d %s %s" % (what, p.returncode, kinds, p.stderr[-600:]))
                continue
            # (Random and PCT may let the worker write first: then the race
            # is found before any spin.)
            check("hang" not in kinds and "step-limit" not in kinds
                  and ("1 plain read a thread spun on made scheduling points" in p.stderr
                       or (mode == "" and strategy != "dpor")),
                  "%s: %s %s" % (what, kinds, p.stderr[-900:]))
            if mode == "":
                check(p.returncode == 1 and kinds == ["data-race"]
                      and any("ready" in b.get("message", "") or b["function"] in ("main", "worker")
                              for b in s["bugs"]),
                      "%s: %s" % (what, s["bugs"]))
            else:
                check(p.returncode == 1 and "deadlock" in kinds
                      and "thread 1 spins forever" in p.stderr and "spin_plain.c:" in p.stderr,
                      "%s: %s %s" % (what, kinds, p.stderr[-900:]))


def group_spin_dfs(args):
    # DPOR with spin-waits explores the set of traces that DFS, trying every
    # interleaving under the same rule, finds.
    for name, want in (("spin_peterson", 4), ("spin_ttas", 4), ("spin_volflag", 1), ("spin_tas", 2)):
        prog = os.path.join(args.progs, name)
        p, ref = ravel(args, "--strategy", "dfs", "--jobs", "1", "--executions", "0", prog=prog)
        if not check(p.returncode == 0 and ref and ref["complete"], "%s dfs: %s" % (name, p.stderr[-400:])):
            continue
        p, s = ravel(args, "--strategy", "dpor", "--jobs", "1", "--executions", "0", "--trace-fingerprints",
                     prog=prog)
        print("%s: DPOR %d traces in %d executions, DFS %d in %d" % (
            name, s["traces"], s["executions"], ref["traces"], ref["executions"]))
        check(ref["traces"] == want and s["traces"] == want and s["trace_digest"] == ref["trace_digest"],
              "%s: DPOR %d (%s), DFS %d (%s)" % (name, s["traces"], s["trace_digest"], ref["traces"],
                                                 ref["trace_digest"]))
def group_guarantees_qualified(args):
    prog = os.path.join(args.progs, "spawn_forever")
    for strat in ("dpor", "dfs", "random", "pct", "auto"):
        p, s = ravel(args, "--strategy", strat, "--max-threads", "3", "--executions", "300", prog=prog)
        check(p.returncode == 0 and s and not s["complete"] and s["cut_short"] > 0
              and "cut short at --max-threads 3" in s["guarantee"],
              "cut-short executions with %s: %s %s" % (strat, p.stdout[-500:], p.stderr[-300:]))
    # Without --max-threads, ravel's capacity (1,024 threads) cuts the
    # execution short the same way, instead of stopping the run.
    p, s = ravel(args, "--strategy", "random", "--seed", "1", "--executions", "3", prog=prog)
    check(p.returncode == 0 and s and not s["complete"] and s["cut_short"] == 3
          and s["executions"] == 3 and "capacity of 1024 threads" in s["guarantee"],
          "thread capacity: %d %s %s" % (p.returncode, p.stdout[-500:], p.stderr[-300:]))
    race = os.path.join(args.progs, "race_reread")
    for extra in ([], ["--keep-going"], ["--jobs", "2"]):
        p, s = ravel(args, *extra, prog=race)
        kinds = [b["kind"] for b in s["bugs"]] if s else []
        # The default strategy reports the race, starts over with every
        # access to v a scheduling point, and finds the assertion.
        check(p.returncode == 1 and "data-race" in kinds and "assertion" in kinds,
              "race_reread %s: race and assertion not both found: %s %s" % (extra, kinds, p.stderr[-300:]))
        if s:
            g = s["guarantee"]
            check(not g.startswith("exhausted") or "racing variable" in g or "data races" in g,
                  "race_reread %s: bare guarantee after a data race: %s" % (extra, g))
            check(s["promoted_variables"] >= 1, "race_reread %s: v not promoted: %s" % (extra, s))
    p, s = ravel(args, "--keep-going", prog=race)
    check(s and [b for b in s["bugs"] if b["kind"] == "assertion" and b["race_directed"]],
          "race_reread: default strategy with --keep-going did not find the assertion: %s" % (s and s["bugs"]))
    hang = os.path.join(args.progs, "spin_hang")
    p, s = ravel(args, "--strategy", "dpor", "--keep-going", "--watchdog", "0.5", "--executions", "0", prog=hang)
    # gcc leaves the volatile local's loads uninstrumented: the spin has no
    # visible operation and the watchdog stops it (a hang: the run is not
    # complete). clang instruments them: the spin is recognised and, since
    # nothing can end it, reported as a deadlock (spins forever), an
    # execution that ended, so the run may be complete.
    hung = s and [b for b in s["bugs"] if b["kind"] == "hang"]
    spun = s and [b for b in s["bugs"] if b["kind"] == "deadlock"] and "spins forever" in p.stderr
    check(s and ((hung and not s["complete"] and "stopped by a hang" in s["guarantee"]) or (spun and not hung)),
          "spin_hang: a run with a hang claims completeness: %s %s" % (s and s["guarantee"], p.stderr[-300:]))
    p, s = ravel(args, "--keep-going", "--no-promote-races", prog=race)
    check(s and not s["complete"] and "not every access" in s["guarantee"],
          "race_reread without promotion claims completeness: %s" % (s and s["guarantee"]))


def group_timeouts(args):
    """Timed waits and sleeps (tests/dpor/progs/timed_wait.c). With
    --timeouts any every strategy finds the timeout that comes before the
    signal, and the worker that has not run when main's sleep ends; with
    --timeouts late both are clean, the guarantee says what was assumed
    and is not complete, and a timeout nobody can prevent is still taken
    (not a deadlock), reported, and replayed from its ticket."""
    prog = os.path.join(args.progs, "timed_wait")
    strategies = [["--strategy", "dpor", "--dpor-mode", "optimal", "--jobs", "1"],
                  ["--strategy", "dpor", "--dpor-mode", "source", "--jobs", "1"],
                  ["--strategy", "dpor"], ["--strategy", "dfs", "--jobs", "1"],
                  ["--strategy", "random", "--seed", "1"], ["--strategy", "pct", "--seed", "1"]]
    for mode, message in (("signal", "the 2 s wait timed out"), ("sleep", "did not run in 200 ms")):
        for st in strategies:
            what = "%s %s" % (mode, " ".join(st))
            p, s = ravel(args, *st, "--executions", "2000", prog=prog, prog_args=[mode])
            check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion"
                  and message in s["bugs"][0]["message"],
                  "%s: the early timeout was not found: exit %d %s" % (what, p.returncode, p.stderr[-400:]))
            p, s = ravel(args, *st, "--executions", "2000", "--timeouts", "late", prog=prog, prog_args=[mode])
            ok = check(p.returncode == 0 and s and not s["bugs"],
                       "%s --timeouts late: exit %d %s" % (what, p.returncode, p.stderr[-400:]))
            if ok:
                check(not s["complete"] and "--timeouts late" in s["guarantee"],
                      "%s --timeouts late: guarantee %r complete %r" % (what, s["guarantee"], s["complete"]))
    for st in strategies:
        what = "never %s --timeouts late" % " ".join(st)
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ)
            env.pop("RAVEL_OPTIONS", None)
            p = subprocess.run([args.ravel, "run", "--json", "--ticket-dir", d, "--timeouts", "late"] + st +
                               ["--", prog, "never"], capture_output=True, text=True, timeout=300, env=env)
            s = json.loads(p.stdout) if p.stdout.strip() else None
            if not check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion",
                         "%s: the timeout nobody prevents was not reported: %s" % (what, p.stderr[-400:])):
                continue
            ticket = s["bugs"][0]["ticket"]
            check("timeouts late" in open(ticket).read(), "%s: the ticket does not say 'timeouts late'" % what)
            r = subprocess.run([args.ravel, "replay", ticket], capture_output=True, text=True, timeout=120,
                               env=env)
            check(r.returncode == 1 and "the 2 s wait timed out" in r.stderr,
                  "%s: replay did not repeat the bug: %d %s" % (what, r.returncode, r.stderr[-400:]))
def group_fairness(args):
    """The fairness rule of src/rt/sched.c holds a thread back only where
    it loops (tests/dpor/progs/sleep_first.c)."""
    prog = os.path.join(args.progs, "sleep_first")
    systematic = [["--strategy", "dpor", "--dpor-mode", "optimal", "--jobs", "1"],
                  ["--strategy", "dpor", "--dpor-mode", "source", "--jobs", "1"],
                  ["--strategy", "dpor", "--jobs", "2"], ["--strategy", "dfs", "--jobs", "1"], []]
    for mode in ("once", "twice"):
        for st in systematic:
            what = "%s %s" % (mode, " ".join(st) or "default")
            p, s = ravel(args, *st, "--executions", "0", prog=prog, prog_args=[mode])
            check(p.returncode == 0 and s and s["complete"] and s["traces"] == 2 and
                  "exhausted: all 2 traces" in s["guarantee"],
                  "%s: %d %s" % (what, p.returncode, s and (s["traces"], s["guarantee"])))
            p, s = ravel(args, *st, "--executions", "0", prog=prog, prog_args=[mode, "check"])
            check(p.returncode == 1 and s and s["bugs"] and s["bugs"][0]["kind"] == "assertion" and
                  "doubled x first" in s["bugs"][0]["message"],
                  "%s check: the worker's first lock was not explored: %d %s" % (what, p.returncode,
                                                                                p.stderr[-400:]))
    for st in systematic + [["--strategy", "random", "--seed", "1"], ["--strategy", "pct", "--seed", "1"]]:
        what = "retry %s" % (" ".join(st) or "default")
        p, s = ravel(args, *st, "--executions", "500", prog=prog, prog_args=["retry"])
        check(p.returncode == 0 and s and not s["complete"] and
              "was held back until the others ran" in s["guarantee"] and
              not s["guarantee"].startswith("exhausted"),
              "%s: %d %s" % (what, p.returncode, s and s["guarantee"]))
    # A loop that reads and yields is a spin-wait (src/model/spin.c): the
    # read that found the flag clear, then the yield, is a vain iteration,
    # and the yield holds nobody back. gcc 12 reads the flag at one place
    # (1 trace); clang 14 rotates the loop, so its first test and the
    # loop's are two reads, and the first finding the flag clear is a
    # second trace (not collapsed: the rule sees a read come round again).
    p, s = ravel(args, "--strategy", "dpor", "--executions", "0", prog=os.path.join(args.progs, "spin_volflag"),
                 prog_args=["yield"])
    check(p.returncode == 0 and s and s["complete"] and s["traces"] in (1, 2) and
          "exhausted: all %d traces" % s["traces"] in s["guarantee"],
          "spin_volflag yield: %d %s" % (p.returncode, s and (s["traces"], s["guarantee"])))


def group_bench(args):
    # The table as a user sees it; the rc11 budget is short so that the
    # benchmarks whose rc11 exploration is long show the "> N s" cell.
    budget = 3
    env = dict(os.environ)
    env.pop("RAVEL_OPTIONS", None)
    p = subprocess.run([args.ravel, "bench", "--quick", "--dir", args.bench,
                        "--rc11-budget", str(budget)],
                       capture_output=True, text=True, timeout=1200, env=env)
    print(p.stdout)
    check(p.returncode == 0, "ravel bench --quick: exit %d (a count differed "
          "or a run failed) %s" % (p.returncode, p.stderr[-500:]))
    header = [ln for ln in p.stdout.splitlines() if ln.startswith("benchmark")]
    check(header and "rc11 graphs" in header[0] and "rc11 ex/s" in header[0],
          "ravel bench: no rc11 columns in the header: %r" % header)
    # benchmark, "optimal, 1 job", traces, execs, blocked, time, execs/s,
    # four profile figures, then the two rc11 cells.
    row = re.compile(r"^(\S+)\s+optimal, 1 job\s+(\d+)\s+(\d+)\s+(\d+)\s+"
                     r"([\d.]+)\s+(\d+)(?:\s+[\d.]+){4}\s+(\S+)\s+"
                     r"(> \d+ s|\d+)(?:\s|$)")
    cells = {}
    for ln in p.stdout.splitlines():
        m = row.match(ln)
        if m:
            cells[m.group(1)] = (m.group(7), m.group(8))
    check(len(cells) == 5, "ravel bench: %d benchmarks with rc11 cells, "
          "expected 5: %r" % (len(cells), cells))
    fs = cells.get("filesystem(18)")
    check(fs and fs[0] == "32" and fs[1].isdigit() and int(fs[1]) > 0,
          "ravel bench: filesystem(18) under rc11 should finish with 32 "
          "execution graphs and a rate: %r" % (fs,))
    over = ["%s %r" % (k, v) for k, v in cells.items()
            if v[1].startswith(">") and (v[1] != "> %d s" % budget or
                                         v[0] != "-")]
    check(not over, "ravel bench: an rc11 exploration over budget must show "
          "'> %d s' and no graph count: %s" % (budget, over))
    done = ["%s %r" % (k, v) for k, v in cells.items()
            if v[1].isdigit() and not v[0].isdigit()]
    check(not done, "ravel bench: a finished rc11 exploration without its "
          "graph count: %s" % done)
    check(any(v[1].startswith(">") for v in cells.values()),
          "ravel bench: every rc11 exploration finished within %d s, which "
          "the seq_cst benchmarks should not (docs/memory-models.md): %r" %
          (budget, cells))


# (program, arguments, snapshots used: True, False, or None for a program
# too small to say): the benchmarks at sizes the suite affords, and
# programs with locks, condition variables, semaphores, data choices,
# spin-waits, TLS and heap blocks.
SNAPSHOT_PROGS = [
    ("bench", "fib_bench", [], True), ("bench", "lastzero", ["8"], True),
    ("bench", "indexer", ["13"], True), ("bench", "readers", ["8"], True),
    ("bench", "casrot", ["7"], True), ("bench", "ainc", ["5"], True),
    ("bench", "filesystem", ["16"], True),
    ("progs", "snapshot_state", [], True), ("progs", "condvar", [], True),
    ("progs", "locks", [], True), ("progs", "nested", [], None),
    ("progs", "choose_race", [], True), ("progs", "spin_seqlock", [], True),
    ("progs", "spin_szymanski", [], True), ("progs", "heap", [], False),
    ("progs", "atomic_section", [], False),
]


def group_snapshots(args):
    def key(s, lanes):
        # Which executions two lanes abandon depends on where one steals
        # from the other: not compared there.
        return (s["traces"], s["trace_digest"], s["blocked"] if lanes == "1" else None, s["result"],
                s["complete"], sorted((b["kind"], b["location"]) for b in s["bugs"]))
    for where, name, pargs, used in SNAPSHOT_PROGS:
        prog = os.path.join(args.bench if where == "bench" else args.progs, name)
        what = name + "".join("(%s)" % a for a in pargs)
        for mode, jobs in (("optimal", "1"), ("source", "1"), ("optimal", "2")):
            common = ["--strategy", "dpor", "--dpor-mode", mode, "--jobs", jobs, "--executions", "0",
                      "--trace-fingerprints"]
            runs = {}
            for label, extra, opt in (("off", ["--no-snapshots"], None), ("on", [], None),
                                      ("check", [], "snapshots_check=1")):
                p, s = ravel(args, *(common + extra), prog=prog, prog_args=pargs, options=opt)
                ok = check(s is not None and p.returncode in (0, 1) and "error" not in s,
                           "%s %s/%s %s: exit %d %s" % (what, mode, jobs, label, p.returncode,
                                                       (s or {}).get("error") or p.stderr[-300:]))
                runs[label] = s if ok else None
            off, on, chk = runs["off"], runs["on"], runs["check"]
            if not (off and on and chk):
                continue
            k_off = key(off, jobs)
            check(key(on, jobs) == k_off, "%s %s/%s: with snapshots %r, without %r" % (
                what, mode, jobs, key(on, jobs), k_off))
            check(key(chk, jobs) == k_off, "%s %s/%s: checked %r, without %r" % (what, mode, jobs, key(chk, jobs), k_off))
            snap = on["snapshots"]
            print("%s %s/%s: %d traces, %d executions, snapshots %d taken, %d resumed" % (
                what, mode, jobs, on["traces"], on["executions"], snap["taken"], snap["resumed"]))
            if used:
                check(snap["resumed"] > 0 and snap["off"] is None,
                      "%s %s/%s: no execution started from a snapshot: %r" % (what, mode, jobs, snap))
            elif used is False:
                check(snap["resumed"] == 0, "%s %s/%s: snapshots used: %r" % (what, mode, jobs, snap))
    # Off where they cannot hold the program: it reads the clock.
    p, s = ravel(args, "--strategy", "dpor", "--executions", "100", prog=os.path.join(args.progs, "timed_wait"))
    check(s and (s["snapshots"]["off"] or "").startswith("imports ") and s["snapshots"]["taken"] == 0,
          "timed_wait: snapshots %r" % (s and s["snapshots"]))
    # A race found in an execution started from a snapshot.
    prog = os.path.join(args.progs, "snapshot_race")
    reports = {}
    for label, extra in (("off", ["--no-snapshots"]), ("on", [])):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ)
            env.pop("RAVEL_OPTIONS", None)
            p = subprocess.run([args.ravel, "run", "--json", "--ticket-dir", d, "--strategy", "dpor", "--jobs", "1",
                                "--executions", "0", "--no-promote-races"] + extra + ["--", prog],
                               capture_output=True, text=True, timeout=300, env=env)
            try:
                s = json.loads(p.stdout)
            except ValueError:
                s = None
            if not check(s and s["result"] == "bug" and len(s["bugs"]) == 1 and s["bugs"][0]["kind"] == "data-race",
                         "snapshot_race %s: %s" % (label, p.stdout[-300:] + p.stderr[-300:])):
                continue
            b = s["bugs"][0]
            # The report without the lines that name the run (seed, ticket).
            text = [l for l in p.stderr.splitlines() if "#" in l or "races with" in l or "step" in l]
            reports[label] = (b["message"], b["location"], b["execution"], text)
            if label == "on":
                check(s["snapshots"]["resumed"] > 0, "snapshot_race: no snapshot used: %r" % s["snapshots"])
                r = subprocess.run([os.path.abspath(args.ravel), "replay", "--json", b["ticket"]],
                                   capture_output=True, text=True,
                                   timeout=300, env=env, cwd=d)
                try:
                    rs = json.loads(r.stdout)
                except ValueError:
                    rs = None
                check(r.returncode == 1 and rs and rs["bugs"] and rs["bugs"][0]["kind"] == "data-race",
                      "snapshot_race: its ticket does not replay the race: %s" % (r.stdout[-300:] + r.stderr[-300:]))
    if len(reports) == 2:
        check(reports["on"] == reports["off"], "snapshot_race: reports differ:\n%r\n%r" % (reports["on"], reports["off"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--progs", required=True)
    args = ap.parse_args()
    {"counts": group_counts, "oracle": group_oracle, "jobs": group_jobs, "shards": group_shards,
     "bounds": group_bounds, "choose": group_choose,
     "assume": group_assume, "atomic": group_atomic, "sections": group_sections, "stop": group_stop,
     "guarantees": group_guarantees, "spin": group_spin, "spin_O0": group_spin_O0, "spin_broken": group_spin_broken,
     "spin_dfs": group_spin_dfs, "qualified": group_guarantees_qualified,
     "timeouts": group_timeouts, "fairness": group_fairness, "bench": group_bench, "snapshots": group_snapshots}[args.group](args)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
