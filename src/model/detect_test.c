/*
 * detect_test.c - the race detector on hand-made executions: which pairs
 * of accesses race, byte by byte, and which events order them.
 *
 * The events are built directly (thread, kind, object, flags), as the
 * model would log them; "memory" is a fake address range (the detector
 * never dereferences addresses).
 */
#include "detect.h"

#include "../../tests/check.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define A 0x10000000ull /* fake addresses */

static void *map(size_t bytes, void *ctx)
{
    (void)ctx;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static struct ravel__detector *det;
static struct ravel__exec *x;

static void begin(uint32_t threads)
{
    if (!det) {
        struct ravel__det_mem mem = {map, NULL};
        det = ravel__det_new(&mem, 64);
        size_t sz = ravel__exec_size(64, 64);
        x = ravel__exec_layout(calloc(1, sz), 64, 64);
    }
    ravel__det_begin(det);
    ravel__exec_begin(x, 0);
    /* Thread 0 creates 1 .. threads-1. */
    for (uint32_t c = 1; c < threads; c++) {
        struct ravel__event ev = {0};
        ev.thread = 0;
        ev.kind = RAVEL__OP_CREATE;
        ev.aux = c;
        ravel__det_event(det, x, &ev, 0);
        x->threads[c].state = RAVEL__T_LIVE;
    }
    x->nthreads = threads;
}

static void event(uint32_t t, uint16_t kind, uint32_t obj, uint32_t aux,
                  int64_t arg)
{
    struct ravel__event ev = {0};
    ev.thread = t;
    ev.kind = kind;
    ev.obj = obj;
    ev.aux = aux;
    ravel__det_event(det, x, &ev, arg);
}

static bool acc(uint32_t t, uint64_t addr, uint64_t size, bool write)
{
    struct ravel__det_hit hit;
    return ravel__det_access(det, t, addr, size,
                             write ? RAVEL__DET_WRITE : 0, 0x1000 + t, 0,
                             &hit);
}

CHECK_TEST(unordered_writes_race_reads_do_not)
{
    begin(3);
    CHECK(!acc(1, A, 4, false));
    CHECK(!acc(2, A, 4, false)); /* read-read */
    CHECK(acc(2, A, 4, true));   /* write after 1's read */
    begin(3);
    CHECK(!acc(1, A, 4, true));
    CHECK(acc(2, A, 4, false));
}

CHECK_TEST(bytes_of_a_granule_are_separate)
{
    begin(3);
    CHECK(!acc(1, A, 4, true));
    CHECK(!acc(2, A + 4, 4, true)); /* the other int of the granule */
    CHECK(!acc(2, A + 4, 2, false));
    CHECK(acc(2, A + 3, 2, false)); /* overlaps 1's last byte */
    /* Unaligned, straddling two granules. */
    begin(3);
    CHECK(!acc(1, A + 8, 1, true));
    CHECK(acc(2, A + 6, 4, true));
    /* A range over many granules. */
    begin(3);
    CHECK(!acc(1, A + 100, 1, true));
    CHECK(!acc(2, A, 100, true));
    CHECK(acc(2, A, 101, false));
}

CHECK_TEST(mutex_orders_and_only_the_same_mutex)
{
    begin(3);
    acc(1, A, 8, true);
    event(1, RAVEL__OP_MUTEX_UNLOCK, 5, RAVEL__NONE, 0);
    event(2, RAVEL__OP_MUTEX_LOCK, 6, RAVEL__NONE, 0); /* another mutex */
    CHECK(acc(2, A, 8, false));
    begin(3);
    acc(1, A, 8, true);
    event(1, RAVEL__OP_MUTEX_UNLOCK, 5, RAVEL__NONE, 0);
    event(2, RAVEL__OP_MUTEX_LOCK, 5, RAVEL__NONE, 0);
    CHECK(!acc(2, A, 8, true));
    /* What 1 writes after its unlock is not ordered. */
    acc(1, A + 16, 8, true);
    CHECK(acc(2, A + 16, 8, true));
}

CHECK_TEST(create_and_join)
{
    begin(1);
    acc(0, A, 4, true);
    event(0, RAVEL__OP_CREATE, RAVEL__NONE, 1, 0);
    x->threads[1].state = RAVEL__T_LIVE;
    x->nthreads = 2;
    CHECK(!acc(1, A, 4, true)); /* the parent's write before create */
    CHECK(acc(0, A, 4, false)); /* parent and child run together */
    begin(2);
    acc(1, A + 8, 4, true);
    x->threads[1].state = RAVEL__T_FINISHED;
    event(0, RAVEL__OP_JOIN, 1, 1, 0);
    CHECK(!acc(0, A + 8, 4, true));
}

CHECK_TEST(release_acquire_relaxed_and_fences)
{
    const int relaxed = 0, acquire = 2, release = 3;
    begin(3);
    acc(1, A, 4, true);
    event(1, RAVEL__OP_ATOMIC_STORE, 7, RAVEL__NONE, release);
    event(2, RAVEL__OP_ATOMIC_LOAD, 7, RAVEL__NONE, acquire);
    CHECK(!acc(2, A, 4, false));
    begin(3);
    acc(1, A, 4, true);
    event(1, RAVEL__OP_ATOMIC_STORE, 7, RAVEL__NONE, relaxed);
    event(2, RAVEL__OP_ATOMIC_LOAD, 7, RAVEL__NONE, acquire);
    CHECK(acc(2, A, 4, false));
    begin(3);
    acc(1, A, 4, true);
    event(1, RAVEL__OP_ATOMIC_STORE, 7, RAVEL__NONE, release);
    event(2, RAVEL__OP_ATOMIC_LOAD, 7, RAVEL__NONE, relaxed);
    CHECK(acc(2, A, 4, false));
    /* Release fence + relaxed store / relaxed load + acquire fence. */
    begin(3);
    acc(1, A, 4, true);
    event(1, RAVEL__OP_FENCE, RAVEL__NONE, RAVEL__NONE, release);
    event(1, RAVEL__OP_ATOMIC_STORE, 7, RAVEL__NONE, relaxed);
    event(2, RAVEL__OP_ATOMIC_LOAD, 7, RAVEL__NONE, relaxed);
    event(2, RAVEL__OP_FENCE, RAVEL__NONE, RAVEL__NONE, acquire);
    CHECK(!acc(2, A, 4, false));
}

CHECK_TEST(release_sequence_through_rmw)
{
    const int relaxed = 0, acquire = 2, release = 3;
    begin(4);
    acc(1, A, 4, true);
    event(1, RAVEL__OP_ATOMIC_STORE, 7, RAVEL__NONE, release);
    event(3, RAVEL__OP_ATOMIC_RMW, 7, RAVEL__NONE, relaxed);
    event(2, RAVEL__OP_ATOMIC_LOAD, 7, RAVEL__NONE, acquire);
    CHECK(!acc(2, A, 4, false));
    /* The relaxed RMW's thread itself is not ordered after 1. */
    CHECK(acc(3, A, 4, false));
}

CHECK_TEST(rwlock_readers_do_not_order_readers)
{
    begin(4);
    event(1, RAVEL__OP_RW_RDLOCK, 9, RAVEL__NONE, 0);
    acc(1, A, 4, true); /* a write under a read lock: a bug */
    event(1, RAVEL__OP_RW_UNLOCK, 9, 0, 0);
    event(2, RAVEL__OP_RW_RDLOCK, 9, RAVEL__NONE, 0);
    CHECK(acc(2, A, 4, false));
    event(2, RAVEL__OP_RW_UNLOCK, 9, 0, 0);
    event(3, RAVEL__OP_RW_WRLOCK, 9, RAVEL__NONE, 0);
    CHECK(!acc(3, A, 4, true)); /* after both readers' unlocks */
    begin(3);
    event(1, RAVEL__OP_RW_RDLOCK, 9, RAVEL__NONE, 0);
    acc(1, A, 4, false);
    event(1, RAVEL__OP_RW_UNLOCK, 9, 0, 0);
    event(2, RAVEL__OP_RW_WRLOCK, 9, RAVEL__NONE, 0);
    CHECK(!acc(2, A, 4, true)); /* a reader's unlock reaches the writer */
}

CHECK_TEST(reset_forgets_and_executions_start_empty)
{
    begin(3);
    acc(1, A, 64, true);
    ravel__det_reset(det, A, 32);
    CHECK(!acc(2, A, 32, true));  /* forgotten: new memory */
    CHECK(acc(2, A + 32, 8, true)); /* still remembered */
    /* A whole page goes by its page stamp. */
    begin(3);
    acc(1, A + 4096, 8, true);
    ravel__det_reset(det, A + 4096, 4096);
    CHECK(!acc(2, A + 4096, 8, true));
    /* The next execution remembers nothing. */
    begin(3);
    CHECK(!acc(2, A + 32, 8, true));
}

/* An atomic operation on the bytes at addr (ravel__det_atomic). */
static bool atomic_op(uint32_t t, uint16_t kind, uint32_t obj, uint32_t aux,
                      int64_t mo, uint64_t addr)
{
    struct ravel__event ev = {0};
    struct ravel__det_hit hit;
    ev.thread = t;
    ev.kind = kind;
    ev.obj = obj;
    ev.aux = aux;
    return ravel__det_atomic(det, x, &ev, mo, addr, 4, 0x2000 + t, 0, &hit);
}

CHECK_TEST(atomics_race_with_plain_accesses_only)
{
    const int relaxed = 0, acquire = 2, release = 3;
    /* Two unordered atomics: never a race, whatever they do. */
    begin(3);
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_STORE, 7, 0, relaxed, A));
    CHECK(!atomic_op(2, RAVEL__OP_ATOMIC_RMW, 7, 0, relaxed, A));
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_LOAD, 7, 0, relaxed, A));
    /* An atomic store and an unordered plain read or write: a race, in
     * either order. */
    begin(3);
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_STORE, 7, 0, release, A));
    CHECK(acc(2, A, 4, false));
    begin(3);
    acc(2, A, 4, true);
    CHECK(atomic_op(1, RAVEL__OP_ATOMIC_LOAD, 7, 0, relaxed, A));
    /* An atomic load and a plain read do not conflict. */
    begin(3);
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_LOAD, 7, 0, relaxed, A));
    CHECK(!acc(2, A, 4, false));
    /* A plain read after an atomic one of its own thread still races
     * with another thread's atomic store (the atomic read did not cover
     * it). */
    begin(3);
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_LOAD, 7, 0, relaxed, A));
    acc(1, A, 4, false);
    CHECK(atomic_op(2, RAVEL__OP_ATOMIC_STORE, 7, 0, relaxed, A));
    /* A release compare-exchange that stores (aux 1) publishes both the
     * plain data before it and itself: the acquirer's plain accesses to
     * either are ordered. A failed one (aux 0) publishes nothing. */
    begin(3);
    acc(1, A + 8, 4, true);
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_CAS, 7, 1, release, A));
    CHECK(!atomic_op(2, RAVEL__OP_ATOMIC_LOAD, 7, 0, acquire, A));
    CHECK(!acc(2, A + 8, 4, false));
    CHECK(!acc(2, A, 4, true));
    begin(3);
    acc(1, A + 8, 4, true);
    CHECK(!atomic_op(1, RAVEL__OP_ATOMIC_CAS, 7, 0, release, A));
    CHECK(!atomic_op(2, RAVEL__OP_ATOMIC_LOAD, 7, 0, acquire, A));
    CHECK(acc(2, A + 8, 4, false));
}

/*
 * The access hooks' path - ravel__det_read_quick or, for some reads,
 * ravel__det_read_nothing_new, or ravel__det_write_quick inline, then
 * ravel__det_read or ravel__det_write when it says no - against
 * ravel__det_access alone, on two detectors fed the same random
 * executions: three threads with a mutex between them, reads and writes
 * of 1 to 8 bytes (some unaligned, some straddling granules) over four
 * granules, from a few code locations and stacks. Every access must give
 * the same answer (race or not, and the same earlier access) and leave
 * the same shadow, so the shortcuts keep and forget exactly what the
 * full check does.
 */
/* Do two detectors remember the same accesses of the granules at
 * [A, A+40)? (Their stamps may differ; what a granule holds when it is
 * not stale may not.) Through the leaf lookup cache, where an access to
 * A has put the leaf. */
static bool same_shadow(const struct ravel__detector *da,
                        const struct ravel__detector *db)
{
    const struct ravel__det_hot *h[2] = {(const void *)da, (const void *)db};
    const struct ravel__det_granule *g[2];
    for (uint64_t a = A; a < A + 40; a += 8) {
        for (int k = 0; k < 2; k++)
            g[k] = ravel__det_cached_granule(h[k], a, 1);
        for (unsigned i = 0; i < RAVEL__DET_CELLS; i++) {
            unsigned m0 = g[0] ? g[0]->mask[i] : 0;
            unsigned m1 = g[1] ? g[1]->mask[i] : 0;
            if (m0 != m1)
                return false;
            if (m0 && (g[0]->cell[i] != g[1]->cell[i] ||
                       ((g[0]->kinds ^ g[1]->kinds) >> (2 * i)) & 3u))
                return false;
        }
    }
    return true;
}

/* The same earlier access reported? */
static bool same_hit(const struct ravel__det_hit *a,
                     const struct ravel__det_hit *b)
{
    return a->prev_addr == b->prev_addr && a->prev_size == b->prev_size &&
           a->prev.tid == b->prev.tid && a->prev.clock == b->prev.clock &&
           a->prev.flags == b->prev.flags && a->prev.pc == b->prev.pc &&
           a->prev.stack == b->prev.stack;
}

static uint64_t xorshift(uint64_t r)
{
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    return r;
}

/* A new execution on both detectors: thread 0 creates threads 1 and 2. */
static void begin_both(struct ravel__detector *da, struct ravel__detector *db)
{
    struct ravel__detector *dd[2] = {da, db};
    for (int k = 0; k < 2; k++) {
        ravel__det_begin(dd[k]);
        for (uint32_t c = 1; c < 3; c++) {
            struct ravel__event ev = {0};
            ev.kind = RAVEL__OP_CREATE;
            ev.aux = c;
            ravel__det_event(dd[k], x, &ev, 0);
        }
    }
}

/* A random step's lock (what 0) or unlock (what 1) of the mutex by
 * thread t, on both detectors; false for any other step. */
static bool mutex_step(struct ravel__detector *da, struct ravel__detector *db,
                       uint32_t t, unsigned what)
{
    if (what > 1)
        return false;
    struct ravel__event ev = {0};
    ev.thread = t;
    ev.kind = what ? RAVEL__OP_MUTEX_UNLOCK : RAVEL__OP_MUTEX_LOCK;
    ev.obj = 3;
    ravel__det_event(da, x, &ev, 0);
    ravel__det_event(db, x, &ev, 0);
    return true;
}

CHECK_TEST(hook_path_matches_the_full_check)
{
    struct ravel__det_mem mem = {map, NULL};
    struct ravel__detector *da = ravel__det_new(&mem, 64);
    struct ravel__detector *db = ravel__det_new(&mem, 64);
    CHECK(da && db);
    begin(1);
    uint64_t rnd = 0x9e3779b97f4a7c15ull;
    unsigned races = 0, accesses = 0, settled = 0, quick = 0, split = 0;
    for (int round = 0; round < 200; round++) {
        begin_both(da, db);
        for (int step = 0; step < 400; step++) {
            rnd = xorshift(rnd);
            uint32_t t = (uint32_t)(rnd % 3);
            if (mutex_step(da, db, t, (unsigned)(rnd >> 8) % 16))
                continue;
            static const uint64_t sizes[] = {1, 2, 4, 8, 4, 8, 2, 3};
            uint64_t size = sizes[(rnd >> 16) % 8];
            uint64_t addr = A + (rnd >> 24) % 32;
            if ((rnd >> 40) % 4)
                addr &= ~(size - 1); /* mostly aligned */
            bool write = (rnd >> 44) % 3 == 0;
            uint64_t pc = 0x2000 + (rnd >> 48) % 3;
            uint32_t stack = (uint32_t)(rnd >> 52) % 2;
            struct ravel__det_hit ha = {0}, hb = {0};
            bool ra = false;
            /* A read as the hooks make it, mostly recorded inline; in
             * an ignore section or a deferred execution, only tested. */
            bool test_only = (rnd >> 56) % 4 == 0;
            bool inline_ok =
                write ? ravel__det_write_quick(da, t, addr, size, pc, stack)
                : test_only
                    ? ravel__det_read_nothing_new(da, t, addr, size)
                    : ravel__det_read_quick(da, t, addr, size, pc, stack);
            settled += inline_ok && test_only;
            split += inline_ok && !write && (addr & 7) + size > 8;
            quick += inline_ok && !test_only;
            if (!inline_ok)
                ra = write ? ravel__det_write(da, t, addr, size, pc, stack,
                                              &ha)
                           : ravel__det_read(da, t, addr, size, pc, stack,
                                             &ha);
            bool rb = ravel__det_access(db, t, addr, size,
                                        write ? RAVEL__DET_WRITE : 0, pc,
                                        stack, &hb);
            CHECK_EQ(ra, rb);
            CHECK(same_shadow(da, db));
            if (ra && rb) {
                CHECK(same_hit(&ha, &hb));
                races++;
            }
            accesses++;
        }
    }
    /* The executions do race, and not always; the shortcuts are taken. */
    fprintf(stderr,
            "# %u accesses, %u races, %u reads found nothing new by the "
            "test, %u accesses done inline, %u of them reads across two "
            "granules\n",
            accesses, races, settled, quick, split);
    CHECK(races > 100);
    CHECK(races < accesses);
    CHECK(settled > 100);
    CHECK(quick > 100);
    CHECK(split > 10);
}

/*
 * A range access - a free, a memset, a memcpy's side - against the same
 * bytes accessed granule by granule: ravel__det_access fills whole
 * granules an execution has not touched directly, a leaf at a time, and
 * must answer and leave the shadow as the granule-by-granule accesses
 * do. Two detectors, the same random executions: three threads, a
 * mutex, ranges of 1 to 40 bytes over five granules (some whole, some
 * not), reads, writes and frees, between single accesses.
 */
CHECK_TEST(range_access_matches_granule_by_granule)
{
    struct ravel__det_mem mem = {map, NULL};
    struct ravel__detector *da = ravel__det_new(&mem, 64);
    struct ravel__detector *db = ravel__det_new(&mem, 64);
    CHECK(da && db);
    begin(1);
    uint64_t rnd = 0x2545f4914f6cdd1dull;
    unsigned races = 0, ranges = 0;
    for (int round = 0; round < 200; round++) {
        begin_both(da, db);
        for (int step = 0; step < 200; step++) {
            rnd = xorshift(rnd);
            uint32_t t = (uint32_t)(rnd % 3);
            if (mutex_step(da, db, t, (unsigned)(rnd >> 8) % 16))
                continue;
            uint64_t addr = A + (rnd >> 16) % 40;
            if ((rnd >> 24) % 2)
                addr &= ~7ull; /* often from a granule's start */
            uint64_t size = 1 + (rnd >> 28) % (A + 40 - addr);
            unsigned kind = (unsigned)(rnd >> 36) % 4;
            uint8_t flags = kind == 0   ? 0
                            : kind == 3 ? RAVEL__DET_WRITE | RAVEL__DET_FREE
                                        : RAVEL__DET_WRITE;
            uint64_t pc = 0x3000 + (rnd >> 44) % 3;
            uint32_t stack = (uint32_t)(rnd >> 52) % 2;
            struct ravel__det_hit ha = {0}, hb = {0}, h1;
            bool ra = ravel__det_access(da, t, addr, size, flags, pc, stack,
                                        &ha);
            bool rb = false;
            for (uint64_t p = addr; p < addr + size;) {
                uint64_t n = 8 - (p & 7);
                if (n > addr + size - p)
                    n = addr + size - p;
                if (ravel__det_access(db, t, p, n, flags, pc, stack, &h1) &&
                    !rb) {
                    rb = true;
                    hb = h1;
                }
                p += n;
            }
            ranges += size > 8;
            CHECK_EQ(ra, rb);
            CHECK(same_shadow(da, db));
            if (ra && rb) {
                CHECK(same_hit(&ha, &hb));
                races++;
            }
        }
    }
    fprintf(stderr, "# %u range accesses, %u races\n", ranges, races);
    CHECK(races > 100);
    CHECK(ranges > 1000);
}

int main(void)
{
    return CHECK_RUN(unordered_writes_race_reads_do_not,
                     bytes_of_a_granule_are_separate,
                     mutex_orders_and_only_the_same_mutex, create_and_join,
                     release_acquire_relaxed_and_fences,
                     release_sequence_through_rmw,
                     rwlock_readers_do_not_order_readers,
                     reset_forgets_and_executions_start_empty,
                     atomics_race_with_plain_accesses_only,
                     hook_path_matches_the_full_check,
                     range_access_matches_granule_by_granule);
}
