#!/usr/bin/env python3
"""Dependencies between ravel's modules point down (docs/architecture.md,
src/README.md). This check reads every `#include "..."` under src/ and
fails when a module includes a header of a module it may not use: a lower
layer reaching up (model including rt/rt.h), or two modules that must stay
apart (the command line including the runtime's internals, lint including
anything but common).

    usage: layers.py SRC_DIR          check the tree
           layers.py --self-test      show that a wrong include fails

A module is a folder directly under src/; its subfolders (rt/intercept/,
...) belong to it. include/ (the public header) may be used by anyone;
tests/ (the unit-test harness) only by *_test.c files. A new module must
be added to ALLOWED below, with its place in the picture.
"""
import os
import re
import shutil
import sys
import tempfile

# Module -> the modules it may include. Lowest layers first.
ALLOWED = {
    "common": set(),
    "lin": {"common"},
    "model": {"common"},
    "explore": {"common", "model"},
    "report": {"common", "model", "explore", "lin"},
    "rt": {"common", "model", "explore", "report"},
    "pbt": {"common", "model", "explore", "report", "lin", "rt"},
    "unit": {"common", "model", "explore", "report", "rt"},
    "cli": {"common", "model", "explore", "report", "lin"},
    "lint": {"common"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def check(src):
    src = os.path.normpath(src)
    top = os.path.dirname(src)
    bad = []
    for root, _, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith((".c", ".h", ".def")):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src).split(os.sep)
            if len(rel) < 2:
                continue  # files directly in src/ (none today)
            mod = rel[0]
            if mod not in ALLOWED:
                bad.append(f"{path}: module '{mod}' is not in tests/layers.py "
                           "(add it with the modules it may use)")
                continue
            text = open(path, errors="replace").read()
            for m in INCLUDE.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                target = os.path.normpath(os.path.join(root, m.group(1)))
                trel = os.path.relpath(target, top).split(os.sep)
                if trel[0] == "include":
                    continue
                if trel[0] == "tests":
                    if not f.endswith("_test.c"):
                        bad.append(f"{path}:{line}: includes {m.group(1)} "
                                   "(only unit tests use tests/)")
                    continue
                if trel[0] != os.path.basename(src):
                    bad.append(f"{path}:{line}: includes {m.group(1)}, "
                               "outside src/")
                    continue
                tmod = trel[1]
                if tmod == mod or tmod in ALLOWED[mod]:
                    continue
                bad.append(f"{path}:{line}: {mod} includes {tmod}'s header "
                           f"{m.group(1)} ({mod} may use: "
                           f"{', '.join(sorted(ALLOWED[mod])) or 'nothing'})")
    return bad


def self_test():
    """A copy of a small tree with one wrong include must fail, and the
    same tree without it must pass."""
    d = tempfile.mkdtemp()
    try:
        src = os.path.join(d, "src")
        for sub in ("model", "rt", "common"):
            os.makedirs(os.path.join(src, sub))
        open(os.path.join(src, "common", "common.h"), "w").write("")
        open(os.path.join(src, "rt", "rt.h"), "w").write(
            '#include "../model/model.h"\n')
        model = os.path.join(src, "model", "model.h")
        open(model, "w").write('#include "../common/common.h"\n')
        if check(src):
            print("not ok - a correct tree passes:", check(src))
            return 1
        open(model, "a").write('#include "../rt/rt.h"\n')
        bad = check(src)
        if len(bad) != 1 or "model includes rt's header" not in bad[0]:
            print("not ok - model including rt/rt.h fails:", bad)
            return 1
        print("ok - model including rt/rt.h fails:", bad[0].split(": ", 1)[1])
        return 0
    finally:
        shutil.rmtree(d)


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    bad = check(sys.argv[1])
    for b in bad:
        print(b)
    if bad:
        print(f"layers: {len(bad)} include(s) against the module order "
              "(tests/layers.py, src/README.md)")
        return 1
    print("layers: every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
