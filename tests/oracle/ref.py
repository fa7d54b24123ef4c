#!/usr/bin/env python3
"""The reference semantics of gen.py's programs, independent of ravel.

It compiles each thread's statements to a small instruction list and
enumerates every interleaving, under sequential consistency, at every
access to shared memory (plain or atomic) and every synchronisation
operation, with a set of visited states so that equal states are explored
once. Thread-local instructions (branches on locals, ravel_choose, an
ravel_assume or assert that holds) commute with everything other threads
do, so they run as soon as their thread reaches them; a failing assert or
assume ends the execution, so it is a step of its own, which other threads
may precede. An atomic section runs as one step.

Outcomes (the same strings oracle.py builds from what ravel saw):
    "<values>"   a complete execution: the plain variables, the atomics and
                 every thread's locals, as main prints them
    "A<id>"      assertion number id failed
    "deadlock"   no thread can move and some has not finished
An execution whose ravel_assume is false has no outcome.

With eager_failures, the same at ravel's granularity: scheduling points
only at shared operations and thread starts, a failing assert taking
effect right after the step before it. The final states and deadlocks
are the same either way; assertion failures can differ: one that needs
another thread to be preempted between its last shared step and its own
failing assert is out of ravel's reach (docs/limits.md).

Memory orders do not matter under sequential consistency; mutexes, the
flags of condition variables and semaphores are modelled exactly (no
spurious wake-ups: ravel has none either).
"""
from gen import NLOCALS


class TooBig(Exception):
    pass


def compile_thread(P, stmts):
    code = []

    def emit(ins):
        code.append(ins)
        return len(code) - 1

    def block(ss):
        for s in ss:
            one(s)

    def one(s):
        k = s["k"]
        if k in ("read", "write", "aload", "astore", "faa", "xchg", "cas",
                 "semwait", "sempost", "choose", "assume", "assert"):
            emit(s)
        elif k == "lock":
            emit({"k": "lock_", "m": s["m"]})
            block(s["body"])
            emit({"k": "unlock_", "m": s["m"]})
        elif k == "wait":
            m = P["conds"][s["c"]]["m"]
            emit({"k": "lock_", "m": m})
            emit({"k": "condwait", "c": s["c"], "m": m})
            emit({"k": "unlock_", "m": m})
        elif k == "signal":
            m = P["conds"][s["c"]]["m"]
            emit({"k": "lock_", "m": m})
            emit({"k": "setflag", "c": s["c"]})
            emit({"k": "wake", "c": s["c"], "all": s["bcast"]})
            emit({"k": "unlock_", "m": m})
        elif k == "if":
            j = emit({"k": "jfalse", "cond": s, "to": None})
            block(s["then"])
            code[j] = dict(code[j], to=len(code))
        elif k == "section":
            emit({"k": "section", "body": s["body"]})
        else:
            raise ValueError(k)

    block(stmts)
    return code


def holds(cond, locs):
    v, c = locs[cond["l"]], cond["c"]
    op = cond["op"]
    return {"==": v == c, "!=": v != c, "<": v < c, ">=": v >= c}[op]


def value(e, locs):
    return e["c"] if e["k"] == "const" else locs[e["l"]] + e["c"]


LOCAL = ("choose", "assume", "assert", "jfalse")

# Thread status: 0 running, 1 finished, ("w", c) waiting on condition c,
# ("r", m) woken, to take mutex m again.


class Explorer:
    def __init__(self, P, max_states=400000, eager_failures=False):
        """eager_failures: ravel's granularity, where scheduling points
        are at visible operations (and thread starts) only, so a failing
        assert or assume takes effect at once after the step before it."""
        self.P = P
        self.eager = eager_failures
        self.code = [compile_thread(P, th) for th in P["threads"]]
        self.max_states = max_states
        self.outcomes = set()
        self.seen = set()

    # A state: (pcs, status, locals (tuple of tuples), plain, atomics,
    # flags, owners, sems). All tuples, so it can be hashed.

    def settle(self, st, t):
        """Runs thread t's local instructions; yields the resulting states
        (several after a ravel_choose), None for a discarded execution;
        records assertion failures."""
        pcs, status, locs, g, a, f, own, sem = st
        code = self.code[t]
        pc = pcs[t]
        if status[t] != 0:
            yield st
            return
        while pc < len(code) and code[pc]["k"] in LOCAL:
            ins = code[pc]
            k = ins["k"]
            lt = locs[t]
            if k == "jfalse":
                pc = pc + 1 if holds(ins["cond"], lt) else ins["to"]
            elif k in ("assume", "assert"):
                if not holds(ins, lt):
                    if self.eager:
                        if k == "assert":
                            self.outcomes.add("A%d" % ins["id"])
                        return
                    break  # a step of its own: it ends the execution
                pc += 1
            elif k == "choose":
                for v in range(ins["n"]):
                    nl = list(lt)
                    nl[ins["l"]] = v
                    locs2 = locs[:t] + (tuple(nl),) + locs[t + 1:]
                    pcs2 = pcs[:t] + (pc + 1,) + pcs[t + 1:]
                    yield from self.settle(
                        (pcs2, status, locs2, g, a, f, own, sem), t)
                return
        if pc >= len(code):
            status = status[:t] + (1,) + status[t + 1:]
        pcs = pcs[:t] + (pc,) + pcs[t + 1:]
        yield (pcs, status, locs, g, a, f, own, sem)

    def enabled(self, st, t):
        pcs, status, locs, g, a, f, own, sem = st
        s = status[t]
        if s == 2:  # not started
            return True
        if s == 1 or (isinstance(s, tuple) and s[0] == "w"):
            return False
        if isinstance(s, tuple):  # woken: takes the mutex again
            return own[s[1]] is None
        ins = self.code[t][pcs[t]]
        if ins["k"] == "lock_":
            return own[ins["m"]] is None
        if ins["k"] == "semwait":
            return sem[ins["s"]] > 0
        return True

    def access(self, ins, lt, g, a):
        """A memory instruction on (locals, plain, atomics): the new ones."""
        k = ins["k"]
        lt, g, a = list(lt), list(g), list(a)
        if k == "read":
            lt[ins["l"]] = g[ins["g"]]
        elif k == "write":
            g[ins["g"]] = value(ins["e"], lt)
        elif k == "aload":
            lt[ins["l"]] = a[ins["a"]]
        elif k == "astore":
            a[ins["a"]] = value(ins["e"], lt)
        elif k == "faa":
            lt[ins["l"]] = a[ins["a"]]
            a[ins["a"]] += ins["c"]
        elif k == "xchg":
            v = value(ins["e"], lt)
            lt[ins["l"]] = a[ins["a"]]
            a[ins["a"]] = v
        elif k == "cas":
            v = value(ins["e"], lt)
            if a[ins["a"]] == ins["exp"]:
                a[ins["a"]] = v
                lt[ins["l"]] = 1
            else:
                lt[ins["l"]] = 0
        else:
            raise ValueError(k)
        return tuple(lt), tuple(g), tuple(a)

    def step(self, st, t):
        """States after thread t's next step (before settling)."""
        pcs, status, locs, g, a, f, own, sem = st
        s = status[t]
        rep = lambda tup, i, v: tup[:i] + (v,) + tup[i + 1:]
        if s == 2:  # its start: a scheduling point in ravel
            return [(pcs, rep(status, t, 0), locs, g, a, f, own, sem)]
        if isinstance(s, tuple):  # woken: takes the mutex, checks again
            return [(pcs, rep(status, t, 0), locs, g, a, f,
                     rep(own, s[1], t), sem)]
        ins = self.code[t][pcs[t]]
        k = ins["k"]
        pcs1 = rep(pcs, t, pcs[t] + 1)
        if k == "assert":  # failing (settle stopped here): an outcome
            self.outcomes.add("A%d" % ins["id"])
            return []
        if k == "assume":  # false: the execution is discarded
            return []
        if k in ("read", "write", "aload", "astore", "faa", "xchg", "cas"):
            lt, g2, a2 = self.access(ins, locs[t], g, a)
            return [(pcs1, status, rep(locs, t, lt), g2, a2, f, own, sem)]
        if k == "section":
            lt = locs[t]
            for b in ins["body"]:
                lt, g, a = self.access(b, lt, g, a)
            return [(pcs1, status, rep(locs, t, lt), g, a, f, own, sem)]
        if k == "lock_":
            return [(pcs1, status, locs, g, a, f, rep(own, ins["m"], t),
                     sem)]
        if k == "unlock_":
            return [(pcs1, status, locs, g, a, f, rep(own, ins["m"], None),
                     sem)]
        if k == "semwait":
            return [(pcs1, status, locs, g, a, f, own,
                     rep(sem, ins["s"], sem[ins["s"]] - 1))]
        if k == "sempost":
            return [(pcs1, status, locs, g, a, f, own,
                     rep(sem, ins["s"], sem[ins["s"]] + 1))]
        if k == "setflag":
            return [(pcs1, status, locs, g, a, rep(f, ins["c"], 1), own,
                     sem)]
        if k == "condwait":
            # Holding the mutex: the flag set, go on; else release the
            # mutex and wait (one atomic step, as pthread_cond_wait).
            if f[ins["c"]]:
                return [(pcs1, status, locs, g, a, f, own, sem)]
            return [(pcs, rep(status, t, ("w", ins["c"])), locs, g, a, f,
                     rep(own, ins["m"], None), sem)]
        if k == "wake":
            c = ins["c"]
            m = self.P["conds"][c]["m"]
            waiters = [u for u, su in enumerate(status) if su == ("w", c)]
            if not waiters:
                return [(pcs1, status, locs, g, a, f, own, sem)]
            if ins["all"]:
                st2 = status
                for u in waiters:
                    st2 = rep(st2, u, ("r", m))
                return [(pcs1, st2, locs, g, a, f, own, sem)]
            return [(pcs1, rep(status, u, ("r", m)), locs, g, a, f, own, sem)
                    for u in waiters]
        raise ValueError(k)

    def final(self, st):
        pcs, status, locs, g, a, f, own, sem = st
        vals = list(g) + list(a) + [v for lt in locs for v in lt]
        return " ".join(str(v) for v in vals)

    def run(self):
        P = self.P
        n = P["nthreads"]
        st0 = ((0,) * n, (0,) * n, ((0,) * NLOCALS,) * n,
               (0,) * P["nplain"], (0,) * P["natomic"],
               (0,) * len(P["conds"]), (None,) * P["nmutex"],
               tuple(P["sem_init"]))
        if self.eager:
            starts = [(st0[0], (2,) * n) + st0[2:]]
        else:
            starts = [st0]
            for t in range(n):
                starts = [s2 for s in starts for s2 in self.settle(s, t)]
        stack = list(starts)
        while stack:
            st = stack.pop()
            if st in self.seen:
                continue
            self.seen.add(st)
            if len(self.seen) > self.max_states:
                raise TooBig()
            status = st[1]
            if all(s == 1 for s in status):
                self.outcomes.add(self.final(st))
                continue
            en = [t for t in range(n) if self.enabled(st, t)]
            if not en:
                self.outcomes.add("deadlock")
                continue
            for t in en:
                for s1 in self.step(st, t):
                    for s2 in self.settle(s1, t):
                        stack.append(s2)
        return self.outcomes


def outcomes(P, max_states=400000, eager_failures=False):
    """The set of outcomes of program P (raises TooBig)."""
    return Explorer(P, max_states, eager_failures).run()


if __name__ == "__main__":
    import sys
    from gen import generate
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 3):
        P = generate(seed, i)
        o = outcomes(P)
        print(i, len(o), sorted(o)[:8])
