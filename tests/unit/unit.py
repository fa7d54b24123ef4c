#!/usr/bin/env python3
"""unit.py - end-to-end tests of concurrency unit tests (docs/tests.md).

Two test programs carry their expected results in their source (an
"expect:" line before each RAVEL_TEST): examples/tests/example_tests.c
(counter.c and deadlock.c rewritten as tests, a queue, fixtures,
ravel_choose, a test with its own budget, an expected failure) and
tests/unit/progs/edge_tests.c (the corners).

Groups (one ctest each):
  results       every test's result, kind and message as expected, run
                directly and through `ravel test` (the same results), the
                table, exit statuses 1 and 2, JSON, JUnit and TAP
  filter        --list, --filter (globs, the patterns' order, one test),
                RAVEL_OPTIONS filter=, a pattern matching nothing
  replay        each failing test's ticket names the test and replays
                that test alone, byte-identically, with its failure
  independence  every test gives the same result, executions and trace
                count in the whole run, alone, and in reverse order
  edges         bad arguments and unknown tests: one line, exit 2
  cli           ravel test on programs that are not test programs;
                ravel-cc builds a test program in one command (gcc, clang)
                and links the default main; the header compiles as C++
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

FAILED = []
KINDS = {"assertion", "crash", "deadlock", "lock-misuse", "step-limit",
         "nondeterminism", "exit-status", "hang", "data-race"}


def check(cond, what):
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        FAILED.append(what)
    return cond


def run(args, cwd, env=None, timeout=300):
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    if env:
        e.update(env)
    return subprocess.run(args, cwd=cwd, env=e, capture_output=True,
                          text=True, timeout=timeout)


def expectations(path):
    """{suite/name: (result, kind, message)} from the "expect:" lines."""
    out, pending = {}, None
    for line in open(path):
        m = re.search(r"expect: (.*?)\s*(\*/)?\s*$", line)
        if m:
            pending = m.group(1)
        m = re.match(r"RAVEL_TEST(?:_WITH)?\((\w+), (\w+)", line)
        if m:
            if pending is None:
                raise SystemExit("%s: no expect: line before %s/%s"
                                 % (path, m.group(1), m.group(2)))
            words = pending.split(" ", 1)
            result, rest = words[0], words[1] if len(words) > 1 else ""
            kind = ""
            if result == "pass":
                m2 = re.match(r"\(expected (\S+)\)", rest)
                kind = m2.group(1) if m2 else ""
                rest = ""
            elif result == "fail":
                first = rest.split(" ", 1)
                if first[0] in KINDS:
                    kind = first[0]
                    rest = first[1] if len(first) > 1 else ""
            out["%s/%s" % (m.group(1), m.group(2))] = (result, kind, rest)
            pending = None
    return out


def results(p):
    """The driver's JSON (stdout) as {name: test object}, in order."""
    try:
        js = json.loads(p.stdout)
    except ValueError:
        return None, []
    return {t["name"]: t for t in js["tests"]}, [t["name"] for t in js["tests"]]


def compare(got, exp, what, cwd):
    ok = check(got is not None and set(got) == set(exp),
               "%s: the expected tests ran (%s)" % (what, sorted(got or [])))
    if not ok:
        return
    for name, (result, kind, msg) in exp.items():
        t = got[name]
        good = t["result"] == result
        if result == "pass" and kind:
            good = good and t["expected_failure"] and t["kind"] == kind
        elif result == "pass":
            good = good and not t["expected_failure"]
        elif kind:
            good = good and t["kind"] == kind
        if msg:
            good = good and msg in t["message"]
        check(good, "%s: %s is %s %s %s (got %s %s: %s)"
              % (what, name, result, kind, msg, t["result"], t["kind"],
                 t["message"]))
        if result == "fail" and t["kind"]:
            check(t["ticket"] and os.path.exists(os.path.join(cwd,
                                                              t["ticket"])),
                  "%s: %s has a ticket" % (what, name))


def work():
    return tempfile.mkdtemp(prefix="ravel-unit-")


# ---- groups --------------------------------------------------------------


def group_results(a):
    src = os.path.join(a.src, "examples", "tests", "example_tests.c")
    exp = expectations(src)
    check(len(exp) >= 8, "example_tests.c has at least 8 tests (%d)" % len(exp))
    w = work()
    direct = run([a.examples, "--seed", "1", "--jobs", "1", "--json"], w)
    check(direct.returncode == 1, "direct run exits 1 (%d)" % direct.returncode)
    got, order = results(direct)
    compare(got, exp, "direct", w)
    err = direct.stderr
    check(err.count("[ RUN      ]") == len(exp), "one [ RUN ] line per test")
    check("ravel test: results (seed 1)" in err, "a result table")
    for name in exp:
        check(re.search(r"^  \S+\s+%s\s" % re.escape(name), err, re.M),
              "table row for %s" % name)
    n_fail = sum(1 for v in exp.values() if v[0] == "fail")
    n_pass = len(exp) - n_fail
    check("%d tests, %d passed" % (len(exp), n_pass) in err and
          "%d failed" % n_fail in err, "summary line counts")
    # Every test printed its own guarantee line (the child's summary).
    check(len(re.findall(r"^ravel: (no bugs found|\d+ bugs? found)$", err,
                         re.M)) == len(exp), "each test has its own summary")

    w2 = work()
    junit = os.path.join(w2, "out.xml")
    via = run([a.ravel, "test", "--seed", "1", "--jobs", "1", "--json",
               "--junit", junit, a.examples], w2)
    check(via.returncode == 1, "ravel test exits 1 (%d)" % via.returncode)
    got2, order2 = results(via)
    compare(got2, exp, "ravel test", w2)
    if got and got2:
        same = all((got[n]["result"], got[n]["kind"], got[n]["executions"],
                    got[n]["traces"]) ==
                   (got2[n]["result"], got2[n]["kind"], got2[n]["executions"],
                    got2[n]["traces"]) for n in exp)
        check(same and order == order2,
              "ravel test and the program run directly agree")
    try:
        root = ET.parse(junit).getroot()
        cases = root.findall(".//testcase")
        fails = [c.get("classname") + "/" + c.get("name") for c in cases
                 if c.find("failure") is not None]
        check(len(cases) == len(exp) and
              sorted(fails) == sorted(n for n, v in exp.items()
                                      if v[0] == "fail"),
              "JUnit: one testcase per test, failures as expected")
    except (OSError, ET.ParseError) as e:
        check(False, "JUnit file parses: %s" % e)

    p = run([a.examples, "--seed", "1", "--tap", "-"], w2)
    lines = [l for l in p.stdout.splitlines() if re.match(r"(not )?ok \d", l)]
    want = ["%s %d - %s" % ("ok" if v[0] == "pass" else "not ok", i + 1,
                            n.replace("/", "."))
            for i, (n, v) in enumerate(exp.items())]
    check(p.stdout.startswith("TAP version 13\n1..%d\n" % len(exp)) and
          lines == want, "TAP on stdout: a line per test")

    eexp = expectations(os.path.join(a.src, "tests", "unit", "progs",
                                      "edge_tests.c"))
    edge = run([a.edge, "--seed", "1", "--json"], w)
    check(edge.returncode == 2,
          "a test with a tool error makes the exit status 2 (%d)"
          % edge.returncode)
    egot, _ = results(edge)
    compare(egot, eexp, "edges", w)
    clean = run([a.examples, "--seed", "1", "--filter",
                 "counter/fetch_add,bank/*ordered*,queue/*"], w)
    check(clean.returncode == 0, "only passing tests: exit 0 (%d)"
          % clean.returncode)


def group_filter(a):
    w = work()
    exp = expectations(os.path.join(a.src, "examples", "tests",
                                    "example_tests.c"))
    p = run([a.examples, "--list"], w)
    check(p.returncode == 0 and p.stdout.split() == list(exp),
          "--list prints every test in source order")
    p = run([a.examples, "--list", "--filter", "bank/*"], w)
    check(p.stdout.split() == [n for n in exp if n.startswith("bank/")],
          "--list --filter bank/*")
    p = run([a.examples, "--seed", "2", "--json", "--filter",
             "queue/*,counter/lost_update,queue/two_producers"], w)
    got, order = results(p)
    check(order == ["queue/two_producers", "queue/chosen_count",
                    "counter/lost_update"],
          "tests run in the order of the patterns, each once (%s)" % order)
    check(p.returncode == 1, "the selection has a failing test: exit 1")
    p = run([a.examples, "--seed", "2", "--json"], w,
            env={"RAVEL_OPTIONS": "filter=bank/ordered_transfers"})
    got, order = results(p)
    check(order == ["bank/ordered_transfers"] and p.returncode == 0,
          "RAVEL_OPTIONS filter= selects too")
    p = run([a.examples, "--filter", "nosuch/*"], w)
    check(p.returncode == 2 and "no test matches 'nosuch/*'" in p.stderr
          and len(p.stderr.strip().splitlines()) == 1,
          "a pattern matching nothing: one line, exit 2")
    p = run([a.ravel, "test", "--filter", "counter/l?st_update", "--seed",
             "1", "--json", a.examples], w)
    got, order = results(p)
    check(order == ["counter/lost_update"] and p.returncode == 1,
          "ravel test --filter with ?")


def group_replay(a):
    w = work()
    exp = expectations(os.path.join(a.src, "examples", "tests",
                                    "example_tests.c"))
    p = run([a.examples, "--seed", "3", "--json"], w)
    got, _ = results(p)
    if not check(got is not None, "the run gives results"):
        return
    failing = [n for n, v in exp.items() if v[0] == "fail"]
    check(len(failing) >= 3, "at least three failing tests")
    bodies = {n: "ravel__test_body_%s__%s" % tuple(n.split("/")) for n in exp}
    for name in failing:
        t = got[name]
        ticket = t["ticket"]
        if not check(ticket and os.path.exists(os.path.join(w, ticket)),
                     "%s: ticket written" % name):
            continue
        text = open(os.path.join(w, ticket)).read()
        check(re.search(r'^argv "[^"]*" "--test" "%s"$' % re.escape(name),
                        text, re.M),
              "%s: the ticket runs that test alone" % name)
        check(name.replace("/", ".") in os.path.basename(ticket),
              "%s: the ticket's file name names the test" % name)
        r1 = run([a.ravel, "replay", ticket], w)
        r2 = run([a.ravel, "replay", ticket], w)
        check(r1.returncode == 1 and "BUG (%s)" % t["kind"] in r1.stderr,
              "%s: replay reproduces the %s" % (name, t["kind"]))
        # (a race report prints addresses, which ASLR moves)
        def strip(t):
            return re.sub(r"0x[0-9a-f]+", "0x", t)
        check(strip(r1.stderr) == strip(r2.stderr),
              "%s: replays are identical (but for addresses)" % name)
        others = [b for n, b in bodies.items() if n != name]
        check(bodies[name] in r1.stderr and
              not any(b in r1.stderr for b in others),
              "%s: the replay runs only that test's body" % name)
    p = run([a.examples, "--seed", "3", "--json"], w,
            env={"RAVEL_OPTIONS": "strategy=replay ticket=x"})
    check(p.returncode == 2, "the driver refuses strategy=replay")


def group_independence(a):
    """The same results, executions and trace counts whatever runs with
    a test and in which order (one lane: with several, which failing
    execution comes first may differ)."""
    w = work()
    exp = expectations(os.path.join(a.src, "examples", "tests",
                                    "example_tests.c"))
    base = ["--seed", "5", "--jobs", "1", "--json"]
    whole, order = results(run([a.examples] + base, w))
    if not check(whole is not None, "whole run"):
        return
    rev, rorder = results(run([a.examples] + base +
                              ["--filter", ",".join(reversed(order))], w))
    check(rorder == list(reversed(order)), "reverse order ran")

    def key(t):
        return (t["result"], t["kind"], t["executions"], t["traces"],
                t["complete"])
    for name in exp:
        alone, _ = results(run([a.examples] + base + ["--filter", name], w))
        check(alone and key(alone[name]) == key(whole[name]) ==
              key(rev[name]),
              "%s: same result, executions and traces alone, in the run "
              "and in reverse order %s" % (name, key(whole[name])))


def group_edges(a):
    w = work()
    cases = [
        ([a.examples, "--bogus"], "unknown option --bogus"),
        ([a.examples, "extra"], "unexpected argument 'extra'"),
        ([a.examples, "--executions"], "needs a value"),
        ([a.examples, "--executions", "x"], ""),
        ([a.examples, "--list", "--test", "a/b"], "must be the first"),
        ([a.examples, "--test", "nosuch/test"], "there is no test "
         "'nosuch/test'"),
        ([a.examples, "--test", "counter/lost_update", "--bogus"],
         "unknown option --bogus"),
    ]
    for args, text in cases:
        p = run(args, w)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and text in p.stderr,
              "%s: one line, exit 2 (%d: %s)" % (" ".join(args[1:]),
                                                 p.returncode, p.stderr.strip()))
    p = run([a.examples, "--help"], w)
    check(p.returncode == 0 and "--filter" in p.stdout, "--help")
    # One test run directly, as a ticket or ctest would.
    p = run([a.examples, "--test", "bank/ordered_transfers", "--seed", "1"], w)
    check(p.returncode == 0 and "no bugs found" in p.stderr,
          "--test runs one test as an ordinary ravel run")


def group_cli(a):
    w = work()
    p = run([a.ravel, "test", os.path.join(os.path.dirname(a.examples),
                                           "counter")], w)
    check(p.returncode == 2 and "has no RAVEL_TEST tests" in p.stderr,
          "ravel test on a program without tests: exit 2")
    p = run([a.ravel, "test"], w)
    check(p.returncode == 2 and "no program given" in p.stderr,
          "ravel test without a program: exit 2")
    p = run([a.ravel, "test", "/nonexistent/tests"], w)
    check(p.returncode == 2, "ravel test on a missing file: exit 2")
    p = run([a.ravel, "help", "test"], w)
    check(p.returncode == 0 and "RAVEL_TEST" in p.stdout, "ravel help test")
    src = os.path.join(a.src, "examples", "tests", "example_tests.c")
    for cc in ("gcc", "clang"):
        if not check(shutil.which(cc), "%s installed" % cc):
            continue
        exe = os.path.join(w, "t-" + cc)
        p = run([a.ravel_cc, "-O1", "-o", exe, src], w, env={"RAVEL_CC": cc})
        check(p.returncode == 0, "%s: ravel-cc builds a test program without "
              "main: %s" % (cc, p.stderr.strip()))
        if p.returncode == 0:
            p = run([exe, "--seed", "1", "--json", "--filter",
                     "counter/*"], w)
            got, _ = results(p)
            check(got and got["counter/lost_update"]["kind"] == "assertion"
                  and got["counter/fetch_add"]["result"] == "pass",
                  "%s: its tests run" % cc)
    # A program with its own main keeps it (the archive's is not linked).
    own = os.path.join(w, "own.c")
    with open(own, "w") as f:
        f.write('#include <ravel.h>\n#include <stdio.h>\n'
                'RAVEL_TEST(own, t) { ravel_assert(1); }\n'
                'int main(int argc, char **argv) {\n'
                '  fprintf(stderr, "own main\\n");\n'
                '  return ravel_test_main(argc, argv); }\n')
    exe = os.path.join(w, "own")
    p = run([a.ravel_cc, "-o", exe, own], w)
    check(p.returncode == 0, "a test program with its own main links")
    if p.returncode == 0:
        p = run([exe, "--seed", "1"], w)
        check(p.returncode == 0 and p.stderr.startswith("own main"),
              "its own main runs and calls ravel_test_main")
    # The header as C++ (RAVEL_TEST without designated options).
    if check(shutil.which("g++"), "g++ installed"):
        cpp = os.path.join(w, "t.cpp")
        with open(cpp, "w") as f:
            f.write('#include <ravel.h>\n#include <atomic>\n'
                    'static std::atomic<int> n;\n'
                    'RAVEL_TEST(cpp, atomics) { n += 2; '
                    'ravel_assert_eq(n.load(), 2); '
                    'ravel_assert_str_eq("a", "a"); }\n')
        p = run(["g++", "-std=c++11", "-Wall", "-Wextra", "-Werror",
                 "-fsyntax-only", "-I", os.path.join(a.src, "include"), cpp],
                w)
        check(p.returncode == 0, "ravel.h and RAVEL_TEST compile as C++: %s"
              % p.stderr.strip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--ravel-cc", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--examples", required=True)
    ap.add_argument("--edge", required=True)
    a = ap.parse_args()
    groups = {
        "results": group_results, "filter": group_filter,
        "replay": group_replay, "independence": group_independence,
        "edges": group_edges, "cli": group_cli,
    }
    if a.group not in groups:
        raise SystemExit("unknown group %s" % a.group)
    groups[a.group](a)
    if FAILED:
        print("%d check(s) failed" % len(FAILED))
        sys.exit(1)


if __name__ == "__main__":
    main()
