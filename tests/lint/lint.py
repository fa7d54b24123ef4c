#!/usr/bin/env python3
"""Tests of ravel lint, the static analyser, run as a user runs it.

Groups (one ctest test each; see tests/CMakeLists.txt):

    corpus    the annotated corpus in tests/lint/corpus, in Goblint's style:
              `// RACE` on the line of every access or act that must be
              reported, `// CHECK` on every check a report must name,
              `// NORACE` on lines that must not be reported. A case is a
              .c file (with an optional NAME.pairs beside it) or a
              directory of .c files analysed together (with an optional
              lint.pairs). Strict: a finding on a line that is not marked
              RACE fails too; `// RACE 'expr'` also requires the lockset
              finding to name expr. Prints the counts and the two figures
              (must-report lines found, must-not lines reported). Then runs
              tests/lint/gaps when it exists (none today: the last three
              moved to the corpus), programs annotated the same way that ravel
              lint gets wrong today: their figures are printed apart, and
              one that comes out right fails the test (move it over).
    examples  the holdout-style samples in examples/: the races reported
              statically, the fixed programs silent; also through a
              compilation database written the way CMake writes one for
              ravel_instrument() targets.
    badinput  a missing or malformed database, a file that does not
              compile, an unknown option, bad pairs: one line on stderr and
              exit status 2, nothing on stdout.
    sarif     --sarif writes SARIF 2.1.0 matching the text output.
    cli       `ravel lint` and `ravel help lint` reach ravel-lint; --help
              and --version; exit statuses 0 and 1.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILURES = []
DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): "
                  r"(?P<kind>warning|note): (?P<msg>.*?)(?: \[(?P<rule>[a-z-]+)\])?$")


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def run(cmd, cwd=None, timeout=300):
    env = dict(os.environ)
    env["NO_COLOR"] = "1"
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env=env, stdin=subprocess.DEVNULL)


def parse(stdout):
    """Findings: dicts with file, line, col, rule, msg and notes."""
    findings = []
    for raw in stdout.splitlines():
        m = DIAG.match(raw)
        if not m:
            continue
        d = {"file": os.path.basename(m.group("file")), "line": int(m.group("line")),
             "col": int(m.group("col")), "msg": m.group("msg")}
        if m.group("kind") == "warning":
            d["rule"] = m.group("rule")
            d["notes"] = []
            findings.append(d)
        elif findings:
            findings[-1]["notes"].append(d)
    return findings


def annotations(path, names=None):
    """Marks by (file, line); `// RACE 'expr'` also records in names the
    expression the lockset finding on that line must name."""
    marks = {}
    with open(path) as f:
        for no, line in enumerate(f, 1):
            m = re.search(r"//\s*(RACE|NORACE|CHECK)\b(?:\s+'([^']+)')?", line)
            if m:
                marks[(os.path.basename(path), no)] = m.group(1)
                if m.group(2) and names is not None:
                    names[(os.path.basename(path), no)] = m.group(2)
    return marks


# ---- corpus ---------------------------------------------------------------


def cases(corpus):
    out = []
    for name in sorted(os.listdir(corpus)):
        path = os.path.join(corpus, name)
        if os.path.isdir(path):
            files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.endswith(".c"))
            pairs = os.path.join(path, "lint.pairs")
            out.append((name, files, [path], pairs if os.path.exists(pairs) else None))
        elif name.endswith(".c"):
            pairs = path[:-2] + ".pairs"
            out.append((name[:-2], [path], [corpus], pairs if os.path.exists(pairs) else None))
    return out


def group_corpus(args):
    corpus = os.path.join(args.src, "tests", "lint", "corpus")
    totals, unexpected, passed, failed = run_corpus(args, corpus, check)
    print("lint corpus: %d RACE lines reported of %d, %d NORACE lines silent of %d, "
          "%d CHECK lines named of %d, %d unexpected findings"
          % (totals["RACE"][0], totals["RACE"][1], totals["NORACE"][0], totals["NORACE"][1],
             totals["CHECK"][0], totals["CHECK"][1], unexpected))
    # The two figures of issue 18, over the whole corpus.
    print("lint corpus figures: must-report lines found %.1f%% (%d/%d), "
          "must-not lines reported %.1f%% (%d/%d)"
          % (100.0 * totals["RACE"][0] / max(1, totals["RACE"][1]), totals["RACE"][0],
             totals["RACE"][1],
             100.0 * (totals["NORACE"][1] - totals["NORACE"][0]) / max(1, totals["NORACE"][1]),
             totals["NORACE"][1] - totals["NORACE"][0], totals["NORACE"][1]))
    print("%d passed, %d failed" % (passed, failed))
    check(passed + failed >= 9, "only %d corpus cases" % (passed + failed))
    # Known gaps (tests/lint/gaps): programs ravel lint gets wrong today,
    # annotated the same way. They do not fail the test, but each must
    # still be wrong somewhere: one that comes out right belongs in the
    # corpus.
    gaps = os.path.join(args.src, "tests", "lint", "gaps")
    if os.path.isdir(gaps):
        gaps_failed = []
        gt, gu, gp, gf = run_corpus(args, gaps, lambda cond, what: cond or
                                    gaps_failed.append(what) or False, quiet=True)
        print("lint known gaps: %d programs, must-report lines found %d/%d, must-not lines "
              "reported %d/%d (not counted above)"
              % (gp + gf, gt["RACE"][0], gt["RACE"][1], gt["NORACE"][1] - gt["NORACE"][0],
                 gt["NORACE"][1]))
        check(gp == 0, "%d known-gap program(s) now come out right: move them to the corpus"
              % gp)


def run_corpus(args, corpus, record, quiet=False):
    """Runs every case in a corpus directory; record(cond, what) records
    mismatches. Returns (totals, unexpected, passed, failed)."""
    totals = {"RACE": [0, 0], "NORACE": [0, 0], "CHECK": [0, 0]}
    unexpected = 0
    passed = failed = 0
    todo = cases(corpus)
    cmds = []
    for name, files, incs, pairs in todo:
        cmd = [args.lint, "--no-caret"]
        if pairs:
            cmd += ["--pairs", pairs]
        cmds.append(cmd + files + ["--"] + ["-I" + d for d in incs])
    # The cases are independent: run them a few at a time (each is mostly
    # a clang compile), then judge them in order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, min(8, os.cpu_count() or 2))) as ex:
        results = list(ex.map(run, cmds))
    for (name, files, incs, pairs), p in zip(todo, results):
        nfail = [0]

        def check(cond, what, nfail=nfail):
            if not cond:
                nfail[0] += 1
            return record(cond, what)
        marks = {}
        names = {}
        for f in files:
            marks.update(annotations(f, names))
        findings = parse(p.stdout)
        check(p.returncode in (0, 1), "%s: exit %d: %s" % (name, p.returncode, p.stderr.strip()))
        want_exit = 1 if any(v == "RACE" for v in marks.values()) else 0
        check(p.returncode == want_exit, "%s: exit %d, expected %d" % (name, p.returncode, want_exit))
        reported = {}
        checks_named = set()
        for fd in findings:
            key = (fd["file"], fd["line"])
            reported.setdefault(key, []).append(fd)
            if fd["rule"] == "ravel-check-then-act":
                for n in fd["notes"]:
                    if n["msg"].startswith("the check"):
                        checks_named.add((n["file"], n["line"]))
                        check(marks.get((n["file"], n["line"])) == "CHECK",
                              "%s: %s:%d names the check at line %d, which is not marked CHECK"
                              % (name, fd["file"], fd["line"], n["line"]))
            else:
                for n in fd["notes"]:
                    check(marks.get((n["file"], n["line"])) == "RACE",
                          "%s: %s:%d names the other access at line %d, which is not marked RACE"
                          % (name, fd["file"], fd["line"], n["line"]))
        for key, want in sorted(names.items()):
            got = [fd["msg"] for fd in reported.get(key, []) if fd["rule"] == "ravel-lockset"]
            check(any("'%s'" % want in m for m in got),
                  "%s: %s:%d should name '%s': %r" % (name, key[0], key[1], want, got))
        for key, kind in sorted(marks.items()):
            ok = (key in reported) == (kind == "RACE") if kind != "CHECK" else key in checks_named
            totals[kind][0] += ok
            totals[kind][1] += 1
            if kind == "RACE":
                check(ok, "%s: %s:%d is marked RACE but was not reported" % (name, key[0], key[1]))
            elif kind == "NORACE":
                check(ok, "%s: %s:%d is marked NORACE but was reported: %s"
                      % (name, key[0], key[1], reported.get(key, [{}])[0].get("msg")))
            else:
                check(ok, "%s: %s:%d is marked CHECK but no finding names it" % (name, key[0], key[1]))
        for key, fds in sorted(reported.items()):
            if key not in marks:
                unexpected += 1
                check(False, "%s: unexpected finding at %s:%d: %s" % (name, key[0], key[1], fds[0]["msg"]))
        if nfail[0] == 0:
            passed += 1
        else:
            failed += 1
            if not quiet:
                print(p.stdout)
    return totals, unexpected, passed, failed


# ---- examples ---------------------------------------------------------------

EXAMPLES = {
    # file: (rule, quoted act, quoted check) of the one expected finding, or None
    "registry.c": ("ravel-check-then-act", "registry_insert(name)", "registry_lookup(name)"),
    "registry_fixed.c": None,
    "spawn_register.c": ("ravel-check-then-act", 'register_name("flusher", &w)',
                         "pthread_create(&w.thread, NULL, flusher, &w)"),
    "spawn_register_fixed.c": None,
}


def check_example(name, p):
    exp = EXAMPLES[name]
    findings = [f for f in parse(p.stdout) if f["file"] == name]
    if exp is None:
        check(p.returncode == 0 and not findings,
              "%s: expected no findings, got exit %d: %s" % (name, p.returncode, p.stdout + p.stderr))
        return
    if not check(p.returncode == 1 and len(findings) == 1,
                 "%s: expected one finding, got exit %d: %s" % (name, p.returncode, p.stdout + p.stderr)):
        return
    f = findings[0]
    check(f["rule"] == exp[0], "%s: rule %s" % (name, f["rule"]))
    check(f["msg"].startswith(exp[1]) and exp[2] in f["msg"],
          "%s: message names %r and %r: %s" % (name, exp[1], exp[2], f["msg"]))


def group_examples(args):
    ex = os.path.join(args.src, "examples")
    for name in sorted(EXAMPLES):
        p = run([args.lint, "--no-caret", os.path.join(ex, name)])
        check_example(name, p)
    # The same through a database, with the flags ravel_instrument() adds
    # (sanitizer, debug info) and an output file, which must be dropped.
    work = tempfile.mkdtemp(prefix="ravel-lint-db-")
    try:
        entries = []
        for name in sorted(EXAMPLES):
            entries.append({"directory": work,
                            "command": "/usr/bin/cc -DX=1 -O2 -g -fsanitize=thread -Werror "
                                       "-o %s.o -c %s" % (name, os.path.join(ex, name)),
                            "file": os.path.join(ex, name)})
        with open(os.path.join(work, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        for name in sorted(EXAMPLES):
            p = run([args.lint, "--no-caret", "-p", work, os.path.join(ex, name)])
            check_example(name, p)
        # Paths relative to the build directory, with "..": the findings of
        # a file named on the command line are still found by its path.
        rel = os.path.join(work, "rel")
        os.makedirs(rel)
        with open(os.path.join(rel, "compile_commands.json"), "w") as f:
            json.dump([{"directory": rel,
                        "arguments": ["cc", "-c", os.path.relpath(os.path.join(ex, name), rel)],
                        "file": os.path.relpath(os.path.join(ex, name), rel)}
                       for name in sorted(EXAMPLES)], f)
        for name in sorted(EXAMPLES):
            check_example(name, run([args.lint, "--no-caret", "-p", rel, os.path.join(ex, name)]))
        p = run([args.lint, "--no-caret", "-p", work])
        n = len(parse(p.stdout))
        check(p.returncode == 1 and n == 2,
              "whole database: expected 2 findings, got %d (exit %d): %s" % (n, p.returncode, p.stderr))
        check(not any(f.endswith(".o") for f in os.listdir(work)),
              "the analysis wrote object files into the build directory")
    finally:
        shutil.rmtree(work)
    print("lint examples: %d checked" % len(EXAMPLES))


# ---- bad input ------------------------------------------------------------


def one_line_failure(what, p, needle):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    check(p.returncode == 2, "%s: exit %d, expected 2 (%s)" % (what, p.returncode, p.stderr.strip()))
    check(len(lines) >= 1 and lines[0].startswith("ravel lint: "),
          "%s: no 'ravel lint:' message: %r" % (what, p.stderr))
    check(needle in p.stderr, "%s: message lacks %r: %r" % (what, needle, p.stderr))
    check("Traceback" not in p.stderr and "AddressSanitizer" not in p.stderr
          and "runtime error" not in p.stderr, "%s: crashed: %s" % (what, p.stderr))
    return lines


def group_badinput(args):
    work = tempfile.mkdtemp(prefix="ravel-lint-bad-")
    try:
        def write(name, text):
            path = os.path.join(work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            return path
        good = write("good.c", "int f(void) { return 0; }\n")
        bad = write("bad.c", "int f(void) { return 0 }\n")
        cases = [
            ("missing database", ["-p", os.path.join(work, "nowhere")], "compile_commands.json"),
            ("malformed database", ["-p", write("m1/compile_commands.json", '[{"directory": "/", "file": ')],
             "line 1"),
            ("not an array", ["-p", write("m2/compile_commands.json", '{"a": 1}')], "not a JSON array"),
            ("entry without file", ["-p", write("m3/compile_commands.json",
                                                '[{"directory": "/", "command": "cc -c x.c"}]')],
             'no "file"'),
            ("unterminated quote", ["-p", write("m4/compile_commands.json",
                                                '[{"directory": "/", "file": "x.c", "command": "cc \'x.c"}]')],
             "unterminated quote"),
            ("file that does not compile", [bad], "does not compile"),
            ("unknown option", ["--frobnicate", good], "unknown option '--frobnicate'"),
            ("missing file", [os.path.join(work, "absent.c")], "absent.c"),
            ("no input", [], "no input"),
            ("bad jobs", ["-j", "0", good], "jobs"),
            ("bad checks", ["--checks", "nonsense", good], "unknown check"),
            ("bad pairs file", ["--pairs", write("bad.pairs", "pair a(1) b(1)\n"), good], "bad.pairs:1"),
            ("missing pairs file", ["--pairs", os.path.join(work, "none.pairs"), good], "none.pairs"),
            ("bad directive in a source", [write("ann.c", "// ravel-lint: pair f(0) -> g(1)\nint x;\n")],
             "ann.c:1"),
            ("file not in the database", ["-p", write("m5/compile_commands.json",
                                                      json.dumps([{"directory": work, "file": good,
                                                                   "arguments": ["cc", "-c", good]}])),
                                          bad], "not in the compilation database"),
            ("flags with a database", ["-p", os.path.join(work, "m5"), "--", "-DX"], "only without -p"),
        ]
        for what, argv, needle in cases:
            p = run([args.lint] + argv)
            lines = one_line_failure(what, p, needle)
            if what not in ("file that does not compile", "bad directive in a source"):
                check(len(lines) == 1, "%s: expected one line, got %r" % (what, p.stderr))
            check(p.stdout == "", "%s: wrote to stdout: %r" % (what, p.stdout))
        # A file that does not compile next to one that does: the error, the
        # other file's findings, exit 2.
        racy = write("racy.c", "#include <unistd.h>\n#include <fcntl.h>\n"
                     "void f(const char *p) { if (access(p, 0) == 0) unlink(p); }\n")
        p = run([args.lint, "--no-caret", bad, racy])
        check(p.returncode == 2, "mixed: exit %d" % p.returncode)
        check(len(parse(p.stdout)) == 1, "mixed: the good file's finding is missing: %r" % p.stdout)
        check("bad.c" in p.stderr and "error:" in p.stderr, "mixed: no compiler error quoted: %r" % p.stderr)
        # Fuzz-ish: random bytes as a database.
        junk = os.path.join(work, "m6")
        os.makedirs(junk)
        with open(os.path.join(junk, "compile_commands.json"), "wb") as f:
            f.write(bytes(range(256)) * 4)
        one_line_failure("binary database", run([args.lint, "-p", junk]), "compile_commands.json")
    finally:
        shutil.rmtree(work)
    print("lint badinput: done")


# ---- SARIF ------------------------------------------------------------------


def group_sarif(args):
    work = tempfile.mkdtemp(prefix="ravel-lint-sarif-")
    try:
        corpus = os.path.join(args.src, "tests", "lint", "corpus")
        out = os.path.join(work, "out.sarif")
        files = [os.path.join(corpus, "fs_pairs.c"), os.path.join(corpus, "create_join.c")]
        p = run([args.lint, "--no-caret", "--sarif", out] + files)
        check(p.returncode == 1, "sarif: exit %d: %s" % (p.returncode, p.stderr))
        text_findings = parse(p.stdout)
        with open(out) as f:
            log = json.load(f)
        check(log.get("version") == "2.1.0", "sarif: version %r" % log.get("version"))
        check("sarif-2.1.0" in log.get("$schema", ""), "sarif: $schema %r" % log.get("$schema"))
        run0 = log["runs"][0]
        driver = run0["tool"]["driver"]
        check(driver["name"] == "ravel-lint", "sarif: driver name")
        rule_ids = [r["id"] for r in driver["rules"]]
        check(rule_ids == ["ravel-check-then-act", "ravel-lockset"], "sarif: rules %r" % rule_ids)
        for r in driver["rules"]:
            check(r["shortDescription"]["text"] and r["fullDescription"]["text"], "sarif: rule text")
        results = run0["results"]
        check(len(results) == len(text_findings),
              "sarif: %d results, %d findings in the text" % (len(results), len(text_findings)))
        for res, tf in zip(results, text_findings):
            check(res["ruleId"] == tf["rule"] and rule_ids[res["ruleIndex"]] == res["ruleId"],
                  "sarif: rule of %r" % res)
            check(res["level"] == "warning", "sarif: level")
            check(res["message"]["text"] == tf["msg"], "sarif: message %r vs %r" % (res["message"]["text"], tf["msg"]))
            loc = res["locations"][0]["physicalLocation"]
            check(loc["artifactLocation"]["uri"].startswith("file:///")
                  and loc["artifactLocation"]["uri"].endswith(tf["file"]), "sarif: uri %r" % loc)
            check(loc["region"]["startLine"] == tf["line"] and loc["region"]["startColumn"] == tf["col"],
                  "sarif: region %r vs %d:%d" % (loc["region"], tf["line"], tf["col"]))
            check(len(res.get("relatedLocations", [])) == len(tf["notes"]), "sarif: related locations")
            check(res["partialFingerprints"]["ravelFinding/v1"], "sarif: fingerprint")
        # No findings: an empty results array, exit 0.
        clean = os.path.join(work, "clean.c")
        with open(clean, "w") as f:
            f.write("int f(int x) { return x + 1; }\n")
        out2 = os.path.join(work, "clean.sarif")
        p = run([args.lint, "--sarif", out2, clean])
        check(p.returncode == 0 and p.stdout == "", "sarif clean: exit %d %r" % (p.returncode, p.stdout))
        with open(out2) as f:
            check(json.load(f)["runs"][0]["results"] == [], "sarif clean: results not empty")
    finally:
        shutil.rmtree(work)
    print("lint sarif: %d results checked" % len(text_findings))


# ---- command line -------------------------------------------------------------


def group_cli(args):
    p = run([args.ravel, "lint", "--version"])
    check(p.returncode == 0 and p.stdout.startswith("ravel lint ") and "LLVM 14" in p.stdout,
          "ravel lint --version: %r" % (p.stdout + p.stderr))
    p = run([args.ravel, "help", "lint"])
    check(p.returncode == 0, "ravel help lint: exit %d" % p.returncode)
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "OUTPUT", "EXIT STATUS",
                    "ENVIRONMENT", "EXAMPLES", "ravel-check-then-act", "ravel-lockset", "--sarif",
                    "-p PATH"):
        check(section in p.stdout, "ravel help lint: no %r" % section)
    p2 = run([args.lint, "--help"])
    check(p2.stdout == p.stdout, "ravel-lint --help differs from ravel help lint")
    p = run([args.ravel, "help"])
    check("ravel lint" in p.stdout and "lint " in p.stdout, "ravel help does not list lint")
    ex = os.path.join(args.src, "examples")
    p = run([args.ravel, "lint", "--no-caret", os.path.join(ex, "registry.c")])
    check(p.returncode == 1 and len(parse(p.stdout)) == 1, "ravel lint registry.c: exit %d" % p.returncode)
    check("1 finding" in p.stderr, "no summary on stderr: %r" % p.stderr)
    p = run([args.ravel, "lint", os.path.join(ex, "registry_fixed.c")])
    check(p.returncode == 0 and p.stdout == "" and p.stderr == "",
          "ravel lint registry_fixed.c: exit %d %r %r" % (p.returncode, p.stdout, p.stderr))
    # The caret line quotes the source under the column.
    p = run([args.lint, os.path.join(ex, "registry.c")])
    lines = p.stdout.splitlines()
    check(len(lines) >= 3 and "registry_insert(name);" in lines[1] and lines[2].strip() == "^",
          "caret output: %r" % lines[:3])
    # --checks selects the analyses.
    corpus = os.path.join(args.src, "tests", "lint", "corpus", "create_join.c")
    p = run([args.lint, "--checks", "check-then-act", corpus])
    check(p.returncode == 0 and p.stdout == "", "--checks check-then-act still ran lockset")
    p = run([args.lint, "--checks=lockset", "--no-caret", corpus])
    check(p.returncode == 1 and all(f["rule"] == "ravel-lockset" for f in parse(p.stdout)),
          "--checks=lockset")
    # Colour on request only.
    p = run([args.lint, "--color", "always", os.path.join(ex, "registry.c")])
    check("\033[1;35mwarning: " in p.stdout, "--color always: no colour")
    p = run([args.lint, "--no-builtin-pairs", os.path.join(args.src, "tests", "lint", "corpus",
                                                            "fs_pairs.c")])
    check(p.returncode == 0, "--no-builtin-pairs still reports file-system pairs")
    print("lint cli: done")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=["corpus", "examples", "badinput", "sarif", "cli"])
    ap.add_argument("--lint", required=True)
    ap.add_argument("--ravel")
    ap.add_argument("--src", required=True)
    args = ap.parse_args()
    args.src = os.path.abspath(args.src)
    globals()["group_" + args.group](args)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)


if __name__ == "__main__":
    main()
