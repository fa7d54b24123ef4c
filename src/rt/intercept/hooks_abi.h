/*
 * hooks_abi.h - what the plain-access hooks linked into the program share
 * with the runtime.
 *
 * A program built with ravel-cc calls a __tsan_readN/writeN hook for
 * every plain memory access: in a loop over an array, one call per
 * element. When those hooks live in libravel_rt.so, each call goes
 * through the program's PLT and each of the hook's globals through the
 * library's GOT, which on this project's machines cost more than all of
 * ThreadSanitizer's own check (whose runtime is linked into the
 * program). So the eight most frequent hooks, __tsan_read1/2/4/8 and
 * __tsan_write1/2/4/8, are also compiled into a small object that
 * ravel-cc and ravel_instrument() link into every instrumented
 * executable (tsan_local.c, installed as lib/ravel_hooks.o): the program's
 * calls then bind to them directly, and they do in the program what the
 * library's copies do - count the access, and when the thread is not
 * alone, call the runtime to check it. Shared libraries built with
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
 *   ravel__hook_read/write/quiet
 *                         the runtime's side of an access that is more
 *                         than counting; ravel__hook_readN/writeN the
 *                         same for an access of N = 1, 2, 4 or 8 bytes,
 *                         the size a constant in the runtime's copy (the
 *                         local hooks call these)
 *
 * RAVEL__HOOKS_ABI names the state with a version: a program whose hooks
 * were built against another layout fails to load ("undefined symbol:
 * ravel__hooks_abi_N") instead of miscounting. Change the number with
 * any change to this file's structures.
 */
#ifndef RAVEL_HOOKS_ABI_H
#define RAVEL_HOOKS_ABI_H

#include "../../model/model.h" /* struct ravel__plain_counts */

#define RAVEL__HOOKS_ABI ravel__hooks_abi_1

/* The first member of every worker (struct ravel__worker, rt.h). */
struct ravel__hook_view {
    /* The counts of the model thread this worker runs (in struct
     * ravel__thread); NULL while it runs none (rt.h: ravel__worker_bind
     * keeps it). */
    struct ravel__plain_counts *counts;
    void *stack_lo, *stack_hi; /* the worker's stack */
};

struct ravel__hooks_state {
    /* ravel__rt.executing: an execution runs in this process. */
    volatile bool executing;
    /* A plain access is checked (race.c: detection is on and
     * the thread is not alone). */
    bool race_check;
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

#endif
