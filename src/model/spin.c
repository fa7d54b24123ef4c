/*
 * spin.c - spin-waits end, and exploration stays exact.
 *
 * Programs wait in loops that only read: `while (!ready) {}`, the inner
 * loop of a test-and-test-and-set lock, a ticket lock's `while (now !=
 * mine) {}`, Peterson's `while (flag[other] && turn == other) {}`, a
 * seqlock reader's retry, a compare-exchange retried until it succeeds.
 * Under a controlled scheduler such a loop either never ends (the thread
 * keeps the baton) or, since every load is a scheduling point, it runs
 * until the step limit. Neither is a behaviour of the program.
 *
 * The rule (GenMC's "spin-assume", done at run time): an iteration of a
 * loop that has no side effect and goes round again is not a new
 * behaviour. Whatever it read, the same thread could have made its
 * reads later instead, after the write it waits for; that execution is
 * explored too. So when a thread comes back to a read it already made
 * since its last side effect, it waits there for the rest of the
 * execution (it is no longer enabled), and the execution does not count
 * as a trace: it is a longer form of one where the iteration did not
 * happen. This keeps DPOR's counts exact (GenMC's published counts for
 * the same programs), costs random and PCT nothing (the spinning thread
 * stops taking steps), and turns a wait that can never end into a
 * deadlock: when no thread can run, a thread waits in a spin loop and
 * no thread wrote anything its loop reads since it came round, the loop
 * spins forever, and the run reports it with the thread's stack.
 *
 * Once another thread writes what a waiting thread read, the execution
 * is cut (x->spin_cut; src/rt/sched.c ends it as blocked at the next
 * scheduling point): the waiting thread would go on natively, and
 * whatever the others do from here, they also do in the execution where
 * the iteration was not made yet, which the exploration covers (the
 * write and the iteration's read race, and DPOR reverses them).
 *
 * That is for the systematic strategies, which count traces. Random and
 * PCT (x->spin_wake) sample executions instead: a cut one is a sample
 * lost, and a pool whose creator spins until N workers are alive would
 * lose nearly all of them. There the write wakes the waiting thread
 * (Nidhugg's "await": block until another thread writes what the loop
 * read), the execution goes on as the real one in which the loop made
 * its vain iterations while the others ran, and it counts as any other.
 * A replay wakes too: an execution the cut rule recorded never went on
 * past the write, so both rules replay it alike.
 *
 * What counts. Reads: atomic loads, failed compare-exchanges, volatile
 * loads (ravel-cc makes them visible operations), promoted plain reads,
 * and read-modify-writes that left the value as it was (a test-and-set
 * spinlock's exchange while the lock is held: under sequential
 * consistency it changed nothing).
 * A fence or a sched_yield is neither a read nor a side effect, so that
 * `while (!ready) sched_yield();` is a spin-wait like `while (!ready) {}`
 * (before, it was left to the fairness rule of src/rt/sched.c, which
 * held the waiter back and so covered only fair schedules). Everything
 * else is a side effect and starts a new window: a store, a
 * read-modify-write that changed the value, a lock, a sleep (it moves
 * the virtual clock on), a clock read,
 * and any plain write to memory outside the thread's own stack (counted
 * per thread by the access hooks). A write to its own stack is what -O0
 * makes of a value optimised code keeps in a register (a loop
 * condition's temporaries, the result of atomic_load): not a side effect,
 * so that Peterson's loop is recognised at -O0 as at -O2. A read
 * is named by its instruction, the call depth and the call site of its
 * function, and its location: `f(); f();` from two call sites is not a
 * loop, the same call in a loop is.
 *
 * What the rule assumes: an iteration that only reads goes the same way
 * when it reads the same values. A loop whose exit depends on a counter
 * kept in a register (`for (i = 0; i < 3; i++) if (load(&x)) ...`) is
 * the exception; docs/limits.md says so.
 *
 * Under --memory-model rc11 a read may take an older store than the
 * newest one (src/rt/rc11.c flags it stale): an iteration with such a
 * read counts as one another thread wrote during, since the newer store
 * is already there for the next iteration to read (cut under the
 * systematic strategies, woken under random and PCT).
 *
 * The window holds RAVEL__SPIN_WINDOW reads; a loop that reads more
 * locations per iteration than that is not recognised (and runs until
 * the step limit, as before).
 */
#include "spin.h"

#include <string.h>

/* The name of a read: instruction, call depth and caller's call site. */
static uint64_t site_of(const struct ravel__thread *th, uint64_t pc)
{
    uint64_t caller =
        th->depth ? th->frames[(th->depth - 1) % RAVEL__STACK_FRAMES] : 0;
    uint64_t h = pc * 0x9e3779b97f4a7c15ULL;
    h ^= (caller + (th->depth << 1)) * 0xc2b2ae3d27d4eb4fULL;
    return h ^ (h >> 31);
}

static bool is_write(const struct ravel__event *ev)
{
    /* A buffered store (--memory-model tso) is seen by others only when
     * its flush writes memory. */
    return (ev->kind == RAVEL__OP_ATOMIC_STORE &&
            !(ev->flags & RAVEL__EV_BUFFERED)) ||
           (ev->kind == RAVEL__OP_ATOMIC_RMW && ev->value != ev->value2) ||
           (ev->kind == RAVEL__OP_ATOMIC_CAS && ev->aux) ||
           ev->kind == RAVEL__OP_PLAIN_WRITE || ev->kind == RAVEL__OP_FLUSH;
}

/* The program thread an event is by: a flush (--memory-model tso) is by
 * the thread whose buffer it drains, which saw its own store already. */
static uint32_t by(const struct ravel__event *ev)
{
    return ev->kind == RAVEL__OP_FLUSH ? ev->aux : ev->thread;
}

/* Did another thread write an object of th's iteration after th read it
 * (while th was going round)? */
static bool written_during(const struct ravel__exec *x, uint32_t t,
                           const struct ravel__thread *th)
{
    /* --memory-model rc11 (src/rt/rc11.c): a read that did not take the
     * newest store could have taken a newer one, written already: the
     * next iteration reads anew, as after a write. */
    if (x->memory_model == RAVEL__MM_RC11)
        for (uint32_t k = th->spin_from; k < th->spin_n; k++)
            if (x->events[th->spin_win[k].event].flags & RAVEL__EV_STALE)
                return true;
    for (uint32_t e = th->spin_win[th->spin_from].event + 1; e < x->nevents;
         e++) {
        const struct ravel__event *ev = &x->events[e];
        if (by(ev) == t || !is_write(ev))
            continue;
        for (uint32_t k = th->spin_from; k < th->spin_n; k++)
            if (th->spin_win[k].obj == ev->obj && th->spin_win[k].event < e)
                return true;
    }
    return false;
}

static bool pending_read(uint16_t kind)
{
    return kind == RAVEL__OP_ATOMIC_LOAD || kind == RAVEL__OP_ATOMIC_CAS ||
           kind == RAVEL__OP_ATOMIC_RMW || kind == RAVEL__OP_PLAIN_READ;
}

/* Does the instruction of read spin_win[i] read another location in the
 * iteration spin_win[k..n) too? */
static bool moves_within(const struct ravel__thread *th, uint32_t k,
                         uint32_t i)
{
    for (uint32_t j = k; j < th->spin_n; j++)
        if (th->spin_win[j].site == th->spin_win[i].site &&
            th->spin_win[j].obj != th->spin_win[i].obj)
            return true;
    return false;
}

/* Is the iteration spin_win[k..n) one whose repetition proves nothing
 * new under the one-iteration rule: no read in it also wrote the
 * thread's state (a failed compare-exchange updates the expected value,
 * so the next attempt differs), and it is not a walk along a list still
 * under way: an instruction that read another location before the
 * iteration and reads several in it (the walk entered a cycle after a
 * start, and may not have come back to where its state repeats). An
 * instruction that read other locations before but reads one location
 * throughout the iteration has settled: `for (j = 0; j < n; j++) while
 * (flag[j]) {}` at -O0, one load instruction whose index lives on the
 * stack, waits on flag[1] after flag[0] like the unrolled loops of -O2
 * (GenMC's lamport count). */
static bool plain_iteration(const struct ravel__thread *th, uint32_t k)
{
    for (uint32_t i = k; i < th->spin_n; i++) {
        const struct ravel__spin_read *r = &th->spin_win[i];
        if (r->carry)
            return false;
        for (uint32_t j = 0; j < k; j++)
            if (th->spin_win[j].site == r->site &&
                th->spin_win[j].obj != r->obj && moves_within(th, k, i))
                return false;
    }
    return true;
}

/* Did the iteration spin_win[k..n) read exactly what the one before it
 * read (the same instructions, locations and values)? */
static bool repeats(const struct ravel__thread *th, uint32_t k)
{
    uint32_t len = th->spin_n - k;
    if (k < len)
        return false;
    for (uint32_t i = 0; i < len; i++) {
        const struct ravel__spin_read *a = &th->spin_win[k - len + i],
                                      *b = &th->spin_win[k + i];
        if (a->site != b->site || a->obj != b->obj || a->value != b->value)
            return false;
    }
    return true;
}

/* Thread t waits from its read spin_win[k] on; false when, waking
 * rather than cutting, it need not: another thread already wrote what
 * the iteration read, so its next one reads anew. */
static bool block(struct ravel__exec *x, uint32_t t, uint32_t k, bool sure)
{
    struct ravel__thread *th = &x->threads[t];
    th->spin_from = (uint16_t)k;
    bool written = written_during(x, t, th);
    if (written && x->spin_wake)
        return false;
    th->spin_blocked = 1;
    th->spin_sure = sure;
    th->spin_written = written;
    x->spin_cut |= th->spin_written;
    x->spinning++;
    x->spun |= !x->spin_wake;
    return true;
}

bool ravel__spin_check(struct ravel__exec *x, uint32_t t)
{
    struct ravel__thread *th = &x->threads[t];
    const struct ravel__op *op = &th->pending;
    if (!th->spin_n || !pending_read(op->kind))
        return false;
    if (th->side_writes != th->spin_writes) {
        th->spin_n = 0; /* wrote memory since: not a read-only loop */
        return false;
    }
    uint64_t site = site_of(th, op->pc);
    uint32_t k = th->spin_n;
    while (k-- > 0)
        if (th->spin_win[k].site == site && th->spin_win[k].obj == op->obj)
            break;
    if (k == UINT32_MAX)
        return false;
    /* Round again: spin_win[k..n) is one iteration that only read. */
    bool sure = repeats(th, k);
    if (th->spin_verify) {
        /* Running alone (ravel__spin_release): only exact repeats prove
         * it spins forever. Keep the last iteration to compare with. */
        if (!sure)
            return false;
        uint32_t len = th->spin_n - k;
        memmove(th->spin_win, th->spin_win + k, len * sizeof *th->spin_win);
        th->spin_n = (uint16_t)len;
        if (++th->spin_proof < RAVEL__SPIN_PROOF)
            return false;
        return block(x, t, 0, true);
    }
    if (!sure && !plain_iteration(th, k))
        return false;
    return block(x, t, k, sure);
}

void ravel__spin_note(struct ravel__exec *x, uint32_t t,
                      const struct ravel__event *ev)
{
    struct ravel__thread *th = &x->threads[t];
    if (ravel__spin_is_read(ev)) {
        if (th->side_writes != th->spin_writes ||
            th->spin_n == RAVEL__SPIN_WINDOW) {
            th->spin_n = 0;
            th->spin_writes = th->side_writes;
        }
        th->spin_win[th->spin_n++] = (struct ravel__spin_read){
            site_of(th, ev->pc), ev->value, ev->obj,
            (uint32_t)(ev - x->events), ev->kind == RAVEL__OP_ATOMIC_CAS};
        return;
    }
    if (ev->kind == RAVEL__OP_FENCE || ev->kind == RAVEL__OP_YIELD)
        return;
    th->spin_n = 0;
    th->spin_verify = 0;
    th->spin_writes = th->side_writes;
    if (!x->spinning || !is_write(ev))
        return;
    /* A write: the threads waiting on this object would read anew. */
    uint32_t writer = by(ev);
    for (uint32_t u = 0; u < x->nthreads; u++) {
        struct ravel__thread *w = &x->threads[u];
        if (!w->spin_blocked || w->spin_written || u == writer)
            continue;
        for (uint32_t k = w->spin_from; k < w->spin_n; k++)
            if (w->spin_win[k].obj == ev->obj) {
                if (x->spin_wake) {
                    /* It reads anew, as a new window. */
                    w->spin_blocked = 0;
                    w->spin_n = 0;
                    w->spin_verify = 0;
                    x->spinning--;
                } else {
                    w->spin_written = 1;
                    x->spin_cut = 1;
                }
                break;
            }
    }
}

void ravel__spin_release(struct ravel__exec *x, uint32_t t)
{
    struct ravel__thread *th = &x->threads[t];
    th->spin_blocked = 0;
    th->spin_verify = 1;
    th->spin_proof = 0;
    x->spinning--;
}

uint32_t ravel__spin_stuck(const struct ravel__exec *x)
{
    uint32_t stuck = RAVEL__NONE;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        const struct ravel__thread *th = &x->threads[t];
        if (th->state != RAVEL__T_LIVE || !th->spin_blocked)
            continue;
        if (th->spin_written)
            return RAVEL__NONE;
        if (stuck == RAVEL__NONE)
            stuck = t;
    }
    return stuck;
}
