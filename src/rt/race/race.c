/*
 * race.c - the data-race detector's side in the runtime: feeding it, and
 * turning what it finds into a failure with a report.
 *
 * The detector itself (src/model/detect.c) is pure: vector clocks and
 * shadow memory. This file connects it to the program:
 *
 *   - every visible operation, once the model applied it (sched.c), goes
 *     to ravel__det_event for its happens-before edges;
 *   - every plain access the compiler reports (intercept/tsan.c) goes to
 *     ravel__det_access, with its pc and the thread's stack id;
 *   - memory handed out afresh is forgotten: heap blocks when allocated,
 *     a thread's stack and thread-local storage when a program thread
 *     starts on a pooled worker (and TLS at every fiber switch: fibers
 *     share one OS thread's TLS addresses);
 *   - free() and a moving realloc() write the whole block.
 *
 * Stacks. A report shows the stack of the earlier access too, long after
 * its thread moved on, so every shadow cell carries a stack id: a node in
 * a trie of call sites (the depot), kept up to date by the function
 * entry/exit hooks at the cost of one hash lookup per call. The depot
 * lives as long as the executor process; ids are not stable across
 * processes and never leave it (reports copy the frames).
 *
 * Which races are reported. The first race of a pair of code locations
 * ends the execution as a failure of kind data-race (with its ticket). A
 * pair reported before in the run (listed in the shared page, so a
 * restarted executor knows it too), a suppressed one, or one inside
 * ravel_ignore_begin/end lets the execution go on.
 */
#include "../rt.h"

#include "../../common/hash.h"
#include "../../model/detect.h"

#include <link.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>

/* The detector; global so the access hooks' inline check (tsan.c) reads
 * its shadow directly. */
struct ravel__detector *ravel__race_det;

/* The promoted variables' granules in this process (from
 * common->promoted_data, resolved when the executor starts). */
static uint64_t ploc[RAVEL__MAX_PROMOTED];
uint32_t ravel__race_nploc;

bool ravel__race_on;
bool ravel__race_alone;

/*
 * A thread running alone - every other thread of the execution finished
 * and was joined (so everything they did happens before what it does
 * now), none other live - cannot race, and neither can a thread created
 * later with what it does now (creation orders them). So its plain
 * accesses are neither checked nor recorded: the hooks skip the call (a
 * sequential phase costs what the count of its accesses costs).
 * Recomputed at thread creations, joins, detaches and finishes. With
 * promoted racing locations (race-directed scheduling) every access goes
 * through, since promoted ones are steps.
 */
static void update_alone(const struct ravel__exec *x)
{
    bool alone = ravel__race_on && ravel__rt.common->npromoted == 0;
    /* Two live threads or more: not alone, whatever the finished ones. */
    if (alone && x->nthreads <= 64 && (x->live & (x->live - 1)))
        alone = false;
    uint32_t live = 0;
    for (uint32_t t = 0; t < x->nthreads && alone; t++) {
        const struct ravel__thread *th = &x->threads[t];
        if (th->state == RAVEL__T_LIVE)
            live++;
        else if (th->state == RAVEL__T_FINISHED &&
                 (!th->joined || th->detached))
            alone = false; /* nothing orders its accesses with ours */
    }
    ravel__race_alone = alone && live <= 1;
    RAVEL__HOOKS_ABI.race_check = ravel__race_on && !ravel__race_alone;
}

/* ---- stack depot --------------------------------------------------------- */

/* Call-site nodes: 4 Mi nodes are far more than the distinct call paths
 * of test programs; a full depot truncates stacks (id of the parent). */
#define DEPOT_NODES (1u << 22)
#define DEPOT_HASH (DEPOT_NODES * 2)

struct ravel__depot_node *ravel__depot;
static uint32_t *depot_hash; /* node index + 1, 0 empty */
static uint32_t nnodes = 1;  /* node 0: the empty stack */

static void *map_zero(size_t bytes, void *ctx)
{
    (void)ctx;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static uint32_t intern(uint32_t parent, uint64_t pc)
{
    uint64_t h = ravel__hash_ptr(pc ^ ((uint64_t)parent << 40) ^ parent);
    for (uint32_t i = (uint32_t)h & (DEPOT_HASH - 1);;
         i = (i + 1) & (DEPOT_HASH - 1)) {
        uint32_t e = depot_hash[i];
        if (e == 0) {
            if (nnodes >= DEPOT_NODES)
                return parent;
            uint32_t n = nnodes++;
            ravel__depot[n].pc = pc;
            ravel__depot[n].parent = parent;
            depot_hash[i] = n + 1;
            return n;
        }
        const struct ravel__depot_node *d = &ravel__depot[e - 1];
        if (d->pc == pc && d->parent == parent)
            return e - 1;
    }
}

/* (rt.h's ravel__race_push when the parent's remembered child is not
 * this call site's.) */
uint32_t ravel__depot_intern(uint32_t parent, uint64_t pc)
{
    uint32_t n = intern(parent, pc);
    if (n != parent) { /* (a full depot answers the parent) */
        ravel__depot[parent].last_pc = pc;
        ravel__depot[parent].last_child = n;
    }
    return n;
}

/* Frames of an access: its pc, then the call sites of stack id s. */
static uint32_t frames_of(uint64_t pc, uint32_t s, uint64_t *out,
                          uint32_t max)
{
    uint32_t n = 0;
    if (pc && n < max)
        out[n++] = pc;
    while (s && n < max) {
        out[n++] = ravel__depot[s].pc;
        s = ravel__depot[s].parent;
    }
    return n;
}

uint32_t ravel__race_frames(uint32_t s, uint64_t *out, uint32_t max)
{
    return frames_of(0, s, out, max);
}

/* ---- set-up -------------------------------------------------------------- */

static int own_text_cb(struct dl_phdr_info *info, size_t size, void *data);

void ravel__race_init(void)
{
    if (!ravel__rt.opt.races)
        return;
    struct ravel__det_mem mem = {map_zero, NULL};
    ravel__depot = map_zero(sizeof *ravel__depot * DEPOT_NODES, NULL);
    depot_hash = map_zero(sizeof *depot_hash * DEPOT_HASH, NULL);
    if (ravel__depot && depot_hash)
        ravel__race_det = ravel__det_new(&mem, ravel__rt.x->max_objects);
    if (!ravel__race_det) {
        fprintf(stderr, "ravel: warning: no memory for the data-race "
                        "detector; races are not checked\n");
        return;
    }
    dl_iterate_phdr(own_text_cb, NULL);
    ravel__race_on = true;
    RAVEL__HOOKS_ABI.race_check = !ravel__race_alone;
    RAVEL__HOOKS_ABI.depot = ravel__depot; /* function entries follow it */
    ravel__race_forget_tls(); /* collects the TLS blocks, before main */
    /* A replayed ticket's promoted locations (modules are known now). */
    struct ravel__rt *rt = &ravel__rt;
    if (rt->have_ticket && rt->ticket.npromote) {
        rt->common->npromoted = 0;
        for (uint32_t i = 0; i < rt->ticket.npromote &&
                             rt->common->npromoted < RAVEL__MAX_PROMOTED;
             i++) {
            uint64_t pc;
            if (ravel__pc_from_module(rt->ticket.promote[i].module,
                                      rt->ticket.promote[i].offset, &pc))
                rt->common->promoted[rt->common->npromoted++] = pc;
        }
    }
    if (rt->have_ticket) {
        rt->common->npromoted_data = 0;
        for (uint32_t i = 0; i < rt->ticket.npromote_data &&
                             i < RAVEL__MAX_PROMOTED;
             i++)
            rt->common->promoted_data[rt->common->npromoted_data++] =
                rt->ticket.promote_data[i].where;
    }
    /* The promoted variables' addresses in this process. */
    ravel__race_nploc = 0;
    for (uint32_t i = 0; i < rt->common->npromoted_data; i++) {
        uint64_t a;
        if (ravel__addr_from_global(rt->common->promoted_data[i], &a))
            ploc[ravel__race_nploc++] = a & ~7ULL; /* its granule */
    }
}

uint32_t ravel__race_obj_clock_get(uint32_t o, uint32_t *out)
{
    ravel__defer_catch_up(); /* (never deferred under rc11: defer.c) */
    return ravel__race_on
               ? ravel__det_obj_clock_get(ravel__race_det, o, out)
               : 0;
}

void ravel__race_obj_clock_set(uint32_t o, const uint32_t *in, uint32_t n)
{
    ravel__defer_catch_up();
    if (ravel__race_on)
        ravel__det_obj_clock_set(ravel__race_det, o, in, n);
}

/* Executions begun in this process (ravel__race_thread_start). */
static uint64_t race_execs;

uint64_t ravel__race_exec_count(void)
{
    return race_execs;
}

/* An execution started from a snapshot (process/resume.c): whether a
 * thread runs alone follows from the threads it put back. */
void ravel__race_resumed(void)
{
    update_alone(ravel__rt.x);
}

void ravel__race_begin(void)
{
    race_execs++;
    if (ravel__race_on)
        ravel__det_begin(ravel__race_det);
    update_alone(ravel__rt.x);
    ravel__defer_begin();
}

void ravel__race_event(const struct ravel__event *ev, int64_t arg)
{
    if (!ravel__race_on)
        return;
    if (!ravel__defer_on || !ravel__defer_event(ev, arg))
        ravel__det_event(ravel__race_det, ravel__rt.x, ev, arg);
    switch (ev->kind) {
    case RAVEL__OP_CREATE:
    case RAVEL__OP_FINISH:
    case RAVEL__OP_JOIN:
    case RAVEL__OP_TRYJOIN:
    case RAVEL__OP_TIMEDJOIN:
    case RAVEL__OP_DETACH:
        update_alone(ravel__rt.x);
        break;
    default:
        break;
    }
}

void ravel__race_atomic_section(uint32_t t, bool begin)
{
    if (ravel__race_on &&
        (!ravel__defer_on || !ravel__defer_section(t, begin)))
        ravel__det_atomic_section(ravel__race_det, t, begin);
}

void ravel__race_forget(const void *p, size_t n)
{
    if (ravel__race_on && n &&
        (!ravel__defer_on ||
         !ravel__defer_reset((uint64_t)(uintptr_t)p, n)))
        ravel__det_reset(ravel__race_det, (uint64_t)(uintptr_t)p, n);
}

/* ---- races --------------------------------------------------------------- */

/* Has the pair (a, b) been reported in this run (by any lane)? Records
 * it if not and `record`. */
static bool seen_pair(uint64_t a, uint64_t b, bool record)
{
    struct ravel__common *c = ravel__rt.common;
    if (a > b) {
        uint64_t t = a;
        a = b;
        b = t;
    }
    uint32_t n = atomic_load(&c->nraces);
    for (uint32_t i = 0; i < n && i < RAVEL__MAX_RACES; i++)
        if (c->races[i].pc_a == a && c->races[i].pc_b == b)
            return true;
    if (!record)
        return false;
    uint32_t k = atomic_fetch_add(&c->nraces, 1);
    if (k < RAVEL__MAX_RACES) {
        c->races[k].pc_a = a;
        c->races[k].pc_b = b;
    }
    return false;
}

static void fill_origin(struct ravel__race *r, uint64_t addr)
{
    uint64_t where;
    uint32_t slot;
    uint64_t depth;
    struct ravel__heap_pos pos;
    struct ravel__heap_info info;
    r->origin = RAVEL__ORIGIN_UNKNOWN;
    r->alloc_thread = RAVEL__NONE;
    r->alloc_nframes = 0;
    if (ravel__addr_global(addr, &where)) {
        r->origin = RAVEL__ORIGIN_GLOBAL;
    } else if (ravel__heap_origin(addr, &pos) &&
               ravel__heap_info(addr, &info)) {
        r->origin = RAVEL__ORIGIN_HEAP;
        r->block = info.ptr;
        r->block_size = info.size;
        r->block_seq = pos.seq;
        r->alloc_thread = info.thread;
        r->alloc_nframes = frames_of(info.pc, info.stack, r->alloc_frames,
                                     RAVEL__RACE_FRAMES);
    } else if (ravel__stack_owner(addr, &slot, &depth)) {
        r->origin = RAVEL__ORIGIN_STACK;
        r->stack_thread = slot;
    }
}

/* Is the access [a, a+size) in a promoted variable's granule? */
static bool loc_promoted(uint64_t a, uint64_t size)
{
    for (uint32_t i = 0; i < ravel__race_nploc; i++)
        if (a < ploc[i] + 8 && ploc[i] < a + size)
            return true;
    return false;
}

/* Is pc one of the promoted code locations? */
static bool promoted(const struct ravel__common *c, uint64_t pc)
{
    for (uint32_t i = 0; i < c->npromoted; i++)
        if (c->promoted[i] == pc)
            return true;
    return false;
}

/* Reports the race of the access just checked, unless it is known,
 * suppressed or ignored. Ends the execution when it reports. */
static void on_race(struct ravel__worker *w, uint64_t addr, uint64_t size,
                    uint8_t flags, uint64_t pc,
                    const struct ravel__det_hit *hit)
{
    struct ravel__exec *x = ravel__rt.x;
    struct ravel__thread *th = &x->threads[w->slot];
    if (ravel__race_suppressed(pc, th->stack_id, hit->prev.pc,
                               hit->prev.stack, addr))
        return;
    /* Both locations already scheduling points: this race was reported
     * and is being explored. */
    const struct ravel__common *c = ravel__rt.common;
    if (c->npromoted && promoted(c, pc) && promoted(c, hit->prev.pc))
        return;
    /* Every access to the variable is a scheduling point: the same. */
    if (ravel__race_nploc && loc_promoted(addr, size) &&
        loc_promoted(hit->prev_addr, hit->prev_size ? hit->prev_size : 1))
        return;
    /* A property program's test cases fail quietly while it tests and
     * shrinks (pbt.c): the race is reported, and so counted as seen,
     * only when the minimal case runs again at the end. */
    if (seen_pair(pc, hit->prev.pc, !ravel__door_quiet()))
        return;
    struct ravel__race *r = &x->race;
    memset(r, 0, sizeof *r);
    r->cur.addr = addr;
    r->cur.size = size;
    r->cur.thread = w->slot;
    r->cur.write = (flags & RAVEL__DET_WRITE) != 0;
    r->cur.freed = (flags & RAVEL__DET_FREE) != 0;
    r->cur.atomic = (flags & RAVEL__DET_ATOMIC) != 0;
    r->cur.nframes =
        frames_of(pc, th->stack_id, r->cur.frames, RAVEL__RACE_FRAMES);
    r->prev.addr = hit->prev_addr;
    r->prev.size = hit->prev_size;
    r->prev.thread = hit->prev.tid;
    r->prev.write = (hit->prev.flags & RAVEL__DET_WRITE) != 0;
    r->prev.freed = (hit->prev.flags & RAVEL__DET_FREE) != 0;
    r->prev.atomic = (hit->prev.flags & RAVEL__DET_ATOMIC) != 0;
    r->prev.nframes = frames_of(hit->prev.pc, hit->prev.stack,
                                r->prev.frames, RAVEL__RACE_FRAMES);
    fill_origin(r, addr);
    const char *pname = hit->prev.tid < x->nthreads
                            ? x->threads[hit->prev.tid].name
                            : "?";
    ravel__fail_now(w, RAVEL__FAIL_DATA_RACE, pc,
                    "data race: %s%s of %llu byte%s by thread %s races with "
                    "an earlier %s%s by thread %s",
                    r->cur.atomic ? "atomic " : "",
                    r->cur.freed ? "free" : r->cur.write ? "write" : "read",
                    (unsigned long long)size, size == 1 ? "" : "s", th->name,
                    r->prev.atomic  ? "atomic " : "",
                    r->prev.freed   ? "free"
                    : r->prev.write ? "write"
                                    : "read",
                    pname);
}

/* A promoted access: a visible operation first (others may run before
 * it), then the access itself, which the caller checks as usual. */
static void promoted_step(struct ravel__worker *w, const void *p,
                          uint64_t size, bool write, uint64_t pc)
{
    bool created;
    uint32_t o = ravel__object(w, p, RAVEL__OBJ_PLAIN, &created);
    if (o == RAVEL__NONE)
        return;
    int rc;
    struct ravel__event *ev =
        ravel__step(w, write ? RAVEL__OP_PLAIN_WRITE : RAVEL__OP_PLAIN_READ,
                    o, RAVEL__NONE, (int64_t)size, pc, &rc);
    if (!write) {
        /* What it is about to read (the baton is ours: nothing changes
         * it before the program's own load). */
        const volatile void *q = p;
        switch (size) {
        case 1: ev->value = *(const volatile int8_t *)q; break;
        case 2: ev->value = *(const volatile int16_t *)q; break;
        case 4: ev->value = *(const volatile int32_t *)q; break;
        case 8: ev->value = *(const volatile int64_t *)q; break;
        default: break;
        }
    }
}

void ravel__race_access(struct ravel__worker *w, const void *p, uint64_t size,
                        bool write, uint64_t pc)
{
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    if (RAVEL__UNLIKELY(th->ignore) || ravel__race_alone)
        return;
    const struct ravel__common *c = ravel__rt.common;
    if (RAVEL__UNLIKELY(c->npromoted | ravel__race_nploc) &&
        (promoted(c, pc) || loc_promoted((uint64_t)(uintptr_t)p, size)))
        promoted_step(w, p, size, write, pc);
    ravel__defer_catch_up();
    struct ravel__det_hit hit;
    uint8_t flags = write ? RAVEL__DET_WRITE : 0;
    if (RAVEL__UNLIKELY(ravel__det_access(ravel__race_det, w->slot,
                                          (uint64_t)(uintptr_t)p, size,
                                          flags, pc, th->stack_id, &hit)))
        on_race(w, (uint64_t)(uintptr_t)p, size, flags, pc, &hit);
}

void ravel__race_report(uint64_t addr, uint64_t size, uint8_t flags,
                        uint64_t pc, const struct ravel__det_hit *hit)
{
    struct ravel__worker *w = ravel__controlled();
    if (w)
        on_race(w, addr, size, flags, pc, hit);
}

void ravel__race_plain_race(struct ravel__worker *w, const void *p,
                            uint64_t size, bool write, uint64_t pc,
                            const struct ravel__det_hit *hit)
{
    on_race(w, (uint64_t)(uintptr_t)p, size,
            write ? RAVEL__DET_WRITE : 0, pc, hit);
}

void ravel__race_atomic_now(struct ravel__worker *w,
                            const struct ravel__event *ev, int64_t mo,
                            const volatile void *p, uint64_t size)
{
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (RAVEL__UNLIKELY(th->ignore)) {
        /* Not checked, but its synchronisation still counts. */
        ravel__det_event(ravel__race_det, ravel__rt.x, ev, mo);
        return;
    }
    struct ravel__det_hit hit;
    if (RAVEL__UNLIKELY(ravel__det_atomic(ravel__race_det, ravel__rt.x, ev, mo, a, size,
                                          ev->pc, th->stack_id, &hit))) {
        uint8_t flags = RAVEL__DET_ATOMIC;
        if (ravel__det_atomic_stores(ev))
            flags |= RAVEL__DET_WRITE;
        on_race(w, a, size, flags, ev->pc, &hit);
    }
}

void ravel__race_free(const void *p, uint64_t pc)
{
    struct ravel__worker *w = ravel__controlled();
    if (!ravel__race_on || ravel__race_alone || !w || !p)
        return;
    size_t n = malloc_usable_size((void *)(uintptr_t)p);
    struct ravel__thread *th = &ravel__rt.x->threads[w->slot];
    if (th->ignore || !n)
        return;
    ravel__defer_catch_up(); /* a whole block written */
    struct ravel__det_hit hit;
    uint8_t flags = RAVEL__DET_WRITE | RAVEL__DET_FREE;
    if (ravel__det_access(ravel__race_det, w->slot, (uint64_t)(uintptr_t)p, n, flags,
                          pc, th->stack_id, &hit))
        on_race(w, (uint64_t)(uintptr_t)p, n, flags, pc, &hit);
}

void ravel__race_thread_start(struct ravel__worker *w)
{
    if (!ravel__race_on)
        return;
    /* The stack's shadow from earlier executions is forgotten already
     * (the detector's execution stamp): only a stack that ran another
     * thread of this execution has accesses to forget. Resetting a whole
     * 8 MiB stack walks 128 shadow leaves, at every thread start: most of
     * the race detector's cost in a short execution. */
    bool reused = w->race_exec == race_execs;
    w->race_exec = race_execs;
    if (reused && w->stack_lo && w->stack_hi > w->stack_lo)
        ravel__race_forget(w->stack_lo,
                           (size_t)((char *)w->stack_hi -
                                    (char *)w->stack_lo));
    ravel__race_forget_tls();
}

size_t ravel__race_mapped(void)
{
    return ravel__race_det ? ravel__det_mapped(ravel__race_det) : 0;
}

/* ---- memcpy, memmove, memset ---------------------------------------------- */

/*
 * The compilers call the C library's memcpy for an explicit memcpy (clang
 * for struct copies too) and report nothing about the bytes it touches,
 * so ravel interposes these three, as ThreadSanitizer does: called from
 * the program's instrumented code in a controlled thread, they read and
 * write their ranges. The copy itself is glibc's, reached through its
 * checked entry points (__memcpy_chk ...) by volatile pointers, which no
 * compiler can turn back into a call to memcpy, which would be this.
 */
extern void *__memcpy_chk(void *, const void *, size_t, size_t);
extern void *__memmove_chk(void *, const void *, size_t, size_t);
extern void *__memset_chk(void *, int, size_t, size_t);
static void *(*volatile real_memcpy)(void *, const void *, size_t,
                                     size_t) = __memcpy_chk;
static void *(*volatile real_memmove)(void *, const void *, size_t,
                                      size_t) = __memmove_chk;
static void *(*volatile real_memset)(void *, int, size_t,
                                     size_t) = __memset_chk;

/* Whether a caller's pc is in instrumented code, remembered per pc: most
 * calls come from a few sites, many of them ravel's own (clearing a
 * clock, copying an event), which would otherwise search the module
 * table at every call. A pc once instrumented stays so (modules are
 * only added); a negative answer holds while no module was added. Used
 * by the baton holder only. */
#define CALLER_CACHE 64
static struct {
    uint64_t pc;
    unsigned nmods; /* ravel__modules_count() when looked up */
    bool instrumented;
} caller_cache[CALLER_CACHE];

static bool caller_instrumented(uint64_t pc)
{
    unsigned nm = ravel__modules_count();
    __typeof__(caller_cache[0]) *c =
        &caller_cache[(pc ^ (pc >> 7)) & (CALLER_CACHE - 1)];
    if (RAVEL__LIKELY(c->pc == pc && (c->instrumented || c->nmods == nm)))
        return c->instrumented;
    c->pc = pc;
    c->nmods = nm;
    c->instrumented = ravel__pc_instrumented(pc);
    return c->instrumented;
}

/* The runtime's own code (its executable segment, found once by
 * ravel__race_init). Most calls of these three come from ravel itself -
 * clearing a clock, copying an event, moving a list in the analysis
 * after an execution, about fifty per execution of fib_bench - and none
 * is the program's access: a range test on the caller's pc tells them
 * apart before anything else is looked at (the answer of
 * caller_instrumented is the same, a few dozen instructions later). */
static uint64_t own_lo, own_hi;

static int own_text_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    uintptr_t me = (uintptr_t)&own_text_cb;
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (me >= lo && me - lo < ph->p_memsz) {
            own_lo = lo;
            own_hi = lo + ph->p_memsz;
            return 1;
        }
    }
    return 0;
}

static inline struct ravel__worker *checked_caller(uint64_t pc, size_t n)
{
    if (!ravel__race_on || !n || pc - own_lo < own_hi - own_lo)
        return NULL;
    struct ravel__worker *w = ravel__controlled();
    if (!w || !caller_instrumented(pc))
        return NULL;
    return w;
}

RAVEL__EXPORT void *memcpy(void *d, const void *s, size_t n)
{
    uint64_t pc = RAVEL__CALLER_PC;
    struct ravel__worker *w = checked_caller(pc, n);
    if (w) {
        ravel__race_access(w, s, n, false, pc);
        ravel__race_access(w, d, n, true, pc);
    }
    return real_memcpy(d, s, n, n);
}

RAVEL__EXPORT void *memmove(void *d, const void *s, size_t n)
{
    uint64_t pc = RAVEL__CALLER_PC;
    struct ravel__worker *w = checked_caller(pc, n);
    if (w) {
        ravel__race_access(w, s, n, false, pc);
        ravel__race_access(w, d, n, true, pc);
    }
    return real_memmove(d, s, n, n);
}

RAVEL__EXPORT void *memset(void *d, int c, size_t n)
{
    uint64_t pc = RAVEL__CALLER_PC;
    struct ravel__worker *w = checked_caller(pc, n);
    if (w)
        ravel__race_access(w, d, n, true, pc);
    return real_memset(d, c, n, n);
}
