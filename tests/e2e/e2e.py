#!/usr/bin/env python3
"""End-to-end tests of ravel: real programs, real runs, real reports.

Each test program (examples/*.c, tests/e2e/progs/*.c) states what ravel must
find in comment lines:

    ravel-expect: assertion | deadlock | ... | clean
    ravel-expect: nondeterminism outcomes=0,1,2
    ravel-options: --watchdog 1          (extra flags for ravel run)
    ravel-args: -v input                 (arguments for the program)

Groups (one ctest test each; see tests/CMakeLists.txt):
    expect       every program gets its expected outcome: a bug of that kind
                 within 1,000 executions at seed 1, or nothing in 10,000
    determinism  two runs with the same seed and a replay of the ticket give
                 byte-identical traces, for every program
    badinput     bad input gets one line and exit status 2, never a crash
    gdb          `ravel replay --gdb` stops at the failing step
    direct       instrumented programs run directly with RAVEL_OPTIONS
    races        data-race reports: their content, once per pair of code
                 locations, suppressions, bad suppression files, --no-races
    cc           ravel-cc builds with gcc and clang, and split compile+link
    written      programs as they are written: a thread pool of 4, 32 and 256
                 workers, clocks, sleeps, timeouts, random sources, a
                 library suite's long tests and socket tests
"""
import argparse
import json
import os
import pty
import re
import select
import shutil
import subprocess
import time
import sys
import tempfile

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def run(cmd, timeout=180, env=None, cwd=None, stdin=None):
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    if env:
        e.update(env)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=e, cwd=cwd, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def expectations(source):
    exp = {"kind": None, "outcomes": None, "options": [], "args": []}
    with open(source) as f:
        for line in f:
            m = re.search(r"ravel-expect:\s*(\S+)(?:\s+outcomes=(\S+))?", line)
            if m:
                exp["kind"] = m.group(1)
                if m.group(2):
                    exp["outcomes"] = sorted(int(v) for v in m.group(2).split(","))
            m = re.search(r"ravel-options:\s*(.*?)\s*$", line)
            if m:
                exp["options"] = m.group(1).split()
            m = re.search(r"ravel-args:\s*(.*?)\s*$", line)
            if m:
                exp["args"] = m.group(1).split()
    if exp["kind"] is None:
        raise SystemExit("%s has no ravel-expect line" % source)
    return exp


def programs(args):
    """(name, source, executable) for every test program in args.exe_dir."""
    out = []
    for d in (os.path.join(args.src, "examples"),
              os.path.join(args.src, "tests", "e2e", "progs")):
        for f in sorted(os.listdir(d)):
            if f.endswith(".c"):
                name = f[:-2]
                exe = os.path.join(args.exe_dir, name)
                if os.path.exists(exe):
                    out.append((name, os.path.join(d, f), exe))
    check(len(out) >= 10, "found only %d test programs in %s" % (len(out), args.exe_dir))
    return out


def ravel_run(args, exe, exp, extra, workdir, timeout=180):
    cmd = [args.ravel, "run", "--json"] + args.extra + exp["options"] + extra + ["--", exe] + exp["args"]
    p = run(cmd, cwd=workdir, timeout=timeout)
    try:
        summary = json.loads(p.stdout) if p.stdout.strip() else None
    except ValueError:
        summary = None
    return p, summary


# ---- groups ------------------------------------------------------------

def group_expect(args):
    work = tempfile.mkdtemp(prefix="ravel-e2e-")
    for name, src, exe in programs(args):
        exp = expectations(src)
        if exp["kind"] == "clean":
            # 10,000 random executions, then the default strategy (DPOR,
            # exhaustive when the program is small enough).
            for strategy in ("random", "auto"):
                # A guard against a run that never ends, not a time limit:
                # race_mmap's 10,000 executions took over 180 s at load 11.
                p, s = ravel_run(args, exe, exp, ["--strategy", strategy, "--seed", "1",
                                                  "--executions", "10000"], work, timeout=900)
                ok = check(p.returncode == 0 and s and s["result"] == "clean",
                           "%s: expected no report in 10000 %s executions, got exit %d: %s"
                           % (name, strategy, p.returncode, p.stderr[-2000:]))
                if ok:
                    check(s["executions"] == 10000 or s["complete"] or
                          (strategy == "auto" and "but signal handlers ran"
                           in s.get("guarantee", "")),
                          "%s: ran %d executions" % (name, s["executions"]))
            continue
        p, s = ravel_run(args, exe, exp, ["--strategy", "random", "--seed", "1",
                                          "--executions", "1000"], work)
        if not check(p.returncode == 1 and s and s["result"] == "bug",
                     "%s: expected a %s bug, got exit %d: %s"
                     % (name, exp["kind"], p.returncode, p.stderr[-2000:])):
            continue
        kinds = [b["kind"] for b in s["bugs"]]
        check(exp["kind"] in kinds, "%s: expected %s, found %s" % (name, exp["kind"], kinds))
        check(s["executions"] <= 1000, "%s: %d executions" % (name, s["executions"]))
        bug = [b for b in s["bugs"] if b["kind"] == exp["kind"]][0] if exp["kind"] in kinds else s["bugs"][0]
        check(os.path.exists(os.path.join(work, bug["ticket"])),
              "%s: ticket %s not written" % (name, bug["ticket"]))
        # The report is what a developer reads: banner, a location in the
        # program, the interleaving, the replay command, the summary.
        err = p.stderr
        check("ravel: BUG (%s)" % exp["kind"] in err, "%s: no report banner" % name)
        check("SUMMARY: ravel: %s" % exp["kind"] in err, "%s: no SUMMARY line" % name)
        check(re.search(r"%s\.c:\d+" % re.escape(name), err) is not None,
              "%s: no file:line of the program in the report" % name)
        if exp["kind"] != "nondeterminism":
            check("Interleaving:" in err and "Schedule: S1" in err,
                  "%s: no interleaving in the report" % name)
            check("Replay: ravel replay " in err, "%s: no replay command" % name)
        if exp["outcomes"]:
            got = sorted(o["value"] for o in s["outcomes"])
            check(got == exp["outcomes"], "%s: outcomes %s, expected %s" % (name, got, exp["outcomes"]))
            for o in s["outcomes"]:
                check(os.path.exists(os.path.join(work, o["ticket"])),
                      "%s: no ticket for outcome %d" % (name, o["value"]))
    shutil.rmtree(work)


def group_determinism(args):
    work = tempfile.mkdtemp(prefix="ravel-det-")
    for name, src, exe in programs(args):
        exp = expectations(src)
        traces = []
        summaries = []
        # --jobs 1: parallel lanes explore the same traces, but which one
        # fails (or ends) first depends on timing.
        extra = ["--seed", "1", "--jobs", "1", "--executions", "40" if exp["kind"] == "clean" else "1000"]
        for i in (1, 2):
            t = os.path.join(work, "%s.run%d.trace" % (name, i))
            p, s = ravel_run(args, exe, exp, extra + ["--trace", t], work)
            traces.append(t)
            summaries.append(s)
        s = summaries[0]
        if not check(s is not None, "%s: no JSON summary" % name):
            continue
        if exp["kind"] == "clean":
            ticket = "ravel-tickets/%s-s1-e%d-clean.ticket" % (name, s["executions"])
        elif s["bugs"]:
            ticket = s["bugs"][0]["ticket"]
        else:
            check(False, "%s: no bug to replay" % name)
            continue
        t3 = os.path.join(work, "%s.replay.trace" % name)
        p = run([args.ravel, "replay", "--trace", t3] + args.extra + exp["options"] + [ticket], cwd=work)
        check(p.returncode in (0, 1), "%s: replay failed (%d): %s" % (name, p.returncode, p.stderr[-1500:]))
        data = []
        for t in traces + [t3]:
            if check(os.path.exists(t), "%s: trace %s missing" % (name, t)):
                with open(t, "rb") as f:
                    data.append(f.read())
        if len(data) == 3:
            check(len(data[0]) > 0 and b"Schedule: S1" in data[0], "%s: empty trace" % name)
            check(data[0] == data[1], "%s: two runs with seed 1 gave different traces" % name)
            check(data[0] == data[2], "%s: the replay's trace differs from the run's" % name)
    shutil.rmtree(work)


def group_badinput(args):
    work = tempfile.mkdtemp(prefix="ravel-bad-")
    counter = os.path.join(args.exe_dir, "counter")
    other = os.path.join(args.exe_dir, "deadlock")
    native = os.path.join(work, "native")
    with open(native + ".c", "w") as f:
        f.write("int main(void) { return 0; }\n")
    subprocess.run(["cc", "-o", native, native + ".c"], check=True)
    p = run([args.ravel, "run", "--seed", "1", "--json", "--", counter], cwd=work)
    ticket = os.path.join(work, json.loads(p.stdout)["bugs"][0]["ticket"]) if p.returncode == 1 else ""
    check(p.returncode == 1 and os.path.exists(ticket), "could not record a ticket: %s" % p.stderr[-500:])
    text = open(ticket).read() if os.path.exists(ticket) else ""
    def write(name, content):
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(content)
        return path
    truncated = write("truncated.ticket", text[: len(text) // 2])
    corrupted = write("corrupted.ticket", text.replace("schedule 1", "schedule x"))
    binary = os.path.join(work, "binary.ticket")
    with open(binary, "wb") as f:
        f.write(b"\x7fELF\x00\x01\x02" * 50)
    other_ticket = write("other.ticket", text)
    cases = [
        ("unknown option", [args.ravel, "run", "--frobnicate", "--", counter], "unknown option"),
        ("bad value", [args.ravel, "run", "--seed", "many", "--", counter], "non-negative integer"),
        ("unknown strategy", [args.ravel, "run", "--strategy", "dfx", "--", counter], "unknown strategy"),
        ("missing value", [args.ravel, "run", "--seed"], "needs a value"),
        ("missing program", [args.ravel, "run", "--", os.path.join(work, "nope")], "No such file"),
        ("no program", [args.ravel, "run"], "no program"),
        ("not found in PATH", [args.ravel, "run", "--", "ravel-no-such-program"], "not found"),
        ("not built with ravel", [args.ravel, "run", "--", native], "not built with ravel"),
        ("not an executable", [args.ravel, "run", "--", ticket], "not an executable"),
        ("directory", [args.ravel, "run", "--", work], "not an executable"),
        ("unknown command", [args.ravel, "frobnicate"], "unknown command"),
        ("truncated ticket", [args.ravel, "replay", truncated], "truncated"),
        ("corrupted ticket", [args.ravel, "replay", corrupted], "bad thread name"),
        ("binary ticket", [args.ravel, "replay", binary], "not a ravel ticket"),
        ("missing ticket", [args.ravel, "replay", os.path.join(work, "none.ticket")], "No such file"),
        ("ticket for a different program", [args.ravel, "replay", other_ticket, "--", other], "different program"),
        ("bad RAVEL_OPTIONS", [counter], "RAVEL_OPTIONS"),
    ]
    for what, cmd, want in cases:
        env = {"RAVEL_OPTIONS": "seed=oops"} if what == "bad RAVEL_OPTIONS" else None
        p = run(cmd, cwd=work, env=env, timeout=60)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(p.returncode == 2, "%s: exit status %d, expected 2" % (what, p.returncode))
        check(len(lines) == 1, "%s: expected one line on stderr, got %r" % (what, p.stderr))
        check(want in p.stderr, "%s: message %r lacks %r" % (what, p.stderr.strip(), want))
        check("Traceback" not in p.stderr and p.returncode >= 0, "%s: crashed" % what)
    # A ticket for another build of the same program, run directly.
    p = run([counter], cwd=work, env={"RAVEL_OPTIONS": "strategy=replay ticket=%s" % os.path.join(work, "absent.ticket")})
    check(p.returncode == 2 and "absent.ticket" in p.stderr,
          "direct replay of a missing ticket: exit %d %s" % (p.returncode, p.stderr))
    shutil.copy(other, os.path.join(work, "counter-other-build"))
    p = run([os.path.join(work, "counter-other-build")], cwd=work,
            env={"RAVEL_OPTIONS": "strategy=replay ticket=%s" % other_ticket})
    check(p.returncode == 2 and "not for this program" in p.stderr,
          "direct replay with a ticket for another program: %d %s" % (p.returncode, p.stderr))
    shutil.rmtree(work)


def group_gdb(args):
    if not shutil.which("gdb"):
        check(False, "gdb is not installed")
        return
    work = tempfile.mkdtemp(prefix="ravel-gdb-")
    counter = os.path.join(args.exe_dir, "counter")
    p = run([args.ravel, "run", "--seed", "1", "--json", "--", counter], cwd=work)
    check(p.returncode == 1, "no bug to debug")
    ticket = json.loads(p.stdout)["bugs"][0]["ticket"]
    p = run([args.ravel, "replay", "--gdb", ticket], cwd=work, stdin="bt\nquit\n", timeout=120)
    out = p.stdout + p.stderr
    check("ravel__debug_stop" in out, "gdb did not stop at the failing step: %s" % out[-2000:])
    check(re.search(r"in main \(\) at .*counter\.c:\d+", out) is not None,
          "the stack at the stop does not reach main in counter.c: %s" % out[-2000:])
    shutil.rmtree(work)


def run_on_terminal(argv, cwd, timeout=120):
    """Runs argv with stdout and stderr on one pseudo-terminal; returns
    its exit status and what the terminal showed."""
    master, slave = pty.openpty()
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    p = subprocess.Popen(argv, cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                         stdout=slave, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            r, _, _ = select.select([master], [], [], timeout)
            if not r:
                p.kill()
                break
            b = os.read(master, 65536)
        except OSError:  # EIO: every writer closed the terminal
            break
        if not b:
            break
        chunks.append(b)
    os.close(master)
    rc = p.wait(timeout=timeout)
    return rc, b"".join(chunks).decode(errors="replace")


def group_direct(args):
    """The instrumented program itself, run without `ravel run` (with or
    without RAVEL_OPTIONS, the sanitizer convention): it keeps its own
    stdout, stderr and exit status (its first execution's), ravel writes
    only to stderr and only when it finds something, and a bug makes the
    program exit with ravel's exitcode (66 unless RAVEL_OPTIONS says)."""
    work = tempfile.mkdtemp(prefix="ravel-direct-")
    counter = os.path.join(args.exe_dir, "counter")
    fixed = os.path.join(args.exe_dir, "counter_fixed")
    p = run([counter], cwd=work, env={"RAVEL_OPTIONS": "seed=1 json=1"})
    s = json.loads(p.stderr.splitlines()[-1])
    check(p.returncode == 66 and s["result"] == "bug" and s["bugs"][0]["kind"] == "assertion",
          "direct run did not find the bug: %d %s" % (p.returncode, p.stderr[-800:]))
    check(p.stdout == "counter = 2\n",
          "direct run: stdout is not the first execution's: %r" % p.stdout)
    p = run([counter], cwd=work, env={"RAVEL_OPTIONS": "seed=1 exitcode=9"})
    check(p.returncode == 9 and "BUG (assertion)" in p.stderr,
          "exitcode=9: exit %d %s" % (p.returncode, p.stderr[-300:]))
    p = run([fixed], cwd=work, env={"RAVEL_OPTIONS": "seed=1 executions=300"})
    check(p.returncode == 0 and p.stderr == "" and p.stdout == "counter = 2\n",
          "direct clean run: %d %r %r" % (p.returncode, p.stdout, p.stderr))
    p = run([fixed, ], cwd=work, env={"RAVEL_OPTIONS": "seed=1 json=1"})
    s = json.loads(p.stderr) if p.stderr.strip() else {}
    check(p.returncode == 0 and s.get("result") == "clean" and s.get("traces") == 2
          and p.stdout == "counter = 2\n",
          "direct clean run with json=1: %d %r %r" % (p.returncode, p.stdout, p.stderr))
    # Output and exit status pass through, in native order, once; stdout
    # and stderr merged into one pipe show the order.
    pt = os.path.join(args.exe_dir, "passthrough")
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    m = subprocess.run([pt], cwd=work, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, text=True, timeout=60)
    want = ("main: stdout 1\nmain: stderr 1\nmain: write 1\nthread: stdout\nthread: stderr\n"
            "main: stderr 2\nmain: stdout 2, flushed at exit\n")
    check(m.returncode == 3 and m.stdout == want,
          "passthrough: exit %d, output %r" % (m.returncode, m.stdout))
    p = run([args.ravel, "run", "--seed", "1", "--", pt], cwd=work)
    check(p.returncode == 1 and "BUG (exit-status)" in p.stderr and p.stdout == "",
          "ravel run passthrough keeps today's behaviour: %d %r" % (p.returncode, p.stdout))
    # A first execution cut short by a spin-wait is not the program's:
    # the status is that of the first that exits, its output is printed,
    # once: what the cut one left in stdout's buffer (a pipe: fully
    # buffered) is dropped, not printed before the next one's.
    ss = os.path.join(args.exe_dir, "spin_status")
    p = run([ss], cwd=work)
    check(p.returncode == 3 and p.stdout == "start\ndone\n"
          and p.stderr == "", "spin_status run directly: %d %r %s" % (p.returncode, p.stdout, p.stderr[-500:]))
    # Every line of a first execution tried several times comes out once,
    # on pipes and on a terminal, and the program sees its own isatty.
    po = os.path.join(args.exe_dir, "print_once")
    p = run([po], cwd=work)
    check(p.returncode == 0 and p.stdout == "start\nisatty 0 0\ndone\n"
          and p.stderr == "start (stderr)\ndone (stderr)\n",
          "print_once on pipes: %d %r %r" % (p.returncode, p.stdout, p.stderr[-500:]))
    rc, text = run_on_terminal([po], cwd=work)
    check(rc == 0 and text.count("start") == 2 and text.count("done") == 2
          and "isatty 1 1" in text,
          "print_once on a terminal: %d %r" % (rc, text[-800:]))
    # A program that closes its standard streams at its end finds them
    # open again in every execution, and its output comes out once.
    cs = os.path.join(args.exe_dir, "close_stdout")
    p = run([cs], cwd=work, env={"RAVEL_OPTIONS": "seed=1"})
    check(p.returncode == 0 and p.stdout == "total 2\n" and p.stderr == "closed\n",
          "close_stdout run directly: %d %r %r" % (p.returncode, p.stdout, p.stderr[-500:]))
    # Every execution reads the same stdin: from a pipe (run directly, and
    # under ravel run), and from a file two lanes read at once.
    si = os.path.join(args.exe_dir, "stdin_input")
    data = "".join("line %d of the input\n" % i for i in range(2000))
    want = "%d bytes, sum %d\n" % (len(data), sum(data.encode()))
    p = run([si, str(len(data))], cwd=work, stdin=data)
    check(p.returncode == 0 and p.stdout == want and p.stderr == "",
          "stdin_input on a pipe, run directly: %d %r %s" % (p.returncode, p.stdout, p.stderr[-800:]))
    # (Before, the later executions found no input, took another path
    # than the first and were abandoned, so that only 3 ran.)
    p = run([si, str(len(data))], cwd=work, stdin=data,
            env={"RAVEL_OPTIONS": "json=1 executions=100"})
    s = json.loads(p.stderr) if p.stderr.strip().startswith("{") else {}
    check(p.returncode == 0 and s.get("executions") == 100
          and "did not repeat" not in s.get("guarantee", "did not repeat"),
          "stdin_input on a pipe, 100 executions run directly: %d %s" % (p.returncode, p.stderr[-800:]))
    p = run([args.ravel, "run", "--json", "--strategy", "random", "--executions", "200", "--",
             si, str(len(data))], cwd=work, stdin=data)
    check(p.returncode == 0 and json.loads(p.stdout)["result"] == "clean",
          "stdin_input on a pipe under ravel run: %d %s" % (p.returncode, p.stderr[-800:]))
    # A writer that falls silent (here for 1.5 s) is handed on as it
    # comes: the first execution, the program's own, reads all it sends.
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    q = subprocess.Popen([si, "4"], cwd=work, env=e, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    q.stdin.write(b"a\n")
    q.stdin.flush()
    time.sleep(1.5)
    q.stdin.write(b"b\n")
    q.stdin.close()
    out = q.stdout.read().decode()
    q.wait(timeout=120)
    check(out.startswith("4 bytes, sum %d\n" % sum(b"a\nb\n")),
          "stdin_input from a writer that pauses, run directly: %r" % out)
    path = os.path.join(work, "input.txt")
    with open(path, "w") as f:
        f.write(data * 10)
    with open(path) as f:
        q = subprocess.run([args.ravel, "run", "--json", "--strategy", "dpor", "--jobs", "2",
                            "--executions", "300", "--", si, str(10 * len(data))],
                           stdin=f, capture_output=True, text=True, cwd=work, timeout=300)
    s = json.loads(q.stdout) if q.stdout.strip() else {}
    check(q.returncode == 0 and s.get("result") == "clean"
          and "did not repeat" not in s.get("guarantee", "did not repeat"),
          "stdin_input from a file on two lanes: %d %s" % (q.returncode, q.stderr[-800:]))
    # Two lanes' executions of a test that writes, renames and removes
    # files of fixed names do not meet in its working directory.
    ff = os.path.join(args.exe_dir, "fixed_file")
    for _ in range(3):
        p = run([args.ravel, "run", "--json", "--strategy", "dpor", "--jobs", "2", "--", ff],
                cwd=work)
        s = json.loads(p.stdout) if p.stdout.strip() else {}
        check(p.returncode == 0 and s.get("result") == "clean" and s.get("complete"),
              "fixed_file on two lanes: %d %s" % (p.returncode, p.stderr[-800:]))
    p = run([ff], cwd=work)
    check(p.returncode == 0 and p.stdout == "ok\n" and p.stderr == "",
          "fixed_file run directly: %d %r %s" % (p.returncode, p.stdout, p.stderr[-800:]))
    # A status that differs from the first execution's is the bug.
    es = os.path.join(args.exe_dir, "exit_status")
    p = run([es], cwd=work, env={"RAVEL_OPTIONS": "seed=1"})
    check(p.returncode == 66 and "exited with status 3; its first execution exited with status 0"
          in p.stderr and p.stdout == "", "exit_status run directly: %d %s" % (p.returncode, p.stderr[-500:]))
    p = run([es], cwd=work, env={"RAVEL_OPTIONS": "exitcode=256"})
    check(p.returncode == 2 and len(p.stderr.splitlines()) == 1 and "exitcode" in p.stderr,
          "bad exitcode: %d %r" % (p.returncode, p.stderr))
    # The failing execution's output is shown once, with its report.
    p = run([args.ravel, "run", "--seed", "1", "--", counter], cwd=work)
    check(p.stderr.count("  | counter = 1") == 1, "failing output not shown exactly once: %s" % p.stderr)
    # ... and only its output: every way of writing is seen, so the
    # capture offsets it starts from are never those of an earlier
    # execution (output_each prints through each, marked with its value).
    oe = os.path.join(args.exe_dir, "output_each")
    want = ["printf 5", "puts 5", "5", "fwrite 5", "write 5", "unterminated 5", "stderr 5",
            "perror 5: No such file or directory", "writev 5"]
    for jobs in ("1", "2"):
        p = run([args.ravel, "run", "--strategy", "dfs", "--jobs", jobs, "--", oe], cwd=work)
        shown = [l[4:] for l in p.stderr.splitlines() if l.startswith("  | ")]
        check(p.returncode == 1 and shown[:len(want)] == want and len(shown) == len(want) + 1
              and "Assertion" in shown[-1],
              "output_each --jobs %s: the report's output is %r" % (jobs, shown))
    # --keep-going reports each distinct bug once and counts repeats.
    p = run([args.ravel, "run", "--strategy", "random", "--seed", "1", "--keep-going", "--json",
             "--executions", "300", "--", counter], cwd=work)
    s = json.loads(p.stdout)
    check(p.returncode == 1 and len(s["bugs"]) == 1 and s["bugs"][0]["occurrences"] > 1
          and s["executions"] == 300, "keep-going: %s" % p.stdout)
    check(p.stderr.count("ravel: BUG") == 1, "keep-going printed the same bug twice")
    # --keep-going survives crashes: the supervisor resumes after each.
    crash = os.path.join(args.exe_dir, "crash")
    p = run([args.ravel, "run", "--strategy", "random", "--seed", "1", "--keep-going", "--json",
             "--executions", "60", "--", crash], cwd=work)
    s = json.loads(p.stdout)
    check(p.returncode == 1 and s["executions"] == 60 and s["bugs"][0]["occurrences"] > 1,
          "keep-going over crashes: %s %s" % (p.stdout, p.stderr[-500:]))
    # --time bounds a run without an execution limit.
    p = run([args.ravel, "run", "--strategy", "random", "--seed", "1", "--executions", "0", "--time", "1",
             "--json", "--", fixed], cwd=work)
    s = json.loads(p.stdout)
    check(p.returncode == 0 and s["executions"] > 100 and s["elapsed_s"] < 5, "--time: %s" % p.stdout)
    # Plain memory accesses reach the runtime and are recorded.
    p = run([args.ravel, "run", "--seed", "1", "--executions", "20", "--json", "--",
             os.path.join(args.exe_dir, "state_reset"), "-v", "input"], cwd=work)
    s = json.loads(p.stdout)
    check(p.returncode == 0 and s["plain_accesses"]["reads"] > 0 and s["plain_accesses"]["writes"] > 0
          and s["steps"] > 20, "plain accesses not recorded: %s" % p.stdout)
    # Progress on stderr (forced: stderr is not a terminal here).
    p = run([args.ravel, "run", "--strategy", "random", "--seed", "1", "--executions", "0", "--time", "1",
             "--progress", "always", "--", fixed], cwd=work)
    check(p.returncode == 0 and re.search(r"ravel: \d+ executions, \d+/s", p.stderr) is not None,
          "no progress line: %r" % p.stderr[-300:])
    p = run([args.ravel, "run", "--strategy", "random", "--seed", "1", "--executions", "0", "--time", "1",
             "--", fixed], cwd=work)
    check("\r" not in p.stderr, "progress shown although stderr is not a terminal")
    # Help is a manual.
    for cmd in (["--help"], ["help", "run"], ["run", "--help"], ["replay", "--help"]):
        p = run([args.ravel] + cmd)
        check(p.returncode == 0 and "SYNOPSIS" in p.stdout and "EXIT STATUS" in p.stdout or
              cmd == ["--help"] and "SYNOPSIS" in p.stdout, "ravel %s: %s" % (" ".join(cmd), p.stdout[:200]))
    shutil.rmtree(work)


def group_written(args):
    """Programs as they are written (tests/e2e/written): a thread pool of
    4, 32 and 256 workers on one condition variable with a time()-bounded
    shutdown loop, waiting for its workers on a condition variable or in a
    spin on a volatile counter, runs under every strategy without a
    report; its variant with a missing lock is found by each; auto and
    dpor with more than 64 threads switch to PCT and say why; a spin on a
    plain counter is reported as a data race, never as a hang; a program
    that reads clocks, sleeps, times out and draws random numbers is
    explored completely by DPOR."""
    work = tempfile.mkdtemp(prefix="ravel-written-")
    d = os.path.join(os.path.dirname(args.exe_dir), "tests", "written")
    pool, bug, vt = (os.path.join(d, n) for n in ("pool", "pool_missing_lock", "vtime"))

    def summary(p):
        try:
            return json.loads(p.stdout)
        except ValueError:
            return {}

    spin, spin_bug, plain_spin = (os.path.join(d, n) for n in
                                  ("pool_spin", "pool_spin_missing_lock", "pool_plain_spin"))
    # pool waits for its workers on a condition variable, pool_spin in an
    # empty loop on a volatile counter, as C-Thread-Pool does.
    for prog, buggy in ((pool, bug), (spin, spin_bug)):
        name = os.path.basename(prog)
        for n, budget in ((4, 300), (32, 100), (256, 15)):
            for strategy in ("auto", "dpor", "random", "pct"):
                p = run([args.ravel, "run", "--json", "--strategy", strategy, "--seed", "1",
                         "--executions", str(budget), "--", prog, str(n)], cwd=work, timeout=600)
                s = summary(p)
                check(p.returncode == 0 and s.get("result") == "clean"
                      and s.get("executions", 0) >= min(budget, 2),
                      "%s %d under %s: exit %d %s"
                      % (name, n, strategy, p.returncode, p.stderr[-1500:]))
                if strategy in ("auto", "dpor") and n > 64:
                    # Past DPOR's 64 threads the run goes on under PCT and
                    # says why; it promises no exhaustiveness.
                    who = "auto" if strategy == "auto" else "DPOR"
                    check(who + " switched to PCT: an execution created 65 threads, more "
                          "than DPOR's 64" in p.stderr and "PCT d=3" in p.stderr
                          and s.get("complete") is False and "exhausted" not in p.stderr,
                          "%s with %d threads: no reason for the switch: %s"
                          % (strategy, n, p.stderr[-600:]))
            for strategy in ("auto", "random", "pct"):
                p = run([args.ravel, "run", "--json", "--strategy", strategy, "--seed", "1",
                         "--", buggy, str(n)], cwd=work, timeout=600)
                s = summary(p)
                kinds = [b["kind"] for b in s.get("bugs", [])]
                check(p.returncode == 1 and "data-race" in kinds,
                      "%s missing lock, %d workers, %s: exit %d %s"
                      % (name, n, strategy, p.returncode, kinds))
    # The spin on a plain counter (built with -O0, so that each iteration
    # loads it) is a data race with the workers' locked increments: it is
    # reported as one, the spin's reads become scheduling points, and no
    # execution hangs or reaches the step limit.
    for n in (4, 32):
        p = run([args.ravel, "run", "--json", "--seed", "1", "--keep-going",
                 "--executions", "200", "--watchdog", "60", "--", plain_spin, str(n)],
                cwd=work, timeout=600)
        s = summary(p)
        kinds = sorted(set(b["kind"] for b in s.get("bugs", [])))
        check(p.returncode == 1 and kinds == ["data-race"]
              and s["bugs"][0].get("function") in ("worker", "pool_new")
              and "plain read a thread spun on made scheduling points" in p.stderr
              and s.get("executions") == 200,
              "plain spin, %d workers: exit %d %s %s" % (n, p.returncode, kinds, p.stderr[-1200:]))
    # Many signals to many waiters: wake choices are not data choices.
    p = run([args.ravel, "run", "--json", "--strategy", "random", "--seed", "1",
             "--executions", "3", "--", pool, "64", "5000"], cwd=work, timeout=600)
    check(p.returncode == 0 and summary(p).get("executions") == 3,
          "5000 jobs for 64 workers: %d %s" % (p.returncode, p.stderr[-400:]))
    # Clocks, sleeps, timeouts and random sources: deterministic per
    # execution, so DPOR finishes and no result differs.
    p = run([args.ravel, "run", "--json", "--strategy", "dpor", "--seed", "1", "--", vt],
            cwd=work)
    s = summary(p)
    check(p.returncode == 0 and s.get("complete") and s.get("traces", 0) > 50
          and len(s.get("outcomes", [])) == 1,
          "vtime under dpor: %d %s %s" % (p.returncode, p.stdout[-300:], p.stderr[-800:]))
    p = run([args.ravel, "run", "--json", "--strategy", "random", "--seed", "3",
             "--executions", "200", "--", vt], cwd=work)
    check(p.returncode == 0 and len(summary(p).get("outcomes", [])) == 1,
          "vtime under random: %d %s" % (p.returncode, p.stderr[-800:]))
    # getpid() is the started process's in every execution (one result,
    # though executors are replaced after a crash), and kill() of it
    # reaches the program.
    pidp = os.path.join(d, "pid")
    p = run([args.ravel, "run", "--json", "--strategy", "dpor", "--seed", "1", "--", pidp], cwd=work)
    s = summary(p)
    check(p.returncode == 0 and s.get("complete") and len(s.get("outcomes", [])) == 1,
          "pid under dpor: %d %s %s" % (p.returncode, p.stdout[-300:], p.stderr[-600:]))
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    q = subprocess.Popen([pidp], cwd=work, env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = q.communicate(timeout=120)
    check(q.returncode == 0 and out == "pid %d\n" % q.pid and err == "",
          "pid run directly: %d %r (started as %d) %s" % (q.returncode, out, q.pid, err[-300:]))
    # A program that does not repeat a recorded schedule ends that
    # execution, not the run, and the summary promises no exhaustiveness.
    p = run([args.ravel, "run", "--json", "--strategy", "dpor", "--seed", "1", "--",
             os.path.join(d, "diverge")], cwd=work)
    s = summary(p)
    check(p.returncode == 0 and s.get("complete") is False and s.get("blocked", 0) >= 1
          and "did not repeat the recorded schedule" in s.get("guarantee", "")
          and "exhausted" not in p.stderr,
          "diverging program: %d %s" % (p.returncode, p.stderr[-600:]))
    # Run directly, its output is one execution's.
    p = run([vt], cwd=work)
    check(p.returncode == 0 and p.stdout.count("iterations in one second") == 1,
          "vtime run directly: %d %r %s" % (p.returncode, p.stdout, p.stderr[-300:]))
    # A library's long tests, run directly as its ctest runs them: a
    # loop of clock reads is no spin, and 120,000 locked writes fit the
    # direct run's step limit; `ravel run` keeps 100,000, and a limit set
    # in RAVEL_OPTIONS holds and says how to raise it.
    lt = os.path.join(d, "longtest")
    for mode in ("clock", "locks", "stack"):
        q = run([lt, mode], cwd=work, timeout=300)
        check(q.returncode == 0 and q.stdout == mode + " ok\n" and q.stderr == "",
              "longtest %s run directly: %d %r %s" % (mode, q.returncode, q.stdout, q.stderr[-1500:]))
    p = run([args.ravel, "run", "--json", "--seed", "1", "--", lt, "locks"], cwd=work)
    kinds = [b["kind"] for b in summary(p).get("bugs", [])]
    check(p.returncode == 1 and kinds == ["step-limit"] and "raise --max-steps" in p.stderr,
          "longtest locks under ravel run: %d %s %s" % (p.returncode, kinds, p.stderr[-600:]))
    # A lone thread computing past the watchdog is no hang; a lone thread
    # blocked in a call ravel does not control still is.
    p = run([lt, "compute"], cwd=work, env={"RAVEL_OPTIONS": "watchdog=0.1"})
    check(p.returncode == 0 and p.stdout == "compute ok\n" and p.stderr == "",
          "longtest compute, watchdog 0.1 s: %d %r %s" % (p.returncode, p.stdout, p.stderr[-600:]))
    # Nor is a thread computing while another waits for it; a thread that
    # keeps writing shared memory while the others wait is reported after
    # 30 watchdogs, as what it may be.
    # (0.3 s: the computation takes 2 watchdogs here, 9 in the sanitizer
    # build, against the 30 it is given.)
    p = run([lt, "workers"], cwd=work, env={"RAVEL_OPTIONS": "watchdog=0.3"})
    check(p.returncode == 0 and p.stdout == "workers ok\n" and p.stderr == "",
          "longtest workers, watchdog 0.3 s: %d %r %s" % (p.returncode, p.stdout, p.stderr[-600:]))
    p = run([lt, "writespin"], cwd=work, env={"RAVEL_OPTIONS": "watchdog=0.05"}, timeout=120)
    check(p.returncode == 66 and "BUG (hang)" in p.stderr and "writing memory all along" in p.stderr,
          "longtest writespin, watchdog 0.05 s: %d %s" % (p.returncode, p.stderr[-900:]))
    p = run([lt, "blocked"], cwd=work, env={"RAVEL_OPTIONS": "watchdog=0.5"})
    check(p.returncode == 66 and "BUG (hang)" in p.stderr,
          "longtest blocked: %d %s" % (p.returncode, p.stderr[-600:]))
    p = run([lt, "locks"], cwd=work, env={"RAVEL_OPTIONS": "max_steps=100000"})
    check(p.returncode == 66 and "BUG (step-limit)" in p.stderr
          and "RAVEL_OPTIONS=max_steps=N" in p.stderr,
          "longtest locks, max_steps=100000 run directly: %d %s" % (p.returncode, p.stderr[-600:]))
    # A test of a fraction of a second with more schedules than the
    # budget, run directly without a budget of its own, stops starting
    # executions after 10 s (a test runner's timeout is 30 s), quietly,
    # and does not claim to be complete: natively 0.2 s an execution
    # here, its 1,000 would take minutes. A budget it names is its own.
    p = run([lt, "rounds"], cwd=work, env={"RAVEL_OPTIONS": "json=1"}, timeout=120)
    s = json.loads(p.stderr) if p.stderr.strip().startswith("{") else {}
    check(p.returncode == 0 and p.stdout == "rounds ok\n" and s.get("complete") is False
          and 0 < s.get("executions", 0) < 1000,
          "longtest rounds run directly: %d %r %s" % (p.returncode, p.stdout, p.stderr[-600:]))
    p = run([lt, "rounds"], cwd=work, env={"RAVEL_OPTIONS": "json=1 executions=12"}, timeout=120)
    s = json.loads(p.stderr) if p.stderr.strip().startswith("{") else {}
    check(p.returncode == 0 and s.get("executions") == 12,
          "longtest rounds, executions=12 run directly: %d %s" % (p.returncode, p.stderr[-600:]))
    # Socket tests of a library's suite: a report of an execution of
    # 320,000 descriptor calls comes in seconds (its data-flow notes were
    # quadratic: minutes), and the program's own run does not let polls
    # with 2 s timeouts time out before main, after a 0.5 s sleep,
    # connects; exploring further still finds that schedule.
    sf = os.path.join(d, "sockfill")
    q = run([sf, "fill"], cwd=work, timeout=120)
    check(q.returncode == 0 and q.stdout == "fill ok\n" and q.stderr == "",
          "sockfill fill run directly: %d %r %s" % (q.returncode, q.stdout, q.stderr[-1500:]))
    t0 = time.time()
    q = run([sf, "fill", "fail"], cwd=work, timeout=120)
    took = time.time() - t0
    check(q.returncode == 66 and "BUG (assertion)" in q.stderr and "(from 1)" in q.stderr
          and took < 60,
          "sockfill fill fail run directly: %d in %.1f s %s" % (q.returncode, took, q.stderr[-1500:]))
    # A listener left open above a closed descriptor is closed between
    # executions: every execution binds the same port again.
    p = run([args.ravel, "run", "--json", "--strategy", "dpor", "--jobs", "1", "--", sf, "leak"], cwd=work)
    s = summary(p)
    check(p.returncode == 0 and s.get("result") == "clean" and s.get("executions", 0) >= 2,
          "sockfill leak: %d %s" % (p.returncode, p.stderr[-600:]))
    q = run([sf, "accept"], cwd=work, timeout=120, env={"RAVEL_OPTIONS": "executions=1"})
    check(q.returncode == 0 and q.stdout == "accepted 1\n" and q.stderr == "",
          "sockfill accept, its own run: %d %r %s" % (q.returncode, q.stdout, q.stderr[-1500:]))
    p = run([args.ravel, "run", "--json", "--seed", "1", "--executions", "20000", "--", sf, "accept"], cwd=work, timeout=300)
    kinds = [b["kind"] for b in summary(p).get("bugs", [])]
    check(p.returncode == 1 and kinds == ["assertion"] and "accepted == 1" in p.stderr,
          "sockfill accept under ravel run: %d %s %s" % (p.returncode, kinds, p.stderr[-600:]))
    shutil.rmtree(work)


def group_cc(args):
    """ravel-cc with gcc and clang: compile+link in one command, separate
    compile and link, and a program that includes ravel.h."""
    work = tempfile.mkdtemp(prefix="ravel-cc-")
    src = os.path.join(args.src, "examples")
    for compiler in ("gcc", "clang"):
        if not check(shutil.which(compiler), "%s is not installed" % compiler):
            continue
        env = {"RAVEL_CC": compiler}
        exe = os.path.join(work, "outcomes-" + compiler)
        p = run([args.ravel_cc, "-O2", "-Wall", "-Werror", "-o", exe,
                 os.path.join(src, "outcomes.c")], env=env)
        check(p.returncode == 0, "%s: one-command build failed: %s" % (compiler, p.stderr))
        obj = os.path.join(work, "counter-%s.o" % compiler)
        p1 = run([args.ravel_cc, "-c", "-O1", "-o", obj, os.path.join(src, "counter.c")], env=env)
        exe2 = os.path.join(work, "counter-" + compiler)
        p2 = run([args.ravel_cc, "-o", exe2, obj, "-lpthread"], env=env)
        check(p1.returncode == 0 and p2.returncode == 0, "%s: separate compile/link failed: %s %s"
              % (compiler, p1.stderr, p2.stderr))
        for e, kind in ((exe, "nondeterminism"), (exe2, "assertion")):
            if not os.path.exists(e):
                continue
            nm = subprocess.run(["nm", "-u", e], capture_output=True, text=True).stdout
            check("__tsan_init" in nm, "%s: %s is not instrumented" % (compiler, e))
            ldd = subprocess.run(["ldd", e], capture_output=True, text=True).stdout
            check("libravel_rt.so" in ldd and "libtsan" not in ldd,
                  "%s: %s links %s" % (compiler, e, ldd))
            p = run([args.ravel, "run", "--seed", "1", "--json", "--", e], cwd=work)
            s = json.loads(p.stdout) if p.stdout.strip() else {}
            check(p.returncode == 1 and any(b["kind"] == kind for b in s.get("bugs", [])),
                  "%s: %s did not find %s: %s" % (compiler, e, kind, p.stderr[-800:]))
        # The executable's own copies of the hottest access hooks
        # (src/rt/intercept/tsan_local.c) against the runtime's: the same
        # program linked without them must count the same accesses and
        # find the same race.
        obj = os.path.join(work, "plain-%s.o" % compiler)
        p1 = run([args.ravel_cc, "-c", "-O1", "-o", obj,
                  os.path.join(src, "counter_plain.c")], env=env)
        local, shared = (os.path.join(work, "plain-%s-%s" % (compiler, k)) for k in ("local", "rt"))
        p2 = run([args.ravel_cc, "-o", local, obj, "-lpthread"], env=env)
        lib = os.path.join(os.path.dirname(args.ravel_cc), "..", "lib")
        p3 = run([compiler, "-o", shared, obj, "-L", lib, "-Wl,-rpath," + lib,
                  "-Wl,--no-as-needed", "-lravel_rt", "-lpthread"])
        if check(p1.returncode == 0 and p2.returncode == 0 and p3.returncode == 0,
                 "%s: counter_plain builds: %s %s %s" % (compiler, p1.stderr, p2.stderr, p3.stderr)):
            syms = {}
            for e in (local, shared):
                out = subprocess.run(["nm", e], capture_output=True, text=True).stdout
                syms[e] = {l.split()[-1]: l.split()[-2] for l in out.splitlines() if "__tsan_" in l}
            check(syms[local].get("__tsan_write4") == "t" and syms[shared].get("__tsan_write4") == "U",
                  "%s: the access hooks are not linked into the executable (%s, %s)"
                  % (compiler, syms[local].get("__tsan_write4"), syms[shared].get("__tsan_write4")))
            seen = []
            for e in (local, shared):
                p = run([args.ravel, "run", "--seed", "1", "--json", "--strategy", "random",
                         "--executions", "30", "--keep-going", "--", e], cwd=work)
                s = json.loads(p.stdout) if p.stdout.strip() else {}
                seen.append((s.get("plain_accesses"), sorted(b["kind"] for b in s.get("bugs", []))))
            check(seen[0] == seen[1] and seen[0][0] and seen[0][0]["writes"] > 0
                  and "data-race" in seen[0][1],
                  "%s: the executable's hooks and the runtime's disagree: %s" % (compiler, seen))
        # Link-time optimisation: gcc instruments at link time under -flto
        # (ravel-cc adds -fno-lto), so the program's atomics stay seen,
        # built in one command or in two.
        lto1, lto2 = (os.path.join(work, "lto%d-%s" % (k, compiler)) for k in (1, 2))
        objl = os.path.join(work, "lto-%s.o" % compiler)
        pa = run([args.ravel_cc, "-O2", "-flto", "-o", lto1, os.path.join(src, "counter.c")],
                 env=env)
        pb = run([args.ravel_cc, "-O2", "-flto", "-c", "-o", objl, os.path.join(src, "counter.c")],
                 env=env)
        pc = run([args.ravel_cc, "-O2", "-flto", "-o", lto2, objl, "-lpthread"], env=env)
        if check(pa.returncode == 0 and pb.returncode == 0 and pc.returncode == 0,
                 "%s: -flto builds failed: %s %s %s" % (compiler, pa.stderr, pb.stderr, pc.stderr)):
            for e in (lto1, lto2):
                p = run([args.ravel, "run", "--seed", "1", "--json", "--", e], cwd=work)
                s = json.loads(p.stdout) if p.stdout.strip() else {}
                check(p.returncode == 1 and any(b["kind"] == "assertion" for b in s.get("bugs", [])),
                      "%s -flto: %s did not find the assertion: %s" % (compiler, e, p.stderr[-800:]))
        if compiler == "gcc":
            # Built by gcc -flto without ravel-cc: nothing of it calls the
            # hooks. An error (exit 2), never "exhausted: all 1 traces".
            bad = os.path.join(work, "lto-bad")
            objb = os.path.join(work, "lto-bad.o")
            pa = run([compiler, "-O2", "-flto", "-fsanitize=thread", "-c", "-o", objb,
                      os.path.join(src, "counter.c")])
            pb = run([compiler, "-O2", "-flto", "-o", bad, objb, "-L", lib, "-Wl,-rpath," + lib,
                      "-Wl,--no-as-needed", "-lravel_rt", "-lpthread"])
            if check(pa.returncode == 0 and pb.returncode == 0,
                     "gcc -flto by hand: %s %s" % (pa.stderr, pb.stderr)):
                p = run([args.ravel, "run", "--seed", "1", "--", bad], cwd=work)
                check(p.returncode == 2 and "no code of the program is instrumented" in p.stderr
                      and "exhausted" not in p.stderr,
                      "gcc -flto by hand: exit %d: %s" % (p.returncode, p.stderr[-800:]))
        p = run([args.ravel_cc, "--version"], env=env)
        check(p.returncode == 0 and p.stdout, "%s: --version not passed through" % compiler)
        # ravel-gcc and ravel-clang sit beside ravel-cc and choose their
        # compiler by name, with RAVEL_CC unset (CC=.../ravel-clang
        # ./configure): the build tree has them as it documents.
        named = os.path.join(os.path.dirname(args.ravel_cc), "ravel-" + compiler)
        exe3 = os.path.join(work, "outcomes-named-" + compiler)
        e = {"RAVEL_CC": "", "RAVEL_CC_VERBOSE": "1"}
        p = run([named, "-O1", "-o", exe3, os.path.join(src, "outcomes.c")], env=e) \
            if os.path.exists(named) else None
        first = p.stderr.splitlines()[0] if p and p.stderr else ""
        check(p is not None and p.returncode == 0 and (": %s -fsanitize=thread" % compiler) in first,
              "ravel-%s: missing or did not run %s: %s" % (compiler, compiler,
                                                           p.stderr[-500:] if p else named))
        if p is not None and p.returncode == 0:
            p = run([args.ravel, "run", "--seed", "1", "--json", "--", exe3], cwd=work)
            s = json.loads(p.stdout) if p.stdout.strip() else {}
            check(p.returncode == 1 and any(b["kind"] == "nondeterminism" for b in s.get("bugs", [])),
                  "ravel-%s: the program it built did not find the bug: %s" % (compiler, p.stderr[-500:]))
    shutil.rmtree(work)


def group_races(args):
    work = tempfile.mkdtemp(prefix="ravel-races-")
    exe = lambda name: os.path.join(args.exe_dir, name)

    # The report: both accesses with stacks, where the memory is, the
    # threads' creation, the ticket, the SUMMARY; JSON kind data-race.
    p, s = ravel_run(args, exe("counter_plain"), {"options": [], "args": []},
                     ["--seed", "1"], work)
    err = p.stderr
    src = open(os.path.join(args.src, "examples", "counter_plain.c")).read()
    line = src[:src.index("counter++;")].count("\n") + 1
    check(p.returncode == 1, "counter_plain: exit %d" % p.returncode)
    check("WARNING: ravel: data race" in err, "counter_plain: no WARNING banner")
    check(re.search(r"  (Read|Write) of size 4 at 0x[0-9a-f]+ by thread 1\.\d:\n"
                    r"    #0 increment .*counter_plain\.c:%d" % line, err) is not None,
          "counter_plain: current access with its stack missing:\n" + err)
    check(re.search(r"  Previous (read|write) of size 4 at 0x[0-9a-f]+ by thread 1\.\d:\n"
                    r"    #0 increment .*counter_plain\.c:%d" % line, err) is not None,
          "counter_plain: previous access with its stack missing")
    check("Location is global 'counter'" in err, "counter_plain: global not named")
    check(re.search(r"thread 1\.1 was created by thread 1 at main .*counter_plain\.c:\d+", err)
          is not None, "counter_plain: creation of thread 1.1 missing")
    check(re.search(r"SUMMARY: ravel: data-race .*counter_plain\.c:%d in increment" % line, err)
          is not None, "counter_plain: SUMMARY line")
    if check(s is not None and s["bugs"] and s["bugs"][0]["kind"] == "data-race",
             "counter_plain: JSON bug kind"):
        t = s["bugs"][0]["ticket"]
        r = run([args.ravel, "replay", t], cwd=work)
        check(r.returncode == 1 and "SUMMARY: ravel: data-race" in r.stderr,
              "counter_plain: the ticket does not replay the race (exit %d)" % r.returncode)

    # Race-directed scheduling: the racing line becomes a scheduling point
    # and the exploration goes on to the lost update's assertion, whose
    # ticket (with the promoted locations in it) replays it.
    if check(s is not None, "counter_plain: no JSON"):
        kinds = [b["kind"] for b in s["bugs"]]
        check(kinds == ["data-race", "assertion"],
              "counter_plain: expected the race, then the assertion: %s" % kinds)
        # (gcc instruments the read and the write of counter++; clang -O2
        # only the write, its load coming before the hook.)
        check(s["promoted_locations"] >= 1 and s["restarts"] >= 1,
              "counter_plain: promotion not recorded in JSON")
        asserts = [b for b in s["bugs"] if b["kind"] == "assertion"]
        if asserts:
            check(asserts[0]["race_directed"] and not s["bugs"][0]["race_directed"],
                  "counter_plain: race_directed flags")
            trace = err[err.index("BUG (assertion)"):]
            check(trace.count("read counter = 0") >= 2 or trace.count("write counter") >= 2,
                  "counter_plain: the trace does not show the promoted accesses")
            check("race-directed: the racing accesses at counter_plain.c:%d" % line in err,
                  "counter_plain: the assertion report does not name the race")
            if trace.count("read counter = 0") >= 2:
                # Both reads promoted (gcc): the report says what happened.
                check(re.search(r"lost update: thread (1\.\d) read counter = 0 \(counter_plain\.c:%d\),\n"
                                r"  thread 1\.\d then wrote it \(counter_plain\.c:%d\), and thread \1 wrote over that"
                                % (line, line), trace) is not None,
                      "counter_plain: the lost update is not named:\n" + trace[:1500])
            r = run([args.ravel, "replay", asserts[0]["ticket"]], cwd=work)
            check(r.returncode == 1 and "SUMMARY: ravel: assertion" in r.stderr,
                  "counter_plain: the assertion ticket does not replay (exit %d): %s"
                  % (r.returncode, r.stderr[-1500:]))
    p, s = ravel_run(args, exe("counter_plain"), {"options": [], "args": []},
                     ["--seed", "1", "--no-promote-races"], work)
    check(s is not None and [b["kind"] for b in s["bugs"]] == ["data-race"],
          "counter_plain --no-promote-races: expected only the race")

    # A heap block: its allocation stack.
    p, s = ravel_run(args, exe("race_free"), {"options": [], "args": []}, [], work)
    check(re.search(r"Free of size \d+ at 0x[0-9a-f]+ by thread 1\.1", p.stderr) is not None,
          "race_free: the free is not the access reported:\n" + p.stderr)
    check(re.search(r"Location is heap block heap#1 of size 16 .* allocated by thread 1:\n"
                    r"    #0 main .*race_free\.c:\d+", p.stderr) is not None,
          "race_free: allocation stack missing")

    # Each pair of code locations once per run, with --keep-going.
    p, s = ravel_run(args, exe("race_flag"), {"options": [], "args": []},
                     ["--keep-going", "--strategy", "random", "--seed", "1",
                      "--executions", "300"], work)
    if check(s is not None, "race_flag --keep-going: no JSON"):
        races = [b for b in s["bugs"] if b["kind"] == "data-race"]
        check(len(races) >= 2, "race_flag: expected the flag and the data races, got %d" % len(races))
        check(p.stderr.count("WARNING: ravel: data race") == len(races),
              "race_flag: a pair reported more than once")

    # Every size the program's own hooks have a copy for (ravel__hook_readN/
    # writeN): the race is reported with its size; under a lock, none.
    for n in (1, 2, 4, 8):
        p, s = ravel_run(args, exe("race_sizes"),
                         {"options": [], "args": [str(n)]},
                         ["--strategy", "random", "--seed", "1",
                          "--executions", "200"], work)
        check(p.returncode == 1 and
              re.search(r"(Read|Write) of size %d at 0x[0-9a-f]+ by thread "
                        r"1(\.1)?:" % n, p.stderr) is not None and
              "Location is global 'v%d'" % n in p.stderr,
              "race_sizes %d: no race of %d bytes on v%d reported (exit %d):\n%s"
              % (n, n, n, p.returncode, p.stderr[-3000:]))
        p, s = ravel_run(args, exe("race_sizes"),
                         {"options": [], "args": [str(n), "locked"]},
                         ["--strategy", "random", "--seed", "1",
                          "--executions", "200"], work)
        check(p.returncode == 0 and s and s["result"] == "clean",
              "race_sizes %d locked: expected no race, exit %d: %s"
              % (n, p.returncode, p.stderr[-2000:]))

    # A run of one execution counts its trace without fingerprinting it
    # (traces.c, one_run); more executions still count distinct traces
    # by fingerprint (race_sizes locked has two: the lock's two orders).
    for strategy in ("random", "pct"):
        for n, want in ((1, 1), (20, 2)):
            p, s = ravel_run(args, exe("race_sizes"),
                             {"options": [], "args": ["4", "locked"]},
                             ["--strategy", strategy, "--seed", "1",
                              "--executions", str(n)], work)
            check(p.returncode == 0 and s and s["result"] == "clean" and
                  s["traces"] == want,
                  "race_sizes locked, %s, %d execution(s): expected %d "
                  "trace(s), got %s (exit %d)" % (strategy, n, want,
                                                  s and s["traces"],
                                                  p.returncode))

    # Suppressions: by function, by global, by file; bad files.
    for pattern in ("race:increment", "race:^counter$", "race:counter_plain.c"):
        supp = os.path.join(work, "supp.txt")
        with open(supp, "w") as f:
            f.write("# benign, for the test\n\n" + pattern + "\n")
        p, s = ravel_run(args, exe("counter_plain"), {"options": [], "args": []},
                         ["--suppressions", supp], work)
        check(p.returncode == 0 and s and s["result"] == "clean",
              "counter_plain with %s: exit %d" % (pattern, p.returncode))
    with open(os.path.join(work, "bad.txt"), "w") as f:
        f.write("race:ok\nthread:nope\n")
    for path in (os.path.join(work, "bad.txt"), os.path.join(work, "missing.txt")):
        p = run([args.ravel, "run", "--suppressions", path, "--", exe("counter_plain")], cwd=work)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        check(p.returncode == 2 and len(lines) == 1,
              "bad suppressions %s: exit %d, %r" % (path, p.returncode, p.stderr))

    # --no-races: the plain counter's increments never interleave.
    p, s = ravel_run(args, exe("counter_plain"), {"options": [], "args": []},
                     ["--no-races"], work)
    check(p.returncode == 0, "counter_plain --no-races: exit %d" % p.returncode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--ravel-cc")
    ap.add_argument("--src", required=True)
    ap.add_argument("--exe-dir", required=True)
    ap.add_argument("--backend", help="run with this thread backend")
    args = ap.parse_args()
    args.extra = ["--backend", args.backend] if args.backend else []
    groups = {
        "expect": group_expect, "determinism": group_determinism,
        "badinput": group_badinput, "gdb": group_gdb,
        "direct": group_direct, "cc": group_cc, "races": group_races,
        "written": group_written,
    }
    groups[args.group](args)
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
