/*
 * backend/fiber.c - program threads as fibers on one OS thread.
 *
 * Only one program thread runs at a time anyway, so they need not be OS
 * threads: here each is a fiber - a stack and a saved stack pointer - and
 * handing over the baton is a user-level switch (fiber_x86_64.S, about a
 * dozen instructions) instead of two futex calls and a kernel context
 * switch. Thread 1 is the process's main thread on its own stack; the
 * others run on pooled stacks with a guard page.
 *
 * What a fiber does not get for free, and how it gets it:
 *   _Thread_local   the instrumented modules' TLS blocks are saved and
 *                   restored at every switch (nothing to copy when the
 *                   program has none)
 *   errno           saved and restored at every switch
 *   pthread_self    a distinct handle per fiber (intercept/thread.c)
 *   thread-specific per-fiber values for pthread_get/setspecific
 *   data
 * What it cannot have - per-thread signal masks, signals to one thread,
 * thread names, affinity, its own kernel thread id - is why
 * ravel__choose_backend keeps OS threads for programs that import such
 * functions, and for replays under gdb.
 */
#include "../rt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Default stack of a fiber: glibc's default thread stack. The mapping is
 * reserved, not committed: untouched pages cost nothing. */
#define DEFAULT_STACK (8u << 20)
#define GUARD 4096

void ravel__fiber_switch(void **save_sp, void *new_sp);
void ravel__fiber_snap(void **save_sp, void (*fn)(void *), void *arg);
void ravel__fiber_start(void);
void ravel__fiber_call(void);
RAVEL__NORETURN void ravel__fiber_main(struct ravel__worker *w);

static struct ravel__worker main_worker;
static struct ravel__worker *fibers;
static struct ravel__worker *by_slot[RAVEL__MAX_THREADS];
/* The fiber to switch to at the next park (set by unpark). */
static struct ravel__worker *next_fiber;
static size_t tls_size;

static void fswitch(struct ravel__worker *from, struct ravel__worker *to)
{
    if (tls_size) {
        ravel__tls_save(from->tls);
        ravel__tls_load(to->tls);
        /* The same addresses now hold another thread's variables. */
        if (ravel__race_on)
            ravel__race_forget_tls();
    }
    from->saved_errno = errno;
    errno = to->saved_errno;
    ravel__self = to;
    to->ran++;
    ravel__fiber_switch(&from->sp, to->sp);
}

static void fib_park(struct ravel__worker *w)
{
    struct ravel__worker *n = next_fiber;
    next_fiber = NULL;
    RAVEL__CHECK(n != NULL);
    if (n != w)
        fswitch(w, n);
}

static void fib_unpark(struct ravel__worker *w)
{
    next_fiber = w;
}

static void fib_init_main(void)
{
    main_worker.is_main = true;
    main_worker.handle = pthread_self();
    main_worker.tid = (int)syscall(SYS_gettid);
    ravel__worker_bind(&main_worker, 0);
    main_worker.last_slot = RAVEL__NONE;
    atomic_store(&main_worker.state, RAVEL__W_BOUND);
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        void *lo;
        size_t size;
        if (pthread_attr_getstack(&a, &lo, &size) == 0) {
            main_worker.stack_lo = lo;
            main_worker.stack_hi = (char *)lo + size;
        }
        pthread_attr_destroy(&a);
    }
    tls_size = ravel__tls_total();
    if (tls_size) {
        main_worker.tls = calloc(1, tls_size);
        RAVEL__CHECK(main_worker.tls != NULL);
    }
    ravel__self = &main_worker;
}

static struct ravel__worker *fib_main(void)
{
    return &main_worker;
}

static struct ravel__worker *fib_of_slot(uint32_t slot)
{
    if (slot == 0)
        return &main_worker;
    return slot < RAVEL__MAX_THREADS ? by_slot[slot] : NULL;
}

RAVEL__NORETURN void ravel__fiber_main(struct ravel__worker *w)
{
    if (!atomic_load(&w->abandon) && w->slot != RAVEL__NONE &&
        setjmp(w->base) == 0) {
        w->started = true;
        ravel__thread_body(w);
    }
    /* The thread is over (finished, exited, or the execution ended): go
     * where the baton went. This context is never resumed: binding the
     * fiber again builds a fresh one. */
    w->started = false;
    ravel__worker_bind(w, RAVEL__NONE);
    atomic_store_explicit(&w->abandon, 0, memory_order_relaxed); /* one thread */
    atomic_store_explicit(&w->state, RAVEL__W_IDLE, memory_order_relaxed);
    struct ravel__worker *n = next_fiber;
    next_fiber = NULL;
    RAVEL__CHECK(n != NULL && n != w);
    fswitch(w, n);
    __builtin_unreachable();
}

static bool reusable(struct ravel__worker *w, size_t stack_size)
{
    if (atomic_load(&w->state) != RAVEL__W_IDLE ||
        w->stack_map_len - GUARD < stack_size)
        return false;
    if (w->last_slot == RAVEL__NONE)
        return true;
    return ravel__rt.x->threads[w->last_slot].joined;
}

static struct ravel__worker *fib_get(size_t stack_size)
{
    if (stack_size < DEFAULT_STACK)
        stack_size = DEFAULT_STACK;
    stack_size = (stack_size + 4095) & ~(size_t)4095;
    for (struct ravel__worker *w = fibers; w; w = w->next)
        if (reusable(w, stack_size))
            return w;
    struct ravel__worker *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    size_t len = stack_size + GUARD;
    void *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                     -1, 0);
    if (map == MAP_FAILED) {
        free(w);
        return NULL;
    }
    mprotect(map, GUARD, PROT_NONE);
    w->stack_map = map;
    w->stack_map_len = len;
    w->stack_lo = (char *)map + GUARD;
    w->stack_hi = (char *)map + len;
    w->stack_size = stack_size;
    ravel__worker_bind(w, RAVEL__NONE);
    w->last_slot = RAVEL__NONE;
    w->tid = main_worker.tid;
    w->handle = (pthread_t)(uintptr_t)w;
    if (tls_size) {
        w->tls = calloc(1, tls_size);
        if (!w->tls) {
            munmap(map, len);
            free(w);
            return NULL;
        }
    }
    atomic_store(&w->state, RAVEL__W_IDLE);
    w->next = fibers;
    fibers = w;
    return w;
}

/* A fresh context: the first switch to it "returns" into
 * ravel__fiber_start with the worker in r12 (see fiber_x86_64.S). The
 * return leaves the stack pointer 16-byte aligned, as the call that
 * ravel__fiber_start makes requires. */
static void fresh_context(struct ravel__worker *w)
{
    uintptr_t top = (uintptr_t)w->stack_hi & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(top - 64);
    sp[0] = 0x1F80ULL | (0x037FULL << 32); /* default MXCSR and x87 CW */
    sp[1] = 0;                             /* r15 */
    sp[2] = 0;                             /* r14 */
    sp[3] = 0;                             /* r13 */
    sp[4] = (uint64_t)(uintptr_t)w;        /* r12: the worker */
    sp[5] = 0;                             /* rbx */
    sp[6] = 0;                             /* rbp */
    sp[7] = (uint64_t)(uintptr_t)&ravel__fiber_start;
    w->sp = sp;
}

static void fib_bind(struct ravel__worker *w, uint32_t slot)
{
    if (w->last_slot != RAVEL__NONE)
        by_slot[w->last_slot] = NULL;
    w->last_slot = slot;
    ravel__worker_bind(w, slot);
    w->saved_errno = 0;
    if (w->tsd)
        memset(w->tsd, 0, PTHREAD_KEYS_MAX * sizeof *w->tsd);
    by_slot[slot] = w;
    fresh_context(w);
    w->ran++;
    atomic_store_explicit(&w->state, RAVEL__W_BOUND, memory_order_relaxed);
}

static void fib_abandon_all(void)
{
    /* Parked fibers hold nothing but their stacks: forget them. Relaxed,
     * as where a snapshot puts them back (load_fibers): every fiber runs
     * on this thread, and a sequentially consistent store is a locked
     * exchange, two per thread were 1% of fib_bench's time. */
    struct ravel__exec *x = ravel__rt.x;
    for (uint32_t s = 1; s < x->nthreads; s++) {
        struct ravel__worker *w = by_slot[s];
        if (!w)
            continue;
        ravel__worker_bind(w, RAVEL__NONE);
        w->started = false;
        atomic_store_explicit(&w->abandon, 0, memory_order_relaxed);
        atomic_store_explicit(&w->state, RAVEL__W_IDLE, memory_order_relaxed);
        by_slot[s] = NULL;
    }
    for (struct ravel__worker *w = fibers; w; w = w->next)
        w->last_slot = RAVEL__NONE;
    next_fiber = NULL;
}

void *ravel__fiber_getspecific(struct ravel__worker *w, pthread_key_t k)
{
    if (!w->tsd || k >= PTHREAD_KEYS_MAX)
        return NULL;
    return w->tsd[k];
}

void ravel__fiber_setspecific(struct ravel__worker *w, pthread_key_t k,
                              uintptr_t v)
{
    if (k >= PTHREAD_KEYS_MAX)
        return;
    if (!w->tsd) {
        w->tsd = calloc(PTHREAD_KEYS_MAX, sizeof *w->tsd);
        RAVEL__CHECK(w->tsd != NULL);
    }
    w->tsd[k] = (void *)v;
}

/* ---- snapshots (src/rt/process/resume.c) --------------------------------
 *
 * A fiber at a choice point is its worker (the saved stack pointer, its
 * binding, its errno and TLS block while switched out) and its stack
 * from the saved stack pointer to the top: for thread 1 up to the frame
 * that calls main (prog_top, the same address in every execution),
 * for the others up to the top of their own stack. Every fiber but the
 * one holding the baton is switched out already; that one is saved as a
 * switch would save it (ravel__fiber_snap), and the copy is made from
 * its own stack below what it saved. Putting the stacks back cannot be
 * done on thread 1's stack, which is one of them: it is done on a small
 * stack of its own (aux), from which the fiber that took the snapshot is
 * switched to, and returns from its ravel__fiber_snap a second time.
 *
 * The pool keeps every worker for the life of the process, so a worker
 * saved in a snapshot is still there to be put back; workers created
 * since are idle and stay so. Stacks are copied only up to
 * SNAP_STACK_MAX bytes each.
 *
 * A fiber's stack changes only while it runs: a parked one is as it was
 * at the last snapshot, and a snapshot refers to that one's copy instead
 * of copying it again (w->snap_copy: valid while the worker was neither
 * switched to nor bound since, w->ran). Nor does starting from a
 * snapshot copy back a stack that still holds the copy. Thread 1's
 * stack is the executor's own between executions: it is always put back.
 * On lastzero(15), sixteen threads of which few run between two
 * snapshots, the executor runs 200,800 instructions per execution with
 * snapshots and 236,200 without (callgrind).
 */
#define SNAP_STACK_MAX (256u << 10)
#define AUX_STACK (64u << 10)

static bool resumed;
static void *aux_map;
static void *aux_dead_sp; /* contexts switched away from for good */

/* What of a worker changes while it runs program threads (the rest is
 * set when it is created). Its jmp_buf (`base`) is not kept: it is
 * written when a thread starts on it, by the same call on the same stack
 * frame every time, and holds the same whichever thread that is. */
struct wsave {
    struct ravel__worker *w; /* NULL: the slot has no worker */
    void *(*fn)(void *);
    void *sp, *arg, *prog_top;
    struct ravel__plain_counts *counts;
    uint64_t *frames;
    uint32_t go, state, slot, last_slot, abandon;
    int saved_errno;
    bool started;
    bool race_here; /* race.c: a thread started on it in this execution */
    uint32_t stack_len; /* bytes of its stack */
    /* Last (not compared by --snapshots-check): where the copy is, in
     * this snapshot or an older one below it. */
    const unsigned char *stack;
};

/* The stack of worker w that a snapshot copies. */
static bool snap_range(const struct ravel__worker *w, uintptr_t *lo,
                       uintptr_t *hi)
{
    *lo = (uintptr_t)w->sp;
    *hi = w->is_main ? (uintptr_t)w->prog_top : (uintptr_t)w->stack_hi;
    return *lo && *hi > *lo && *hi - *lo <= SNAP_STACK_MAX;
}

struct fsave {
    struct ravel__worker *cur;
    uint32_t nthreads;
    uint64_t race_exec;
    bool ok;
};

/* Runs on the current fiber's stack, below the registers that
 * ravel__fiber_snap saved (see above). */
static void save_fibers(void *arg)
{
    struct fsave *c = arg;
    struct {
        struct ravel__worker *cur, *next;
        uint32_t n;
        int err;
    } head = {c->cur, next_fiber, c->nthreads, errno};
    c->ok = ravel__snap_put(&head, sizeof head) != NULL;
    for (uint32_t t = 0; t < c->nthreads && c->ok; t++) {
        struct ravel__worker *w = fib_of_slot(t);
        struct wsave *ws = ravel__snap_put(NULL, sizeof *ws);
        if (!ws) {
            c->ok = false;
            break;
        }
        memset(ws, 0, sizeof *ws);
        if (!w)
            continue;
        *ws = (struct wsave){w,
                             w->fn,
                             w->sp,
                             w->arg,
                             w->prog_top,
                             w->counts,
                             w->frames,
                             atomic_load_explicit(&w->go, memory_order_relaxed),
                             atomic_load_explicit(&w->state,
                                                  memory_order_relaxed),
                             w->slot,
                             w->last_slot,
                             atomic_load_explicit(&w->abandon,
                                                  memory_order_relaxed),
                             w->saved_errno,
                             w->started,
                             w->race_exec == c->race_exec,
                             0,
                             NULL};
        if (ws->state != RAVEL__W_BOUND)
            continue; /* a finished thread's worker: its binding only */
        uintptr_t lo, hi;
        if (!snap_range(w, &lo, &hi)) {
            c->ok = false;
            break;
        }
        ws->stack_len = (uint32_t)(hi - lo);
        if (w != c->cur && w->snap_copy && w->snap_ran == w->ran &&
            w->snap_sp == w->sp) {
            ws->stack = w->snap_copy; /* unchanged since that copy */
        } else {
            ws->stack = ravel__snap_put((const void *)lo, hi - lo);
            c->ok = ws->stack != NULL;
            /* The caller runs on: its stack changes without a switch. */
            w->snap_copy = w == c->cur ? NULL : ws->stack;
            w->snap_ran = w->ran;
            w->snap_sp = w->sp;
        }
        /* Its TLS block: live for the caller, saved at its last switch
         * for the others; a thread not started yet has none (its start
         * sets it afresh). */
        if (c->ok && tls_size && (w->is_main || w->started)) {
            void *tls = ravel__snap_put(NULL, tls_size);
            c->ok = tls != NULL;
            if (tls && w == c->cur)
                ravel__tls_save(tls);
            else if (tls)
                ravel__snap_copy(tls, w->tls, tls_size);
        }
    }
}

bool ravel__fiber_snapshot(struct ravel__worker *cur, uint32_t nthreads,
                           uint64_t race_exec, bool *ok)
{
    if (!aux_map) {
        void *m = mmap(NULL, AUX_STACK, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
        if (m == MAP_FAILED) {
            *ok = false;
            return false;
        }
        aux_map = m;
    }
    struct fsave c = {cur, nthreads, race_exec, false};
    resumed = false;
    ravel__fiber_snap(&cur->sp, save_fibers, &c);
    if (resumed) {
        resumed = false;
        return true;
    }
    *ok = c.ok;
    return false;
}

/* The fibers' part of two snapshots (--snapshots-check), compared but
 * for the stacks' bytes: a stack's unwritten slots (padding, locals not
 * yet set) hold what earlier executions left there. One may refer to an
 * older snapshot's copy where the other has its own. Returns the offset
 * in a of the first difference, or SIZE_MAX. */
size_t ravel__fiber_snap_diff(const unsigned char *a, size_t alen,
                              const unsigned char *b, size_t blen)
{
    struct head {
        struct ravel__worker *cur, *next;
        uint32_t n;
        int err;
    };
#define PAD(n) (((n) + 7) & ~(size_t)7)
    size_t ia = 0, ib = 0;
    /* n bytes at ia and ib alike; then past them */
#define SAME(n)                                                               \
    do {                                                                      \
        if (ia + (n) > alen || ib + (n) > blen)                               \
            return ia;                                                        \
        for (size_t i = 0; i < (n); i++)                                      \
            if (a[ia + i] != b[ib + i])                                       \
                return ia + i;                                                \
    } while (0)
    SAME(sizeof(struct head));
    uint32_t n = ((const struct head *)a)->n;
    ia += PAD(sizeof(struct head));
    ib += PAD(sizeof(struct head));
    for (uint32_t t = 0; t < n; t++) {
        SAME(offsetof(struct wsave, stack));
        const struct wsave *wa = (const struct wsave *)(a + ia),
                           *wb = (const struct wsave *)(b + ib);
        ia += PAD(sizeof *wa);
        ib += PAD(sizeof *wb);
        if (!wa->w || wa->state != RAVEL__W_BOUND)
            continue;
        if (wa->stack == a + ia) /* its own copy, here */
            ia += PAD(wa->stack_len);
        if (wb->stack == b + ib)
            ib += PAD(wb->stack_len);
        if (tls_size && (wa->w->is_main || wa->started)) {
            SAME(tls_size);
            ia += PAD(tls_size);
            ib += PAD(tls_size);
        }
    }
#undef SAME
#undef PAD
    return ia == alen && ib == blen ? SIZE_MAX : ia;
}

/* Copies of stacks at or above `above` in the arena are gone (their
 * snapshots were dropped, or never kept), and thread 1 ran ravel's own
 * code since: no worker refers to them. */
void ravel__fiber_snap_forget(const unsigned char *above)
{
    main_worker.snap_copy = NULL;
    for (struct ravel__worker *w = fibers; w; w = w->next)
        if (w->snap_copy >= above)
            w->snap_copy = NULL;
}

static uint64_t race_now;

/* Runs on the aux stack: the fibers back as the snapshot has them, then
 * on as the one that took it. */
static void load_fibers(void *arg)
{
    (void)arg;
    struct {
        struct ravel__worker *cur, *next;
        uint32_t n;
        int err;
    } head;
    ravel__snap_get_to(&head, sizeof head);
    next_fiber = head.next;
    for (uint32_t t = 0; t < head.n; t++) {
        const struct wsave *ws = ravel__snap_get(sizeof *ws);
        struct ravel__worker *w = ws->w;
        if (t > 0)
            by_slot[t] = w;
        if (!w)
            continue;
        w->sp = ws->sp;
        w->fn = ws->fn;
        w->arg = ws->arg;
        w->prog_top = ws->prog_top;
        w->counts = ws->counts;
        w->frames = ws->frames;
        /* race.c: "started on this stack in this execution" */
        w->race_exec = ws->race_here ? race_now : 0;
        atomic_store_explicit(&w->go, ws->go, memory_order_relaxed);
        atomic_store_explicit(&w->state, ws->state, memory_order_relaxed);
        w->slot = ws->slot;
        w->last_slot = ws->last_slot;
        atomic_store_explicit(&w->abandon, ws->abandon, memory_order_relaxed);
        w->saved_errno = ws->saved_errno;
        w->started = ws->started;
        if (ws->state != RAVEL__W_BOUND)
            continue;
        if (ws->stack == ravel__snapio.p) /* its own copy, here: past it */
            (void)ravel__snap_get(ws->stack_len);
        if (w->is_main || w->snap_copy != ws->stack ||
            w->snap_ran != w->ran || w->snap_sp != ws->sp)
            ravel__snap_copy(ws->sp, ws->stack, ws->stack_len);
        /* Its stack is that copy now, but for the one that runs on. */
        w->snap_copy = w == head.cur ? NULL : ws->stack;
        w->snap_ran = w->ran;
        w->snap_sp = w->sp;
        if (tls_size && (w->is_main || ws->started)) {
            const void *tls = ravel__snap_get(tls_size);
            if (w == head.cur)
                ravel__tls_load(tls);
            else
                ravel__snap_copy(w->tls, tls, tls_size);
        }
    }
    ravel__self = head.cur;
    errno = head.err;
    resumed = true;
    ravel__fiber_switch(&aux_dead_sp, head.cur->sp);
    __builtin_unreachable();
}

void ravel__fiber_resume(uint64_t race_exec)
{
    race_now = race_exec;
    /* A fresh frame on the aux stack (as fresh_context builds one) whose
     * return goes to ravel__fiber_call: load_fibers in r13. */
    uintptr_t top = ((uintptr_t)aux_map + AUX_STACK) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)(top - 64);
    sp[0] = 0x1F80ULL | (0x037FULL << 32);
    sp[1] = 0;                                       /* r15 */
    sp[2] = 0;                                       /* r14 */
    sp[3] = (uint64_t)(uintptr_t)&load_fibers;       /* r13 */
    sp[4] = 0;                                       /* r12 */
    sp[5] = 0;                                       /* rbx */
    sp[6] = 0;                                       /* rbp */
    sp[7] = (uint64_t)(uintptr_t)&ravel__fiber_call; /* return */
    ravel__fiber_switch(&aux_dead_sp, sp);
    __builtin_unreachable();
}

const struct ravel__backend ravel__backend_fiber = {
    "fibers",   fib_init_main, fib_main,   fib_get,
    fib_bind,   fib_of_slot,   fib_park,   fib_unpark,
    fib_abandon_all,
};
