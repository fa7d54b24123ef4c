/*
 * tso.c - x86-TSO store buffers (--memory-model tso).
 *
 * Under x86-TSO every processor has a FIFO buffer between it and memory.
 * A plain `mov` store goes into the buffer; the processor's own loads
 * read the newest buffered store to their location (store forwarding),
 * everyone else's read memory; the buffer drains to memory in order, at
 * any time. A locked instruction (xchg, lock add, lock cmpxchg) and
 * mfence first wait until the buffer is empty. This is the one
 * reordering x86 makes: a store followed by a load of another location
 * may behave as if the load came first (store buffering, the SB litmus
 * test), which sequential consistency forbids.
 *
 * How C11 maps onto it (the mapping compilers use): relaxed and release
 * stores are plain stores (buffered); seq_cst stores are xchg (drain);
 * every read-modify-write and compare-exchange is locked (drain); a
 * seq_cst fence is mfence (drain); weaker fences and all loads compile
 * to nothing special. Synchronisation calls (mutexes, condition
 * variables, thread creation and join, a thread's end ...) contain
 * locked instructions: they drain too. So seq_cst atomics stay
 * sequentially consistent and release/acquire comes for free, as on the
 * hardware.
 *
 * How ravel does it. The model (src/model/model.c) gives every thread
 * that buffers a store a pseudo-thread, "1.2/sb", whose pending step is
 * FLUSH: write the oldest buffered store to memory. It is enabled while
 * the buffer holds something; the strategy picks it like any thread, so
 * random and PCT sample when stores drain, DFS and DPOR enumerate it,
 * and a replay ticket names it in its schedule. A draining operation is
 * disabled while its thread's buffer is not empty, so the buffer's
 * flushes come first (src/explore/depend.c makes the flush that empties
 * the buffer happen before it). No program code runs on a pseudo-thread:
 * when the strategy picks one, the thread holding the baton performs
 * the flush (src/rt/sched.c) and chooses again.
 *
 * This file holds what the buffers contain (the model only counts them):
 * address, size, bytes, the store's event. It is process-private state of
 * the executor; a buffer is indexed by its program thread's slot and
 * starts empty in every execution (the model's count is reset).
 *
 * What is buffered: atomic stores with memory order relaxed or release.
 * Plain stores are made by the program's own instructions after the hook
 * has returned, so ravel cannot hold them back: they reach memory at
 * once, and a promoted plain store (race-directed scheduling) or a
 * volatile store drains the buffer first, which is stronger than x86,
 * never weaker. A plain store that is not a scheduling point can thus be
 * seen by another thread before an earlier buffered atomic store of its
 * thread: only a racy read can see that, and the race detector reports
 * the race (docs/memory-models.md).
 */
#include "rt.h"

#include "../model/spin.h"

#include <string.h>
#include <sys/mman.h>

struct sb_entry {
    uint64_t addr;
    uint64_t pc;
    uint32_t size;
    uint32_t obj;
    uint32_t event; /* the store's event */
    int32_t mo;
    unsigned char bytes[16];
};

/* Buffers of program threads by slot, mapped at the first buffered store
 * of the run (RAVEL__MAX_THREADS x RAVEL__SB_MAX entries, 1.5 MiB of
 * address space; only the pages of threads that buffer are touched). */
static struct sb_entry (*buffers)[RAVEL__SB_MAX];

static struct sb_entry *buffer_of(uint32_t t)
{
    if (RAVEL__UNLIKELY(!buffers)) {
        void *m = mmap(NULL,
                       sizeof(struct sb_entry[RAVEL__MAX_THREADS]
                                             [RAVEL__SB_MAX]),
                       PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
        if (m == MAP_FAILED)
            ravel__fatal("cannot map the store buffers (--memory-model tso)");
        buffers = m;
    }
    return buffers[t];
}

/* Entries in thread t's buffer (0 when it has none). */
static uint32_t buffered(const struct ravel__exec *x, uint32_t t)
{
    uint32_t sb = x->threads[t].sb;
    return sb ? x->threads[sb - 1].sb_n : 0;
}

static void read_memory(const volatile void *a, unsigned size,
                        unsigned char *out)
{
    switch (size) {
    case 1: {
        uint8_t v = __atomic_load_n((const volatile uint8_t *)a,
                                    __ATOMIC_SEQ_CST);
        memcpy(out, &v, 1);
        return;
    }
    case 2: {
        uint16_t v = __atomic_load_n((const volatile uint16_t *)a,
                                     __ATOMIC_SEQ_CST);
        memcpy(out, &v, 2);
        return;
    }
    case 4: {
        uint32_t v = __atomic_load_n((const volatile uint32_t *)a,
                                     __ATOMIC_SEQ_CST);
        memcpy(out, &v, 4);
        return;
    }
    case 8: {
        uint64_t v = __atomic_load_n((const volatile uint64_t *)a,
                                     __ATOMIC_SEQ_CST);
        memcpy(out, &v, 8);
        return;
    }
    default:
        /* 16 bytes: one thread runs at a time, nothing tears it. */
        memcpy(out, (const void *)a, size);
        return;
    }
}

static void write_memory(uint64_t addr, unsigned size,
                         const unsigned char *in)
{
    volatile void *a = (volatile void *)(uintptr_t)addr;
    switch (size) {
    case 1: {
        uint8_t v;
        memcpy(&v, in, 1);
        __atomic_store_n((volatile uint8_t *)a, v, __ATOMIC_SEQ_CST);
        return;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, in, 2);
        __atomic_store_n((volatile uint16_t *)a, v, __ATOMIC_SEQ_CST);
        return;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, in, 4);
        __atomic_store_n((volatile uint32_t *)a, v, __ATOMIC_SEQ_CST);
        return;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, in, 8);
        __atomic_store_n((volatile uint64_t *)a, v, __ATOMIC_SEQ_CST);
        return;
    }
    default:
        memcpy((void *)(uintptr_t)addr, in, size);
        return;
    }
}

void ravel__tso_store(struct ravel__worker *w, struct ravel__event *ev,
                      const volatile void *a, unsigned size, const void *val,
                      int mo)
{
    struct ravel__exec *x = ravel__rt.x;
    uint32_t n = buffered(x, w->slot);
    RAVEL__CHECK(n >= 1 && n <= RAVEL__SB_MAX && size <= 16);
    struct sb_entry *e = &buffer_of(w->slot)[n - 1];
    e->addr = (uint64_t)(uintptr_t)a;
    e->size = size;
    e->pc = ev->pc;
    e->obj = ev->obj;
    e->event = (uint32_t)(ev - x->events);
    e->mo = mo;
    memcpy(e->bytes, val, size);
}

int64_t ravel__tso_load(struct ravel__worker *w, struct ravel__event *ev,
                        const volatile void *a, unsigned size, void *out)
{
    struct ravel__exec *x = ravel__rt.x;
    unsigned char b[16];
    read_memory(a, size, b);
    uint64_t lo = (uint64_t)(uintptr_t)a, hi = lo + size;
    /* Its own stores, oldest first, so that the newest wins. */
    uint32_t n = buffered(x, w->slot);
    const struct sb_entry *own = n ? buffer_of(w->slot) : NULL;
    for (uint32_t i = 0; i < n; i++) {
        const struct sb_entry *e = &own[i];
        uint64_t s = e->addr > lo ? e->addr : lo;
        uint64_t t = e->addr + e->size < hi ? e->addr + e->size : hi;
        if (s >= t)
            continue;
        memcpy(b + (s - lo), e->bytes + (s - e->addr), t - s);
        ev->flags |= RAVEL__EV_FORWARDED;
        ev->aux = e->event;
    }
    if (!(ev->flags & RAVEL__EV_FORWARDED)) {
        /* Memory, while another thread's store to it waits: say which
         * (the newest), for the report. */
        uint32_t newest = RAVEL__NONE;
        for (uint32_t q = 0; q < x->nthreads; q++) {
            const struct ravel__thread *p = &x->threads[q];
            if (!p->sb_owner || !p->sb_n)
                continue;
            const struct sb_entry *e = buffer_of(p->sb_owner - 1);
            for (uint32_t i = 0; i < p->sb_n; i++)
                if (e[i].addr < hi && lo < e[i].addr + e[i].size &&
                    (newest == RAVEL__NONE || e[i].event > newest))
                    newest = e[i].event;
        }
        if (newest != RAVEL__NONE) {
            ev->flags |= RAVEL__EV_STALE;
            ev->aux = newest;
        }
    }
    memcpy(out, b, size);
    return ravel__value_of(b, size);
}

void ravel__tso_flushed(struct ravel__exec *x, uint32_t p,
                        struct ravel__event *ev)
{
    struct ravel__thread *pt = &x->threads[p];
    uint32_t owner = pt->sb_owner - 1;
    struct sb_entry *b = buffer_of(owner);
    RAVEL__CHECK(pt->sb_n > 0);
    write_memory(b[0].addr, b[0].size, b[0].bytes);
    ev->pc = b[0].pc;
    ev->value = ravel__value_of(b[0].bytes, b[0].size);
    ev->value2 = b[0].event;
    pt->sb_n--;
    memmove(b, b + 1, pt->sb_n * sizeof *b);
    if (pt->sb_n) {
        pt->pending.obj = b[0].obj;
        pt->pending.pc = b[0].pc;
        pt->pending.arg = b[0].mo;
    } else {
        pt->pending.obj = RAVEL__NONE;
    }
}
