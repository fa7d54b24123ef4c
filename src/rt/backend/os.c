/*
 * backend/os.c - program threads on pooled OS threads.
 *
 * Every program thread runs on a real OS thread, so TLS, errno,
 * pthread_self and signal masks are all genuine. Creating an OS thread
 * costs about 60 us here, and a run does thousands of executions that
 * each create threads, so OS threads (workers) are kept in a pool: a
 * program thread that finishes returns its worker to the pool, and the
 * next pthread_create binds an idle one.
 *
 * A worker is reused only once its previous program thread has been
 * joined or detached, so that a pthread_t names one unjoined thread at a
 * time, as it does natively.
 *
 * The baton. Each worker has a futex word `go`:
 *
 *     0 no baton      1 baton given      2 owner asleep in futex_wait
 *
 * park spins briefly (the next handoff often comes within a
 * microsecond on another core) and then sleeps; unpark only makes
 * the futex_wake system call when the owner is actually asleep. Measured
 * on the 2-core machines this project runs on: about 0.3 us per handoff
 * with the spin, 3.6 us without (measured while designing it; `make bench`
 * shows the cost of a whole visible operation).
 */
#include "../rt.h"

#include "../intercept/real.h"

#include <errno.h>
#include <signal.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Spin iterations before sleeping in park: long enough to catch a
 * handoff from the other core (~100-300 ns), short enough not to steal
 * that core from the thread that got the baton. */
#define PARK_SPIN 100

/* Default stack of a pooled worker, as glibc's default thread stack. */
#define DEFAULT_STACK (8u << 20)

RAVEL__EXPORT _Thread_local struct ravel__worker *ravel__self
    __attribute__((tls_model("initial-exec")));

static struct ravel__worker main_worker;
static struct ravel__worker *workers; /* all pooled workers */
static struct ravel__worker *by_slot[RAVEL__MAX_THREADS];

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
    return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void wait_baton(struct ravel__worker *w)
{
    for (unsigned i = 0; i < PARK_SPIN; i++) {
        if (atomic_load_explicit(&w->go, memory_order_acquire) == 1) {
            atomic_store_explicit(&w->go, 0, memory_order_relaxed);
            return;
        }
        cpu_relax();
    }
    for (;;) {
        uint32_t expected = 0;
        if (atomic_compare_exchange_strong(&w->go, &expected, 2) ||
            expected == 2)
            futex(&w->go, FUTEX_WAIT_PRIVATE, 2);
        expected = 1;
        if (atomic_compare_exchange_strong(&w->go, &expected, 0))
            return;
    }
}

/* Signals left pending on a thread whose execution is over, or that
 * ended after a park: they were sent to that execution's threads, and a
 * handler run now would run the program's code where ravel unwinds it (a
 * handler that sleeps in a loop until another thread clears a flag never
 * returns). Dropped, except the stop signals, which are for ravel. Only
 * the blocked ones are looked at: the others were delivered. */
static void drop_pending(void)
{
    sigset_t pend, mask;
    if (sigpending(&pend) != 0 || pthread_sigmask(SIG_BLOCK, NULL, &mask))
        return;
    for (int sig = 1; sig < NSIG; sig++) {
        if (!sigismember(&pend, sig) || !sigismember(&mask, sig) ||
            sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
            continue;
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, sig);
        const struct timespec now = {0, 0};
        while (sigtimedwait(&one, NULL, &now) == sig)
            ;
    }
}

/* The signals held: all but the faults and the supervisor's probe. */
static void held_set(sigset_t *block)
{
    const int keep[] = {SIGSEGV, SIGBUS, SIGFPE,             SIGILL,
                        SIGTRAP, SIGSYS, RAVEL__PROBE_SIGNAL};
    sigfillset(block);
    for (size_t i = 0; i < sizeof keep / sizeof *keep; i++)
        sigdelset(block, keep[i]);
}

/*
 * A program thread's signals are held from the moment it passes the
 * baton on (sched.c, give) to the start of its next visible operation,
 * and from its creation to its first. A thread parks inside an emulated
 * call (a pthread_cond_wait, a lock, any visible operation), and a
 * handler run there, from another thread's pthread_kill, would run the
 * program's code in the middle of ravel's: before the baton came, its
 * operations were taken for the thread's, and the wait ended without its
 * mutex (C-Thread-Pool's pause, whose SIGUSR1 handler sleeps in a loop,
 * was reported as unlocking a mutex it did not hold); after it, but
 * before the operation was applied, two threads held one mutex. Held, the
 * signal stays pending and its handler runs where the thread's next
 * operation starts (ravel__os_signals_release, from ravel__step), when
 * everything before is done: as if it had arrived a little later, which
 * a signal may always do. Faults stay deliverable, and so does the
 * supervisor's stack probe.
 */
static void os_park(struct ravel__worker *w)
{
    if (w->slot == RAVEL__NONE) { /* an idle worker: all blocked already */
        wait_baton(w);
        return;
    }
    if (!w->sig_held)
        ravel__os_signals_hold(w);
    wait_baton(w);
    if (w->is_main ? ravel__rt.x->ended != RAVEL__END_NONE
                   : atomic_load(&w->abandon)) {
        /* The execution is over: what was sent to it goes with it. */
        drop_pending();
        w->sig_held = false;
        pthread_sigmask(SIG_SETMASK, &w->sig_mask, NULL);
    }
}

void ravel__os_signals_hold(struct ravel__worker *w)
{
    sigset_t block;
    held_set(&block);
    pthread_sigmask(SIG_BLOCK, &block, &w->sig_mask);
    w->sig_held = true;
}

void ravel__os_signals_release(struct ravel__worker *w)
{
    w->sig_held = false;
    sigset_t pend;
    if (sigpending(&pend) == 0)
        for (int sig = 1; sig < NSIG; sig++)
            if (sigismember(&pend, sig) && !sigismember(&w->sig_mask, sig)) {
                ravel__rt.sh->signals_handled = 1; /* the guarantee says so */
                break;
            }
    pthread_sigmask(SIG_SETMASK, &w->sig_mask, NULL);
}

static void os_unpark(struct ravel__worker *w)
{
    if (atomic_exchange(&w->go, 1) == 2)
        futex(&w->go, FUTEX_WAKE_PRIVATE, 1);
}

static void stack_bounds(struct ravel__worker *w)
{
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        void *lo;
        size_t size;
        if (pthread_attr_getstack(&a, &lo, &size) == 0) {
            w->stack_lo = lo;
            w->stack_hi = (char *)lo + size;
        }
        pthread_attr_destroy(&a);
    }
}

static void os_init_main(void)
{
    main_worker.is_main = true;
    main_worker.handle = pthread_self();
    main_worker.tid = (int)syscall(SYS_gettid);
    ravel__worker_bind(&main_worker, 0);
    main_worker.last_slot = RAVEL__NONE;
    atomic_store(&main_worker.state, RAVEL__W_BOUND);
    stack_bounds(&main_worker);
    ravel__self = &main_worker;
}

static struct ravel__worker *os_main(void)
{
    return &main_worker;
}

static struct ravel__worker *os_of_slot(uint32_t slot)
{
    if (slot == 0)
        return &main_worker;
    return slot < RAVEL__MAX_THREADS ? by_slot[slot] : NULL;
}

/* ---- the worker loop ------------------------------------------------- */

/* One program thread on worker w; it holds the baton on entry. */
static void run_thread(struct ravel__worker *w)
{
    /* Its creator's mask, held until its first operation after its
     * start (ravel__os_signals_release): a signal sent to it before it
     * ran must not run the handler before the thread has started. */
    sigset_t held;
    held_set(&held);
    w->sig_mask = w->start_mask;
    w->sig_held = true;
    pthread_sigmask(SIG_SETMASK, &held, NULL);
    ravel__thread_body(w);
}

static void *worker_main(void *p)
{
    struct ravel__worker *w = p;
    ravel__self = w;
    w->tid = (int)syscall(SYS_gettid);
    stack_bounds(w);
    ravel__crash_thread_init();
    atomic_store(&w->state, RAVEL__W_IDLE);
    futex(&w->state, FUTEX_WAKE_PRIVATE, INT32_MAX);
    for (;;) {
        os_park(w);
        if (!atomic_load(&w->abandon) && w->slot != RAVEL__NONE) {
            if (setjmp(w->base) == 0) {
                w->started = true;
                run_thread(w);
            }
        }
        /* Back to the pool. Only this worker's own state is touched:
         * another thread may already hold the baton. An idle worker takes
         * none of the program's signals. */
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, NULL);
        /* What was sent to the thread it ran and not delivered stays
         * with that thread (a later execution's thread would otherwise
         * run the handler, at no point the schedule knows). */
        w->sig_held = false;
        drop_pending();
        ravel__keys_clear_values();
        w->started = false;
        ravel__worker_bind(w, RAVEL__NONE);
        atomic_store(&w->abandon, 0);
        atomic_store(&w->state, RAVEL__W_IDLE);
        futex(&w->state, FUTEX_WAKE_PRIVATE, INT32_MAX);
    }
    return NULL;
}

/* ---- binding --------------------------------------------------------- */

/* Can w take a new program thread now? */
static bool reusable(struct ravel__worker *w, size_t stack_size)
{
    if (atomic_load(&w->state) != RAVEL__W_IDLE || w->stack_size < stack_size)
        return false;
    if (w->last_slot == RAVEL__NONE)
        return true;
    return ravel__rt.x->threads[w->last_slot].joined;
}

static struct ravel__worker *os_get(size_t stack_size)
{
    if (stack_size < DEFAULT_STACK)
        stack_size = DEFAULT_STACK;
    for (struct ravel__worker *w = workers; w; w = w->next)
        if (reusable(w, stack_size))
            return w;
    struct ravel__worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    ravel__worker_bind(w, RAVEL__NONE);
    w->last_slot = RAVEL__NONE;
    w->stack_size = stack_size;
    atomic_store(&w->state, RAVEL__W_BOUND); /* until it is ready */
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, stack_size);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    /* Workers start with every signal blocked; a program thread gets its
     * creator's mask when it starts (run_thread). */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = REAL(pthread_create)(&w->handle, &a, worker_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&a);
    if (rc != 0) {
        free(w);
        return NULL;
    }
    while (atomic_load(&w->state) != RAVEL__W_IDLE)
        futex(&w->state, FUTEX_WAIT_PRIVATE, RAVEL__W_BOUND);
    w->next = workers;
    workers = w;
    return w;
}

static void os_bind(struct ravel__worker *w, uint32_t slot)
{
    /* Forget the worker's previous (joined) thread. */
    if (w->last_slot != RAVEL__NONE)
        by_slot[w->last_slot] = NULL;
    w->last_slot = slot;
    ravel__worker_bind(w, slot);
    by_slot[slot] = w;
    atomic_store(&w->state, RAVEL__W_BOUND);
}


static void os_abandon_all(void)
{
    struct ravel__exec *x = ravel__rt.x;
    /* Threads still live are parked in ravel's code, except the one that
     * ended the execution, which is unwinding on its own. */
    for (uint32_t s = 1; s < x->nthreads; s++) {
        struct ravel__worker *w = by_slot[s];
        if (!w)
            continue;
        if (x->threads[s].state == RAVEL__T_LIVE && s != x->running) {
            atomic_store(&w->abandon, 1);
            os_unpark(w);
        }
    }
    for (uint32_t s = 1; s < x->nthreads; s++) {
        struct ravel__worker *w = by_slot[s];
        if (!w)
            continue;
        while (atomic_load(&w->state) != RAVEL__W_IDLE)
            futex(&w->state, FUTEX_WAIT_PRIVATE, RAVEL__W_BOUND);
        by_slot[s] = NULL;
    }
    for (struct ravel__worker *w = workers; w; w = w->next)
        w->last_slot = RAVEL__NONE;
}

const struct ravel__backend ravel__backend_os = {
    "os-threads", os_init_main, os_main,   os_get,
    os_bind,      os_of_slot,   os_park,   os_unpark,
    os_abandon_all,
};

const struct ravel__backend *ravel__backend = &ravel__backend_os;
