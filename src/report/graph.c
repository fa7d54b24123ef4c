/*
 * graph.c - synchronisation edges of a trace and their transitive
 * reduction (see graph.h).
 *
 * One pass over the events finds each event's incoming synchronisation
 * edges from per-object state (the last release of a lock, the pending
 * signal of a waiter, the posts of a semaphore, the arrivals of a barrier
 * round, the writes of an atomic). A second pass keeps per-thread vector
 * clocks, stores the clock of every event that is an edge source, and
 * drops an edge a -> b when another immediate predecessor of b already
 * has a in its past.
 */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

const char *ravel__arrow_kind_name(uint8_t kind)
{
    static const char *const n[] = {"create", "join",    "lock", "signal",
                                    "sem",    "barrier", "once", "atomic",
                                    "data",   "read"};
    return kind < RAVEL__COUNT(n) ? n[kind] : "?";
}

struct edges {
    struct ravel__arrow *a;
    size_t n, cap;
    bool oom;
};

static void push(struct edges *e, uint32_t from, uint32_t to, uint8_t kind,
                 const struct ravel__exec *x)
{
    if (from == RAVEL__NONE || from >= to ||
        x->events[from].thread == x->events[to].thread)
        return;
    /* The same source twice into one target (a broadcast seen twice):
     * once. */
    for (size_t i = e->n; i > 0 && e->a[i - 1].to == to; i--)
        if (e->a[i - 1].from == from)
            return;
    if (e->n == e->cap) {
        size_t nc = e->cap ? e->cap * 2 : 64;
        struct ravel__arrow *na = realloc(e->a, nc * sizeof *na);
        if (!na) {
            e->oom = true;
            return;
        }
        e->a = na;
        e->cap = nc;
    }
    e->a[e->n++] = (struct ravel__arrow){from, to, kind};
}

/* Per-object state of the first pass. */
struct objstate {
    uint32_t release;      /* last release (lock kinds), last ONCE_DONE */
    uint32_t wrelease;     /* rwlock: last release by a writer */
    uint32_t writer;       /* rwlock: thread holding it for writing */
    uint32_t *rels;        /* rwlock: releases since the last write lock */
    uint32_t nrels, caprels;
    uint32_t last_post;    /* semaphore */
    uint32_t last_write;   /* atomic: last write (event) */
    uint32_t release_head; /* atomic: release that heads its release
                              sequence, or NONE */
    uint32_t *round;       /* barrier: arrivals of the open round */
    uint32_t nround, capround;
};

static bool grow(uint32_t **v, uint32_t *cap, uint32_t need)
{
    if (need <= *cap)
        return true;
    uint32_t nc = *cap ? *cap * 2 : 8;
    while (nc < need)
        nc *= 2;
    uint32_t *nv = realloc(*v, nc * sizeof *nv);
    if (!nv)
        return false;
    *v = nv;
    *cap = nc;
    return true;
}

static bool failed(const struct ravel__event *ev)
{
    return ev->flags &
           (RAVEL__EV_FAILED | RAVEL__EV_TIMEDOUT | RAVEL__EV_ERROR);
}

static bool is_acquire_lock(uint16_t k)
{
    switch (k) {
    case RAVEL__OP_MUTEX_LOCK:
    case RAVEL__OP_MUTEX_TRYLOCK:
    case RAVEL__OP_MUTEX_TIMEDLOCK:
    case RAVEL__OP_SPIN_LOCK:
    case RAVEL__OP_SPIN_TRYLOCK:
        return true;
    default:
        return false;
    }
}

int64_t ravel__graph_edges(const struct ravel__exec *x, uint32_t n,
                           struct ravel__arrow **out)
{
    *out = NULL;
    if (n > x->nevents)
        n = x->nevents;
    struct edges e = {0};
    uint32_t nobj = x->nobjects, nth = x->nthreads;
    struct objstate *os = calloc(nobj ? nobj : 1, sizeof *os);
    /* per thread: create event, finish event, pending signal source,
     * its barrier round (start and length in `pool`) */
    uint32_t *create = malloc((nth ? nth : 1) * sizeof *create);
    uint32_t *finish = malloc((nth ? nth : 1) * sizeof *finish);
    uint32_t *signal = malloc((nth ? nth : 1) * sizeof *signal);
    uint32_t *rstart = calloc(nth ? nth : 1, sizeof *rstart);
    uint32_t *rlen = calloc(nth ? nth : 1, sizeof *rlen);
    uint32_t *pool = NULL, npool = 0, cappool = 0;
    bool *started = calloc(nth ? nth : 1, sizeof *started);
    bool *waiting = calloc(nth ? nth : 1, sizeof *waiting);
    uint32_t *waitobj = malloc((nth ? nth : 1) * sizeof *waitobj);
    int64_t rc = -1;
    if (!os || !create || !finish || !signal || !rstart || !rlen ||
        !started || !waiting || !waitobj)
        goto out;
    for (uint32_t t = 0; t < nth; t++)
        create[t] = finish[t] = signal[t] = waitobj[t] = RAVEL__NONE;
    for (uint32_t o = 0; o < nobj; o++) {
        os[o].release = os[o].wrelease = os[o].writer = RAVEL__NONE;
        os[o].last_post = os[o].last_write = RAVEL__NONE;
        os[o].release_head = RAVEL__NONE;
    }

    for (uint32_t i = 0; i < n && !e.oom; i++) {
        const struct ravel__event *ev = &x->events[i];
        uint32_t t = ev->thread;
        if (t >= nth)
            continue;
        struct objstate *o =
            ev->obj < nobj && ravel__op_obj_kind(ev->kind) > RAVEL__OBJ_THREAD
                ? &os[ev->obj]
                : NULL;
        if (!started[t]) {
            started[t] = true;
            push(&e, create[t], i, RAVEL__ARROW_CREATE, x);
        }
        switch (ev->kind) {
        case RAVEL__OP_CREATE:
            if (!failed(ev) && ev->aux < nth)
                create[ev->aux] = i;
            break;
        case RAVEL__OP_FINISH:
            finish[t] = i;
            break;
        case RAVEL__OP_JOIN:
        case RAVEL__OP_TRYJOIN:
        case RAVEL__OP_TIMEDJOIN:
            if (!failed(ev) && ev->obj < nth)
                push(&e, finish[ev->obj], i, RAVEL__ARROW_JOIN, x);
            break;
        case RAVEL__OP_MUTEX_UNLOCK:
        case RAVEL__OP_SPIN_UNLOCK:
            if (o && !failed(ev))
                o->release = i;
            break;
        case RAVEL__OP_COND_WAIT:
        case RAVEL__OP_COND_TIMEDWAIT:
            if (ev->aux < nobj)
                os[ev->aux].release = i;
            waiting[t] = true;
            waitobj[t] = ev->obj;
            signal[t] = RAVEL__NONE;
            break;
        case RAVEL__OP_COND_SIGNAL:
            if (ev->aux < nth && waiting[ev->aux])
                signal[ev->aux] = i;
            break;
        case RAVEL__OP_COND_BROADCAST:
            for (uint32_t w = 0; w < nth; w++)
                if (waiting[w] && waitobj[w] == ev->obj &&
                    signal[w] == RAVEL__NONE)
                    signal[w] = i;
            break;
        case RAVEL__OP_COND_WAKE:
            if (!(ev->flags & RAVEL__EV_TIMEDOUT))
                push(&e, signal[t], i, RAVEL__ARROW_SIGNAL, x);
            waiting[t] = false;
            signal[t] = RAVEL__NONE;
            if (ev->aux < nobj)
                push(&e, os[ev->aux].release, i, RAVEL__ARROW_LOCK, x);
            break;
        case RAVEL__OP_RW_RDLOCK:
        case RAVEL__OP_RW_TRYRDLOCK:
        case RAVEL__OP_RW_TIMEDRDLOCK:
            if (o && !failed(ev))
                push(&e, o->wrelease, i, RAVEL__ARROW_LOCK, x);
            break;
        case RAVEL__OP_RW_WRLOCK:
        case RAVEL__OP_RW_TRYWRLOCK:
        case RAVEL__OP_RW_TIMEDWRLOCK:
            if (o && !failed(ev)) {
                push(&e, o->wrelease, i, RAVEL__ARROW_LOCK, x);
                for (uint32_t k = 0; k < o->nrels; k++)
                    push(&e, o->rels[k], i, RAVEL__ARROW_LOCK, x);
                o->nrels = 0;
                o->writer = t;
            }
            break;
        case RAVEL__OP_RW_UNLOCK:
            if (o && !failed(ev)) {
                if (o->writer == t) {
                    o->wrelease = i;
                    o->writer = RAVEL__NONE;
                } else if (grow(&o->rels, &o->caprels, o->nrels + 1)) {
                    o->rels[o->nrels++] = i;
                } else {
                    e.oom = true;
                }
            }
            break;
        case RAVEL__OP_SEM_POST:
            if (o && !failed(ev))
                o->last_post = i;
            break;
        case RAVEL__OP_SEM_WAIT:
        case RAVEL__OP_SEM_TRYWAIT:
        case RAVEL__OP_SEM_TIMEDWAIT:
            if (o && !failed(ev))
                push(&e, o->last_post, i, RAVEL__ARROW_SEM, x);
            break;
        case RAVEL__OP_BARRIER_WAIT:
            if (!o)
                break;
            if (!grow(&o->round, &o->capround, o->nround + 1)) {
                e.oom = true;
                break;
            }
            o->round[o->nround++] = i;
            if (ev->flags & RAVEL__EV_SERIAL) {
                /* The round is complete: each arriving thread leaves
                 * after all of them arrived. */
                if (!grow(&pool, &cappool, npool + o->nround)) {
                    e.oom = true;
                    break;
                }
                memcpy(pool + npool, o->round, o->nround * sizeof *pool);
                for (uint32_t k = 0; k < o->nround; k++) {
                    uint32_t at = x->events[o->round[k]].thread;
                    if (at < nth) {
                        rstart[at] = npool;
                        rlen[at] = o->nround;
                    }
                }
                npool += o->nround;
                o->nround = 0;
            }
            break;
        case RAVEL__OP_BARRIER_LEAVE:
            for (uint32_t k = 0; k < rlen[t]; k++)
                push(&e, pool[rstart[t] + k], i, RAVEL__ARROW_BARRIER, x);
            rlen[t] = 0;
            break;
        case RAVEL__OP_ONCE_DONE:
            if (o)
                o->release = i;
            break;
        case RAVEL__OP_ONCE:
            if (o && ev->value == 0)
                push(&e, o->release, i, RAVEL__ARROW_ONCE, x);
            break;
        case RAVEL__OP_ATOMIC_LOAD:
        case RAVEL__OP_ATOMIC_RMW:
        case RAVEL__OP_ATOMIC_CAS: {
            if (!o)
                break;
            /* Under ravel's one-thread-at-a-time execution a read reads
             * from the last write before it - except a load that a weak
             * memory model let read something else. Under rc11 it read
             * an older store (ev->aux; the initial value when none) and
             * synchronises with that store only, drawn when the store is
             * a release (its release sequence is not followed here: an
             * arrow may be missing, none is invented). Under tso it read
             * its own buffered store, or memory while another thread's
             * store waited in a buffer: no arrow. */
            if (ev->kind == RAVEL__OP_ATOMIC_LOAD &&
                (ev->flags & (RAVEL__EV_STALE | RAVEL__EV_FORWARDED))) {
                if (x->memory_model == RAVEL__MM_RC11 &&
                    (ev->flags & RAVEL__EV_STALE) &&
                    (ev->flags & RAVEL__EV_ACQUIRE) && ev->aux < i &&
                    (x->events[ev->aux].flags & RAVEL__EV_RELEASE))
                    push(&e, ev->aux, i, RAVEL__ARROW_ATOMIC, x);
            } else if ((ev->flags & RAVEL__EV_ACQUIRE) &&
                       o->last_write != RAVEL__NONE)
                push(&e, o->release_head, i, RAVEL__ARROW_ATOMIC, x);
            bool writes = ev->kind == RAVEL__OP_ATOMIC_RMW ||
                          (ev->kind == RAVEL__OP_ATOMIC_CAS && ev->aux);
            if (writes) {
                /* An RMW continues the release sequence it read from;
                 * a release RMW heads its own. */
                if (ev->flags & RAVEL__EV_RELEASE)
                    o->release_head = i;
                o->last_write = i;
            }
            break;
        }
        case RAVEL__OP_ATOMIC_STORE:
            if (!o)
                break;
            o->last_write = i;
            o->release_head =
                (ev->flags & RAVEL__EV_RELEASE) ? i : RAVEL__NONE;
            break;
        default:
            if (o && is_acquire_lock(ev->kind) && !failed(ev))
                push(&e, o->release, i, RAVEL__ARROW_LOCK, x);
            break;
        }
    }
    if (!e.oom) {
        *out = e.a;
        e.a = NULL;
        rc = (int64_t)e.n;
    }
out:
    if (os)
        for (uint32_t o = 0; o < nobj; o++) {
            free(os[o].rels);
            free(os[o].round);
        }
    free(os);
    free(create);
    free(finish);
    free(signal);
    free(rstart);
    free(rlen);
    free(pool);
    free(started);
    free(waiting);
    free(waitobj);
    free(e.a);
    return rc;
}

int64_t ravel__graph_arrows(const struct ravel__exec *x, uint32_t n,
                            struct ravel__arrow **out)
{
    *out = NULL;
    if (n > x->nevents)
        n = x->nevents;
    struct ravel__arrow *a;
    int64_t ne = ravel__graph_edges(x, n, &a);
    if (ne < 0)
        return -1;
    uint32_t nth = x->nthreads;
    /* Vector clocks: the running clock of every thread, and a stored
     * clock for each event that is the source of an edge. idx[i] is
     * event i's position in its thread, from 1. */
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    uint32_t *slot = malloc((n ? n : 1) * sizeof *slot);
    uint32_t *tcount = calloc(nth ? nth : 1, sizeof *tcount);
    uint32_t *cur = calloc((size_t)(nth ? nth : 1) * nth, sizeof *cur);
    uint32_t nsrc = 0;
    bool *keep = calloc(ne ? (size_t)ne : 1, sizeof *keep);
    uint32_t *src = NULL;
    int64_t rc = -1;
    if (!idx || !slot || !tcount || !cur || !keep)
        goto out;
    for (uint32_t i = 0; i < n; i++)
        slot[i] = RAVEL__NONE;
    for (int64_t k = 0; k < ne; k++)
        if (slot[a[k].from] == RAVEL__NONE)
            slot[a[k].from] = nsrc++;
    src = calloc((size_t)(nsrc ? nsrc : 1) * nth, sizeof *src);
    if (!src)
        goto out;
    int64_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = x->events[i].thread;
        if (t >= nth)
            continue;
        uint32_t *c = cur + (size_t)t * nth;
        idx[i] = ++tcount[t];
        /* Edges into i: a[k0..k1). */
        int64_t k0 = k;
        while (k < ne && a[k].to == i)
            k++;
        for (int64_t j = k0; j < k; j++) {
            uint32_t f = a[j].from;
            uint32_t ft = x->events[f].thread;
            /* Redundant when the lane's predecessor (clock c, before
             * this event) or another source already follows f. */
            bool redundant = c[ft] >= idx[f];
            for (int64_t j2 = k0; j2 < k && !redundant; j2++) {
                if (j2 == j)
                    continue;
                const uint32_t *sc = src + (size_t)slot[a[j2].from] * nth;
                redundant = sc[ft] >= idx[f];
            }
            keep[j] = !redundant;
        }
        for (int64_t j = k0; j < k; j++) {
            const uint32_t *sc = src + (size_t)slot[a[j].from] * nth;
            for (uint32_t u = 0; u < nth; u++)
                if (sc[u] > c[u])
                    c[u] = sc[u];
        }
        c[t] = idx[i];
        if (slot[i] != RAVEL__NONE)
            memcpy(src + (size_t)slot[i] * nth, c, nth * sizeof *c);
    }
    size_t m = 0;
    for (int64_t j = 0; j < ne; j++)
        if (keep[j])
            a[m++] = a[j];
    *out = a;
    a = NULL;
    rc = (int64_t)m;
out:
    free(a);
    free(idx);
    free(slot);
    free(tcount);
    free(cur);
    free(keep);
    free(src);
    return rc;
}
