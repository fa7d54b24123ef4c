/*
 * defer.c - the race detector's work put off until it can find something.
 *
 * An execution of a systematic search is short and there are hundreds of
 * thousands of them. In many programs that are searched that way (lock-
 * free code, the DPOR benchmarks) threads share memory only through
 * atomics, and each thread's plain accesses touch memory no other thread
 * touches in that execution. No data race is possible there, yet the
 * detector still did all its work at every step: a vector-clock join and
 * copy and a shadow cell per atomic operation, a sixth of fib_bench's
 * instructions.
 *
 * So an execution starts deferred. The detector's calls are not made;
 * they are written down, in order, with their arguments (an event is
 * copied: the detector reads nothing else of it). Beside the log, a small
 * table notes, for each 8-byte granule an access touched, which threads
 * touched it and whether any of them did so with a plain access. A race
 * needs two accesses by different threads to one granule, at least one of
 * them plain and one of them a write. So the first access that makes a
 * granule such a meeting point - a thread's access where another thread
 * has been before, when one of the two writes and not both are atomic -
 * ends the deferral: the log is replayed into the detector,
 * call by call, exactly as the calls would have been made, and from then
 * on, for the rest of the execution, every call goes straight to the
 * detector. The detector is a pure function of its calls
 * (src/model/detect.c), so its state after the replay is the state it
 * would have had, and the access that ended the deferral is checked
 * against it as it always was. An execution that ends still deferred had
 * no meeting point, and so no race: its log is dropped.
 *
 * The replay cannot find a race: any two accesses in the log by two
 * threads to one granule are both atomic or both reads. The table is
 * conservative: memory the detector forgets (a new heap block, a reused
 * stack, thread-local variables at a fiber switch) keeps its notes, which
 * can only end a deferral early. (Forgetting notes too cost more than it
 * saved: a fiber switch forgets every thread-local block of the process,
 * libc's included.)
 *
 * Deferral also ends, with the same replay, when the log is full (long
 * executions: after LOG_MAX calls the rest of the execution costs what it
 * always did, and the replay was a few microseconds), when the table is
 * half full, at a free() (which writes a whole block), at an access wider
 * than two granules, at a barrier (the detector reads its object when
 * the thread arrives), and for a thread index of 64 or more. It does not
 * start under the TSO and RC11 memory models (rc11.c reads and sets the
 * detector's object clocks itself), nor while race-directed scheduling
 * has promoted locations (their accesses are steps: race.c's
 * promoted_step), nor when its memory cannot be mapped.
 */
#include "../rt.h"

#include "../../model/detect.h"

#include <string.h>
#include <sys/mman.h>

enum { D_ATOMIC, D_EVENT, D_PLAIN, D_RESET, D_SECTION };

#define D_WRITE 1u
#define D_BEGIN 2u

/* One detector call, as it would have been made. */
struct deferred {
    uint8_t kind;  /* D_* */
    uint8_t flags; /* D_WRITE (a plain access), D_BEGIN (a section) */
    uint32_t slot;
    uint32_t stack;
    int64_t arg; /* an event's argument, an atomic's memory order */
    uint64_t addr, size, pc;
    struct ravel__event ev; /* D_ATOMIC, D_EVENT: a copy */
};

#define LOG_MAX 4096
#define TABLE_SIZE 2048 /* a power of two; used to half */

/* A granule touched in this execution (gen: this execution's number),
 * and by which threads: at all, writing (plainly or not), plainly, and
 * writing plainly. */
struct note {
    uint64_t key; /* the granule's address >> 3 */
    uint64_t any, wrote, plain, plain_wrote;
    uint32_t gen;
};

bool ravel__defer_on;
static struct deferred *dlog;
static struct note *table;
static uint32_t nlog, nnotes, gen;
/* The table's slots in use this execution, in the order they were
 * taken (for snapshots: the notes are all that changes in the table). */
static uint16_t used_slot[TABLE_SIZE / 2];
static bool unavailable;

void ravel__defer_begin(void)
{
    ravel__defer_on = false;
    if (unavailable || !ravel__race_on ||
        ravel__rt.x->memory_model != RAVEL__MM_SC ||
        ravel__rt.common->npromoted || ravel__race_nploc)
        return;
    if (!dlog) {
        void *l = mmap(NULL, sizeof *dlog * LOG_MAX, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        void *t = mmap(NULL, sizeof *table * TABLE_SIZE,
                       PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (l == MAP_FAILED || t == MAP_FAILED) {
            unavailable = true; /* the detector works as it always did */
            return;
        }
        dlog = l;
        table = t;
    }
    nlog = 0;
    nnotes = 0;
    if (++gen == 0) { /* wrapped: no stale note may look current */
        memset(table, 0, sizeof *table * TABLE_SIZE);
        gen = 1;
    }
    ravel__defer_on = true;
}

/* Notes thread t's access to granule g (see note). */
static inline __attribute__((always_inline)) bool
note_granule(uint32_t t, uint64_t g, bool atomic, bool write)
{
    uint64_t me = 1ULL << t;
    uint32_t i = (uint32_t)((g * 0x9e3779b97f4a7c15ULL) >> 40) &
                 (TABLE_SIZE - 1);
    struct note *n;
    for (;; i = (i + 1) & (TABLE_SIZE - 1)) {
        n = &table[i];
        if (n->gen != gen || n->key == g)
            break;
    }
    if (n->gen != gen) {
        if (nnotes >= TABLE_SIZE / 2)
            return false;
        used_slot[nnotes++] = (uint16_t)i;
        *n = (struct note){.key = g, .gen = gen};
    }
    uint64_t against = atomic ? (write ? n->plain : n->plain_wrote)
                              : (write ? n->any : n->wrote);
    if (against & ~me)
        return false;
    n->any |= me;
    n->wrote |= write ? me : 0;
    n->plain |= atomic ? 0 : me;
    n->plain_wrote |= !atomic && write ? me : 0;
    return true;
}

/* note() for what its fast path leaves: no bytes, an access across two
 * granules or more, a thread index of 64 or more. */
static __attribute__((noinline)) bool note_wide(uint32_t t, uint64_t addr,
                                                uint64_t size, bool atomic,
                                                bool write)
{
    if (t >= 64 || size == 0 || addr + size < addr)
        return false;
    uint64_t first = addr >> 3, last = (addr + size - 1) >> 3;
    if (last - first > 1)
        return false;
    for (uint64_t g = first; g <= last; g++)
        if (!note_granule(t, g, atomic, write))
            return false;
    return true;
}

/* Notes thread t's access to [addr, addr+size); false when it makes a
 * granule a meeting point (or the table cannot say): when another thread
 * touched it before in a way the detector could find racing with this
 * access - one of the two writes, and not both are atomic. Inline for
 * what nearly every access is, up to 8 bytes within one granule (an
 * atomic always is): a quarter of fib_bench's deferral cost was the
 * general case's tests. */
static inline __attribute__((always_inline)) bool
note(uint32_t t, uint64_t addr, uint64_t size, bool atomic,
     bool write)
{
    if (RAVEL__UNLIKELY(t >= 64 || size - 1 >= 8 || (addr & 7) + size > 8))
        return note_wide(t, addr, size, atomic, write);
    return note_granule(t, addr >> 3, atomic, write);
}

/* The log's next entry, of this kind, when `ok` (the access made no
 * meeting point) and there is room; otherwise the deferral ends here
 * (the caller makes its call itself). */
static struct deferred *entry(bool ok, uint8_t kind)
{
    if (!ok || nlog == LOG_MAX) {
        ravel__defer_catch_up();
        return NULL;
    }
    struct deferred *e = &dlog[nlog++];
    e->kind = kind;
    e->flags = 0;
    return e;
}

/* Replays the log into the detector and ends the deferral. */
void ravel__defer_catch_up(void)
{
    if (!ravel__defer_on)
        return;
    ravel__defer_on = false;
    struct ravel__detector *d = ravel__race_det;
    const struct ravel__exec *x = ravel__rt.x;
    for (uint32_t i = 0; i < nlog; i++) {
        const struct deferred *e = &dlog[i];
        struct ravel__det_hit hit;
        bool raced = false;
        uint8_t flags = 0;
        switch (e->kind) {
        case D_ATOMIC:
            raced = ravel__det_atomic(d, x, &e->ev, e->arg, e->addr,
                                      e->size, e->pc, e->stack, &hit);
            flags = RAVEL__DET_ATOMIC |
                    (ravel__det_atomic_stores(&e->ev) ? RAVEL__DET_WRITE : 0);
            break;
        case D_EVENT:
            ravel__det_event(d, x, &e->ev, e->arg);
            break;
        case D_PLAIN:
            flags = (e->flags & D_WRITE) ? RAVEL__DET_WRITE : 0;
            raced = ravel__det_access(d, e->slot, e->addr, e->size, flags,
                                      e->pc, e->stack, &hit);
            break;
        case D_RESET:
            ravel__det_reset(d, e->addr, e->size);
            break;
        case D_SECTION:
            ravel__det_atomic_section(d, e->slot, (e->flags & D_BEGIN) != 0);
            break;
        }
        /* Cannot happen (the file's comment says why); were it to, the
         * race is reported, not dropped. */
        if (RAVEL__UNLIKELY(raced))
            ravel__race_report(e->addr, e->size, flags, e->pc, &hit);
    }
    nlog = 0;
}

bool ravel__defer_atomic(uint32_t slot, const struct ravel__event *ev,
                         int64_t mo, uint64_t addr, uint64_t size,
                         uint32_t stack, bool ignored)
{
    /* Ignored (an ignore section): its synchronisation only. */
    struct deferred *e =
        entry(ignored || note(slot, addr, size, true,
                              ravel__det_atomic_stores(ev)),
              ignored ? D_EVENT : D_ATOMIC);
    if (!e)
        return false;
    e->slot = slot;
    e->stack = stack;
    e->arg = mo;
    e->addr = addr;
    e->size = size;
    e->pc = ev->pc;
    e->ev = *ev;
    return true;
}

bool ravel__defer_event(const struct ravel__event *ev, int64_t arg)
{
    struct deferred *e = entry(ev->kind != RAVEL__OP_BARRIER_WAIT, D_EVENT);
    if (!e)
        return false;
    e->arg = arg;
    e->ev = *ev;
    return true;
}

bool ravel__defer_plain(uint32_t slot, uint64_t addr, uint64_t size,
                        bool write, uint64_t pc, uint32_t stack)
{
    struct deferred *e = entry(note(slot, addr, size, false, write), D_PLAIN);
    if (!e)
        return false;
    e->flags = write ? D_WRITE : 0;
    e->slot = slot;
    e->stack = stack;
    e->addr = addr;
    e->size = size;
    e->pc = pc;
    return true;
}

bool ravel__defer_reset(uint64_t addr, uint64_t size)
{
    struct deferred *e = entry(true, D_RESET);
    if (!e)
        return false;
    e->addr = addr;
    e->size = size;
    return true;
}

bool ravel__defer_section(uint32_t t, bool begin)
{
    struct deferred *e = entry(true, D_SECTION);
    if (!e)
        return false;
    e->slot = t;
    e->flags = begin ? D_BEGIN : 0;
    return true;
}

/* Snapshots (src/rt/process/resume.c): while deferred, the detector's
 * state is the log's length (its entries are what every execution
 * through the same choices logs alike) and the notes. */
bool ravel__defer_snap_put(void)
{
    if (!ravel__snap_put(&nlog, sizeof nlog) ||
        !ravel__snap_put(&nnotes, sizeof nnotes) ||
        !ravel__snap_put(used_slot, nnotes * sizeof *used_slot))
        return false;
    for (uint32_t k = 0; k < nnotes; k++) {
        struct note *n = ravel__snap_put(&table[used_slot[k]], sizeof *table);
        if (!n)
            return false;
        n->gen = 0; /* this execution's: set again when put back */
    }
    return true;
}

/* After ravel__defer_begin began this execution deferred, as the one the
 * snapshot was taken in was. */
void ravel__defer_snap_get(void)
{
    ravel__snap_get_to(&nlog, sizeof nlog);
    ravel__snap_get_to(&nnotes, sizeof nnotes);
    ravel__snap_get_to(used_slot, nnotes * sizeof *used_slot);
    for (uint32_t k = 0; k < nnotes; k++) {
        struct note *n = &table[used_slot[k]];
        ravel__snap_get_to(n, sizeof *n);
        n->gen = gen;
    }
}
