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
void ravel__fiber_start(void);
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
    atomic_store(&w->abandon, 0);
    atomic_store(&w->state, RAVEL__W_IDLE);
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
    atomic_store(&w->state, RAVEL__W_BOUND);
}

static void fib_abandon_all(void)
{
    /* Parked fibers hold nothing but their stacks: forget them. */
    struct ravel__exec *x = ravel__rt.x;
    for (uint32_t s = 1; s < x->nthreads; s++) {
        struct ravel__worker *w = by_slot[s];
        if (!w)
            continue;
        ravel__worker_bind(w, RAVEL__NONE);
        w->started = false;
        atomic_store(&w->abandon, 0);
        atomic_store(&w->state, RAVEL__W_IDLE);
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

const struct ravel__backend ravel__backend_fiber = {
    "fibers",   fib_init_main, fib_main,   fib_get,
    fib_bind,   fib_of_slot,   fib_park,   fib_unpark,
    fib_abandon_all,
};
