#!/usr/bin/env python3
"""The runtime is linked into other people's programs: check that it
exports exactly the names it interposes, the compiler's __tsan_* hooks and
the public ravel_* API, and nothing else (no ravel__ internals, no stray
helpers that could collide with a program's own symbols) but the few
ravel__ names the hooks linked into the program use (hooks_abi.h).

usage: symbols.py LIBRAVEL_RT_SO SRC_RT_DIR  (its .c files, recursively)
"""
import os
import re
import subprocess
import sys


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True,
                         text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            names.add(parts[2].split("@")[0])
    return names


def interposed(src_dir):
    names = set()
    paths = []
    for root, _, files in os.walk(src_dir):
        paths += [os.path.join(root, f) for f in files if f.endswith(".c")]
    for path in sorted(paths):
        text = open(path).read()
        for m in re.finditer(r"RAVEL__EXPORT\s+[\w\s\*]*?\b(\w+)\s*\(", text):
            # (skip the parameter name of interceptor-generating macros)
            if (not m.group(1).startswith("__tsan") and m.group(1) != "name"
                    and m.group(1) != "__attribute__"
                    and not m.group(1).startswith("ravel__")):
                names.add(m.group(1))
        # Interceptors defined under an assembler name: __asm__("name").
        for m in re.finditer(r'RAVEL__EXPORT[^;{]*?__asm__\("(\w+)"\)', text):
            names.add(m.group(1))
        for m in re.finditer(r"^(?:RW_INTERCEPT|RW_TIMED_INTERCEPT|RW_CLOCK_INTERCEPT|SPIN_INTERCEPT)\((\w+),", text, re.M):
            names.add(m.group(1))
        # (the return type first: fd.c's calls that change file names)
        for m in re.finditer(r"^HOLD_FIRST\([\w\s\*]+,\s*(\w+),", text, re.M):
            names.add(m.group(1))
    return names


# What the hooks linked into the program (libravel_hooks.a) use: the
# runtime's side of their contract, src/rt/intercept/hooks_abi.h.
HOOKS_ABI = {"ravel__self", "ravel__hook_read", "ravel__hook_write", "ravel__hook_quiet",
             "ravel__hook_enter_more", "ravel__hook_leave_more"} | {
    "ravel__hook_%s%d" % (k, n) for k in ("read", "write") for n in (1, 2, 4, 8)}


def hooks_abi(name):
    return name in HOOKS_ABI or re.fullmatch(r"ravel__hooks_abi_\d+", name) is not None


def main():
    lib, src = sys.argv[1], sys.argv[2]
    exp = exported(lib)
    want = interposed(src)
    bad = []
    for name in sorted(exp):
        if name in want or name.startswith("__tsan_") or name in ("_init", "_fini") \
                or hooks_abi(name):
            continue
        if re.match(r"ravel_[a-z]", name):
            continue
        bad.append(name)
    leaked = sorted(n for n in exp if n.startswith("ravel__") and not hooks_abi(n))
    missing = sorted(want - exp)
    ok = True
    if bad or leaked:
        print("exported but not allowed:", ", ".join(bad + leaked))
        ok = False
    if missing:
        print("interceptors not exported (they would never be called):", ", ".join(missing))
        ok = False
    for needed in ("pthread_mutex_lock", "pthread_create", "__libc_start_main", "malloc",
                   "__tsan_atomic32_load", "__tsan_func_entry", "ravel_result",
                   "ravel__self", "ravel__hook_read"):
        if needed not in exp:
            print("expected export missing:", needed)
            ok = False
    print("%d exported symbols, %d interposed names, %d __tsan_ hooks" %
          (len(exp), len(want), len([n for n in exp if n.startswith("__tsan_")])))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
