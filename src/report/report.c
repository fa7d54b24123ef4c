/*
 * report.c - bug reports and traces (see report.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "report.h"

#include "symbolize.h"
#include "../common/hash.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Widest thread column in the table; longer cells are cut with "~". */
#define CELL_MAX 36
/* Beyond this many threads a table is unreadable: one row per step. */
#define TABLE_MAX_THREADS 6

/* ---- object names ----------------------------------------------------- */

struct names {
    char (*n)[64];
    uint32_t count;
};

/* A descriptor channel's name: what it is and its descriptors when it
 * was opened, "pipe(3,4)". */
static void fd_name(char *out, size_t n, const struct ravel__object *o)
{
    static const char *const kinds[] = {
        "descriptors", "pipe", "socketpair", "eventfd",
        "socket",      "conn", "epoll",
    };
    const char *k = o->subtype < RAVEL__COUNT(kinds) ? kinds[o->subtype]
                                                     : "fd";
    if (o->subtype == RAVEL__FD_ALL)
        snprintf(out, n, "%s", k);
    else if (o->fd[0] >= 0 && o->fd[1] >= 0)
        snprintf(out, n, "%s(%d,%d)", k, o->fd[0], o->fd[1]);
    else
        snprintf(out, n, "%s(%d)", k, o->fd[0] >= 0 ? o->fd[0] : o->fd[1]);
}

/* Names every object: globals by symbol, heap blocks by their number in
 * the execution, the rest by order of creation. Deterministic. */
static void names_build(struct names *nm, const struct ravel__exec *x)
{
    nm->count = x->nobjects;
    nm->n = calloc(x->nobjects ? x->nobjects : 1, sizeof *nm->n);
    if (!nm->n)
        return;
    uint32_t locals = 0, others = 0;
    for (uint32_t i = 0; i < x->nobjects; i++) {
        const struct ravel__object *o = &x->objects[i];
        char *out = nm->n[i];
        switch (o->origin) {
        case RAVEL__ORIGIN_GLOBAL:
            if (ravel__symbolize_data(o->addr, out, sizeof nm->n[i]))
                continue;
            break;
        case RAVEL__ORIGIN_HEAP:
            if (o->origin_off)
                snprintf(out, sizeof nm->n[i], "heap#%llu+%llu",
                         (unsigned long long)o->origin_seq,
                         (unsigned long long)o->origin_off);
            else
                snprintf(out, sizeof nm->n[i], "heap#%llu",
                         (unsigned long long)o->origin_seq);
            continue;
        case RAVEL__ORIGIN_STACK:
            snprintf(out, sizeof nm->n[i], "local%u", ++locals);
            continue;
        default:
            break;
        }
        if (o->kind == RAVEL__OBJ_FD) {
            fd_name(out, sizeof nm->n[i], o);
            /* A descriptor number is reused after close: keep names
             * apart. */
            unsigned same = 0;
            for (uint32_t k = 0; k < i; k++)
                same += x->objects[k].kind == RAVEL__OBJ_FD &&
                        !strncmp(nm->n[k], out, strlen(out)) &&
                        (nm->n[k][strlen(out)] == 0 ||
                         nm->n[k][strlen(out)] == '#');
            if (same) {
                size_t len = strlen(out);
                snprintf(out + len, sizeof nm->n[i] - len, "#%u", same + 1);
            }
            continue;
        }
        snprintf(out, sizeof nm->n[i], "%s%u", ravel__obj_kind_name(o->kind),
                 ++others);
    }
}

static const char *obj_name(const struct names *nm, uint32_t obj)
{
    if (obj == RAVEL__NONE || !nm->n || obj >= nm->count)
        return "?";
    return nm->n[obj];
}

static const char *thread_name(const struct ravel__exec *x, uint32_t t)
{
    return t < x->nthreads ? x->threads[t].name : "?";
}

/* ---- values ----------------------------------------------------------- */

/*
 * Values read and written by atomics are printed as numbers, except those
 * that look like addresses: those differ from process to process (address
 * space randomisation), which would make traces of one schedule differ.
 * An address of a global or function is printed as &name; any other is
 * numbered by first appearance in the trace (ptr#1, ptr#2 ...), which is
 * the same in every run and replay of the schedule.
 */
#define VALUE_NAMES 64

struct values {
    uint64_t v[VALUE_NAMES];
    unsigned n;
};

static bool looks_like_address(int64_t v)
{
    return v >= (int64_t)1 << 32 || v < -((int64_t)1 << 47);
}

static void value_text(char *buf, size_t n, struct values *vs, int64_t v)
{
    if (!looks_like_address(v)) {
        snprintf(buf, n, "%lld", (long long)v);
        return;
    }
    char sym[64];
    if (ravel__symbolize_addr((uint64_t)v, sym, sizeof sym)) {
        snprintf(buf, n, "&%s", sym);
        return;
    }
    for (unsigned i = 0; i < vs->n; i++) {
        if (vs->v[i] == (uint64_t)v) {
            snprintf(buf, n, "ptr#%u", i + 1);
            return;
        }
    }
    if (vs->n < VALUE_NAMES) {
        vs->v[vs->n++] = (uint64_t)v;
        snprintf(buf, n, "ptr#%u", vs->n);
    } else {
        snprintf(buf, n, "ptr#?");
    }
}

/* ---- one event as text ------------------------------------------------ */

static const char *err_word(int64_t e, uint16_t flags)
{
    if (flags & RAVEL__EV_TIMEDOUT)
        return "timeout";
    if (flags & RAVEL__EV_FAILED)
        return "busy";
    switch (e) {
    case 11: return "EAGAIN";
    case 16: return "EBUSY";
    case 22: return "EINVAL";
    case 35: return "EDEADLK";
    case 75: return "EOVERFLOW";
    default: return "error";
    }
}

static const char *rmw_name(uint32_t aux)
{
    static const char *const n[] = {"exchange",  "fetch_add", "fetch_sub",
                                    "fetch_and", "fetch_or",  "fetch_xor",
                                    "fetch_nand"};
    return aux < RAVEL__COUNT(n) ? n[aux] : "rmw";
}

/* ---- descriptors ------------------------------------------------------ */

static bool fd_kind(uint16_t kind)
{
    return kind >= RAVEL__OP_FD_NEW && kind <= RAVEL__OP_FD_POLL_ALL;
}

/* The descriptor of a read or write event: its end's. */
static int ev_fd(const struct ravel__exec *x, const struct ravel__event *ev)
{
    if (ev->kind != RAVEL__OP_FD_READ && ev->kind != RAVEL__OP_FD_WRITE)
        return (int)ev->value2;
    if (ev->obj >= x->nobjects)
        return -1;
    return x->objects[ev->obj].fd[(ev->flags & RAVEL__EV_END1) ? 1 : 0];
}

/* The stream a read or write event moved units in (see model.h). */
static unsigned ev_stream(const struct ravel__exec *x,
                          const struct ravel__event *ev)
{
    unsigned end = (ev->flags & RAVEL__EV_END1) ? 1 : 0;
    if (x->objects[ev->obj].subtype == RAVEL__FD_EVENTFD)
        return 0;
    return ev->kind == RAVEL__OP_FD_READ ? 1 - end : end;
}

static bool moved(const struct ravel__event *ev)
{
    return !(ev->flags & (RAVEL__EV_ERROR | RAVEL__EV_FAILED |
                          RAVEL__EV_TIMEDOUT)) &&
           ev->value > 0;
}

/*
 * Which writes a read took its units from. Each stream's writes take
 * consecutive, growing ranges of units in the order of their events, so
 * the writes a read overlaps are found by a binary search among that
 * stream's writes. A trace or view of a long execution asks this of
 * every read (a test that fills a loopback socket 7 bytes per send and
 * drains it a byte per read makes millions of each): they build the
 * index once (ravel__report_flow_index), and a call without it scans
 * every earlier event.
 */
struct flow_index {
    const struct ravel__exec *x;
    uint32_t nevents;
    uint32_t *w; /* moved writes by (object, stream, event) */
    uint32_t n;
};
static _Thread_local struct flow_index flow_idx;

static uint64_t flow_key(const struct ravel__exec *x, uint32_t i)
{
    const struct ravel__event *ev = &x->events[i];
    return ((uint64_t)ev->obj << 1) | ev_stream(x, ev);
}

static const struct ravel__exec *flow_sort_x;

static int flow_cmp(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint64_t ki = flow_key(flow_sort_x, i), kj = flow_key(flow_sort_x, j);
    if (ki != kj)
        return ki < kj ? -1 : 1;
    return i < j ? -1 : i > j;
}

static bool flow_write(const struct ravel__exec *x, uint32_t i)
{
    const struct ravel__event *ev = &x->events[i];
    return ev->kind == RAVEL__OP_FD_WRITE && ev->obj < x->nobjects &&
           moved(ev);
}

void ravel__report_flow_index(const struct ravel__exec *x)
{
    ravel__report_flow_release();
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->nevents; i++)
        n += flow_write(x, i);
    uint32_t *w = malloc((n ? n : 1) * sizeof *w);
    if (!w)
        return; /* calls scan, as without an index */
    n = 0;
    for (uint32_t i = 0; i < x->nevents; i++)
        if (flow_write(x, i))
            w[n++] = i;
    flow_sort_x = x; /* reports are made by one thread at a time */
    qsort(w, n, sizeof *w, flow_cmp);
    flow_idx = (struct flow_index){x, x->nevents, w, n};
}

void ravel__report_flow_release(void)
{
    free(flow_idx.w);
    flow_idx = (struct flow_index){0};
}

uint32_t ravel__report_flow(const struct ravel__exec *x, uint32_t e,
                            uint32_t *out, uint32_t max)
{
    const struct ravel__event *r = &x->events[e];
    if (r->kind != RAVEL__OP_FD_READ || !moved(r) || r->obj >= x->nobjects)
        return 0;
    unsigned s = ev_stream(x, r);
    uint64_t lo = (uint64_t)r->value2, hi = lo + (uint64_t)r->value;
    uint32_t k = 0;
    if (flow_idx.w && flow_idx.x == x && flow_idx.nevents == x->nevents) {
        const uint32_t *w = flow_idx.w;
        uint64_t key = ((uint64_t)r->obj << 1) | s;
        /* The first write of the stream that ends after lo. */
        uint32_t a = 0, b = flow_idx.n;
        while (a < b) {
            uint32_t m = a + (b - a) / 2;
            const struct ravel__event *wv = &x->events[w[m]];
            uint64_t km = flow_key(x, w[m]);
            if (km < key || (km == key && (uint64_t)wv->value2 +
                                                  (uint64_t)wv->value <=
                                              lo))
                a = m + 1;
            else
                b = m;
        }
        for (; a < flow_idx.n && k < max && w[a] < e &&
               flow_key(x, w[a]) == key;
             a++) {
            const struct ravel__event *wv = &x->events[w[a]];
            if ((uint64_t)wv->value2 >= hi)
                break;
            out[k++] = w[a];
        }
        return k;
    }
    for (uint32_t i = 0; i < e && k < max; i++) {
        const struct ravel__event *wv = &x->events[i];
        if (wv->kind != RAVEL__OP_FD_WRITE || wv->obj != r->obj ||
            !moved(wv) || ev_stream(x, wv) != s)
            continue;
        uint64_t wl = (uint64_t)wv->value2, wh = wl + (uint64_t)wv->value;
        if (wl < hi && lo < wh)
            out[k++] = i;
    }
    return k;
}

static const char *fd_err(int64_t e)
{
    switch (e) {
    case EAGAIN: return "EAGAIN";
    case EBADF: return "EBADF";
    case EINTR: return "EINTR";
    case EPIPE: return "EPIPE";
    case ECONNREFUSED: return "ECONNREFUSED";
    case ECONNRESET: return "ECONNRESET";
    case ENOTCONN: return "ENOTCONN";
    case EINVAL: return "EINVAL";
    case EINPROGRESS: return "EINPROGRESS";
    default: return "error";
    }
}

/* A descriptor event (done: it ran, with a result; else a pending
 * operation). Short: it fits a trace table's cell. */
static void fd_text(char *buf, size_t n, const struct ravel__exec *x,
                    const struct names *nm, const struct ravel__event *ev,
                    bool done)
{
    const char *op = ravel__op_name(ev->kind);
    int fd = ev_fd(x, ev);
    long long v = (long long)ev->value;
    bool err = ev->flags & RAVEL__EV_ERROR;
    char res[96] = "";
    if (done && (ev->flags & RAVEL__EV_TIMEDOUT))
        snprintf(res, sizeof res, ": timeout");
    else if (done && (ev->flags & RAVEL__EV_FAILED))
        snprintf(res, sizeof res, ": EAGAIN");
    else if (done && err)
        snprintf(res, sizeof res, ": %s", fd_err(v));
    switch (ev->kind) {
    case RAVEL__OP_FD_NEW:
        snprintf(buf, n, "open %s", obj_name(nm, ev->obj));
        return;
    case RAVEL__OP_FD_READ:
        if (done && !res[0] && v == 0) {
            snprintf(buf, n, "read fd%d = 0 (end)", fd);
        } else if (done && !res[0]) {
            uint32_t from[4];
            uint32_t k = ravel__report_flow(x, (uint32_t)(ev - x->events),
                                            from, 4);
            size_t len = (size_t)snprintf(buf, n, "read fd%d = %lld", fd, v);
            for (uint32_t i = 0; i < k && len < n; i++)
                len += (size_t)snprintf(
                    buf + len, n - len, "%s%s", i ? "," : " (from ",
                    thread_name(x, x->events[from[i]].thread));
            if (k && len < n)
                snprintf(buf + len, n - len, ")");
        } else {
            snprintf(buf, n, "read fd%d%s", fd, res);
        }
        return;
    case RAVEL__OP_FD_WRITE:
        if (done && !res[0])
            snprintf(buf, n, "write fd%d = %lld", fd, v);
        else
            snprintf(buf, n, "write fd%d%s", fd, res);
        return;
    case RAVEL__OP_FD_ACCEPT:
        if (done && !res[0])
            snprintf(buf, n, "accept fd%d = fd%lld", fd, v);
        else
            snprintf(buf, n, "accept fd%d%s", fd, res);
        return;
    case RAVEL__OP_FD_CONNECT:
        snprintf(buf, n, "connect fd%d to %s%s", fd, obj_name(nm, ev->obj),
                 res);
        return;
    case RAVEL__OP_FD_POLL:
    case RAVEL__OP_FD_POLL_ALL: {
        const char *what = ev->kind == RAVEL__OP_FD_POLL_ALL
                               ? "every fd"
                               : obj_name(nm, ev->obj);
        /* An epoll_wait: named by its epoll set (value2: its fd). */
        for (uint32_t i = 0; ev->kind == RAVEL__OP_FD_POLL_ALL &&
                             i < x->nobjects && fd >= 0;
             i++) {
            const struct ravel__object *o = &x->objects[i];
            if (o->kind == RAVEL__OBJ_FD && o->subtype == RAVEL__FD_EPOLL &&
                o->fd[0] == fd) {
                if (done && !res[0])
                    snprintf(buf, n, "epoll_wait %s = %lld",
                             obj_name(nm, i), v);
                else
                    snprintf(buf, n, "epoll_wait %s%s", obj_name(nm, i),
                             res);
                return;
            }
        }
        if (done && !res[0])
            snprintf(buf, n, "poll %s = %lld", what, v);
        else
            snprintf(buf, n, "poll %s%s", what, res);
        return;
    }
    default:
        snprintf(buf, n, "%s fd%d%s", op, fd, res);
        return;
    }
}

static void event_text(char *buf, size_t n, const struct ravel__exec *x,
                       const struct names *nm, const struct ravel__event *ev,
                       struct values *vs)
{
    if (fd_kind(ev->kind)) {
        fd_text(buf, n, x, nm, ev, true);
        return;
    }
    const char *op = ravel__op_name(ev->kind);
    const char *o = obj_name(nm, ev->obj);
    bool failed = ev->flags & (RAVEL__EV_FAILED | RAVEL__EV_TIMEDOUT |
                               RAVEL__EV_ERROR);
    long long v = (long long)ev->value;
    char a[80], b[80];
    switch (ev->kind) {
    case RAVEL__OP_START:
    case RAVEL__OP_FINISH:
    case RAVEL__OP_YIELD:
    case RAVEL__OP_SLEEP:
    case RAVEL__OP_FENCE:
        snprintf(buf, n, "%s", op);
        return;
    case RAVEL__OP_CREATE:
        if (failed)
            snprintf(buf, n, "create: %s", err_word(v, ev->flags));
        else
            snprintf(buf, n, "create %s", thread_name(x, ev->aux));
        return;
    case RAVEL__OP_JOIN:
    case RAVEL__OP_TRYJOIN:
    case RAVEL__OP_TIMEDJOIN:
    case RAVEL__OP_DETACH:
        if (failed)
            snprintf(buf, n, "%s %s: %s", op, thread_name(x, ev->obj),
                     err_word(v, ev->flags));
        else
            snprintf(buf, n, "%s %s", op, thread_name(x, ev->obj));
        return;
    case RAVEL__OP_EXIT:
        snprintf(buf, n, "exit(%lld)", v);
        return;
    case RAVEL__OP_SECTION:
        /* One object for every section: its name says nothing. */
        snprintf(buf, n, "%s", (ev->flags & RAVEL__EV_FAILED)
                                   ? "atomic_begin: assumption false, "
                                     "rolled back"
                                   : "atomic_begin");
        return;
    case RAVEL__OP_COND_WAIT:
    case RAVEL__OP_COND_TIMEDWAIT:
        snprintf(buf, n, "%s %s, unlock %s", op, o, obj_name(nm, ev->aux));
        return;
    case RAVEL__OP_COND_WAKE:
        if (failed)
            snprintf(buf, n, "wake %s: timeout, lock %s", o,
                     obj_name(nm, ev->aux));
        else
            snprintf(buf, n, "wake %s, lock %s", o, obj_name(nm, ev->aux));
        return;
    case RAVEL__OP_COND_SIGNAL:
        if (ev->aux != RAVEL__NONE)
            snprintf(buf, n, "signal %s -> %s", o, thread_name(x, ev->aux));
        else
            snprintf(buf, n, "signal %s (no waiter)", o);
        return;
    case RAVEL__OP_COND_BROADCAST:
        snprintf(buf, n, "broadcast %s (%lld waiting)", o, v);
        return;
    case RAVEL__OP_SEM_WAIT:
    case RAVEL__OP_SEM_TRYWAIT:
    case RAVEL__OP_SEM_TIMEDWAIT:
    case RAVEL__OP_SEM_POST:
        if (failed)
            snprintf(buf, n, "%s %s: %s", op, o, err_word(v, ev->flags));
        else
            snprintf(buf, n, "%s %s (now %lld)", op, o, v);
        return;
    case RAVEL__OP_SEM_GETVALUE:
        snprintf(buf, n, "%s %s = %lld", op, o, v);
        return;
    case RAVEL__OP_BARRIER_WAIT:
        snprintf(buf, n, "%s %s%s", op, o,
                 (ev->flags & RAVEL__EV_SERIAL) ? " (last)" : "");
        return;
    case RAVEL__OP_ONCE:
        snprintf(buf, n, "once %s%s", o, v ? " (runs init)" : " (done)");
        return;
    case RAVEL__OP_ATOMIC_LOAD:
        value_text(a, sizeof a, vs, ev->value);
        snprintf(buf, n, "%sload %s = %s",
                 (ev->flags & RAVEL__EV_VOLATILE) ? "volatile " : "", o, a);
        return;
    case RAVEL__OP_ATOMIC_STORE:
        if (ev->flags & RAVEL__EV_VOLATILE) {
            snprintf(buf, n, "volatile store %s", o);
            return;
        }
        value_text(a, sizeof a, vs, ev->value);
        snprintf(buf, n, "store %s := %s", o, a);
        return;
    case RAVEL__OP_PLAIN_READ:
        value_text(a, sizeof a, vs, ev->value);
        snprintf(buf, n, "read %s = %s", o, a);
        return;
    case RAVEL__OP_FLUSH: /* --memory-model tso */
        value_text(a, sizeof a, vs, ev->value);
        snprintf(buf, n, "flush %s := %s", o, a);
        return;
    case RAVEL__OP_ATOMIC_RMW:
        value_text(a, sizeof a, vs, ev->value);
        value_text(b, sizeof b, vs, ev->value2);
        snprintf(buf, n, "%s %s %s -> %s", rmw_name(ev->aux), o, a, b);
        return;
    case RAVEL__OP_ATOMIC_CAS:
        value_text(a, sizeof a, vs, ev->value);
        value_text(b, sizeof b, vs, ev->value2);
        if (ev->aux)
            snprintf(buf, n, "cas %s %s -> %s", o, a, b);
        else
            snprintf(buf, n, "cas %s: saw %s, wanted %s", o, a, b);
        return;
    default:
        if (failed)
            snprintf(buf, n, "%s %s: %s", op, o, err_word(v, ev->flags));
        else
            snprintf(buf, n, "%s %s", op, o);
        return;
    }
}

/* ---- locations -------------------------------------------------------- */

/* Symbolizes every distinct pc of the events once; frames[i] for event i
 * (NULL when the event has no location). */
struct event_locs {
    uint64_t *pcs;
    struct ravel__frame *frames;
    size_t n;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void locs_build(struct event_locs *l, const struct ravel__exec *x,
                       uint32_t from, uint32_t to)
{
    memset(l, 0, sizeof *l);
    size_t n = to - from;
    uint64_t *keys = calloc(n ? n : 1, sizeof *keys);
    if (!keys)
        return;
    size_t k = 0;
    for (uint32_t i = from; i < to; i++) {
        const struct ravel__event *ev = &x->events[i];
        if (ev->pc)
            keys[k++] = ev->pc | (ev->flags & RAVEL__EV_EXACT_PC ? 1ULL << 63
                                                                  : 0);
    }
    qsort(keys, k, sizeof *keys, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (u == 0 || keys[u - 1] != keys[i])
            keys[u++] = keys[i];
    uint64_t *pcs = calloc(u ? u : 1, sizeof *pcs);
    bool *exact = calloc(u ? u : 1, sizeof *exact);
    l->frames = calloc(u ? u : 1, sizeof *l->frames);
    if (!pcs || !exact || !l->frames) {
        free(keys);
        free(pcs);
        free(exact);
        free(l->frames);
        l->frames = NULL;
        return;
    }
    for (size_t i = 0; i < u; i++) {
        pcs[i] = keys[i] & ~(1ULL << 63);
        exact[i] = keys[i] >> 63;
    }
    ravel__symbolize(pcs, exact, u, l->frames);
    free(pcs);
    free(exact);
    l->pcs = keys;
    l->n = u;
}

static const struct ravel__frame *locs_get(const struct event_locs *l,
                                           const struct ravel__event *ev)
{
    if (!ev->pc || !l->frames)
        return NULL;
    uint64_t key =
        ev->pc | (ev->flags & RAVEL__EV_EXACT_PC ? 1ULL << 63 : 0);
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (l->pcs[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->pcs[lo] == key ? &l->frames[lo] : NULL;
}

static void locs_free(struct event_locs *l)
{
    free(l->pcs);
    free(l->frames);
}

static void short_loc(char *buf, size_t n, const struct ravel__frame *f)
{
    if (!f) {
        buf[0] = 0;
    } else if (f->line) {
        snprintf(buf, n, "%s %s:%u", f->func, ravel__basename(f->file),
                 f->line);
    } else {
        snprintf(buf, n, "%s", f->func);
    }
}

/* ---- the trace -------------------------------------------------------- */

uint32_t ravel__report_preemptions(const struct ravel__exec *x)
{
    uint32_t p = 0;
    for (uint32_t i = 0; i < x->nevents; i++)
        if (x->events[i].flags & RAVEL__EV_PREEMPT)
            p++;
    return p;
}

/* Up to this many steps, a run is written with one '-' per extra step;
 * longer runs as "-{N}". */
#define DASHES_MAX 16

static void compact(struct ravel__strbuf *sb, const struct ravel__exec *x,
                    uint32_t max_runs)
{
    uint32_t runs = 0;
    for (uint32_t i = 0; i < x->nevents;) {
        uint32_t j = i + 1;
        while (j < x->nevents && x->events[j].thread == x->events[i].thread)
            j++;
        if (max_runs && runs == max_runs) {
            uint32_t left = 0;
            for (uint32_t k = i; k < x->nevents; k++)
                left += k == i || x->events[k].thread != x->events[k - 1].thread;
            ravel__sb_printf(sb, " ... (%u more runs)", left);
            return;
        }
        if (i)
            ravel__sb_addc(sb, ' ');
        ravel__sb_addc(sb,
                       (x->events[i].flags & RAVEL__EV_PREEMPT) ? 'P' : 'S');
        ravel__sb_add(sb, thread_name(x, x->events[i].thread));
        if (j - i - 1 <= DASHES_MAX)
            ravel__sb_pad(sb, '-', j - i - 1);
        else
            ravel__sb_printf(sb, "-{%u}", j - i - 1);
        runs++;
        i = j;
    }
}

void ravel__report_compact(struct ravel__strbuf *sb,
                           const struct ravel__exec *x)
{
    compact(sb, x, 0);
}

static void put_cell(struct ravel__strbuf *sb, const char *text, size_t width,
                     bool last)
{
    size_t len = strlen(text);
    if (len > width) {
        ravel__sb_addn(sb, text, width - 1);
        ravel__sb_addc(sb, '~');
        len = width;
    } else {
        ravel__sb_add(sb, text);
    }
    if (!last)
        ravel__sb_pad(sb, ' ', width - len + 2);
}

/* ---- folding repeated steps ------------------------------------------ */

size_t ravel__report_fold(const uint64_t *key, const bool *pinned, size_t n,
                          struct ravel__fold **out)
{
    *out = NULL;
    size_t nf = 0, cap = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t best_p = 0, best_r = 0;
        for (uint32_t p = 1; p <= RAVEL__FOLD_PERIOD && i + 2 * p <= n; p++) {
            uint32_t r = 1;
            for (;;) {
                size_t b = i + (size_t)r * p;
                if (b + p > n)
                    break;
                bool same = true;
                for (uint32_t k = 0; k < p && same; k++)
                    same = key[b + k] == key[i + k] &&
                           !(pinned && pinned[b + k]);
                if (!same)
                    break;
                r++;
            }
            if (r >= RAVEL__FOLD_REPS &&
                (uint64_t)r * p > (uint64_t)best_r * best_p) {
                best_p = p;
                best_r = r;
            }
        }
        if (!best_p) {
            i++;
            continue;
        }
        if (nf == cap) {
            size_t nc = cap ? cap * 2 : 16;
            struct ravel__fold *nv = realloc(*out, nc * sizeof *nv);
            if (!nv)
                return nf;
            *out = nv;
            cap = nc;
        }
        (*out)[nf++] = (struct ravel__fold){(uint32_t)i, best_p, best_r};
        i += (size_t)best_p * best_r;
    }
    return nf;
}

/* What a step of the trace table shows, for comparing steps. */
static uint64_t step_key(const struct ravel__exec *x, const struct names *nm,
                         uint32_t i, struct values *vs)
{
    char cell[400];
    const struct ravel__event *ev = &x->events[i];
    event_text(cell, sizeof cell, x, nm, ev, vs);
    uint64_t h = ravel__fnv1a(cell, strlen(cell), RAVEL__FNV_INIT);
    h = ravel__fnv1a(&ev->thread, sizeof ev->thread, h);
    return ravel__fnv1a(&ev->pc, sizeof ev->pc, h);
}

/* A row of the table: an event, or the line standing for the folded
 * repetitions of a block (its first copy is shown as rows). */
struct row {
    uint32_t event;     /* first event */
    uint32_t fold;      /* index into folds, or RAVEL__NONE for an event */
};

/* "steps 121-99,800: thread 1.2 repeats `load flag; load turn` 49,840
 * more times" (numbers grouped by thousands). */
static void group_num(char *buf, size_t n, uint64_t v)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = 0;
}

static void put_fold_line(struct ravel__strbuf *sb, const struct ravel__exec *x,
                          const struct names *nm, const struct ravel__fold *f,
                          int stepw)
{
    uint32_t first = f->start + f->period, last = f->start +
                                                 f->period * f->reps - 1;
    char a[32], b[32], c[32];
    group_num(a, sizeof a, first + 1);
    group_num(b, sizeof b, last + 1);
    group_num(c, sizeof c, f->reps - 1);
    /* Which threads the block runs in, in order of appearance. */
    uint32_t th[RAVEL__FOLD_PERIOD], nt = 0;
    for (uint32_t k = 0; k < f->period; k++) {
        uint32_t t = x->events[f->start + k].thread, j = 0;
        while (j < nt && th[j] != t)
            j++;
        if (j == nt)
            th[nt++] = t;
    }
    ravel__sb_printf(sb, "  %*s  steps %s-%s: thread%s ", stepw, "...", a, b,
                     nt == 1 ? "" : "s");
    for (uint32_t j = 0; j < nt; j++)
        ravel__sb_printf(sb, "%s%s", j ? ", " : "", thread_name(x, th[j]));
    ravel__sb_printf(sb, " repeat%s `", nt == 1 ? "s" : "");
    struct values vs = {.n = 0};
    char cell[400];
    for (uint32_t k = 0; k < f->period; k++) {
        event_text(cell, sizeof cell, x, nm, &x->events[f->start + k], &vs);
        ravel__sb_printf(sb, "%s%s", k ? "; " : "", cell);
    }
    ravel__sb_printf(sb, "` %s more time%s\n", c, f->reps == 2 ? "" : "s");
}

static void put_weak(struct ravel__strbuf *sb, const struct ravel__exec *x,
                     const struct names *nm);

void ravel__report_trace(struct ravel__strbuf *sb, const struct ravel__exec *x,
                         uint32_t max_rows)
{
    struct names nm;
    names_build(&nm, x);
    uint32_t nev = x->nevents;
    ravel__report_flow_index(x);
    /* Fold repeated blocks of steps (spin loops, a producer and consumer
     * passing the same lock back and forth); the last step, where the
     * execution ended, is never folded away. */
    uint64_t *key = malloc((nev ? nev : 1) * sizeof *key);
    bool *pin = calloc(nev ? nev : 1, sizeof *pin);
    struct ravel__fold *folds = NULL;
    size_t nfolds = 0;
    if (key && pin) {
        struct values kv = {.n = 0};
        for (uint32_t i = 0; i < nev; i++)
            key[i] = step_key(x, &nm, i, &kv);
        if (nev)
            pin[nev - 1] = true;
        nfolds = ravel__report_fold(key, pin, nev, &folds);
    }
    free(key);
    free(pin);
    struct row *rows = malloc(((size_t)nev + 1) * sizeof *rows);
    uint32_t nrows = 0;
    if (!rows) {
        ravel__report_flow_release();
        free(folds);
        free(nm.n);
        return;
    }
    size_t fi = 0;
    for (uint32_t i = 0; i < nev;) {
        if (fi < nfolds && folds[fi].start == i) {
            const struct ravel__fold *f = &folds[fi];
            for (uint32_t k = 0; k < f->period; k++)
                rows[nrows++] = (struct row){i + k, RAVEL__NONE};
            rows[nrows++] = (struct row){i + f->period, (uint32_t)fi};
            i += f->period * f->reps;
            fi++;
            continue;
        }
        rows[nrows++] = (struct row){i, RAVEL__NONE};
        i++;
    }
    uint32_t r0 = 0;
    if (max_rows && nrows > max_rows)
        r0 = nrows - max_rows;
    uint32_t from = r0 < nrows ? rows[r0].event : nev;
    struct event_locs locs;
    locs_build(&locs, x, from, nev);

    uint32_t nthreads = x->nthreads;
    ravel__sb_printf(sb, "Interleaving: %u step%s, %u thread%s, %u "
                     "preemption%s\n",
                     nev, nev == 1 ? "" : "s", nthreads,
                     nthreads == 1 ? "" : "s", ravel__report_preemptions(x),
                     ravel__report_preemptions(x) == 1 ? "" : "s");
    if (from)
        ravel__sb_printf(sb, "  (the first %u steps are not shown)\n", from);

    char cell[400], loc[300];
    int stepw = snprintf(NULL, 0, "%u", nev);
    if (stepw < 4)
        stepw = 4;
    struct values vs = {.n = 0};
    bool table = nthreads <= TABLE_MAX_THREADS;
    size_t width[TABLE_MAX_THREADS];
    size_t tw = 6;
    if (table) {
        for (uint32_t t = 0; t < nthreads; t++)
            width[t] = strlen(x->threads[t].name);
        for (uint32_t r = r0; r < nrows; r++) {
            if (rows[r].fold != RAVEL__NONE)
                continue;
            const struct ravel__event *ev = &x->events[rows[r].event];
            event_text(cell, sizeof cell, x, &nm, ev, &vs);
            size_t l = strlen(cell);
            if (l > CELL_MAX)
                l = CELL_MAX;
            if (l > width[ev->thread])
                width[ev->thread] = l;
        }
        ravel__sb_printf(sb, "  %*s  ", stepw, "step");
        for (uint32_t t = 0; t < nthreads; t++)
            put_cell(sb, x->threads[t].name, width[t], false);
        ravel__sb_add(sb, "location\n");
        vs.n = 0;
    } else {
        for (uint32_t t = 0; t < nthreads; t++)
            if (strlen(x->threads[t].name) > tw)
                tw = strlen(x->threads[t].name);
        ravel__sb_printf(sb, "  %*s  %-*s  %-*s  location\n", stepw, "step",
                         (int)tw, "thread", CELL_MAX, "operation");
    }
    for (uint32_t r = r0; r < nrows; r++) {
        if (rows[r].fold != RAVEL__NONE) {
            put_fold_line(sb, x, &nm, &folds[rows[r].fold], stepw);
            continue;
        }
        uint32_t i = rows[r].event;
        const struct ravel__event *ev = &x->events[i];
        event_text(cell, sizeof cell, x, &nm, ev, &vs);
        short_loc(loc, sizeof loc, locs_get(&locs, ev));
        if (table) {
            ravel__sb_printf(sb, "  %*u  ", stepw, i + 1);
            for (uint32_t t = 0; t < nthreads; t++)
                put_cell(sb, t == ev->thread ? cell : "", width[t], false);
        } else {
            ravel__sb_printf(sb, "  %*u  %-*s  ", stepw, i + 1, (int)tw,
                             thread_name(x, ev->thread));
            put_cell(sb, cell, CELL_MAX, false);
        }
        ravel__sb_add(sb, loc);
        while (sb->len && sb->data[sb->len - 1] == ' ')
            sb->data[--sb->len] = 0;
        ravel__sb_addc(sb, '\n');
    }
    ravel__sb_add(sb, "Schedule: ");
    /* A report shows the schedule's first runs; a trace file all of it. */
    compact(sb, x, max_rows ? 400 : 0);
    ravel__sb_addc(sb, '\n');
    put_weak(sb, x, &nm);
    locs_free(&locs);
    ravel__report_flow_release();
    free(rows);
    free(folds);
    free(nm.n);
}

void ravel__report_steps(const struct ravel__exec *x, uint32_t from,
                         uint32_t to, ravel__report_step_fn fn, void *ctx)
{
    if (to > x->nevents)
        to = x->nevents;
    if (from >= to)
        return;
    struct names nm;
    names_build(&nm, x);
    struct event_locs locs;
    locs_build(&locs, x, from, to);
    struct values vs = {.n = 0};
    char cell[400];
    for (uint32_t i = from; i < to; i++) {
        const struct ravel__event *ev = &x->events[i];
        event_text(cell, sizeof cell, x, &nm, ev, &vs);
        fn(ctx, i, cell, locs_get(&locs, ev));
    }
    locs_free(&locs);
    free(nm.n);
}

/* ---- stacks ----------------------------------------------------------- */

/* A thread's call stack, innermost first: the pc of the operation it is
 * at, then the call sites recorded by the function-entry hooks. */
static size_t thread_stack(const struct ravel__thread *th, uint64_t pc,
                           uint64_t *out, size_t max)
{
    size_t n = 0;
    if (pc)
        out[n++] = pc;
    uint64_t d = th->depth;
    uint64_t keep = d < RAVEL__STACK_FRAMES ? d : RAVEL__STACK_FRAMES;
    for (uint64_t k = 0; k < keep && n < max; k++)
        out[n++] = th->frames[(d - 1 - k) % RAVEL__STACK_FRAMES];
    return n;
}

/* Prints frames, hiding ravel's own; stops at the first runtime frame
 * after a program frame (the thread's entry from ravel). */
static void put_stack(struct ravel__strbuf *sb, const uint64_t *pcs,
                      size_t n, bool first_exact, const char *indent)
{
    if (n == 0) {
        ravel__sb_printf(sb, "%s#0 (no stack recorded)\n", indent);
        return;
    }
    struct ravel__frame *f = calloc(n, sizeof *f);
    bool *exact = calloc(n, sizeof *exact);
    if (!f || !exact) {
        free(f);
        free(exact);
        return;
    }
    exact[0] = first_exact;
    ravel__symbolize(pcs, exact, n, f);
    unsigned k = 0;
    bool seen_user = false;
    for (size_t i = 0; i < n; i++) {
        if (f[i].runtime) {
            if (seen_user)
                break;
            continue;
        }
        seen_user = true;
        if (!strcmp(f[i].func, "__libc_start_call_main") ||
            !strcmp(f[i].func, "__libc_start_main_impl"))
            break;
        if (f[i].line)
            ravel__sb_printf(sb, "%s#%u %s %s:%u\n", indent, k++, f[i].func,
                             ravel__display_path(f[i].file), f[i].line);
        else
            ravel__sb_printf(sb, "%s#%u %s (0x%llx)\n", indent, k++,
                             f[i].func, (unsigned long long)f[i].pc);
        /* Deep recursion: one line for a run of identical frames. */
        size_t same = 0;
        while (i + 1 + same < n && f[i + 1 + same].pc == f[i].pc)
            same++;
        if (same > 1) {
            ravel__sb_printf(sb, "%s   ... the same frame %zu more time%s\n",
                             indent, same, same == 1 ? "" : "s");
            k += (unsigned)same;
            i += same;
        }
    }
    if (k == 0)
        ravel__sb_printf(sb, "%s#0 (no frame in the program)\n", indent);
    free(f);
    free(exact);
}

static void put_thread_stack(struct ravel__strbuf *sb,
                             const struct ravel__exec *x, uint32_t t,
                             uint64_t pc)
{
    uint64_t pcs[RAVEL__STACK_FRAMES + 1];
    size_t n = thread_stack(&x->threads[t], pc, pcs, RAVEL__COUNT(pcs));
    put_stack(sb, pcs, n, false, "    ");
}

static void put_creation(struct ravel__strbuf *sb, const struct ravel__exec *x,
                         uint32_t t)
{
    const struct ravel__thread *th = &x->threads[t];
    if (th->parent == RAVEL__NONE) {
        ravel__sb_add(sb, "  thread 1 is the program's main thread\n");
        return;
    }
    struct ravel__frame f;
    memset(&f, 0, sizeof f);
    if (th->create_event < x->nevents)
        ravel__symbolize1(x->events[th->create_event].pc, false, &f);
    if (f.line)
        ravel__sb_printf(sb, "  thread %s was created by thread %s at %s "
                         "%s:%u\n",
                         th->name, thread_name(x, th->parent), f.func,
                         ravel__display_path(f.file), f.line);
    else
        ravel__sb_printf(sb, "  thread %s was created by thread %s\n",
                         th->name, thread_name(x, th->parent));
}

/* ---- data races ------------------------------------------------------- */

static const char *access_word(const struct ravel__race_access *a, bool cap)
{
    if (a->freed)
        return cap ? "Free" : "free";
    if (a->atomic)
        return a->write ? (cap ? "Atomic write" : "atomic write")
                        : (cap ? "Atomic read" : "atomic read");
    if (a->write)
        return cap ? "Write" : "write";
    return cap ? "Read" : "read";
}

/* The two accesses, where the memory came from, and the threads, in the
 * shape ThreadSanitizer's reports have. */
static void put_race(struct ravel__strbuf *sb, const struct ravel__exec *x)
{
    const struct ravel__race *r = &x->race;
    const struct ravel__race_access *a[2] = {&r->cur, &r->prev};
    for (int i = 0; i < 2; i++) {
        ravel__sb_printf(sb, "  %s%s of size %llu at 0x%llx by thread %s:\n",
                         i ? "Previous " : "", access_word(a[i], i == 0),
                         (unsigned long long)a[i]->size,
                         (unsigned long long)a[i]->addr,
                         thread_name(x, a[i]->thread));
        put_stack(sb, a[i]->frames, a[i]->nframes, false, "    ");
    }
    char name[160];
    switch (r->origin) {
    case RAVEL__ORIGIN_GLOBAL:
        if (ravel__symbolize_data(r->cur.addr, name, sizeof name))
            ravel__sb_printf(sb, "  Location is global '%s' at 0x%llx\n",
                             name, (unsigned long long)r->cur.addr);
        else
            ravel__sb_printf(sb, "  Location is a global at 0x%llx\n",
                             (unsigned long long)r->cur.addr);
        break;
    case RAVEL__ORIGIN_HEAP:
        ravel__sb_printf(sb, "  Location is heap block heap#%llu of size %llu "
                             "at 0x%llx (offset %llu), allocated by "
                             "thread %s:\n",
                         (unsigned long long)r->block_seq,
                         (unsigned long long)r->block_size,
                         (unsigned long long)r->block,
                         (unsigned long long)(r->cur.addr - r->block),
                         r->alloc_thread == RAVEL__NONE
                             ? "(none: before main)"
                             : thread_name(x, r->alloc_thread));
        put_stack(sb, r->alloc_frames, r->alloc_nframes, false, "    ");
        break;
    case RAVEL__ORIGIN_STACK:
        ravel__sb_printf(sb, "  Location is the stack of thread %s\n",
                         thread_name(x, r->stack_thread));
        break;
    default:
        ravel__sb_printf(sb, "  Location is memory at 0x%llx of unknown "
                             "origin\n",
                         (unsigned long long)r->cur.addr);
        break;
    }
    uint32_t shown[2] = {RAVEL__NONE, RAVEL__NONE};
    for (int i = 0; i < 2; i++) {
        uint32_t t = a[i]->thread;
        if (t >= x->nthreads || t == shown[0])
            continue;
        shown[i] = t;
        put_creation(sb, x, t);
    }
}

uint32_t ravel__report_promoted(const struct ravel__exec *x)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < x->nevents; i++)
        n += x->events[i].kind == RAVEL__OP_PLAIN_READ ||
             x->events[i].kind == RAVEL__OP_PLAIN_WRITE;
    return n;
}

/* Race-directed scheduling: which racing lines were scheduling points in
 * this execution, so that the reader links the failure to the race. */
static void put_promoted(struct ravel__strbuf *sb, const struct ravel__exec *x)
{
    if (!ravel__report_promoted(x))
        return;
    ravel__sb_add(sb, "  race-directed: the racing accesses at");
    char seen[8][300];
    unsigned nseen = 0;
    for (uint32_t i = 0; i < x->nevents && nseen < 8; i++) {
        const struct ravel__event *ev = &x->events[i];
        if (ev->kind != RAVEL__OP_PLAIN_READ &&
            ev->kind != RAVEL__OP_PLAIN_WRITE)
            continue;
        struct ravel__frame f;
        ravel__symbolize1(ev->pc, false, &f);
        char loc[300];
        if (f.line)
            snprintf(loc, sizeof loc, "%s:%u",
                     ravel__basename(f.file), f.line);
        else
            snprintf(loc, sizeof loc, "0x%llx", (unsigned long long)ev->pc);
        unsigned k = 0;
        while (k < nseen && strcmp(seen[k], loc))
            k++;
        if (k < nseen)
            continue;
        snprintf(seen[nseen++], sizeof seen[0], "%s", loc);
        ravel__sb_printf(sb, " %s", loc);
    }
    ravel__sb_add(sb, " were scheduling\n  points in this "
                      "execution: this failure is what the data race "
                      "can do\n");
}

/* "file:line" of a code address, or the address. */
static void code_loc(char *buf, size_t n, uint64_t pc)
{
    struct ravel__frame f;
    ravel__symbolize1(pc, false, &f);
    if (f.line)
        snprintf(buf, n, "%s:%u", ravel__basename(f.file), f.line);
    else
        snprintf(buf, n, "0x%llx", (unsigned long long)pc);
}

/*
 * --memory-model tso: the loads of the execution that read memory while
 * another thread's store to the same location waited in that thread's
 * store buffer (src/rt/tso.c flags them), each with the store it did not
 * see and why it could not: these are the steps sequential consistency
 * does not allow.
 */
/* The memory order an atomic event's flags keep, in words. */
static const char *order_word(const struct ravel__event *ev)
{
    uint16_t f = ev->flags & (RAVEL__EV_ACQUIRE | RAVEL__EV_RELEASE);
    if (f == (RAVEL__EV_ACQUIRE | RAVEL__EV_RELEASE))
        return "acq_rel or seq_cst";
    return f == RAVEL__EV_ACQUIRE   ? "acquire"
           : f == RAVEL__EV_RELEASE ? "release"
                                    : "relaxed";
}

/* Does thread t make an acquire (or stronger) fence between events a and
 * b? */
static bool acquire_fence_between(const struct ravel__exec *x, uint32_t t,
                                  uint32_t a, uint32_t b)
{
    for (uint32_t k = a + 1; k < b && k < x->nevents; k++)
        if (x->events[k].thread == t && x->events[k].kind == RAVEL__OP_FENCE &&
            (x->events[k].flags & RAVEL__EV_ACQUIRE))
            return true;
    return false;
}

static bool release_fence_between(const struct ravel__exec *x, uint32_t t,
                                  uint32_t a, uint32_t b)
{
    for (uint32_t k = a + 1; k < b && k < x->nevents; k++)
        if (x->events[k].thread == t && x->events[k].kind == RAVEL__OP_FENCE &&
            (x->events[k].flags & RAVEL__EV_RELEASE))
            return true;
    return false;
}

/*
 * --memory-model rc11: the loads that did not read the newest store of
 * their location (src/rt/rc11.c flags them, with the store read and the
 * newest one), each with why RC11 allows it. The reason named is the
 * one the trace shows: an earlier load of the same thread that read a
 * later store of the writer's thread but made no synchronisation (it or
 * the store it read being relaxed); otherwise that nothing connects the
 * two threads by happens-before.
 */
static void put_weak_rc11(struct ravel__strbuf *sb, const struct ravel__exec *x,
                          const struct names *nm)
{
    uint32_t shown = 0, more = 0;
    for (uint32_t i = 0; i < x->nevents; i++) {
        const struct ravel__event *ld = &x->events[i];
        if (ld->kind != RAVEL__OP_ATOMIC_LOAD ||
            !(ld->flags & RAVEL__EV_STALE) || ld->value2 < 0 ||
            (uint64_t)ld->value2 >= i)
            continue;
        if (shown == 8) {
            more++;
            continue;
        }
        uint32_t j = (uint32_t)ld->value2;
        const struct ravel__event *nw = &x->events[j];
        if (!shown++)
            ravel__sb_add(sb, "Weak memory (RC11): loads that did not read "
                              "the newest store to their location\n");
        char lloc[300], nloc[300], what[400];
        code_loc(lloc, sizeof lloc, ld->pc);
        code_loc(nloc, sizeof nloc, nw->pc);
        if (ld->aux < i) {
            char rloc[300];
            code_loc(rloc, sizeof rloc, x->events[ld->aux].pc);
            snprintf(what, sizeof what,
                     "thread %s's store of %lld at %s (step %u, %s)",
                     thread_name(x, x->events[ld->aux].thread),
                     (long long)x->events[ld->aux].value, rloc, ld->aux + 1,
                     order_word(&x->events[ld->aux]));
        } else {
            snprintf(what, sizeof what, "the initial value");
        }
        ravel__sb_printf(
            sb,
            "  step %u: thread %s's load of %s at %s (%s) read %lld, from %s, "
            "although thread %s's store of %lld at %s (step %u, %s) is "
            "later in %s's modification order and was made before it. ",
            i + 1, thread_name(x, ld->thread), obj_name(nm, ld->obj), lloc,
            order_word(ld), (long long)ld->value, what,
            thread_name(x, nw->thread), (long long)nw->value, nloc, j + 1,
            order_word(nw), obj_name(nm, ld->obj));
        /* An earlier load of this thread that read a later store of the
         * newest store's thread, without synchronising. */
        bool said = false;
        for (uint32_t k = i; k-- > 0 && !said;) {
            const struct ravel__event *e = &x->events[k];
            if (e->thread != ld->thread || e->kind != RAVEL__OP_ATOMIC_LOAD ||
                !(e->flags & RAVEL__EV_STALE ? e->aux < k : false))
                continue;
            const struct ravel__event *w = &x->events[e->aux];
            if (w->thread != nw->thread || e->aux <= j)
                continue;
            char eloc[300], wloc[300];
            code_loc(eloc, sizeof eloc, e->pc);
            code_loc(wloc, sizeof wloc, w->pc);
            bool acq = (e->flags & RAVEL__EV_ACQUIRE) ||
                       acquire_fence_between(x, ld->thread, k, i);
            bool rel = (w->flags & RAVEL__EV_RELEASE) ||
                       release_fence_between(x, w->thread, j, e->aux);
            if (!acq || !rel) {
                ravel__sb_printf(
                    sb,
                    "RC11 allows it: the earlier load of %s at %s (step %u) "
                    "read the store at %s (step %u), made after that store, "
                    "but %s, so no synchronisation carried the store to "
                    "this load.\n",
                    obj_name(nm, e->obj), eloc, k + 1, wloc, e->aux + 1,
                    !acq ? "that load is relaxed and no acquire fence "
                           "follows it"
                         : "the store it read is relaxed and no release "
                           "fence precedes it");
                said = true;
            }
        }
        if (!said)
            ravel__sb_add(sb,
                          "RC11 allows it: no happens-before path (release/"
                          "acquire synchronisation, seq_cst order, thread "
                          "creation or join, a lock) leads from that store to "
                          "the load, so the load may read any store of the "
                          "location not older than what its thread had "
                          "seen.\n");
    }
    if (more)
        ravel__sb_printf(sb, "  ... and %u more such load%s\n", more,
                         more == 1 ? "" : "s");
}

static void put_weak(struct ravel__strbuf *sb, const struct ravel__exec *x,
                     const struct names *nm)
{
    if (x->memory_model == RAVEL__MM_RC11) {
        put_weak_rc11(sb, x, nm);
        return;
    }
    uint32_t shown = 0, more = 0;
    for (uint32_t i = 0; i < x->nevents; i++) {
        const struct ravel__event *ld = &x->events[i];
        if (!(ld->flags & RAVEL__EV_STALE) || ld->aux >= i)
            continue;
        if (shown == 8) {
            more++;
            continue;
        }
        const struct ravel__event *st = &x->events[ld->aux];
        uint32_t flushed = RAVEL__NONE;
        for (uint32_t k = i + 1; k < x->nevents && flushed == RAVEL__NONE;
             k++)
            if (x->events[k].kind == RAVEL__OP_FLUSH &&
                x->events[k].value2 == (int64_t)ld->aux)
                flushed = k;
        if (!shown++)
            ravel__sb_add(sb, "Weak memory (x86-TSO): loads that did not see "
                              "a store made before them\n");
        char lloc[300], sloc[300], when[64];
        code_loc(lloc, sizeof lloc, ld->pc);
        code_loc(sloc, sizeof sloc, st->pc);
        if (flushed != RAVEL__NONE)
            snprintf(when, sizeof when, "written to memory at step %u",
                     flushed + 1);
        else
            snprintf(when, sizeof when, "never written to memory");
        ravel__sb_printf(
            sb,
            "  step %u: thread %s's load of %s at %s read %lld from memory, "
            "while thread %s's store of %lld at %s (step %u) was still in "
            "that thread's store buffer (%s). The store is %s: on x86 a "
            "plain mov, which may wait in the buffer while its thread's "
            "later loads go ahead; a seq_cst store or a seq_cst fence after "
            "it drains the buffer first.\n",
            i + 1, thread_name(x, ld->thread), obj_name(nm, ld->obj), lloc,
            (long long)ld->value, thread_name(x, st->thread),
            (long long)st->value, sloc, ld->aux + 1, when,
            (st->flags & RAVEL__EV_RELEASE) ? "release" : "relaxed");
    }
    if (more)
        ravel__sb_printf(sb, "  ... and %u more such load%s\n", more,
                         more == 1 ? "" : "s");
}

/*
 * What the race did, when the promoted accesses show it: a *lost update*
 * is a thread reading a location, another thread writing it, then the
 * first writing it (with what it computed from its stale read) without
 * having looked again. Said only when the trace has that shape.
 */
static void put_race_effect(struct ravel__strbuf *sb,
                            const struct ravel__exec *x,
                            const struct names *nm)
{
    for (uint32_t i = 0; i < x->nevents; i++) {
        const struct ravel__event *r = &x->events[i];
        if (r->kind != RAVEL__OP_PLAIN_READ)
            continue;
        const struct ravel__event *other = NULL;
        for (uint32_t k = i + 1; k < x->nevents; k++) {
            const struct ravel__event *e = &x->events[k];
            if (e->obj != r->obj || (e->kind != RAVEL__OP_PLAIN_READ &&
                                     e->kind != RAVEL__OP_PLAIN_WRITE))
                continue;
            if (e->thread != r->thread) {
                if (e->kind == RAVEL__OP_PLAIN_WRITE && !other)
                    other = e;
                continue;
            }
            if (e->kind == RAVEL__OP_PLAIN_READ)
                break; /* it looked again */
            if (!other)
                break; /* nobody wrote in between */
            char lr[300], lo[300], lw[300];
            code_loc(lr, sizeof lr, r->pc);
            code_loc(lo, sizeof lo, other->pc);
            code_loc(lw, sizeof lw, e->pc);
            ravel__sb_printf(sb,
                             "  lost update: thread %s read %s = %lld (%s),\n"
                             "  thread %s then wrote it (%s), and thread %s "
                             "wrote over that (%s)\n",
                             thread_name(x, r->thread), obj_name(nm, r->obj),
                             (long long)r->value, lr,
                             thread_name(x, other->thread), lo,
                             thread_name(x, r->thread), lw);
            return;
        }
    }
}

/* ---- headline, location, signature ------------------------------------ */

static const char *signal_name(int64_t sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGSYS: return "SIGSYS";
    default: return "signal";
    }
}

void ravel__report_headline(const struct ravel__exec *x, char *buf, size_t n)
{
    const struct ravel__failure *f = &x->failure;
    switch (f->kind) {
    case RAVEL__FAIL_CRASH:
        if (f->message[0])
            snprintf(buf, n, "%s", f->message);
        else
            snprintf(buf, n, "the program was killed by %s (%lld)",
                     signal_name(f->value), (long long)f->value);
        return;
    default:
        snprintf(buf, n, "%s", f->message[0] ? f->message : "failure");
        return;
    }
}

bool (*ravel__report_program_pc)(uint64_t pc);

/* Innermost frame of the failure in the program's own code (else the
 * innermost frame with a source line). For a deadlock or step limit
 * whose failing thread shows none (blocked inside the C library with no
 * program frame recorded), the first live thread that has one. */
static bool failure_frame_of(const struct ravel__exec *x, uint32_t thread,
                             uint64_t pc, struct ravel__frame *out);
static bool best_frame(const uint64_t *pcs, const bool *exact, size_t n,
                       struct ravel__frame *out);

static bool failure_frame(const struct ravel__exec *x, struct ravel__frame *out)
{
    const struct ravel__failure *f = &x->failure;
    if (failure_frame_of(x, f->thread, f->pc, out))
        return true;
    if (f->kind != RAVEL__FAIL_DEADLOCK && f->kind != RAVEL__FAIL_STEP_LIMIT)
        return false;
    for (uint32_t t = 0; t < x->nthreads; t++)
        if (x->threads[t].state == RAVEL__T_LIVE && t != f->thread &&
            failure_frame_of(x, t, x->threads[t].pending.pc, out))
            return true;
    return false;
}

static bool failure_frame_of(const struct ravel__exec *x, uint32_t thread,
                             uint64_t pc, struct ravel__frame *out)
{
    const struct ravel__failure *f = &x->failure;
    uint64_t pcs[RAVEL__NATIVE_FRAMES + RAVEL__STACK_FRAMES + 1];
    bool exact[RAVEL__COUNT(pcs)];
    size_t n = 0;
    memset(exact, 0, sizeof exact);
    if (f->nframes && thread == f->thread) {
        for (uint32_t i = 0; i < f->nframes && n < RAVEL__NATIVE_FRAMES; i++)
            pcs[n++] = f->frames[i];
        exact[0] = f->frames_exact;
    } else if (thread < x->nthreads) {
        n = thread_stack(&x->threads[thread], pc, pcs, RAVEL__COUNT(pcs));
    }
    return best_frame(pcs, exact, n, out);
}

/* The frame a location names among n symbolized pcs: the program's own
 * code first, else any frame with a line outside the runtime. */
static bool best_frame(const uint64_t *pcs, const bool *exact, size_t n,
                       struct ravel__frame *out)
{
    if (n == 0)
        return false;
    struct ravel__frame *fr = calloc(n, sizeof *fr);
    if (!fr)
        return false;
    ravel__symbolize(pcs, exact, n, fr);
    bool found = false;
    for (size_t i = 0; i < n && !found; i++) {
        if (!fr[i].runtime && fr[i].line && ravel__report_program_pc &&
            ravel__report_program_pc(fr[i].pc)) {
            *out = fr[i];
            found = true;
        }
    }
    for (size_t i = 0; i < n && !found; i++) {
        if (!fr[i].runtime && fr[i].line) {
            *out = fr[i];
            found = true;
        }
    }
    free(fr);
    return found;
}

void ravel__report_location(const struct ravel__exec *x, char *file,
                            size_t nfile, char *func, size_t nfunc)
{
    const struct ravel__failure *f = &x->failure;
    file[0] = func[0] = 0;
    if (f->kind == RAVEL__FAIL_ASSERTION && f->file[0] && f->line) {
        snprintf(file, nfile, "%s:%u", ravel__display_path(f->file), f->line);
        snprintf(func, nfunc, "%s", f->func);
        return;
    }
    struct ravel__frame fr;
    if (failure_frame(x, &fr)) {
        snprintf(file, nfile, "%s:%u", ravel__display_path(fr.file), fr.line);
        snprintf(func, nfunc, "%s", fr.func);
    }
}

void ravel__report_race_other(const struct ravel__exec *x, char *file,
                              size_t nfile, char *func, size_t nfunc)
{
    const struct ravel__race_access *a = &x->race.prev;
    file[0] = func[0] = 0;
    if (x->failure.kind != RAVEL__FAIL_DATA_RACE || !a->nframes)
        return;
    uint32_t n = a->nframes < RAVEL__RACE_FRAMES ? a->nframes
                                                 : RAVEL__RACE_FRAMES;
    bool exact[RAVEL__RACE_FRAMES];
    memset(exact, 0, sizeof exact); /* return addresses, as put_race's */
    struct ravel__frame fr;
    if (best_frame(a->frames, exact, n, &fr)) {
        snprintf(file, nfile, "%s:%u", ravel__display_path(fr.file), fr.line);
        snprintf(func, nfunc, "%s", fr.func);
    }
}

uint64_t ravel__report_signature(const struct ravel__exec *x)
{
    const struct ravel__failure *f = &x->failure;
    uint64_t h = ravel__fnv1a(&f->kind, sizeof f->kind, RAVEL__FNV_INIT);
    switch (f->kind) {
    case RAVEL__FAIL_DEADLOCK: {
        /* The set of places where threads are stuck. */
        uint64_t acc = 0;
        for (uint32_t t = 0; t < x->nthreads; t++)
            if (x->threads[t].state == RAVEL__T_LIVE)
                acc += ravel__hash_ptr(x->threads[t].pending.pc + 1);
        return ravel__fnv1a(&acc, sizeof acc, h);
    }
    case RAVEL__FAIL_EXIT_STATUS:
        return ravel__fnv1a(&f->value, sizeof f->value, h);
    case RAVEL__FAIL_DATA_RACE: {
        /* The pair of source lines, in either order (the read and the
         * write of one x++ are one location to its author). */
        uint64_t side[2] = {0, 0};
        const struct ravel__race_access *a[2] = {&x->race.cur,
                                                 &x->race.prev};
        for (int i = 0; i < 2; i++) {
            if (!a[i]->nframes)
                continue;
            struct ravel__frame fr;
            ravel__symbolize1(a[i]->frames[0], false, &fr);
            side[i] = fr.line ? ravel__fnv1a(fr.file, strlen(fr.file),
                                             fr.line * 0x9e3779b97f4a7c15ULL)
                              : a[i]->frames[0];
        }
        uint64_t pair[2] = {side[0] < side[1] ? side[0] : side[1],
                            side[0] < side[1] ? side[1] : side[0]};
        return ravel__fnv1a(pair, sizeof pair, h);
    }
    case RAVEL__FAIL_CRASH:
    case RAVEL__FAIL_HANG: {
        h = ravel__fnv1a(&f->value, sizeof f->value, h);
        struct ravel__frame fr;
        if (failure_frame(x, &fr)) {
            h = ravel__fnv1a(fr.file, strlen(fr.file), h);
            h = ravel__fnv1a(&fr.line, sizeof fr.line, h);
        }
        return h;
    }
    default: {
        uint64_t pc = f->pc;
        h = ravel__fnv1a(&pc, sizeof pc, h);
        h = ravel__fnv1a(f->file, strlen(f->file), h);
        return ravel__fnv1a(&f->line, sizeof f->line, h);
    }
    }
}

/* ---- the report ------------------------------------------------------- */

static void put_output(struct ravel__strbuf *sb, const char *out, size_t len)
{
    /* The tail matters most: the last 64 KiB, cut at a line start. */
    const size_t max = 64 * 1024;
    if (len > max) {
        const char *p = out + len - max;
        const char *nl = memchr(p, '\n', max);
        if (nl)
            p = nl + 1;
        ravel__sb_printf(sb, "  | ... (%zu earlier bytes not shown)\n",
                         (size_t)(p - out));
        len -= (size_t)(p - out);
        out = p;
    }
    const char *p = out, *end = out + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        ravel__sb_add(sb, "  | ");
        for (size_t i = 0; i < l; i++) {
            unsigned char c = (unsigned char)p[i];
            if (c == '\t' || c >= 0x20)
                ravel__sb_addc(sb, (char)c);
            else
                ravel__sb_printf(sb, "\\x%02x", c);
        }
        ravel__sb_addc(sb, '\n');
        p += l + (nl ? 1 : 0);
    }
}

/* What live thread t is doing at the end: "blocked in lock bob+16, held
 * by thread 1.2", "at lock m", "blocked in join 1.1", "not started yet".
 * Returns 2 when blocked, 1 when at an enabled operation, 0 when not
 * started. */
static int pending_text(const struct ravel__exec *x, const struct names *nm,
                        uint32_t t, char *buf, size_t n)
{
    const struct ravel__thread *th = &x->threads[t];
    const struct ravel__op *op = &th->pending;
    char what[400];
    struct ravel__event fake = {0};
    fake.kind = op->kind;
    fake.obj = op->obj;
    fake.aux = op->obj2;
    fake.thread = t;
    struct values vs = {.n = 0};
    if (fd_kind(op->kind)) {
        /* The descriptor waited on, and what became of its peer. */
        fake.value2 = (int32_t)(uint32_t)op->arg;
        if (op->obj < x->nobjects &&
            x->objects[op->obj].fd[1] == (int32_t)fake.value2)
            fake.flags |= RAVEL__EV_END1;
        if (op->kind == RAVEL__OP_FD_READ || op->kind == RAVEL__OP_FD_WRITE)
            fake.kind = RAVEL__OP_FD_LISTEN; /* any: prints "<op> fdN" */
        fd_text(what, sizeof what, x, nm, &fake, false);
        if (op->kind == RAVEL__OP_FD_READ || op->kind == RAVEL__OP_FD_WRITE)
            snprintf(what, sizeof what, "%s fd%d",
                     ravel__op_name(op->kind), (int)fake.value2);
        if (op->obj < x->nobjects && !ravel__op_enabled(x, t)) {
            const struct ravel__object *o = &x->objects[op->obj];
            size_t len = strlen(what);
            unsigned end = (fake.flags & RAVEL__EV_END1) ? 1 : 0;
            if (o->subtype == RAVEL__FD_PIPE || o->subtype == RAVEL__FD_SOCKETPAIR ||
                o->subtype == RAVEL__FD_CONN) {
                int peer = o->fd[1 - end];
                snprintf(what + len, sizeof what - len,
                         " of %s; its peer %s%d is %s", obj_name(nm, op->obj),
                         peer >= 0 ? "fd" : "", peer,
                         (o->fd_closed >> (1 - end)) & 1 ? "closed" : "open");
            } else if (op->kind != RAVEL__OP_FD_POLL_ALL) {
                snprintf(what + len, sizeof what - len, " of %s",
                         obj_name(nm, op->obj));
            }
        }
    } else {
        event_text(what, sizeof what, x, nm, &fake, &vs);
    }
    if (op->kind == RAVEL__OP_JOIN)
        snprintf(what, sizeof what, "join %s", thread_name(x, op->obj));
    else if (op->kind == RAVEL__OP_COND_WAKE)
        snprintf(what, sizeof what, "wait on %s", obj_name(nm, op->obj));
    if (op->kind == RAVEL__OP_START) {
        snprintf(buf, n, "has not started yet");
        return 0;
    }
    uint32_t by = ravel__blocker(x, t);
    if (by != RAVEL__NONE && by != t && op->kind != RAVEL__OP_JOIN) {
        snprintf(buf, n, "is blocked in %s, held by thread %s", what,
                 thread_name(x, by));
        return 2;
    }
    if (ravel__op_enabled(x, t)) {
        snprintf(buf, n, "is at %s", what);
        return 1;
    }
    snprintf(buf, n, "is blocked in %s", what);
    return 2;
}

int ravel__report_pending(const struct ravel__exec *x, uint32_t t, char *buf,
                          size_t n)
{
    struct names nm;
    names_build(&nm, x);
    int r = pending_text(x, &nm, t, buf, n);
    free(nm.n);
    return r;
}

static void put_blocked(struct ravel__strbuf *sb, const struct ravel__exec *x,
                        struct names *nm)
{
    for (uint32_t t = 0; t < x->nthreads; t++) {
        const struct ravel__thread *th = &x->threads[t];
        if (!ravel__thread_pending(x, t))
            continue;
        if (th->spin_blocked) {
            /* src/model/spin.c: it went round a loop that only reads. */
            ravel__sb_printf(sb, "  thread %s spins forever: its loop reads",
                             th->name);
            for (uint32_t k = th->spin_from; k < th->spin_n; k++) {
                uint32_t o = th->spin_win[k].obj;
                bool seen = false;
                for (uint32_t j = th->spin_from; j < k; j++)
                    seen |= th->spin_win[j].obj == o;
                if (!seen && o < x->nobjects)
                    ravel__sb_printf(sb, " %s", obj_name(nm, o));
            }
            ravel__sb_printf(sb, ", which %s\n",
                             th->spin_written ? "another thread wrote since"
                                              : "no thread writes any more");
            put_thread_stack(sb, x, t, th->pending.pc);
            continue;
        }
        char what[520];
        int r = pending_text(x, nm, t, what, sizeof what);
        ravel__sb_printf(sb, "  thread %s %s\n", th->name, what);
        if (r)
            put_thread_stack(sb, x, t, th->pending.pc);
    }
}

void ravel__report_bug(struct ravel__strbuf *sb,
                       const struct ravel__report_ctx *c)
{
    const struct ravel__exec *x = c->x;
    const struct ravel__failure *f = &x->failure;
    const char *bold = c->color ? "\033[1;31m" : "";
    const char *reset = c->color ? "\033[0m" : "";
    char headline[RAVEL__MSG_MAX + 64];
    ravel__report_headline(x, headline, sizeof headline);
    struct names nm;
    names_build(&nm, x);

    ravel__sb_add(sb, "==================\n");
    if (f->kind == RAVEL__FAIL_DATA_RACE)
        ravel__sb_printf(sb, "%sWARNING: ravel: data race%s\n", bold, reset);
    ravel__sb_printf(sb, "%sravel: BUG (%s): %s%s\n", bold,
                     ravel__fail_kind_name(f->kind), headline, reset);

    const char *tname = thread_name(x, f->thread);
    switch (f->kind) {
    case RAVEL__FAIL_DEADLOCK:
    case RAVEL__FAIL_STEP_LIMIT:
        put_blocked(sb, x, &nm);
        break;
    case RAVEL__FAIL_CRASH:
    case RAVEL__FAIL_HANG:
        if (f->thread < x->nthreads)
            ravel__sb_printf(sb, "  in thread %s:\n", tname);
        if (f->nframes)
            put_stack(sb, f->frames, f->nframes, f->frames_exact, "    ");
        else if (f->thread < x->nthreads)
            put_thread_stack(sb, x, f->thread, 0);
        break;
    case RAVEL__FAIL_DATA_RACE:
        put_race(sb, x);
        break;
    case RAVEL__FAIL_EXIT_STATUS:
        if (f->pc) {
            ravel__sb_printf(sb, "  exit called in thread %s:\n", tname);
            put_thread_stack(sb, x, f->thread, f->pc);
        }
        break;
    case RAVEL__FAIL_POSTCONDITION:
    case RAVEL__FAIL_LINEARIZABILITY:
        /* Judged after the execution against a model (src/pbt/pbt.c):
         * the frame is the run function of the command concerned; the
         * calls and their results are in the program output. */
        if (f->nframes) {
            ravel__sb_add(sb, "  judged by the model; the command:\n");
            put_stack(sb, f->frames, f->nframes, f->frames_exact, "    ");
        }
        break;
    default:
        if (f->thread < x->nthreads) {
            ravel__sb_printf(sb, "  in thread %s:\n", tname);
            put_thread_stack(sb, x, f->thread, f->pc);
        }
        break;
    }
    if (f->kind != RAVEL__FAIL_DATA_RACE && ravel__report_promoted(x)) {
        put_promoted(sb, x);
        put_race_effect(sb, x, &nm);
    }
    if (f->kind == RAVEL__FAIL_LOCK_MISUSE && f->obj != RAVEL__NONE &&
        f->obj < x->nobjects)
        ravel__sb_printf(sb, "  the %s is %s\n",
                         ravel__obj_kind_name(x->objects[f->obj].kind),
                         obj_name(&nm, f->obj));
    for (uint32_t t = 1; t < x->nthreads; t++)
        if ((t == f->thread && f->kind != RAVEL__FAIL_DATA_RACE) ||
            f->kind == RAVEL__FAIL_DEADLOCK)
            put_creation(sb, x, t);
    free(nm.n);

    ravel__sb_printf(sb, "\nExecution %llu of the %s strategy (seed %llu).\n",
                     (unsigned long long)x->number + 1, c->strategy,
                     (unsigned long long)c->seed);
    ravel__report_trace(sb, x, c->max_rows);
    if (c->output && c->output_len) {
        ravel__sb_add(sb, "\nProgram output in this execution:\n");
        put_output(sb, c->output, c->output_len);
    }
    if (c->ticket)
        ravel__sb_printf(sb, "\nReplay: ravel replay %s\n", c->ticket);
    char file[300], func[128];
    ravel__report_location(x, file, sizeof file, func, sizeof func);
    ravel__sb_printf(sb, "SUMMARY: ravel: %s", ravel__fail_kind_name(f->kind));
    if (file[0])
        ravel__sb_printf(sb, " %s", file);
    if (func[0])
        ravel__sb_printf(sb, " in %s", func);
    ravel__sb_add(sb, "\n==================\n");
}
