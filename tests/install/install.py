#!/usr/bin/env python3
"""install.py - ravel installed under a fresh prefix, used from outside.

Installs the build (cmake --install --prefix TMP), then builds the
project in tests/install/project against that prefix, three ways:

  cmake   find_package(Ravel): ravel_instrument on examples/counter.c,
          ravel_add_tests on examples/tests/example_tests.c; ctest must
          list one test per RAVEL_TEST and give each the result its
          "expect:" line states (three fail on purpose)
  make    plain make through pkg-config (ravel.pc), compile and link as
          separate steps; the test program's tests run with --filter
  cc      the installed ravel-cc builds the test file in one command

and checks the installed tree: bin/ravel, bin/ravel-cc, the runtime,
the default main archive, the headers, the CMake package and ravel.pc.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "unit"))
import unit  # noqa: E402  (expectations())

FAILED = []


def check(cond, what):
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        FAILED.append(what)
    return cond


def run(args, cwd, env=None, timeout=600):
    e = dict(os.environ)
    e.pop("RAVEL_OPTIONS", None)
    e["NO_COLOR"] = "1"
    if env:
        e.update(env)
    return subprocess.run(args, cwd=cwd, env=e, capture_output=True,
                          text=True, timeout=timeout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--ctest", required=True)
    a = ap.parse_args()
    top = tempfile.mkdtemp(prefix="ravel-install-")
    prefix = os.path.join(top, "prefix with space")
    p = run([a.cmake, "--install", a.build, "--prefix", prefix], top)
    if not check(p.returncode == 0, "cmake --install: %s" % p.stderr.strip()):
        sys.exit(1)
    for f in ("bin/ravel", "bin/ravel-cc", "lib/libravel_rt.so",
              "lib/libravel_test_main.a", "lib/libravel_hooks.a", "include/ravel.h",
              "include/ravel/svcomp.h", "lib/cmake/Ravel/RavelConfig.cmake",
              "lib/cmake/Ravel/RavelConfigVersion.cmake",
              "lib/cmake/Ravel/RavelInstrument.cmake",
              "lib/cmake/Ravel/RavelDiscoverTests.cmake",
              "lib/pkgconfig/ravel.pc"):
        check(os.path.exists(os.path.join(prefix, f)), "installed %s" % f)

    exp = unit.expectations(os.path.join(a.src, "examples", "tests",
                                         "example_tests.c"))
    project = os.path.join(a.src, "tests", "install", "project")

    # CMake: find_package(Ravel), ravel_add_tests, ctest.
    b = os.path.join(top, "cmake-build")
    p = run([a.cmake, "-S", project, "-B", b, "-DCMAKE_PREFIX_PATH=" + prefix,
             "-DRAVEL_SOURCES=" + a.src], top)
    check(p.returncode == 0, "configure with find_package(Ravel): %s"
          % p.stderr.strip()[-500:])
    p = run([a.cmake, "--build", b, "-j2"], top)
    check(p.returncode == 0, "build: %s" % (p.stdout + p.stderr)[-800:])
    p = run([a.ctest, "-N"], b)
    listed = re.findall(r"Test\s+#\d+: (\S+)", p.stdout)
    check(sorted(listed) == sorted(exp),
          "ctest lists one test per RAVEL_TEST (%s)" % listed)
    p = run([a.ctest, "-j2"], b)
    got = dict(re.findall(r"Test\s+#\d+: (\S+) \.+\s*(\*\*\*Failed|Passed)",
                          p.stdout))
    for name, (result, kind, _) in exp.items():
        want = "Passed" if result == "pass" else "***Failed"
        check(got.get(name) == want, "ctest: %s %s (got %s)"
              % (name, want, got.get(name)))
    check(p.returncode != 0, "ctest reports the failing tests")
    p = run([a.ctest, "-R", "^bank/"], b)
    check(p.returncode != 0 and len(re.findall(r"Test\s+#\d+:", p.stdout))
          == 3, "ctest -R selects RAVEL_TESTs by name")
    p = run([os.path.join(b, "counter")], b,
            env={"RAVEL_OPTIONS": "seed=1"})
    check(p.returncode == 66 and "BUG (assertion)" in p.stderr,
          "ravel_instrument: the instrumented counter fails under ravel "
          "(run directly: exit status 66)")

    # Plain make through pkg-config, under a second prefix: without a
    # space (pkg-config does not escape one inside -Wl,-rpath,DIR).
    m = os.path.join(top, "make-build")
    os.makedirs(m)
    prefix2 = os.path.join(top, "prefix2")
    p = run([a.cmake, "--install", a.build, "--prefix", prefix2], top)
    check(p.returncode == 0, "cmake --install, second prefix")
    if check(shutil.which("pkg-config") and shutil.which("make"),
             "pkg-config and make installed"):
        env = {"PKG_CONFIG_PATH": os.path.join(prefix2, "lib", "pkgconfig")}
        p = run(["make", "-f", os.path.join(project, "Makefile"),
                 "RAVEL_SOURCES=" + a.src], m, env=env)
        check(p.returncode == 0, "make with pkg-config: %s"
              % (p.stdout + p.stderr)[-800:])
        p = run(["./example_tests", "--seed", "1", "--filter",
                 "counter/lost_update,bank/ordered_transfers"], m)
        check(p.returncode == 1 and
              re.search(r"FAIL\s+counter/lost_update", p.stderr) and
              re.search(r"ok\s+bank/ordered_transfers", p.stderr),
              "the make-built tests run: %s" % p.stderr[-400:])

    # The installed ravel-cc, one command.
    exe = os.path.join(top, "cc-tests")
    p = run([os.path.join(prefix, "bin", "ravel-cc"), "-o", exe,
             os.path.join(a.src, "examples", "tests", "example_tests.c")], top)
    check(p.returncode == 0, "installed ravel-cc: %s" % p.stderr.strip())
    p = run([os.path.join(prefix, "bin", "ravel"), "test", "--seed", "1",
             "--filter", "counter/fetch_add", exe], top)
    check(p.returncode == 0 and "1 passed" in p.stderr,
          "installed ravel test runs it")
    if FAILED:
        print("%d check(s) failed" % len(FAILED))
        sys.exit(1)
    shutil.rmtree(top, ignore_errors=True)


if __name__ == "__main__":
    main()
