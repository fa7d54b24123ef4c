/*
 * intercept/thread.c - thread life cycle: create, join, detach, exit,
 * self/equal, once, thread-specific data keys, yield and sleeps.
 *
 * Each interceptor checks whether ravel controls the calling thread right
 * now (ravel__controlled); if not - before main, after the run, in a
 * thread ravel did not create - it calls the C library's own function.
 * Otherwise the call becomes a visible operation (ravel__step). errno is
 * preserved across everything ravel does, as the program would see it
 * natively.
 *
 * pthread_self and pthread_equal are interposed but are not scheduling
 * points: they read only the calling thread's own identity, which is
 * genuine because every program thread runs on a real OS thread, so a
 * scheduling point there would multiply interleavings without adding a
 * behaviour.
 */
#include "../rt.h"

#include "real.h"

#include <errno.h>
#include <time.h>

/* pthread_t of each program thread of the current execution. */
static pthread_t handles[RAVEL__MAX_THREADS];

/* Snapshots (process/resume.c): the handles of the execution's threads. */
bool ravel__thread_snap_put(void)
{
    return ravel__snap_put(handles,
                           ravel__rt.x->nthreads * sizeof *handles) != NULL;
}

void ravel__thread_snap_get(void)
{
    ravel__snap_get_to(handles, ravel__rt.x->nthreads * sizeof *handles);
}

/* The thread (of this execution) that `h` names, preferring one not yet
 * joined; RAVEL__NONE if it is not one of ours. */
static uint32_t slot_of(pthread_t h)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t found = RAVEL__NONE;
    for (uint32_t t = x->nthreads; t-- > 0;) {
        if (x->threads[t].state == RAVEL__T_UNUSED || ravel__is_sb(x, t))
            continue; /* store buffers (src/rt/tso.c) have no handle */
        pthread_t ht = t == 0 ? ravel__backend->main()->handle : handles[t];
        if (!pthread_equal(ht, h))
            continue;
        if (!x->threads[t].joined)
            return t;
        if (found == RAVEL__NONE)
            found = t;
    }
    return found;
}

/* Threads of the execution, not counting store buffers (src/rt/tso.c). */
static uint32_t program_threads(const struct ravel__exec *x)
{
    uint32_t n = x->nthreads;
    if (RAVEL__UNLIKELY(x->memory_model != RAVEL__MM_SC))
        for (uint32_t t = 0; t < x->nthreads; t++)
            n -= ravel__is_sb(x, t);
    return n;
}

RAVEL__EXPORT int pthread_create(pthread_t *out, const pthread_attr_t *attr,
                                 void *(*fn)(void *), void *arg)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_create)(out, attr, fn, arg);
    int saved = errno;
    /* Over --max-threads, or ravel's capacity: this thread stops here and
     * the execution is cut short once the others are done (END_CUT), its
     * guarantee says so; the run goes on. */
    uint64_t cap = ravel__rt.opt.max_threads;
    /* (A thread under --memory-model tso may take a store buffer's slot
     * too.) */
    uint32_t need = ravel__rt.x->memory_model == RAVEL__MM_TSO ? 2 : 1;
    if ((cap && program_threads(ravel__rt.x) > cap) ||
        ravel__rt.x->nthreads + need > RAVEL__MAX_THREADS)
        ravel__stop_at_thread_cap(w, RAVEL__CALLER_PC);
    int detach = PTHREAD_CREATE_JOINABLE;
    size_t stack = 0;
    if (attr) {
        pthread_attr_getdetachstate(attr, &detach);
        pthread_attr_getstacksize(attr, &stack);
    }
    int rc;
    struct ravel__event *ev =
        ravel__step(w, RAVEL__OP_CREATE, RAVEL__NONE, RAVEL__NONE,
                    detach == PTHREAD_CREATE_DETACHED, RAVEL__CALLER_PC, &rc);
    if (rc != 0) {
        errno = saved;
        return rc;
    }
    uint32_t child = ev->aux;
    struct ravel__worker *cw = ravel__backend->get(stack);
    if (!cw)
        ravel__tool_error(w, "the system refused a new OS thread for thread "
                             "%s",
                          ravel__rt.x->threads[child].name);
    cw->fn = fn;
    cw->arg = arg;
    if (!ravel__fibers())
        pthread_sigmask(SIG_SETMASK, NULL, &cw->start_mask);
    ravel__backend->bind(cw, child);
    ravel__rt.x->threads[child].tid = cw->tid;
    handles[child] = cw->handle;
    *out = cw->handle;
    errno = saved;
    return 0;
}

static int join_common(pthread_t t, void **retp, uint16_t kind, uint64_t pc)
{
    struct ravel__worker *w = ravel__controlled();
    int saved = errno;
    uint32_t slot = slot_of(t);
    if (slot == RAVEL__NONE) {
        errno = saved;
        return ESRCH;
    }
    int rc;
    struct ravel__event *ev =
        ravel__step(w, kind, slot, RAVEL__NONE, 0, pc, &rc);
    if (rc == 0 && retp)
        *retp = (void *)(uintptr_t)ev->value;
    errno = saved;
    return rc;
}

RAVEL__EXPORT int pthread_join(pthread_t t, void **retp)
{
    if (!ravel__controlled())
        return REAL(pthread_join)(t, retp);
    return join_common(t, retp, RAVEL__OP_JOIN, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_tryjoin_np(pthread_t t, void **retp)
{
    if (!ravel__controlled())
        return REAL(pthread_tryjoin_np)(t, retp);
    return join_common(t, retp, RAVEL__OP_TRYJOIN, RAVEL__CALLER_PC);
}

RAVEL__EXPORT int pthread_timedjoin_np(pthread_t t, void **retp,
                                       const struct timespec *abstime)
{
    if (!ravel__controlled())
        return REAL(pthread_timedjoin_np)(t, retp, abstime);
    ravel__vtime_deadline(CLOCK_REALTIME, abstime);
    return ravel__vtime_waited(
        join_common(t, retp, RAVEL__OP_TIMEDJOIN, RAVEL__CALLER_PC),
        CLOCK_REALTIME, abstime);
}

RAVEL__EXPORT int pthread_clockjoin_np(pthread_t t, void **retp,
                                       clockid_t clock,
                                       const struct timespec *abstime)
{
    if (!ravel__controlled())
        return REAL(pthread_clockjoin_np)
                   ? REAL(pthread_clockjoin_np)(t, retp, clock, abstime)
                   : ENOSYS;
    ravel__vtime_deadline(clock, abstime);
    return ravel__vtime_waited(
        join_common(t, retp, RAVEL__OP_TIMEDJOIN, RAVEL__CALLER_PC), clock,
        abstime);
}

RAVEL__EXPORT int pthread_detach(pthread_t t)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_detach)(t);
    int saved = errno;
    uint32_t slot = slot_of(t);
    if (slot == RAVEL__NONE) {
        errno = saved;
        return ESRCH;
    }
    int rc;
    ravel__step(w, RAVEL__OP_DETACH, slot, RAVEL__NONE, 0, RAVEL__CALLER_PC,
                &rc);
    errno = saved;
    return rc;
}

RAVEL__EXPORT void pthread_exit(void *retval)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w) {
        REAL(pthread_exit)(retval);
        __builtin_unreachable();
    }
    ravel__thread_finish(w, retval, RAVEL__CALLER_PC);
    /* Unwind the program's frames back to the worker loop. Cleanup
     * handlers (pthread_cleanup_push) are not run: see docs/limits.md. */
    longjmp(w->base, 3);
}

RAVEL__EXPORT pthread_t pthread_self(void)
{
    struct ravel__worker *w = ravel__self;
    if (w && !w->is_main && ravel__fibers())
        return w->handle; /* a fiber: its own handle */
    return REAL(pthread_self)();
}

/* Fibers share one OS thread, so they keep their own thread-specific
 * values; thread 1 and OS-thread workers use the C library's. */
RAVEL__EXPORT void *pthread_getspecific(pthread_key_t k)
{
    struct ravel__worker *w = ravel__self;
    if (w && !w->is_main && ravel__fibers())
        return ravel__fiber_getspecific(w, k);
    return REAL(pthread_getspecific)(k);
}

RAVEL__EXPORT int pthread_setspecific(pthread_key_t k, const void *v)
{
    struct ravel__worker *w = ravel__self;
    if (w && !w->is_main && ravel__fibers()) {
        ravel__fiber_setspecific(w, k, (uintptr_t)v);
        return 0;
    }
    return REAL(pthread_setspecific)(k, v);
}

/* glibc's <pthread.h> defines pthread_equal inline when optimising (so
 * optimised callers never reach this); the exported symbol is defined
 * under its assembler name to stay clear of that definition. */
RAVEL__EXPORT int ravel__pthread_equal(pthread_t a, pthread_t b)
    __asm__("pthread_equal");
RAVEL__EXPORT int ravel__pthread_equal(pthread_t a, pthread_t b)
{
    return a == b;
}

RAVEL__EXPORT int pthread_once(pthread_once_t *once, void (*init)(void))
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(pthread_once)(once, init);
    int saved = errno;
    bool created;
    uint32_t o = ravel__object(w, once, RAVEL__OBJ_ONCE, &created);
    if (created) {
        /* glibc marks a completed pthread_once_t with bit 1; the program's
         * memory is restored between executions, so this reads whether
         * it completed before main (in a constructor). */
        ravel__rt.x->objects[o].once_state =
            (*(volatile int *)once & 2) ? 2 : 0;
    }
    int rc;
    ravel__step(w, RAVEL__OP_ONCE, o, RAVEL__NONE, 0, RAVEL__CALLER_PC, &rc);
    if (rc == 1) {
        errno = saved;
        init();
        saved = errno;
        ravel__step(w, RAVEL__OP_ONCE_DONE, o, RAVEL__NONE, 0,
                    RAVEL__CALLER_PC, &rc);
    }
    errno = saved;
    return 0;
}

RAVEL__EXPORT int pthread_key_create(pthread_key_t *key,
                                     void (*dtor)(void *))
{
    int rc = REAL(pthread_key_create)(key, dtor);
    if (rc == 0 && ravel__rt.active)
        ravel__keys_record(*key, dtor);
    return rc;
}

RAVEL__EXPORT int pthread_key_delete(pthread_key_t key)
{
    if (ravel__rt.active)
        ravel__keys_forget(key);
    return REAL(pthread_key_delete)(key);
}

/* ---- yields and sleeps: a yield to the scheduler, and the virtual clock
 * (intercept/time.c) advances by the time asked ---------------------------- */

static void yield_step(struct ravel__worker *w, uint16_t kind, uint64_t pc)
{
    int saved = errno, rc;
    ravel__step(w, kind, RAVEL__NONE, RAVEL__NONE, 0, pc, &rc);
    errno = saved;
}

RAVEL__EXPORT int sched_yield(void)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sched_yield)();
    yield_step(w, RAVEL__OP_YIELD, RAVEL__CALLER_PC);
    return 0;
}

RAVEL__EXPORT unsigned sleep(unsigned seconds)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(sleep)(seconds);
    ravel__vtime_sleep_ns((uint64_t)seconds * 1000000000u);
    yield_step(w, RAVEL__OP_SLEEP, RAVEL__CALLER_PC);
    ravel__vtime_woke();
    return 0;
}

RAVEL__EXPORT int usleep(useconds_t usec)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(usleep)(usec);
    ravel__vtime_sleep_ns((uint64_t)usec * 1000u);
    yield_step(w, RAVEL__OP_SLEEP, RAVEL__CALLER_PC);
    ravel__vtime_woke();
    return 0;
}

RAVEL__EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(nanosleep)(req, rem);
    ravel__vtime_sleep(CLOCK_MONOTONIC, false, req);
    yield_step(w, RAVEL__OP_SLEEP, RAVEL__CALLER_PC);
    ravel__vtime_woke();
    if (rem)
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

RAVEL__EXPORT int clock_nanosleep(clockid_t clock, int flags,
                                  const struct timespec *req,
                                  struct timespec *rem)
{
    struct ravel__worker *w = ravel__controlled();
    if (!w)
        return REAL(clock_nanosleep)(clock, flags, req, rem);
    ravel__vtime_sleep(clock, (flags & TIMER_ABSTIME) != 0, req);
    yield_step(w, RAVEL__OP_SLEEP, RAVEL__CALLER_PC);
    ravel__vtime_woke();
    if (rem)
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}
