#!/usr/bin/env python3
"""End-to-end tests of ravel's report views (docs/output.md).

Parts:
  dot     every example's failing execution as --dot renders with
          GraphViz (`dot -Tsvg`) without error; replay writes the same
          graph as the run
  html    the --html report of counter (assertion), deadlock, the data
          race (counter_plain) and a linearizability failure
          (examples/pbt/pbt_queue) opened in headless Chromium: its script
          ran, the findings table has one row per finding, the first
          finding's diagram has one lane per thread, and its arrows are
          exactly the transitive reduction of inter-thread happens-before,
          computed here from the page's raw events by other means
          (synchronisation rules, then reachability); a screenshot of
          each is saved
  escape  a program whose output, assertion message and file name carry
          <script>, markup, quotes and bytes that are not UTF-8: the page
          shows them as text and runs none of it
  ci      --junit validates against the JUnit schema's required elements
          and attributes (Python's XML parser), --tap parses with prove
  fold    a loop of 300 lock/unlock steps: one folded line in the text
          trace, one folded item in the diagram
  pool    the thread-pool example: every distinct finding in the findings
          table (a data race by both its lines), the run's closing summary
          under 30 lines, later findings summarised unless --verbose (a
          data race's summary names its other access)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAIL: " + msg)
    else:
        print("ok: " + msg)
    return cond


def run(cmd, timeout=300, cwd=None, env=None):
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    if env:
        e.update(env)
    return subprocess.run(cmd, capture_output=True, timeout=timeout, cwd=cwd,
                          env=e, stdin=subprocess.DEVNULL)


def ravel_run(args, exe, extra, cwd, prog_args=()):
    p = run([args.ravel, "run", "--json", "--seed", "1"] + extra +
            ["--", exe] + list(prog_args), cwd=cwd)
    try:
        s = json.loads(p.stdout.decode())
    except ValueError:
        s = None
    return p, s


# ---- the reduction, computed independently ---------------------------

FAILED, TIMEDOUT, SERIAL, ERROR, ACQ, REL = 1, 2, 4, 8, 64, 128
LOCKS = {"lock", "trylock", "timedlock", "spin_lock", "spin_trylock"}
RDLOCKS = {"rdlock", "tryrdlock", "timedrdlock"}
WRLOCKS = {"wrlock", "trywrlock", "timedwrlock"}


def sync_edges(evs):
    """Synchronisation edges (i, j) between events of different threads,
    from the rules in docs/output.md: create/start, finish/join, lock
    release/acquire, signal/wake, post/wait, barrier rounds, once,
    release/acquire atomics (reads-from, release sequences)."""
    edges = set()

    def add(a, b):
        if a is not None and a < b and evs[a][0] != evs[b][0]:
            edges.add((a, b))

    started, create, finish = set(), {}, {}
    release, wrelease, writer, rels = {}, {}, {}, {}
    waiting, signal, posts, once_done = {}, {}, {}, {}
    last_write, head = {}, {}
    arrivals, round_of = {}, {}
    for i, (t, op, obj, aux, fl, val) in enumerate(evs):
        bad = fl & (FAILED | TIMEDOUT | ERROR)
        if t not in started:
            started.add(t)
            add(create.get(t), i)
        if op == "create" and not bad:
            create[aux] = i
        elif op == "finish":
            finish[t] = i
        elif op in ("join", "tryjoin", "timedjoin") and not bad:
            add(finish.get(obj), i)
        elif op in ("unlock", "spin_unlock") and not bad:
            release[obj] = i
        elif op in ("wait", "timedwait"):
            release[aux] = i
            waiting[t] = obj
            signal.pop(t, None)
        elif op == "signal":
            if aux in waiting:
                signal[aux] = i
        elif op == "broadcast":
            for w, c in waiting.items():
                if c == obj and w not in signal:
                    signal[w] = i
        elif op == "wake":
            if not fl & TIMEDOUT:
                add(signal.get(t), i)
            waiting.pop(t, None)
            signal.pop(t, None)
            add(release.get(aux), i)
        elif op in RDLOCKS and not bad:
            add(wrelease.get(obj), i)
        elif op in WRLOCKS and not bad:
            add(wrelease.get(obj), i)
            for r in rels.pop(obj, []):
                add(r, i)
            writer[obj] = t
        elif op == "rwunlock" and not bad:
            if writer.get(obj) == t:
                wrelease[obj] = i
                writer.pop(obj)
            else:
                rels.setdefault(obj, []).append(i)
        elif op == "sem_post" and not bad:
            posts[obj] = i
        elif op in ("sem_wait", "sem_trywait", "sem_timedwait") and not bad:
            add(posts.get(obj), i)
        elif op == "barrier_wait":
            arrivals.setdefault(obj, []).append(i)
            if fl & SERIAL:
                for a in arrivals[obj]:
                    round_of[evs[a][0]] = list(arrivals[obj])
                arrivals[obj] = []
        elif op == "barrier_leave":
            for a in round_of.pop(t, []):
                add(a, i)
        elif op == "once_done":
            once_done[obj] = i
        elif op == "once" and val == 0:
            add(once_done.get(obj), i)
        elif op in ("load", "rmw", "cas"):
            if fl & ACQ and obj in last_write:
                add(head.get(obj), i)
            if op == "rmw" or (op == "cas" and aux == 1):
                if fl & REL:
                    head[obj] = i
                last_write[obj] = i
        elif op == "store":
            last_write[obj] = i
            head[obj] = i if fl & REL else None
        elif op in LOCKS and not bad:
            add(release.get(obj), i)
    return edges


def reduction(evs):
    """The edges no other path explains, by reachability over program
    order plus the synchronisation edges."""
    n = len(evs)
    edges = sync_edges(evs)
    succ = [set() for _ in range(n)]
    last = {}
    for i, e in enumerate(evs):
        if e[0] in last:
            succ[last[e[0]]].add(i)
        last[e[0]] = i
    for a, b in edges:
        succ[a].add(b)
    reach = [None] * n
    for i in range(n - 1, -1, -1):
        r = set()
        for s in succ[i]:
            r.add(s)
            r |= reach[s]
        reach[i] = r
    out = set()
    for a, b in edges:
        if not any(s != b and b in reach[s] for s in succ[a]):
            out.add((a + 1, b + 1))  # steps are numbered from 1
    return out


# ---- Chromium ---------------------------------------------------------

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def browser_flags(tmp):
    return ["--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run",
            "--user-data-dir=" + os.path.join(tmp, "profile")]


def dump_dom(browser, tmp, page):
    p = run([browser] + browser_flags(tmp) + ["--dump-dom", "file://" + page],
            timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def screenshot(browser, tmp, page, shot):
    run([browser] + browser_flags(tmp) +
        ["--window-size=1300,1000", "--screenshot=" + shot, "file://" + page],
        timeout=120)
    return os.path.exists(shot) and open(shot, "rb").read(8) == \
        b"\x89PNG\r\n\x1a\n"


def finding_data(page_text):
    out = []
    for m in re.finditer(r'<script type="application/json" '
                         r'class="finding-data">(.*?)</script>', page_text,
                         re.S):
        out.append(json.loads(m.group(1)))
    return out


def attrs(tag):
    return dict(re.findall(r'([a-z-]+)="([^"]*)"', tag))


# ---- parts --------------------------------------------------------------

EXAMPLES = ["counter", "deadlock", "counter_plain", "logger", "registry",
            "spawn_register", "outcomes", "pool"]


def part_dot(args, tmp):
    dot = shutil.which("dot")
    if not check(dot is not None, "GraphViz dot is installed "
                 "(scripts/install-deps)"):
        return
    progs = EXAMPLES + ["pbt/pbt_queue", "pbt/pbt_counter",
                        "pbt/pbt_registry"]
    for name in progs:
        exe = os.path.join(args.exe_dir, os.path.basename(name))
        g = os.path.join(tmp, os.path.basename(name) + ".dot")
        if name.startswith("pbt/"):
            p = run([exe, "--seed", "1", "--dot", g], cwd=tmp)
        else:
            p = run([args.ravel, "run", "--seed", "1", "--dot", g, "--", exe],
                    cwd=tmp)
        if not check(p.returncode == 1 and os.path.exists(g),
                     "%s: a bug and its graph (exit %d)" % (name, p.returncode)):
            continue
        text = open(g, "rb").read().decode()
        r = run([dot, "-Tsvg", g])
        check(r.returncode == 0 and b"<svg" in r.stdout and not r.stderr,
              "%s: dot -Tsvg renders it (%s)" % (name, r.stderr[:200]))
        check(text.startswith("digraph ravel {") and "cluster_0" in text,
              "%s: one cluster per thread" % name)
    # A replay writes the same graph as the run that found the bug.
    exe = os.path.join(args.exe_dir, "deadlock")
    g1, g2 = os.path.join(tmp, "run.dot"), os.path.join(tmp, "replay.dot")
    p, s = ravel_run(args, exe, ["--dot", g1], tmp)
    if check(s and s["bugs"], "deadlock: found"):
        run([args.ravel, "replay", "--dot", g2, s["bugs"][0]["ticket"]],
            cwd=tmp)
        a = open(g1).read() if os.path.exists(g1) else "1"
        b = open(g2).read() if os.path.exists(g2) else "2"
        # The title names the strategy and execution: the same in both.
        check(a == b, "deadlock: replay --dot gives the run's graph")


def html_case(args, tmp, browser, name, cmd, expect_kind):
    page = os.path.join(tmp, name + ".html")
    p = run(cmd + ["--html", page] if cmd[0] != args.ravel else
            cmd[:2] + ["--html", page] + cmd[2:], cwd=tmp)
    try:
        s = json.loads(p.stdout.decode())
    except ValueError:
        s = None
    if not check(s is not None and os.path.exists(page),
                 "%s: --html page and --json summary written" % name):
        return
    text = open(page, encoding="utf-8").read()
    check("http://" not in text.replace("http://www.w3.org/2000/svg", "")
          and "https://" not in text and "src=" not in text,
          "%s: the page loads nothing from anywhere" % name)
    rc, dom = dump_dom(browser, tmp, page)
    if not check(rc == 0 and 'data-rendered="ok"' in dom,
                 "%s: the page's script ran in Chromium" % name):
        return
    rows = re.findall(r'<tr class="finding-row" data-finding="(\d+)">', dom)
    check(len(rows) == len(s["bugs"]) and len(rows) > 0,
          "%s: one table row per finding (%d rows, %d findings)"
          % (name, len(rows), len(s["bugs"])))
    kinds = re.findall(r'<td class="kind">([^<]*)</td>', dom)
    check(expect_kind in kinds, "%s: the table lists the %s (%s)"
          % (name, expect_kind, kinds))
    data = finding_data(text)
    if not check(len(data) == len(s["bugs"]), "%s: data for every finding"
                 % name):
        return
    d = data[0]
    # The first finding's section is open: its diagram is drawn.
    first = dom[dom.index('id="f1"'):]
    nxt = first.find('<details class="finding" id="f2"')
    if nxt > 0:
        first = first[:nxt]
    lanes = re.findall(r'<th class="lane" data-lane="([^"]*)"', first)
    used = sorted({d["lanes"][it["lane"]] for it in d["items"]})
    check(sorted(lanes) == used and len(lanes) >= 2,
          "%s: one lane per thread (%s)" % (name, lanes))
    steps = re.findall(r'<div class="item step[^"]*" data-lane="[^"]*" '
                       r'data-step="(\d+)"', first)
    check(len(steps) > 0, "%s: steps drawn (%d)" % (name, len(steps)))
    drawn = set()
    for tag in re.findall(r'<path [^>]*class="arrow"[^>]*>', first):
        a = attrs(tag)
        drawn.add((int(a["data-from"]), int(a["data-to"])))
    check(d["hidden"] == 0, "%s: the whole execution is shown" % name)
    expect = reduction(d["events"])
    check(drawn == expect and len(drawn) > 0,
          "%s: the arrows are exactly the reduction: drawn %s, expected %s"
          % (name, sorted(drawn), sorted(expect)))
    marks = re.findall(r'<div class="item end (fail|race|blocked)"', first) + \
        re.findall(r'<div class="item step (race)"', first)
    if expect_kind in ("assertion", "deadlock", "data-race"):
        check(len(marks) > 0, "%s: the failure is highlighted (%s)"
              % (name, marks))
    if expect_kind == "deadlock":
        waits = re.findall(r'<div class="item end blocked" data-lane="[^"]*" '
                           r'data-waits="([^"]*)"', first)
        paths = re.findall(r'<path class="wait"', first)
        check(len(waits) == 3 and len(paths) == len(waits),
              "%s: each blocked thread points at the thread it waits for "
              "(%s)" % (name, waits))
    if expect_kind == "linearizability":
        h = d.get("history")
        ops = re.findall(r'<g class="op([a-z ]*)" data-op="(\d+)"', first)
        fails = [o for o in ops if " fail" in o[0]]
        check(h is not None and len(ops) == len(h["ops"]) and fails and
              re.search(r'<svg[^>]*class="timeline"', first) is not None,
              "%s: the history drawn as a timeline, one bar per call, the "
              "calls that cannot come next marked (%d bars, %d marked)"
              % (name, len(ops), len(fails)))
    copies = re.findall(r'<button class="copy" data-copy="ravel replay '
                        r'(--gdb )?[^"]+"', dom)
    check(len(copies) >= 2, "%s: replay and --gdb commands to copy" % name)
    shot = os.path.join(args.out, "report-" + name + ".png")
    check(screenshot(browser, tmp, page, shot),
          "%s: screenshot %s" % (name, shot))


def part_html(args, tmp):
    browser = os.environ.get("RAVEL_CHROMIUM") or chromium()
    if not check(browser is not None, "a Chromium to open the page in "
                 "(scripts/install-deps installs it)"):
        return
    os.makedirs(args.out, exist_ok=True)
    ex = lambda n: os.path.join(args.exe_dir, n)
    cases = [
        ("counter", [args.ravel, "run", "--json", "--seed", "1", "--",
                     ex("counter")], "assertion"),
        ("deadlock", [args.ravel, "run", "--json", "--seed", "1", "--",
                      ex("deadlock")], "deadlock"),
        ("counter_plain", [args.ravel, "run", "--json", "--seed", "1",
                           "--keep-going", "--", ex("counter_plain")],
         "data-race"),
        ("pbt_queue", [ex("pbt_queue"), "--json", "--seed", "1"],
         "linearizability"),
        # One lane: which executions auto's two halves get on two lanes
        # depends on timing, and about 1 run in 24 at load ~30 never saw
        # the race on `done` that leads to the assertion.
        ("pool", [args.ravel, "run", "--json", "--seed", "1", "--jobs", "1",
                  "--keep-going", "--", ex("pool")], "assertion"),
    ]
    for name, cmd, kind in cases:
        html_case(args, tmp, browser, name, cmd, kind)


EVIL_NAME = b'e<img src=x onerror="document.body.setAttribute(\'data-pwned\',3)">\'\xff.c'
EVIL_SRC = rb'''
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
static int n;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void *w(void *a)
{
    pthread_mutex_lock(&m);
    n++;
    pthread_mutex_unlock(&m);
    return a;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    printf("<script>document.body.setAttribute('data-pwned','1')</script>"
           " \"q\" 'a' \xff\xfe & done\n");
    pthread_mutex_lock(&m);
    int seen = n;
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    assert(seen == 1 && "<script>document.body.setAttribute('data-pwned','2')</script>\"");
    return 0;
}
'''


def part_escape(args, tmp):
    browser = os.environ.get("RAVEL_CHROMIUM") or chromium()
    if not check(browser is not None, "a Chromium to open the page in"):
        return
    d = os.path.join(tmp, "evil").encode()
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, EVIL_NAME)
    with open(src, "wb") as f:
        f.write(EVIL_SRC)
    exe = os.path.join(d, b"evil")
    p = run([args.ravel_cc.encode(), b"-O0", b"-g", src, b"-o", exe,
             b"-lpthread"], cwd=d)
    if not check(p.returncode == 0, "the evil program builds: %s"
                 % p.stderr[-300:]):
        return
    page = os.path.join(tmp, "evil.html")
    p = run([args.ravel, "run", "--seed", "1", "--strategy", "dfs",
             "--html", page, "--", exe.decode("utf-8", "surrogateescape")],
            cwd=d)
    if not check(p.returncode == 1 and os.path.exists(page),
                 "evil: an assertion failure and its page (exit %d)"
                 % p.returncode):
        return
    raw = open(page, "rb").read()
    text = raw.decode("utf-8")  # the page itself is valid UTF-8
    check(text.count("<script") == 2 + len(finding_data(text)),
          "evil: the page's only script elements are ravel's")
    check("<img" not in text, "evil: the file name's markup is text")
    check("&lt;script&gt;document.body.setAttribute" in text,
          "evil: the output and message are shown, escaped")
    check("\\xff\\xfe" in text, "evil: bytes that are not UTF-8 are shown "
          "as \\xNN")
    rc, dom = dump_dom(browser, tmp, page)
    check(rc == 0 and 'data-rendered="ok"' in dom,
          "evil: the page's script ran")
    check('data-pwned="' not in dom and "<img" not in dom,
          "evil: nothing from the program ran or became markup")
    # The same text through the JUnit and DOT writers stays well formed.
    j = os.path.join(tmp, "evil.xml")
    g = os.path.join(tmp, "evil.dot")
    run([args.ravel, "run", "--seed", "1", "--strategy", "dfs", "--junit", j,
         "--dot", g, "--", exe.decode("utf-8", "surrogateescape")], cwd=d)
    try:
        root = ET.parse(j).getroot()
        body = root.find("testsuite/testcase/failure").text
        ok = "<script>document.body" in body
    except (ET.ParseError, OSError, AttributeError):
        ok = False
    check(ok, "evil: the JUnit file parses and carries the text")
    dot = shutil.which("dot")
    if dot:
        r = run([dot, "-Tsvg", g])
        check(r.returncode == 0, "evil: dot renders the graph: %s"
              % r.stderr[:200])


LOOP_SRC = rb'''
#include <assert.h>
#include <pthread.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int n;
static void *w(void *a)
{
    for (int i = 0; i < 300; i++) {
        pthread_mutex_lock(&m);
        n++;
        pthread_mutex_unlock(&m);
    }
    return a;
}
int main(void)
{
    pthread_t t;
    pthread_create(&t, 0, w, 0);
    pthread_join(t, 0);
    assert(n == 0);
    return 0;
}
'''


def part_fold(args, tmp):
    src = os.path.join(tmp, "loop.c")
    with open(src, "wb") as f:
        f.write(LOOP_SRC)
    exe = os.path.join(tmp, "loop")
    p = run([args.ravel_cc, "-O1", "-g", src, "-o", exe, "-lpthread"],
            cwd=tmp)
    if not check(p.returncode == 0, "loop builds: %s" % p.stderr[-300:]):
        return
    page = os.path.join(tmp, "loop.html")
    p, s = ravel_run(args, exe, ["--html", page], tmp)
    err = p.stderr.decode()
    m = re.search(r"steps ([\d,]+)-([\d,]+): thread 1\.1 repeats "
                  r"`lock m; unlock m` ([\d,]+) more times", err)
    if check(m is not None, "loop: the 300 iterations fold into one line"):
        a, b, reps = (int(g.replace(",", "")) for g in m.groups())
        check(b - a + 1 == 2 * reps and reps == 299,
              "loop: the line covers steps %d-%d, %d copies" % (a, b, reps))
    rows = re.findall(r"^\s+\d+\s", err[err.index("Interleaving:"):
                                       err.index("Schedule:")], re.M)
    check(len(rows) < 20, "loop: %d table rows for %s steps"
          % (len(rows), s and s["steps"]))
    text = open(page).read() if os.path.exists(page) else ""
    d = finding_data(text)
    folds = [it for it in d[0]["items"] if it["k"] == "fold"] if d else []
    check(len(folds) == 1 and folds[0]["reps"] == 299 and
          folds[0]["text"] == "lock m; unlock m",
          "loop: the diagram folds the lane's repeats into one item (%s)"
          % folds)


def validate_junit(path, name):
    """The elements and attributes the common JUnit schema (Ant's, as
    Jenkins reads it) requires."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        check(False, "%s: JUnit XML parses: %s" % (name, e))
        return None
    ok = root.tag == "testsuites"
    suites = root.findall("testsuite")
    ok = ok and len(suites) == 1
    for s in suites:
        for a in ("name", "tests", "failures", "errors", "time", "timestamp",
                  "hostname", "id", "package"):
            ok = ok and a in s.attrib
        ok = ok and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$",
                             s.get("timestamp", "")) is not None
        ok = ok and s.find("properties") is not None
        ok = ok and s.find("system-out") is not None
        ok = ok and s.find("system-err") is not None
        cases = s.findall("testcase")
        ok = ok and int(s.get("tests", -1)) == len(cases)
        nf = sum(1 for c in cases if c.find("failure") is not None)
        ne = sum(1 for c in cases if c.find("error") is not None)
        ok = ok and int(s.get("failures", -1)) == nf
        ok = ok and int(s.get("errors", -1)) == ne
        for c in cases:
            for a in ("name", "classname", "time"):
                ok = ok and a in c.attrib
            for f in c.findall("failure") + c.findall("error"):
                ok = ok and "type" in f.attrib and "message" in f.attrib
    check(ok, "%s: JUnit XML has the schema's required elements" % name)
    return root


def part_ci(args, tmp):
    ex = lambda n: os.path.join(args.exe_dir, n)
    prove = shutil.which("prove")
    for name, exe, extra, bug in (
            ("counter", ex("counter"), [], True),
            ("counter_fixed", ex("counter_fixed"), [], False),
            ("pbt_queue", ex("pbt_queue"), ["--seed", "1"], True)):
        j = os.path.join(tmp, name + ".xml")
        if name.startswith("pbt"):
            p = run([exe, "--junit", j, "--tap", "-"] + extra, cwd=tmp)
        else:
            p = run([args.ravel, "run", "--seed", "1", "--junit", j, "--tap",
                     "-", "--", exe], cwd=tmp)
        check(p.returncode == (1 if bug else 0), "%s: exit %d" %
              (name, p.returncode))
        root = validate_junit(j, name)
        if root is not None:
            fails = root.findall("testsuite/testcase/failure")
            check(len(fails) == (1 if bug else 0),
                  "%s: %d failures in the JUnit file" % (name, len(fails)))
            if bug:
                check("SUMMARY: ravel:" in (fails[0].text or "") and
                      fails[0].get("type"),
                      "%s: the failure carries the report" % name)
        tap = os.path.join(tmp, name + ".tap")
        with open(tap, "wb") as f:
            f.write(p.stdout)
        out = p.stdout.decode("utf-8", "replace")
        check(out.startswith("TAP version 13\n1..1\n") and
              ("\nnot ok 1 - " if bug else "\nok 1 - ") in out,
              "%s: TAP on stdout: %r" % (name, out[:120]))
        if check(prove is not None, "prove is installed"):
            r = run([prove, "-v", "--exec", "cat", tap], cwd=tmp)
            o = r.stdout.decode("utf-8", "replace")
            check("Parse errors" not in o and
                  ("Result: FAIL" if bug else "Result: PASS") in o,
                  "%s: prove parses the TAP: %s" % (name, o[-300:]))
    # --tap - and --json both want stdout; --tap FILE writes the file.
    p = run([args.ravel, "run", "--tap", "-", "--json", "--", ex("counter")],
            cwd=tmp)
    lines = [l for l in p.stderr.decode().splitlines() if l.strip()]
    check(p.returncode == 2 and len(lines) == 1,
          "--tap - with --json: one line, exit 2 (%r)" % p.stderr[:200])
    t = os.path.join(tmp, "file.tap")
    p = run([args.ravel, "run", "--seed", "1", "--tap", t, "--json", "--",
             ex("counter")], cwd=tmp)
    check(p.returncode == 1 and json.loads(p.stdout.decode())["bugs"] and
          open(t).read().startswith("TAP version 13\n1..1\nnot ok 1 - "),
          "--tap FILE with --json: the TAP in the file, JSON on stdout")


def part_pool(args, tmp):
    exe = os.path.join(args.exe_dir, "pool")
    p, s = ravel_run(args, exe, ["--keep-going", "--jobs", "1"], tmp)
    if not check(s is not None and len(s["bugs"]) >= 3,
                 "pool: three distinct findings or more (%s)"
                 % (s and [b["kind"] for b in s["bugs"]])):
        return
    err = p.stderr.decode("utf-8", "replace")
    # The run's closing lines: everything after the last report.
    tail = err[err.rindex("==================\n") + 19:]
    lines = tail.splitlines()
    check(len(lines) < 30, "pool: the closing summary is %d lines"
          % len(lines))
    table = tail[tail.index("distinct finding"):]
    for i, b in enumerate(s["bugs"]):
        check(re.search(r"^\s+%d\s+%s\s+\S*%s\s" % (i + 1, b["kind"],
                                                   re.escape(os.path.basename(
                                                       b["location"]))),
                        table, re.M) is not None and b["ticket"] in table,
              "pool: the table lists finding %d (%s)" % (i + 1, b["kind"]))
    check(all(b["location"] for b in s["bugs"]),
          "pool: every finding has a location")
    # A data race names its other access too: in the JSON, in its row
    # of the table and in its short report, unless both accesses are on
    # one line. The pool's first race pairs two lines (the queue's
    # producer and consumer); its second is one line (done++).
    races = [(i, b) for i, b in enumerate(s["bugs"])
             if b["kind"] == "data-race"]
    two = [(i, b) for i, b in races if b["other_location"]]
    check(len(races) >= 2 and len(two) >= 1 and len(two) < len(races) and
          all(b["other_function"] and b["other_location"] != b["location"]
              for _, b in two),
          "pool: a race on two lines names the other, one on one line "
          "does not (%s)"
          % [(b["location"], b["other_location"]) for _, b in races])
    for i, b in races:
        if b["other_location"]:
            pat = r"^\s+%d\s+data-race\s+\S*%s with \S*%s\s" % (
                i + 1, re.escape(os.path.basename(b["location"])),
                re.escape(os.path.basename(b["other_location"])))
        else:
            pat = r"^\s+%d\s+data-race\s+\S*%s\s+\d" % (
                i + 1, re.escape(os.path.basename(b["location"])))
        check(re.search(pat, table, re.M) is not None,
              "pool: finding %d's row names %s" %
              (i + 1, "both lines" if b["other_location"] else "its line"))
    # Later findings get short reports: each names its race's other line.
    brief = [r for r in err.split("==================\n")
             if "(the full report: --verbose" in r and "data race" in r]
    for r in brief:
        m = re.search(r"^\s+#0 \S+ (\S+:\d+)\n", r, re.M)
        o = [b["other_location"] for b in s["bugs"]
             if m and b["kind"] == "data-race" and b["location"] == m.group(1)]
        want = o[0] if o else None
        got = re.search(r"races with\n\s+#0 \S+ (\S+:\d+)\n", r)
        check(want is not None and
              (got.group(1) == want if want else got is None),
              "pool: a short race report at %s names %s" %
              (m and m.group(1), want or "no other line"))
    check(len(brief) >= 1, "pool: %d short race reports" % len(brief))
    # Later findings are summarised; --verbose gives every full report.
    check(err.count("Interleaving:") < len(s["bugs"]),
          "pool: later findings summarised (%d full reports)"
          % err.count("Interleaving:"))
    p2, s2 = ravel_run(args, exe, ["--keep-going", "--verbose"], tmp)
    err2 = p2.stderr.decode("utf-8", "replace")
    check(s2 and err2.count("Interleaving:") == len(s2["bugs"]),
          "pool --verbose: a full report per finding")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--ravel-cc", required=True)
    ap.add_argument("--exe-dir", required=True)
    ap.add_argument("--out", required=True,
                    help="where the screenshots are kept")
    ap.add_argument("part", choices=["dot", "html", "escape", "ci", "pool",
                                     "fold"])
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ravel-report-")
    try:
        {"dot": part_dot, "html": part_html, "escape": part_escape,
         "ci": part_ci, "pool": part_pool, "fold": part_fold}[a.part](a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%s: %d failure%s" % (a.part, failures, "" if failures == 1 else
                                 "s"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
