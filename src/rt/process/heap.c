/*
 * heap.c - the program's heap blocks across executions.
 *
 * Every execution must start with the heap the first one saw, so ravel
 * tracks the blocks the *program* allocates (its instrumented code is the
 * caller; allocations made inside the C library, such as stdio buffers,
 * are the library's business and are left alone):
 *
 *  - blocks allocated during an execution are released after it (the
 *    program may have leaked them, or a failure cut it short);
 *  - blocks allocated before main, by constructors, are part of the
 *    program's initial state: their contents are saved when the first
 *    execution starts and put back before each later one, and freeing one
 *    during an execution is deferred (the next execution needs it).
 *
 * Blocks are also numbered in allocation order within the execution, so a
 * trace can name an object `heap#3` identically in every run.
 *
 * The table is an open-addressing hash on the block address. It is
 * guarded by a tiny spinlock: only one program thread runs at a time, but
 * a pooled worker finishing a thread may free memory concurrently.
 */
#include "../rt.h"

#include "../../common/hash.h"
#include "../intercept/real.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

struct block {
    uint64_t ptr; /* 0 empty, 1 tombstone */
    uint64_t size;
    uint64_t seq;    /* allocation number in the execution */
    uint64_t tkey;   /* key of the thread that allocated it (0: none) */
    uint32_t tseq;   /* allocation number within that thread */
    uint8_t premain; /* allocated before main */
    uint8_t freed;   /* premain block freed during this execution */
    void *saved;     /* premain: contents at the first execution */
    uint64_t pc;     /* allocation call (race reports) */
    uint32_t thread; /* allocating model thread, RAVEL__NONE if none */
    uint32_t stack;  /* its stack id (race.c) */
};

#define TOMB 1u

static struct block *table;
static size_t cap, used, live_exec, live_premain;
static atomic_flag lock = ATOMIC_FLAG_INIT;

static void lock_table(void)
{
    while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
        ;
}

static void unlock_table(void)
{
    atomic_flag_clear_explicit(&lock, memory_order_release);
}

/* ---- bootstrap: dlsym may allocate before malloc is resolved ---------- */

static char boot_arena[64 * 1024] __attribute__((aligned(16)));
static size_t boot_used;

static bool in_boot(const void *p)
{
    return (const char *)p >= boot_arena &&
           (const char *)p < boot_arena + sizeof boot_arena;
}

static void *boot_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (boot_used + n > sizeof boot_arena)
        return NULL;
    void *p = boot_arena + boot_used;
    boot_used += n;
    return p;
}

/* ---- the table -------------------------------------------------------- */

static struct block *find(uint64_t ptr)
{
    if (!cap)
        return NULL;
    for (size_t i = ravel__hash_ptr(ptr) & (cap - 1);;
         i = (i + 1) & (cap - 1)) {
        if (table[i].ptr == ptr)
            return &table[i];
        if (table[i].ptr == 0)
            return NULL;
    }
}

static void rehash(size_t ncap)
{
    struct block *old = table;
    size_t ocap = cap;
    struct block *nt = REAL(calloc)(ncap, sizeof *nt);
    RAVEL__CHECK(nt != NULL);
    table = nt;
    cap = ncap;
    used = 0;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].ptr <= TOMB)
            continue;
        size_t j = ravel__hash_ptr(old[i].ptr) & (cap - 1);
        while (table[j].ptr)
            j = (j + 1) & (cap - 1);
        table[j] = old[i];
        used++;
    }
    REAL(free)(old);
}

static void insert(uint64_t ptr, uint64_t size, bool premain)
{
    if ((used + 1) * 4 >= cap * 3)
        rehash(cap ? cap * 2 : 1024);
    size_t i = ravel__hash_ptr(ptr) & (cap - 1);
    while (table[i].ptr > TOMB)
        i = (i + 1) & (cap - 1);
    if (table[i].ptr == 0)
        used++;
    table[i] = (struct block){ptr,  size, 0, 0, 0, premain, 0, NULL,
                              0,    RAVEL__NONE, 0};
    if (premain) {
        live_premain++;
    } else {
        struct ravel__exec *x = ravel__rt.x;
        table[i].seq = ++x->heap_seq;
        struct ravel__worker *w = ravel__controlled();
        if (w && w->slot < x->nthreads) {
            struct ravel__thread *th = &x->threads[w->slot];
            table[i].tkey = th->key;
            table[i].tseq = ++th->heap_allocs;
            table[i].thread = w->slot;
            table[i].stack = th->stack_id;
        }
        live_exec++;
    }
}

static void erase(struct block *b)
{
    if (b->premain)
        live_premain--;
    else
        live_exec--;
    REAL(free)(b->saved);
    b->ptr = TOMB;
    b->saved = NULL;
}

/* Should an allocation by code at `pc` be tracked, and how? */
enum track { NO, EXEC, PREMAIN };

static enum track classify(uint64_t pc)
{
    if (RAVEL__LIKELY(!ravel__rt.active))
        return NO;
    if (ravel__rt.executing) {
        if (!ravel__controlled() || !ravel__pc_instrumented(pc))
            return NO;
        return EXEC;
    }
    if (ravel__rt.premain && ravel__self && ravel__self->is_main &&
        ravel__pc_instrumented(pc))
        return PREMAIN;
    return NO;
}

static void *track(void *p, size_t size, uint64_t pc)
{
    if (!p)
        return p;
    /* New memory for the race detector, whoever asked for it. */
    if (ravel__race_on && ravel__controlled())
        ravel__race_forget(p, malloc_usable_size(p));
    enum track t = classify(pc);
    if (t == NO)
        return p;
    lock_table();
    insert((uint64_t)(uintptr_t)p, size, t == PREMAIN);
    struct block *b = find((uint64_t)(uintptr_t)p);
    if (b)
        b->pc = pc;
    unlock_table();
    return p;
}

/* Forgets p if tracked. Returns false if the free must be deferred. */
static bool untrack(void *p)
{
    if (!live_exec && !live_premain)
        return true;
    bool really = true;
    lock_table();
    struct block *b = find((uint64_t)(uintptr_t)p);
    if (b) {
        if (b->premain && ravel__rt.executing) {
            b->freed = 1;
            really = false;
        } else {
            erase(b);
        }
    }
    unlock_table();
    return really;
}

/* ---- interceptors ------------------------------------------------------ */

static void *do_malloc(size_t n, uint64_t pc)
{
    if (RAVEL__UNLIKELY(!ravel__real_malloc)) {
        if (ravel__real_resolving)
            return boot_alloc(n);
        ravel__real_resolve();
    }
    return track(ravel__real_malloc(n), n, pc);
}

RAVEL__EXPORT void *malloc(size_t n)
{
    return do_malloc(n, RAVEL__CALLER_PC);
}

RAVEL__EXPORT void *calloc(size_t n, size_t m)
{
    if (RAVEL__UNLIKELY(!ravel__real_calloc)) {
        if (ravel__real_resolving) {
            if (m && n > SIZE_MAX / m)
                return NULL;
            return boot_alloc(n * m); /* the arena is zeroed */
        }
        ravel__real_resolve();
    }
    return track(ravel__real_calloc(n, m), n * m, RAVEL__CALLER_PC);
}

RAVEL__EXPORT void free(void *p)
{
    if (!p || in_boot(p))
        return;
    if (ravel__race_on)
        ravel__race_free(p, RAVEL__CALLER_PC);
    if (untrack(p))
        REAL(free)(p);
}

RAVEL__EXPORT void *realloc(void *p, size_t n)
{
    uint64_t pc = RAVEL__CALLER_PC;
    if (!p)
        return do_malloc(n, pc);
    if (in_boot(p)) {
        void *q = do_malloc(n, pc);
        size_t avail = (size_t)(boot_arena + sizeof boot_arena - (char *)p);
        if (q)
            memcpy(q, p, n < avail ? n : avail);
        return q;
    }
    if (!live_exec && !live_premain)
        return track(REAL(realloc)(p, n), n, pc);
    lock_table();
    struct block *b = find((uint64_t)(uintptr_t)p);
    bool premain = b && b->premain;
    uint64_t old_size = b ? b->size : 0;
    unlock_table();
    if (premain && ravel__rt.executing) {
        /* Keep the premain block for the next execution; move to a new
         * block (tracked as this execution's). */
        void *q = REAL(malloc)(n ? n : 1);
        if (!q)
            return NULL;
        memcpy(q, p, old_size < n ? old_size : n);
        untrack(p);
        lock_table();
        insert((uint64_t)(uintptr_t)q, n, false);
        unlock_table();
        return q;
    }
    if (ravel__race_on)
        ravel__race_free(p, pc); /* reads and rewrites all of it */
    void *q = REAL(realloc)(p, n);
    if (!q)
        return NULL;
    if (ravel__race_on && q != p && ravel__controlled())
        ravel__race_forget(q, malloc_usable_size(q));
    if (b) {
        lock_table();
        struct block *bb = find((uint64_t)(uintptr_t)p);
        uint64_t seq = bb ? bb->seq : 0;
        if (bb)
            erase(bb);
        insert((uint64_t)(uintptr_t)q, n, premain);
        struct block *nb = find((uint64_t)(uintptr_t)q);
        if (nb && !premain && seq) {
            nb->seq = seq; /* same block, as far as names go */
            ravel__rt.x->heap_seq--;
        }
        unlock_table();
        return q;
    }
    return track(q, n, pc);
}

RAVEL__EXPORT void *reallocarray(void *p, size_t n, size_t m)
{
    if (m && n > SIZE_MAX / m) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, n * m);
}

RAVEL__EXPORT int posix_memalign(void **out, size_t align, size_t n)
{
    int rc = REAL(posix_memalign)(out, align, n);
    if (rc == 0)
        track(*out, n, RAVEL__CALLER_PC);
    return rc;
}

RAVEL__EXPORT void *aligned_alloc(size_t align, size_t n)
{
    return track(REAL(aligned_alloc)(align, n), n, RAVEL__CALLER_PC);
}

RAVEL__EXPORT void *memalign(size_t align, size_t n)
{
    return track(REAL(memalign)(align, n), n, RAVEL__CALLER_PC);
}

RAVEL__EXPORT void *valloc(size_t n)
{
    return track(REAL(valloc)(n), n, RAVEL__CALLER_PC);
}

RAVEL__EXPORT void *pvalloc(size_t n)
{
    return track(REAL(pvalloc)(n), n, RAVEL__CALLER_PC);
}

/* strdup and friends allocate inside the C library; intercepting them
 * attributes the block to the program that asked for it. */
RAVEL__EXPORT char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = do_malloc(n, RAVEL__CALLER_PC);
    if (p)
        memcpy(p, s, n);
    return p;
}

RAVEL__EXPORT char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = do_malloc(n + 1, RAVEL__CALLER_PC);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

/* ---- between executions ------------------------------------------------ */

bool ravel__heap_untouched(void)
{
    return !live_exec && !live_premain;
}

void ravel__heap_snapshot(void)
{
    lock_table();
    for (size_t i = 0; i < cap; i++) {
        struct block *b = &table[i];
        if (b->ptr <= TOMB || !b->premain)
            continue;
        b->saved = REAL(malloc)(b->size ? b->size : 1);
        RAVEL__CHECK(b->saved != NULL);
        memcpy(b->saved, (void *)(uintptr_t)b->ptr, b->size);
    }
    unlock_table();
}

void ravel__heap_release(void)
{
    if (!live_exec)
        return;
    lock_table();
    for (size_t i = 0; i < cap && live_exec; i++) {
        struct block *b = &table[i];
        if (b->ptr <= TOMB || b->premain)
            continue;
        REAL(free)((void *)(uintptr_t)b->ptr);
        erase(b);
    }
    unlock_table();
}

void ravel__heap_restore(void)
{
    if (!live_premain)
        return;
    lock_table();
    for (size_t i = 0; i < cap; i++) {
        struct block *b = &table[i];
        if (b->ptr <= TOMB || !b->premain || !b->saved)
            continue;
        memcpy((void *)(uintptr_t)b->ptr, b->saved, b->size);
        b->freed = 0;
    }
    unlock_table();
}

bool ravel__heap_info(uint64_t addr, struct ravel__heap_info *info)
{
    bool found = false;
    lock_table();
    for (size_t i = 0; i < cap && !found; i++) {
        struct block *c = &table[i];
        if (c->ptr > TOMB && addr >= c->ptr && addr < c->ptr + c->size) {
            info->ptr = c->ptr;
            info->size = c->size;
            info->pc = c->pc;
            info->thread = c->thread;
            info->stack = c->stack;
            found = true;
        }
    }
    unlock_table();
    return found;
}

bool ravel__heap_origin(uint64_t addr, struct ravel__heap_pos *pos)
{
    /* Objects are usually at the start of a block; otherwise scan the
     * live blocks of this execution (bounded, to keep this cheap). */
    if (!live_exec)
        return false;
    const struct block *hit = NULL;
    lock_table();
    struct block *b = find(addr);
    if (b && !b->premain) {
        hit = b;
    } else if (live_exec <= 4096) {
        for (size_t i = 0; i < cap; i++) {
            struct block *c = &table[i];
            if (c->ptr > TOMB && !c->premain && addr >= c->ptr &&
                addr < c->ptr + c->size) {
                hit = c;
                break;
            }
        }
    }
    if (hit) {
        pos->seq = hit->seq;
        pos->off = addr - hit->ptr;
        pos->tkey = hit->tkey;
        pos->tseq = hit->tseq;
    }
    unlock_table();
    return hit != NULL;
}
