/*
 * model.c - semantics of visible operations (see model.h).
 *
 * Each operation has three parts, kept next to each other below:
 * enabledness (op_enabled), misuses that would block a thread on itself
 * (ravel__op_selfblock) and the effect (ravel__op_apply). Blocking
 * operations are never scheduled while they would block ("blocking
 * avoidance"), so apply never waits: when a thread reaches apply, its
 * operation can complete. Timed operations are always enabled: when the
 * resource is not available they time out, since time is a choice and not
 * a clock (docs/architecture.md).
 */
#include "model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const op_names[] = {
#define RAVEL_OP(n, t, k) t,
#include "ops.def"
#undef RAVEL_OP
};

static const uint8_t op_obj_kinds[] = {
#define RAVEL_OP(n, t, k) RAVEL__OBJ_##k,
#include "ops.def"
#undef RAVEL_OP
};

const char *ravel__op_name(uint16_t kind)
{
    return kind < RAVEL__OP_COUNT ? op_names[kind] : "?";
}

uint8_t ravel__op_obj_kind(uint16_t kind)
{
    return kind < RAVEL__OP_COUNT ? op_obj_kinds[kind] : RAVEL__OBJ_NONE;
}

const char *ravel__obj_kind_name(uint8_t kind)
{
    static const char *const names[] = {
        "object", "thread", "mutex",   "cond", "rwlock",
        "sem",    "barrier", "spinlock", "once", "atomic", "memory",
        "section", "fd",
    };
    return kind < RAVEL__COUNT(names) ? names[kind] : "object";
}

static const char *const fail_names[RAVEL__FAIL_COUNT] = {
    "none",       "assertion",      "crash",       "deadlock", "lock-misuse",
    "step-limit", "nondeterminism", "exit-status", "hang", "data-race",
    "postcondition", "linearizability",
};

const char *ravel__fail_kind_name(uint8_t kind)
{
    return kind < RAVEL__FAIL_COUNT ? fail_names[kind] : "unknown";
}

int ravel__fail_kind_parse(const char *name)
{
    for (int i = 1; i < RAVEL__FAIL_COUNT; i++)
        if (!strcmp(name, fail_names[i]))
            return i;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Layout and lifetime                                                 */

static uint32_t index_size(uint32_t max_objects)
{
    uint32_t n = 16;
    while (n < max_objects * 2)
        n *= 2;
    return n;
}

static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

size_t ravel__exec_size(uint32_t max_events, uint32_t max_objects)
{
    return align16(sizeof(struct ravel__exec)) +
           align16((size_t)max_objects * sizeof(struct ravel__object)) +
           align16((size_t)index_size(max_objects) * sizeof(uint32_t)) +
           align16((size_t)max_events * sizeof(struct ravel__event)) +
           align16(((size_t)max_events + RAVEL__MAX_VCHOICES) *
                   sizeof(struct ravel__vchoice));
}

struct ravel__exec *ravel__exec_layout(void *mem, uint32_t max_events,
                                       uint32_t max_objects)
{
    char *p = mem;
    struct ravel__exec *x = (struct ravel__exec *)p;
    p += align16(sizeof *x);
    x->objects = (struct ravel__object *)p;
    p += align16((size_t)max_objects * sizeof(struct ravel__object));
    x->index = (uint32_t *)p;
    p += align16((size_t)index_size(max_objects) * sizeof(uint32_t));
    x->events = (struct ravel__event *)p;
    p += align16((size_t)max_events * sizeof(struct ravel__event));
    x->vchoices = (struct ravel__vchoice *)p;
    x->max_vchoices = max_events + RAVEL__MAX_VCHOICES;
    x->max_events = max_events;
    x->max_objects = max_objects;
    x->index_mask = index_size(max_objects) - 1;
    return x;
}

void ravel__exec_copy(struct ravel__exec *dst, const struct ravel__exec *src)
{
    struct ravel__object *objects = dst->objects;
    uint32_t *index = dst->index;
    struct ravel__event *events = dst->events;
    struct ravel__vchoice *vchoices = dst->vchoices;
    uint32_t me = dst->max_events, mo = dst->max_objects, im = dst->index_mask;
    uint32_t mv = dst->max_vchoices;
    RAVEL__CHECK(src->nevents <= me && src->nobjects <= mo &&
                 src->nvchoices <= mv);
    memcpy(dst, src, offsetof(struct ravel__exec, threads));
    memcpy(dst->threads, src->threads, src->nthreads * sizeof *src->threads);
    dst->objects = objects;
    dst->index = index;
    dst->events = events;
    dst->vchoices = vchoices;
    dst->max_vchoices = mv;
    dst->max_events = me;
    dst->max_objects = mo;
    dst->index_mask = im;
    memcpy(objects, src->objects, src->nobjects * sizeof *objects);
    memcpy(events, src->events, src->nevents * sizeof *events);
    memcpy(vchoices, src->vchoices, src->nvchoices * sizeof *vchoices);
}

static void set_live(struct ravel__exec *x, uint32_t t, bool live)
{
    if (t >= 64)
        return;
    if (live)
        x->live |= 1ULL << t;
    else
        x->live &= ~(1ULL << t);
}

void ravel__exec_begin(struct ravel__exec *x, uint64_t number)
{
    for (uint32_t i = 0; i < x->nobjects; i++)
        x->index[x->objects[i].slot] = 0;
    for (uint32_t i = 0; i < x->nthreads; i++) {
        struct ravel__thread *th = &x->threads[i];
        th->state = RAVEL__T_UNUSED;
    }
    x->number = number;
    x->nthreads = x->nobjects = x->nevents = x->nvchoices = 0;
    x->live = 0;
    x->slow = 0;
    x->section_waiters = 0;
    x->choice_points = 0;
    x->ended = RAVEL__END_NONE;
    x->has_result = 0;
    x->result = 0;
    x->exit_status = 0;
    x->wait_seq = 0;
    x->heap_seq = 0;
    x->next_flags = 0;
    x->spinning = 0;
    x->spun = 0;
    x->fair_held = 0;
    x->spin_cut = 0;
    x->spin_wake = 0;
    x->nquiet = 0;
    x->graph_fp = 0;
    x->vnow = 0;
    memset(&x->failure, 0, sizeof x->failure);

    struct ravel__thread *main_th = &x->threads[0];
    memset(main_th, 0, RAVEL__THREAD_CLEARED);
    strcpy(main_th->name, "1");
    main_th->key = ravel__thread_key(0, 1);
    main_th->state = RAVEL__T_LIVE;
    x->live = 1;
    main_th->parent = RAVEL__NONE;
    main_th->create_event = RAVEL__NONE;
    main_th->pending.kind = RAVEL__OP_START;
    main_th->pending.obj = RAVEL__NONE;
    x->nthreads = 1;
    x->running = 0;
}

/* ------------------------------------------------------------------ */
/* Objects                                                             */

static void obj_reset(struct ravel__object *o, uint64_t addr, uint8_t kind,
                      uint32_t slot)
{
    memset(o, 0, sizeof *o);
    o->addr = addr;
    o->kind = kind;
    o->slot = slot;
    o->owner = RAVEL__NONE;
    o->origin_thread = RAVEL__NONE;
    o->first_event = RAVEL__NONE;
}

uint32_t ravel__obj_find(struct ravel__exec *x, uint64_t addr, uint8_t kind,
                         bool *created)
{
    uint32_t i = ravel__obj_hash(addr) & x->index_mask;
    for (;; i = (i + 1) & x->index_mask) {
        uint32_t e = x->index[i];
        if (e == 0)
            break;
        struct ravel__object *o = &x->objects[e - 1];
        if (o->addr == addr) {
            if (o->kind == kind) {
                *created = false;
                return e - 1;
            }
            /* Same memory, used as another kind: it was freed and reused.
             * Keep the slot (and the name it has in the trace so far). */
            uint8_t origin = o->origin;
            uint32_t oth = o->origin_thread;
            uint64_t seq = o->origin_seq, off = o->origin_off;
            obj_reset(o, addr, kind, i);
            o->origin = origin;
            o->origin_thread = oth;
            o->origin_seq = seq;
            o->origin_off = off;
            *created = true;
            return e - 1;
        }
    }
    if (x->nobjects >= x->max_objects)
        return RAVEL__NONE;
    uint32_t idx = x->nobjects++;
    obj_reset(&x->objects[idx], addr, kind, i);
    x->index[i] = idx + 1;
    *created = true;
    return idx;
}

/* ------------------------------------------------------------------ */
/* Held locks (for misuse checks and "held by" in reports)             */

static struct ravel__held *held_find(struct ravel__thread *th, uint32_t obj)
{
    for (uint32_t i = 0; i < th->nheld; i++)
        if (th->held[i].obj == obj)
            return &th->held[i];
    return NULL;
}

static void held_add_n(struct ravel__thread *th, uint32_t obj, bool read,
                       uint32_t n)
{
    struct ravel__held *h = held_find(th, obj);
    if (h) {
        h->count += n;
        return;
    }
    if (th->nheld < RAVEL__MAX_HELD)
        th->held[th->nheld++] = (struct ravel__held){obj, n, read};
}

static void held_add(struct ravel__thread *th, uint32_t obj, bool read)
{
    held_add_n(th, obj, read, 1);
}

static void held_remove(struct ravel__thread *th, uint32_t obj)
{
    for (uint32_t i = 0; i < th->nheld; i++) {
        if (th->held[i].obj != obj)
            continue;
        if (--th->held[i].count == 0)
            th->held[i] = th->held[--th->nheld];
        return;
    }
}

/* ------------------------------------------------------------------ */
/* Failures                                                            */

void ravel__fail(struct ravel__exec *x, uint8_t kind, uint32_t thread,
                 uint64_t pc, const char *fmt, ...)
{
    struct ravel__failure *f = &x->failure;
    if (f->kind != RAVEL__FAIL_NONE)
        return;
    f->kind = kind;
    f->thread = thread;
    f->pc = pc;
    f->step = x->nevents;
    f->obj = RAVEL__NONE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
}

/* Short description of an object for misuse messages; the report names
 * objects properly, so this only needs the kind. */
static void misuse(struct ravel__exec *x, uint32_t t, uint32_t obj,
                   const char *fmt, const char *who)
{
    ravel__fail(x, RAVEL__FAIL_LOCK_MISUSE, t, x->threads[t].pending.pc, fmt,
                who);
    x->failure.obj = obj;
}

/* ------------------------------------------------------------------ */
/* Enabledness                                                         */

static bool mutex_available(const struct ravel__exec *x, uint32_t m,
                            uint32_t t)
{
    const struct ravel__object *o = &x->objects[m];
    return o->owner == RAVEL__NONE ||
           (o->owner == t && o->subtype == RAVEL__MUTEX_RECURSIVE);
}

bool ravel__op_drains(const struct ravel__op *op)
{
    switch (op->kind) {
    case RAVEL__OP_START:
    case RAVEL__OP_ATOMIC_LOAD:
    case RAVEL__OP_PLAIN_READ:
    case RAVEL__OP_YIELD:
    case RAVEL__OP_SLEEP:
    case RAVEL__OP_FLUSH:
        return false; /* neither drains nor fills a buffer */
    case RAVEL__OP_FENCE:
        return op->arg == __ATOMIC_SEQ_CST; /* mfence; others: nothing */
    case RAVEL__OP_ATOMIC_STORE:
        /* seq_cst stores are xchg on x86 (locked: they drain); a
         * volatile store (obj2 set by src/rt/intercept/tsan.c) is made by
         * the program's own instruction after the hook, so ravel cannot
         * hold it back: it drains too, which is stronger than TSO, never
         * weaker. */
        return op->arg == __ATOMIC_SEQ_CST || op->obj2 != RAVEL__NONE;
    default:
        /* Locked read-modify-writes, promoted plain writes (made by the
         * program's own instruction) and every synchronisation call. */
        return true;
    }
}

bool ravel__op_buffered_store(const struct ravel__exec *x, uint32_t t)
{
    const struct ravel__op *op = &x->threads[t].pending;
    return x->memory_model == RAVEL__MM_TSO &&
           op->kind == RAVEL__OP_ATOMIC_STORE && !ravel__op_drains(op);
}

bool ravel__op_waits_buffer(const struct ravel__exec *x, uint32_t t)
{
    const struct ravel__thread *th = &x->threads[t];
    if (x->memory_model != RAVEL__MM_TSO || !th->sb)
        return false;
    uint32_t n = x->threads[th->sb - 1].sb_n;
    if (ravel__op_buffered_store(x, t))
        return n >= RAVEL__SB_MAX;
    return n > 0 && ravel__op_drains(&th->pending);
}

uint32_t ravel__sb_thread(struct ravel__exec *x, uint32_t t)
{
    struct ravel__thread *p = &x->threads[t];
    if (p->sb)
        return p->sb - 1;
    if (x->nthreads >= RAVEL__MAX_THREADS ||
        strlen(p->name) + 4 > RAVEL__NAME_MAX)
        return RAVEL__NONE;
    uint32_t c = x->nthreads++;
    struct ravel__thread *th = &x->threads[c];
    memset(th, 0, RAVEL__THREAD_CLEARED);
    size_t pl = strlen(p->name);
    memcpy(th->name, p->name, pl);
    memcpy(th->name + pl, "/sb", 4);
    /* Child number 0 is never a program thread's (they count from 1). */
    th->key = ravel__thread_key(p->key, 0);
    th->state = RAVEL__T_LIVE;
    set_live(x, c, true);
    th->parent = t;
    th->create_event = RAVEL__NONE;
    th->sb_owner = t + 1;
    th->pending.kind = RAVEL__OP_FLUSH;
    if (c < 64)
        x->slow |= 1ULL << c; /* enabled by its buffer (not under SC) */
    th->pending.obj = RAVEL__NONE;
    th->pending.obj2 = t; /* whose buffer (src/explore/depend.c) */
    p->sb = c + 1;
    return c;
}

/* The kinds the switch of resource_enabled below decides (keep the two
 * together), and a store buffer's flush (never under sequential
 * consistency): every other kind is enabled whenever its thread is live,
 * not spin-blocked, not capped, under sequential consistency. */
bool ravel__op_may_block(uint16_t kind)
{
    switch (kind) {
    case RAVEL__OP_JOIN:
    case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_COND_WAKE:
    case RAVEL__OP_RW_RDLOCK:
    case RAVEL__OP_SPIN_LOCK:
    case RAVEL__OP_RW_WRLOCK:
    case RAVEL__OP_SEM_WAIT:
    case RAVEL__OP_BARRIER_LEAVE:
    case RAVEL__OP_ONCE:
    case RAVEL__OP_SECTION:
    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_WRITE:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_POLL:
    case RAVEL__OP_FD_POLL_ALL:
    case RAVEL__OP_FLUSH:
        return true;
    default:
        return false;
    }
}

void ravel__note_pending(struct ravel__exec *x, uint32_t t)
{
    if (t >= 64)
        return;
    const struct ravel__thread *th = &x->threads[t];
    if (ravel__op_may_block(th->pending.kind) || th->capped)
        x->slow |= 1ULL << t;
    else
        x->slow &= ~(1ULL << t);
}

/* Enabled as far as its resource goes: what ravel__op_enabled says
 * without --timeouts late. */
static bool resource_enabled(const struct ravel__exec *x, uint32_t t)
{
    const struct ravel__thread *th = &x->threads[t];
    if (th->state != RAVEL__T_LIVE || th->spin_blocked)
        return false;
    if (RAVEL__UNLIKELY(th->capped))
        return false;
    if (RAVEL__UNLIKELY(x->memory_model != RAVEL__MM_SC)) {
        if (th->sb_owner)
            return th->sb_n > 0;
        if (ravel__op_waits_buffer(x, t))
            return false;
    }
    const struct ravel__op *op = &th->pending;
    /* Called for every thread at every step: most operations (atomics,
     * starts, unlocks ...) never block, and are decided first. The
     * others name a synchronisation object of their kind. */
    const struct ravel__object *o;
    switch (op->kind) {
    case RAVEL__OP_JOIN: {
        const struct ravel__thread *tg = &x->threads[op->obj];
        return op->obj == t || tg->detached || tg->joined ||
               tg->state == RAVEL__T_FINISHED;
    }
    case RAVEL__OP_MUTEX_LOCK:
        return mutex_available(x, op->obj, t);
    case RAVEL__OP_COND_WAKE:
        return (th->cond_signaled || op->arg) &&
               mutex_available(x, op->obj2, t);
    case RAVEL__OP_RW_RDLOCK:
    case RAVEL__OP_SPIN_LOCK:
        o = &x->objects[op->obj];
        return o->owner == RAVEL__NONE;
    case RAVEL__OP_RW_WRLOCK:
        o = &x->objects[op->obj];
        return o->owner == RAVEL__NONE && o->readers == 0;
    case RAVEL__OP_SEM_WAIT:
        return x->objects[op->obj].value > 0;
    case RAVEL__OP_BARRIER_LEAVE:
        return x->objects[op->obj].generation != th->barrier_gen;
    case RAVEL__OP_ONCE:
        return x->objects[op->obj].once_state != 1;
    case RAVEL__OP_SECTION:
        return !th->section_wait ||
               x->objects[op->obj].generation != th->section_gen;
    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_WRITE:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_POLL:
    case RAVEL__OP_FD_POLL_ALL:
        return !(op->arg & RAVEL__FD_WAITS) || th->fd_ready;
    default:
        return true;
    }
}

bool ravel__op_times_out(const struct ravel__exec *x, uint32_t t)
{
    const struct ravel__thread *th = &x->threads[t];
    const struct ravel__op *op = &th->pending;
    const struct ravel__object *o;
    switch (op->kind) {
    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_WRITE:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_POLL:
    case RAVEL__OP_FD_POLL_ALL:
        return (op->arg & RAVEL__FD_TIMED) && !th->fd_ready;
    case RAVEL__OP_MUTEX_TIMEDLOCK:
        return !mutex_available(x, op->obj, t);
    case RAVEL__OP_COND_WAKE:
        return op->arg && !th->cond_signaled;
    case RAVEL__OP_SEM_TIMEDWAIT:
        return x->objects[op->obj].value <= 0;
    case RAVEL__OP_RW_TIMEDRDLOCK:
        return x->objects[op->obj].owner != RAVEL__NONE;
    case RAVEL__OP_RW_TIMEDWRLOCK:
        o = &x->objects[op->obj];
        return o->owner != RAVEL__NONE || o->readers;
    case RAVEL__OP_TIMEDJOIN: {
        const struct ravel__thread *tg = &x->threads[op->obj];
        return op->obj != t && !tg->detached && !tg->joined &&
               tg->state != RAVEL__T_FINISHED;
    }
    default:
        return false;
    }
}

/*
 * --timeouts late. A sleep, or a timed wait that would time out (its
 * mutex held, its condition not signalled, its descriptor not ready),
 * is held back while its deadline is in the virtual future: the thread
 * waits as it would on a machine that runs every runnable thread at
 * once. When no thread can run otherwise, the held-back threads with
 * the soonest deadline become enabled (time jumps there when one of
 * them runs: intercept/time.c). A wait whose resource becomes
 * available is enabled as usual and does not time out.
 */
static bool held_back(const struct ravel__exec *x, uint32_t t)
{
    const struct ravel__thread *th = &x->threads[t];
    return th->wake_at > x->vnow &&
           (th->pending.kind == RAVEL__OP_SLEEP || ravel__op_times_out(x, t));
}

bool ravel__op_enabled(const struct ravel__exec *x, uint32_t t)
{
    if (!resource_enabled(x, t))
        return false;
    if (RAVEL__LIKELY(!x->timeouts_late) || !held_back(x, t))
        return true;
    uint64_t at = x->threads[t].wake_at;
    for (uint32_t u = 0; u < x->nthreads; u++) {
        if (u == t || !resource_enabled(x, u))
            continue;
        if (!held_back(x, u) || x->threads[u].wake_at < at)
            return false;
    }
    return true;
}

void ravel__section_done(struct ravel__exec *x, uint32_t obj)
{
    x->objects[obj].generation++;
}


void ravel__section_rolled_back(struct ravel__exec *x, uint32_t t,
                                uint32_t obj, uint32_t event)
{
    struct ravel__thread *th = &x->threads[t];
    if (!th->section_wait)
        x->section_waiters++;
    th->section_wait = 1;
    th->section_gen = x->objects[obj].generation;
    th->nsection_reads = 0;
    if (event >= x->nevents)
        return;
    x->events[event].flags |= RAVEL__EV_FAILED;
    for (uint32_t e = event + 1; e < x->nevents; e++) {
        const struct ravel__event *ev = &x->events[e];
        if (ev->thread == t && ev->obj != RAVEL__NONE &&
            (ev->kind == RAVEL__OP_PLAIN_READ ||
             ev->kind == RAVEL__OP_ATOMIC_LOAD) &&
            th->nsection_reads < RAVEL__COUNT(th->section_reads))
            th->section_reads[th->nsection_reads++] = ev->obj;
    }
}

/* Thread t wrote object obj in a visible step: a section that waits
 * having read it may try again. */
static void section_wake_readers(struct ravel__exec *x, uint32_t t,
                                 uint32_t obj)
{
    for (uint32_t u = 0; u < x->nthreads && x->section_waiters; u++) {
        struct ravel__thread *th = &x->threads[u];
        if (u == t || !th->section_wait)
            continue;
        for (uint32_t i = 0; i < th->nsection_reads; i++)
            if (th->section_reads[i] == obj) {
                th->section_wait = 0;
                x->section_waiters--;
                break;
            }
    }
}

bool ravel__stuck_not_deadlocked(const struct ravel__exec *x, bool *cut)
{
    bool any = false;
    *cut = false;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        const struct ravel__thread *th = &x->threads[t];
        if (th->state != RAVEL__T_LIVE)
            continue;
        if (th->capped)
            *cut = any = true;
        else if (th->pending.kind == RAVEL__OP_SECTION && th->section_wait)
            any = true;
    }
    return any;
}

bool ravel__late_holds(const struct ravel__exec *x)
{
    for (uint32_t t = 0; t < x->nthreads; t++)
        if (resource_enabled(x, t) && held_back(x, t))
            return true;
    return false;
}

/* --timeouts late, in two passes rather than ravel__op_enabled's scan
 * per thread. */
static uint32_t late_enabled(const struct ravel__exec *x, uint32_t *out)
{
    uint32_t n = 0;
    uint64_t soonest = UINT64_MAX;
    for (uint32_t t = 0; t < x->nthreads; t++) {
        if (!resource_enabled(x, t))
            continue;
        if (!held_back(x, t))
            out[n++] = t;
        else if (x->threads[t].wake_at < soonest)
            soonest = x->threads[t].wake_at;
    }
    if (n || soonest == UINT64_MAX)
        return n;
    for (uint32_t t = 0; t < x->nthreads; t++)
        if (resource_enabled(x, t) && held_back(x, t) &&
            x->threads[t].wake_at == soonest)
            out[n++] = t;
    return n;
}

uint32_t ravel__enabled(const struct ravel__exec *x, uint32_t *out,
                        uint64_t *mask)
{
    uint32_t n = 0;
    uint64_t en = 0;
    if (RAVEL__UNLIKELY(x->timeouts_late)) {
        n = late_enabled(x, out);
        for (uint32_t i = 0; i < n; i++)
            if (out[i] < 64)
                en |= 1ULL << out[i];
    } else if (x->nthreads <= 64) {
        /* Only live threads can be enabled (x->live), in index order;
         * with no thread spin-blocked (x->spinning counts them) and
         * sequential consistency, one whose operation never blocks
         * (not in x->slow) is enabled without looking further. */
        uint64_t slow = x->slow;
        if (x->spinning || x->memory_model != RAVEL__MM_SC)
            slow = ~0ULL;
        /* The mask first (the live threads that never block, then those
         * of the others that can go on), then the list from it. */
        en = x->live & ~slow;
        for (uint64_t m = x->live & slow; m; m &= m - 1) {
            uint32_t t = (uint32_t)__builtin_ctzll(m);
            if (resource_enabled(x, t))
                en |= 1ULL << t;
        }
        for (uint64_t m = en; m; m &= m - 1)
            out[n++] = (uint32_t)__builtin_ctzll(m);
    } else {
        for (uint32_t t = 0; t < x->nthreads; t++)
            if (resource_enabled(x, t)) {
                out[n++] = t;
                if (t < 64)
                    en |= 1ULL << t;
            }
    }
    if (mask)
        *mask = en;
    return n;
}

bool ravel__op_selfblock(struct ravel__exec *x, uint32_t t)
{
    struct ravel__thread *th = &x->threads[t];
    const struct ravel__op *op = &th->pending;
    switch (op->kind) {
    case RAVEL__OP_MUTEX_LOCK: {
        const struct ravel__object *o = &x->objects[op->obj];
        if (o->owner == t && o->subtype != RAVEL__MUTEX_RECURSIVE) {
            misuse(x, t, op->obj,
                   "thread %s locks a non-recursive mutex it already holds "
                   "(self-deadlock)",
                   th->name);
            return true;
        }
        return false;
    }
    case RAVEL__OP_SPIN_LOCK:
        if (x->objects[op->obj].owner == t) {
            misuse(x, t, op->obj,
                   "thread %s locks a spinlock it already holds "
                   "(self-deadlock)",
                   th->name);
            return true;
        }
        return false;
    case RAVEL__OP_RW_WRLOCK:
    case RAVEL__OP_RW_RDLOCK: {
        const struct ravel__object *o = &x->objects[op->obj];
        if (o->owner == t) {
            misuse(x, t, op->obj,
                   "thread %s locks an rwlock it already holds for writing "
                   "(self-deadlock)",
                   th->name);
            return true;
        }
        if (op->kind == RAVEL__OP_RW_WRLOCK && held_find(th, op->obj)) {
            misuse(x, t, op->obj,
                   "thread %s write-locks an rwlock it holds for reading "
                   "(self-deadlock)",
                   th->name);
            return true;
        }
        return false;
    }
    case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_TIMEDWAIT:
        if (x->objects[op->obj2].owner != t) {
            misuse(x, t, op->obj2,
                   "thread %s waits on a condition variable without holding "
                   "its mutex",
                   th->name);
            return true;
        }
        return false;
    default:
        return false;
    }
}

uint32_t ravel__blocker(const struct ravel__exec *x, uint32_t t)
{
    const struct ravel__op *op = &x->threads[t].pending;
    switch (op->kind) {
    case RAVEL__OP_JOIN:
        return op->obj;
    case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_SPIN_LOCK:
    case RAVEL__OP_RW_RDLOCK:
    case RAVEL__OP_RW_WRLOCK:
    case RAVEL__OP_ONCE:
        return x->objects[op->obj].owner;
    case RAVEL__OP_COND_WAKE:
        if (x->threads[t].cond_signaled || op->arg)
            return x->objects[op->obj2].owner;
        return RAVEL__NONE;
    default:
        return RAVEL__NONE;
    }
}

/* ------------------------------------------------------------------ */
/* Effects                                                             */

static struct ravel__event *log_event(struct ravel__exec *x, uint32_t t)
{
    const struct ravel__op *op = &x->threads[t].pending;
    struct ravel__event *ev = &x->events[x->nevents];
    ev->thread = t;
    ev->kind = op->kind;
    ev->flags = x->next_flags;
    if (RAVEL__UNLIKELY(x->memory_model == RAVEL__MM_TSO) &&
        ravel__op_drains(op))
        ev->flags |= RAVEL__EV_DRAINS;
    x->next_flags = 0;
    ev->obj = op->obj;
    ev->aux = RAVEL__NONE;
    ev->pc = op->pc;
    ev->value = 0;
    ev->value2 = 0;
    uint8_t ok = ravel__op_obj_kind(op->kind);
    if (op->obj != RAVEL__NONE && ok != RAVEL__OBJ_NONE &&
        ok != RAVEL__OBJ_THREAD &&
        x->objects[op->obj].first_event == RAVEL__NONE)
        x->objects[op->obj].first_event = x->nevents;
    x->nevents++;
    x->threads[t].steps++;
    return ev;
}

static int fail_ev(struct ravel__event *ev, int err, uint16_t flag)
{
    ev->flags |= flag;
    ev->value = err;
    return err;
}

static void mutex_take(struct ravel__exec *x, uint32_t m, uint32_t t,
                       uint32_t count)
{
    struct ravel__object *o = &x->objects[m];
    if (o->owner == t) {
        o->count += count;
    } else {
        o->owner = t;
        o->count = count;
    }
    held_add_n(&x->threads[t], m, false, count);
}

/* Joins a finished thread: its retval becomes the event's value. */
static int do_join(struct ravel__exec *x, uint32_t t, uint32_t target,
                   struct ravel__event *ev)
{
    struct ravel__thread *tg = &x->threads[target];
    ev->aux = target;
    if (target == t)
        return fail_ev(ev, EDEADLK, RAVEL__EV_ERROR);
    if (tg->detached || tg->joined)
        return fail_ev(ev, EINVAL, RAVEL__EV_ERROR);
    tg->joined = 1;
    ev->value = (int64_t)tg->retval;
    return 0;
}


/* Creates a child of `parent`; returns its index or RAVEL__NONE. */
static uint32_t spawn(struct ravel__exec *x, uint32_t parent)
{
    if (x->nthreads >= RAVEL__MAX_THREADS)
        return RAVEL__NONE;
    struct ravel__thread *p = &x->threads[parent];
    /* name = parent's name "." child number (by hand: this runs at every
     * pthread_create of every execution) */
    char digits[12];
    int nd = 0;
    for (uint32_t v = p->nchildren + 1; v; v /= 10)
        digits[nd++] = (char)('0' + v % 10);
    size_t pl = strlen(p->name);
    if (pl + 1 + (size_t)nd + 1 > RAVEL__NAME_MAX)
        return RAVEL__NONE;
    char name[RAVEL__NAME_MAX];
    memcpy(name, p->name, pl);
    name[pl] = '.';
    for (int i = 0; i < nd; i++)
        name[pl + 1 + i] = digits[nd - 1 - i];
    int n = (int)pl + 1 + nd;
    name[n] = 0;
    uint32_t c = x->nthreads++;
    struct ravel__thread *th = &x->threads[c];
    memset(th, 0, RAVEL__THREAD_CLEARED);
    memcpy(th->name, name, (size_t)n + 1);
    p->nchildren++;
    th->key = ravel__thread_key(p->key, p->nchildren);
    th->state = RAVEL__T_LIVE;
    set_live(x, c, true);
    th->parent = parent;
    th->create_event = x->nevents - 1;
    th->pending.kind = RAVEL__OP_START;
    if (c < 64)
        x->slow &= ~(1ULL << c);
    th->pending.obj = RAVEL__NONE;
    th->pending.obj2 = RAVEL__NONE;
    return c;
}

int ravel__op_apply(struct ravel__exec *x, uint32_t t, ravel__choose_fn choose,
                    void *ctx, struct ravel__event **evp)
{
    if (x->nevents >= x->max_events)
        return RAVEL__APPLY_FULL;
    struct ravel__thread *th = &x->threads[t];
    const struct ravel__op *op = &th->pending;
    struct ravel__event *ev = log_event(x, t);
    *evp = ev;
    struct ravel__object *o =
        (op->obj != RAVEL__NONE &&
         ravel__op_obj_kind(op->kind) > RAVEL__OBJ_THREAD)
            ? &x->objects[op->obj]
            : NULL;

    if (op->kind == RAVEL__OP_FLUSH)
        ev->aux = op->obj2; /* the buffer's thread; value2: the store */
    if (RAVEL__UNLIKELY(x->memory_model == RAVEL__MM_TSO) &&
        op->kind == RAVEL__OP_ATOMIC_STORE && !ravel__op_drains(op)) {
        /* Into the store buffer; the runtime keeps what it holds
         * (src/rt/tso.c), the model how much, and the flush's object. */
        uint32_t b = ravel__sb_thread(x, t);
        if (b == RAVEL__NONE)
            return RAVEL__APPLY_FULL;
        struct ravel__thread *bt = &x->threads[b];
        if (bt->sb_n++ == 0) {
            bt->pending.obj = op->obj;
            bt->pending.pc = op->pc;
            bt->pending.arg = op->arg;
        }
        ev->flags |= RAVEL__EV_BUFFERED;
    }
    switch (op->kind) {
    case RAVEL__OP_FENCE:
    case RAVEL__OP_FLUSH:
    case RAVEL__OP_ATOMIC_LOAD:
    case RAVEL__OP_ATOMIC_STORE:
    case RAVEL__OP_ATOMIC_RMW:
    case RAVEL__OP_ATOMIC_CAS:
        /* arg: the C11 memory order, as the compiler's hooks number
         * them (relaxed 0, consume 1, acquire 2, release 3, acq_rel 4,
         * seq_cst 5). */
        if (op->arg >= 1 && op->arg != 3)
            ev->flags |= RAVEL__EV_ACQUIRE;
        if (op->arg >= 3)
            ev->flags |= RAVEL__EV_RELEASE;
        return 0;
    case RAVEL__OP_START:
    case RAVEL__OP_YIELD:
    case RAVEL__OP_SLEEP:
    case RAVEL__OP_BARRIER_LEAVE:
    case RAVEL__OP_PLAIN_READ:
    case RAVEL__OP_PLAIN_WRITE:
        if (RAVEL__UNLIKELY(x->section_waiters) && op->obj != RAVEL__NONE &&
            (op->kind == RAVEL__OP_PLAIN_WRITE ||
             op->kind == RAVEL__OP_ATOMIC_STORE ||
             op->kind == RAVEL__OP_ATOMIC_RMW ||
             op->kind == RAVEL__OP_ATOMIC_CAS))
            section_wake_readers(x, t, op->obj);
        return 0;

    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_WRITE:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_POLL:
    case RAVEL__OP_FD_POLL_ALL:
        /* Not ready: a descriptor that does not block says EAGAIN (a
         * failed try), a timed poll times out; either way the thread
         * waits for others (fairness, sched.c). The runtime does the
         * call itself and fills in the event's value. */
        ev->aux = op->obj2;
        if (op->arg & RAVEL__FD_EPOLLED)
            ev->flags |= RAVEL__EV_EPOLLED;
        if (op->arg & RAVEL__FD_WAITS)
            ev->flags |= RAVEL__EV_BLOCKING;
        if (!th->fd_ready)
            ev->flags |= (op->arg & RAVEL__FD_TIMED) ? RAVEL__EV_TIMEDOUT
                                                     : RAVEL__EV_FAILED;
        return 0;
    case RAVEL__OP_FD_NEW:
    case RAVEL__OP_FD_CLOSE:
    case RAVEL__OP_FD_CONNECT:
    case RAVEL__OP_FD_LISTEN:
    case RAVEL__OP_FD_SHUTDOWN:
    case RAVEL__OP_FD_CTL:
        ev->aux = op->obj2;
        if (op->arg & RAVEL__FD_EPOLLED)
            ev->flags |= RAVEL__EV_EPOLLED;
        return 0;

    case RAVEL__OP_SECTION:
        if (th->section_wait) {
            th->section_wait = 0;
            x->section_waiters--;
        }
        return 0;

    case RAVEL__OP_FINISH:
        th->state = RAVEL__T_FINISHED;
        set_live(x, t, false);
        /* Its store buffer drained before (the finish waits for it), and
         * nothing will fill it again. */
        if (th->sb) {
            x->threads[th->sb - 1].state = RAVEL__T_FINISHED;
            set_live(x, th->sb - 1, false);
        }
        th->retval = (uint64_t)op->arg;
        ev->value = op->arg;
        if (th->detached)
            th->joined = 1;
        for (uint32_t i = 0; i < x->nthreads; i++)
            if (x->threads[i].state == RAVEL__T_LIVE)
                return 0;
        if (x->ended == RAVEL__END_NONE)
            x->ended = RAVEL__END_ALL_FINISHED;
        return 0;

    case RAVEL__OP_CREATE: {
        /* Running out of ravel's capacity is a tool error, never an
         * EAGAIN the program would see: that could be a false alarm. */
        uint32_t c = spawn(x, t);
        if (c == RAVEL__NONE)
            return RAVEL__APPLY_FULL;
        ev->aux = c;
        if (op->arg)
            x->threads[c].detached = 1;
        return 0;
    }
    case RAVEL__OP_JOIN:
        return do_join(x, t, op->obj, ev);
    case RAVEL__OP_TRYJOIN:
    case RAVEL__OP_TIMEDJOIN: {
        struct ravel__thread *tg = &x->threads[op->obj];
        if (op->obj != t && !tg->detached && !tg->joined &&
            tg->state != RAVEL__T_FINISHED) {
            ev->aux = op->obj;
            return op->kind == RAVEL__OP_TRYJOIN
                       ? fail_ev(ev, EBUSY, RAVEL__EV_FAILED)
                       : fail_ev(ev, ETIMEDOUT, RAVEL__EV_TIMEDOUT);
        }
        return do_join(x, t, op->obj, ev);
    }
    case RAVEL__OP_DETACH: {
        struct ravel__thread *tg = &x->threads[op->obj];
        ev->aux = op->obj;
        if (tg->detached || tg->joined)
            return fail_ev(ev, EINVAL, RAVEL__EV_ERROR);
        tg->detached = 1;
        if (tg->state == RAVEL__T_FINISHED)
            tg->joined = 1;
        return 0;
    }
    case RAVEL__OP_EXIT:
        /* The runtime ends the execution once exit handlers have run. */
        ev->value = op->arg;
        x->exit_status = op->arg;
        return 0;

    case RAVEL__OP_MUTEX_LOCK:
        mutex_take(x, op->obj, t, 1);
        return 0;
    case RAVEL__OP_MUTEX_TRYLOCK:
    case RAVEL__OP_MUTEX_TIMEDLOCK:
        if (!mutex_available(x, op->obj, t)) {
            if (op->kind == RAVEL__OP_MUTEX_TRYLOCK)
                return fail_ev(ev, EBUSY, RAVEL__EV_FAILED);
            if (o->owner == t && o->subtype == RAVEL__MUTEX_ERRORCHECK)
                return fail_ev(ev, EDEADLK, RAVEL__EV_ERROR);
            return fail_ev(ev, ETIMEDOUT, RAVEL__EV_TIMEDOUT);
        }
        mutex_take(x, op->obj, t, 1);
        return 0;
    case RAVEL__OP_MUTEX_UNLOCK:
        if (o->owner != t) {
            if (o->owner == RAVEL__NONE)
                misuse(x, t, op->obj,
                       "thread %s unlocks a mutex that is not locked", th->name);
            else
                misuse(x, t, op->obj,
                       "thread %s unlocks a mutex held by another thread",
                       th->name);
            return RAVEL__APPLY_MISUSE;
        }
        if (--o->count == 0)
            o->owner = RAVEL__NONE;
        held_remove(th, op->obj);
        return 0;
    case RAVEL__OP_MUTEX_DESTROY:
        if (o->owner != RAVEL__NONE) {
            misuse(x, t, op->obj,
                   "thread %s destroys a mutex that is locked", th->name);
            return RAVEL__APPLY_MISUSE;
        }
        o->destroyed = 1;
        return 0;

    case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_TIMEDWAIT: {
        struct ravel__object *m = &x->objects[op->obj2];
        /* Release the mutex completely; COND_WAKE takes it back. */
        th->saved_count = m->count;
        m->owner = RAVEL__NONE;
        m->count = 0;
        for (uint32_t i = 0; i < th->nheld; i++)
            if (th->held[i].obj == op->obj2)
                th->held[i] = th->held[--th->nheld];
        th->cond_signaled = 0;
        th->wait_seq = ++x->wait_seq;
        ev->aux = op->obj2;
        return 0;
    }
    case RAVEL__OP_COND_WAKE: {
        int rc = 0;
        if (!th->cond_signaled)
            rc = fail_ev(ev, ETIMEDOUT, RAVEL__EV_TIMEDOUT);
        /* value2: which notification woke it (RAVEL__WAKE_BY), and
         * whether it could have timed out instead (ravel__event_access_any). */
        ev->value2 = (th->cond_signaled ? (int64_t)th->signal_ev + 1 : 0) |
                     (op->arg ? RAVEL__WAKE_TIMED : 0);
        th->cond_signaled = 0;
        mutex_take(x, op->obj2, t, th->saved_count ? th->saved_count : 1);
        ev->aux = op->obj2;
        return rc;
    }
    case RAVEL__OP_COND_SIGNAL:
    case RAVEL__OP_COND_BROADCAST: {
        /* Waiters that have not been signaled yet, in order of waiting. */
        uint32_t waiters[RAVEL__MAX_THREADS];
        uint32_t n = 0;
        for (uint32_t i = 0; i < x->nthreads; i++) {
            const struct ravel__thread *w = &x->threads[i];
            if (w->state == RAVEL__T_LIVE &&
                w->pending.kind == RAVEL__OP_COND_WAKE &&
                w->pending.obj == op->obj && !w->cond_signaled)
                waiters[n++] = i;
        }
        for (uint32_t i = 1; i < n; i++) { /* insertion sort by wait_seq */
            uint32_t v = waiters[i], j = i;
            while (j > 0 && x->threads[waiters[j - 1]].wait_seq >
                                x->threads[v].wait_seq) {
                waiters[j] = waiters[j - 1];
                j--;
            }
            waiters[j] = v;
        }
        ev->value = n;
        if (n == 0)
            return 0;
        uint32_t self = (uint32_t)(ev - x->events); /* this event */
        if (op->kind == RAVEL__OP_COND_BROADCAST) {
            for (uint32_t i = 0; i < n; i++) {
                x->threads[waiters[i]].cond_signaled = 1;
                x->threads[waiters[i]].signal_ev = self;
            }
            return 0;
        }
        uint32_t pick = 0;
        if (n > 1) {
            if (x->nvchoices >= x->max_vchoices)
                return RAVEL__APPLY_FULL; /* not with a laid-out exec */
            pick = choose(ctx, n);
            RAVEL__CHECK(pick < n);
            x->vchoices[x->nvchoices++] = (struct ravel__vchoice){
                x->nevents, n, pick, t, x->threads[t].steps, 0};
            x->choice_points++;
        }
        x->threads[waiters[pick]].cond_signaled = 1;
        x->threads[waiters[pick]].signal_ev = self;
        ev->aux = waiters[pick];
        return 0;
    }

    case RAVEL__OP_RW_RDLOCK:
        o->readers++;
        held_add(th, op->obj, true);
        return 0;
    case RAVEL__OP_RW_WRLOCK:
        o->owner = t;
        held_add(th, op->obj, false);
        return 0;
    case RAVEL__OP_RW_TRYRDLOCK:
    case RAVEL__OP_RW_TIMEDRDLOCK:
        if (o->owner != RAVEL__NONE)
            return op->kind == RAVEL__OP_RW_TRYRDLOCK
                       ? fail_ev(ev, EBUSY, RAVEL__EV_FAILED)
                       : fail_ev(ev, o->owner == t ? EDEADLK : ETIMEDOUT,
                                 o->owner == t ? RAVEL__EV_ERROR
                                               : RAVEL__EV_TIMEDOUT);
        o->readers++;
        held_add(th, op->obj, true);
        return 0;
    case RAVEL__OP_RW_TRYWRLOCK:
    case RAVEL__OP_RW_TIMEDWRLOCK:
        if (o->owner != RAVEL__NONE || o->readers) {
            if (op->kind == RAVEL__OP_RW_TRYWRLOCK)
                return fail_ev(ev, EBUSY, RAVEL__EV_FAILED);
            if (o->owner == t || held_find(th, op->obj))
                return fail_ev(ev, EDEADLK, RAVEL__EV_ERROR);
            return fail_ev(ev, ETIMEDOUT, RAVEL__EV_TIMEDOUT);
        }
        o->owner = t;
        held_add(th, op->obj, false);
        return 0;
    case RAVEL__OP_RW_UNLOCK: {
        /* aux: 1 when the writer unlocks, 0 for a reader (happens-before
         * differs, src/model/detect.c). */
        if (o->owner == t) {
            o->owner = RAVEL__NONE;
            held_remove(th, op->obj);
            ev->aux = 1;
            return 0;
        }
        struct ravel__held *h = held_find(th, op->obj);
        if (h && h->read && o->readers) {
            ev->aux = 0;
            o->readers--;
            held_remove(th, op->obj);
            return 0;
        }
        misuse(x, t, op->obj,
               "thread %s unlocks an rwlock it does not hold", th->name);
        return RAVEL__APPLY_MISUSE;
    }
    case RAVEL__OP_RW_DESTROY:
        if (o->owner != RAVEL__NONE || o->readers) {
            misuse(x, t, op->obj,
                   "thread %s destroys an rwlock that is locked", th->name);
            return RAVEL__APPLY_MISUSE;
        }
        o->destroyed = 1;
        return 0;

    case RAVEL__OP_SEM_WAIT:
        o->value--;
        ev->value = o->value;
        return 0;
    case RAVEL__OP_SEM_TRYWAIT:
    case RAVEL__OP_SEM_TIMEDWAIT:
        if (o->value <= 0)
            return op->kind == RAVEL__OP_SEM_TRYWAIT
                       ? fail_ev(ev, EAGAIN, RAVEL__EV_FAILED)
                       : fail_ev(ev, ETIMEDOUT, RAVEL__EV_TIMEDOUT);
        o->value--;
        ev->value = o->value;
        return 0;
    case RAVEL__OP_SEM_POST:
        if (o->value >= 0x7fffffff)
            return fail_ev(ev, EOVERFLOW, RAVEL__EV_ERROR);
        o->value++;
        ev->value = o->value;
        return 0;
    case RAVEL__OP_SEM_GETVALUE:
        ev->value = o->value;
        return 0;
    case RAVEL__OP_SEM_DESTROY:
        o->destroyed = 1;
        return 0;

    case RAVEL__OP_BARRIER_WAIT:
        if (++o->value >= o->limit) {
            o->value = 0;
            o->generation++;
            ev->flags |= RAVEL__EV_SERIAL;
            th->barrier_gen = o->generation;
            return 0;
        }
        th->barrier_gen = o->generation;
        return 0;

    case RAVEL__OP_SPIN_LOCK:
        o->owner = t;
        held_add(th, op->obj, false);
        return 0;
    case RAVEL__OP_SPIN_TRYLOCK:
        if (o->owner != RAVEL__NONE)
            return fail_ev(ev, EBUSY, RAVEL__EV_FAILED);
        o->owner = t;
        held_add(th, op->obj, false);
        return 0;
    case RAVEL__OP_SPIN_UNLOCK:
        if (o->owner != t) {
            misuse(x, t, op->obj,
                   "thread %s unlocks a spinlock it does not hold", th->name);
            return RAVEL__APPLY_MISUSE;
        }
        o->owner = RAVEL__NONE;
        held_remove(th, op->obj);
        return 0;

    case RAVEL__OP_ONCE:
        if (o->once_state == 2)
            return 0;
        o->once_state = 1;
        o->owner = t;
        ev->value = 1;
        return 1;
    case RAVEL__OP_ONCE_DONE:
        o->once_state = 2;
        o->owner = RAVEL__NONE;
        return 0;
    }
    RAVEL__CHECK(!"unknown operation kind");
    return 0;
}
