#!/usr/bin/env python3
"""Writes the generated part of the lint corpus (tests/lint/corpus/g_*.c).

Each program crosses one way of reaching shared memory with one way of
protecting it (or not) and one thread structure, and marks the access
line `// RACE` or `// NORACE` by what the combination means, not by what
ravel lint says: the expectation is computed here from the three choices
(unprotected, a read lock around a write, or two different locks race;
everything else is protected). The files are committed; rerun this script
after changing it (python3 tests/lint/gen_corpus.py) and commit the result.

Ways of reaching the memory: a global counter, a plain store, a struct
field, a constant array element, a global pointer set to a global
(points-to), an object returned by a call, a heap object published
through a global pointer. Protections: none, a mutex, a mutex entered
through a struct of function pointers filled at run time, a table chosen
at run time between a real and a do-nothing implementation, a callback
run under a lock by a helper (and one run without), an `if (m) lock(m)`
wrapper, a spin lock, an rwlock in write mode, an rwlock in read mode
around a write, two threads using two different mutexes. Thread
structures: one routine started twice, a loop of four, two routines,
start routines taken from a table filled at run time.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")

ACCESS = {
    "counter": ("int g;", "", "g++;"),
    "store": ("int g;", "", "g = 1;"),
    "field": ("struct st { int a, f; } s;", "", "s.f += 1;"),
    "element": ("int arr[8];", "", "arr[3]++;"),
    "alias": ("int g;\nint *p;", "p = &g;", "(*p)++;"),
    "returned": ("struct st { int a, f; } the;\n"
                 "static struct st *get(void) { return &the; }", "", "get()->f++;"),
    "heap": ("struct st { int a, f; } *obj;",
             "obj = malloc(sizeof *obj);\n    obj->f = 0;", "obj->f++;"),
}

# name: (declarations, init in main, before, after, races, needs two routines)
PROT = {
    "none": ("", "", "", "", True),
    "mutex": ("static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;", "",
              "pthread_mutex_lock(&m);", "pthread_mutex_unlock(&m);", False),
    "table": ("static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
              "static void do_lock(pthread_mutex_t *x) { pthread_mutex_lock(x); }\n"
              "static void do_unlock(pthread_mutex_t *x) { pthread_mutex_unlock(x); }\n"
              "struct lockops { void (*lock)(pthread_mutex_t *); "
              "void (*unlock)(pthread_mutex_t *); } ops;",
              "ops.lock = do_lock;\n    ops.unlock = do_unlock;",
              "ops.lock(&m);", "ops.unlock(&m);", False),
    "chosen": ("static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
               "static void do_lock(pthread_mutex_t *x) { pthread_mutex_lock(x); }\n"
               "static void do_unlock(pthread_mutex_t *x) { pthread_mutex_unlock(x); }\n"
               "static void no_op(pthread_mutex_t *x) { (void)x; }\n"
               "struct lockops { void (*lock)(pthread_mutex_t *); "
               "void (*unlock)(pthread_mutex_t *); };\n"
               "static const struct lockops real = {do_lock, do_unlock}, "
               "single = {no_op, no_op};\n"
               "static const struct lockops *cur;",
               "cur = getenv(\"SINGLE\") ? &single : &real;",
               "cur->lock(&m);", "cur->unlock(&m);", False),
    "wrapper": ("static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
                "static void enter(pthread_mutex_t *x) { if (x) pthread_mutex_lock(x); }\n"
                "static void leave(pthread_mutex_t *x) { if (x) pthread_mutex_unlock(x); }",
                "", "enter(&m);", "leave(&m);", False),
    "spin": ("static pthread_spinlock_t sl;", "pthread_spin_init(&sl, 0);",
             "pthread_spin_lock(&sl);", "pthread_spin_unlock(&sl);", False),
    "wrlock": ("static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;", "",
               "pthread_rwlock_wrlock(&rw);", "pthread_rwlock_unlock(&rw);", False),
    "rdlock": ("static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;", "",
               "pthread_rwlock_rdlock(&rw);", "pthread_rwlock_unlock(&rw);", True),
}
# Callbacks: the access sits in its own function, run by a helper.
CALLBACK = {
    "callback": ("static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
                 "static void run(void (*fn)(void))\n{\n    pthread_mutex_lock(&m);\n"
                 "    fn();\n    pthread_mutex_unlock(&m);\n}", False),
    "callback_bare": ("static void run(void (*fn)(void)) { fn(); }", True),
}

STRUCT = {
    "twice": "pthread_t t1, t2;\n    pthread_create(&t1, 0, worker, 0);\n"
             "    pthread_create(&t2, 0, worker, 0);\n    pthread_join(t1, 0);\n"
             "    pthread_join(t2, 0);",
    "loop": "pthread_t t[4];\n    for (int i = 0; i < 4; i++)\n"
            "        pthread_create(&t[i], 0, worker, 0);\n    for (int i = 0; i < 4; i++)\n"
            "        pthread_join(t[i], 0);",
    "two": "pthread_t t1, t2;\n    pthread_create(&t1, 0, worker, 0);\n"
           "    pthread_create(&t2, 0, worker2, 0);\n    pthread_join(t1, 0);\n"
           "    pthread_join(t2, 0);",
    "tasks": "pthread_t t[2];\n    tasks[0].run = worker;\n    tasks[1].run = worker2;\n"
             "    for (int i = 0; i < 2; i++)\n        pthread_create(&t[i], 0, tasks[i].run, 0);\n"
             "    for (int i = 0; i < 2; i++)\n        pthread_join(t[i], 0);",
}
ORDER = ["twice", "loop", "two", "tasks"]


def program(aname, pname, sname):
    adecl, ainit, acc = ACCESS[aname]
    two_fns = sname in ("two", "tasks")
    decls = [adecl]
    inits = [ainit] if ainit else []
    if pname in CALLBACK:
        cdecl, races = CALLBACK[pname]
        decls.append(cdecl)
        mark = "RACE" if races else "NORACE"
        body = ["static void body(void) { %s } // %s" % (acc, mark)]
        worker = ["static void *worker(void *arg)\n{\n    run(body);\n    return arg;\n}"]
        if two_fns:
            worker.append("static void *worker2(void *arg)\n{\n    run(body);\n"
                          "    return arg;\n}")
        funcs = body + worker
    elif pname == "twolocks":
        races = True
        decls.append("static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, "
                     "m2 = PTHREAD_MUTEX_INITIALIZER;")
        funcs = []
        for fn, m in (("worker", "m1"), ("worker2", "m2")):
            funcs.append("static void *%s(void *arg)\n{\n    pthread_mutex_lock(&%s);\n"
                         "    %s // RACE\n    pthread_mutex_unlock(&%s);\n    return arg;\n}"
                         % (fn, m, acc, m))
    else:
        pdecl, pinit, pre, post, races = PROT[pname]
        if pdecl:
            decls.append(pdecl)
        if pinit:
            inits.append(pinit)
        mark = "RACE" if races else "NORACE"
        funcs = []
        for fn in (["worker", "worker2"] if two_fns else ["worker"]):
            lines = ["static void *%s(void *arg)\n{" % fn]
            if pre:
                lines.append("    " + pre)
            lines.append("    %s // %s" % (acc, mark))
            if post:
                lines.append("    " + post)
            lines.append("    return arg;\n}")
            funcs.append("\n".join(lines))
    if sname == "tasks":
        decls.append("struct task { void *(*run)(void *); } tasks[2];")
    head = ("/* Generated by tests/lint/gen_corpus.py: %s, protected by %s, threads %s. */\n"
            "#include <pthread.h>\n#include <stdlib.h>\n" % (aname, pname, sname))
    main = "int main(void)\n{\n"
    for i in inits:
        main += "    " + i + "\n"
    main += "    " + STRUCT[sname] + "\n    return 0;\n}\n"
    return head + "\n".join(decls) + "\n" + "\n".join(funcs) + "\n" + main


def main():
    for f in os.listdir(OUT):
        if f.startswith("g_") and f.endswith(".c"):
            os.remove(os.path.join(OUT, f))
    n = 0
    prots = list(PROT) + list(CALLBACK)
    for ai, aname in enumerate(ACCESS):
        for pi, pname in enumerate(prots):
            # Two thread structures per pair, rotating through all four.
            for k in range(2):
                sname = ORDER[(ai + pi + 2 * k) % 4]
                path = os.path.join(OUT, "g_%s_%s_%s.c" % (aname, pname, sname))
                with open(path, "w") as f:
                    f.write(program(aname, pname, sname))
                n += 1
        for sname in ("two", "tasks"):
            path = os.path.join(OUT, "g_%s_twolocks_%s.c" % (aname, sname))
            with open(path, "w") as f:
                f.write(program(aname, "twolocks", sname))
            n += 1
    print("gen_corpus: %d programs in %s" % (n, OUT))


if __name__ == "__main__":
    main()
