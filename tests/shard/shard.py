#!/usr/bin/env python3
"""Split searches: --shard auto, ravel merge (docs/scale-out.md).

auto      --shard auto/slurm/k8s/parallel read the shard from the batch
          system's variables (Slurm arrays counted from
          SLURM_ARRAY_TASK_MIN in steps, JOB_COMPLETION_INDEX from 0,
          PARALLEL_SEQ from 1) and the summary shows it; a missing,
          malformed, ambiguous or out-of-range setting is one line and
          exit 2, before anything runs
merge     shards of lastzero(10) and readers(8) merged by ravel merge:
          the same trace count and trace_digest as one unsharded run,
          exhausted; a missing shard, a corrupted summary, a truncated
          fingerprints file, a shard given twice and shards of different
          programs or arguments: one line, exit 2, no claim of
          completeness; a shard stopped by its budget makes the merged
          run "not exhausted", naming it; --html writes the merged page
          (a clean search: "no bugs found" and the guarantee; shards of
          a lost update: one row per distinct finding, naming the first
          shard's execution and ticket)
recipes   the recipes of examples/scale-out run as written: the Slurm
          batch script under bash with the variables a 4-task array
          (--array=2-8:2) sets, the Kubernetes manifest's command with
          JOB_COMPLETION_INDEX 0..N-1 (its completions and
          RAVEL_SHARD_COUNT agree), and parallel.sh; each merged equals
          the unsharded run
checkpoint  a search of lastzero(11) with --checkpoint is killed with
          SIGTERM at five random moments and resumed each time (once
          more, twice in a row; once a shard): every resumed search ends
          exhausted with the uninterrupted run's trace count and
          trace_digest; --time writes the checkpoint too; resuming a
          checkpoint of other arguments, of another shard, or a cut or
          garbled file is one line and exit 2
parallel  GNU parallel runs 4 shards with --shard auto/4 (PARALLEL_SEQ);
          merged, they equal the unsharded run (skipped, exit 77, when
          parallel is not installed: scripts/install-deps installs it)

usage: shard.py GROUP --ravel BIN --bench DIR [--examples DIR]
"""
import argparse
import html
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, flush=True)
    return cond


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLURM_", "RAVEL_")) and k not in ("JOB_COMPLETION_INDEX", "PARALLEL_SEQ")}
    env.update(extra)
    return env


def run(args, *opts, prog, prog_args=(), env=None, cwd=None):
    return subprocess.run([args.ravel, "run"] + list(opts) + ["--", prog] + list(prog_args),
                          capture_output=True, text=True, timeout=900, env=env or clean_env(), cwd=cwd)


def merge(args, *files, cwd=None):
    return subprocess.run([args.ravel, "merge", "--json"] + list(files), capture_output=True, text=True,
                          timeout=300, env=clean_env(), cwd=cwd)


def esc(text):
    """text as the HTML report writes it (src/report/ci.c)."""
    return html.escape(text, quote=True).replace("&#x27;", "&#39;")


def one_line_exit2(p, what, needle):
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2, "%s: exit %d, expected 2 (%s)" % (what, p.returncode, p.stderr[-300:]))
    check(len(lines) == 1, "%s: %d lines, expected one: %r" % (what, len(lines), p.stderr[-300:]))
    check(needle in p.stderr, "%s: %r does not say %r" % (what, p.stderr[-300:], needle))
    check("exhausted" not in p.stderr and not p.stdout.strip(),
          "%s: claims something: %r %r" % (what, p.stdout[-200:], p.stderr[-200:]))


def group_auto(args):
    prog = os.path.join(args.bench, "lastzero")
    slurm = dict(SLURM_ARRAY_TASK_ID="7", SLURM_ARRAY_TASK_MIN="3", SLURM_ARRAY_TASK_MAX="9",
                 SLURM_ARRAY_TASK_STEP="2", SLURM_ARRAY_TASK_COUNT="4")
    good = [("auto", slurm, (3, 4)),
            ("slurm/4", slurm, (3, 4)),
            ("auto", dict(JOB_COMPLETION_INDEX="0", RAVEL_SHARD_COUNT="3"), (1, 3)),
            ("k8s/5", dict(JOB_COMPLETION_INDEX="4"), (5, 5)),
            ("auto/2", dict(PARALLEL_SEQ="2"), (2, 2)),
            ("parallel", dict(PARALLEL_SEQ="1", RAVEL_SHARD_COUNT="8"), (1, 8)),
            ("3/7", {}, (3, 7))]
    for spec, env, (i, n) in good:
        p = run(args, "--strategy", "dpor", "--executions", "0", "--json", "--shard", spec, prog=prog,
                prog_args=["3"], env=clean_env(**env))
        try:
            s = json.loads(p.stdout)
        except ValueError:
            s = None
        if check(p.returncode == 0 and s, "--shard %s %s: %s" % (spec, env, p.stderr[-300:])):
            check(s["shard"] == {"index": i, "count": n},
                  "--shard %s %s: summary says %r, expected %d/%d" % (spec, env, s["shard"], i, n))
            check(("shard %d/%d" % (i, n)) in s["guarantee"] or n == 1, "guarantee %r" % s["guarantee"])
    bad = [("auto", {}, "none of SLURM_ARRAY_TASK_ID"),
           ("auto", dict(PARALLEL_SEQ="1", JOB_COMPLETION_INDEX="0"), "both set"),
           ("auto", dict(PARALLEL_SEQ="1"), "RAVEL_SHARD_COUNT"),
           ("parallel/4", dict(PARALLEL_SEQ="5"), "task index 4"),
           ("parallel/4", dict(PARALLEL_SEQ="1x"), "is not a number"),
           ("parallel/4", dict(PARALLEL_SEQ="0"), "counts jobs from 1"),
           ("k8s", dict(JOB_COMPLETION_INDEX="2", RAVEL_SHARD_COUNT="-1"), "is not a number"),
           ("slurm", dict(slurm, SLURM_ARRAY_TASK_ID="8"), "not in the array"),
           ("slurm", dict(slurm, SLURM_ARRAY_TASK_COUNT="9"), "not one range"),
           ("slurm/5", slurm, "has 4 tasks"),
           ("slurm", dict(SLURM_ARRAY_TASK_ID="1"), "_MIN"),
           ("k8s", {}, "JOB_COMPLETION_INDEX is not set"),
           ("5/4", {}, "1 <= I <= N"),
           ("0/4", {}, "1 <= I <= N"),
           ("auto/0", {}, "1 <= N"),
           ("sideways", {}, "--shard must be")]
    for spec, env, needle in bad:
        p = run(args, "--strategy", "dpor", "--shard", spec, prog=prog, prog_args=["3"], env=clean_env(**env))
        one_line_exit2(p, "--shard %s %s" % (spec, env), needle)
    # Run directly, the program reads the same variables.
    p = subprocess.run([prog, "3"], capture_output=True, text=True, timeout=60,
                       env=clean_env(RAVEL_OPTIONS="strategy=dpor shard=auto", PARALLEL_SEQ="9"))
    check(p.returncode == 2 and "RAVEL_SHARD_COUNT" in p.stderr,
          "direct run, shard=auto without a count: exit %d %r" % (p.returncode, p.stderr[-300:]))


def shards_of(args, d, prog, pargs, n, tag, *opts):
    files = []
    for i in range(1, n + 1):
        out = os.path.join(d, "%s.%d.json" % (tag, i))
        p = run(args, "--strategy", "dpor", "--executions", "0", "--jobs", "1", "--json", "--shard",
                "%d/%d" % (i, n), "--fingerprints-file", "%s.%d.fp" % (tag, i), *opts, prog=prog, prog_args=pargs,
                cwd=d)
        check(p.returncode == 0, "%s shard %d/%d: %s" % (tag, i, n, p.stderr[-300:]))
        open(out, "w").write(p.stdout)
        files.append(out)
    return files


def whole_run(args, d, prog, pargs):
    p = run(args, "--strategy", "dpor", "--executions", "0", "--jobs", "1", "--json", "--fingerprints-file",
            "whole.fp", prog=prog, prog_args=pargs, cwd=d)
    s = json.loads(p.stdout)
    check(p.returncode == 0 and s["complete"], "unsharded run: %s" % p.stderr[-300:])
    return s


def group_merge(args):
    merge_html(args)
    for name, pargs, n in (("lastzero", ["10"], 4), ("readers", ["8"], 3)):
        prog = os.path.join(args.bench, name)
        with tempfile.TemporaryDirectory() as d:
            whole = whole_run(args, d, prog, pargs)
            files = shards_of(args, d, prog, pargs, n, "s")
            p = merge(args, *files, cwd=d)
            try:
                m = json.loads(p.stdout)
            except ValueError:
                m = None
            if not check(p.returncode == 0 and m, "%s merge: %s" % (name, p.stderr[-400:])):
                continue
            print("%s: unsharded %d traces %s; %d shards merged %d traces %s (%d explored twice)" % (
                name, whole["traces"], whole["trace_digest"], n, m["traces"], m["trace_digest"],
                m["traces_explored_twice"]))
            check(m["traces"] == whole["traces"] and m["trace_digest"] == whole["trace_digest"],
                  "%s: merged %d %s, unsharded %d %s" % (name, m["traces"], m["trace_digest"], whole["traces"],
                                                         whole["trace_digest"]))
            check(m["complete"] and m["guarantee"].startswith("exhausted: all %d traces" % whole["traces"]),
                  "%s: guarantee %r" % (name, m["guarantee"]))
            if name != "lastzero":
                continue
            # Bad inputs: one line, exit 2, nothing claimed.
            one_line_exit2(merge(args, *files[:2], files[3], cwd=d), "missing shard", "shard 3 of 4 missing")
            text = open(files[2]).read()
            open(os.path.join(d, "cut.json"), "w").write(text[:len(text) // 2])
            one_line_exit2(merge(args, files[0], files[1], "cut.json", files[3], cwd=d), "corrupted summary",
                           "cut.json: not a shard's summary")
            open(os.path.join(d, "empty.json"), "w").write("")
            one_line_exit2(merge(args, files[0], files[1], "empty.json", files[3], cwd=d), "empty summary",
                           "not JSON")
            fp = os.path.join(d, "s.2.fp")
            lines = open(fp).read().splitlines(True)
            open(fp, "w").write("".join(lines[:-1]))
            one_line_exit2(merge(args, *files, cwd=d), "truncated fingerprints", "does not match")
            open(fp, "w").write("".join(lines[:-1]) + "zz\n")
            one_line_exit2(merge(args, *files, cwd=d), "corrupted fingerprints", "not a fingerprints file")
            open(fp, "w").write("".join(lines))
            one_line_exit2(merge(args, files[0], files[1], files[2], files[1], cwd=d), "shard given twice",
                           "given twice")
            other = shards_of(args, d, prog, ["9"], 4, "o")
            one_line_exit2(merge(args, files[0], files[1], other[2], files[3], cwd=d), "other arguments",
                           '"arguments":["10"] vs "arguments":["9"]')
            other = shards_of(args, d, os.path.join(args.bench, "readers"), ["3"], 4, "r")
            one_line_exit2(merge(args, files[0], files[1], other[2], files[3], cwd=d), "other program",
                           "different searches")
            other = shards_of(args, d, prog, pargs, 3, "t")
            one_line_exit2(merge(args, files[0], files[1], other[2], cwd=d), "other split", "not one split")
            plain = os.path.join(d, "plain.json")
            p = run(args, "--strategy", "dpor", "--executions", "0", "--json", prog=prog, prog_args=pargs, cwd=d)
            open(plain, "w").write(p.stdout)
            one_line_exit2(merge(args, plain, cwd=d), "unsharded summary", "without --shard")
            # The merged HTML report of a clean search.
            p = merge(args, "--html", "clean.html", *files, cwd=d)
            page = open(os.path.join(d, "clean.html")).read() if p.returncode == 0 else ""
            check('id="verdict">no bugs found' in page and esc(json.loads(p.stdout)["guarantee"]) in page,
                  "merge --html of a clean search: %s" % p.stderr[-300:])
            p = merge(args, "--html", os.path.join(d, "no", "such", "dir.html"), *files, cwd=d)
            check(p.returncode == 2 and "cannot write" in p.stderr, "merge --html to a missing directory: exit %d %r" %
                  (p.returncode, p.stderr[-300:]))
            # A shard stopped by its budget: merged, but not exhausted.
            short = shards_of(args, d, prog, pargs, 4, "b", "--executions", "5")
            p = merge(args, files[0], short[1], files[2], files[3], cwd=d)
            m = json.loads(p.stdout) if p.returncode == 0 else None
            if check(m, "budget-stopped shard: %s" % p.stderr[-300:]):
                check(not m["complete"] and m["guarantee"].startswith("not exhausted") and
                      "shard 2/4 did not exhaust its part" in m["guarantee"],
                      "budget-stopped shard: guarantee %r" % m["guarantee"])


LOST_UPDATE = r'''
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
static atomic_int n;
static void *add(void *arg)
{
    (void)arg;
    int v = atomic_load(&n);
    atomic_store(&n, v + 1);
    return 0;
}
int main(void)
{
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, add, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(atomic_load(&n) == 3);
    return 0;
}
'''


def merge_html(args):
    """ravel merge --html of shards that found a bug: one row per distinct
    finding (the shards' findings deduplicated), the first shard's
    execution and ticket, the merged guarantee."""
    cc = os.path.join(os.path.dirname(args.ravel), "ravel-cc")
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "lost.c"), "w").write(LOST_UPDATE)
        p = subprocess.run([cc, "-o", "lost", "lost.c"], capture_output=True, text=True, cwd=d, timeout=300)
        if not check(p.returncode == 0, "ravel-cc lost.c: %s" % p.stderr[-300:]):
            return
        files = []
        for i in range(1, 4):
            p = run(args, "--strategy", "dpor", "--executions", "0", "--keep-going", "--json", "--shard",
                    "%d/3" % i, "--fingerprints-file", "l.%d.fp" % i, prog=os.path.join(d, "lost"), cwd=d)
            check(p.returncode in (0, 1), "lost shard %d/3: exit %d %s" % (i, p.returncode, p.stderr[-300:]))
            open(os.path.join(d, "l.%d.json" % i), "w").write(p.stdout)
            files.append("l.%d.json" % i)
        found = sum(len(json.load(open(os.path.join(d, f)))["bugs"]) for f in files)
        p = merge(args, "--html", "m.html", *files, cwd=d)
        m = json.loads(p.stdout) if p.stdout.strip() else None
        if not check(p.returncode == 1 and m and m["bugs"] and found >= len(m["bugs"]),
                     "merge of shards that found the lost update: exit %d %s" % (p.returncode, p.stderr[-300:])):
            return
        page = open(os.path.join(d, "m.html")).read()
        rows = page.count('class="finding-row"')
        print("lost update, 3 shards: %d findings in the shards, %d merged, %d rows in the merged page" % (
            found, len(m["bugs"]), rows))
        check(rows == len(m["bugs"]), "merged page: %d rows for %d findings" % (rows, len(m["bugs"])))
        b = m["bugs"][0]
        first = json.load(open(os.path.join(d, "l.%d.json" % b["shards"][0])))
        execution = [x for x in first["bugs"] if x["location"] == b["location"]][0]["execution"]
        check("shard %d, execution %d" % (b["shards"][0], execution) in page and esc(b["ticket"]) in page,
              "merged page does not name shard %d, execution %d and ticket %s" % (b["shards"][0], execution,
                                                                                 b["ticket"]))
        check(esc(m["guarantee"]) in page and 'id="verdict">%d finding' % len(m["bugs"]) in page,
              "merged page lacks the guarantee %r or the verdict" % m["guarantee"])


def group_parallel(args):
    if not shutil.which("parallel"):
        print("GNU parallel is not installed (scripts/install-deps installs it): skipped")
        sys.exit(77)
    prog = os.path.join(args.bench, "lastzero")
    with tempfile.TemporaryDirectory() as d:
        whole = whole_run(args, d, prog, ["10"])
        env = clean_env()
        p = subprocess.run(["parallel", "--will-cite", "-j", "2", args.ravel, "run", "--shard", "auto/4",
                            "--strategy", "dpor", "--executions", "0", "--jobs", "1", "--json",
                            "--fingerprints-file", "fp.{}", "--", prog, "10", ">", "s.{}.json",
                            ":::", "1", "2", "3", "4"],
                           capture_output=True, text=True, timeout=600, env=env, cwd=d)
        check(p.returncode == 0, "parallel: %s" % p.stderr[-400:])
        files = ["s.%d.json" % i for i in range(1, 5)]
        seen = sorted(json.load(open(os.path.join(d, f)))["shard"]["index"] for f in files)
        check(seen == [1, 2, 3, 4], "parallel's jobs ran shards %r" % seen)
        p = merge(args, *files, cwd=d)
        m = json.loads(p.stdout) if p.returncode == 0 else None
        if check(m, "merge: %s" % p.stderr[-300:]):
            print("parallel, 4 shards of lastzero(10): %d traces %s; unsharded %d %s" % (
                m["traces"], m["trace_digest"], whole["traces"], whole["trace_digest"]))
            check(m["traces"] == whole["traces"] and m["trace_digest"] == whole["trace_digest"] and m["complete"],
                  "parallel: merged %r, unsharded %r" % (m, whole))


def group_recipes(args):
    prog = os.path.join(args.bench, "lastzero")
    ravel_dir = os.path.dirname(args.ravel)
    with tempfile.TemporaryDirectory() as d:
        whole = whole_run(args, d, prog, ["8"])

        def merged(what, sub, prefix):
            files = sorted(os.path.join(sub, f) for f in os.listdir(os.path.join(d, sub))
                           if f.startswith(prefix) and f.endswith(".json"))
            p = merge(args, *files, cwd=d)
            m = json.loads(p.stdout) if p.returncode == 0 else None
            if check(m, "%s: merge: %s" % (what, p.stderr[-300:])):
                print("%s: %d shards merged: %d traces %s; unsharded %d %s" % (
                    what, len(files), m["traces"], m["trace_digest"], whole["traces"], whole["trace_digest"]))
                check(m["complete"] and m["traces"] == whole["traces"] and
                      m["trace_digest"] == whole["trace_digest"], "%s: merged %r" % (what, m))

        script = os.path.join(args.examples, "scale-out", "slurm-array.sbatch")
        for task in (2, 4, 6, 8):
            env = clean_env(SLURM_ARRAY_TASK_ID=str(task), SLURM_ARRAY_TASK_MIN="2", SLURM_ARRAY_TASK_MAX="8",
                            SLURM_ARRAY_TASK_STEP="2", SLURM_ARRAY_TASK_COUNT="4", PROGRAM=prog, ARGS="8",
                            OUT=os.path.join(d, "slurm"), RAVEL=args.ravel)
            p = subprocess.run(["bash", script], capture_output=True, text=True, timeout=300, env=env, cwd=d)
            check(p.returncode == 0, "slurm task %d: %s" % (task, p.stderr[-300:]))
        merged("slurm-array.sbatch", "slurm", "summary.")
        try:
            import yaml
        except ImportError:
            yaml = None
        if yaml:
            job = yaml.safe_load(open(os.path.join(args.examples, "scale-out", "k8s-indexed-job.yaml")))
            spec = job["spec"]
            check(spec["completionMode"] == "Indexed", "k8s: not an Indexed Job")
            c = spec["template"]["spec"]["containers"][0]
            env = {e["name"]: e["value"] for e in c["env"]}
            check(env.get("RAVEL_SHARD_COUNT") == str(spec["completions"]),
                  "k8s: RAVEL_SHARD_COUNT %r, completions %r" % (env.get("RAVEL_SHARD_COUNT"), spec["completions"]))
            os.mkdir(os.path.join(d, "k8s"))
            cmd = c["command"][-1].replace("/results/", d + "/k8s/").replace("/app/lastzero 15", prog + " 8")
            for i in range(spec["completions"]):
                e = clean_env(JOB_COMPLETION_INDEX=str(i), PATH=ravel_dir + ":" + os.environ["PATH"], **env)
                p = subprocess.run(c["command"][:-1] + [cmd], capture_output=True, text=True, timeout=300, env=e,
                                   cwd=d)
                check(p.returncode == 0, "k8s pod %d: %s" % (i, p.stderr[-300:]))
            merged("k8s-indexed-job.yaml", "k8s", "summary.")
        else:
            print("no PyYAML: the Kubernetes manifest was not run")
        if shutil.which("parallel"):
            p = subprocess.run([os.path.join(args.examples, "scale-out", "parallel.sh"), "3", prog, "8"],
                               capture_output=True, text=True, timeout=300,
                               env=clean_env(RAVEL=args.ravel, OUT="par"), cwd=d)
            check(p.returncode == 0 and "exhausted: all %d traces" % whole["traces"] in p.stderr,
                  "parallel.sh: %s" % p.stderr[-400:])


def summary(p):
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def killed_and_resumed(args, d, prog, pargs, delay, extra=(), kills=1):
    """Runs with --checkpoint, SIGTERMs it after `delay` seconds (`kills`
    times, resuming in between), then resumes to the end."""
    ck = os.path.join(d, "ck")
    if os.path.exists(ck):
        os.unlink(ck)
    base = [args.ravel, "run", "--strategy", "dpor", "--executions", "0", "--json", "--checkpoint", ck] + list(extra)
    interrupted = 0
    for k in range(kills):
        cmd = base + (["--resume", ck] if os.path.exists(ck) else []) + ["--", prog] + pargs
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env())
        time.sleep(delay)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=120)
        if p.returncode == -signal.SIGTERM and not out and not err and not os.path.exists(ck):
            # Killed before ravel had set up its handlers (a slow start:
            # the sanitizer build at 0.1 s): the signal's native meaning,
            # no checkpoint yet. Too early to test anything; the caller
            # tries a later moment.
            return None, subprocess.CompletedProcess(cmd, p.returncode, out, err), -1
        s = summary(subprocess.CompletedProcess(cmd, p.returncode, out, err))
        check(p.returncode in (0, 130) and s and os.path.exists(ck),
              "killed after %.2fs: exit %d %r" % (delay, p.returncode, err[-300:]))
        if s and p.returncode == 130 and not s["complete"]:
            # (a kill after the search was over but before the process
            # was: rightly complete, and not a kill mid-run)
            interrupted += 1
            check(s["interrupted"] and "exhausted" not in s["guarantee"],
                  "killed run claims %r" % s["guarantee"])
    p = subprocess.run(base + ["--resume", ck, "--", prog] + pargs, capture_output=True, text=True,
                       timeout=600, env=clean_env())
    return summary(p), p, interrupted


def group_checkpoint(args):
    prog = os.path.join(args.bench, "lastzero")
    rng = random.Random(os.environ.get("RAVEL_TEST_SEED", str(time.time())))
    with tempfile.TemporaryDirectory() as d:
        p = run(args, "--strategy", "dpor", "--executions", "0", "--json", "--fingerprints-file", "w.fp", prog=prog,
                prog_args=["11"], cwd=d)
        whole = summary(p)
        if not check(whole and whole["complete"], "uninterrupted: %s" % p.stderr[-300:]):
            return
        t0 = time.time()
        run(args, "--strategy", "dpor", "--executions", "0", "--checkpoint", "ck0", prog=prog, prog_args=["11"], cwd=d)
        took = time.time() - t0
        cases = [((), 1)] * 3 + [((), 2), (("--shard", "2/3"), 1)]
        for extra, kills in cases:
            # A random moment of the run; if the run was over by then
            # (a busy machine is slower to start than to finish), earlier.
            delay = rng.uniform(0.05, max(0.1, took * 0.6))
            for attempt in range(8):
                s, p, interrupted = killed_and_resumed(args, d, prog, ["11"], delay, extra, kills)
                if interrupted == kills:
                    break
                # Killed before the run started: later; after it ended:
                # earlier.
                delay = delay * 1.5 if interrupted < 0 else delay / 2
            check(interrupted == kills, "never interrupted mid-run (last kill at %.2fs)" % delay)
            ref = whole
            if extra:
                p2 = run(args, "--strategy", "dpor", "--executions", "0", "--json", *extra, prog=prog,
                         prog_args=["11"], cwd=d)
                ref = summary(p2)
            if check(s and ref, "resumed: %s" % p.stderr[-300:]):
                print("killed %d time(s) at %.2fs%s, resumed: %d traces %s, complete %s; uninterrupted %d %s" % (
                    kills, delay, " " + " ".join(extra) if extra else "", s["traces"], s["trace_digest"],
                    s["complete"], ref["traces"], ref["trace_digest"]))
                check(s["complete"] and s["traces"] == ref["traces"] and s["trace_digest"] == ref["trace_digest"],
                      "resumed after a kill at %.2fs: %r vs %r" % (delay, s, ref))
        # --time: stops, saves; the resumed search finishes the job.
        ck = os.path.join(d, "ckt")
        p = run(args, "--strategy", "dpor", "--executions", "0", "--json", "--time", "0.1", "--checkpoint", ck,
                prog=prog, prog_args=["11"], cwd=d)
        s = summary(p)
        check(s and not s["complete"] and os.path.exists(ck), "--time: %s" % p.stderr[-300:])
        p = run(args, "--strategy", "dpor", "--executions", "0", "--json", "--resume", ck, prog=prog,
                prog_args=["11"], cwd=d)
        s = summary(p)
        check(s and s["complete"] and s["trace_digest"] == whole["trace_digest"],
              "resumed after --time: %s" % p.stderr[-300:])
        # Wrong checkpoints: one line, exit 2, nothing run.
        for opts, pargs, needle in ((("--resume", ck), ["10"], "another search"),
                                    (("--resume", ck, "--shard", "1/2"), ["11"], "shard 1/1, this is shard 1/2"),
                                    (("--resume", os.path.join(d, "nothing")), ["11"], "No such file")):
            p = run(args, "--strategy", "dpor", *opts, prog=prog, prog_args=pargs, cwd=d)
            one_line_exit2(p, "resume %r" % (opts,), needle)
        text = open(ck).read()
        for name, bad, needle in (("cut", text[:len(text) - 6], "no 'end' line"),
                                  ("garbled", text.replace("units", "unit", 1), "no 'units N' line"),
                                  ("empty", "", "not 'ravel checkpoint 1'")):
            f = os.path.join(d, name)
            open(f, "w").write(bad)
            p = run(args, "--strategy", "dpor", "--resume", f, prog=prog, prog_args=["11"], cwd=d)
            one_line_exit2(p, "resume a %s checkpoint" % name, needle)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group")
    ap.add_argument("--ravel", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--examples", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                       "examples"))
    args = ap.parse_args()
    {"auto": group_auto, "merge": group_merge, "parallel": group_parallel, "recipes": group_recipes,
     "checkpoint": group_checkpoint}[args.group](args)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
