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
#define TK RAVEL__ACC_TAKE
#define GV RAVEL__ACC_GIVE

#define o false
#define X true
static const bool dep[RAVEL__ACC_CLASSES][RAVEL__ACC_CLASSES] = {
    /*          NONE READ WRITE ACQ REL TEST SHRD WAIT NTFY WOKEN TAKE GIVE */
    /* NONE */ {o,   o,   o,    o,  o,  o,   o,   o,   o,   o,    o,   o},
    /* READ */ {o,   o,   X,    o,  o,  o,   o,   o,   o,   o,    o,   o},
    /* WRITE*/ {o,   X,   X,    o,  o,  o,   o,   o,   o,   o,    o,   o},
    /* ACQ  */ {o,   o,   o,    X,  o,  X,   X,   o,   o,   o,    o,   o},
    /* REL  */ {o,   o,   o,    o,  o,  X,   o,   o,   o,   o,    o,   o},
    /* TEST */ {o,   o,   o,    X,  X,  X,   X,   X,   X,   X,    X,   X},
    /* SHRD */ {o,   o,   o,    X,  o,  X,   o,   o,   o,   o,    o,   o},
    /* WAIT */ {o,   o,   o,    o,  o,  X,   o,   o,   X,   o,    o,   o},
    /* NTFY */ {o,   o,   o,    o,  o,  X,   o,   X,   X,   o,    o,   o},
    /* WOKEN*/ {o,   o,   o,    o,  o,  X,   o,   o,   o,   o,    o,   o},
    /* TAKE */ {o,   o,   o,    o,  o,  X,   o,   o,   o,   o,    X,   o},
    /* GIVE */ {o,   o,   o,    o,  o,  X,   o,   o,   o,   o,    o,   o},
};
#undef o
#undef X

bool ravel__depend_tso;
bool ravel__depend_rc11;

/* --memory-model rc11: does an atomic or fence of this kind and memory
 * order take part in the global seq_cst view (src/rt/rc11.c)? Events
 * keep the order as two flags, so acq_rel counts too (more dependencies
 * than needed, never fewer). */
static bool rc11_sc(uint16_t kind, bool acq, bool rel)
{
    switch (kind) {
    case RAVEL__OP_ATOMIC_LOAD:
    case RAVEL__OP_ATOMIC_STORE:
    case RAVEL__OP_ATOMIC_RMW:
    case RAVEL__OP_ATOMIC_CAS:
    case RAVEL__OP_FENCE:
        return acq && rel;
    default:
        return false;
    }
}

static void add(struct ravel__access *a, uint32_t obj, uint8_t cls)
{
    a->obj[a->n] = obj;
    a->cls[a->n] = cls;
    a->n++;
}

static void classify_op(uint16_t kind, uint32_t obj, uint32_t obj2,
                        uint32_t thread_target, bool cas_wrote, bool epolled,
                        bool timeout, struct ravel__access *a);

/* Classification shared by events and pending operations; `cas_wrote`
 * says whether a compare-exchange is taken to write. `buffered`: under
 * --memory-model tso, a store into the thread's own store buffer, which
 * nobody sees until its flush (a FLUSH, which writes memory) and which
 * is dependent with nothing: the flush's happens-before includes it
 * explicitly (ravel__hb_compute), as a draining operation's includes
 * the flushes it waited for. `epolled`: a descriptor operation on a
 * channel in an epoll set (RAVEL__FD_EPOLLED). */
static void classify(uint16_t kind, uint32_t obj, uint32_t obj2,
                     uint32_t thread_target, bool cas_wrote, bool buffered,
                     bool epolled, bool timeout,
                     struct ravel__access *a)
{
    if (buffered) {
        memset(a, 0, sizeof *a);
        return;
    }
    classify_op(kind, obj, obj2, thread_target, cas_wrote, epolled, timeout,
                a);
}

/* `timeout`: a condition variable's wake that times out (or may, for an
 * operation not yet run or moved elsewhere). */
static void classify_op(uint16_t kind, uint32_t obj, uint32_t obj2,
                        uint32_t thread_target, bool cas_wrote, bool epolled,
                        bool timeout, struct ravel__access *a)
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
        /* Taking the mutex back. The notification that woke the thread
         * happens before the wake (ravel__hb_compute, explicitly) and
         * enables it; any other is independent of it: the thread left
         * the wait queue when it was notified. A wake that times out is
         * different: a notification before it would have woken it. */
        add(a, obj, timeout ? T : CK);
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
    case RAVEL__OP_FLUSH: /* a buffered store reaches memory */
        if (obj != RAVEL__NONE)
            add(a, obj, W);
        return;
    case RAVEL__OP_ATOMIC_CAS:
        add(a, obj, cas_wrote ? W : R);
        return;
    case RAVEL__OP_SEM_WAIT:
        add(a, obj, TK);
        return;
    case RAVEL__OP_SEM_POST:
        add(a, obj, GV);
        return;
    case RAVEL__OP_FD_POLL:
        /* A poll of one or two channels observes them (a poll of none
         * waits for ever). */
        if (obj != RAVEL__NONE)
            add(a, obj, T);
        if (obj2 != RAVEL__NONE)
            add(a, obj2, T);
        return;
    case RAVEL__OP_FD_POLL_ALL:
        /* A poll of many channels, or an epoll_wait: the every-
         * descriptor object, which every other descriptor operation
         * touches as SHARED (commuting with each other). */
        add(a, obj, A);
        return;
    case RAVEL__OP_FD_NEW:
    case RAVEL__OP_FD_READ:
    case RAVEL__OP_FD_WRITE:
    case RAVEL__OP_FD_CLOSE:
    case RAVEL__OP_FD_ACCEPT:
    case RAVEL__OP_FD_CONNECT:
    case RAVEL__OP_FD_LISTEN:
    case RAVEL__OP_FD_SHUTDOWN:
    case RAVEL__OP_FD_CTL:
        /* Everything on one channel is dependent (a write enables the
         * peer's read, a close its end of file ...). On a channel in an
         * epoll set (and epoll_ctl) the order of operations on different
         * channels shows in the order of epoll's ready list: dependent
         * with every descriptor operation. */
        add(a, obj, T);
        if (obj2 != RAVEL__NONE)
            add(a, obj2, epolled ? T : S);
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
             ev->kind != RAVEL__OP_ATOMIC_CAS || ev->aux,
             (ev->flags & RAVEL__EV_BUFFERED) != 0,
             (ev->flags & RAVEL__EV_EPOLLED) != 0,
             (ev->flags & RAVEL__EV_TIMEDOUT) != 0, a);
    if (RAVEL__UNLIKELY(ravel__depend_rc11) &&
        rc11_sc(ev->kind, ev->flags & RAVEL__EV_ACQUIRE,
                ev->flags & RAVEL__EV_RELEASE) && a->n < 2)
        add(a, RAVEL__RC11_SC_OBJ, W);
}

void ravel__event_access_any(const struct ravel__event *ev,
                             struct ravel__access *a)
{
    classify(ev->kind, ev->obj, ev->aux, ev->thread, true,
             (ev->flags & RAVEL__EV_BUFFERED) != 0,
             (ev->flags & RAVEL__EV_EPOLLED) != 0,
             ev->kind == RAVEL__OP_COND_WAKE &&
                 ((ev->flags & RAVEL__EV_TIMEDOUT) ||
                  (ev->value2 & RAVEL__WAKE_TIMED)),
             a);
    if (RAVEL__UNLIKELY(ravel__depend_rc11) &&
        rc11_sc(ev->kind, ev->flags & RAVEL__EV_ACQUIRE,
                ev->flags & RAVEL__EV_RELEASE) && a->n < 2)
        add(a, RAVEL__RC11_SC_OBJ, W);
}

void ravel__op_access(const struct ravel__op *op, uint32_t t,
                      struct ravel__access *a)
{
    classify(op->kind, op->obj, op->obj2, t, true,
             ravel__depend_tso && op->kind == RAVEL__OP_ATOMIC_STORE &&
                 !ravel__op_drains(op),
             (op->arg & RAVEL__FD_EPOLLED) != 0,
             op->kind == RAVEL__OP_COND_WAKE && op->arg, a);
    /* arg: the C11 memory order (acq_rel 4, seq_cst 5). */
    if (RAVEL__UNLIKELY(ravel__depend_rc11) &&
        rc11_sc(op->kind, op->arg == 4 || op->arg == 5,
                op->arg == 4 || op->arg == 5) && a->n < 2)
        add(a, RAVEL__RC11_SC_OBJ, W);
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

/* The key of object o as an access names it (an index, or a thread's
 * object with the top bit set). */
static inline uint64_t object_key(const struct ravel__exec *x, uint32_t o)
{
    if (o & 0x80000000u) {
        uint32_t t = o & 0x7fffffffu;
        return t < x->nthreads ? x->threads[t].key ^ 0x7468ULL : (uint64_t)o;
    }
    if (o < x->nobjects) {
        const struct ravel__object *ob = &x->objects[o];
        return ob->key ? ob->key : ravel__hash_ptr(ob->addr);
    }
    return o;
}

void ravel__access_keys(const struct ravel__access *a,
                        const struct ravel__exec *x, struct ravel__kaccess *k)
{
    memset(k, 0, sizeof *k);
    k->n = a->n;
    k->global = a->global;
    for (uint8_t i = 0; i < a->n; i++) {
        k->cls[i] = a->cls[i];
        k->key[i] = object_key(x, a->obj[i]);
    }
}

bool ravel__kaccess_dependent(const struct ravel__kaccess *a,
                              const struct ravel__kaccess *b)
{
    DEPENDENT(a, b, key);
}

/* ---- happens-before -------------------------------------------------- */

/*
 * What the analysis keeps per object: for each access class, the events
 * that may still race with a later access, oldest first. Two rules keep
 * the lists short however long the execution is, without changing which
 * races are found:
 *
 *   - an event drops the entries it dominates (dominated[] below): they
 *     happen before it, and whatever they are dependent with it is too;
 *   - an event drops the earlier entry of its own thread in its own
 *     class: whoever depends on the older one depends on the newer one,
 *     which is newer in program order, so scanning newest first finds
 *     the older one covered.
 *
 * So each list holds at most one event per thread, and analysing an event
 * costs O(classes x threads) whatever came before: linear in the length
 * of the execution.
 */
struct hb_list {
    uint32_t *ev;
    uint32_t n, cap;
};

struct ravel__hb_obj {
    uint32_t gen;   /* analysis it belongs to (stale entries are empty) */
    uint16_t mask;  /* classes whose list is not empty */
    uint32_t rel;   /* join of its releases: its clock in hb->rel, or
                       RAVEL__NONE before the first release */
    struct hb_list l[RAVEL__ACC_CLASSES];
};

static uint32_t *clock_of(const struct ravel__hb *hb, uint32_t e)
{
    return &hb->clocks[(size_t)e * hb->stride];
}

void ravel__hb_free(struct ravel__hb *hb)
{
    for (uint32_t i = 0; i < hb->objs_cap; i++)
        for (int c = 0; c < RAVEL__ACC_CLASSES; c++)
            free(hb->objs[i].l[c].ev);
    free(hb->objs);
    free(hb->clocks);
    free(hb->tindex);
    free(hb->acc);
    free(hb->cands);
    free(hb->per_thread_last);
    free(hb->rel);
    free(hb->fpsum);
    free(hb->csum);
    free(hb->touched);
    free(hb->ck);
    memset(hb, 0, sizeof *hb);
}

/* The analysis state of the object in `slot` (see hb_obj), the table
 * grown and the state started afresh as needed. */
static __attribute__((noinline)) struct ravel__hb_obj *
hb_obj_slow(struct ravel__hb *hb, uint32_t slot)
{
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
        for (uint16_t m = o->mask; m; m &= (uint16_t)(m - 1))
            o->l[__builtin_ctz(m)].n = 0;
        o->mask = 0;
        o->rel = RAVEL__NONE;
        if (hb->ntouched == hb->touched_cap) {
            hb->touched_cap = hb->touched_cap ? 2 * hb->touched_cap : 64;
            hb->touched = realloc(hb->touched,
                                  hb->touched_cap * sizeof *hb->touched);
            RAVEL__CHECK(hb->touched != NULL);
        }
        hb->touched[hb->ntouched++] = slot;
    }
    return o;
}

/* The analysis state of object `id`: model objects by their index,
 * thread objects after them (no hashing: both are dense). The common
 * case inline - an object this analysis met before - since every access
 * of every event looks its object up, the kept prefix's too. */
static inline struct ravel__hb_obj *hb_obj(struct ravel__hb *hb, uint32_t id)
{
    uint32_t slot = (id & 0x80000000u)
                        ? hb->obj_base + (id & 0x7fffffffu)
                        : id;
    if (RAVEL__LIKELY(slot < hb->objs_cap &&
                      hb->objs[slot].gen == hb->gen))
        return &hb->objs[slot];
    return hb_obj_slow(hb, slot);
}

/* Does an event of class `later` dominate an earlier one of class
 * `earlier`: dependent with it, and with everything it is dependent
 * with? */
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
 * class); depends_on[later]: the classes of earlier entries it races
 * with (a bit per class). Computed once. */
static uint16_t dominated[RAVEL__ACC_CLASSES];
static uint16_t depends_on[RAVEL__ACC_CLASSES];

static void init_dominated(void)
{
    if (dominated[RAVEL__ACC_WRITE])
        return; /* a write dominates a write: never 0 once computed */
    for (int l = 0; l < RAVEL__ACC_CLASSES; l++)
        for (int e = 0; e < RAVEL__ACC_CLASSES; e++) {
            if (dominates((uint8_t)l, (uint8_t)e))
                dominated[l] |= (uint16_t)(1u << e);
            if (dep[e][l])
                depends_on[l] |= (uint16_t)(1u << e);
        }
}

/* Appends event e (of thread t, class cls) to the object's lists. A
 * list's order does not matter (its events are sorted as candidates),
 * so the thread's older entry is replaced by the last one, not moved
 * over; inline, since every access of every event comes here, the kept
 * prefix's too. */
static inline __attribute__((always_inline)) void obj_push(const struct ravel__exec *x, struct ravel__hb_obj *o,
                     uint32_t e, uint32_t t, uint8_t cls)
{
    for (uint16_t m = o->mask & dominated[cls]; m; m &= (uint16_t)(m - 1))
        o->l[__builtin_ctz(m)].n = 0;
    o->mask &= (uint16_t)~dominated[cls];
    struct hb_list *l = &o->l[cls];
    for (uint32_t j = 0; j < l->n; j++) {
        if (x->events[l->ev[j]].thread != t)
            continue;
        l->ev[j] = l->ev[--l->n];
        break;
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
        RAVEL__CHECK(l->ev != NULL);
    }
    l->ev[l->n++] = e;
    o->mask |= (uint16_t)(1u << cls);
}

/* An event's clock starts as a copy of its thread's previous one (or
 * its creator's): a few entries, at every event analysed. */
#define clock_copy ravel__words_copy

static void join(uint32_t *dst, const uint32_t *src, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (src[i] > dst[i])
            dst[i] = src[i];
}

/* One nonzero clock entry's share of an event's hash (event_hash). */
static inline uint64_t entry_hash(const struct ravel__exec *x, uint32_t i,
                                  uint32_t v)
{
    return v ? ravel__hash_ptr(x->threads[i].key ^ ((uint64_t)v << 32)) : 0;
}

/* The sum of a clock's entry hashes, from scratch. */
static uint64_t clock_sum(const struct ravel__exec *x, const uint32_t *c,
                          uint32_t nt)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < nt; i++)
        sum += entry_hash(x, i, c[i]);
    return sum;
}

/* join, keeping *sum (hb->csum's) up to date with the entries it
 * raises. */
static void join_sum(const struct ravel__exec *x, uint32_t *dst,
                     const uint32_t *src, uint32_t n, uint64_t *sum)
{
    if (!sum) {
        join(dst, src, n);
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        if (src[i] > dst[i]) {
            *sum += entry_hash(x, i, src[i]) - entry_hash(x, i, dst[i]);
            dst[i] = src[i];
        }
}

/* Joins clock c into the object's release clock, giving it one at its
 * first release (zeroed, nt slots, from hb->rel). */
static void obj_release(struct ravel__hb *hb, struct ravel__hb_obj *o,
                        const uint32_t *c, uint32_t nt)
{
    if (o->rel == RAVEL__NONE) {
        if ((size_t)(hb->nrel + 1) * nt > hb->relcap) {
            hb->relcap = 2 * (size_t)(hb->nrel + 1) * nt +
                         64 * RAVEL__HB_THREADS;
            hb->rel = realloc(hb->rel, hb->relcap * sizeof *hb->rel);
            RAVEL__CHECK(hb->rel != NULL);
        }
        o->rel = hb->nrel++;
        ravel__words_zero(&hb->rel[(size_t)o->rel * nt], nt);
    }
    join(&hb->rel[(size_t)o->rel * nt], c, nt);
}

/* Is event e (of thread te, index ie) covered by clock c? */
static bool covered(const uint32_t *c, uint32_t te, uint32_t ie)
{
    return c[te] >= ie;
}

static int cmp_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* Sorts the candidates newest first (few: at most one per thread and
 * class of each object). */
static void sort_desc(uint32_t *c, uint32_t n)
{
    if (n > 32) {
        qsort(c, n, sizeof *c, cmp_desc);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = c[i], j = i;
        for (; j > 0 && c[j - 1] < v; j--)
            c[j] = c[j - 1];
        c[j] = v;
    }
}

/* Makes room for the clocks of n events of `stride` threads each,
 * keeping the first `keep` events' clocks (which had hb->stride). */
static void clocks_reserve(struct ravel__hb *hb, uint32_t n, uint32_t stride,
                           uint32_t keep)
{
    if (n <= hb->cap && stride == hb->stride)
        return;
    uint32_t cap = n > hb->cap ? n + n / 2 + 16 : hb->cap;
    uint32_t *nc = realloc(hb->clocks, (size_t)cap * stride * sizeof *nc);
    uint32_t *ti = realloc(hb->tindex, (size_t)cap * sizeof *ti);
    struct ravel__access *ac = realloc(hb->acc, (size_t)cap * sizeof *ac);
    uint64_t *cs = realloc(hb->csum, (size_t)cap * sizeof *cs);
    RAVEL__CHECK(nc && ti && ac && cs);
    hb->acc = ac;
    hb->csum = cs;
    if (stride > hb->stride) {
        /* Spread the kept clocks out, last first (they only move up). */
        for (uint32_t e = keep; e-- > 0;) {
            memmove(nc + (size_t)e * stride, nc + (size_t)e * hb->stride,
                    hb->stride * sizeof *nc);
            memset(nc + (size_t)e * stride + hb->stride, 0,
                   (stride - hb->stride) * sizeof *nc);
        }
    }
    hb->clocks = nc;
    hb->tindex = ti;
    hb->cap = cap;
    hb->stride = stride;
}

/*
 * Checkpoints. The kept prefix's events are the last analysis's, but the
 * state they leave (each object's lists and release clock, each thread's
 * last event) was rebuilt from the first event at every analysis: on
 * fib_bench, 34 of an execution's 46 events, a sixth of the analysis.
 * So an analysis saves that state where its prefix ends, and a later one
 * whose prefix is as long or longer starts from the deepest such
 * checkpoint instead of from the first event. A checkpoint holds while
 * every analysis since kept at least its prefix (the events before it
 * are still those it saw): deeper ones are dropped at each analysis, as
 * the snapshots of executions are (src/rt/process/resume.c). The state is
 * saved by object identity (a thread object's slot depends on how many
 * model objects the execution has), and only when the threads are as
 * many as then (the clocks' width).
 *
 * A record, in words: at, nt, the threads' last events (nt), nrel, the
 * release clocks (nrel x nt), the number of objects, then per object
 * its id, mask, rel, and for each class in its mask the list's length
 * and entries.
 */
static bool ck_room(struct ravel__hb *hb, size_t words)
{
    if (hb->ck_len + words <= hb->ck_cap)
        return true;
    size_t cap = hb->ck_cap ? hb->ck_cap : 1024;
    while (cap < hb->ck_len + words)
        cap *= 2;
    uint32_t *p = realloc(hb->ck, cap * sizeof *p);
    if (!p)
        return false;
    hb->ck = p;
    hb->ck_cap = cap;
    return true;
}

static void ck_save(struct ravel__hb *hb, uint32_t at, uint32_t nt)
{
    if (hb->nck == RAVEL__COUNT(hb->ck_at) ||
        (hb->nck && hb->ck_at[hb->nck - 1] >= at))
        return;
    size_t words = 4 + nt + (size_t)hb->nrel * nt;
    for (uint32_t i = 0; i < hb->ntouched; i++) {
        const struct ravel__hb_obj *o = &hb->objs[hb->touched[i]];
        words += 3;
        for (uint16_t m = o->mask; m; m &= (uint16_t)(m - 1))
            words += 1 + o->l[__builtin_ctz(m)].n;
    }
    if (!ck_room(hb, words))
        return;
    uint32_t *w = hb->ck + hb->ck_len;
    *w++ = at;
    *w++ = nt;
    ravel__words_copy(w, hb->per_thread_last, nt);
    w += nt;
    *w++ = hb->nrel;
    ravel__words_copy(w, hb->rel, (size_t)hb->nrel * nt);
    w += (size_t)hb->nrel * nt;
    *w++ = hb->ntouched;
    for (uint32_t i = 0; i < hb->ntouched; i++) {
        uint32_t slot = hb->touched[i];
        const struct ravel__hb_obj *o = &hb->objs[slot];
        *w++ = slot >= hb->obj_base ? 0x80000000u | (slot - hb->obj_base)
                                    : slot;
        *w++ = o->mask;
        *w++ = o->rel;
        for (uint16_t m = o->mask; m; m &= (uint16_t)(m - 1)) {
            const struct hb_list *l = &o->l[__builtin_ctz(m)];
            *w++ = l->n;
            ravel__words_copy(w, l->ev, l->n);
            w += l->n;
        }
    }
    hb->ck_at[hb->nck] = at;
    hb->ck_start[hb->nck++] = hb->ck_len;
    hb->ck_len += words;
}

/* The deepest checkpoint at or before `from` (those after it dropped)
 * put back as this analysis's state; returns where it was taken, 0 when
 * there is none to use. */
static uint32_t ck_load(struct ravel__hb *hb, uint32_t from, uint32_t nt)
{
    uint32_t had = hb->nck;
    while (hb->nck && hb->ck_at[hb->nck - 1] > from)
        hb->nck--;
    if (hb->nck < had) /* the kept records end where the first dropped began */
        hb->ck_len = hb->ck_start[hb->nck];
    if (!hb->nck)
        return 0;
    const uint32_t *w = hb->ck + hb->ck_start[hb->nck - 1];
    /* Then as now: the kept events' clocks are as wide as the state's. */
    if (w[1] != nt || hb->nt != nt)
        return 0;
    uint32_t at = *w++;
    w++;
    ravel__words_copy(hb->per_thread_last, w, nt);
    w += nt;
    uint32_t nrel = *w++;
    if ((size_t)nrel * nt > hb->relcap) {
        hb->relcap = 2 * (size_t)nrel * nt + 64 * RAVEL__HB_THREADS;
        hb->rel = realloc(hb->rel, hb->relcap * sizeof *hb->rel);
        RAVEL__CHECK(hb->rel != NULL);
    }
    hb->nrel = nrel;
    ravel__words_copy(hb->rel, w, (size_t)nrel * nt);
    w += (size_t)nrel * nt;
    uint32_t nobj = *w++;
    for (uint32_t i = 0; i < nobj; i++) {
        struct ravel__hb_obj *o = hb_obj(hb, w[0]);
        o->mask = (uint16_t)w[1];
        o->rel = w[2];
        w += 3;
        for (uint16_t m = o->mask; m; m &= (uint16_t)(m - 1)) {
            struct hb_list *l = &o->l[__builtin_ctz(m)];
            uint32_t n = *w++;
            if (n > l->cap) {
                l->cap = n + 4;
                l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
                RAVEL__CHECK(l->ev != NULL);
            }
            l->n = n;
            ravel__words_copy(l->ev, w, n);
            w += n;
        }
    }
    /* It stays on the stack: a later analysis may start from it too. */
    return at;
}

/* One event's share of a fingerprint: its identity (thread, index in
 * it, kind, what it touched, a compare-exchange's outcome, whom a signal
 * woke) and its vector clock, as the sum of its nonzero entries' hashes
 * (clock_sum; hb->csum). `a` is the event's access
 * (ravel__event_access), which the caller has already classified. */
static uint64_t event_hash(const struct ravel__exec *x, uint32_t e,
                           const struct ravel__access *a, uint32_t tindex,
                           uint64_t sum)
{
    const struct ravel__event *ev = &x->events[e];
    /* The keys ravel__access_keys gives, 0 where there is no access,
     * without building the whole (a call and a clear per event). */
    uint64_t key0 = a->n > 0 ? object_key(x, a->obj[0]) : 0;
    uint64_t key1 = a->n > 1 ? object_key(x, a->obj[1]) : 0;
    uint64_t h = x->threads[ev->thread].key ^ ((uint64_t)tindex << 8) ^
                 ev->kind;
    if (ev->kind == RAVEL__OP_ATOMIC_CAS)
        h ^= ev->aux ? 1ULL << 62 : 0; /* above the index (bits 8-39) */
    if (ev->kind == RAVEL__OP_COND_SIGNAL && ev->aux < x->nthreads)
        h ^= ravel__hash_ptr(x->threads[ev->aux].key); /* who woke */
    /* Two mixes: the identity with the first object, then that with the
     * second object's key (an odd multiple: a bijection) and the clock's
     * sum, both already hash values. Four, one per part, cost a tenth
     * more of the fingerprint's instructions on fib_bench (callgrind:
     * 2,680 an execution against 2,400), for nothing a sum of 64-bit
     * hashes needs. */
    h = ravel__hash_ptr(h ^ key0);
    return ravel__hash_ptr(h ^ key1 * 0x9e3779b97f4a7c15ULL ^ sum);
}

/* Room in fpsum for n events' sums (n + 1 of them, fpsum[0] = 0). */
static void fpsum_reserve(struct ravel__hb *hb, uint32_t n)
{
    if (n + 1 > hb->fpcap) {
        uint32_t cap = hb->fpcap ? hb->fpcap : 256;
        while (cap < n + 1)
            cap *= 2;
        uint64_t *p = realloc(hb->fpsum, cap * sizeof *p);
        RAVEL__CHECK(p != NULL);
        hb->fpsum = p;
        hb->fpcap = cap;
    }
    hb->fpsum[0] = 0;
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
    /* Clocks have a slot per thread of the widest execution so far:
     * O(events x threads) memory, never RAVEL__HB_THREADS per event.
     * Not rounded up: the width only grows (at most 64 times, each
     * spreading the kept clocks once), and 5 threads rounded to 8 made
     * the clocks a fifth of a long execution's memory under random. */
    uint32_t stride = nt;
    if (stride < hb->stride)
        stride = hb->stride;
    if (stride == 0)
        stride = 1;
    clocks_reserve(hb, n, stride, from);
    if (!hb->per_thread_last) {
        hb->per_thread_last = calloc(RAVEL__HB_THREADS,
                                     sizeof *hb->per_thread_last);
        RAVEL__CHECK(hb->per_thread_last != NULL);
    }
    hb->nevents = n;
    if (hb->fp_valid > from)
        hb->fp_valid = from;
    /* The clock sums, when wanted and the kept prefix has them; and with
     * them the fingerprint's sums of event hashes, when the kept prefix
     * has those too (ravel__hb_fingerprint then only ends it): one pass
     * over the events, not a second one that loads each event's access,
     * index and sum again. */
    bool sums = hb->sums && hb->csum_valid >= from;
    hb->csum_valid = sums ? n : hb->csum_valid < from ? hb->csum_valid : from;
    bool fuse = sums && hb->fp_valid == from;
    if (fuse)
        fpsum_reserve(hb, n);
    hb->gen++;
    hb->nrel = 0;
    hb->ntouched = 0;
    hb->obj_base = x->nobjects;
    ravel__words_zero(hb->per_thread_last, nt); /* read below nt only */
    /* Where the kept prefix's state is rebuilt from (checkpoints). */
    uint32_t start = ck_load(hb, from, nt);

    uint32_t count[RAVEL__HB_THREADS];
    ravel__words_zero(count, nt);
    for (uint32_t t = 0; start && t < nt; t++)
        if (hb->per_thread_last[t])
            count[t] = hb->tindex[hb->per_thread_last[t] - 1];
    /* A child's first event starts from its creator's clock at creation. */
    uint32_t creator_event[RAVEL__HB_THREADS];
    for (uint32_t t = 0; t < nt; t++)
        creator_event[t] = x->threads[t].create_event;

    uint32_t *cands = hb->cands;
    uint32_t ncap = hb->ncands;
    /* The kept prefix: only the state it leaves (per object, per
     * thread). */
    for (uint32_t e = start; e < from; e++) {
        const struct ravel__event *ev = &x->events[e];
        uint32_t t = ev->thread;
        count[t]++;
        if (nt > hb->nt) /* threads the last analysis did not have */
            memset(clock_of(hb, e) + hb->nt, 0,
                   (nt - hb->nt) * sizeof(uint32_t));
        const struct ravel__access a = hb->acc[e]; /* same event as then */
        for (uint8_t k = 0; k < a.n; k++) {
            struct ravel__hb_obj *o = hb_obj(hb, a.obj[k]);
            obj_push(x, o, e, t, a.cls[k]);
            if (a.cls[k] == RAVEL__ACC_RELEASE)
                obj_release(hb, o, clock_of(hb, e), nt);
        }
        hb->per_thread_last[t] = e + 1;
    }
    if (from)
        ck_save(hb, from, nt);
    for (uint32_t e = from; e < n; e++) {
        const struct ravel__event *ev = &x->events[e];
        uint32_t t = ev->thread;
        uint32_t *c = clock_of(hb, e);
        uint32_t last = hb->per_thread_last[t];
        uint64_t sum_v = 0, *sum = sums ? &sum_v : NULL;
        if (last) {
            clock_copy(c, clock_of(hb, last - 1), nt);
            sum_v = sums ? hb->csum[last - 1] : 0;
        } else if (creator_event[t] != RAVEL__NONE && creator_event[t] < e) {
            clock_copy(c, clock_of(hb, creator_event[t]), nt);
            sum_v = sums ? hb->csum[creator_event[t]] : 0;
        } else {
            ravel__words_zero(c, nt);
        }
        hb->tindex[e] = ++count[t];
        /* --memory-model tso: a flush happens after the store it writes
         * (value2), an operation that drained its thread's buffer after
         * the buffer's last flush: what enabled them. */
        if (RAVEL__UNLIKELY(ev->kind == RAVEL__OP_FLUSH) &&
            (uint64_t)ev->value2 < e)
            join_sum(x, c, clock_of(hb, (uint32_t)ev->value2), nt, sum);
        if (RAVEL__UNLIKELY(ev->flags & RAVEL__EV_DRAINS) &&
            x->threads[t].sb && hb->per_thread_last[x->threads[t].sb - 1])
            join_sum(x, c,
                     clock_of(hb, hb->per_thread_last[x->threads[t].sb - 1] - 1),
                     nt, sum);
        /* A condition variable's wake happens after the notification
         * that woke it (and after nothing else notified: see classify).
         * For a timed wait the edge is added after the races are found
         * (below): such a wake could have timed out before the
         * notification, and taking its mutex back then races with the
         * notifier's own lock, which the edge would hide (DPOR said
         * "exhausted" about a waiter asserting that its 2 s timeout never
         * comes while main sleeps 500 ms and signals). */
        uint32_t woken_by = ev->kind == RAVEL__OP_COND_WAKE &&
                                    RAVEL__WAKE_BY(ev) &&
                                    RAVEL__WAKE_BY(ev) - 1 < e
                                ? RAVEL__WAKE_BY(ev)
                                : 0;
        if (woken_by && !(ev->value2 & RAVEL__WAKE_TIMED)) {
            join_sum(x, c, clock_of(hb, woken_by - 1), nt, sum);
            woken_by = 0;
        }

        /* Classified where it is kept, and read field by field: a copy of
         * the whole, just written a byte and a word at a time, was a
         * load the stores could not forward to (a tenth of this
         * function's time in perf). */
        struct ravel__access *ap = &hb->acc[e];
        ravel__event_access(ev, ap);
        /* In locals, loaded at their own widths: through the pointer every
         * store below (a byte is any object's alias) would load them again. */
        const uint8_t na = ap->n;
        const bool glob = ap->global;
        /* Each entry by itself, and only those set: ravel__event_access
         * stored them one at a time, and a load of both at once (the
         * arrays' copies, 8 and 2 bytes) waited for those stores to
         * retire instead of taking their values (a tenth of this
         * function's samples in perf, on fib_bench). */
        uint32_t aobj[2] = {ap->obj[0], 0};
        uint8_t acls[2] = {ap->cls[0], 0};
        if (na > 1) {
            aobj[1] = ap->obj[1];
            acls[1] = ap->cls[1];
        }
        /* Dependent predecessors in other threads. */
        uint32_t nc = 0;
        uint32_t need = glob ? nt : 0;
        struct ravel__hb_obj *objs[2] = {NULL, NULL};
        for (uint8_t k = 0; k < na; k++) /* may grow the table */
            (void)hb_obj(hb, aobj[k]);
        for (uint8_t k = 0; k < na; k++) {
            objs[k] = hb_obj(hb, aobj[k]);
            for (uint16_t m = objs[k]->mask & depends_on[acls[k]]; m;
                 m &= (uint16_t)(m - 1))
                need += objs[k]->l[__builtin_ctz(m)].n;
        }
        if (need > ncap) {
            ncap = need + 64;
            cands = realloc(cands, ncap * sizeof *cands);
            RAVEL__CHECK(cands != NULL);
        }
        if (glob) {
            for (uint32_t u = 0; u < nt; u++)
                if (u != t && hb->per_thread_last[u])
                    cands[nc++] = hb->per_thread_last[u] - 1;
        }
        for (uint8_t k = 0; k < na; k++) {
            struct ravel__hb_obj *o = objs[k];
            for (uint16_t m = o->mask & depends_on[acls[k]]; m;
                 m &= (uint16_t)(m - 1)) {
                const struct hb_list *l = &o->l[__builtin_ctz(m)];
                for (uint32_t j = 0; j < l->n; j++)
                    if (x->events[l->ev[j]].thread != t)
                        cands[nc++] = l->ev[j];
            }
        }
        if (nc > 1)
            sort_desc(cands, nc);
        /* Scan newest to oldest: a candidate covered by what is already
         * known to happen before is not a race (and its clock adds
         * nothing: what covers it happens after it). */
        uint32_t prev = UINT32_MAX;
        for (uint32_t j = 0; j < nc; j++) {
            uint32_t pe = cands[j];
            if (pe == prev)
                continue;
            prev = pe;
            uint32_t pt = x->events[pe].thread;
            if (covered(c, pt, hb->tindex[pe]))
                continue;
            if (race)
                race(ctx, pe, e);
            join_sum(x, c, clock_of(hb, pe), nt, sum);
        }
        if (woken_by)
            join_sum(x, c, clock_of(hb, woken_by - 1), nt, sum);
        /* A release happens before the next acquisition of the same lock.
         * The edge is added only now, after this acquisition was checked
         * against earlier ones: it must not hide the race between two
         * acquisitions, which is how the other lock order is found. */
        for (uint8_t k = 0; k < na; k++) {
            if (acls[k] != RAVEL__ACC_ACQUIRE && acls[k] != RAVEL__ACC_SHARED)
                continue;
            if (objs[k]->rel != RAVEL__NONE)
                join_sum(x, c, &hb->rel[(size_t)objs[k]->rel * nt], nt, sum);
        }
        if (sums) {
            hb->csum[e] = sum_v + entry_hash(x, t, hb->tindex[e]) -
                          entry_hash(x, t, c[t]);
            if (fuse)
                hb->fpsum[e + 1] =
                    hb->fpsum[e] +
                    event_hash(x, e, ap, hb->tindex[e], hb->csum[e]);
        }
        c[t] = hb->tindex[e];
        for (uint8_t k = 0; k < na; k++) {
            struct ravel__hb_obj *o = objs[k];
            obj_push(x, o, e, t, acls[k]);
            if (acls[k] == RAVEL__ACC_RELEASE)
                obj_release(hb, o, c, nt);
        }
        hb->per_thread_last[t] = e + 1;
    }
    hb->cands = cands; /* kept for the next analysis */
    hb->ncands = ncap;
    hb->nt = nt;
    if (fuse)
        hb->fp_valid = n;
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

/* The data choices' share, and the length. */
static uint64_t fingerprint_end(const struct ravel__exec *x, uint64_t fp,
                                uint32_t nevents)
{
    /* Data choices, by thread and position in it (a signal's choice is
     * in its event, as the thread it woke). A block can make several:
     * they come one after the other, and each is also hashed with its
     * rank among them, or (0, 1) and (1, 0) would sum alike. */
    uint64_t rank = 0;
    for (uint32_t i = 0; i < x->nvchoices; i++) {
        const struct ravel__vchoice *v = &x->vchoices[i];
        const struct ravel__vchoice *p = i ? v - 1 : NULL;
        rank = p && p->thread == v->thread && p->tstep == v->tstep
                   ? rank + 1 : 0;
        if (v->data && v->thread < x->nthreads)
            fp += ravel__hash_ptr(x->threads[v->thread].key ^
                                  ((uint64_t)v->tstep << 32 | v->value) ^
                                  (0x7663ULL + rank) << 48);
    }
    return fp ^ ravel__hash_ptr(nevents);
}

uint64_t ravel__hb_fingerprint(struct ravel__hb *hb,
                               const struct ravel__exec *x)
{
    /* Order-independent: the sum of one hash per event, each over the
     * event's identity and its vector clock. Threads are named by their
     * keys: which thread got which index depends on the order in which
     * independent creations ran. */
    uint32_t nt = x->nthreads < RAVEL__HB_THREADS ? x->nthreads
                                                   : RAVEL__HB_THREADS;
    uint32_t n = hb->nevents;
    fpsum_reserve(hb, n);
    /* An event's hash skips the zero slots of its clock, so it is the
     * same however many threads the execution has. */
    for (uint32_t e = hb->fp_valid; e < n; e++) {
        uint64_t sum = e < hb->csum_valid ? hb->csum[e]
                                          : clock_sum(x, clock_of(hb, e), nt);
        hb->fpsum[e + 1] = hb->fpsum[e] +
                           event_hash(x, e, &hb->acc[e], hb->tindex[e], sum);
    }
    hb->fp_valid = n;
    return fingerprint_end(x, hb->fpsum[n], n);
}

/* ---- the fingerprint alone, in one pass ---------------------------------
 *
 * What random and PCT need of happens-before: the fingerprint that counts
 * distinct traces, nothing else. ravel__hb_compute keeps every event's
 * clock (DPOR reads them afterwards); here an event's clock is hashed as
 * soon as it is known and kept only where a later event can read it: as
 * its thread's latest, as a creator's clock until the child starts, and
 * in the objects' lists beside the events (at most one per thread and
 * class of each object, as there). So memory is O(objects x threads)
 * beside the event log, not O(events x threads), and the value is the
 * same as ravel__hb_fingerprint's after ravel__hb_compute: the same
 * candidates, in the same order, joined the same way.
 */
struct fp_list {
    uint32_t *rec; /* per event, in no order: the event, its index in
                      its thread, its thread (kept here: reading it from
                      the event log was a cache miss per record), its
                      clock (nt slots): FP_REC(nt) slots */
    uint32_t n;
    uint32_t slots; /* allocated */
};

struct ravel__fp_obj {
    uint32_t gen;
    uint16_t mask;
    uint32_t rel; /* as in struct ravel__hb_obj */
    struct fp_list l[RAVEL__ACC_CLASSES];
};

void ravel__hbfp_free(struct ravel__hbfp *f)
{
    for (uint32_t i = 0; i < f->objs_cap; i++)
        for (int c = 0; c < RAVEL__ACC_CLASSES; c++)
            free(f->objs[i].l[c].rec);
    free(f->objs);
    free(f->rel);
    memset(f, 0, sizeof *f);
}

static struct ravel__fp_obj *fp_obj(struct ravel__hbfp *f, uint32_t id)
{
    uint32_t slot = (id & 0x80000000u) ? f->obj_base + (id & 0x7fffffffu)
                                       : id;
    if (slot >= f->objs_cap) {
        uint32_t ncap = f->objs_cap ? f->objs_cap : 64;
        while (ncap <= slot)
            ncap *= 2;
        struct ravel__fp_obj *no = realloc(f->objs, ncap * sizeof *no);
        RAVEL__CHECK(no != NULL);
        memset(no + f->objs_cap, 0, (ncap - f->objs_cap) * sizeof *no);
        f->objs = no;
        f->objs_cap = ncap;
    }
    struct ravel__fp_obj *o = &f->objs[slot];
    if (o->gen != f->gen) {
        o->gen = f->gen;
        for (uint16_t m = o->mask; m; m &= (uint16_t)(m - 1))
            o->l[__builtin_ctz(m)].n = 0;
        o->mask = 0;
        o->rel = RAVEL__NONE;
    }
    return o;
}

/* obj_push's rule, each entry with its index, thread and clock (records
 * of FP_REC(nt) slots: nt is fixed during one pass, and a list is
 * emptied (gen) before another pass uses it). */
#define FP_REC(nt) ((nt) + 3)

static void fp_push(struct ravel__fp_obj *o, uint32_t e, uint32_t t,
                    uint8_t cls, uint32_t ti, const uint32_t *c, uint32_t nt)
{
    for (uint16_t m = o->mask & dominated[cls]; m; m &= (uint16_t)(m - 1))
        o->l[__builtin_ctz(m)].n = 0;
    o->mask &= (uint16_t)~dominated[cls];
    struct fp_list *l = &o->l[cls];
    uint32_t w = FP_REC(nt);
    uint32_t *r = NULL;
    /* The thread's earlier record, replaced where it is: the candidates
     * are sorted before they are joined, so the order of a list does not
     * matter. */
    for (uint32_t j = 0; j < l->n; j++)
        if (l->rec[(size_t)j * w + 2] == t) {
            r = &l->rec[(size_t)j * w];
            break;
        }
    if (!r) {
        if ((size_t)(l->n + 1) * w > l->slots) {
            l->slots = (l->n + 1) * 2 * w;
            l->rec = realloc(l->rec, l->slots * sizeof *l->rec);
            RAVEL__CHECK(l->rec != NULL);
        }
        r = &l->rec[(size_t)l->n++ * w];
    }
    r[0] = e;
    r[1] = ti;
    r[2] = t;
    ravel__words_copy(r + 3, c, nt);
    o->mask |= (uint16_t)(1u << cls);
}

struct fp_cand {
    uint32_t e, ti, t; /* the event, its index in its thread, its thread */
    const uint32_t *clk;
};

static int cmp_cand_desc(const void *a, const void *b)
{
    uint32_t x = ((const struct fp_cand *)a)->e,
             y = ((const struct fp_cand *)b)->e;
    return x < y ? 1 : x > y ? -1 : 0;
}

int ravel__hbfp_fingerprint(struct ravel__hbfp *f, const struct ravel__exec *x,
                            uint64_t *out)
{
    uint32_t nt = x->nthreads;
    if (nt > RAVEL__HB_THREADS)
        return -1;
    uint32_t n = x->nevents;
    /* --memory-model tso's edges, and a condition variable's wake after
     * the notification that woke it, read the clocks of arbitrary earlier
     * events: not for this pass. */
    for (uint32_t e = 0; e < n; e++)
        if (x->events[e].kind == RAVEL__OP_FLUSH ||
            (x->events[e].flags & RAVEL__EV_DRAINS) ||
            (x->events[e].kind == RAVEL__OP_COND_WAKE &&
             RAVEL__WAKE_BY(&x->events[e])))
            return 1;
    init_dominated();
    f->gen++;
    f->nrel = 0;
    f->obj_base = x->nobjects;
    /* Each thread's latest clock, and the clock a child starts from. */
    uint32_t *cur = calloc((size_t)(nt * 2 + 1) * nt + 1, sizeof *cur);
    RAVEL__CHECK(cur != NULL);
    uint32_t *start = cur + (size_t)nt * nt;
    uint32_t count[RAVEL__HB_THREADS] = {0};
    /* The sums of entry hashes of cur's and start's clocks (clock_sum),
     * kept as the clocks change: an event's sum then costs the entries
     * its joins raise, not a hash of every entry. */
    uint64_t cursum[RAVEL__HB_THREADS], startsum[RAVEL__HB_THREADS];
    /* Children by their creation events, to snapshot the creator's clock
     * at that event. */
    uint32_t kids[RAVEL__HB_THREADS], nkids = 0;
    for (uint32_t t = 0; t < nt; t++)
        if (x->threads[t].create_event != RAVEL__NONE &&
            x->threads[t].create_event < n)
            kids[nkids++] = t;
    for (uint32_t i = 1; i < nkids; i++) { /* by creation event */
        uint32_t v = kids[i], j = i;
        for (; j > 0 && x->threads[kids[j - 1]].create_event >
                            x->threads[v].create_event;
             j--)
            kids[j] = kids[j - 1];
        kids[j] = v;
    }
    bool started[RAVEL__HB_THREADS] = {false};
    uint32_t nextkid = 0;
    struct fp_cand *cands = NULL;
    uint32_t ncap = 0;
    uint32_t *c = start + (size_t)nt * nt; /* this event's clock */
    uint64_t fp = 0;
    for (uint32_t e = 0; e < n; e++) {
        const struct ravel__event *ev = &x->events[e];
        uint32_t t = ev->thread;
        uint64_t sum;
        if (count[t]) {
            ravel__words_copy(c, &cur[(size_t)t * nt], nt);
            sum = cursum[t];
        } else if (x->threads[t].create_event != RAVEL__NONE &&
                   x->threads[t].create_event < e && started[t]) {
            ravel__words_copy(c, &start[(size_t)t * nt], nt);
            sum = startsum[t];
        } else {
            ravel__words_zero(c, nt);
            sum = 0;
        }
        uint32_t ti = ++count[t];

        struct ravel__access a;
        ravel__event_access(ev, &a);
        uint32_t nc = 0;
        uint32_t need = a.global ? nt : 0;
        struct ravel__fp_obj *objs[2] = {NULL, NULL};
        for (uint8_t k = 0; k < a.n; k++)
            (void)fp_obj(f, a.obj[k]);
        for (uint8_t k = 0; k < a.n; k++) {
            objs[k] = fp_obj(f, a.obj[k]);
            for (uint16_t m = objs[k]->mask & depends_on[a.cls[k]]; m;
                 m &= (uint16_t)(m - 1))
                need += objs[k]->l[__builtin_ctz(m)].n;
        }
        if (need > ncap) {
            ncap = need + 64;
            cands = realloc(cands, ncap * sizeof *cands);
            RAVEL__CHECK(cands != NULL);
        }
        if (a.global) {
            /* Each other thread's latest event (ravel__hb_compute's
             * per_thread_last). */
            for (uint32_t u = 0; u < nt; u++)
                if (u != t && count[u]) {
                    cands[nc].e = f->last[u];
                    cands[nc].ti = count[u];
                    cands[nc].t = u;
                    cands[nc].clk = &cur[(size_t)u * nt];
                    nc++;
                }
        }
        for (uint8_t k = 0; k < a.n; k++) {
            struct ravel__fp_obj *o = objs[k];
            for (uint16_t m = o->mask & depends_on[a.cls[k]]; m;
                 m &= (uint16_t)(m - 1)) {
                const struct fp_list *l = &o->l[__builtin_ctz(m)];
                for (uint32_t j = 0; j < l->n; j++) {
                    const uint32_t *r = &l->rec[(size_t)j * FP_REC(nt)];
                    if (r[2] != t) {
                        cands[nc].e = r[0];
                        cands[nc].ti = r[1];
                        cands[nc].t = r[2];
                        cands[nc].clk = r + 3;
                        nc++;
                    }
                }
            }
        }
        if (nc > 1)
            qsort(cands, nc, sizeof *cands, cmp_cand_desc);
        uint32_t prev = UINT32_MAX;
        for (uint32_t j = 0; j < nc; j++) {
            if (cands[j].e == prev)
                continue;
            prev = cands[j].e;
            if (covered(c, cands[j].t, cands[j].ti))
                continue;
            join_sum(x, c, cands[j].clk, nt, &sum);
        }
        for (uint8_t k = 0; k < a.n; k++) {
            if (a.cls[k] != RAVEL__ACC_ACQUIRE && a.cls[k] != RAVEL__ACC_SHARED)
                continue;
            if (objs[k]->rel != RAVEL__NONE)
                join_sum(x, c, &f->rel[(size_t)objs[k]->rel * nt], nt,
                         &sum);
        }
        sum += entry_hash(x, t, ti) - entry_hash(x, t, c[t]);
        c[t] = ti;
        fp += event_hash(x, e, &a, ti, sum);
        for (uint8_t k = 0; k < a.n; k++) {
            struct ravel__fp_obj *o = objs[k];
            fp_push(o, e, t, a.cls[k], ti, c, nt);
            if (a.cls[k] == RAVEL__ACC_RELEASE) {
                if (o->rel == RAVEL__NONE) {
                    if ((size_t)(f->nrel + 1) * nt > f->relcap) {
                        f->relcap = 2 * (size_t)(f->nrel + 1) * nt +
                                    64 * RAVEL__HB_THREADS;
                        f->rel = realloc(f->rel, f->relcap * sizeof *f->rel);
                        RAVEL__CHECK(f->rel != NULL);
                    }
                    o->rel = f->nrel++;
                    memset(&f->rel[(size_t)o->rel * nt], 0,
                           nt * sizeof *f->rel);
                }
                join(&f->rel[(size_t)o->rel * nt], c, nt);
            }
        }
        ravel__words_copy(&cur[(size_t)t * nt], c, nt);
        cursum[t] = sum;
        f->last[t] = e;
        /* Children created by this event start from its clock. */
        while (nextkid < nkids &&
               x->threads[kids[nextkid]].create_event <= e) {
            uint32_t k = kids[nextkid++];
            const uint32_t *src = &cur[(size_t)x->events[
                x->threads[k].create_event].thread * nt];
            if (x->threads[k].create_event == e) {
                ravel__words_copy(&start[(size_t)k * nt], src, nt);
                startsum[k] = cursum[x->events[e].thread];
            }
            started[k] = x->threads[k].create_event == e;
        }
    }
    free(cands);
    free(cur);
    *out = fingerprint_end(x, fp, n);
    return 0;
}
