#!/usr/bin/env python3
"""Threads that talk through file descriptors (src/rt/intercept/fd.c).

Programs written here (tests/fdmsg/progs), each bug with a FIXED variant:
    eventfd_loop     an event loop woken through an eventfd; a producer sets
                     its flag after the write: a lost wakeup (deadlock)
    dispatcher       a dispatcher and two workers over socket pairs; replies
                     overtake each other (assertion)
    pipe_pool        a thread pool fed through a pipe whose shutdown drops the
                     last job (assertion)
    echo_server      a loopback TCP echo server thread, handler threads and
                     two clients; per-connection state shared without a lock
                     (data race, wrong echo)
    read_each_other  two threads each waiting in read for the other (deadlock)
    pipe_token       a pipe used as a lock: DPOR must try the second thread
                     taking the token first, though its read happens after
                     the first thread's write back
and correct programs: oracle (pipe, eventfd, datagram socket pair, poll),
epoll_order (epoll's ready list order), epoll_loop (an epoll loop, then a
select that times out on the virtual clock), restore (leaked descriptors),
fixed_port (a server and a client on a fixed loopback port, as test suites
write them).

Groups (one ctest test each):
    bugs     each bug is found by DPOR, PCT and random, and its ticket
             replays it; the deadlocks are reported as deadlocks (never a
             hang) naming the descriptor waited on and its peer
    fixed    each fixed program is exhausted by optimal and source DPOR with
             no report, the same set of traces (digest) and the pinned
             count, and the same count again with another seed and 2 jobs;
             on oracle and epoll_order DPOR finds exactly DFS's traces
    report   data flow: a read names the thread whose write it took; the
             descriptors an execution leaves open are closed, numbering
             restored (one result over 200 executions)
    lanes    two lanes' executions never hold one fixed port at once:
             fixed_port is exhausted with no report on two lanes (its bind
             failed with EADDRINUSE when both lanes listened at once), with
             one lane's count, and run directly it exits 0

usage: fdmsg.py GROUP --ravel BIN --progs DIR
"""
import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def ravel(args, *opts, prog, cmd="run", timeout=300, cwd=None, extra=()):
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    argv = [args.ravel, cmd, "--json"] + list(opts) + (["--", prog] if cmd == "run" else [prog])
    argv += list(extra)
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                       env=e, cwd=cwd or args.work, stdin=subprocess.DEVNULL)
    try:
        s = json.loads(p.stdout) if p.stdout.strip() else None
    except ValueError:
        s = None
    return p, s


def prog(args, name):
    return os.path.join(args.progs, name)


# (program, what its bug is reported as)
BUGS = [("eventfd_loop", {"deadlock"}), ("dispatcher", {"assertion"}),
        ("pipe_pool", {"assertion"}), ("echo_server", {"data-race", "assertion"}),
        ("read_each_other", {"deadlock"}), ("pipe_token", {"assertion"})]


def group_bugs(args):
    for name, kinds in BUGS:
        for strategy in ("dpor", "pct", "random"):
            what = "%s %s" % (name, strategy)
            p, s = ravel(args, "--strategy", strategy, "--seed", "1", "--executions", "2000",
                         "--watchdog", "20", prog=prog(args, name))
            if not check(p.returncode == 1 and s and s["bugs"],
                         "%s: expected a bug, exit %d: %s" % (what, p.returncode, p.stderr[-1500:])):
                continue
            bug = s["bugs"][0]
            check(bug["kind"] in kinds, "%s: found %s, expected %s" % (what, bug["kind"], kinds))
            print("%s: %s after %d executions" % (what, bug["kind"], s["executions"]))
            # The ticket replays the same failure.
            r, rs = ravel(args, prog=os.path.join(args.work, bug["ticket"]), cmd="replay")
            rkinds = [b["kind"] for b in (rs or {}).get("bugs", [])]
            check(r.returncode == 1 and rkinds[:1] == [bug["kind"]],
                  "%s: replay of %s gave %s (exit %d): %s" % (
                      what, bug["ticket"], rkinds, r.returncode, r.stderr[-800:]))
            if name == "read_each_other" and strategy == "random":
                # Both threads are named with the descriptor each waits on,
                # the pipe and its peer end, which is open.
                text = p.stderr
                check("hang" not in text, "%s: reported as a hang:\n%s" % (what, text))
                waits = re.findall(r"thread (\S+) is blocked in read fd(\d+) of pipe\((\d+),(\d+)\); "
                                   r"its peer fd(\d+) is open", text)
                check(len(waits) == 2 and all(w[2] == w[1] and w[4] == w[3] for w in waits),
                      "%s: the report does not name each descriptor and its peer:\n%s" % (what, text))
            if name == "eventfd_loop" and strategy == "random":
                check(re.search(r"thread 1\.1 is blocked in read fd\d+ of eventfd\(\d+\)", p.stderr),
                      "%s: the loop's wait is not named:\n%s" % (what, p.stderr))


# (program, Mazurkiewicz traces): DPOR's count, checked by DFS where DFS is
# fast enough (oracle, epoll_order) and by the random strategy seeing the
# same number of distinct traces for the others when this was written.
FIXED = [("eventfd_loop_fixed", 14), ("dispatcher_fixed", 4), ("pipe_pool_fixed", 60),
         ("echo_server_fixed", 36), ("pipe_token_fixed", 2), ("oracle", 4), ("epoll_order", 6),
         ("epoll_loop", 462)]
DFS_BOUND = {"oracle": 2, "epoll_order": 4, "pipe_token_fixed": 3}


def group_fixed(args):
    for name, want in FIXED:
        runs = {}
        for mode in ("optimal", "source"):
            what = "%s %s" % (name, mode)
            p, s = ravel(args, "--strategy", "dpor", "--dpor-mode", mode, "--jobs", "1",
                         "--executions", "0", "--trace-fingerprints", prog=prog(args, name))
            if not check(p.returncode == 0 and s and s["result"] == "clean" and s["complete"],
                         "%s: not exhausted cleanly, exit %d: %s" % (what, p.returncode, p.stderr[-1500:])):
                continue
            check(s["traces"] == want, "%s: %d traces, expected %d" % (what, s["traces"], want))
            check("exhausted: all %d traces" % want in s["guarantee"],
                  "%s: guarantee %r" % (what, s["guarantee"]))
            runs[mode] = s
            print("%s: %d traces in %d executions" % (what, s["traces"], s["executions"]))
        if len(runs) == 2:
            check(runs["optimal"]["trace_digest"] == runs["source"]["trace_digest"],
                  "%s: optimal and source DPOR explored different traces" % name)
        # Stable: another seed, two lanes.
        p, s = ravel(args, "--strategy", "dpor", "--seed", "7", "--jobs", "2", "--executions", "0",
                     prog=prog(args, name))
        check(p.returncode == 0 and s and s["complete"] and s["traces"] == want,
              "%s: second run gave %s traces (exit %d)" % (name, s and s["traces"], p.returncode))
        if name in DFS_BOUND and "optimal" in runs:
            p, d = ravel(args, "--strategy", "dfs", "--preemption-bound", str(DFS_BOUND[name]),
                         "--jobs", "1", "--executions", "0", prog=prog(args, name))
            if check(p.returncode == 0 and d and d["complete"], "%s dfs: exit %d" % (name, p.returncode)):
                check(d["traces"] == want and d["trace_digest"] == runs["optimal"]["trace_digest"],
                      "%s: DFS saw %d traces (digest %s), DPOR %d (%s)" % (
                          name, d["traces"], d["trace_digest"], want, runs["optimal"]["trace_digest"]))


def group_report(args):
    p, s = ravel(args, "--strategy", "random", "--seed", "1", "--executions", "2000",
                 prog=prog(args, "eventfd_loop"))
    # A read of the eventfd names the producer whose write it took.
    check(re.search(r"read fd\d+ = 1 \(from 1\.[23]\)", p.stderr),
          "eventfd_loop: no data flow in the trace:\n%s" % p.stderr)
    p, s = ravel(args, "--strategy", "random", "--seed", "1", "--executions", "2000",
                 prog=prog(args, "dispatcher"))
    check(re.search(r"read fd\d+ = 4 \(from 1\)", p.stderr),
          "dispatcher: a worker's read does not name the dispatcher:\n%s" % p.stderr)
    # The trace picture draws the same flow: a "data" arrow from each
    # write to each read (of another thread, on the same channel) that
    # took its bytes, one per "(from ...)" source in the text trace.
    page = os.path.join(args.work, "dispatcher.html")
    dotf = os.path.join(args.work, "dispatcher.dot")
    p, s = ravel(args, "--strategy", "random", "--seed", "1", "--executions", "2000",
                 "--html", page, "--dot", dotf, prog=prog(args, "dispatcher"))
    text = open(page).read() if os.path.exists(page) else ""
    m = re.search(r'<script type="application/json" class="finding-data">(.*?)</script>',
                  text, re.S)
    d = json.loads(m.group(1)) if m else None
    if check(d is not None and d["hidden"] == 0, "dispatcher: no finding data in the HTML page"):
        first = d["steps"] - len(d["events"]) + 1
        ev = lambda step: d["events"][step - first]
        data = [a for a in d["arrows"] if a["kind"] == "data"]
        want = sum(len(r.split(",")) for r in re.findall(r"read fd\d+ = \d+ \(from ([^)]*)\)",
                                                          p.stderr))
        check(len(data) == want and want >= 2,
              "dispatcher: %d data arrows for %d sources in the text trace" % (len(data), want))
        for a in data:
            w, r = ev(a["from"]), ev(a["to"])
            check(w[1] == "write" and r[1] == "read" and w[0] != r[0] and w[2] == r[2]
                  and a["from"] < a["to"],
                  "dispatcher: data arrow %s is not a write to a read of another thread "
                  "on one channel (%s -> %s)" % (a, w, r))
    dot = open(dotf).read() if os.path.exists(dotf) else ""
    check(dot.count('xlabel="data"') >= 2, "dispatcher: no data arrows in the --dot picture")
    # An epoll_wait is named by its epoll set.
    tfile = os.path.join(args.work, "epoll_loop.trace")
    p, s = ravel(args, "--strategy", "random", "--seed", "1", "--executions", "1", "--trace", tfile,
                 prog=prog(args, "epoll_loop"))
    text = open(tfile).read() if os.path.exists(tfile) else ""
    check(re.search(r"epoll_wait epoll\(\d+\) = [12]", text),
          "epoll_loop: epoll_wait not named in the trace:\n%s" % text[-3000:])
    # Descriptors left open are closed between executions: one result.
    p, s = ravel(args, "--strategy", "random", "--executions", "200", prog=prog(args, "restore"))
    if check(p.returncode == 0 and s, "restore: exit %d %s" % (p.returncode, p.stderr[-800:])):
        check(len(s["outcomes"]) == 1 and s["outcomes"][0]["executions"] == 200,
              "restore: descriptor numbers differ between executions: %s" % s["outcomes"])


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as so:
        so.bind(("127.0.0.1", 0))
        return so.getsockname()[1]


def group_lanes(args):
    fp = prog(args, "fixed_port")
    port = str(free_port())
    p, one = ravel(args, "--strategy", "dpor", "--jobs", "1", "--executions", "0",
                   prog=fp, extra=[port, "5"])
    if not check(p.returncode == 0 and one and one["complete"],
                 "fixed_port one lane: exit %d %s" % (p.returncode, p.stderr[-800:])):
        return
    for seed in ("1", "2", "3"):
        p, s = ravel(args, "--strategy", "dpor", "--jobs", "2", "--seed", seed,
                     "--executions", "0", prog=fp, extra=[port, "5"])
        if check(p.returncode == 0 and s and s["result"] == "clean",
                 "fixed_port two lanes, seed %s: exit %d %s" % (seed, p.returncode,
                                                                p.stderr[-1500:])):
            check(s["complete"] and s["traces"] == one["traces"],
                  "fixed_port two lanes: %s traces, one lane %d" % (s["traces"], one["traces"]))
            print("fixed_port, two lanes, seed %s: %d traces in %d executions, clean" % (
                seed, s["traces"], s["executions"]))
    # Run directly (the default lanes), as a test suite runs it.
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    r = subprocess.run([fp, port, "5"], capture_output=True, text=True, timeout=300, env=e,
                       cwd=args.work, stdin=subprocess.DEVNULL)
    check(r.returncode == 0, "fixed_port run directly: exit %d %s" % (r.returncode, r.stderr[-1500:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--progs", required=True)
    args = ap.parse_args()
    groups = {"bugs": group_bugs, "fixed": group_fixed, "report": group_report,
              "lanes": group_lanes}
    if args.group not in groups:
        print("unknown group %s" % args.group, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="ravel-fdmsg-") as work:
        args.work = work
        groups[args.group](args)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
