/*
 * detect.h - the data-race detector: C11 happens-before over the events
 * ravel controls, and FastTrack-style shadow memory for every plain access
 * the compiler reports.
 *
 * Two accesses to the same byte *race* when they come from different
 * threads, at least one writes, they are not both atomic, and neither
 * happens before the other. Happens-before is C11's:
 *
 *   program order                   each thread's events in order
 *   create -> child's first event   the child starts with its parent's clock
 *   child's last event -> join      join takes the finished thread's clock
 *   unlock -> later lock            mutexes, spinlocks, rwlocks (a reader's
 *                                   unlock reaches the next writer, a
 *                                   writer's unlock everyone), condition
 *                                   waits releasing and reacquiring
 *   signal/broadcast -> woken wait  (a wait that timed out takes only its
 *                                   mutex back)
 *   sem_post -> sem_wait            and sem_trywait, sem_getvalue
 *   barrier arrivals -> departures  of the same round
 *   once completion -> every caller that finds it done
 *   release -> acquire              a release (or stronger) store or RMW
 *                                   and an acquire (or stronger) load or
 *                                   RMW that reads from it or from its
 *                                   release sequence (later RMWs of any
 *                                   thread, stores of the same thread)
 *   fences                          a release fence makes the thread's
 *                                   next relaxed stores release it; an
 *                                   acquire fence acquires what the
 *                                   thread's earlier relaxed loads read
 *   atomic sections                 ravel_atomic_begin/end and SV-COMP's
 *                                   __VERIFIER_atomic_* act as one lock
 *
 * Relaxed atomics create no synchronisation (a relaxed store leaves the
 * location's release clock as it was, as ThreadSanitizer does: C11 would
 * end other threads' release sequences there, and keeping them keeps
 * edges). A seq_cst operation is
 * acquire and release; a seq_cst fence is an acquire-release fence (C11
 * gives sequentially consistent fences no synchronizes-with edges of their
 * own). When the model has to choose, it keeps an edge rather than drop
 * one: a kept edge can hide a race, a dropped one would invent it, and
 * ravel never reports a race that is not there.
 *
 * This is not the happens-before of src/explore/depend.h. That one orders
 * *dependent visible operations* (two atomic loads of one variable in one
 * order or the other, a lock's acquisitions) so that DPOR can tell which
 * schedules are equivalent; relaxed atomics order each other there. This
 * one is the language's: it says which plain accesses are ordered, and
 * relaxed atomics order nothing.
 *
 * Vector clocks. Each thread t has a clock C_t (one entry per thread of
 * the execution); C_t[t] is t's current epoch, incremented after each
 * release it performs. Synchronisation objects (model objects, by index)
 * keep the clocks released into them.
 *
 * Shadow memory. Memory is shadowed in 8-byte granules. A granule holds
 * up to three *cells*: (thread, epoch, byte mask, read/write/free/atomic,
 * origin), the origin being the access's (pc, stack) interned as one
 * 21-bit number, so a cell is one 64-bit word plus its mask and kind in
 * the granule's header word (32 bytes a granule). For every byte, the
 * cells covering it are the last write and the reads since then that
 * are not ordered with each other (FastTrack's read set), so an access
 * checks only those, and partial overlaps (two ints sharing a granule,
 * an unaligned access straddling two) are exact.
 * When a fourth cell would be needed (more than two unordered readers of
 * one granule since its last write) the oldest read cell is forgotten:
 * that can miss a race, never invent one. Shadow leaves are found through
 * a two-level table on the address and allocated on first touch:
 *
 *     addr bits 47..32 -> L2 table   bits 31..16 -> leaf   bits 15..3 ->
 *     granule (32 bytes)             a leaf shadows 64 KiB (8192 granules)
 *
 * with a 256-entry direct-mapped cache of leaves in front. The layout is
 * in this header (below) for one reason: the access hooks' inline paths,
 * ravel__det_nothing_new_at, which settles a read that repeats one of
 * this epoch, and ravel__det_quick_at, which checks and records the
 * accesses ordered after the granule's earlier ones (a lock's), both
 * without a call into the detector (ravel__det_read_nothing_new,
 * ravel__det_read_quick and ravel__det_write_quick: the same from an
 * address).
 *
 * Forgetting. Nothing is cleared between executions: every granule
 * carries a stamp, and a granule whose stamp is older than the execution
 * (or than its 4 KiB page's reset, for memory handed out afresh: new heap
 * blocks, a new thread's stack) reads as empty.
 *
 * Only one program thread runs at a time (that is how ravel runs
 * programs), so there are no locks anywhere here. The detector allocates
 * only through the page provider it is given: the runtime maps pages the
 * program never sees.
 */
#ifndef RAVEL_DETECT_H
#define RAVEL_DETECT_H

#include "model.h"

/* Access flags. */
#define RAVEL__DET_WRITE 1u
#define RAVEL__DET_FREE 2u /* free() or realloc() moving the block */
#define RAVEL__DET_ATOMIC 4u /* an atomic operation: races only with plain
                                accesses (two atomics never race) */

/* One remembered access to some bytes of a granule. */
struct ravel__det_cell {
    uint32_t clock; /* the thread's epoch when it accessed */
    uint16_t tid;   /* model thread index */
    uint8_t mask;   /* bytes of the granule it covers (0: empty cell) */
    uint8_t flags;  /* RAVEL__DET_* */
    uint32_t stack; /* caller's stack id (opaque to the detector) */
    uint32_t pad;
    uint64_t pc;
};

/* A race: the earlier access the current one races with. */
struct ravel__det_hit {
    uint64_t prev_addr; /* first byte of the earlier access in the granule */
    uint32_t prev_size; /* its bytes in that granule */
    struct ravel__det_cell prev;
};

/* Where the detector gets memory: zeroed, page-aligned blocks that are
 * only touched (and so only cost memory) where written. */
struct ravel__det_mem {
    void *(*map)(size_t bytes, void *ctx);
    void *ctx;
};

struct ravel__detector;

/* ---- the shadow's layout, for the inline check below ------------------ */

#define RAVEL__DET_CELLS 3
#define RAVEL__DET_LEAF_BITS 16 /* a leaf shadows 64 KiB */
#define RAVEL__DET_LEAF_GRANULES (1u << (RAVEL__DET_LEAF_BITS - 3))
#define RAVEL__DET_PAGE_BITS 12 /* reset granularity for large ranges */
#define RAVEL__DET_LEAF_PAGES (1u << (RAVEL__DET_LEAF_BITS - \
                                      RAVEL__DET_PAGE_BITS))
#define RAVEL__DET_LEAF_CACHE 256 /* direct-mapped cache of leaf lookups */

/*
 * A granule: 32 bytes, so that (leaves being page-aligned, the granules
 * after a 64-byte header) every granule lies in one cache line and a
 * loop over an array moves 4 bytes of shadow per byte of memory. The
 * header word holds the stamp, each cell's byte mask and each cell's
 * kind (2 bits: bit 0 write, bit 1 atomic); each cell is one 64-bit word:
 *
 *     bits 63..54  thread (model thread index, < RAVEL__MAX_THREADS)
 *     bit  53      free (a free() or moving realloc(), always a write)
 *     bits 52..32  origin: the code location and stack, interned
 *     bits 31..0   the thread's epoch when it accessed
 *
 * so "this thread, this epoch" is one compare of a masked word. A cell
 * whose mask is 0 is empty.
 */
#define RAVEL__DET_TID_SHIFT 54
#define RAVEL__DET_FREE_BIT (1ull << 53)
#define RAVEL__DET_ORIGIN_SHIFT 32
#define RAVEL__DET_ORIGIN_BITS 21
#define RAVEL__DET_WHO_MASK (~0ull << RAVEL__DET_TID_SHIFT | 0xffffffffull)
#define RAVEL__DET_K_WRITE 1u
#define RAVEL__DET_K_ATOMIC 2u

struct ravel__det_granule {
    uint32_t stamp; /* generation when last written; older: empty */
    uint8_t mask[RAVEL__DET_CELLS]; /* bytes each cell covers */
    uint8_t kinds;  /* 2 bits per cell: RAVEL__DET_K_* */
    uint64_t cell[RAVEL__DET_CELLS];
};

/* The header (stamp, masks, kinds) read as one little-endian word: the
 * bit where cell 0's mask starts, and where the kinds do. */
#define RAVEL__DET_HDR_MASK 32
#define RAVEL__DET_HDR_KINDS 56
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
                   offsetof(struct ravel__det_granule, mask) ==
                       RAVEL__DET_HDR_MASK / 8 &&
                   offsetof(struct ravel__det_granule, kinds) ==
                       RAVEL__DET_HDR_KINDS / 8 &&
                   offsetof(struct ravel__det_granule, cell) == 8,
               "a granule's header is one word");

/* The word of thread t at epoch e, for comparing with a cell's
 * (cell & RAVEL__DET_WHO_MASK). */
static inline uint64_t ravel__det_who(uint32_t t, uint32_t e)
{
    return (uint64_t)t << RAVEL__DET_TID_SHIFT | e;
}

struct ravel__det_leaf {
    uint32_t page_stamp[RAVEL__DET_LEAF_PAGES]; /* reset of a 4 KiB page */
    struct ravel__det_granule g[RAVEL__DET_LEAF_GRANULES];
};

/* A direct-mapped cache of origins, in front of the detector's hash
 * table of (pc, stack) pairs: a zeroed entry is origin 0, (0, 0). */
#define RAVEL__DET_ORIGIN_CACHE 4096
struct ravel__det_origin_cached {
    uint64_t pc;
    uint32_t stack;
    uint32_t id;
};

struct ravel__det_thread_clocks {
    uint32_t c[RAVEL__MAX_THREADS], acq[RAVEL__MAX_THREADS],
        rel[RAVEL__MAX_THREADS];
    uint32_t barrier_slot; /* clock slot of the barrier round it is in */
    uint8_t dirty;         /* acq or rel may be non-zero (RAVEL__DET_ACQ,
                              RAVEL__DET_REL): only relaxed loads and
                              release fences write them, so a thread
                              created in their place clears them only
                              then */
    /* The origin of the thread's last quick read ([0]) and write ([1]),
     * an origin cache entry of its own: a loop's accesses at one code
     * location skip the cache's hash. Origins are never forgotten, so a
     * memo stays true across executions and threads. */
    struct ravel__det_origin_cached memo[2];
};
#define RAVEL__DET_ACQ 1
#define RAVEL__DET_REL 2

/* An entry no address has (addresses have 64 - RAVEL__DET_LEAF_BITS
 * bits of base): an entry whose base matches has its leaf, no second
 * test. */
#define RAVEL__DET_NO_BASE UINT64_MAX
struct ravel__det_leaf_cached {
    uint64_t base; /* address >> RAVEL__DET_LEAF_BITS, or RAVEL__DET_NO_BASE */
    struct ravel__det_leaf *leaf;
};

static inline uint32_t ravel__det_origin_slot(uint64_t pc, uint32_t stack)
{
    return (uint32_t)((pc ^ (pc >> 11) ^ (stack * 0x9e3779b1u)) &
                      (RAVEL__DET_ORIGIN_CACHE - 1));
}

/* The first member of a detector: what the inline checks read. */
struct ravel__det_hot {
    struct ravel__det_thread_clocks *thr; /* per thread */
    uint32_t exec_start; /* generation when the execution began */
    uint32_t gen;        /* grows at every execution start and reset: a
                            granule's stamp when written */
    struct ravel__det_origin_cached *oc; /* RAVEL__DET_ORIGIN_CACHE */
    struct ravel__det_leaf_cached leaf[RAVEL__DET_LEAF_CACHE];
};

/* The granule of a 1-8 byte access within one granule whose leaf is in
 * the lookup cache, NULL otherwise; *live: this execution has written
 * it (its stamp is not stale: a stale granule's cells are empty, whatever
 * they hold). What both inline checks start with. */
static inline __attribute__((always_inline)) struct ravel__det_granule *
ravel__det_leaf_granule(const struct ravel__det_hot *h, uint64_t addr,
                        uint64_t size, bool *live)
{
    *live = false;
    uint64_t off = addr & 7;
    if (RAVEL__UNLIKELY(size - 1 >= 8 || off + size > 8))
        return NULL;
    uint64_t base = addr >> RAVEL__DET_LEAF_BITS;
    const struct ravel__det_leaf_cached *e =
        &h->leaf[base & (RAVEL__DET_LEAF_CACHE - 1)];
    if (RAVEL__UNLIKELY(e->base != base))
        return NULL;
    struct ravel__det_leaf *l = e->leaf;
    uint32_t gi = (uint32_t)((addr >> 3) & (RAVEL__DET_LEAF_GRANULES - 1));
    struct ravel__det_granule *g = &l->g[gi];
    uint32_t stamp = g->stamp;
    *live = stamp >= h->exec_start &&
            stamp >= l->page_stamp[gi >> (RAVEL__DET_PAGE_BITS - 3)];
    /* From here on the granule is one pointer: without this gcc
     * addresses its cells from the leaf and the index, one register
     * more on the inline paths (callgrind, the lock workload: 12
     * instructions more a write, one more a read). */
    __asm__("" : "+r"(g));
    if (!g)
        __builtin_unreachable(); /* (what the asm hid) */
    return g;
}

/* The same, NULL when the granule is stale. */
static inline __attribute__((always_inline)) struct ravel__det_granule *
ravel__det_cached_granule(const struct ravel__det_hot *h, uint64_t addr,
                          uint64_t size)
{
    bool live;
    struct ravel__det_granule *g = ravel__det_leaf_granule(h, addr, size,
                                                           &live);
    return live ? g : NULL;
}

/*
 * Would a plain read by thread t of [addr, addr+size) find nothing to do
 * in ravel__det_access - no race possible, nothing to record? True when a
 * cell of thread t in its current epoch already covers the bytes: the
 * read adds nothing to the history (anything racing with it races with
 * that access, at the same point of the thread's history). It reads the
 * shadow only, so calling ravel__det_read after a false answer gives the
 * same result as ravel__det_access alone: this is the read hooks' fast
 * path (a loop reading back what it wrote, or reading a value twice),
 * with no call into the detector. Only accesses of 1 to 8 bytes within
 * one granule whose leaf is in the lookup cache; false otherwise.
 * ravel__det_nothing_new_at asks it of the access's granule g, from
 * ravel__det_cached_granule.
 */
static inline __attribute__((always_inline)) bool
ravel__det_nothing_new_at(const struct ravel__det_hot *h,
                          const struct ravel__det_granule *g, uint32_t t,
                          uint64_t addr, uint64_t size)
{
    uint64_t who = ravel__det_who(t, h->thr[t].c[t]);
    uint64_t mask = ((1u << size) - 1) << (addr & 7);
    /* The header word once (masks and kinds), the cells unrolled. */
    uint64_t hdr;
    __builtin_memcpy(&hdr, g, sizeof hdr);
#pragma GCC unroll 3
    for (unsigned i = 0; i < RAVEL__DET_CELLS; i++)
        if ((g->cell[i] & RAVEL__DET_WHO_MASK) == who && /* (seldom) */
            ((hdr >> (RAVEL__DET_HDR_MASK + 8 * i)) & mask) == mask &&
            !((hdr >> (RAVEL__DET_HDR_KINDS + 2 * i)) & RAVEL__DET_K_ATOMIC))
            return true;
    return false;
}

/*
 * The same for a read of 2 to 8 bytes that straddles two granules (an
 * unaligned load: zstd's match finder reads 4 and 8 bytes at every byte
 * offset of its input, 34 million such reads in one execution of
 * `zstd -T4 -19` on 3.5 MB, each a call into the whole detector before):
 * the detector takes such a read as one access per granule, with the
 * bytes it covers in each, so it adds nothing when neither part does.
 * False for any other access, and when either granule's leaf is not in
 * the lookup cache.
 */
static inline __attribute__((always_inline)) bool
ravel__det_nothing_new_split(const struct ravel__det_hot *h, uint32_t t,
                             uint64_t addr, uint64_t size)
{
    if (size - 2 >= 7 || (addr & 7) + size <= 8)
        return false; /* not 2 to 8 bytes across two granules */
    uint64_t hi = (addr | 7) + 1; /* the second granule's first byte */
    uint64_t lo_size = hi - addr;
    bool live;
    const struct ravel__det_granule *g =
        ravel__det_leaf_granule(h, addr, lo_size, &live);
    if (!g || !live || !ravel__det_nothing_new_at(h, g, t, addr, lo_size))
        return false;
    g = ravel__det_leaf_granule(h, hi, size - lo_size, &live);
    return g && live &&
           ravel__det_nothing_new_at(h, g, t, hi, size - lo_size);
}

static inline __attribute__((always_inline)) bool
ravel__det_read_nothing_new(const struct ravel__detector *d, uint32_t t,
                            uint64_t addr, uint64_t size)
{
    const struct ravel__det_hot *h = (const struct ravel__det_hot *)d;
    const struct ravel__det_granule *g =
        ravel__det_cached_granule(h, addr, size);
    if (g)
        return ravel__det_nothing_new_at(h, g, t, addr, size);
    return ravel__det_nothing_new_split(h, t, addr, size);
}

/*
 * A plain access by thread t of [addr, addr+size) at (pc, stack) (a
 * write when `write`, a compile-time constant), checked and recorded
 * inline when that is simple: true when done, with the granule as
 * ravel__det_read or ravel__det_write would have left it. Simple is: an
 * access of 1 to 8 bytes within one granule whose leaf is in the lookup
 * cache (ravel__det_leaf_granule found it: g; live: as it said - a
 * stale granule is taken as empty, as the detector takes it), an origin
 * in the thread's memo or the origin cache, no race (an overlapping
 * cell not ordered before the access is for the detector to report, if
 * it races), and a place to record the access - the cell of this
 * thread, epoch, origin and kind, or a cell the access empties or found
 * empty. False otherwise, having changed nothing: then the detector does
 * the whole access. For a read, ravel__det_nothing_new_at must have
 * said no. These are the hooks' fast paths: a loop's first access to
 * each element in an epoch, after other threads' accesses that a lock
 * orders before it, costs no call into the detector.
 */
static inline __attribute__((always_inline)) bool
ravel__det_quick_at(struct ravel__detector *d, struct ravel__det_granule *g,
                    bool live, uint32_t t, uint64_t addr, uint64_t size,
                    uint64_t pc, uint32_t stack, bool write)
{
    struct ravel__det_hot *h = (struct ravel__det_hot *)d;
    struct ravel__det_thread_clocks *tc = &h->thr[t];
    const uint32_t *clk = tc->c;
    unsigned mask = ((1u << size) - 1) << (addr & 7);
    unsigned kind = write ? RAVEL__DET_K_WRITE : 0u;
    /* The header word, changed in a register and stored once: the
     * stamp, then each cell's mask (from bit RAVEL__DET_HDR_MASK), then
     * the kinds. */
    uint64_t hdr;
    __builtin_memcpy(&hdr, g, sizeof hdr);
    if (!live) /* no cell holds anything (the kinds stay, as there) */
        hdr &= ~(0xffffffull << RAVEL__DET_HDR_MASK);
    uint64_t bytes = (uint64_t)mask * 0x010101u << RAVEL__DET_HDR_MASK;
    uint64_t over = hdr & bytes;
    /* First the cells the access overlaps: one not ordered before it
     * that it may race with (a write's any, a read's a write) is for
     * the detector; a read supersedes, on its bytes, the reads ordered
     * before it (`clear`: their cells' masks), a write every earlier
     * access to its bytes. */
    uint64_t clear = 0;
#pragma GCC unroll 3
    for (unsigned i = 0; i < RAVEL__DET_CELLS; i++) {
        unsigned at = RAVEL__DET_HDR_MASK + 8 * i;
        if (!((over >> at) & 0xffu))
            continue;
        uint64_t c = g->cell[i];
        unsigned ck = (unsigned)(hdr >> (RAVEL__DET_HDR_KINDS + 2 * i)) & 3u;
        /* Ordered before the access when its epoch is within the
         * thread's clock: a cell of thread t itself always is (its
         * epoch was t's then; a cell left from before this execution is
         * not live), so no test of the thread. */
        if ((uint32_t)c > clk[c >> RAVEL__DET_TID_SHIFT]) {
            if (write || (ck & RAVEL__DET_K_WRITE))
                return false; /* may race */
        } else if (!write && !(ck & RAVEL__DET_K_WRITE)) {
            clear |= 0xffull << at;
        }
    }
    uint64_t next = write ? hdr & ~bytes : hdr & ~(over & clear);
    /* Then its origin, from the thread's memo or else the origin cache
     * (not there: the detector interns it), and where it goes: the last
     * cell of this thread, epoch, origin and kind that still holds
     * bytes, or else the first empty one. */
    struct ravel__det_origin_cached *memo = &tc->memo[write];
    uint32_t id = memo->id;
    if (RAVEL__UNLIKELY(memo->pc != pc || memo->stack != stack)) {
        const struct ravel__det_origin_cached *oc =
            &h->oc[ravel__det_origin_slot(pc, stack)];
        if (oc->pc != pc || oc->stack != stack)
            return false;
        id = oc->id;
        memo->pc = pc;
        memo->stack = stack;
        memo->id = id;
    }
    uint64_t mine = ravel__det_who(t, clk[t]) |
                    (uint64_t)id << RAVEL__DET_ORIGIN_SHIFT;
    int slot = -1;
#pragma GCC unroll 3
    for (int i = RAVEL__DET_CELLS - 1; i >= 0; i--)
        if (g->cell[i] == mine &&
            ((next >> (RAVEL__DET_HDR_MASK + 8 * i)) & 0xff) &&
            ((hdr >> (RAVEL__DET_HDR_KINDS + 2 * i)) & 3u) == kind) {
            slot = i;
            break;
        }
    if (slot < 0) {
        uint64_t masks = next >> RAVEL__DET_HDR_MASK;
        if (!(masks & 0xff))
            slot = 0;
        else if (!(masks & 0xff00))
            slot = 1;
        else if (!(masks & 0xff0000))
            slot = 2;
        else
            return false; /* full: the detector forgets a read */
        g->cell[slot] = mine;
        unsigned at = RAVEL__DET_HDR_KINDS + 2 * slot;
        next = (next & ~(3ull << at)) | (uint64_t)kind << at;
    }
    next |= (uint64_t)mask << (RAVEL__DET_HDR_MASK + 8 * slot);
    next = (next & ~0xffffffffull) | h->gen;
    __builtin_memcpy(g, &next, sizeof next);
    return true;
}

/* The read's whole inline path from the address, as the hooks take
 * it: nothing new, then the rest (so false means that nothing new said
 * no). */
static inline __attribute__((always_inline)) bool
ravel__det_read_quick(struct ravel__detector *d, uint32_t t, uint64_t addr,
                      uint64_t size, uint64_t pc, uint32_t stack)
{
    struct ravel__det_hot *h = (struct ravel__det_hot *)d;
    bool live;
    struct ravel__det_granule *g = ravel__det_leaf_granule(h, addr, size,
                                                           &live);
    if (!g)
        return ravel__det_nothing_new_split(h, t, addr, size);
    return (live && ravel__det_nothing_new_at(h, g, t, addr, size)) ||
           ravel__det_quick_at(d, g, live, t, addr, size, pc, stack, false);
}

static inline __attribute__((always_inline)) bool
ravel__det_write_quick(struct ravel__detector *d, uint32_t t, uint64_t addr,
                       uint64_t size, uint64_t pc, uint32_t stack)
{
    bool live;
    struct ravel__det_granule *g = ravel__det_leaf_granule(
        (struct ravel__det_hot *)d, addr, size, &live);
    return g && ravel__det_quick_at(d, g, live, t, addr, size, pc, stack,
                                    true);
}

/* A detector for executions of up to max_objects model objects; NULL
 * when memory cannot be had. Lives as long as the process. */
struct ravel__detector *ravel__det_new(const struct ravel__det_mem *mem,
                                       uint32_t max_objects);

/* A new execution: thread 0 alone, no access remembered. O(1): the
 * shadow is forgotten by stamps, not cleared. */
void ravel__det_begin(struct ravel__detector *d);

/* The happens-before effect of event ev, just applied by the model (arg:
 * the operation's argument, the memory order of an atomic). Thread
 * creation, joins, locks ... everything goes through here. */
void ravel__det_event(struct ravel__detector *d, const struct ravel__exec *x,
                      const struct ravel__event *ev, int64_t arg);

/* Does atomic event ev store (a store, an RMW, a successful CAS)? */
static inline bool ravel__det_atomic_stores(const struct ravel__event *ev)
{
    return ev->kind == RAVEL__OP_ATOMIC_STORE ||
           ev->kind == RAVEL__OP_ATOMIC_RMW ||
           (ev->kind == RAVEL__OP_ATOMIC_CAS && ev->aux == 1);
}

/*
 * An atomic operation (event ev, just applied by the model; mo its memory
 * order) on [addr, addr+size): its acquire side, then the access itself
 * (checked against plain accesses, as an atomic read, or write when it
 * stores: a store, a read-modify-write, a successful compare-exchange),
 * then its release side. The access is recorded at the epoch the release
 * publishes, so a thread that acquires it is ordered after it. Returns
 * true, filling *hit, when it races with a plain access.
 */
bool ravel__det_atomic(struct ravel__detector *d, const struct ravel__exec *x,
                       const struct ravel__event *ev, int64_t mo,
                       uint64_t addr, uint64_t size, uint64_t pc,
                       uint32_t stack, struct ravel__det_hit *hit);

/* Entering (begin) or leaving the outermost atomic section of thread t:
 * sections exclude each other, so they order like one global lock. */
void ravel__det_atomic_section(struct ravel__detector *d, uint32_t t,
                               bool begin);

/*
 * An access by thread t to [addr, addr+size): checks it against the
 * remembered accesses, remembers it, and returns true (filling *hit with
 * the first earlier access found racing) when it races. Sizes above 8
 * and unaligned accesses are split by granule.
 */
bool ravel__det_access(struct ravel__detector *d, uint32_t t, uint64_t addr,
                       uint64_t size, uint8_t flags, uint64_t pc,
                       uint32_t stack, struct ravel__det_hit *hit);

/* The same for a plain read or write, the kind fixed: the access hooks'
 * entry points. ravel__det_read is to be called only right after
 * ravel__det_read_nothing_new answered false for the same access (it
 * does not repeat that test). */
bool ravel__det_read(struct ravel__detector *d, uint32_t t, uint64_t addr,
                     uint64_t size, uint64_t pc, uint32_t stack,
                     struct ravel__det_hit *hit);
bool ravel__det_write(struct ravel__detector *d, uint32_t t, uint64_t addr,
                      uint64_t size, uint64_t pc, uint32_t stack,
                      struct ravel__det_hit *hit);

/* Forgets every access to [addr, addr+size): the memory is new (a heap
 * block just allocated, a stack given to a new thread). */
void ravel__det_reset(struct ravel__detector *d, uint64_t addr,
                      uint64_t size);

/* Does thread t's clock include thread u's epoch `clock` (u's event at
 * that epoch happens before t's next one)? For tests. */
/* --memory-model rc11 (src/rt/rc11.c): a load may read an older store
 * than the newest, and must synchronise with that store's release, not
 * the newest one's. ravel__det_obj_clock_get copies object o's release
 * clock (the one atomic loads of o acquire) into out and returns how many
 * entries it copied (the detector's width, at most RAVEL__MAX_THREADS);
 * ravel__det_obj_clock_set makes it the n entries of in (zero beyond). */
uint32_t ravel__det_obj_clock_get(struct ravel__detector *d, uint32_t o,
                                  uint32_t *out);
void ravel__det_obj_clock_set(struct ravel__detector *d, uint32_t o,
                              const uint32_t *in, uint32_t n);
bool ravel__det_knows(const struct ravel__detector *d, uint32_t t,
                      uint32_t u, uint32_t clock);
/* Thread t's current epoch. */
uint32_t ravel__det_epoch(const struct ravel__detector *d, uint32_t t);

/* Memory the shadow and its tables use (bytes mapped), for benchmarks. */
size_t ravel__det_mapped(const struct ravel__detector *d);

#endif
