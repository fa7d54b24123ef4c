/*
 * wakeup.c - wakeup sequences: building one from a race, weak initials,
 * insertion into a wakeup tree (see wakeup.h).
 *
 * Happens-before inside v comes from the execution's vector clocks: for
 * two steps of v, the earlier happens before the later in v exactly when
 * it does in the execution, because anything between them that is not in
 * v happens after the reversed step, and so would put the later one out
 * of v too. The exception is e2, which follows e1 (not in v): its
 * predecessors in v are recomputed from its direct dependencies.
 *
 * A tree holds steps recorded in earlier executions, so steps are compared
 * by keys (tree.h), never by thread or object indices, which depend on
 * the order things were created in.
 */
#include "wakeup.h"

#include <stdlib.h>
#include <string.h>

static const uint32_t *clock_of(const struct ravel__hb *hb, uint32_t e)
{
    return ravel__hb_clock(hb, e);
}

static void opaque(struct ravel__kaccess *a)
{
    memset(a, 0, sizeof *a);
    a->global = true;
}

/* Accesses of a block: as it ran (`as_ran`: valid wherever everything
 * that happened before it still does), or as it may run anywhere. A block
 * of several operations counts as dependent with everything. */
static void block_access(const struct ravel__wctx *c, uint32_t first,
                         uint32_t last, bool as_ran, struct ravel__kaccess *k)
{
    if (first != last) {
        opaque(k);
        return;
    }
    if (as_ran) {
        /* What the happens-before analysis classified it as
         * (ravel__event_access, kept in hb->acc). */
        ravel__access_keys(&c->hb->acc[first], c->x, k);
        return;
    }
    struct ravel__access a;
    ravel__event_access_any(&c->x->events[first], &a);
    ravel__access_keys(&a, c->x, k);
}

static struct ravel__wentry *push(struct ravel__wseq *v,
                                  const struct ravel__wctx *c, uint32_t t)
{
    if (v->n == v->cap) {
        uint32_t ncap = v->cap ? v->cap * 2 : 64;
        struct ravel__wentry *ne = realloc(v->e, ncap * sizeof *ne);
        RAVEL__CHECK(ne != NULL);
        v->e = ne;
        v->cap = ncap;
    }
    struct ravel__wentry *en = &v->e[v->n++];
    v->indexed = false;
    memset(en, 0, sizeof *en);
    en->thread = t;
    en->tkey = c->x->threads[t].key;
    en->value = RAVEL__NONE;
    return en;
}

/* The data choices of the block that starts at event first. */
static void block_values(const struct ravel__wctx *c, uint32_t first,
                         struct ravel__wentry *en)
{
    en->value = c->ev_value[first];
    en->vn = en->value == RAVEL__NONE ? 0 : c->ev_vn[first];
    en->vc = en->vn ? &c->x->vchoices[c->ev_vidx[first]] : NULL;
}

static void add_block(struct ravel__wseq *v, const struct ravel__wctx *c,
                      uint32_t first, uint32_t last)
{
    struct ravel__wentry *en = push(v, c, c->x->events[first].thread);
    en->first = first;
    en->last = last;
    en->tfirst = c->hb->tindex[first];
    block_values(c, first, en);
    /* Replayed after what happens before it in v, a step sees what it
     * saw: a compare-exchange fails again if it failed. */
    block_access(c, first, last, true, &en->acc);
    en->clk = clock_of(c->hb, last);
}

/* Does a step with accesses `a` (thread ta) directly precede e2's step
 * (thread t2, accesses b)? Program order, dependency, a release of a
 * lock the step acquires, a post to a semaphore it waits on, or a
 * notification of the condition variable it wakes from (which may be
 * what let it run). */
static bool direct(uint32_t ta, const struct ravel__kaccess *a, uint32_t t2,
                   const struct ravel__kaccess *b)
{
    if (ta == t2 || ravel__kaccess_dependent(a, b))
        return true;
    for (uint8_t i = 0; i < a->n; i++)
        for (uint8_t k = 0; k < b->n; k++)
            if (a->key[i] == b->key[k] &&
                ((a->cls[i] == RAVEL__ACC_RELEASE &&
                  (b->cls[k] == RAVEL__ACC_ACQUIRE ||
                   b->cls[k] == RAVEL__ACC_SHARED)) ||
                 (a->cls[i] == RAVEL__ACC_GIVE &&
                  b->cls[k] == RAVEL__ACC_TAKE) ||
                 (a->cls[i] == RAVEL__ACC_NOTIFY &&
                  b->cls[k] == RAVEL__ACC_WOKEN)))
                return true;
    return false;
}

/* What event f did to its semaphore's count. */
static int sem_delta(const struct ravel__event *ev)
{
    if (ev->flags & (RAVEL__EV_FAILED | RAVEL__EV_TIMEDOUT | RAVEL__EV_ERROR))
        return 0;
    switch (ev->kind) {
    case RAVEL__OP_SEM_POST:
        return 1;
    case RAVEL__OP_SEM_WAIT:
    case RAVEL__OP_SEM_TRYWAIT:
    case RAVEL__OP_SEM_TIMEDWAIT:
        return -1;
    default:
        return 0;
    }
}

/* The semaphores notdep follows, and what the events left out of v so
 * far (from s on) did to each one's count. */
#define MAX_SEMS 8
struct sem_count {
    uint32_t obj[MAX_SEMS], n;
    int64_t left_out[MAX_SEMS];
    bool overflow; /* more than MAX_SEMS semaphores: not followed */
};

static int64_t *sem_slot(struct sem_count *sc, uint32_t obj)
{
    for (uint32_t i = 0; i < sc->n; i++)
        if (sc->obj[i] == obj)
            return &sc->left_out[i];
    if (sc->n == MAX_SEMS) {
        sc->overflow = true;
        return NULL;
    }
    sc->obj[sc->n] = obj;
    sc->left_out[sc->n] = 0;
    return &sc->left_out[sc->n++];
}

static void sem_leave_out(struct sem_count *sc, const struct ravel__exec *x,
                          uint32_t first, uint32_t last)
{
    for (uint32_t f = first; f <= last; f++) {
        int d = sem_delta(&x->events[f]);
        int64_t *lo = d ? sem_slot(sc, x->events[f].obj) : NULL;
        if (lo)
            *lo += d;
    }
}

/* Does the block first..last hold a sem_wait that finds no unit without
 * the events left out of v (the unit it took was posted after s)? A
 * post and a wait are independent and a post->wait edge is not part of
 * happens-before (depend.h says why), so the clocks do not put such a
 * wait after s; but it cannot run before that post, so for v it happens
 * after s as the post does. (A wait's event holds the count it left: it
 * met value + 1, minus what the left-out events added.) */
static bool sem_needs_left_out(struct sem_count *sc,
                               const struct ravel__exec *x, uint32_t first,
                               uint32_t last)
{
    for (uint32_t f = first; f <= last; f++) {
        const struct ravel__event *ev = &x->events[f];
        if (ev->kind != RAVEL__OP_SEM_WAIT || !sem_delta(ev))
            continue;
        int64_t *lo = sem_slot(sc, ev->obj);
        if (lo && (int64_t)ev->value + 1 - *lo < 1)
            return true;
    }
    return false;
}

/* The steps after s's block that do not happen after s, up to the block
 * b2 of thread t2 (its step that ends v: an event, or t2's pending
 * operation with b2 = e2 = x->nevents). Returns false when an earlier
 * step of t2 depends on s.
 *
 * A sem_wait that needs a unit posted after s counts as happening after
 * s (sem_needs_left_out), and so does what happens after it. Before, such
 * a wait stayed in v, sems_ok rejected v (no_unit) and the reversal was
 * lost, although the wait could run after s, served by that post or
 * another one (the differential oracle's optimal_soak_3002_0: a wait
 * served by one of three posts). */
static bool notdep(struct ravel__wseq *v, const struct ravel__wctx *c,
                   uint32_t s, uint32_t t2, uint32_t b2, uint32_t e2)
{
    const struct ravel__exec *x = c->x;
    const struct ravel__hb *hb = c->hb;
    uint32_t nt = x->nthreads;
    uint32_t s_last = c->blk_last[s];
    v->n = 0;
    v->indexed = false;
    v->no_unit = false;
    if (b2 <= s_last)
        return false;
    bool waits = false;
    for (uint32_t f = s_last + 1; f < b2 && !waits; f++)
        waits = x->events[f].kind == RAVEL__OP_SEM_WAIT;
    if (!c->multi && !waits) {
        for (uint32_t f = s_last + 1; f < e2; f++)
            if (!ravel__hb_before(hb, x, s, f))
                add_block(v, c, f, f);
        /* e2's previous step must not depend on s either. */
        uint32_t nth = c->thr_off[t2 + 1] - c->thr_off[t2];
        uint32_t ti = e2 < x->nevents ? hb->tindex[e2] : nth + 1;
        if (ti >= 2) {
            uint32_t g = c->thr_ev[c->thr_off[t2] + ti - 2];
            if (g > s && ravel__hb_before(hb, x, s, g))
                return false;
        }
        return true;
    }
    /* Blocks: one that has any event after an excluded one is excluded
     * as a whole, and so is what happens after it. So is a block with a
     * wait that needs a unit posted after s (only followed when there are
     * waits: this loop is also the general form of the one above). */
    struct sem_count sc; /* its arrays are read up to n only */
    sc.n = 0;
    sc.overflow = false;
    /* ex_hb: what happens-before alone excludes. Where a wait left out
     * for its unit is what puts e2 after s, the reversal is not given up
     * silently: another post might serve the wait, and no race moves
     * that post (v->no_unit, counted as unfollowed by the caller; the
     * search then says "not a proof of all". Returning false quietly
     * there made tests/oracle/open/optimal_sem_other_post print
     * "exhausted: all 3 traces" of 6). */
    uint32_t ex_hb[RAVEL__HB_THREADS];
    if (waits)
        sem_leave_out(&sc, x, s, s_last);
    for (uint32_t u = 0; u < nt; u++)
        v->ex_min[u] = ex_hb[u] = UINT32_MAX;
    v->ex_min[x->events[s].thread] = hb->tindex[s];
    ex_hb[x->events[s].thread] = hb->tindex[s];
    uint32_t f = s_last + 1;
    while (f < b2) {
        uint32_t last = c->blk_last[f];
        uint32_t th = x->events[f].thread;
        const uint32_t *clk = clock_of(hb, last);
        bool excluded = false;
        for (uint32_t u = 0; u < nt && !excluded; u++)
            excluded = clk[u] >= v->ex_min[u];
        if (waits) {
            bool by_hb = false;
            for (uint32_t u = 0; u < nt && !by_hb; u++)
                by_hb = clk[u] >= ex_hb[u];
            if (by_hb && hb->tindex[f] < ex_hb[th])
                ex_hb[th] = hb->tindex[f];
        }
        if (!excluded && waits && !sc.overflow)
            excluded = sem_needs_left_out(&sc, x, f, last);
        if (excluded) {
            if (hb->tindex[f] < v->ex_min[th])
                v->ex_min[th] = hb->tindex[f];
            if (waits)
                sem_leave_out(&sc, x, f, last);
        } else {
            add_block(v, c, f, last);
        }
        f = last + 1;
    }
    /* An earlier step of e2's thread, or of e2's block, depends on s. */
    bool after = v->ex_min[t2] != UINT32_MAX;
    bool after_hb = ex_hb[t2] != UINT32_MAX;
    if (b2 < e2) {
        const uint32_t *clk = clock_of(hb, e2 - 1);
        for (uint32_t u = 0; u < nt; u++) {
            after = after || clk[u] >= v->ex_min[u];
            after_hb = after_hb || (waits && clk[u] >= ex_hb[u]);
        }
    }
    /* e2 itself must not follow a step left out only for a unit (it
     * would not be the same step without it): before, it did not follow
     * any step after s but through s (the race says so). */
    bool after_unit = false;
    if (waits && e2 < x->nevents) {
        const uint32_t *clk = clock_of(hb, e2);
        for (uint32_t u = 0; u < nt; u++)
            after_unit = after_unit ||
                         (v->ex_min[u] < ex_hb[u] && clk[u] >= v->ex_min[u]);
    }
    if ((after && waits && !after_hb) || (!after && after_unit))
        v->no_unit = true;
    return !after && !after_unit;
}

/* Can v's sem_waits run where v starts? A post and a wait are
 * independent and a post->wait edge is not part of happens-before
 * (depend.h says why). notdep leaves out the waits before e2's block
 * whose unit came from a post that happens after s, but e2's block may
 * be such a wait itself: that v cannot run, and the reversal it stands
 * for needs another race reversed first (the one that put the post after
 * s), whose own execution meets this race again with the post in v (the
 * caller counts it as unfollowed). A wait that finds a unit only thanks
 * to a post earlier in v, and is its thread's first step in v, is marked
 * after_give: it cannot start v (ravel__wseq_weak_initial).
 *
 * Counts: a wait's event holds the count it left, so the count it met in
 * the execution was value + 1; in v it meets that minus what the events
 * left out of v (from s on) added. Linear in the span; up to MAX_SEMS
 * semaphores are checked per v (beyond, v is kept as it is). */
static bool sems_ok(struct ravel__wseq *v, const struct ravel__wctx *c,
                    uint32_t s)
{
    const struct ravel__exec *x = c->x;
    uint32_t obj[MAX_SEMS], nobj = 0, end = 0;
    for (uint32_t k = 0; k < v->n; k++) {
        const struct ravel__wentry *en = &v->e[k];
        for (uint32_t f = en->first; f <= en->last && f < x->nevents; f++) {
            if (x->events[f].kind != RAVEL__OP_SEM_WAIT)
                continue;
            uint32_t i = 0;
            while (i < nobj && obj[i] != x->events[f].obj)
                i++;
            if (i == MAX_SEMS)
                return true;
            if (i == nobj)
                obj[nobj++] = x->events[f].obj;
            end = f + 1;
        }
    }
    if (!nobj)
        return true;
    int64_t left_out[MAX_SEMS] = {0}, gives[MAX_SEMS] = {0};
    uint64_t seen = 0; /* threads with a step in v so far */
    uint32_t k = 0;
    for (uint32_t f = s; f < end; f++) {
        while (k < v->n && v->e[k].last < f) {
            seen |= (uint64_t)1 << (v->e[k].thread % 64);
            k++;
        }
        const struct ravel__event *ev = &x->events[f];
        int d = sem_delta(ev);
        if (!d)
            continue;
        uint32_t i = 0;
        while (i < nobj && obj[i] != ev->obj)
            i++;
        if (i == nobj)
            continue;
        bool in = k < v->n && v->e[k].first <= f;
        if (!in) {
            left_out[i] += d;
            continue;
        }
        if (ev->kind == RAVEL__OP_SEM_WAIT) {
            int64_t met = ev->value + 1 - left_out[i];
            if (met < 1) {
                v->no_unit = true;
                return false;
            }
            struct ravel__wentry *en = &v->e[k];
            if (met - gives[i] < 1 && en->first == en->last &&
                !(seen & ((uint64_t)1 << (en->thread % 64))))
                en->after_give = true;
        }
        if (d > 0)
            gives[i] += d;
    }
    return true;
}

/* Appends v's last step, of thread t2 with accesses acc and index tfirst
 * within its thread, and its predecessors within v. */
static struct ravel__wentry *push_last(struct ravel__wseq *v,
                                       const struct ravel__wctx *c,
                                       uint32_t t2, uint32_t tfirst)
{
    struct ravel__wentry *en = push(v, c, t2);
    en->tfirst = tfirst;
    if (!v->e2clk) {
        v->e2clk = malloc(RAVEL__HB_THREADS * sizeof *v->e2clk);
        RAVEL__CHECK(v->e2clk != NULL);
    }
    return en;
}

static void last_clock(struct ravel__wseq *v, const struct ravel__wctx *c)
{
    uint32_t nt = c->x->nthreads;
    struct ravel__wentry *en = &v->e[v->n - 1];
    ravel__words_zero(v->e2clk, nt);
    for (uint32_t k = 0; k + 1 < v->n; k++) {
        const struct ravel__wentry *p = &v->e[k];
        if (!direct(p->thread, &p->acc, en->thread, &en->acc))
            continue;
        for (uint32_t u = 0; u < nt; u++)
            if (p->clk[u] > v->e2clk[u])
                v->e2clk[u] = p->clk[u];
    }
    v->e2clk[en->thread] = en->tfirst;
    en->clk = v->e2clk;
}

bool ravel__wseq_build(struct ravel__wseq *v, const struct ravel__wctx *c,
                       uint32_t s, uint32_t e2)
{
    const struct ravel__hb *hb = c->hb;
    uint32_t t2 = c->x->events[e2].thread;
    uint32_t b2 = c->blk_first[e2];
    if (!notdep(v, c, s, t2, b2, e2))
        return false;
    /* e2's step, with its predecessors within v. It will not follow e1
     * any more, so its accesses are those it may have anywhere. The step
     * is e2's whole block, not the part of it up to e2: replayed, the
     * block runs to its end without a scheduling point, so when e2 is
     * the first event of a block of several (the atomic_begin of a
     * section, racing with another section's), the step still does what
     * the rest of the block does. Counted as e2's alone (an atomic_begin:
     * independent of everything but other sections), a tree step that
     * started the same section looked like a weak initial of v, and v
     * was dropped as covered even where the section's later operations
     * depended on steps of v before it (the differential oracle's
     * optimal_sections_3000_34: a relaxed load inside a section that
     * needed a store of v to go first). */
    uint32_t b2_last = c->blk_last[b2];
    struct ravel__wentry *en = push_last(v, c, t2, hb->tindex[b2]);
    en->first = b2;
    en->last = b2_last;
    block_values(c, b2, en);
    block_access(c, b2, b2_last, false, &en->acc);
    if (!sems_ok(v, c, s))
        return false;
    last_clock(v, c);
    v->e2clk[t2] = hb->tindex[e2];
    return true;
}

bool ravel__wseq_build_pending(struct ravel__wseq *v,
                               const struct ravel__wctx *c, uint32_t s,
                               uint32_t t)
{
    uint32_t n = c->x->nevents;
    if (!notdep(v, c, s, t, n, n))
        return false;
    uint32_t nth = c->thr_off[t + 1] - c->thr_off[t];
    struct ravel__wentry *en = push_last(v, c, t, nth + 1);
    en->first = en->last = n;
    ravel__wnext_access(c, t, n, &en->acc);
    if (!sems_ok(v, c, s))
        return false;
    last_clock(v, c);
    return true;
}

void ravel__wseq_single(struct ravel__wseq *v, const struct ravel__wctx *c,
                        uint32_t t, uint32_t e)
{
    v->n = 0;
    v->indexed = false;
    struct ravel__wentry *en = push(v, c, t);
    ravel__wnext_access(c, t, e, &en->acc);
}

void ravel__wnext_access(const struct ravel__wctx *c, uint32_t t, uint32_t e,
                         struct ravel__kaccess *a)
{
    const struct ravel__exec *x = c->x;
    const uint32_t *lo = c->thr_ev + c->thr_off[t];
    const uint32_t *end = c->thr_ev + c->thr_off[t + 1], *hi = end;
    while (lo < hi) { /* first event of t after e */
        const uint32_t *mid = lo + (hi - lo) / 2;
        if (*mid <= e)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < end) {
        uint32_t g = *lo;
        const struct ravel__event *ge = &x->events[g];
        /* A compare-exchange that failed only reads; it fails at e too if
         * nothing wrote its object in between. */
        bool as_ran = ge->kind == RAVEL__OP_ATOMIC_CAS && !ge->aux;
        for (uint32_t f = e + 1; f < g && as_ran; f++) {
            const struct ravel__access *b = &c->hb->acc[f]; /* as ran */
            for (uint8_t k = 0; k < b->n; k++)
                if (b->obj[k] == ge->obj && b->cls[k] == RAVEL__ACC_WRITE)
                    as_ran = false;
        }
        block_access(c, g, c->blk_last[g], as_ran, a);
        return;
    }
    const struct ravel__thread *th = &x->threads[t];
    if (th->state != RAVEL__T_LIVE) {
        memset(a, 0, sizeof *a);
        return;
    }
    if (th->atomic) {
        opaque(a);
        return;
    }
    struct ravel__access pa;
    ravel__op_access(&th->pending, t, &pa);
    ravel__access_keys(&pa, x, a);
}

/* Does a step with accesses a post to the semaphore b waits on? */
static bool gives_to(const struct ravel__kaccess *a,
                     const struct ravel__kaccess *b)
{
    for (uint8_t i = 0; i < a->n; i++)
        for (uint8_t k = 0; k < b->n; k++)
            if (a->key[i] == b->key[k] && a->cls[i] == RAVEL__ACC_GIVE &&
                b->cls[k] == RAVEL__ACC_TAKE)
                return true;
    return false;
}

/*
 * The index of v (struct ravel__wseq): which entry is each thread's
 * first one not removed, found by the thread's key in a small hash
 * table, and the next entry of the same thread after each entry, so
 * that removing a thread's first entry (insert_at) advances it. Wakeup-
 * tree insertion asks, at every branch it passes, whether the branch's
 * thread is a weak initial of v, and each answer scanned v for the
 * thread's first entry, and for a thread not in v tested dependency
 * with every entry: a tenth of indexer(15)'s instructions. The filter
 * `touched` (a bit per key, of every entry, removed or not) answers
 * "independent of all of v" for most threads not in v without that
 * loop; a key that collides only sends the test to the loop. The answers
 * are the same.
 */
static uint32_t wseq_slot(const struct ravel__wseq *v, uint64_t tkey)
{
    uint32_t j = (uint32_t)(tkey ^ (tkey >> 29)) & (RAVEL__WSEQ_SLOTS - 1);
    while (v->slot_gen[j] == v->gen && v->slot_key[j] != tkey)
        j = (j + 1) & (RAVEL__WSEQ_SLOTS - 1);
    return j;
}

/* The entry of thread tkey that comes first and is not removed, or
 * RAVEL__NONE (v indexed). */
static uint32_t wseq_first(const struct ravel__wseq *v, uint64_t tkey)
{
    uint32_t j = wseq_slot(v, tkey);
    return v->slot_gen[j] == v->gen ? v->slot_first[j] : RAVEL__NONE;
}

static void wseq_index(struct ravel__wseq *v)
{
    if (v->indexed)
        return;
    if (v->next_cap < v->n) {
        free(v->next_of);
        v->next_cap = v->cap > v->n ? v->cap : v->n;
        v->next_of = malloc(v->next_cap * sizeof *v->next_of);
        RAVEL__CHECK(v->next_of != NULL);
    }
    if (++v->gen == 0) { /* wrapped: every slot free again */
        memset(v->slot_gen, 0, sizeof v->slot_gen);
        v->gen = 1;
    }
    v->touched = 0;
    v->any_global = false;
    uint32_t last[RAVEL__WSEQ_SLOTS];
    for (uint32_t k = 0; k < v->n; k++) {
        const struct ravel__wentry *en = &v->e[k];
        v->next_of[k] = RAVEL__NONE;
        for (uint8_t i = 0; i < en->acc.n; i++)
            v->touched |= 1ULL << (en->acc.key[i] & 63);
        v->any_global |= en->acc.global;
        if (en->removed)
            continue;
        uint32_t j = wseq_slot(v, en->tkey);
        if (v->slot_gen[j] != v->gen) {
            v->slot_gen[j] = v->gen;
            v->slot_key[j] = en->tkey;
            v->slot_first[j] = k;
        } else {
            v->next_of[last[j]] = k;
        }
        last[j] = k;
    }
    v->indexed = true;
}

/* Removes the first entry of thread tkey not removed yet, if any;
 * returns whether there was one. */
static bool wseq_remove_first(struct ravel__wseq *v, uint64_t tkey)
{
    wseq_index(v);
    uint32_t j = wseq_slot(v, tkey);
    if (v->slot_gen[j] != v->gen || v->slot_first[j] == RAVEL__NONE)
        return false;
    uint32_t k = v->slot_first[j];
    v->e[k].removed = true;
    v->slot_first[j] = v->next_of[k];
    return true;
}

/* Step k of v has no predecessor in v; a wait that needs a post of v has
 * that post for one. */
static bool no_predecessor(const struct ravel__wseq *v, uint32_t k)
{
    const struct ravel__wentry *en = &v->e[k];
    for (uint32_t j = 0; j < k; j++) {
        const struct ravel__wentry *p = &v->e[j];
        if (p->removed)
            continue;
        if (en->clk[p->thread] >= p->tfirst ||
            (en->after_give && gives_to(&p->acc, &en->acc)))
            return false;
    }
    return true;
}

bool ravel__wseq_initial(struct ravel__wseq *v, uint64_t tkey)
{
    wseq_index(v);
    uint32_t k = wseq_first(v, tkey);
    return k != RAVEL__NONE && no_predecessor(v, k);
}

bool ravel__wseq_weak_initial(struct ravel__wseq *v, uint64_t tkey,
                              const struct ravel__kaccess *acc)
{
    wseq_index(v);
    uint32_t k = wseq_first(v, tkey);
    if (k != RAVEL__NONE)
        return no_predecessor(v, k);
    /* Not in v: its next step must commute with all of v. */
    if (!acc->global && !v->any_global) {
        bool maybe = false;
        for (uint8_t i = 0; i < acc->n && !maybe; i++)
            maybe = (v->touched >> (acc->key[i] & 63)) & 1;
        if (!maybe)
            return true; /* no key in common with any entry */
    }
    for (uint32_t j = 0; j < v->n; j++)
        if (!v->e[j].removed && ravel__kaccess_dependent(acc, &v->e[j].acc))
            return false;
    return true;
}

/* Appends what is left of v as one new branch at the end of *list; `top`:
 * the list is a node's, whose threads' indices are those of v. */
static int append(struct ravel__tree *t, uint32_t *list,
                  const struct ravel__wseq *v, bool top)
{
    uint32_t *link = list;
    while (*link != RAVEL__NIL)
        link = &ravel__tree_wnode(t, *link)->sibling;
    uint32_t *at = link;
    for (uint32_t k = 0; k < v->n; k++) {
        const struct ravel__wentry *en = &v->e[k];
        if (en->removed)
            continue;
        uint32_t i = ravel__tree_wnode_new(t);
        if (i == RAVEL__NIL) {
            ravel__tree_wlist_free(t, *link);
            *link = RAVEL__NIL;
            return -1;
        }
        struct ravel__wnode *w = ravel__tree_wnode(t, i);
        w->tkey = en->tkey;
        w->slot = top ? en->thread : RAVEL__NONE;
        w->value = en->value;
        w->nvals = en->vn ? en->vc[0].n : 0;
        w->acc = en->acc;
        /* The block's further data choices, as a chain. */
        uint32_t *vlink = &w->vmore;
        for (uint32_t j = 1; j < en->vn; j++) {
            uint32_t ci = ravel__tree_wnode_new(t);
            if (ci == RAVEL__NIL) {
                ravel__tree_wlist_free(t, *link);
                *link = RAVEL__NIL;
                return -1;
            }
            ravel__tree_wnode(t, ci)->value = en->vc[j].value;
            *vlink = ci;
            vlink = &ravel__tree_wnode(t, ci)->vmore;
        }
        top = false;
        *at = i;
        at = &w->child;
    }
    return 1;
}

/* Does tree step w make its thread's data choice take another value
 * first than that thread's first step left in v? Then replaying w does
 * not begin v: the continuation after w is that of another value. */
static bool value_differs(struct ravel__tree *t,
                          const struct ravel__wseq *v,
                          const struct ravel__wnode *w)
{
    if (w->value == RAVEL__NONE)
        return false;
    for (uint32_t k = 0; k < v->n; k++) {
        const struct ravel__wentry *en = &v->e[k];
        if (en->removed || en->tkey != w->tkey)
            continue;
        if (en->value == RAVEL__NONE)
            return false;
        if (en->value != w->value)
            return true;
        /* The same first value: the block's later choices must agree
         * too (a block may make several). */
        uint32_t j = 1, ci = w->vmore;
        for (; j < en->vn && ci != RAVEL__NIL; j++) {
            const struct ravel__wnode *cw = ravel__tree_wnode(t, ci);
            if (cw->value != en->vc[j].value)
                return true;
            ci = cw->vmore;
        }
        return j < en->vn || ci != RAVEL__NIL;
    }
    return false;
}

static bool in_v(struct ravel__wseq *v, uint64_t tkey)
{
    wseq_index(v);
    return wseq_first(v, tkey) != RAVEL__NONE;
}

static int insert_at(struct ravel__tree *t, uint32_t *list,
                     struct ravel__wseq *v, uint32_t left, bool top);

/* w0, a step that makes a data choice, of a thread with no step in v, is
 * a weak initial of v: v goes on after it whatever it chooses. Its
 * siblings of the same thread are its other values (the value node it
 * creates replays them): v's rest goes under each, for the execution v
 * came from may have made any of those choices later. Values with no
 * step here get one now (with v's rest alone after it): a step for that
 * value recorded later, with a continuation of its own, then merges
 * with it instead of replacing what v needs. */
static int insert_values(struct ravel__tree *t, uint32_t *list,
                         uint32_t w0, struct ravel__wseq *v, uint32_t left)
{
    uint64_t tkey = ravel__tree_wnode(t, w0)->tkey;
    uint32_t nvals = ravel__tree_wnode(t, w0)->nvals;
    uint64_t have = 0, made = 0;
    uint32_t *tail = list;
    for (uint32_t i = *list; i != RAVEL__NIL;) {
        const struct ravel__wnode *w = ravel__tree_wnode(t, i);
        if (w->tkey == tkey && w->value < 64)
            have |= (uint64_t)1 << w->value;
        tail = &ravel__tree_wnode(t, i)->sibling;
        i = w->sibling;
    }
    for (uint32_t val = 0; val < nvals && val < 64; val++) {
        if (have & ((uint64_t)1 << val))
            continue;
        uint32_t i = ravel__tree_wnode_new(t);
        if (i == RAVEL__NIL)
            return -1;
        struct ravel__wnode *w = ravel__tree_wnode(t, i);
        const struct ravel__wnode *src = ravel__tree_wnode(t, w0);
        w->tkey = src->tkey;
        w->slot = src->slot;
        w->acc = src->acc;
        w->nvals = src->nvals;
        w->value = val;
        w->child = w->sibling = w->vmore = RAVEL__NIL;
        *tail = i;
        tail = &w->sibling;
        made |= (uint64_t)1 << val;
    }
    int rc = made ? 1 : 0;
    bool *saved = malloc(v->n * sizeof *saved);
    RAVEL__CHECK(saved != NULL);
    for (uint32_t k = 0; k < v->n; k++)
        saved[k] = v->e[k].removed;
    for (uint32_t i = *list; i != RAVEL__NIL;
         i = ravel__tree_wnode(t, i)->sibling) {
        struct ravel__wnode *w = ravel__tree_wnode(t, i);
        if (w->tkey != tkey)
            continue;
        bool fresh = w->value < 64 && w->vmore == RAVEL__NIL &&
                     (made & ((uint64_t)1 << w->value));
        if (w->child == RAVEL__NIL && !fresh)
            continue; /* a leaf: exploring it covers v */
        int r = insert_at(t, &ravel__tree_wnode(t, i)->child, v, left,
                          false);
        for (uint32_t k = 0; k < v->n; k++)
            v->e[k].removed = saved[k];
        v->indexed = false;
        if (r < 0) {
            rc = -1;
            break;
        }
        if (r > 0)
            rc = 1;
    }
    free(saved);
    return rc;
}

static int insert_at(struct ravel__tree *t, uint32_t *list,
                     struct ravel__wseq *v, uint32_t left, bool top)
{
    for (;;) {
        uint32_t found = RAVEL__NIL;
        for (uint32_t i = *list; i != RAVEL__NIL;
             i = ravel__tree_wnode(t, i)->sibling) {
            const struct ravel__wnode *w = ravel__tree_wnode(t, i);
            if (ravel__wseq_weak_initial(v, w->tkey, &w->acc) &&
                !value_differs(t, v, w)) {
                found = i;
                break;
            }
        }
        if (found == RAVEL__NIL)
            return append(t, list, v, top);
        struct ravel__wnode *w = ravel__tree_wnode(t, found);
        if (w->value != RAVEL__NONE && !in_v(v, w->tkey))
            return insert_values(t, list, found, v, left);
        if (w->child == RAVEL__NIL)
            return 0; /* a leaf: exploring it covers v */
        if (wseq_remove_first(v, w->tkey))
            left--;
        if (left == 0)
            return 0;
        list = &w->child;
        top = false;
    }
}

int ravel__wseq_insert(struct ravel__tree *t, uint32_t *list,
                       struct ravel__wseq *v)
{
    return insert_at(t, list, v, v->n, true);
}

void ravel__wseq_free(struct ravel__wseq *v)
{
    free(v->next_of);
    free(v->e);
    free(v->e2clk);
    memset(v, 0, sizeof *v);
}
