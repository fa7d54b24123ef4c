/*
 * resume.c - starting an execution where an earlier one was, instead of
 * from main: snapshots of the program at choice points.
 *
 * A systematic search re-runs the program from the start for every
 * execution, and most of each run replays choices the last execution
 * made: on fib_bench an execution has 46 steps, of which 34 replay the
 * previous execution's, and the replay was half of its cost. But the
 * last execution already was where this one branches off, and the
 * program is deterministic (the search relies on it). So at some of its
 * choice points an execution saves what it is - a snapshot - and a later
 * execution that branches at or below that choice point starts from the
 * snapshot: it puts the program back as it was there, tells the strategy
 * which choice it is at, and goes on from the scheduling point where the
 * snapshot was taken, as if it had replayed everything before.
 *
 *     execution k      main ... t1 t2 t1 | t2 t1 t2 ... end
 *                                        ^ snapshot (choice c)
 *     execution k+1    (put back)        | t1 t2 ...      branches at
 *                                                         b >= c
 *
 * What a snapshot holds (it must be all that the execution changed):
 *
 *   the model      the execution's record (ravel__exec: its counters, its
 *                  threads, objects and their index); its events and data
 *                  choices are the log's first entries, which every later
 *                  execution through the same choices logs alike, so only
 *                  their counts are kept
 *   the fibers     every thread's stack from its saved stack pointer up,
 *                  its worker, errno and thread-local block
 *                  (backend/fiber.c)
 *   the program    the instrumented modules' globals (reset.c), argv's
 *                  strings, the pthread_t of each thread (thread.c)
 *   the runtime    the deferred race detector's log position and notes
 *                  (race/defer.c), the fairness waits (sched.c)
 *   the strategy   nothing: it knows what replaying the choices before
 *                  the snapshot would have left (its `resume` op)
 *
 * Everything else must not have changed yet, so a snapshot is taken only
 * when nothing else can have happened since the execution began:
 *
 *   - the run allows them: the fiber backend, sequential consistency, a
 *     systematic strategy, no door (pbt, unit), no program heap block
 *     allocated before main, and every function the instrumented modules
 *     import is one whose effect a snapshot holds or that changes nothing
 *     (IMPORTS below: threads, locks, atomics, pure string and number
 *     functions, malloc; no stdio, time, descriptors, signals, exit
 *     handlers or thread-specific data);
 *   - in the execution so far: only the visible operations of OK_KINDS
 *     (no sleep or timed wait, descriptor, section, promoted plain
 *     access or store-buffer flush), no heap allocation, the race
 *     detector still deferred (its real state is far larger), no output,
 *     no change of working directory or signal mask, no failure, spin
 *     cut or plain-memory spin.
 *
 * These are checked when a snapshot would be taken: the first failed
 * check ends the snapshots of that execution (they only get worse).
 *
 * Which snapshots hold. A snapshot taken before choice c holds for every
 * later execution of this lane that has made the same choices before c
 * from the same choice point: the strategy says, at each execution's
 * start, down to which choice point this one is the last one (`kept`),
 * and the snapshots deeper than that are dropped. They form a stack
 * along the lane's path, the deepest on top; the execution starts from
 * the top one (the strategy checks its identity once more) and replays
 * the choices between it and where it branches.
 *
 * Which choice points. A snapshot costs about as much as replaying a few
 * steps (copying a few kilobytes), and most are never used: later
 * executions branch at a few points. So one is taken where this
 * execution branches when the strategy says others will branch there
 * too (`kept`'s `more`), and otherwise only every SNAP_EVERY events (an
 * eighth of the events so far in a long execution, so that one of a
 * million steps takes about 85 and not 60,000).
 *
 * What it cannot know is what uninstrumented code keeps (the C library's
 * own state): hence the imports list. A program that reads anything the
 * scheduler does not control diverges under replay; under a snapshot it
 * simply goes on from a state it really had.
 */
#include "../rt.h"

#include "../../report/elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Events between two snapshots of an execution (see above). Of those
 * taken every 8 events, 84% (fib_bench) and 92% (lastzero(15)) were
 * never started from; with the branch point's own (sn.must), 12 and 16
 * were the fastest on the six DPOR benchmarks, 8 and 32 up to 10%
 * slower, none at all up to 20% (one lane, medians of 3, one run). */
#define SNAP_EVERY 16
/* Room for the snapshots of one path: reserved, touched as used. */
#define ARENA_SIZE ((size_t)64 << 20)
#define MAX_SNAPS 8192
/* A snapshot copies the instrumented modules' globals whole: above this,
 * copying them costs more than the replay it saves. */
#define GLOBALS_MAX ((size_t)64 << 10)

uint32_t ravel__snap_at = UINT32_MAX;

struct snap {
    uint32_t cursor; /* the strategy's choice it was taken before */
    uint64_t ident;
    uint32_t nevents; /* x->nevents then */
    void *prog_top;   /* thread 1's top frame then */
    size_t start, len;  /* its bytes in the arena */
};

static struct {
    int allowed; /* for the run: 0 unknown, 1 yes, -1 no */
    unsigned char *arena;
    struct snap s[MAX_SNAPS];
    uint32_t n;
    /* The snapshot this execution starts from (NULL: main); with
     * --snapshots-check, the one it replays up to and compares with. */
    const struct snap *from, *check;
    /* Events of this execution whose kinds were checked. */
    uint32_t checked;
    /* When the next snapshot is due: SNAP_EVERY events after the last
     * one, and at `must` (the events before the choice point this
     * execution branches at, when later ones will branch there too). */
    uint32_t next, must;
} sn;

static uint32_t due(void)
{
    return sn.next < sn.must ? sn.next : sn.must;
}

/* ---- what the run allows -------------------------------------------------- */

/* Functions an instrumented module may import with snapshots on: their
 * effects are what a snapshot holds (the model's objects, program
 * memory), or nothing, or something the checks above see (malloc). Any
 * other import turns snapshots off for the run. */
static const char *const IMPORTS[] = {
    /* threads, locks, semaphores (the model holds their state) */
    "pthread_create", "pthread_join", "pthread_tryjoin_np", "pthread_detach",
    "pthread_exit", "pthread_self", "pthread_equal", "pthread_once",
    "pthread_attr_init", "pthread_attr_destroy", "pthread_attr_setdetachstate",
    "pthread_attr_getdetachstate", "pthread_attr_setstacksize",
    "pthread_attr_getstacksize", "pthread_mutex_init", "pthread_mutex_destroy",
    "pthread_mutex_lock", "pthread_mutex_trylock", "pthread_mutex_unlock",
    "pthread_mutexattr_init", "pthread_mutexattr_destroy",
    "pthread_mutexattr_settype", "pthread_mutexattr_gettype",
    "pthread_cond_init", "pthread_cond_destroy", "pthread_cond_wait",
    "pthread_cond_signal", "pthread_cond_broadcast", "pthread_condattr_init",
    "pthread_condattr_destroy", "pthread_rwlock_init",
    "pthread_rwlock_destroy", "pthread_rwlock_rdlock", "pthread_rwlock_wrlock",
    "pthread_rwlock_tryrdlock", "pthread_rwlock_trywrlock",
    "pthread_rwlock_unlock", "pthread_spin_init", "pthread_spin_destroy",
    "pthread_spin_lock", "pthread_spin_trylock", "pthread_spin_unlock",
    "pthread_barrier_init", "pthread_barrier_destroy", "pthread_barrier_wait",
    "sem_init", "sem_destroy", "sem_wait", "sem_trywait", "sem_post",
    "sem_getvalue", "sched_yield",
    /* ends of an execution */
    "exit", "_exit", "_Exit", "abort", "__assert_fail", "__stack_chk_fail",
    /* start-up and shut-down glue every program has */
    "__libc_start_main", "__cxa_finalize", "__gmon_start__",
    "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable",
    /* memory: heap blocks are checked for, the rest writes program memory */
    "malloc", "calloc", "realloc", "free", "aligned_alloc",
    "posix_memalign", "memcpy", "memmove", "memset", "memcmp", "memchr",
    "__memcpy_chk", "__memmove_chk", "__memset_chk",
    /* strings and numbers: functions of their arguments */
    "strlen", "strnlen", "strcmp", "strncmp", "strcpy", "strncpy", "strcat",
    "strncat", "strchr", "strrchr", "strstr", "__strcpy_chk",
    "__strncpy_chk", "__strcat_chk", "atoi", "atol", "atoll", "strtol",
    "strtoul", "strtoll", "strtoull", "abs", "labs", "llabs", "snprintf",
    "sprintf", "__sprintf_chk", "__snprintf_chk", "sscanf",
    "__isoc99_sscanf", "qsort", "bsearch", "getenv",
    /* errno: the thread's own, kept with its fiber */
    "__errno_location",
    /* descriptors: their interceptors end the execution's snapshots
     * (ravel__snap_spoil), so that a test that writes its result at the
     * end still has snapshots before */
    "open", "open64", "openat", "close", "write", "writev", NULL,
};

static bool import_ok(const char *name)
{
    /* ravel's hooks and API (ravel.h), SV-COMP's functions: the model's
     * or the data choices' (sections and outputs are checked at run
     * time: their kinds and flags). */
    if (!strncmp(name, "__tsan_", 7) || !strncmp(name, "ravel_", 6) ||
        !strncmp(name, "__VERIFIER_", 11) || !strcmp(name, "reach_error"))
        return true;
    for (size_t i = 0; IMPORTS[i]; i++)
        if (!strcmp(name, IMPORTS[i]))
            return true;
    return false;
}

/* Set by modules.c when an instrumented module imports something else
 * (the first such name, for the summary's snapshots.off). */
static char foreign_import[64];

void ravel__snap_check_imports(const struct ravel__elf *e)
{
    if (!e) {
        if (!foreign_import[0])
            snprintf(foreign_import, sizeof foreign_import,
                     "a module whose imports could not be read");
        return;
    }
    for (size_t i = 0; i < e->nimports && !foreign_import[0]; i++)
        if (!import_ok(e->imports[i]))
            snprintf(foreign_import, sizeof foreign_import, "imports %s",
                     e->imports[i]);
}

bool ravel__snap_imports_listed(void)
{
    return !foreign_import[0];
}

static bool run_allows(void)
{
    struct ravel__rt *rt = &ravel__rt;
    if (sn.allowed == 0) {
        const char *why = NULL;
        if (!rt->opt.snapshots)
            why = "--no-snapshots";
#if !defined(__x86_64__)
        else if (true)
            why = "no fiber backend on this machine";
#endif
        else if (!ravel__fibers())
            why = "OS threads";
        else if (!rt->strategy->ops->here)
            why = "not a systematic strategy";
        else if (rt->x->memory_model != RAVEL__MM_SC)
            why = "a relaxed memory model";
        else if (ravel__door)
            why = "a door drives the run";
        else if (!ravel__heap_untouched())
            why = "heap blocks from before main";
        else if (ravel__reset_data_size() > GLOBALS_MAX)
            why = "globals too large to copy at every snapshot";
        else if (foreign_import[0])
            why = foreign_import; /* "imports NAME" */
        if (!why) {
            void *m = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                           0);
            if (m == MAP_FAILED)
                why = "no memory";
            else
                sn.arena = m;
        }
        sn.allowed = why ? -1 : 1;
        if (why)
            snprintf(rt->sh->snap_off, sizeof rt->sh->snap_off, "%s", why);
    }
    return sn.allowed > 0;
}

/* ---- what the execution allows ------------------------------------------ */

/* Visible operations whose whole effect is in the model and program
 * memory. Not: sleeps and timed waits (the virtual clock), descriptor
 * operations, atomic sections (their own checkpoint), promoted plain
 * accesses (race-directed scheduling), store-buffer flushes. */
static bool kind_ok(uint16_t k)
{
    switch (k) {
    case RAVEL__OP_START: case RAVEL__OP_FINISH: case RAVEL__OP_CREATE:
    case RAVEL__OP_JOIN: case RAVEL__OP_TRYJOIN: case RAVEL__OP_DETACH:
    case RAVEL__OP_YIELD: case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_MUTEX_TRYLOCK: case RAVEL__OP_MUTEX_UNLOCK:
    case RAVEL__OP_MUTEX_DESTROY: case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_WAKE: case RAVEL__OP_COND_SIGNAL:
    case RAVEL__OP_COND_BROADCAST: case RAVEL__OP_RW_RDLOCK:
    case RAVEL__OP_RW_TRYRDLOCK: case RAVEL__OP_RW_WRLOCK:
    case RAVEL__OP_RW_TRYWRLOCK: case RAVEL__OP_RW_UNLOCK:
    case RAVEL__OP_RW_DESTROY: case RAVEL__OP_SEM_WAIT:
    case RAVEL__OP_SEM_TRYWAIT: case RAVEL__OP_SEM_POST:
    case RAVEL__OP_SEM_GETVALUE: case RAVEL__OP_SEM_DESTROY:
    case RAVEL__OP_BARRIER_WAIT: case RAVEL__OP_BARRIER_LEAVE:
    case RAVEL__OP_SPIN_LOCK: case RAVEL__OP_SPIN_TRYLOCK:
    case RAVEL__OP_SPIN_UNLOCK: case RAVEL__OP_ONCE: case RAVEL__OP_ONCE_DONE:
    case RAVEL__OP_ATOMIC_LOAD: case RAVEL__OP_ATOMIC_STORE:
    case RAVEL__OP_ATOMIC_RMW: case RAVEL__OP_ATOMIC_CAS:
    case RAVEL__OP_FENCE:
        return true;
    default:
        return false;
    }
}

static bool execution_allows(const struct ravel__exec *x)
{
    if (x->ended != RAVEL__END_NONE || x->failure.kind != RAVEL__FAIL_NONE ||
        x->heap_seq || x->nquiet || x->spun || x->spin_cut || x->fair_held ||
        x->section_waiters || x->timeouts_late ||
        (ravel__race_on && !ravel__defer_on) || ravel__changed_cwd ||
        ravel__changed_sigmask || ravel__changed_stdio || ravel__wrote_raw ||
        ravel__made_fd || !ravel__heap_untouched())
        return false;
    for (; sn.checked < x->nevents; sn.checked++)
        if (!kind_ok(x->events[sn.checked].kind))
            return false;
    /* What the threads are about to do is in their state already (a
     * timed wait's deadline, say). */
    for (uint32_t t = 0; t < x->nthreads; t++)
        if (x->threads[t].state == RAVEL__T_LIVE &&
            (!kind_ok(x->threads[t].pending.kind) || x->threads[t].atomic))
            return false;
    return true;
}

/* ---- the arena ---------------------------------------------------------- */

struct ravel__snapio ravel__snapio;

static size_t arena_used(void)
{
    return sn.n ? sn.s[sn.n - 1].start + sn.s[sn.n - 1].len : 0;
}

/* ---- the model's part ---------------------------------------------------- */

/* The record's counters, from nthreads to the quiet-spin fields (the
 * capacities before them never change; what follows is empty until the
 * execution fails, and the clock is kept apart). */
#define HEAD_FROM offsetof(struct ravel__exec, nthreads)
#define HEAD_TO offsetof(struct ravel__exec, quiet_thread)

static bool put_model(const struct ravel__exec *x)
{
    if (!ravel__snap_put((const char *)x + HEAD_FROM, HEAD_TO - HEAD_FROM) ||
        !ravel__snap_put(&x->vnow, sizeof x->vnow))
        return false;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        const struct ravel__thread *th = &x->threads[t];
        uint32_t nframes = th->depth < RAVEL__STACK_FRAMES
                               ? (uint32_t)th->depth
                               : RAVEL__STACK_FRAMES;
        if (!ravel__snap_put(th, RAVEL__THREAD_CLEARED) ||
            !ravel__snap_put(th->held, th->nheld * sizeof *th->held) ||
            !ravel__snap_put(th->spin_win, th->spin_n * sizeof *th->spin_win) ||
            !ravel__snap_put(th->frames, nframes * sizeof *th->frames))
            return false;
    }
    return ravel__snap_put(x->objects, x->nobjects * sizeof *x->objects) !=
           NULL;
}

/* After ravel__exec_begin started this execution afresh. */
static void get_model(struct ravel__exec *x)
{
    ravel__snap_get_to((char *)x + HEAD_FROM, HEAD_TO - HEAD_FROM);
    ravel__snap_get_to(&x->vnow, sizeof x->vnow);
    for (uint32_t t = 0; t < x->nthreads; t++) {
        struct ravel__thread *th = &x->threads[t];
        ravel__snap_get_to(th, RAVEL__THREAD_CLEARED);
        uint32_t nframes = th->depth < RAVEL__STACK_FRAMES
                               ? (uint32_t)th->depth
                               : RAVEL__STACK_FRAMES;
        ravel__snap_get_to(th->held, th->nheld * sizeof *th->held);
        ravel__snap_get_to(th->spin_win, th->spin_n * sizeof *th->spin_win);
        ravel__snap_get_to(th->frames, nframes * sizeof *th->frames);
    }
    ravel__snap_get_to(x->objects, x->nobjects * sizeof *x->objects);
    for (uint32_t i = 0; i < x->nobjects; i++)
        x->index[x->objects[i].slot] = i + 1;
}

/* ---- taking one ------------------------------------------------------------ */

static void stop_for_this_execution(void)
{
    ravel__snap_at = UINT32_MAX;
}

/* The parts of a snapshot, in the order put and got (their names for
 * --snapshots-check). */
static const char *const PARTS[] = {
    "model", "race detector", "fairness waits", "thread handles",
    "globals and argv", "fibers",
};

/* Writes the execution's state from ravel__snapio.p on; false when the
 * arena is full. at[] gets where each part ends. Returns twice (true
 * both times) when an execution resumes from what it wrote: *resumed
 * says which. */
static bool put_all(struct ravel__worker *w, size_t at[6], bool *resumed)
{
    const struct ravel__exec *x = ravel__rt.x;
    unsigned char *base = ravel__snapio.p;
    *resumed = false;
    bool ok = put_model(x);
    at[0] = (size_t)(ravel__snapio.p - base);
    ok = ok && ravel__defer_snap_put();
    at[1] = (size_t)(ravel__snapio.p - base);
    ok = ok && ravel__sched_snap_put();
    at[2] = (size_t)(ravel__snapio.p - base);
    ok = ok && ravel__thread_snap_put();
    at[3] = (size_t)(ravel__snapio.p - base);
    ok = ok && ravel__reset_snap_put();
    at[4] = (size_t)(ravel__snapio.p - base);
#if defined(__x86_64__)
    if (ok && ravel__fiber_snapshot(w, x->nthreads, ravel__race_exec_count(),
                                    &ok)) {
        *resumed = true;
        return true;
    }
#else
    (void)w;
    ok = false;
#endif
    at[5] = (size_t)(ravel__snapio.p - base);
    return ok;
}

/* --snapshots-check: this execution replayed to where snapshot s was
 * taken, and wrote its state after it (mine, its parts ending at at[]):
 * it must be s, byte for byte, but for the stacks' bytes (fiber.c's
 * diff says why; their saved stack pointers and lengths are compared). */
static void check_against(struct ravel__worker *w, const struct snap *s,
                          const unsigned char *mine, const size_t at[6])
{
    const unsigned char *theirs = sn.arena + s->start;
    size_t k = 0;
    while (k < at[4] && k < s->len && mine[k] == theirs[k])
        k++;
    if (k == at[4]) {
        size_t d = SIZE_MAX;
#if defined(__x86_64__)
        d = ravel__fiber_snap_diff(mine + k, at[5] - k, theirs + k,
                                   s->len - k);
#endif
        if (d == SIZE_MAX)
            return;
        k += d;
    }
    unsigned part = 0;
    while (part < 5 && k >= at[part])
        part++;
    ravel__tool_error(w,
                      "snapshot check: execution %llu replayed to choice %u "
                      "differs from its snapshot in the %s (byte %zu of "
                      "%zu, snapshot %zu)",
                      (unsigned long long)ravel__rt.x->number, s->cursor,
                      PARTS[part], k, at[5], s->len);
}

void ravel__snap_take(struct ravel__worker *w)
{
    struct ravel__rt *rt = &ravel__rt;
    struct ravel__exec *x = rt->x;
    const struct snap *chk = sn.check;
    uint64_t ident = 0;
    uint32_t cursor;
    if (chk && x->nevents >= chk->nevents) {
        /* --snapshots-check: here, the state goes after the snapshot's
         * bytes (as a new snapshot's would) and is compared with them. */
        sn.check = NULL;
        cursor = rt->strategy->ops->here(rt->strategy, &ident);
        if (x->nevents != chk->nevents || cursor != chk->cursor ||
            ident != chk->ident)
            ravel__tool_error(w,
                              "snapshot check: execution %llu did not stop "
                              "where its snapshot was taken (choice %u, "
                              "event %u)",
                              (unsigned long long)x->number, chk->cursor,
                              chk->nevents);
    } else {
        chk = NULL;
        if (!execution_allows(x) || sn.n == MAX_SNAPS) {
            stop_for_this_execution();
            return;
        }
        cursor = rt->strategy->ops->here(rt->strategy, &ident);
        if (cursor == RAVEL__NONE ||
            (sn.n && sn.s[sn.n - 1].cursor >= cursor)) {
            /* No choice here a later execution could start at, or the
             * one this execution started from (or replayed to): the
             * next. */
            if (sn.must <= x->nevents)
                sn.must = UINT32_MAX;
            ravel__snap_at = x->nevents + 1;
            return;
        }
    }
    size_t mark = arena_used();
    ravel__snapio.p = sn.arena + mark;
    ravel__snapio.end = sn.arena + ARENA_SIZE;
    size_t at[6];
    bool resumed;
    struct snap rec = {cursor, ident, x->nevents,
                       ravel__backend->main()->prog_top, mark, 0};
    bool ok = put_all(w, at, &resumed);
    if (resumed)
        return; /* a later execution, started from here (snap_enter) */
    if (chk || !ok) {
        if (chk && ok)
            check_against(w, chk, sn.arena + mark, at);
#if defined(__x86_64__)
        ravel__fiber_snap_forget(sn.arena + mark);
#endif
        if (chk)
            ravel__snap_at = x->nevents + 1;
        else
            stop_for_this_execution();
        return;
    }
    rec.len = at[5];
    sn.s[sn.n++] = rec;
    rt->sh->snap_taken++;
    /* Farther apart in a long execution: as many snapshots as steps
     * would be memory for nothing (a few in 128 steps are used). */
    sn.next = x->nevents +
              (x->nevents / 8 > SNAP_EVERY ? x->nevents / 8 : SNAP_EVERY);
    if (sn.must <= x->nevents)
        sn.must = UINT32_MAX;
    ravel__snap_at = due();
}

/* ---- starting from one --------------------------------------------------- */

void ravel__snap_begin(void)
{
    struct ravel__rt *rt = &ravel__rt;
    sn.from = sn.check = NULL;
    sn.checked = 0;
    ravel__snap_at = UINT32_MAX;
    if (!run_allows())
        return;
    uint32_t at = 0;
    bool more = false;
    uint32_t kept = rt->strategy->ops->kept(rt->strategy, &at, &more);
    while (sn.n && (kept == RAVEL__NONE || sn.s[sn.n - 1].cursor > kept))
        sn.n--;
#if defined(__x86_64__)
    ravel__fiber_snap_forget(sn.arena + arena_used());
#endif
    uint32_t from = 0;
    if (sn.n) {
        sn.from = &sn.s[sn.n - 1];
        from = sn.from->nevents;
    }
    sn.next = from + SNAP_EVERY;
    sn.must = kept != RAVEL__NONE && more && at > from ? at : UINT32_MAX;
    ravel__snap_at = due();
}

void ravel__snap_enter(struct ravel__worker *w)
{
    struct ravel__rt *rt = &ravel__rt;
    const struct snap *s = sn.from;
    if (!s)
        return;
    sn.from = NULL;
    bool here = s->prog_top == w->prog_top && (!ravel__race_on || ravel__defer_on);
    if (here && rt->opt.snapshots_check) {
        /* Replay instead, and compare when there (ravel__snap_take). */
        sn.check = s;
        ravel__snap_at = s->nevents;
        return;
    }
    if (!here || !rt->strategy->ops->resume(rt->strategy, s->cursor, s->ident)) {
        /* Not where it was taken after all: start from main, and keep
         * none of them. */
        sn.n = 0;
#if defined(__x86_64__)
        ravel__fiber_snap_forget(sn.arena);
#endif
        return;
    }
    struct ravel__exec *x = rt->x;
    uint64_t number = x->number;
    ravel__snapio.p = sn.arena + s->start;
    ravel__snapio.end = ravel__snapio.p + s->len;
    get_model(x);
    x->number = number;
    ravel__defer_snap_get();
    ravel__sched_snap_get();
    ravel__thread_snap_get();
    ravel__reset_snap_get();
    sn.checked = x->nevents;
    rt->sh->snap_resumed++;
    ravel__race_resumed();
    ravel__snap_at = due();
    atomic_store_explicit(&rt->sh->running_tid, w->tid, memory_order_relaxed);
#if defined(__x86_64__)
    ravel__fiber_resume(ravel__race_exec_count());
#endif
}
