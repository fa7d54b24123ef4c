#!/usr/bin/env python3
"""End-to-end tests of `ravel lin` on the project's real histories.

    test_lin.py --ravel build/bin/ravel --data ../shared/bench-data/lin PART

PART is one of:
  verdicts  every history in the data folder gets the verdict its README
            gives (etcd: the README's list of linearizable ones, every
            other non-empty one not; etcd_095 empty; kv -ok yes, -bad no),
            key by key and, for the kv files small enough, all together
  errors    malformed lines, a return without a call, duplicate calls,
            truncated files of every format, an unknown model: one line
            naming FILE:LINE on stderr and exit status 2
  cli       --help, --json, budgets that give "unknown", usage errors
  knossos   Knossos/Jepsen-shaped histories written for these tests
            (tests/lin/knossos/): comments, lists, split maps, :time,
            independent tuples, mutex, multi-register, and bad input
  html      the --html page opened in headless Chromium: its script ran,
            drew one lane per process, one bar per operation, the
            linearization points of the prefix and the failing operations

The data folder comes from --data or $RAVEL_LIN_DATA (by default the
shared folder beside the repository). These tests are the evidence that
the checker works on real data; a checkout without that folder cannot
run them, so they are reported as skipped (exit status 77, shown by ctest
as "Skipped" with the reason), never as passed. A missing browser is a
failure (scripts/install-deps installs it).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILED = []


def check(cond, what):
    if cond:
        print("ok - " + what)
    else:
        print("not ok - " + what)
        FAILED.append(what)


def run(args, timeout=300):
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def readme_linearizable(data):
    """The etcd histories the data's README lists as linearizable."""
    text = open(os.path.join(data, "README.md")).read()
    m = re.search(r"Linearizable:(.*?)All other", text, re.S)
    if not m:
        sys.exit("test_lin: README.md has no 'Linearizable: ...' list")
    return {int(x.strip(".,")) for x in m.group(1).split()}


def part_verdicts(ravel, data):
    etcd = sorted(os.listdir(os.path.join(data, "jepsen")))
    logs = [os.path.join(data, "jepsen", f) for f in etcd if f.endswith(".log")]
    check(len(logs) == 103, "103 etcd histories (found %d)" % len(logs))
    rc, out, err = run([ravel, "lin", "--model", "cas-register", "--json"] + logs)
    res = json.loads(out)
    want_yes = readme_linearizable(data)
    check(len(want_yes) == 23, "README lists 23 linearizable etcd histories")
    wrong = []
    yes = no = empty = 0
    for h in res["histories"]:
        n = int(re.search(r"etcd_(\d+)\.log$", h["history"]).group(1))
        if h["operations"] == 0:
            empty += 1
            if n != 95 or h["verdict"] != "linearizable":
                wrong.append((n, h["verdict"], "empty"))
            continue
        want = "linearizable" if n in want_yes else "not linearizable"
        if h["verdict"] != want:
            wrong.append((n, h["verdict"], want))
        yes += h["verdict"] == "linearizable"
        no += h["verdict"] == "not linearizable"
    check(not wrong, "every etcd history gets its known verdict %s" % wrong)
    check((yes, no, empty) == (23, 79, 1),
          "etcd: 23 linearizable, 79 not, 1 empty (got %d, %d, %d)"
          % (yes, no, empty))
    check(rc == 1, "exit status 1 when some history is not linearizable")
    # Every non-linearizable verdict carries an explanation.
    unexplained = [h["history"] for h in res["histories"]
                   if h["verdict"] == "not linearizable"
                   and not h["explanation"]["cannot_go_next"]]
    check(not unexplained, "each failure names operations that cannot go next")

    for name in sorted(os.listdir(os.path.join(data, "kv"))):
        path = os.path.join(data, "kv", name)
        want = 0 if "-ok" in name else 1
        rc, out, err = run([ravel, "lin", "--model", "kv", path])
        check(rc == want and ("NOT" in out) == (want == 1),
              "kv/%s: %s (exit %d)" % (name, "linearizable" if want == 0
                                       else "not linearizable", rc))
        if name.startswith(("c01", "c10")):
            rc, out, err = run([ravel, "lin", "--model", "kv",
                                "--no-partition", path])
            check(rc == want, "kv/%s without partitioning: same verdict"
                  % name)
    # The same etcd verdicts through the other two readers: convert a
    # few logs to JSON (exact: it can say everything a log says) and to
    # EDN (which cannot say "read nil" or "cas returned false", so those
    # become :info, which only weakens the history: checked on the
    # linearizable ones, which must stay linearizable).
    tmp = tempfile.mkdtemp(prefix="ravel-lin-")
    try:
        for n in (0, 2, 7, 57):
            log = os.path.join(data, "jepsen", "etcd_%03d.log" % n)
            edn, js = convert(log)
            want = 0 if n in want_yes else 1
            pairs = [("json", js)] + ([("edn", edn)] if want == 0 else [])
            for fmt, text in pairs:
                p = os.path.join(tmp, "etcd_%03d.%s" % (n, fmt))
                with open(p, "w") as f:
                    f.write(text)
                rc, out, err = run([ravel, "lin", "--model", "cas-register", p])
                check(rc == want, "etcd_%03d as %s: same verdict (exit %d %s)"
                      % (n, fmt, rc, err.strip()))
    finally:
        shutil.rmtree(tmp)


def convert(log):
    """A Jepsen etcd log as EDN maps and as ravel JSON."""
    edn, ops, pending = [], [], {}
    for t, line in enumerate(open(log)):
        f = line.split()
        if not f:
            continue
        proc, typ, fn, val = f[3], f[4], f[5], " ".join(f[6:])
        if typ == ":invoke":
            pending[proc] = {"process": int(proc), "f": fn[1:], "call": t}
            if fn == ":write":
                pending[proc]["value"] = int(val)
            if fn == ":cas":
                pending[proc]["value"] = [int(x) for x in val[1:-1].split()]
            edn.append("{:process %s, :type :invoke, :f %s, :value %s}"
                       % (proc, fn, val))
            continue
        op = pending.pop(proc)
        if typ == ":info":
            # never returns: no "return" in JSON, :info in EDN
            ops.append(op)
            edn.append("{:process %s, :type :info, :f %s, :value %s}"
                       % (proc, fn, val))
            continue
        op["return"] = t
        if typ == ":ok":
            if fn == ":read":
                op["output"] = None if val == "nil" else int(val)
            elif fn == ":cas":
                op["output"] = True
            edn.append("{:process %s, :type :%s, :f %s, :value %s}"
                       % (proc, "info" if val == "nil" else "ok", fn, val))
        elif fn == ":cas" and val != ":timed-out":
            op["output"] = False
            edn.append("{:process %s, :type :info, :f :cas, :value %s}"
                       % (proc, val))
        else:
            edn.append("{:process %s, :type :info, :f %s, :value nil}"
                       % (proc, fn))
        ops.append(op)
    for op in pending.values():
        ops.append(op)
    return "\n".join(edn) + "\n", json.dumps({"ops": ops}, indent=1)


BAD = [
    # (file name, content, model, expected line, message fragment)
    ("garbage.log", "INFO  jepsen.util - 1\t:invoke\t:read\tnil\nhello\n",
     "cas-register", 2, "not a Jepsen log line"),
    ("no-call.log", "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
     "INFO  jepsen.util - 1\t:ok\t:read\tnil\n"
     "INFO  jepsen.util - 2\t:ok\t:write\t3\n",
     "cas-register", 3, "without a pending call"),
    ("dup.log", "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
     "INFO  jepsen.util - 1\t:invoke\t:write\t2\n",
     "cas-register", 2, "duplicate call"),
    ("truncated.log", "INFO  jepsen.util - 1\t:invoke\t:read\tnil\n"
     "INFO  jepsen.util - 1\t:ok\t:re", "cas-register", 2, "truncated line"),
    ("truncated-value.log", "INFO  jepsen.util - 1\t:invoke\t:cas\t[1",
     "cas-register", 1, "unterminated"),
    ("truncated.edn", '{:process 0, :type :invoke, :f :get, :key "1", '
     ':value nil}\n{:process 0, :type :ok, :f :get, :key "1", :val',
     "kv", 2, "truncated"),
    ("no-call.edn", '{:process 0, :type :ok, :f :get, :key "1", '
     ':value ""}\n', "kv", 1, "without a pending call"),
    ("dup.edn", '{:process 0, :type :invoke, :f :get, :key "1"}\n\n'
     '{:process 0, :type :invoke, :f :put, :key "1", :value "x"}\n',
     "kv", 3, "duplicate call"),
    ("bad-type.edn", '{:process 0, :type :started, :f :get, :key "1"}\n',
     "kv", 1, ":type must be"),
    ("no-key.edn", '{:process 0, :type :invoke, :f :get}\n', "kv", 1,
     "without a :key"),
    ("wrong-op.edn", '{:process 0, :type :invoke, :f :cas, :value [1 2]}\n',
     "register", 1, "has no operation :cas"),
    ("truncated.json", '{"ops": [\n{"process": 0, "f": "read", "call": 0,'
     ' "return": 1},\n{"process": 1, "f": "read", "ca', "register", 3,
     "truncated"),
    ("typo.json", '[\n{"process": 0, "f": "read", "call": 0, "retrun": 1}]',
     "register", 2, "unknown field"),
]


def part_errors(ravel, data):
    tmp = tempfile.mkdtemp(prefix="ravel-lin-")
    try:
        for name, text, model, line, frag in BAD:
            p = os.path.join(tmp, name)
            with open(p, "w") as f:
                f.write(text)
            rc, out, err = run([ravel, "lin", "--model", model, p])
            lines = err.strip().splitlines()
            want = "ravel lin: %s:%d: " % (p, line)
            check(rc == 2 and len(lines) == 1 and lines[0].startswith(want)
                  and frag in lines[0],
                  "%s: exit 2 and one line '%s... %s' (got %d %r)"
                  % (name, want, frag, rc, err.strip()))
            check(out == "", "%s: nothing on stdout" % name)
        rc, out, err = run([ravel, "lin", "--model", "btree",
                            os.path.join(data, "kv", "c01-ok.txt")])
        check(rc == 2 and "unknown model 'btree'" in err
              and len(err.strip().splitlines()) == 1,
              "unknown model: exit 2 and one line")
        rc, out, err = run([ravel, "lin", "--model", "kv",
                            os.path.join(tmp, "missing.txt")])
        check(rc == 2 and "No such file" in err, "missing file: exit 2")
        # One bad history among good ones: the others are still checked.
        rc, out, err = run([ravel, "lin", "--model", "cas-register",
                            os.path.join(tmp, "dup.log"),
                            os.path.join(data, "jepsen", "etcd_002.log")])
        check(rc == 2 and "etcd_002.log: linearizable" in out,
              "a bad history does not stop the others")
    finally:
        shutil.rmtree(tmp)


def part_cli(ravel, data):
    rc, out, err = run([ravel, "lin", "--help"])
    check(rc == 0 and all(m in out for m in (
        "register", "cas-register", "kv", "counter", "set", "queue",
        "stack", "EXIT STATUS", "--timeout", "--html", "--init")),
        "--help is a manual naming every model and option")
    rc, out, err = run([ravel, "help", "lin"])
    check(rc == 0 and "SYNOPSIS" in out, "ravel help lin")
    etcd2 = os.path.join(data, "jepsen", "etcd_002.log")
    rc, out, err = run([ravel, "lin", "--model", "cas-register", "--json",
                        etcd2])
    h = json.loads(out)
    check(rc == 0 and h["verdict"] == "linearizable" and h["operations"] > 0,
          "--json on one history prints one object")
    # Budgets: unknown, exit 2, never a guess.
    rc, out, err = run([ravel, "lin", "--model", "cas-register",
                        "--max-steps", "3", etcd2])
    check(rc == 2 and "unknown" in out and "step limit" in out
          and "linearizable prefix of" in out,
          "--max-steps: unknown with exit 2, and how far it got")
    c50 = os.path.join(data, "kv", "c50-ok.txt")
    rc, out, err = run([ravel, "lin", "--model", "kv", "--no-partition",
                        "--timeout", "0.3", c50])
    check(rc == 2 and "unknown" in out and "timeout" in out,
          "--timeout: unknown with exit 2 (%d %s)" % (rc, out.strip()))
    rc, out, err = run([ravel, "lin", "--model", "kv", "--max-memory", "1",
                        os.path.join(data, "kv", "c10-bad.txt")])
    check(rc == 1, "--max-memory 1: still exact")
    for args, frag in ((["--timeout", "soon"], "--timeout"),
                       (["--max-steps", "0"], "--max-steps"),
                       (["--format", "xml"], "unknown format"),
                       (["--frobnicate"], "unknown option"),
                       (["--html", "x.html", etcd2], "exactly one")):
        rc, out, err = run([ravel, "lin", "--model", "register"] + args
                           + [etcd2])
        check(rc == 2 and frag in err, "usage error %s: exit 2" % args)
    rc, out, err = run([ravel, "lin", "--model", "register"])
    check(rc == 2 and "no history given" in err, "no history: exit 2")
    rc, out, err = run([ravel, "lin", etcd2])
    check(rc == 2 and "--model NAME is required" in err,
          "--model is required")
    p = subprocess.run([ravel, "lin", "--model", "cas-register", "-"],
                       input=open(etcd2).read(), capture_output=True,
                       text=True)
    check(p.returncode == 0 and p.stdout.startswith("-: linearizable"),
          "a history piped to standard input (-)")
    # --init: etcd_002 starts from nil; starting from 7 breaks it.
    rc, out, err = run([ravel, "lin", "--model", "cas-register", "--init",
                        "7", etcd2])
    check(rc == 1, "--init 7 changes the verdict")


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def part_html(ravel, data):
    browser = os.environ.get("RAVEL_CHROMIUM") or chromium()
    check(browser is not None,
          "a Chromium to open the page in (scripts/install-deps installs it)")
    if not browser:
        return
    tmp = tempfile.mkdtemp(prefix="ravel-lin-")
    try:
        cases = [("cas-register", os.path.join(data, "jepsen",
                                               "etcd_000.log")),
                 ("kv", os.path.join(data, "kv", "c10-bad.txt")),
                 ("cas-register", os.path.join(data, "jepsen",
                                               "etcd_002.log"))]
        for model, hist in cases:
            page = os.path.join(tmp, os.path.basename(hist) + ".html")
            rc, out, err = run([ravel, "lin", "--model", model, "--json",
                                "--html", page, hist])
            res = json.loads(out)
            check(os.path.exists(page), "%s: page written" % page)
            flags = ["--headless", "--no-sandbox", "--disable-gpu",
                     "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--no-first-run",
                     "--user-data-dir=" + os.path.join(tmp, "profile")]
            rc2, dom, err2 = run([browser] + flags +
                                 ["--dump-dom", "file://" + page],
                                 timeout=120)
            name = os.path.basename(hist)
            check(rc2 == 0 and 'data-rendered="ok"' in dom,
                  "%s: the page's script ran in Chromium" % name)
            lanes = len(re.findall(r'<g class="lane"', dom))
            bars = re.findall(r'<g class="op([a-z ]*)" data-op="(\d+)"', dom)
            points = len(re.findall(r'<circle[^>]*class="lp"', dom))
            fails = [b for b in bars if " fail" in b[0]]
            if res["verdict"] == "not linearizable":
                ex = res["explanation"]
                ops = ex["partition_operations"]
                procs = {o["process"] for o in ex["prefix"]}
                check(lanes >= len(procs) and lanes > 0,
                      "%s: one lane per process (%d)" % (name, lanes))
                check(len(bars) == ops,
                      "%s: one bar per operation (%d of %d)"
                      % (name, len(bars), ops))
                check(points == len(ex["prefix"]),
                      "%s: a linearization point per prefix operation "
                      "(%d of %d)" % (name, points, len(ex["prefix"])))
                check(len(fails) == len(ex["cannot_go_next"]) and fails,
                      "%s: the operations that cannot go next are "
                      "highlighted (%d)" % (name, len(fails)))
            else:
                check(len(bars) == res["operations"] and not fails
                      and lanes == res["processes"],
                      "%s: linearizable page draws every operation, none "
                      "failing" % name)
        shot = os.path.join(tmp, "shot.png")
        page = os.path.join(tmp, "etcd_000.log.html")
        rc, out, err = run([browser] + flags + ["--window-size=1400,900",
                                                "--screenshot=" + shot,
                                                "file://" + page],
                           timeout=120)
        ok = os.path.exists(shot) and open(shot, "rb").read(8) == \
            b"\x89PNG\r\n\x1a\n" and os.path.getsize(shot) > 10000
        check(ok, "Chromium renders a screenshot of the page")
    finally:
        shutil.rmtree(tmp)


KNOSSOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "knossos")

# (file, model, extra options, exit status, text the verdict line holds)
KNOSSOS_CASES = [
    ("cas-list-comments.edn", "cas-register", [], 0, ": linearizable"),
    ("cas-list-comments-bad.edn", "cas-register", [], 1, "NOT"),
    ("register-split-maps.edn", "register", [], 1, "NOT"),
    ("register-split-maps-ok.edn", "register", [], 0, ": linearizable"),
    ("independent.edn", "cas-register", ["--independent"], 1,
     "3 keys: 2 linearizable, 1 not"),
    ("independent-ok.edn", "register", ["--independent"], 0,
     "2 keys: 2 linearizable, 0 not"),
    ("mutex.edn", "mutex", [], 0, ": linearizable"),
    ("mutex-bad.edn", "mutex", [], 1, "NOT"),
    ("multi-register.edn", "multi-register", ["--init", "{:x 0 :y 0}"], 0,
     ": linearizable"),
    ("multi-register-bad.edn", "multi-register", ["--init", "{:x 0 :y 0}"],
     1, "NOT"),
]


def part_knossos(ravel, data):
    """Knossos- and Jepsen-shaped histories written for these tests
    (tests/lin/knossos/, each file says what it shows and why its
    verdict is right): ; comments, ( ... ) lists, maps over several
    lines with :time out of event order, independent [k v] tuples,
    mutex and multi-register. Needs no data folder."""
    for f, model, extra, want, text in KNOSSOS_CASES:
        path = os.path.join(KNOSSOS, f)
        rc, out, err = run([ravel, "lin", "--model", model] + extra + [path])
        first = out.splitlines()[0] if out else ""
        check(rc == want and text in first and not err,
              "%s: exit %d (want %d), %r" % (f, rc, want, first or err))
        # Auto-detection must not be what makes it pass or fail: the
        # verdict is the same when the format is forced.
        rc2, _, _ = run([ravel, "lin", "--model", model, "--format", "edn",
                         "-q"] + extra + [path])
        check(rc2 == want, "%s with --format edn: exit %d" % (f, rc2))
    # One verdict per key, in key order, and the failing key explained.
    rc, out, _ = run([ravel, "lin", "--model", "cas-register",
                      "--independent", os.path.join(KNOSSOS,
                                                    "independent.edn")])
    lines = out.splitlines()
    check(lines[1:4] == ["  key 1: linearizable (3 operations)",
                         "  key 2: NOT linearizable (3 operations)",
                         "  key 3: linearizable (2 operations)"],
          "independent: per-key verdict lines %r" % lines[1:4])
    check("in the operations on key 2" in out,
          "independent: the explanation is about key 2")
    rc, out, _ = run([ravel, "lin", "--model", "cas-register",
                      "--independent", "--json",
                      os.path.join(KNOSSOS, "independent.edn")])
    d = json.loads(out)
    check([(k["key"], k["verdict"]) for k in d["keys"]] ==
          [(1, "linearizable"), (2, "not linearizable"),
           (3, "linearizable")], "independent --json: keys %r" % d["keys"])
    # Without --independent the tuples are plain values, so a cas-register
    # refuses the history as its cas values are not [from to] of the key.
    # Bad input: one line naming the line, exit 2, never a crash.
    with tempfile.TemporaryDirectory() as tmp:
        bad = [
            ("; only a comment\n(\n{:process 0, :type :invoke, :f :read,"
             "\n :value nil}\n", "register", [], ":2: unterminated history list"),
            ("({:process 0 :type :invoke :f :read :value nil})\n"
             "{:process 0 :type :ok :f :read :value 1}\n", "register", [],
             ":2: text after the history vector or list"),
            ("[{:process 0 :type :invoke :f :write :value 1}\n"
             " {:process 0 :type :ok :f :write :value 1}]\n", "register",
             ["--independent"], ":1: an independent history's values are"),
            ("[{:process 0 :type :invoke :f :read :value [1 nil]}\n"
             " {:process 0 :type :ok :f :read :value [2 5]}]\n", "register",
             ["--independent"], ":2: the completion's value is not"),
            ("[{:process 0 :type :invoke :f :lock}]\n", "mutex", [],
             ":1: model mutex has no operation :lock"),
            ("[{:process 0 :type :invoke :f :txn :value [[:read :x]]}]\n",
             "multi-register", [], ":1: a multi-register :txn value"),
            ("[{:process 0 :type :invoke :f :txn :value [[:cas :x 1]]}]\n",
             "multi-register", [], ":1: a multi-register :txn value"),
        ]
        for i, (text, model, extra, msg) in enumerate(bad):
            path = os.path.join(tmp, "bad%d.edn" % i)
            with open(path, "w") as fh:
                fh.write(text)
            rc, out, err = run([ravel, "lin", "--model", model] + extra +
                               [path])
            check(rc == 2 and len(err.splitlines()) == 1 and msg in err
                  and not out,
                  "bad input %d: exit %d, one line with %r: %r"
                  % (i, rc, msg, err))
        # A failure found is certain even when a budget leaves another
        # key unknown: key 1 fails at once, key 2 needs 20 steps.
        ev = ["{:process 0, :type :invoke, :f :write, :value [1 1]}",
              "{:process 0, :type :ok, :f :write, :value [1 1]}",
              "{:process 0, :type :invoke, :f :read, :value [1 nil]}",
              "{:process 0, :type :ok, :f :read, :value [1 2]}"]
        for i in range(20):
            ev += ["{:process 1, :type :%s, :f :write, :value [2 %d]}"
                   % (t, i) for t in ("invoke", "ok")]
        path = os.path.join(tmp, "budget.edn")
        with open(path, "w") as fh:
            fh.write("[" + "\n ".join(ev) + "]\n")
        rc, out, _ = run([ravel, "lin", "--model", "register",
                          "--independent", "--max-steps", "8", path])
        check(rc == 1 and "2 keys: 0 linearizable, 1 not, 1 unknown" in out
              and "  key 1: NOT linearizable (2 operations)" in out
              and "  key 2: unknown (20 operations)" in out,
              "independent with a budget: the failed key decides: %r"
              % out.splitlines()[:3])
        rc, out, _ = run([ravel, "lin", "--model", "register",
                          "--independent", "--max-steps", "4", path])
        check(rc == 2 and out.startswith(path + ": unknown"),
              "independent, budget before any key fails: unknown, exit 2")
        rc, _, err = run([ravel, "lin", "--model", "multi-register",
                          "--init", "[1 2]", os.path.join(KNOSSOS,
                                                          "multi-register.edn")])
        check(rc == 2 and "--init" in err and len(err.splitlines()) == 1,
              "multi-register --init [1 2]: %r" % err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--data", default=os.environ.get("RAVEL_LIN_DATA"))
    ap.add_argument("part", choices=["verdicts", "errors", "cli", "html",
                                     "knossos"])
    a = ap.parse_args()
    data = os.environ.get("RAVEL_LIN_DATA") or a.data
    if a.part == "knossos":
        part_knossos(os.path.abspath(a.ravel), data)
        print("# knossos: %d failed" % len(FAILED))
        return 1 if FAILED else 0
    if not data or not os.path.isdir(os.path.join(data, "jepsen")) \
            or not os.path.isdir(os.path.join(data, "kv")):
        print("SKIP: the linearizability data folder %r (with jepsen/ "
              "and kv/) is missing; set RAVEL_LIN_DATA to run these tests" % data)
        return 77
    globals()["part_" + a.part](os.path.abspath(a.ravel), data)
    total = sum(1 for _ in FAILED)
    print("# %s: %d failed" % (a.part, total))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
