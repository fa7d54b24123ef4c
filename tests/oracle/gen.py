#!/usr/bin/env python3
"""Random small concurrent C programs for the differential oracle.

A program is 2 to 3 worker threads (with main, which creates and joins
them, 3 to 4 threads) over a few shared variables, each thread a short
list of statements:

    plain accesses      to a variable owned by one mutex, only while it is
                        held (race-free), or to a "racy" variable anywhere
                        (a data race, on purpose, in a few programs)
    atomics             load, store, fetch_add, exchange, compare-exchange,
                        each with a memory order of its kind
    locks               a block under a mutex, sometimes nesting a second
    condition variables wait in a while loop on a flag the signaller sets
                        under the mutex (signal or broadcast)
    semaphores          sem_wait / sem_post on semaphores starting at 0 or 1
    ravel_choose        a value in [0, n) into a local
    ravel_assume        on a local: the execution is discarded if false
    assert              on a local, on its own line (failures are outcomes)
    if                  on a local, around a few statements
    atomic sections     ravel_atomic_begin/end around plain accesses to
                        variables only sections touch (--sections)

Everything a thread reads goes into one of its three locals; after the
joins main prints one line: the plain variables, the atomics and every
thread's locals. That line (the final state), the assertions that failed
and whether a deadlock is reachable are the program's outcomes, which
ref.py computes independently from the same AST and oracle.py compares
with what ravel's exploration saw.

The AST is plain JSON-able data (lists and dicts), so a program that
exposed a disagreement is kept as a regression test by saving its AST
(tests/oracle/regress/*.json). Programs are compiled at -O0 so that every
plain access in the source is one load or store, as ref.py counts them.
"""
import json
import random

NLOCALS = 3
ORDERS_LOAD = ["relaxed", "consume", "acquire", "seq_cst"]
ORDERS_STORE = ["relaxed", "release", "seq_cst"]
ORDERS_RMW = ["relaxed", "consume", "acquire", "release", "acq_rel",
              "seq_cst"]
CMP = ["==", "!=", "<", ">="]


class Gen:
    def __init__(self, rng, sections=False):
        self.r = rng
        self.sections = sections

    def expr(self):
        if self.r.random() < 0.5:
            return {"k": "const", "c": self.r.randint(0, 3)}
        return {"k": "local", "l": self.r.randrange(NLOCALS),
                "c": self.r.randint(0, 2)}

    def cond(self):
        return {"l": self.r.randrange(NLOCALS), "op": self.r.choice(CMP),
                "c": self.r.randint(0, 2)}

    def plain(self, var):
        if self.r.random() < 0.5:
            return {"k": "read", "g": var, "l": self.r.randrange(NLOCALS)}
        return {"k": "write", "g": var, "e": self.expr()}

    def atomic(self):
        r = self.r
        a = r.randrange(self.p["natomic"])
        l = r.randrange(NLOCALS)
        k = r.choice(["aload", "astore", "faa", "xchg", "cas"])
        if k == "aload":
            return {"k": k, "a": a, "l": l, "mo": r.choice(ORDERS_LOAD)}
        if k == "astore":
            return {"k": k, "a": a, "e": self.expr(),
                    "mo": r.choice(ORDERS_STORE)}
        if k == "faa":
            return {"k": k, "a": a, "c": r.randint(1, 2), "l": l,
                    "mo": r.choice(ORDERS_RMW)}
        if k == "xchg":
            return {"k": k, "a": a, "e": self.expr(), "l": l,
                    "mo": r.choice(ORDERS_RMW)}
        mo = r.choice(ORDERS_RMW)
        fails = ["relaxed"]
        if mo in ("acquire", "acq_rel", "seq_cst", "consume"):
            fails.append("acquire")
        if mo == "seq_cst":
            fails.append("seq_cst")
        return {"k": "cas", "a": a, "exp": r.randint(0, 3), "e": self.expr(),
                "l": l, "mo": mo, "fmo": r.choice(fails)}

    def owned(self, m):
        return [g for g, o in enumerate(self.p["owner"]) if o == ["m", m]]

    def lock_block(self, depth=0):
        r = self.r
        m = r.randrange(self.p["nmutex"])
        vars_ = self.owned(m)
        body = []
        for _ in range(r.randint(1, 3)):
            x = r.random()
            if vars_ and x < 0.7:
                body.append(self.plain(r.choice(vars_)))
            elif depth == 0 and self.p["nmutex"] > 1 and x < 0.8:
                inner = self.lock_block(depth + 1)
                if inner["m"] != m:
                    body.append(inner)
            else:
                body.append(self.atomic())
        return {"k": "lock", "m": m, "body": body}

    def stmt(self, t, depth=0):
        r = self.r
        p = self.p
        while True:
            x = r.random()
            if x < 0.30:
                return self.atomic()
            if x < 0.55:
                return self.lock_block()
            if x < 0.62 and p["racy"]:
                return self.plain(r.choice(p["racy"]))
            if x < 0.69 and p["nsem"]:
                s = r.randrange(p["nsem"])
                return {"k": r.choice(["semwait", "sempost"]), "s": s}
            if x < 0.74:
                return {"k": "choose", "n": r.randint(2, 3),
                        "l": r.randrange(NLOCALS)}
            if x < 0.77:
                return dict(k="assume", **self.cond())
            if x < 0.84:
                return dict(k="assert", **self.cond())
            if x < 0.90 and depth == 0:
                return dict(k="if", then=[self.stmt(t, depth + 1)
                                          for _ in range(r.randint(1, 2))],
                            **self.cond())
            if x < 1.0 and self.sections and p["secvars"]:
                body = []
                for _ in range(r.randint(1, 3)):
                    if r.random() < 0.8:
                        body.append(self.plain(r.choice(p["secvars"])))
                    else:
                        body.append(self.atomic())
                return {"k": "section", "body": body}

    def program(self):
        r = self.r
        nthreads = r.randint(2, 3)
        nmutex = r.randint(1, 2)
        nplain = r.randint(1, 3)
        owner = []
        for g in range(nplain):
            x = r.random()
            if self.sections and x < 0.25:
                owner.append(["section"])
            elif x < 0.12:
                owner.append(["racy"])
            else:
                owner.append(["m", r.randrange(nmutex)])
        self.p = p = {
            "nthreads": nthreads, "nmutex": nmutex, "nplain": nplain,
            "natomic": r.randint(1, 2), "nsem": r.randint(0, 1),
            "owner": owner, "conds": [], "threads": [],
        }
        p["sem_init"] = [r.randint(0, 1) for _ in range(p["nsem"])]
        p["racy"] = [g for g, o in enumerate(owner) if o == ["racy"]]
        p["secvars"] = [g for g, o in enumerate(owner) if o == ["section"]]
        threads = [[self.stmt(t) for _ in range(r.randint(3, 5))]
                   for t in range(nthreads)]
        # Condition variables: a waiter in one thread, a signaller in
        # another, each at a random place of its thread's statements.
        if r.random() < 0.35:
            m = r.randrange(nmutex)
            w, s = r.sample(range(nthreads), 2)
            c = len(p["conds"])
            p["conds"].append({"m": m})
            threads[w].insert(r.randint(0, len(threads[w])),
                              {"k": "wait", "c": c})
            threads[s].insert(r.randint(0, len(threads[s])),
                              {"k": "signal", "c": c,
                               "bcast": r.random() < 0.5})
        p["threads"] = threads
        # Number the assertions in the order they appear.
        n = [0]

        def number(stmts):
            for st in stmts:
                if st["k"] == "assert":
                    st["id"] = n[0]
                    n[0] += 1
                for key in ("then", "body"):
                    if key in st:
                        number(st[key])
        for th in threads:
            number(th)
        p["nasserts"] = n[0]
        return p


def generate(seed, index, sections=False):
    """The program number `index` of the batch of `seed` (deterministic)."""
    rng = random.Random("%d/%d/%d" % (seed, index, int(sections)))
    return Gen(rng, sections).program()


# ---- C ---------------------------------------------------------------------

def c_expr(e, P):
    if e["k"] == "const":
        return str(e["c"])
    return "%sl%d + %d" % ("", e["l"], e["c"])


def c_cond(s):
    return "l%d %s %d" % (s["l"], s["op"], s["c"])


class Emitter:
    """C source of a batch of programs; remembers each assertion's line."""

    def __init__(self):
        self.lines = []
        self.assert_lines = {}  # (program, assert id) -> line

    def put(self, text):
        self.lines.append(text)

    def stmts(self, P, k, stmts, ind):
        for s in stmts:
            self.stmt(P, k, s, ind)

    def stmt(self, P, k, s, ind):
        sp = "    " * ind
        pre = "p%d_" % k
        kind = s["k"]
        mo = lambda o: "memory_order_" + o
        if kind == "read":
            self.put("%sl%d = %sg%d;" % (sp, s["l"], pre, s["g"]))
        elif kind == "write":
            self.put("%s%sg%d = %s;" % (sp, pre, s["g"], c_expr(s["e"], P)))
        elif kind == "aload":
            self.put("%sl%d = atomic_load_explicit(&%sa%d, %s);"
                     % (sp, s["l"], pre, s["a"], mo(s["mo"])))
        elif kind == "astore":
            self.put("%satomic_store_explicit(&%sa%d, %s, %s);"
                     % (sp, pre, s["a"], c_expr(s["e"], P), mo(s["mo"])))
        elif kind == "faa":
            self.put("%sl%d = atomic_fetch_add_explicit(&%sa%d, %d, %s);"
                     % (sp, s["l"], pre, s["a"], s["c"], mo(s["mo"])))
        elif kind == "xchg":
            self.put("%sl%d = atomic_exchange_explicit(&%sa%d, %s, %s);"
                     % (sp, s["l"], pre, s["a"], c_expr(s["e"], P),
                        mo(s["mo"])))
        elif kind == "cas":
            self.put("%s{" % sp)
            self.put("%s    int e = %d, v = %s;" % (sp, s["exp"],
                                                   c_expr(s["e"], P)))
            self.put("%s    l%d = atomic_compare_exchange_strong_explicit("
                     "&%sa%d, &e, v, %s, %s);"
                     % (sp, s["l"], pre, s["a"], mo(s["mo"]), mo(s["fmo"])))
            self.put("%s}" % sp)
        elif kind == "lock":
            self.put("%spthread_mutex_lock(&%sm%d);" % (sp, pre, s["m"]))
            self.stmts(P, k, s["body"], ind)
            self.put("%spthread_mutex_unlock(&%sm%d);" % (sp, pre, s["m"]))
        elif kind == "wait":
            c = s["c"]
            m = P["conds"][c]["m"]
            self.put("%spthread_mutex_lock(&%sm%d);" % (sp, pre, m))
            self.put("%swhile (!%sf%d)" % (sp, pre, c))
            self.put("%s    pthread_cond_wait(&%sc%d, &%sm%d);"
                     % (sp, pre, c, pre, m))
            self.put("%spthread_mutex_unlock(&%sm%d);" % (sp, pre, m))
        elif kind == "signal":
            c = s["c"]
            m = P["conds"][c]["m"]
            self.put("%spthread_mutex_lock(&%sm%d);" % (sp, pre, m))
            self.put("%s%sf%d = 1;" % (sp, pre, c))
            self.put("%spthread_cond_%s(&%sc%d);"
                     % (sp, "broadcast" if s["bcast"] else "signal", pre, c))
            self.put("%spthread_mutex_unlock(&%sm%d);" % (sp, pre, m))
        elif kind == "semwait":
            self.put("%ssem_wait(&%ss%d);" % (sp, pre, s["s"]))
        elif kind == "sempost":
            self.put("%ssem_post(&%ss%d);" % (sp, pre, s["s"]))
        elif kind == "choose":
            self.put("%sl%d = (int)ravel_choose(%d);" % (sp, s["l"], s["n"]))
        elif kind == "assume":
            self.put("%sravel_assume(%s);" % (sp, c_cond(s)))
        elif kind == "assert":
            self.put("%sassert(%s);" % (sp, c_cond(s)))
            self.assert_lines[(k, s["id"])] = len(self.lines)
        elif kind == "if":
            self.put("%sif (%s) {" % (sp, c_cond(s)))
            self.stmts(P, k, s["then"], ind + 1)
            self.put("%s}" % sp)
        elif kind == "section":
            self.put("%sravel_atomic_begin();" % sp)
            self.stmts(P, k, s["body"], ind)
            self.put("%sravel_atomic_end();" % sp)
        else:
            raise ValueError(kind)

    def program(self, P, k):
        pre = "p%d_" % k
        put = self.put
        put("/* program %d */" % k)
        for g in range(P["nplain"]):
            put("static int %sg%d;" % (pre, g))
        for a in range(P["natomic"]):
            put("static atomic_int %sa%d;" % (pre, a))
        for m in range(P["nmutex"]):
            put("static pthread_mutex_t %sm%d = PTHREAD_MUTEX_INITIALIZER;"
                % (pre, m))
        for c in range(len(P["conds"])):
            put("static pthread_cond_t %sc%d = PTHREAD_COND_INITIALIZER;"
                % (pre, c))
            put("static int %sf%d;" % (pre, c))
        for s in range(P["nsem"]):
            put("static sem_t %ss%d;" % (pre, s))
        put("static int %sout[%d][%d];" % (pre, P["nthreads"], NLOCALS))
        for t, body in enumerate(P["threads"]):
            put("static void *%st%d(void *arg)" % (pre, t))
            put("{")
            put("    (void)arg;")
            put("    int %s;" % ", ".join("l%d = 0" % i
                                         for i in range(NLOCALS)))
            self.stmts(P, k, body, 1)
            for i in range(NLOCALS):
                put("    %sout[%d][%d] = l%d;" % (pre, t, i, i))
            put("    return NULL;")
            put("}")
        put("static void %srun(char *buf, size_t size)" % pre)
        put("{")
        for s, v in enumerate(P["sem_init"]):
            put("    sem_init(&%ss%d, 0, %d);" % (pre, s, v))
        put("    pthread_t t[%d];" % P["nthreads"])
        for t in range(P["nthreads"]):
            put("    pthread_create(&t[%d], NULL, %st%d, NULL);"
                % (t, pre, t))
        for t in range(P["nthreads"]):
            put("    pthread_join(t[%d], NULL);" % t)
        vals = ["%sg%d" % (pre, g) for g in range(P["nplain"])]
        vals += ["atomic_load(&%sa%d)" % (pre, a)
                 for a in range(P["natomic"])]
        vals += ["%sout[%d][%d]" % (pre, t, i)
                 for t in range(P["nthreads"]) for i in range(NLOCALS)]
        put("    snprintf(buf, size, \"%s\\n\", %s);"
            % (" ".join(["%d"] * len(vals)), ", ".join(vals)))
        put("}")
        put("")


PRELUDE = """/* Generated by tests/oracle/gen.py: a batch of small concurrent
 * programs for the differential oracle (tests/oracle/oracle.py). Run one
 * with its number as the argument; it appends its final state to the
 * file named by ORACLE_OUT. */
#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <ravel.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
"""


def emit_batch(programs):
    """C source running programs[k] when given k; and the line of each
    assertion: {(k, id): line}."""
    em = Emitter()
    for line in PRELUDE.splitlines():
        em.put(line)
    for k, P in enumerate(programs):
        em.program(P, k)
    em.put("int main(int argc, char **argv)")
    em.put("{")
    em.put("    char buf[512];")
    em.put("    int k = argc > 1 ? atoi(argv[1]) : 0;")
    em.put("    switch (k) {")
    for k in range(len(programs)):
        em.put("    case %d: p%d_run(buf, sizeof buf); break;" % (k, k))
    em.put("    default: return 2;")
    em.put("    }")
    em.put("    const char *path = getenv(\"ORACLE_OUT\");")
    em.put("    int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT, "
           "0644) : 1;")
    em.put("    if (fd >= 0) {")
    em.put("        (void)!write(fd, buf, strlen(buf));")
    em.put("        if (fd != 1)")
    em.put("            close(fd);")
    em.put("    }")
    em.put("    return 0;")
    em.put("}")
    return "\n".join(em.lines) + "\n", em.assert_lines


if __name__ == "__main__":
    import sys
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    progs = [generate(seed, i) for i in range(n)]
    src, _ = emit_batch(progs)
    sys.stdout.write(src)
