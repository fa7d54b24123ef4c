/*
 * hooks_abi.h - what the plain-access hooks linked into the program share
 * with the runtime.
 *
 * A program built with ravel-cc calls a __tsan_readN/writeN hook for
 * every plain memory access (in a loop over an array, one call per
 * element) and __tsan_func_entry/exit around every function. When those hooks live in libravel_rt.so, each call goes
 * through the program's PLT and each of the hook's globals through the
 * library's GOT, which on this project's machines cost more than all of
 * ThreadSanitizer's own check (whose runtime is linked into the
 * program). So the ten most frequent hooks, __tsan_read1/2/4/8,
 * __tsan_write1/2/4/8 and the function entry and exit, are also compiled
 * into a small object that
 * ravel-cc and ravel_instrument() link into every instrumented
 * executable (tsan_local.c, installed as lib/ravel_hooks.o): the program's
 * calls then bind to them directly, and they do in the program what the
 * library's copies do - count the access, and when the thread is not
 * alone, call the runtime to check it; push and pop the thread's shadow
 * call stack and follow its stack id in the stack depot (race.c), and
 * call the runtime only for what is more: a stack path the depot has not
 * led to from this node before, an SV-COMP special function. Shared
 * libraries built with
 * ravel-cc keep calling the library's copies (intercept/tsan.c); both
 * read the same state.
 *
 * This header is that state's layout, the whole contract between the two
 * binaries:
 *
 *   ravel__self           the running OS thread's worker (TLS, exported by
 *                         the runtime), read as a pointer to its first
 *                         member, a struct ravel__hook_view
 *   RAVEL__HOOKS_ABI      whether an execution runs, and whether plain
 *                         accesses are checked now (race.c keeps it)
 *   the counts         a struct ravel__hook_thread, the first member of
 *                         the model thread's struct ravel__thread: its
 *                         access counts, shadow-stack depth, stack id
 *   RAVEL__HOOKS_ABI      also: whether a module has special functions,
 *                         and the stack depot (NULL: no stack ids kept)
 *   ravel__hook_read/write/quiet
 *                         the runtime's side of an access that is more
 *                         than counting; ravel__hook_readN/writeN the
 *                         same for an access of N = 1, 2, 4 or 8 bytes,
 *                         the size a constant in the runtime's copy (the
 *                         local hooks call these)
 *   ravel__hook_enter_more, ravel__hook_leave_more
 *                         the runtime's side of a function entry or exit
 *                         that is more than the shadow stack's push or pop
 *
 * RAVEL__HOOKS_ABI names the state with a version: a program whose hooks
 * were built against another layout fails to load ("undefined symbol:
 * ravel__hooks_abi_N") instead of miscounting. Change the number with
 * any change to this file's structures.
 */
#ifndef RAVEL_HOOKS_ABI_H
#define RAVEL_HOOKS_ABI_H

#include "../../model/model.h" /* struct ravel__hook_thread */

#define RAVEL__HOOKS_ABI ravel__hooks_abi_2

/* The stack depot (race.c): a trie of call sites, one node per distinct
 * call path; a thread's stack id is its node. Each node remembers the
 * child it last led to: a call made again from the same site (any loop
 * that calls a function) finds its node without hashing. */
struct ravel__depot_node {
    uint64_t pc;
    uint32_t parent;
    uint32_t last_child; /* 0: none (node 0 is the empty stack) */
    uint64_t last_pc;    /* the call site that led to last_child */
};

/* The first member of every worker (struct ravel__worker, rt.h). */
struct ravel__hook_view {
    /* The model thread this worker runs, as its counts (the first member
     * of its struct ravel__hook_thread); NULL while it runs none (rt.h:
     * ravel__worker_bind keeps it, and frames). */
    struct ravel__plain_counts *counts;
    void *stack_lo, *stack_hi; /* the worker's stack */
    uint64_t *frames;          /* the thread's shadow-stack ring */
};

struct ravel__hooks_state {
    /* ravel__rt.executing: an execution runs in this process. */
    volatile bool executing;
    /* A plain access is checked (race.c: detection is on and
     * the thread is not alone). */
    bool race_check;
    /* A module has SV-COMP special functions (__VERIFIER_atomic_*,
     * reach_error): every function entry asks the runtime. */
    bool special_fns;
    /* The stack depot while the race detector keeps stack ids. */
    const struct ravel__depot_node *depot;
};

extern struct ravel__hooks_state RAVEL__HOOKS_ABI;

/* The runtime's side of a plain access by the calling thread, which
 * ravel controls: the race check (when race_check says so) of a read or
 * a write of `size` bytes at `a` made at `pc`; for a read whose count
 * reached quiet_at, the plain-spin check and then the race check. */
void ravel__hook_read(const void *a, uint64_t size, uint64_t pc);
void ravel__hook_write(const void *a, uint64_t size, uint64_t pc);
void ravel__hook_quiet(const void *a, uint64_t size, uint64_t pc);
#define RAVEL__HOOK_SIZED(n)                                                   \
    void ravel__hook_read##n(const void *a, uint64_t pc);                      \
    void ravel__hook_write##n(const void *a, uint64_t pc);
RAVEL__HOOK_SIZED(1)
RAVEL__HOOK_SIZED(2)
RAVEL__HOOK_SIZED(4)
RAVEL__HOOK_SIZED(8)
#undef RAVEL__HOOK_SIZED
/* The runtime's side of a function entry (after the push) that is more
 * than following the depot's remembered child: a new path, or a special
 * function (fn_pc: the entered function's code); and of an exit from
 * inside a __VERIFIER_atomic_* call (the whole exit). */
void ravel__hook_enter_more(uint64_t caller_pc, uint64_t fn_pc);
void ravel__hook_leave_more(void);

/*
 * One plain access, as both copies of the hooks do it: the runtime's
 * (tsan.c) and the program's (tsan_local.c), each passing its own way to
 * the running worker's view, to the state and to the slow paths (direct
 * calls in the runtime, calls into it from the program). Inline, `write`
 * and `size` constants: when the thread runs alone (nothing can race
 * with it), a hook only counts - no call, no saved register.
 */
static inline __attribute__((always_inline)) void
ravel__hook_access(const struct ravel__hook_view *v,
                   const struct ravel__hooks_state *st, const void *a,
                   uint64_t size, bool write, uint64_t pc,
                   void (*quiet)(const void *, uint64_t, uint64_t),
                   void (*check)(const void *, uint64_t, uint64_t))
{
    if (!v || !st->executing)
        return;
    struct ravel__plain_counts *c = v->counts;
    if (!c)
        return;
    if (write) {
        c->writes++;
        /* Side effects for the spin-wait rules: not the thread's own
         * stack (src/model/spin.c). */
        if ((const char *)a < (const char *)v->stack_lo ||
            (const char *)a >= (const char *)v->stack_hi)
            c->side_writes++;
    } else if (__builtin_expect(++c->reads >= c->quiet_at, 0)) {
        quiet(a, size, pc); /* the plain-spin check, then the race check */
        return;
    }
    if (st->race_check)
        check(a, size, pc);
}

/*
 * A function entry and exit, as both copies do them: push or pop the
 * shadow stack, and follow the stack id in the depot when the node
 * remembers the child (a loop calling a function: no hashing). What is
 * more goes to the runtime (more, in the runtime a direct call).
 */
static inline __attribute__((always_inline)) void
ravel__hook_enter(const struct ravel__hook_view *v,
                  const struct ravel__hooks_state *st, uint64_t caller_pc,
                  uint64_t fn_pc, void (*more)(uint64_t, uint64_t))
{
    if (!v || !st->executing)
        return;
    struct ravel__hook_thread *t = (struct ravel__hook_thread *)(void *)v->counts;
    if (!t)
        return;
    v->frames[t->depth % RAVEL__STACK_FRAMES] = caller_pc;
    t->depth++;
    const struct ravel__depot_node *depot = st->depot;
    if (__builtin_expect(st->special_fns, 0)) {
        more(caller_pc, fn_pc);
    } else if (depot) {
        const struct ravel__depot_node *n = &depot[t->stack_id];
        if (__builtin_expect(n->last_pc == caller_pc && n->last_child, 1))
            t->stack_id = n->last_child;
        else
            more(caller_pc, fn_pc);
    }
}

static inline __attribute__((always_inline)) void
ravel__hook_leave(const struct ravel__hook_view *v,
                  const struct ravel__hooks_state *st, void (*more)(void))
{
    if (!v || !st->executing)
        return;
    struct ravel__hook_thread *t = (struct ravel__hook_thread *)(void *)v->counts;
    if (!t)
        return;
    if (__builtin_expect(t->atomic_fn != 0, 0)) {
        more();
        return;
    }
    if (!t->depth)
        return;
    if (st->depot)
        t->stack_id = st->depot[t->stack_id].parent;
    t->depth--;
}

#endif
