/*
 * depend.c - access classes, dependency and happens-before (see depend.h).
 */
#include "depend.h"

#include "../common/hash.h"

#include <stdlib.h>
#include <string.h>

#define R RAVEL__ACC_READ
#define W RAVEL__ACC_WRITE
#define A RAVEL__ACC_ACQUIRE
#define L RAVEL__ACC_RELEASE
#define T RAVEL__ACC_TEST
#define S RAVEL__ACC_SHARED
#define CW RAVEL__ACC_WAIT
#define CN RAVEL__ACC_NOTIFY
#define CK RAVEL__ACC_WOKEN

#define o false
#define X true
static const bool dep[RAVEL__ACC_CLASSES][RAVEL__ACC_CLASSES] = {
    /*          NONE READ WRITE ACQ REL TEST SHRD WAIT NTFY WOKEN */
    /* NONE */ {o,   o,   o,    o,  o,  o,   o,   o,   o,   o},
    /* READ */ {o,   o,   X,    o,  o,  o,   o,   o,   o,   o},
    /* WRITE*/ {o,   X,   X,    o,  o,  o,   o,   o,   o,   o},
    /* ACQ  */ {o,   o,   o,    X,  o,  X,   X,   o,   o,   o},
    /* REL  */ {o,   o,   o,    o,  o,  X,   o,   o,   o,   o},
    /* TEST */ {o,   o,   o,    X,  X,  X,   X,   X,   X,   X},
    /* SHRD */ {o,   o,   o,    X,  o,  X,   o,   o,   o,   o},
    /* WAIT */ {o,   o,   o,    o,  o,  X,   o,   o,   X,   o},
    /* NTFY */ {o,   o,   o,    o,  o,  X,   o,   X,   X,   X},
    /* WOKEN*/ {o,   o,   o,    o,  o,  X,   o,   o,   X,   o},
};
#undef o
#undef X

static void add(struct ravel__access *a, uint32_t obj, uint8_t cls)
{
    a->obj[a->n] = obj;
    a->cls[a->n] = cls;
    a->n++;
}

/* Classification shared by events and pending operations; `cas_wrote`
 * says whether a compare-exchange is taken to write. */
static void classify(uint16_t kind, uint32_t obj, uint32_t obj2,
                     uint32_t thread_target, bool cas_wrote,
                     struct ravel__access *a)
{
    memset(a, 0, sizeof *a);
    switch (kind) {
    case RAVEL__OP_START:
    case RAVEL__OP_CREATE:
    case RAVEL__OP_YIELD:
    case RAVEL__OP_SLEEP:
    case RAVEL__OP_FENCE:
    case RAVEL__OP_BARRIER_LEAVE:
        return;
    case RAVEL__OP_FINISH:
        /* Seen by join, tryjoin and detach of this thread (all TEST). */
        add(a, RAVEL__THREAD_OBJ(thread_target), T);
        return;
    case RAVEL__OP_JOIN:
    case RAVEL__OP_TRYJOIN:
    case RAVEL__OP_TIMEDJOIN:
    case RAVEL__OP_DETACH:
        add(a, RAVEL__THREAD_OBJ(obj), T);
        return;
    case RAVEL__OP_EXIT:
        a->global = true;
        return;
    case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_SPIN_LOCK:
    case RAVEL__OP_RW_WRLOCK:
        add(a, obj, A);
        return;
    case RAVEL__OP_MUTEX_UNLOCK:
    case RAVEL__OP_SPIN_UNLOCK:
    case RAVEL__OP_RW_UNLOCK:
        add(a, obj, L);
        return;
    case RAVEL__OP_RW_RDLOCK:
        add(a, obj, S);
        return;
    case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_TIMEDWAIT:
        add(a, obj, CW);
        add(a, obj2, L);
        return;
    case RAVEL__OP_COND_WAKE:
        add(a, obj, CK);
        add(a, obj2, A);
        return;
    case RAVEL__OP_COND_SIGNAL:
    case RAVEL__OP_COND_BROADCAST:
        add(a, obj, CN);
        return;
    case RAVEL__OP_ATOMIC_LOAD:
    case RAVEL__OP_PLAIN_READ:
        add(a, obj, R);
        return;
    case RAVEL__OP_ATOMIC_STORE:
    case RAVEL__OP_ATOMIC_RMW:
    case RAVEL__OP_PLAIN_WRITE:
        add(a, obj, W);
        return;
    case RAVEL__OP_ATOMIC_CAS:
        add(a, obj, cas_wrote ? W : R);
        return;
    default:
        /* try/timed lock variants, destroy, every condition variable,
         * semaphore, barrier and once operation. */
        add(a, obj, T);
        return;
    }
}

void ravel__event_access(const struct ravel__event *ev,
                         struct ravel__access *a)
{
    classify(ev->kind, ev->obj, ev->aux, ev->thread,
             ev->kind != RAVEL__OP_ATOMIC_CAS || ev->aux, a);
}

void ravel__event_access_any(const struct ravel__event *ev,
                             struct ravel__access *a)
{
    classify(ev->kind, ev->obj, ev->aux, ev->thread, true, a);
}

void ravel__op_access(const struct ravel__op *op, uint32_t t,
                      struct ravel__access *a)
{
    classify(op->kind, op->obj, op->obj2, t, true, a);
}

/* Dependency of two accesses whose objects are named by `obj` or `key`:
 * exit() is dependent with every access; otherwise some object must be
 * accessed by both in dependent classes. */
#define DEPENDENT(a, b, name)                                                 \
    do {                                                                      \
        if (((a)->global && ((b)->n || (b)->global)) ||                       \
            ((b)->global && (a)->n))                                          \
            return true;                                                      \
        for (uint8_t i = 0; i < (a)->n; i++)                                  \
            for (uint8_t k = 0; k < (b)->n; k++)                              \
                if ((a)->name[i] == (b)->name[k] &&                           \
                    dep[(a)->cls[i]][(b)->cls[k]])                            \
                    return true;                                              \
        return false;                                                         \
    } while (0)

bool ravel__access_dependent(const struct ravel__access *a,
                             const struct ravel__access *b)
{
    DEPENDENT(a, b, obj);
}

void ravel__access_keys(const struct ravel__access *a,
                        const struct ravel__exec *x, struct ravel__kaccess *k)
{
    memset(k, 0, sizeof *k);
    k->n = a->n;
    k->global = a->global;
    for (uint8_t i = 0; i < a->n; i++) {
        uint32_t o = a->obj[i];
        k->cls[i] = a->cls[i];
        if (o & 0x80000000u) {
            uint32_t t = o & 0x7fffffffu;
            k->key[i] = t < x->nthreads ? x->threads[t].key ^ 0x7468ULL
                                        : (uint64_t)o;
        } else if (o < x->nobjects) {
            const struct ravel__object *ob = &x->objects[o];
            k->key[i] = ob->key ? ob->key : ravel__hash_ptr(ob->addr);
        } else {
            k->key[i] = o;
        }
    }
}

bool ravel__kaccess_dependent(const struct ravel__kaccess *a,
                              const struct ravel__kaccess *b)
{
    DEPENDENT(a, b, key);
}

/* ---- happens-before -------------------------------------------------- */

struct ravel__hb_obj {
    uint32_t gen; /* analysis it belongs to (stale entries are empty) */
    uint32_t n, cap;
    uint32_t *ev;   /* events accessing it */
    uint8_t *cls;   /* their class on it */
    bool released;  /* rel_clock holds something */
    uint32_t rel_clock[RAVEL__HB_THREADS]; /* join of its releases */
};

static uint32_t *clock_of(const struct ravel__hb *hb, uint32_t e)
{
    return &hb->clocks[(size_t)e * RAVEL__HB_THREADS];
}

void ravel__hb_free(struct ravel__hb *hb)
{
    for (uint32_t i = 0; i < hb->objs_cap; i++) {
        free(hb->objs[i].ev);
        free(hb->objs[i].cls);
    }
    free(hb->objs);
    free(hb->clocks);
    free(hb->tindex);
    free(hb->per_thread_last);
    memset(hb, 0, sizeof *hb);
}

/* The analysis state of object `id`: model objects by their index,
 * thread objects after them (no hashing: both are dense). */
static struct ravel__hb_obj *hb_obj(struct ravel__hb *hb, uint32_t id)
{
    uint32_t slot = (id & 0x80000000u)
                        ? hb->obj_base + (id & 0x7fffffffu)
                        : id;
    if (slot >= hb->objs_cap) {
        uint32_t ncap = hb->objs_cap ? hb->objs_cap : 64;
        while (ncap <= slot)
            ncap *= 2;
        struct ravel__hb_obj *no = realloc(hb->objs, ncap * sizeof *no);
        RAVEL__CHECK(no != NULL);
        memset(no + hb->objs_cap, 0, (ncap - hb->objs_cap) * sizeof *no);
        hb->objs = no;
        hb->objs_cap = ncap;
    }
    struct ravel__hb_obj *o = &hb->objs[slot];
    if (o->gen != hb->gen) {
        o->gen = hb->gen;
        o->n = 0;
        o->released = false;
    }
    return o;
}

/*
 * Appends event e to the object's list. Earlier entries that e dominates -
 * e is dependent with them and with everything they are dependent with -
 * can never race directly with a later event again (they happen before e,
 * which happens before it), so they are dropped: the lists stay short even
 * in long executions.
 */
static bool dominates(uint8_t later, uint8_t earlier)
{
    if (!dep[later][earlier])
        return false;
    for (int c = 0; c < RAVEL__ACC_CLASSES; c++)
        if (dep[earlier][c] && !dep[later][c])
            return false;
    return true;
}

/* dominated[later]: the classes of earlier entries it drops (a bit per
 * class), computed once. */
static uint16_t dominated[RAVEL__ACC_CLASSES];

static void init_dominated(void)
{
    if (dominated[RAVEL__ACC_WRITE])
        return; /* a write dominates a write: never 0 once computed */
    for (int l = 0; l < RAVEL__ACC_CLASSES; l++)
        for (int e = 0; e < RAVEL__ACC_CLASSES; e++)
            if (dominates((uint8_t)l, (uint8_t)e))
                dominated[l] |= (uint16_t)(1u << e);
}

static void obj_push(struct ravel__hb_obj *o, uint32_t e, uint8_t cls)
{
    uint32_t k = 0;
    uint16_t drop = dominated[cls];
    for (uint32_t j = 0; j < o->n; j++) {
        if (drop & (1u << o->cls[j]))
            continue;
        o->ev[k] = o->ev[j];
        o->cls[k] = o->cls[j];
        k++;
    }
    o->n = k;
    if (o->n == o->cap) {
        o->cap = o->cap ? o->cap * 2 : 16;
        o->ev = realloc(o->ev, o->cap * sizeof *o->ev);
        o->cls = realloc(o->cls, o->cap);
        RAVEL__CHECK(o->ev && o->cls);
    }
    o->ev[o->n] = e;
    o->cls[o->n] = cls;
    o->n++;
}

static void join(uint32_t *dst, const uint32_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (src[i] > dst[i])
            dst[i] = src[i];
}

/* Is event e (of thread te, index ie) covered by clock c? */
static bool covered(const uint32_t *c, uint32_t te, uint32_t ie)
{
    return c[te] >= ie;
}

/* A dependent predecessor of the current event: candidate for a race. */
struct cand {
    uint32_t ev;
};

static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = ((const struct cand *)a)->ev, y = ((const struct cand *)b)->ev;
    return x < y ? 1 : x > y ? -1 : 0;
}

int ravel__hb_compute(struct ravel__hb *hb, const struct ravel__exec *x,
                      uint32_t from, ravel__race_fn race, void *ctx)
{
    uint32_t nt = x->nthreads;
    if (nt > RAVEL__HB_THREADS)
        return -1;
    uint32_t n = x->nevents;
    if (from > hb->nevents || from > n)
        from = 0;
    init_dominated();
    if (n > hb->cap) {
        hb->cap = n + n / 2 + 16;
        hb->clocks = realloc(hb->clocks, (size_t)hb->cap * RAVEL__HB_THREADS *
                                             sizeof *hb->clocks);
        hb->tindex = realloc(hb->tindex, (size_t)hb->cap * sizeof *hb->tindex);
        RAVEL__CHECK(hb->clocks && hb->tindex);
    }
    if (!hb->per_thread_last) {
        hb->per_thread_last = calloc(RAVEL__HB_THREADS,
                                     sizeof *hb->per_thread_last);
        RAVEL__CHECK(hb->per_thread_last != NULL);
    }
    hb->nevents = n;
    hb->gen++;
    hb->obj_base = x->nobjects;
    memset(hb->per_thread_last, 0, RAVEL__HB_THREADS * sizeof(uint32_t));

    uint32_t count[RAVEL__HB_THREADS] = {0};
    /* A child's first event starts from its creator's clock at creation. */
    uint32_t creator_event[RAVEL__HB_THREADS];
    for (uint32_t t = 0; t < nt; t++)
        creator_event[t] = x->threads[t].create_event;

    struct cand *cands = NULL;
    uint32_t ncap = 0;
    /* The kept prefix: only the state it leaves (per object, per
     * thread). */
    for (uint32_t e = 0; e < from; e++) {
        const struct ravel__event *ev = &x->events[e];
        uint32_t t = ev->thread;
        count[t]++;
        if (nt > hb->nt) /* threads the last analysis did not have */
            memset(clock_of(hb, e) + hb->nt, 0,
                   (nt - hb->nt) * sizeof(uint32_t));
        struct ravel__access a;
        ravel__event_access(ev, &a);
        for (uint8_t k = 0; k < a.n; k++) {
            struct ravel__hb_obj *o = hb_obj(hb, a.obj[k]);
            obj_push(o, e, a.cls[k]);
            if (a.cls[k] == RAVEL__ACC_RELEASE) {
                if (!o->released)
                    memset(o->rel_clock, 0, sizeof o->rel_clock);
                o->released = true;
                join(o->rel_clock, clock_of(hb, e), nt);
            }
        }
        hb->per_thread_last[t] = e + 1;
    }
    for (uint32_t e = from; e < n; e++) {
        const struct ravel__event *ev = &x->events[e];
        uint32_t t = ev->thread;
        uint32_t *c = clock_of(hb, e);
        uint32_t last = hb->per_thread_last[t];
        if (last)
            memcpy(c, clock_of(hb, last - 1), nt * sizeof *c);
        else if (creator_event[t] != RAVEL__NONE && creator_event[t] < e)
            memcpy(c, clock_of(hb, creator_event[t]), nt * sizeof *c);
        else
            memset(c, 0, nt * sizeof *c);
        hb->tindex[e] = ++count[t];

        struct ravel__access a;
        ravel__event_access(ev, &a);
        /* Dependent predecessors in other threads, newest first. */
        uint32_t nc = 0;
        if (a.global) {
            for (uint32_t u = 0; u < nt; u++) {
                if (u == t || !hb->per_thread_last[u])
                    continue;
                if (nc == ncap) {
                    ncap = ncap ? ncap * 2 : 64;
                    cands = realloc(cands, ncap * sizeof *cands);
                    RAVEL__CHECK(cands != NULL);
                }
                cands[nc++].ev = hb->per_thread_last[u] - 1;
            }
        }
        for (uint8_t k = 0; k < a.n; k++) {
            struct ravel__hb_obj *o = hb_obj(hb, a.obj[k]);
            for (uint32_t j = o->n; j-- > 0;) {
                uint32_t pe = o->ev[j];
                if (x->events[pe].thread == t || !dep[o->cls[j]][a.cls[k]])
                    continue;
                if (nc == ncap) {
                    ncap = ncap ? ncap * 2 : 64;
                    cands = realloc(cands, ncap * sizeof *cands);
                    RAVEL__CHECK(cands != NULL);
                }
                cands[nc++].ev = pe;
            }
        }
        if ((a.n > 1 || a.global) && nc > 1)
            qsort(cands, nc, sizeof *cands, cmp_desc);
        /* Scan newest to oldest: a candidate covered by what is already
         * known to happen before is not a race. */
        uint32_t prev = UINT32_MAX;
        for (uint32_t j = 0; j < nc; j++) {
            uint32_t pe = cands[j].ev;
            if (pe == prev)
                continue;
            prev = pe;
            uint32_t pt = x->events[pe].thread;
            if (!covered(c, pt, hb->tindex[pe]) && race)
                race(ctx, pe, e);
            join(c, clock_of(hb, pe), nt);
        }
        /* A release happens before the next acquisition of the same lock.
         * The edge is added only now, after this acquisition was checked
         * against earlier ones: it must not hide the race between two
         * acquisitions, which is how the other lock order is found. */
        for (uint8_t k = 0; k < a.n; k++) {
            if (a.cls[k] != RAVEL__ACC_ACQUIRE && a.cls[k] != RAVEL__ACC_SHARED)
                continue;
            struct ravel__hb_obj *o = hb_obj(hb, a.obj[k]);
            if (o->released)
                join(c, o->rel_clock, nt);
        }
        c[t] = hb->tindex[e];
        for (uint8_t k = 0; k < a.n; k++) {
            struct ravel__hb_obj *o = hb_obj(hb, a.obj[k]);
            obj_push(o, e, a.cls[k]);
            if (a.cls[k] == RAVEL__ACC_RELEASE) {
                if (!o->released)
                    memset(o->rel_clock, 0, sizeof o->rel_clock);
                o->released = true;
                join(o->rel_clock, c, nt);
            }
        }
        hb->per_thread_last[t] = e + 1;
    }
    free(cands);
    hb->nt = nt;
    return 0;
}

bool ravel__hb_before(const struct ravel__hb *hb, const struct ravel__exec *x,
                      uint32_t a, uint32_t b)
{
    if (a == b)
        return false;
    uint32_t ta = x->events[a].thread;
    return clock_of(hb, b)[ta] >= hb->tindex[a];
}

uint64_t ravel__hb_fingerprint(const struct ravel__hb *hb,
                               const struct ravel__exec *x)
{
    /* Order-independent: the sum of one hash per event, each over the
     * event's identity and its vector clock. Threads are named by their
     * keys: which thread got which index depends on the order in which
     * independent creations ran. */
    uint64_t fp = 0;
    uint32_t nt = x->nthreads < RAVEL__HB_THREADS ? x->nthreads
                                                   : RAVEL__HB_THREADS;
    for (uint32_t e = 0; e < hb->nevents; e++) {
        const struct ravel__event *ev = &x->events[e];
        /* What the event did: its kind, what it touched, whether a
         * compare-exchange succeeded. */
        struct ravel__access a;
        struct ravel__kaccess k;
        ravel__event_access(ev, &a);
        ravel__access_keys(&a, x, &k);
        uint64_t h = x->threads[ev->thread].key ^
                     ((uint64_t)hb->tindex[e] << 8) ^ ev->kind;
        h = ravel__hash_ptr(h ^ k.key[0]) ^ ravel__hash_ptr(k.key[1] + 1);
        if (ev->kind == RAVEL__OP_ATOMIC_CAS)
            h ^= ev->aux ? 0x5a5aULL : 0;
        if (ev->kind == RAVEL__OP_COND_SIGNAL && ev->aux < x->nthreads)
            h ^= ravel__hash_ptr(x->threads[ev->aux].key); /* who woke */

        const uint32_t *c = clock_of(hb, e);
        uint64_t sum = 0;
        for (uint32_t i = 0; i < nt; i++)
            if (c[i])
                sum += ravel__hash_ptr(x->threads[i].key ^
                                       ((uint64_t)c[i] << 32));
        fp += ravel__hash_ptr(h ^ ravel__hash_ptr(sum));
    }
    /* Data choices, by thread and position in it (a signal's choice is
     * in its event, as the thread it woke). */
    for (uint32_t i = 0; i < x->nvchoices; i++) {
        const struct ravel__vchoice *v = &x->vchoices[i];
        if (v->data && v->thread < x->nthreads)
            fp += ravel__hash_ptr(x->threads[v->thread].key ^
                                  ((uint64_t)v->tstep << 32 | v->value) ^
                                  0x7663ULL << 48);
    }
    return fp ^ ravel__hash_ptr(hb->nevents);
}
