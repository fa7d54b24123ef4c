/*
 * sched.c - scheduling points: where the running thread stops, publishes
 * what it is about to do, and hands the baton to whoever the strategy
 * picks.
 *
 *     thread A (holds the baton)            thread B (parked)
 *     -------------------------------       ---------------------------
 *     reaches pthread_mutex_lock(m)
 *     publishes "lock m" (pending op)
 *     enabled = {threads whose pending
 *                op would not block}
 *     none enabled -> deadlock report
 *     strategy picks B
 *     unpark(B); park(A) ------------------> wakes in park()
 *                                           applies its own pending op
 *                                           runs to its next visible op
 *
 * The chosen thread always applies its own operation, and only after it
 * was chosen, so an operation is never applied while it would block
 * (blocking avoidance). The model (src/model) decides enabledness and
 * effects; this file only moves the baton and ends executions.
 *
 * Ending an execution: the thread holding the baton records why, then
 * thread 1 (the OS main thread, which runs the loop of executions) must
 * get control back. If the ender is thread 1 it longjmps to the loop;
 * otherwise it wakes thread 1, which sees `ended` and longjmps, and it
 * unwinds itself to the top of its worker loop.
 */
#include "rt.h"

#include "../common/hash.h"
#include "../model/spin.h"
#include "intercept/real.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The supervisor's watchdog sees the step counter move. Only the thread
 * holding the baton writes it (one at a time, handed over with the
 * baton), so a relaxed load and store do: no locked read-modify-write
 * at every step. */
static inline void bump_progress(void)
{
    _Atomic uint64_t *p = &ravel__rt.sh->progress;
    atomic_store_explicit(p, atomic_load_explicit(p, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    /* Run directly, the program's first execution prints as it goes. */
    if (RAVEL__UNLIKELY(ravel__rt.passing))
        ravel__passing_forward();
}

static void after_wake(struct ravel__worker *w)
{
    if (w->is_main) {
        if (ravel__rt.x->ended != RAVEL__END_NONE)
            longjmp(ravel__rt.loop, 1);
    } else if (atomic_load(&w->abandon)) {
        longjmp(w->base, 1);
    }
}

/* `ravel replay --gdb` sets a breakpoint here: the failing thread stops
 * with its own frames above. */
__attribute__((noinline, used)) void ravel__debug_stop(void);
__attribute__((noinline, used)) void ravel__debug_stop(void)
{
    __asm__ volatile("");
}

RAVEL__NORETURN void ravel__end_execution(struct ravel__worker *w)
{
    struct ravel__exec *x = ravel__rt.x;
    if (x->failure.kind != RAVEL__FAIL_NONE && ravel__rt.opt.debug_stop)
        ravel__debug_stop();
    if (x->ended == RAVEL__END_NONE)
        x->ended = RAVEL__END_FAILURE;
    x->running = w->slot;
    if (w->is_main)
        longjmp(ravel__rt.loop, 1);
    ravel__backend->unpark(ravel__backend->main());
    longjmp(w->base, 2);
}

RAVEL__NORETURN void ravel__fail_now(struct ravel__worker *w, uint8_t kind,
                                     uint64_t pc, const char *fmt, ...)
{
    struct ravel__exec *x = ravel__rt.x;
    char msg[RAVEL__MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ravel__fail(x, kind, w->slot, pc, "%s", msg);
    x->ended = RAVEL__END_FAILURE;
    ravel__end_execution(w);
}

static bool tool_failed;

RAVEL__NORETURN void ravel__block_execution(struct ravel__worker *w)
{
    ravel__rt.x->ended = RAVEL__END_BLOCKED;
    ravel__end_execution(w);
}

RAVEL__NORETURN void ravel__stop_at_thread_cap(struct ravel__worker *w,
                                               uint64_t pc)
{
    struct ravel__exec *x = ravel__rt.x;
    x->threads[w->slot].capped = 1;
    int rc;
    ravel__step(w, RAVEL__OP_CREATE, RAVEL__NONE, RAVEL__NONE, 0, pc, &rc);
    /* Never chosen again: the execution ends elsewhere. */
    ravel__tool_error(w, "a thread stopped at --max-threads ran again");
}

RAVEL__NORETURN void ravel__tool_error(struct ravel__worker *w,
                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ravel__rt.sh->error, sizeof ravel__rt.sh->error, fmt, ap);
    va_end(ap);
    tool_failed = true;
    ravel__rt.x->ended = RAVEL__END_FAILURE;
    ravel__end_execution(w);
}

static uint32_t choose_value(void *ctx, uint32_t n)
{
    struct ravel__worker *w = ctx;
    struct ravel__strategy *s = ravel__rt.strategy;
    uint64_t t0 = ravel__rt.opt.profile ? ravel__ticks() : 0;
    uint32_t v = s->ops->choose_value(s, ravel__rt.x, n);
    if (t0)
        ravel__rt.sh->prof_choose += ravel__ticks() - t0;
    if (v == RAVEL__CHOICE_BLOCKED)
        ravel__block_execution(w);
    if (v == RAVEL__CHOICE_ERROR)
        ravel__tool_error(w, "%s", s->error);
    return v;
}

uint32_t ravel__choose_data(struct ravel__worker *w, uint32_t n)
{
    struct ravel__exec *x = ravel__rt.x;
    if (n <= 1)
        return 0;
    if (x->nvchoices >= x->max_vchoices)
        ravel__tool_error(w, "one execution needs more than %d data choices",
                          RAVEL__MAX_VCHOICES);
    uint32_t v;
    if (!ravel__door || !ravel__door->choose || !ravel__door->choose(n, &v))
        v = choose_value(w, n);
    RAVEL__CHECK(v < n);
    x->vchoices[x->nvchoices++] = (struct ravel__vchoice){
        x->nevents, n, v, w->slot, x->threads[w->slot].steps, 1};
    x->choice_points++;
    return v;
}

/* Hands the baton to thread `next` (not the caller). */
static void give(struct ravel__worker *w, uint32_t next)
{
    struct ravel__exec *x = ravel__rt.x;
    struct ravel__worker *nw = ravel__backend->of_slot(next);
    RAVEL__CHECK(nw != NULL);
    x->running = next;
    atomic_store_explicit(&ravel__rt.sh->running_tid, nw->tid,
                          memory_order_relaxed);
    /* OS threads: the giver holds its signals before the other runs (a
     * handler must not run beside the baton's holder; backend/os.c). */
    if (ravel__backend == &ravel__backend_os && !w->sig_held)
        ravel__os_signals_hold(w);
    ravel__backend->unpark(nw);
}

/*
 * Fairness. A thread that yields, sleeps, times out or fails a try-
 * operation in a loop is waiting for another thread to do something; a
 * scheduler that keeps choosing it would spin forever, a schedule no
 * real system (and no fair scheduler) produces, and the step limit would
 * report a livelock that is not there. So, as in CHESS, such a thread is
 * held back until every thread that was enabled when it yielded has run
 * (or become disabled).
 *
 * But a rule that narrows the choices hides real executions: a worker
 * that calls usleep(1) and then takes a lock can take it before main's
 * next step on any machine. With the rule applied at every yield, DPOR
 * never offered that order, said "exhausted: all 1 traces" of a program
 * with two, and missed its assertion (tests/dpor/progs/sleep_first.c).
 * So the rule holds a thread back only where it loops: at a yield-like
 * step made at a code location where the thread already made one with
 * no other thread's step since (or after RAVEL__YIELD_PCS of them). A
 * sleep followed by a yield before a lock goes on as freely as any
 * step; `while (pthread_mutex_trylock(&m)) usleep(10);` is held back at
 * its second round. (A loop that only reads and yields is cut by the
 * spin-wait rule first: src/model/spin.c.) Where the rule keeps an
 * enabled thread from a choice, the execution says so (x->fair_held):
 * those choices were not all offered, and the run's guarantee says it
 * covers only the fair schedules.
 */
static bool yield_like(const struct ravel__event *ev)
{
    return ev->kind == RAVEL__OP_YIELD || ev->kind == RAVEL__OP_SLEEP ||
           (ev->flags & (RAVEL__EV_TIMEDOUT | RAVEL__EV_FAILED));
}

/* Threads with a non-empty yield_wait (fast path: usually none). */
static uint64_t yielders;

/* Thread t made the yield-like event ev, the last one: does it go round
 * a loop? It does when it made one at the same location before, with no
 * step of another thread between. The events scanned are t's own since
 * its previous yield-like one, each once. */
static bool yields_in_loop(struct ravel__exec *x, uint32_t t,
                           const struct ravel__event *ev)
{
    struct ravel__thread *th = &x->threads[t];
    uint32_t prev = th->yield_at; /* index + 1; 0: none */
    th->yield_at = x->nevents;
    bool alone = prev != 0 && prev < x->nevents; /* else none, or rolled
                                                   back with a section */
    for (uint32_t e = x->nevents - 1; alone && e-- > prev;)
        alone = x->events[e].thread == t;
    if (!alone)
        th->nyield_pcs = 0;
    for (uint32_t i = 0; i < th->nyield_pcs; i++)
        if (th->yield_pcs[i] == ev->pc)
            return true;
    if (th->nyield_pcs == RAVEL__YIELD_PCS)
        return true;
    th->yield_pcs[th->nyield_pcs++] = ev->pc;
    return false;
}

/* After thread t's step ev: update everyone's fairness waits. */
static __attribute__((noinline)) void
fairness_update(struct ravel__exec *x, uint32_t t,
                const struct ravel__event *ev)
{
    if (t >= 64)
        return;
    if (x->nevents == 1)
        yielders = 0; /* a new execution */
    uint64_t tb = 1ULL << t;
    for (uint64_t m = yielders; m; m &= m - 1) {
        uint32_t u = (uint32_t)__builtin_ctzll(m);
        if (u < x->nthreads && (x->threads[u].yield_wait &= ~tb) == 0)
            yielders &= ~(1ULL << u);
    }
    if (yield_like(ev) && yields_in_loop(x, t, ev)) {
        x->threads[t].yield_wait = x->threads[t].others_enabled;
        if (x->threads[t].yield_wait)
            yielders |= tb;
    }
}

/* Snapshots (process/resume.c): the fairness waits are in the threads,
 * and which threads have one here. */
bool ravel__sched_snap_put(void)
{
    return ravel__snap_put(&yielders, sizeof yielders) != NULL;
}

void ravel__sched_snap_get(void)
{
    ravel__snap_get_to(&yielders, sizeof yielders);
}

/* fairness_update, called after every step, inline for the common case:
 * no thread waits and this step is no yield. Nothing to do then, even at
 * an execution's first step (its reset of `yielders` finds it 0). */
static inline void fairness_after(struct ravel__exec *x, uint32_t t,
                                  const struct ravel__event *ev)
{
    if (RAVEL__LIKELY(!yielders) && !yield_like(ev))
        return;
    fairness_update(x, t, ev);
}

/* Drops threads waiting (by fairness) for others from enabled[]. */
static uint32_t fair_filter(const struct ravel__exec *x, uint32_t *enabled,
                            uint32_t n)
{
    if (!yielders)
        return n;
    uint64_t en = 0;
    for (uint32_t i = 0; i < n; i++)
        if (enabled[i] < 64)
            en |= 1ULL << enabled[i];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = enabled[i];
        if (t < 64 && (x->threads[t].yield_wait & en))
            continue;
        enabled[k++] = t;
    }
    return k ? k : n; /* everyone waits for everyone: let them all go */
}

/*
 * Chooses who performs the next step. `me` is the calling thread, which
 * has published its pending operation (or just finished). Returns the
 * chosen thread. Detects deadlock and the step limit.
 */
static uint32_t choose_next(struct ravel__worker *w, bool me_live)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t me = w->slot;
    if (RAVEL__UNLIKELY(x->spin_cut))
        ravel__block_execution(w); /* src/model/spin.c */
    if (x->nevents >= ravel__rt.opt.max_steps) {
        ravel__fail(x, RAVEL__FAIL_STEP_LIMIT, me,
                    me_live ? x->threads[me].pending.pc : 0,
                    "the execution exceeded %llu steps without ending "
                    "(possible livelock; raise %s if it is just long)",
                    (unsigned long long)ravel__rt.opt.max_steps,
                    ravel__rt.direct ? "RAVEL_OPTIONS=max_steps=N"
                                     : "--max-steps");
        ravel__end_execution(w);
    }
    uint32_t enabled[RAVEL__MAX_THREADS];
    ravel__fd_refresh(x); /* threads waiting on descriptors */
    uint64_t en_mask;
    uint32_t n = ravel__enabled(x, enabled, &en_mask);
    if (RAVEL__UNLIKELY(x->timeouts_late) && !ravel__rt.common->late_held &&
        ravel__late_holds(x))
        ravel__rt.common->late_held = 1;
    if (n == 0 && x->spinning) {
        /* Threads wait in spin loops (src/model/spin.c). If one of them
         * would go on, the execution only repeats a shorter one. If none
         * would, one that repeated an iteration exactly spins forever
         * natively: a deadlock; one that did not is let go alone to see
         * (a loop that carries a value from one iteration to the next
         * may leave). */
        uint32_t t = ravel__spin_stuck(x);
        if (t == RAVEL__NONE)
            ravel__block_execution(w);
        if (x->threads[t].spin_sure) {
            ravel__fail(x, RAVEL__FAIL_DEADLOCK, t, x->threads[t].pending.pc,
                        "thread %s spins forever: no thread can write what "
                        "its loop reads",
                        x->threads[t].name);
            ravel__end_execution(w);
        }
        ravel__spin_release(x, t);
        n = ravel__enabled(x, enabled, &en_mask);
    }
    bool cut;
    if (n == 0 && ravel__stuck_not_deadlocked(x, &cut)) {
        /* Waiting at a false assumption in an atomic section: the
         * execution is infeasible. Stopped at the thread cap: cut short. */
        x->ended = cut ? RAVEL__END_CUT : RAVEL__END_BLOCKED;
        ravel__end_execution(w);
    }
    if (n == 0) {
        uint32_t blocked = 0;
        for (uint32_t t = 0; t < x->nthreads; t++)
            blocked += x->threads[t].state == RAVEL__T_LIVE &&
                       !x->threads[t].sb_owner;
        ravel__fail(x, RAVEL__FAIL_DEADLOCK, me,
                    me_live ? x->threads[me].pending.pc : 0,
                    "no thread can make progress (%u thread%s blocked)",
                    blocked, blocked == 1 ? "" : "s");
        ravel__end_execution(w);
    }
    /* Inside an atomic section the thread goes on, unless it blocks
     * (waiting for its store buffer to drain, it drains it first). */
    if (me_live && x->threads[me].atomic) {
        if (ravel__op_enabled(x, me))
            return me;
        if (ravel__op_waits_buffer(x, me) &&
            ravel__op_enabled(x, x->threads[me].sb - 1))
            return x->threads[me].sb - 1;
    }
    uint32_t all = n;
    n = fair_filter(x, enabled, n);
    x->fair_held |= n != all;
    if (n > 1)
        x->choice_points++;
    uint64_t offered = en_mask; /* fairness dropped none: all of them */
    if (n != all) {
        offered = 0;
        for (uint32_t k = 0; k < n; k++)
            if (enabled[k] < 64)
                offered |= 1ULL << enabled[k];
    }
    x->choice_mask = offered;
    struct ravel__strategy *s = ravel__rt.strategy;
    uint64_t t0 = ravel__rt.opt.profile ? ravel__ticks() : 0;
    uint32_t i = s->ops->choose_thread(s, x, enabled, n, me);
    x->spin_wake = s->wake_spins; /* src/model/spin.c */
    if (t0)
        ravel__rt.sh->prof_choose += ravel__ticks() - t0;
    if (i == RAVEL__CHOICE_BLOCKED)
        ravel__block_execution(w);
    if (i == RAVEL__CHOICE_ERROR)
        ravel__tool_error(w, "%s", s->error);
    RAVEL__CHECK(i < n);
    uint32_t next = enabled[i];
    if (next != me && me_live && ravel__op_enabled(x, me) &&
        !x->threads[next].sb_owner)
        x->next_flags |= RAVEL__EV_PREEMPT;
    if (next < 64)
        x->threads[next].others_enabled = offered & ~(1ULL << next);
    return next;
}

/*
 * --memory-model tso: the strategy picked store-buffer pseudo-thread p
 * (src/rt/tso.c). No code runs on it: the calling thread, which holds
 * the baton, performs its flush as p's step.
 */
static void flush_step(struct ravel__worker *w, uint32_t p)
{
    struct ravel__exec *x = ravel__rt.x;
    struct ravel__event *ev;
    int rc = ravel__op_apply(x, p, choose_value, w, &ev);
    if (rc < 0)
        ravel__tool_error(w, "one execution needs more than %u events",
                          x->max_events);
    ravel__tso_flushed(x, p, ev);
    fairness_after(x, p, ev);
    ravel__spin_note(x, p, ev);
    bump_progress();
}

/* choose_next, performing the flushes the strategy picks on the way. */
static uint32_t choose_thread(struct ravel__worker *w, bool me_live)
{
    for (;;) {
        uint32_t next = choose_next(w, me_live);
        if (RAVEL__LIKELY(!ravel__rt.x->threads[next].sb_owner))
            return next;
        flush_step(w, next);
    }
}

struct ravel__event *ravel__step(struct ravel__worker *w, uint16_t kind,
                                 uint32_t obj, uint32_t obj2, int64_t arg,
                                 uint64_t pc, int *result)
{
    /* OS threads: a signal held since the thread parked may run its
     * handler now, between two operations, but not between the halves
     * of a wait (the thread is still a waiter until its wake-up step; a
     * handler's operations in between would stand for that step). */
    if (RAVEL__UNLIKELY(w->sig_held) && kind != RAVEL__OP_COND_WAKE &&
        kind != RAVEL__OP_BARRIER_LEAVE)
        ravel__os_signals_release(w);
    struct ravel__exec *x = ravel__rt.x;
    uint32_t me = w->slot;
    struct ravel__thread *th = &x->threads[me];
    th->pending = (struct ravel__op){kind, obj, obj2, pc, arg};
    ravel__note_pending(x, me);
    if (th->spin_n)
        ravel__spin_check(x, me);
    if (ravel__op_selfblock(x, me)) {
        x->ended = RAVEL__END_FAILURE;
        ravel__end_execution(w);
    }
    /* A snapshot here (process/resume.c) is where a later execution may
     * start: it returns a second time then, in that execution. */
    if (RAVEL__UNLIKELY(x->nevents >= ravel__snap_at))
        ravel__snap_take(w);
    uint32_t next = choose_thread(w, true);
    if (next != me) {
        give(w, next);
        ravel__backend->park(w);
        after_wake(w);
    }
    struct ravel__event *ev;
    int rc = ravel__op_apply(x, me, choose_value, w, &ev);
    if (rc >= 0) {
        fairness_after(x, me, ev);
        /* Atomics: once their memory effect is done (intercept/tsan.c). */
        if (!ravel__op_is_atomic_access(kind)) {
            ravel__spin_note(x, me, ev);
            if (ravel__race_on)
                ravel__race_event(ev, arg);
            if (RAVEL__UNLIKELY(x->memory_model == RAVEL__MM_RC11))
                ravel__rc11_sync(ev);
        }
    }
    if (rc == RAVEL__APPLY_MISUSE) {
        x->ended = RAVEL__END_FAILURE;
        ravel__end_execution(w);
    }
    if (rc == RAVEL__APPLY_FULL) {
        if (kind == RAVEL__OP_CREATE || kind == RAVEL__OP_ATOMIC_STORE)
            ravel__tool_error(w, "one execution creates more than %d threads, "
                                 "or nests thread creation too deep for "
                                 "thread names",
                              RAVEL__MAX_THREADS);
        ravel__tool_error(w, "one execution needs more than %d data choices",
                          RAVEL__MAX_VCHOICES);
    }
    bump_progress();
    *result = rc;
    return ev;
}

void ravel__thread_started(struct ravel__worker *w, uint64_t fn_pc)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t me = w->slot;
    RAVEL__CHECK(x->threads[me].pending.kind == RAVEL__OP_START);
    x->threads[me].pending.pc = fn_pc;
    x->threads[me].tid = w->tid;
    x->threads[me].depth = 0;
    x->threads[me].stack_id = 0;
    x->next_flags |= RAVEL__EV_EXACT_PC;
    struct ravel__event *ev;
    int rc = ravel__op_apply(x, me, choose_value, w, &ev);
    RAVEL__CHECK(rc == 0);
    fairness_after(x, me, ev);
    bump_progress();
}

/* After the calling thread finished: pass the baton on, or end the
 * execution when nobody is left. */
static void leave(struct ravel__worker *w)
{
    struct ravel__exec *x = ravel__rt.x;
    if (x->ended != RAVEL__END_NONE)
        ravel__end_execution(w);
    uint32_t next = choose_thread(w, false);
    give(w, next);
}

void ravel__thread_finish(struct ravel__worker *w, void *retval, uint64_t pc)
{
    struct ravel__exec *x = ravel__rt.x;
    /* Thread-specific data destructors run before the thread counts as
     * finished, as with pthreads: join returns after them. */
    ravel__keys_run_destructors();
    int rc;
    ravel__step(w, RAVEL__OP_FINISH, RAVEL__NONE, RAVEL__NONE,
                (int64_t)(uintptr_t)retval, pc, &rc);
    leave(w);
    if (w->is_main) {
        /* pthread_exit in main: the process lives on until the other
         * threads are done. */
        for (;;) {
            ravel__backend->park(w);
            if (x->ended != RAVEL__END_NONE)
                longjmp(ravel__rt.loop, 1);
        }
    }
}

RAVEL__NORETURN void ravel__program_exit(struct ravel__worker *w, int status,
                                         uint64_t pc, bool run_handlers)
{
    static bool exiting;
    struct ravel__exec *x = ravel__rt.x;
    if (exiting) {
        /* exit() from an exit handler: undefined in C; end here. */
        x->ended = RAVEL__END_EXIT;
        ravel__end_execution(w);
    }
    int rc;
    ravel__step(w, RAVEL__OP_EXIT, RAVEL__NONE, RAVEL__NONE, status, pc, &rc);
    if (run_handlers) {
        exiting = true;
        ravel__atexit_run();
        exiting = false;
    }
    x->ended = RAVEL__END_EXIT;
    ravel__end_execution(w);
}

bool ravel__tool_failed(void)
{
    bool f = tool_failed;
    tool_failed = false;
    return f;
}

uint32_t ravel__object(struct ravel__worker *w, const void *addr,
                       uint8_t kind, bool *created)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t i = ravel__obj_find(x, (uint64_t)(uintptr_t)addr, kind, created);
    if (i == RAVEL__NONE)
        ravel__tool_error(w,
                          "one execution uses more than %u synchronisation "
                          "objects",
                          x->max_objects);
    if (*created && x->objects[i].origin == RAVEL__ORIGIN_UNKNOWN) {
        struct ravel__object *o = &x->objects[i];
        uint64_t a = (uint64_t)(uintptr_t)addr, depth, where;
        uint32_t slot;
        struct ravel__heap_pos hp;
        /* The key names the memory the same way in every execution
         * (systematic strategies compare steps across executions). */
        o->key = ravel__hash_ptr(a);
        if (ravel__addr_global(a, &where)) {
            o->origin = RAVEL__ORIGIN_GLOBAL;
            o->key = ravel__hash_ptr(where ^ 0x474cULL);
        } else if (ravel__heap_origin(a, &hp)) {
            o->origin = RAVEL__ORIGIN_HEAP;
            o->origin_seq = hp.seq;
            o->origin_off = hp.off;
            if (hp.tkey)
                o->key = ravel__hash_ptr(hp.tkey ^ ravel__hash_ptr(
                                                        ((uint64_t)hp.tseq << 20) ^
                                                        hp.off ^ 0x4845ULL));
        } else if (ravel__stack_owner(a, &slot, &depth)) {
            o->origin = RAVEL__ORIGIN_STACK;
            o->origin_thread = slot;
            o->key = ravel__hash_ptr(x->threads[slot].key ^
                                     ravel__hash_ptr(depth ^ 0x5354ULL << 48));
        }
    }
    return i;
}

void ravel__object_forget(const void *addr)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t i = ravel__obj_peek(x, (uint64_t)(uintptr_t)addr);
    if (i != RAVEL__NONE)
        x->objects[i].kind = RAVEL__OBJ_NONE;
}

void ravel__begin_main(struct ravel__worker *w, uint64_t pc)
{
    uint32_t next = choose_next(w, true);
    RAVEL__CHECK(next == 0);
    ravel__thread_started(w, pc);
}

void ravel__thread_body(struct ravel__worker *w)
{
    w->prog_top = __builtin_frame_address(0);
    ravel__reset_thread_tls();
    ravel__race_thread_start(w);
    errno = 0;
    ravel__thread_started(w, (uint64_t)(uintptr_t)w->fn);
    void *ret = w->fn(w->arg);
    ravel__thread_finish(w, ret, 0);
}
