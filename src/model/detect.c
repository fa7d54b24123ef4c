/*
 * detect.c - vector clocks and shadow memory of the data-race detector
 * (the method is described in detect.h).
 *
 * Clocks are dense arrays of RAVEL__MAX_THREADS 32-bit entries, but every
 * loop over one stops at the number of threads the execution has created
 * so far (d->width): a clock is cleared in full when it is (re)started, so
 * the entries above width are always zero. Each thread has three clocks:
 *
 *     C    its vector clock; C[t] is its current epoch
 *     acq  what its relaxed loads read (an acquire fence joins it into C)
 *     rel  C as of its last release fence (later relaxed stores and RMWs
 *          release it)
 *
 * Objects (model objects, by index) get two clocks each, allocated from a
 * bump arena on their first use in an execution and found through a
 * stamped table, so that starting an execution costs nothing per object:
 *
 *     slot 0   mutex, spinlock, semaphore, once, condvar, atomic, rwlock's
 *              writers, barrier's even rounds
 *     slot 1   rwlock's readers, barrier's odd rounds (cleared at its
 *              first use, not with slot 0: few objects ever use it)
 *
 * The shadow's tables and leaves, the clocks and the arena come from the
 * provider given to ravel__det_new, once; nothing is ever unmapped (the
 * detector lives as long as the executor process).
 *
 * The access path is where the time goes (every plain access of the
 * program comes here), so it is built for the cache and for few
 * instructions:
 *   - the access's pc and stack id are interned as one 21-bit origin (a
 *     hash table for the life of the process, behind a direct-mapped
 *     cache keyed by the pair), looked up only when a cell is written;
 *     a cell is then one 64-bit word (thread, free bit, origin, epoch)
 *     and a granule 32 bytes with its masks and kinds in a header word:
 *     four bytes of shadow per byte of memory, every granule within
 *     one cache line (it was 40 bytes, a line and a part of the next
 *     for 3 granules in 8, and 80 before origins);
 *   - leaves are found through a 256-entry direct-mapped cache before
 *     the two-level table (16 entries missed on a third of the hooks'
 *     slow calls in pigz -11, whose zopfli walks several large arrays
 *     at once);
 *   - the common "nothing to do" case of a read is tested by the read
 *     hooks (ravel__det_read_nothing_new, inlined from detect.h), before
 *     any call into the detector, and ravel__det_read does not test it
 *     again; a write goes to the detector directly (in a new epoch, the
 *     common case, it must);
 *   - otherwise one pass over the three cells checks, forgets and picks
 *     the cell to record in, with the kind of a plain read or write a
 *     compile-time constant (ravel__det_read, ravel__det_write, which
 *     the hooks call directly).
 * None of it changes a result: the cells hold the same accesses as
 * before, and the inline test answers "nothing to do" only where the
 * full check does nothing.
 */
#include "detect.h"

#include <string.h>

#define W RAVEL__MAX_THREADS
#define CELLS RAVEL__DET_CELLS
#define LEAF_BITS RAVEL__DET_LEAF_BITS
#define LEAF_GRANULES RAVEL__DET_LEAF_GRANULES
#define PAGE_BITS RAVEL__DET_PAGE_BITS
#define LEAF_PAGES RAVEL__DET_LEAF_PAGES
#define LEAF_CACHE RAVEL__DET_LEAF_CACHE
#define TOP_BITS 16 /* address bits 47..32 */
#define MID_BITS 16 /* address bits 31..16 */
/* Clocks in the object arena (two per object: 2,048 objects). The objects
 * an execution touches beyond that share one pair of overflow clocks,
 * which are only ever joined into: every acquire of such an object takes
 * every earlier release of any of them. Extra edges can hide a race among
 * them, never invent one (see clock_of). */
#define ARENA_CLOCKS 4096

_Static_assert(sizeof(struct ravel__det_granule) == 32, "a granule is 32 bytes");
_Static_assert(sizeof(uint32_t) * RAVEL__DET_LEAF_PAGES % 32 == 0,
               "granules are 32-byte aligned in a page-aligned leaf");
_Static_assert(RAVEL__MAX_THREADS <= 1u << (64 - RAVEL__DET_TID_SHIFT),
               "a thread index fits its 10 bits of a cell");

/* Origins: every distinct (pc, stack) pair a cell recorded, for the life
 * of the process (like the runtime's stack depot: test programs have far
 * fewer access sites and call paths). Origin 0 is (0, 0), also what a
 * full table answers: a report then lacks the earlier access's location,
 * and cells of different sites may merge (neither can invent a race). */
#define ORIGINS (1u << RAVEL__DET_ORIGIN_BITS)
#define ORIGIN_HASH (ORIGINS * 2)
#define ORIGIN_CACHE RAVEL__DET_ORIGIN_CACHE

struct origin {
    uint64_t pc;
    uint32_t stack;
    uint32_t pad;
};

/* In front of the hash table, the direct-mapped cache of detect.h
 * (struct ravel__det_origin_cached): an access site's origin is found
 * with two compares (a zeroed entry is origin 0). */

struct mid {
    struct ravel__det_leaf *leaf[1u << MID_BITS];
};

struct ravel__detector {
    struct ravel__det_hot hot; /* first: what the inline check reads */
    struct ravel__det_mem mem;
    size_t mapped;
    uint32_t width;      /* threads created in this execution */
    uint32_t high;       /* the largest width of any execution so far:
                            no clock entry at or above it was ever set */
    uint32_t max_objects;
    struct mid **top;            /* 1 << TOP_BITS entries */
    uint32_t *obj_stamp1;        /* per object: exec_start when its slot 1
                                    was cleared (only rwlocks and barriers
                                    use it: cleared on first use) */
    uint32_t *obj_stamp;         /* per object: exec_start when its clocks
                                    were allocated */
    uint32_t *obj_clock;         /* per object: arena index of slot 0 */
    uint32_t *arena;             /* ARENA_CLOCKS clocks of W entries */
    uint32_t arena_used;
    uint32_t *overflow;          /* 2 clocks of W entries, shared by the
                                    objects the arena has no room for */
    uint32_t overflow_stamp;     /* exec_start when they were cleared */
    uint32_t atomic_clock[W];    /* released by atomic sections */
    /* Every leaf, for the (rare) wrap of the stamp counter. */
    struct ravel__det_leaf **leaves;
    uint32_t nleaves, cap_leaves;
    struct origin *org;         /* ORIGINS entries; 0 is (0, 0) */
    uint32_t *org_hash;         /* ORIGIN_HASH: origin id, 0 empty */
    uint32_t norg;
};

static void *map(struct ravel__detector *d, size_t bytes)
{
    void *p = d->mem.map(bytes, d->mem.ctx);
    if (p)
        d->mapped += bytes;
    return p;
}

struct ravel__detector *ravel__det_new(const struct ravel__det_mem *mem,
                                       uint32_t max_objects)
{
    struct ravel__detector *d = mem->map(sizeof *d, mem->ctx);
    if (!d)
        return NULL;
    d->mem = *mem;
    d->mapped = sizeof *d;
    d->max_objects = max_objects;
    d->top = map(d, sizeof(struct mid *) << TOP_BITS);
    d->hot.thr = map(d, sizeof(struct ravel__det_thread_clocks) * W);
    d->obj_stamp = map(d, sizeof(uint32_t) * (max_objects + 1));
    d->obj_stamp1 = map(d, sizeof(uint32_t) * (max_objects + 1));
    d->obj_clock = map(d, sizeof(uint32_t) * (max_objects + 1));
    d->arena = map(d, sizeof(uint32_t) * W * ARENA_CLOCKS);
    d->overflow = map(d, sizeof(uint32_t) * W * 2);
    d->cap_leaves = 1u << 16;
    d->leaves = map(d, sizeof(struct ravel__det_leaf *) * d->cap_leaves);
    d->org = map(d, sizeof(struct origin) * ORIGINS);
    d->org_hash = map(d, sizeof(uint32_t) * ORIGIN_HASH);
    d->hot.oc = map(d, sizeof(struct ravel__det_origin_cached) * ORIGIN_CACHE);
    d->norg = 1;
    for (uint32_t i = 0; i < LEAF_CACHE; i++)
        d->hot.leaf[i].base = RAVEL__DET_NO_BASE;
    if (!d->top || !d->hot.thr || !d->obj_stamp || !d->obj_stamp1 ||
        !d->obj_clock || !d->arena ||
        !d->overflow || !d->leaves || !d->org || !d->org_hash || !d->hot.oc)
        return NULL;
    return d;
}

size_t ravel__det_mapped(const struct ravel__detector *d)
{
    return d->mapped;
}

/* The stamp counter wrapped: clear every granule and start over. */
static void wrap(struct ravel__detector *d)
{
    for (uint32_t i = 0; i < d->nleaves; i++)
        memset(d->leaves[i], 0, sizeof *d->leaves[i]);
    memset(d->obj_stamp, 0, sizeof(uint32_t) * (d->max_objects + 1));
    memset(d->obj_stamp1, 0, sizeof(uint32_t) * (d->max_objects + 1));
    d->hot.gen = 1;
}

static uint32_t next_gen(struct ravel__detector *d)
{
    if (RAVEL__UNLIKELY(d->hot.gen >= UINT32_MAX - 4))
        wrap(d);
    return ++d->hot.gen;
}

/* Zeroing and copying clocks, an entry per thread of the execution, at
 * every thread creation, object allocation and release store. Short
 * ones in a loop: a call costs more than four stores (the compilers
 * would make the loop a call of memset or memcpy, which in the runtime
 * is ravel's own interposer, race.c; the empty asm keeps it a loop).
 * Longer ones through that interposer, which sends the runtime's own
 * calls on to the C library after one test of the caller's pc.
 * Measured with callgrind (instructions per execution): loops beat the
 * calls for fib_bench's 4 threads and casrot's 11, and tie with them
 * for indexer's 16. */
#define CLOCK_LOOP 16

static inline void clock_zero(uint32_t *c, uint32_t n)
{
    if (n > CLOCK_LOOP) {
        memset(c, 0, sizeof(uint32_t) * n);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        c[i] = 0;
        __asm__("" : : "r"(i));
    }
}

static inline void clock_copy(uint32_t *restrict into,
                              const uint32_t *restrict from, uint32_t n)
{
    if (n > CLOCK_LOOP) {
        memcpy(into, from, sizeof(uint32_t) * n);
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        into[i] = from[i];
        __asm__("" : : "r"(i));
    }
}

/* Clears a clock: only the entries some execution may have set (a full
 * clock is 4 KiB, and executions start threads by the thousand). */
static void clock_clear(const struct ravel__detector *d, uint32_t *c)
{
    clock_zero(c, d->high);
}

static void clock_join(const struct ravel__detector *d, uint32_t *into,
                       const uint32_t *from)
{
    for (uint32_t i = 0; i < d->width; i++)
        if (from[i] > into[i])
            into[i] = from[i];
}

void ravel__det_begin(struct ravel__detector *d)
{
    d->hot.exec_start = next_gen(d);
    d->arena_used = 0;
    uint32_t old = d->width;
    d->width = 1;
    if (!d->high)
        d->high = 1;
    /* Thread 0's clocks, and the section clock, over the old width. */
    struct ravel__det_thread_clocks *t0 = &d->hot.thr[0];
    uint32_t n = old ? old : 1;
    clock_zero(t0->c, n);
    clock_zero(t0->acq, n);
    clock_zero(t0->rel, n);
    t0->dirty = 0;
    clock_zero(d->atomic_clock, n);
    t0->c[0] = 1;
}

uint32_t ravel__det_epoch(const struct ravel__detector *d, uint32_t t)
{
    return d->hot.thr[t].c[t];
}

bool ravel__det_knows(const struct ravel__detector *d, uint32_t t,
                      uint32_t u, uint32_t clock)
{
    return clock <= d->hot.thr[t].c[u];
}

/* Object o's clock in `slot` (0 or 1), allocated (zero) on its first use
 * in the execution. When the arena is full (or o is out of range), the
 * shared overflow clock of that slot: callers join into it and from it,
 * but never clear it (is_overflow), so that one object's release store or
 * new barrier round cannot erase another's releases. Returning no clock
 * instead, as before, dropped those objects' edges: a mutex first used
 * after 2,048 once flags ordered nothing, and the accesses it protected
 * were reported as data races (tinycthread's test). */
static __attribute__((noinline)) uint32_t *
clock_of_slow(struct ravel__detector *d, uint32_t o, uint32_t slot)
{
    if (o >= d->max_objects ||
        (d->obj_stamp[o] != d->hot.exec_start &&
         d->arena_used + 2 > ARENA_CLOCKS)) {
        if (d->overflow_stamp != d->hot.exec_start) {
            clock_clear(d, d->overflow);
            clock_clear(d, d->overflow + W);
            d->overflow_stamp = d->hot.exec_start;
        }
        return d->overflow + (size_t)slot * W;
    }
    if (d->obj_stamp[o] != d->hot.exec_start) {
        d->obj_clock[o] = d->arena_used;
        d->arena_used += 2;
        d->obj_stamp[o] = d->hot.exec_start;
        clock_clear(d, d->arena + (size_t)d->obj_clock[o] * W);
    }
    /* Slot 1 is cleared on its first use: most objects (every atomic)
     * never have one, and clearing it was half of allocating. */
    if (slot == 1 && d->obj_stamp1[o] != d->hot.exec_start) {
        d->obj_stamp1[o] = d->hot.exec_start;
        clock_clear(d, d->arena + (size_t)(d->obj_clock[o] + 1) * W);
    }
    return d->arena + (size_t)(d->obj_clock[o] + slot) * W;
}

/* clock_of_slow's common case inline: an object whose clocks this
 * execution already allocated (every atomic access asks, and the call
 * with its stamp tests was a fifth of an atomic's cost in the detector). */
static inline uint32_t *clock_of(struct ravel__detector *d, uint32_t o,
                                 uint32_t slot)
{
    if (RAVEL__LIKELY(o < d->max_objects &&
                      d->obj_stamp[o] == d->hot.exec_start &&
                      (slot == 0 || d->obj_stamp1[o] == d->hot.exec_start)))
        return d->arena + (size_t)(d->obj_clock[o] + slot) * W;
    return clock_of_slow(d, o, slot);
}

static bool is_overflow(const struct ravel__detector *d, const uint32_t *l)
{
    return l == d->overflow || l == d->overflow + W;
}

/* t releases into object o's clock (joining: earlier releases stay). */
static void release(struct ravel__detector *d, uint32_t t, uint32_t o,
                    uint32_t slot)
{
    uint32_t *l = clock_of(d, o, slot);
    if (l)
        clock_join(d, l, d->hot.thr[t].c);
}

static void tick(struct ravel__detector *d, uint32_t t)
{
    d->hot.thr[t].c[t]++;
}

/* t acquires what was released into object o. */
static void acquire(struct ravel__detector *d, uint32_t t, uint32_t o,
                    uint32_t slot)
{
    uint32_t *l = clock_of(d, o, slot);
    if (l)
        clock_join(d, d->hot.thr[t].c, l);
}

static bool mo_acquire(int64_t mo)
{
    /* __ATOMIC_CONSUME 1, ACQUIRE 2, ACQ_REL 4, SEQ_CST 5 */
    return mo == 1 || mo == 2 || mo == 4 || mo == 5;
}

static bool mo_release(int64_t mo)
{
    /* __ATOMIC_RELEASE 3, ACQ_REL 4, SEQ_CST 5 */
    return mo == 3 || mo == 4 || mo == 5;
}

uint32_t ravel__det_obj_clock_get(struct ravel__detector *d, uint32_t o,
                                  uint32_t *out)
{
    const uint32_t *l = clock_of(d, o, 0);
    memcpy(out, l, sizeof(uint32_t) * d->width);
    return d->width;
}

void ravel__det_obj_clock_set(struct ravel__detector *d, uint32_t o,
                              const uint32_t *in, uint32_t n)
{
    uint32_t *l = clock_of(d, o, 0);
    if (is_overflow(d, l))
        return; /* shared: only ever joined into */
    if (n > d->width)
        n = d->width;
    memcpy(l, in, sizeof(uint32_t) * n);
    for (uint32_t i = n; i < d->width; i++)
        l[i] = 0;
}

/* An atomic read of the object whose clock is l: acquire, or remember
 * for a later fence. */
static inline void atomic_read_clock(struct ravel__detector *d, uint32_t t,
                                     const uint32_t *l, int64_t mo)
{
    struct ravel__det_thread_clocks *tc = &d->hot.thr[t];
    if (mo_acquire(mo)) {
        clock_join(d, tc->c, l);
    } else {
        clock_join(d, tc->acq, l);
        tc->dirty |= RAVEL__DET_ACQ;
    }
}

static void atomic_read(struct ravel__detector *d, uint32_t t, uint32_t o,
                        int64_t mo)
{
    atomic_read_clock(d, t, clock_of(d, o, 0), mo);
}

/* An atomic write of the object whose clock is l. A release store starts
 * a new release sequence (the clock becomes t's), a release RMW continues
 * it (joins); a relaxed one releases what t's last release fence did.
 * The new sequence's clock is a copy of t's over the execution's width:
 * an object's entries at and above it are zero (its clock was cleared in
 * full when allocated, and nothing writes there), so this is the clear
 * and join it means. */
static inline void atomic_write_clock(struct ravel__detector *d, uint32_t t,
                                      uint32_t *l, int64_t mo, bool rmw)
{
    struct ravel__det_thread_clocks *tc = &d->hot.thr[t];
    if (mo_release(mo)) {
        if (!rmw && !is_overflow(d, l))
            clock_copy(l, tc->c, d->width);
        else
            clock_join(d, l, tc->c);
        tick(d, t);
    } else {
        clock_join(d, l, tc->rel);
    }
}

static void atomic_write(struct ravel__detector *d, uint32_t t, uint32_t o,
                         int64_t mo, bool rmw)
{
    atomic_write_clock(d, t, clock_of(d, o, 0), mo, rmw);
}

/* The barrier round thread t arrives in uses clock slot (round & 1); the
 * first arrival of a round clears it (the round two before is over: every
 * thread of it has left, or it could not have arrived here). */
static void barrier_arrive(struct ravel__detector *d,
                           const struct ravel__exec *x,
                           const struct ravel__event *ev)
{
    uint32_t t = ev->thread;
    const struct ravel__object *o = &x->objects[ev->obj];
    bool serial = ev->flags & RAVEL__EV_SERIAL;
    uint32_t round = serial ? o->generation - 1 : o->generation;
    uint32_t slot = round & 1;
    uint32_t *l = clock_of(d, ev->obj, slot);
    d->hot.thr[t].barrier_slot = slot;
    if (!l)
        return;
    if (((serial && o->limit <= 1) || (!serial && o->value == 1)) &&
        !is_overflow(d, l))
        clock_clear(d, l);
    clock_join(d, l, d->hot.thr[t].c);
    /* The last arrival (serial) does not wait to leave: everyone else has
     * arrived, so it acquires the round now. */
    if (serial)
        clock_join(d, d->hot.thr[t].c, l);
    tick(d, t);
}

static bool failed(const struct ravel__event *ev)
{
    return ev->flags &
           (RAVEL__EV_FAILED | RAVEL__EV_TIMEDOUT | RAVEL__EV_ERROR);
}

void ravel__det_event(struct ravel__detector *d, const struct ravel__exec *x,
                      const struct ravel__event *ev, int64_t arg)
{
    uint32_t t = ev->thread;
    struct ravel__det_thread_clocks *tc = &d->hot.thr[t];
    switch (ev->kind) {
    case RAVEL__OP_CREATE: {
        uint32_t c = ev->aux;
        if (c == RAVEL__NONE || c >= W)
            return;
        if (c + 1 > d->width)
            d->width = c + 1;
        struct ravel__det_thread_clocks *cc = &d->hot.thr[c];
        if (d->width > d->high)
            d->high = d->width;
        /* The child starts from the parent's clock: a copy over the
         * width, zero above it (what clearing and joining come to). */
        clock_copy(cc->c, tc->c, d->width);
        clock_zero(cc->c + d->width, d->high - d->width);
        if (cc->dirty & RAVEL__DET_ACQ)
            clock_clear(d, cc->acq);
        if (cc->dirty & RAVEL__DET_REL)
            clock_clear(d, cc->rel);
        cc->dirty = 0;
        cc->c[c] = 1;
        tick(d, t);
        return;
    }
    case RAVEL__OP_JOIN:
    case RAVEL__OP_TRYJOIN:
    case RAVEL__OP_TIMEDJOIN:
        /* A finished thread's clock no longer changes. */
        if (!failed(ev) && ev->aux < d->width &&
            x->threads[ev->aux].state == RAVEL__T_FINISHED)
            clock_join(d, tc->c, d->hot.thr[ev->aux].c);
        return;

    case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_MUTEX_TRYLOCK:
    case RAVEL__OP_MUTEX_TIMEDLOCK:
    case RAVEL__OP_SPIN_LOCK:
    case RAVEL__OP_SPIN_TRYLOCK:
    case RAVEL__OP_SEM_WAIT:
    case RAVEL__OP_SEM_TRYWAIT:
    case RAVEL__OP_SEM_TIMEDWAIT:
    case RAVEL__OP_RW_RDLOCK:
    case RAVEL__OP_RW_TRYRDLOCK:
    case RAVEL__OP_RW_TIMEDRDLOCK:
        if (!failed(ev))
            acquire(d, t, ev->obj, 0);
        return;
    case RAVEL__OP_SEM_GETVALUE: /* sees the posts it counts */
    case RAVEL__OP_ONCE:         /* done: the init function's effects */
        acquire(d, t, ev->obj, 0);
        return;
    case RAVEL__OP_RW_WRLOCK:
    case RAVEL__OP_RW_TRYWRLOCK:
    case RAVEL__OP_RW_TIMEDWRLOCK:
        if (!failed(ev)) {
            acquire(d, t, ev->obj, 0);
            acquire(d, t, ev->obj, 1);
        }
        return;

    case RAVEL__OP_MUTEX_UNLOCK:
    case RAVEL__OP_SPIN_UNLOCK:
    case RAVEL__OP_SEM_POST:
    case RAVEL__OP_ONCE_DONE:
    case RAVEL__OP_COND_SIGNAL:
    case RAVEL__OP_COND_BROADCAST:
        release(d, t, ev->obj, 0);
        tick(d, t);
        return;
    case RAVEL__OP_RW_UNLOCK:
        /* A writer's unlock reaches readers and writers; a reader's only
         * the next writer (aux: 1 writer, 0 reader). */
        release(d, t, ev->obj, ev->aux == 1 ? 0 : 1);
        tick(d, t);
        return;

    case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_TIMEDWAIT:
        /* Releases the mutex (aux). */
        release(d, t, ev->aux, 0);
        tick(d, t);
        return;
    case RAVEL__OP_COND_WAKE:
        /* Takes the mutex back; woken by a signal: sees the signaller. */
        acquire(d, t, ev->aux, 0);
        if (!(ev->flags & RAVEL__EV_TIMEDOUT))
            acquire(d, t, ev->obj, 0);
        return;

    case RAVEL__OP_BARRIER_WAIT:
        barrier_arrive(d, x, ev);
        return;
    case RAVEL__OP_BARRIER_LEAVE:
        acquire(d, t, ev->obj, tc->barrier_slot);
        return;

    case RAVEL__OP_ATOMIC_LOAD:
        atomic_read(d, t, ev->obj, arg);
        return;
    case RAVEL__OP_ATOMIC_STORE:
        atomic_write(d, t, ev->obj, arg, false);
        return;
    case RAVEL__OP_ATOMIC_RMW:
        atomic_read(d, t, ev->obj, arg);
        atomic_write(d, t, ev->obj, arg, true);
        return;
    case RAVEL__OP_ATOMIC_CAS:
        atomic_read(d, t, ev->obj, arg);
        if (ev->aux == 1)
            atomic_write(d, t, ev->obj, arg, true);
        return;
    case RAVEL__OP_FENCE:
        if (mo_acquire(arg))
            clock_join(d, tc->c, tc->acq);
        if (mo_release(arg)) {
            clock_copy(tc->rel, tc->c, d->width);
            tc->dirty |= RAVEL__DET_REL;
            tick(d, t);
        }
        return;
    case RAVEL__OP_FD_NEW:
    case RAVEL__OP_FD_WRITE:
    case RAVEL__OP_FD_CLOSE:
    case RAVEL__OP_FD_CONNECT:
    case RAVEL__OP_FD_LISTEN:
    case RAVEL__OP_FD_SHUTDOWN:
    case RAVEL__OP_FD_CTL:
        /* What a thread did before it sent, closed or connected is seen
         * by whoever reads, accepts or polls the channel after it (and
         * by a poll of every descriptor, through aux). */
        release(d, t, ev->obj, 0);
        if (ev->aux != RAVEL__NONE)
            release(d, t, ev->aux, 0);
        tick(d, t);
        return;
    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_POLL_ALL:
        acquire(d, t, ev->obj, 0);
        return;
    case RAVEL__OP_FD_POLL:
        if (ev->obj != RAVEL__NONE)
            acquire(d, t, ev->obj, 0);
        if (ev->aux != RAVEL__NONE)
            acquire(d, t, ev->aux, 0);
        return;
    default:
        /* START (the clock was made at CREATE), FINISH (join reads it),
         * DETACH, EXIT, YIELD, SLEEP, destroys: no edge. */
        return;
    }
}

void ravel__det_atomic_section(struct ravel__detector *d, uint32_t t,
                               bool begin)
{
    if (begin) {
        clock_join(d, d->hot.thr[t].c, d->atomic_clock);
    } else {
        clock_join(d, d->atomic_clock, d->hot.thr[t].c);
        tick(d, t);
    }
}

/* ---- shadow ------------------------------------------------------------ */

static __attribute__((noinline)) struct ravel__det_leaf *
leaf_lookup(struct ravel__detector *d, uint64_t addr, bool create)
{
    uint64_t base = addr >> LEAF_BITS;
    uint64_t ti = (addr >> 32) & ((1u << TOP_BITS) - 1);
    uint64_t mi = (addr >> LEAF_BITS) & ((1u << MID_BITS) - 1);
    struct mid *m = d->top[ti];
    if (!m) {
        if (!create)
            return NULL;
        m = d->top[ti] = map(d, sizeof *m);
        if (!m)
            return NULL;
    }
    struct ravel__det_leaf *l = m->leaf[mi];
    if (!l) {
        if (!create || d->nleaves >= d->cap_leaves)
            return NULL;
        l = m->leaf[mi] = map(d, sizeof *l);
        if (!l)
            return NULL;
        d->leaves[d->nleaves++] = l;
    }
    struct ravel__det_leaf_cached *e = &d->hot.leaf[base & (LEAF_CACHE - 1)];
    e->base = base;
    e->leaf = l;
    return l;
}

static inline struct ravel__det_leaf *leaf_get(struct ravel__detector *d, uint64_t addr,
                                    bool create)
{
    const struct ravel__det_leaf_cached *e =
        &d->hot.leaf[(addr >> LEAF_BITS) & (LEAF_CACHE - 1)];
    if (RAVEL__LIKELY(e->base == addr >> LEAF_BITS))
        return e->leaf;
    return leaf_lookup(d, addr, create);
}

/* ---- origins ----------------------------------------------------------- */

#define NO_ORIGIN UINT32_MAX /* not looked up yet */

static inline uint64_t origin_mix(uint64_t pc, uint32_t stack)
{
    uint64_t x = pc ^ ((uint64_t)stack << 40) ^ stack;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static __attribute__((noinline)) uint32_t
origin_intern(struct ravel__detector *d, uint64_t pc, uint32_t stack)
{
    if (pc == 0 && stack == 0)
        return 0;
    uint64_t h = origin_mix(pc, stack);
    for (uint32_t i = (uint32_t)h & (ORIGIN_HASH - 1);;
         i = (i + 1) & (ORIGIN_HASH - 1)) {
        uint32_t e = d->org_hash[i];
        if (e == 0) {
            if (d->norg >= ORIGINS)
                return 0; /* full: unknown origin */
            uint32_t n = d->norg++;
            d->org[n].pc = pc;
            d->org[n].stack = stack;
            d->org_hash[i] = n;
            return n;
        }
        if (d->org[e].pc == pc && d->org[e].stack == stack)
            return e;
    }
}

/* The origin id of (pc, stack). */
static inline uint32_t origin_of(struct ravel__detector *d, uint64_t pc,
                                 uint32_t stack)
{
    struct ravel__det_origin_cached *c =
        &d->hot.oc[ravel__det_origin_slot(pc, stack)];
    if (RAVEL__LIKELY(c->pc == pc && c->stack == stack))
        return c->id;
    uint32_t id = origin_intern(d, pc, stack);
    c->pc = pc;
    c->stack = stack;
    c->id = id;
    return id;
}

/*
 * Checks and records one access within one granule. The common cases
 * leave early: the granule holds an access of this thread in this epoch
 * that covers the bytes (a loop's second touch of an element), before
 * any origin is looked up.
 */
static inline __attribute__((always_inline)) bool
granule_access(struct ravel__detector *d, struct ravel__det_leaf *l, uint64_t gaddr,
               uint32_t t, uint8_t mask, uint8_t flags, uint64_t pc,
               uint32_t stack, uint32_t *origin, struct ravel__det_hit *hit,
               bool report, bool checked)
{
    uint32_t gi = (uint32_t)((gaddr >> 3) & (LEAF_GRANULES - 1));
    struct ravel__det_granule *g = &l->g[gi];
    uint32_t epoch = d->hot.thr[t].c[t];
    uint64_t who = ravel__det_who(t, epoch);
    bool write = flags & RAVEL__DET_WRITE;
    bool atomic = flags & RAVEL__DET_ATOMIC;
    /* The cell kind of this access (2 bits), and its free bit. */
    unsigned kind = (write ? RAVEL__DET_K_WRITE : 0u) |
                    (atomic ? RAVEL__DET_K_ATOMIC : 0u);
    uint64_t freebit = (flags & RAVEL__DET_FREE) ? RAVEL__DET_FREE_BIT : 0;
    uint32_t pstamp = l->page_stamp[gi >> (PAGE_BITS - 3)];
    if (g->stamp < d->hot.exec_start || g->stamp < pstamp) {
        g->mask[0] = g->mask[1] = g->mask[2] = 0;
        g->stamp = d->hot.gen;
    }
    unsigned kinds = g->kinds;
    /* Fast path (loops hit it): an access of this thread in this epoch
     * already covers these bytes. A read is then nothing new (anything
     * racing with it races with that access, at the same point of the
     * thread's history); an atomic write neither, if it was a write and
     * no other thread's access to these bytes came since. `checked`: the
     * caller has just asked ravel__det_read_nothing_new, which tests
     * exactly this on the same granule, and was told no. A plain write
     * takes the pass below instead, which leaves the same answers (the
     * write is ordered after everything of this thread) and records its
     * own origin: what ravel__det_write_quick does inline, without this
     * test, and the two must leave the same granule. */
    uint8_t others = 0;
    int own = -1;
    bool shortcut = !checked && (!write || atomic);
    for (unsigned i = 0; i < CELLS && shortcut; i++) {
        uint8_t cm = g->mask[i];
        if (!(cm & mask))
            continue;
        uint64_t c = g->cell[i];
        unsigned ck = (kinds >> (2 * i)) & 3u;
        if ((c >> RAVEL__DET_TID_SHIFT) != t)
            others |= cm;
        else if ((c & RAVEL__DET_WHO_MASK) == who && (cm & mask) == mask &&
                 (!write || (ck & RAVEL__DET_K_WRITE)) &&
                 (atomic || !(ck & RAVEL__DET_K_ATOMIC)))
            own = (int)i;
    }
    if (own >= 0 && (!write || !(others & mask)))
        return false;
    if (*origin == NO_ORIGIN)
        *origin = origin_of(d, pc, stack);
    uint64_t mine = who | freebit | (uint64_t)*origin << RAVEL__DET_ORIGIN_SHIFT;
    const uint32_t *clk = d->hot.thr[t].c;
    /*
     * One pass over the cells. First the check: the first cell (in
     * order) of another thread, overlapping, not ordered before this
     * access, where one of the two writes and not both are atomic, is
     * the race. Then forget what this access supersedes: a write
     * supersedes every earlier access to its bytes (anything racing with
     * them raced with it or was reported); a read supersedes reads that
     * happen before it (a later write racing with those races with this
     * one too); an atomic access only atomic ones (a plain access races
     * with more). Then note where to record it: in a cell of the same
     * thread, epoch, kind and origin if there is one (a loop over an
     * array's elements fills one cell per granule), else in a free cell,
     * else over the oldest read. (Each cell's check reads it before its
     * own masks change, so this is the same as three passes.)
     */
    bool raced = false;
    int free_slot = -1, oldest_read = -1, same = -1;
    uint32_t oldest_clock = 0;
    for (unsigned i = 0; i < CELLS; i++) {
        uint8_t cm = g->mask[i];
        uint64_t c = g->cell[i];
        unsigned ck = (kinds >> (2 * i)) & 3u;
        uint32_t cclock = (uint32_t)c;
        if (cm & mask) {
            bool cw = ck & RAVEL__DET_K_WRITE;
            bool ca = ck & RAVEL__DET_K_ATOMIC;
            uint32_t ctid = (uint32_t)(c >> RAVEL__DET_TID_SHIFT);
            bool before = ctid == t || cclock <= clk[ctid];
            if (!raced && !before && (write || cw) && !(atomic && ca)) {
                raced = true;
                if (report) {
                    uint32_t co = (uint32_t)(c >> RAVEL__DET_ORIGIN_SHIFT) &
                                  ((1u << RAVEL__DET_ORIGIN_BITS) - 1);
                    const struct origin *o = &d->org[co];
                    uint8_t cf = (uint8_t)((cw ? RAVEL__DET_WRITE : 0) |
                                           (ca ? RAVEL__DET_ATOMIC : 0) |
                                           ((c & RAVEL__DET_FREE_BIT)
                                                ? RAVEL__DET_FREE
                                                : 0));
                    struct ravel__det_cell full = {cclock, (uint16_t)ctid, cm,
                                                   cf, o->stack, 0, o->pc};
                    hit->prev = full;
                    hit->prev_addr = gaddr + (uint64_t)__builtin_ctz(cm);
                    hit->prev_size = (uint32_t)__builtin_popcount(cm);
                }
            }
            if ((!atomic || ca) && (write || (!cw && before)))
                g->mask[i] = cm = (uint8_t)(cm & ~mask);
        }
        if (!cm) {
            if (free_slot < 0)
                free_slot = (int)i;
        } else if (c == mine && ck == kind) {
            same = (int)i;
        } else if (!(ck & RAVEL__DET_K_WRITE) &&
                   (oldest_read < 0 || cclock < oldest_clock)) {
            oldest_read = (int)i;
            oldest_clock = cclock;
        }
    }
    if (same >= 0) {
        g->mask[same] |= mask;
    } else {
        /* Full of unordered reads (and a write): forget the oldest read.
         * That can miss a race; it cannot invent one. */
        int slot = free_slot >= 0 ? free_slot
                   : oldest_read >= 0 ? oldest_read
                                      : 0;
        g->cell[slot] = mine;
        g->mask[slot] = mask;
        g->kinds = (uint8_t)((kinds & ~(3u << (2 * slot))) |
                             kind << (2 * slot));
    }
    g->stamp = d->hot.gen;
    return raced;
}

/* A plain read or write (`flags` a constant: the compiler folds the
 * kind's tests away) of 1 to 8 bytes within one granule. */
static inline __attribute__((always_inline)) bool
plain_one(struct ravel__detector *d, uint32_t t, uint64_t addr,
          uint64_t size, uint8_t flags, uint64_t pc, uint32_t stack,
          struct ravel__det_hit *hit, bool checked)
{
    uint32_t origin = NO_ORIGIN;
    /* `checked`: ravel__det_read_nothing_new just said no. If the leaf
     * is in the cache it looked at this granule (it reads the same cache,
     * and nothing ran in between): its answer stands, and the own-cell
     * test is not repeated. A leaf found through the tables it did not
     * look at. */
    const struct ravel__det_leaf_cached *e =
        &d->hot.leaf[(addr >> LEAF_BITS) & (LEAF_CACHE - 1)];
    bool cached = e->base == addr >> LEAF_BITS;
    struct ravel__det_leaf *l =
        cached ? e->leaf : leaf_lookup(d, addr, true);
    if (RAVEL__UNLIKELY(!l))
        return false; /* out of memory: not checked */
    uint8_t mask = (uint8_t)(((1u << size) - 1) << (addr & 7));
    return granule_access(d, l, addr & ~(uint64_t)7, t, mask, flags, pc,
                          stack, &origin, hit, true, checked && cached);
}

bool ravel__det_read(struct ravel__detector *d, uint32_t t, uint64_t addr,
                     uint64_t size, uint64_t pc, uint32_t stack,
                     struct ravel__det_hit *hit)
{
    if (RAVEL__LIKELY(size - 1 < 8 && (addr & 7) + size <= 8))
        return plain_one(d, t, addr, size, 0, pc, stack, hit, true);
    return ravel__det_access(d, t, addr, size, 0, pc, stack, hit);
}

bool ravel__det_write(struct ravel__detector *d, uint32_t t, uint64_t addr,
                      uint64_t size, uint64_t pc, uint32_t stack,
                      struct ravel__det_hit *hit)
{
    if (RAVEL__LIKELY(size - 1 < 8 && (addr & 7) + size <= 8))
        return plain_one(d, t, addr, size, RAVEL__DET_WRITE, pc, stack,
                         hit, false);
    return ravel__det_access(d, t, addr, size, RAVEL__DET_WRITE, pc, stack,
                             hit);
}

/*
 * The whole granules [addr, stop) of one leaf, for a range access (a
 * free of a block, a memset, a memcpy's sides): a granule this execution
 * has not touched is filled directly with the access's one cell - what
 * granule_access leaves in a stale granule, without its passes - and the
 * others go through granule_access with the kind a constant (FLAGS),
 * the leaf looked up once. A free of a block of 10^4 granules cost
 * 70,000 instructions (zopfli in pigz -11 frees such blocks by the
 * hundred thousand: a quarter of a run).
 */
#define WHOLE_GRANULES(FLAGS)                                                  \
    for (; addr < stop; addr += 8) {                                           \
        uint32_t gi = (uint32_t)((addr >> 3) & (LEAF_GRANULES - 1));           \
        struct ravel__det_granule *g = &l->g[gi];                              \
        if (g->stamp < d->hot.exec_start ||                                    \
            g->stamp < l->page_stamp[gi >> (PAGE_BITS - 3)]) {                 \
            g->mask[0] = 0xff;                                                 \
            g->mask[1] = g->mask[2] = 0;                                       \
            g->cell[0] = mine;                                                 \
            g->kinds = (uint8_t)((g->kinds & ~3u) | kind);                     \
            g->stamp = d->hot.gen;                                             \
        } else if (granule_access(d, l, addr, t, 0xff, (FLAGS), pc, stack,    \
                                  origin, hit, !raced, false)) {               \
            raced = true;                                                      \
        }                                                                      \
    }

static bool whole_granules(struct ravel__detector *d, struct ravel__det_leaf *l,
                           uint64_t addr, uint64_t stop, uint32_t t,
                           uint8_t flags, uint64_t pc, uint32_t stack,
                           uint32_t *origin, struct ravel__det_hit *hit,
                           bool raced)
{
    if (*origin == NO_ORIGIN)
        *origin = origin_of(d, pc, stack);
    unsigned kind = ((flags & RAVEL__DET_WRITE) ? RAVEL__DET_K_WRITE : 0u) |
                    ((flags & RAVEL__DET_ATOMIC) ? RAVEL__DET_K_ATOMIC : 0u);
    uint64_t mine = ravel__det_who(t, d->hot.thr[t].c[t]) |
                    ((flags & RAVEL__DET_FREE) ? RAVEL__DET_FREE_BIT : 0) |
                    (uint64_t)*origin << RAVEL__DET_ORIGIN_SHIFT;
    switch (flags) {
    case RAVEL__DET_WRITE | RAVEL__DET_FREE:
        WHOLE_GRANULES(RAVEL__DET_WRITE | RAVEL__DET_FREE)
        break;
    case RAVEL__DET_WRITE:
        WHOLE_GRANULES(RAVEL__DET_WRITE)
        break;
    case 0:
        WHOLE_GRANULES(0)
        break;
    default:
        WHOLE_GRANULES(flags)
        break;
    }
    return raced;
}
#undef WHOLE_GRANULES

bool ravel__det_access(struct ravel__detector *d, uint32_t t, uint64_t addr,
                       uint64_t size, uint8_t flags, uint64_t pc,
                       uint32_t stack, struct ravel__det_hit *hit)
{
    uint32_t origin = NO_ORIGIN;
    /* Most accesses: 1 to 8 bytes within one granule. */
    uint64_t off = addr & 7;
    if (RAVEL__LIKELY(size - 1 < 8 && off + size <= 8)) {
        struct ravel__det_leaf *l = leaf_get(d, addr, true);
        if (RAVEL__UNLIKELY(!l))
            return false; /* out of memory: not checked */
        uint8_t mask = (uint8_t)(((1u << size) - 1) << off);
        return granule_access(d, l, addr & ~(uint64_t)7, t, mask, flags, pc,
                              stack, &origin, hit, true, false);
    }
    bool raced = false;
    uint64_t end = addr + size;
    if (end < addr)
        end = UINT64_MAX;
    while (addr < end) {
        off = addr & 7;
        if (off == 0 && end - addr >= 8) {
            /* Whole granules, up to the end of this leaf. */
            struct ravel__det_leaf *l = leaf_get(d, addr, true);
            if (!l)
                return raced; /* out of memory: not checked */
            uint64_t stop = (addr | ((1ull << LEAF_BITS) - 1)) + 1;
            uint64_t whole = end & ~(uint64_t)7;
            if (stop == 0 || stop > whole)
                stop = whole;
            raced = whole_granules(d, l, addr, stop, t, flags, pc, stack,
                                   &origin, hit, raced);
            addr = stop;
            continue;
        }
        uint64_t n = 8 - off;
        if (n > end - addr)
            n = end - addr;
        uint8_t mask = (uint8_t)(((1u << n) - 1) << off);
        struct ravel__det_leaf *l = leaf_get(d, addr, true);
        if (!l)
            return raced; /* out of memory: not checked */
        if (granule_access(d, l, addr & ~(uint64_t)7, t, mask, flags, pc,
                           stack, &origin, hit, !raced, false))
            raced = true;
        addr += n;
    }
    return raced;
}

bool ravel__det_atomic(struct ravel__detector *d, const struct ravel__exec *x,
                       const struct ravel__event *ev, int64_t mo,
                       uint64_t addr, uint64_t size, uint64_t pc,
                       uint32_t stack, struct ravel__det_hit *hit)
{
    (void)x;
    uint32_t t = ev->thread;
    bool reads = ev->kind != RAVEL__OP_ATOMIC_STORE;
    bool writes = ravel__det_atomic_stores(ev);
    /* The object's clock once for both sides. */
    uint32_t *l = clock_of(d, ev->obj, 0);
    if (reads)
        atomic_read_clock(d, t, l, mo);
    bool raced;
    uint64_t off = addr & 7;
    struct ravel__det_leaf *leaf;
    if (RAVEL__LIKELY(size - 1 < 8 && off + size <= 8) &&
        (leaf = leaf_get(d, addr, true)) != NULL) {
        /* The access within one granule, with its kind a constant in
         * each call (as plain_one does for plain accesses): the tests of
         * the kind fold away. */
        uint32_t origin = NO_ORIGIN;
        uint8_t mask = (uint8_t)(((1u << size) - 1) << off);
        uint64_t g = addr & ~(uint64_t)7;
        raced = writes ? granule_access(d, leaf, g, t, mask,
                                        RAVEL__DET_ATOMIC | RAVEL__DET_WRITE,
                                        pc, stack, &origin, hit, true, false)
                       : granule_access(d, leaf, g, t, mask, RAVEL__DET_ATOMIC,
                                        pc, stack, &origin, hit, true, false);
    } else {
        uint8_t flags = RAVEL__DET_ATOMIC | (writes ? RAVEL__DET_WRITE : 0);
        raced = ravel__det_access(d, t, addr, size, flags, pc, stack, hit);
    }
    if (writes)
        atomic_write_clock(d, t, l, mo, ev->kind != RAVEL__OP_ATOMIC_STORE);
    return raced;
}

void ravel__det_reset(struct ravel__detector *d, uint64_t addr,
                      uint64_t size)
{
    uint64_t end = addr + size;
    if (end < addr)
        end = UINT64_MAX;
    uint32_t stamp = next_gen(d);
    const uint64_t page = 1ull << PAGE_BITS;
    /* Leaf by leaf, straight through the tables (a thread's whole stack
     * is reset at every thread start, mostly never touched: absent leaves
     * and tables must cost a pointer test each). */
    while (addr < end) {
        uint64_t ti = (addr >> 32) & ((1u << TOP_BITS) - 1);
        const struct mid *m = d->top[ti];
        if (!m) {
            uint64_t next = ((addr >> 32) + 1) << 32;
            addr = next > addr ? next : end;
            continue;
        }
        uint64_t leaf_end = (addr | ((1ull << LEAF_BITS) - 1)) + 1;
        struct ravel__det_leaf *l = m->leaf[(addr >> LEAF_BITS) & ((1u << MID_BITS) - 1)];
        uint64_t stop = end < leaf_end || leaf_end == 0 ? end : leaf_end;
        if (!l) {
            addr = stop;
            continue;
        }
        while (addr < stop) {
            if ((addr & (page - 1)) == 0 && stop - addr >= page) {
                l->page_stamp[(addr >> PAGE_BITS) & (LEAF_PAGES - 1)] = stamp;
                addr += page;
                continue;
            }
            /* A granule only partly in the range is shared with other
             * memory (never for malloc's 16-byte-aligned blocks): forget
             * it too, which can only miss races. */
            l->g[(addr >> 3) & (LEAF_GRANULES - 1)].stamp = 0;
            addr = (addr & ~(uint64_t)7) + 8;
        }
    }
}
