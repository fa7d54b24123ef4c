/*
 * models.c - the built-in sequential models of `ravel lin --model NAME`.
 *
 *   register       read, write                          state: value
 *   cas-register   read, write, cas [from to]           state: value
 *   kv             get, put, append (strings), by :key  (model_kv.c)
 *   counter        add/inc/dec n, read                  state: integer
 *   set            add x, remove x, read -> #{...}      state: a set
 *   queue          enqueue x, dequeue -> x (FIFO)       state: a vector
 *   stack          push x, pop -> x (LIFO)              state: a vector
 *   unordered-queue enqueue x, dequeue -> any element   state: a multiset
 *   fifo-queue     Knossos's name for queue
 *   mutex          acquire, release                     state: 0 or 1
 *   multi-register txn [[:read k v] [:write k v] ...]   state: [k v ...]
 *   noop           anything                             state: none
 *
 * Every state here is a value id in the history's own value table (the
 * counter's is the integer itself): a register holds the value, a queue
 * the vector of its contents, a set the set value. Interning makes equal
 * states equal words, so the checker needs no equality or hash callbacks
 * for these models. Steps that build a new compound value (push onto a
 * vector, add to a set) go through a small cache keyed by (state,
 * operation), so each distinct transition is built and hashed once
 * however often the search comes back to it. kv has its own file: its
 * strings grow with every append, which needs a cleverer state.
 *
 * Output conventions, shared by all models: RAVEL__LIN_V_NONE means the
 * output is unknown and any output the model allows is accepted. A cas
 * returns false when it did not apply and true (or its own [from to]
 * input echoed back, as Jepsen's :ok does) when it did. A dequeue or pop
 * returns nil or :empty when the container was empty.
 */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ravel__lin_next_add(struct ravel__lin_next *nx, uint64_t state)
{
    if (nx->n == nx->cap) {
        uint32_t cap = nx->cap ? nx->cap * 2 : 8;
        uint64_t *nv = realloc(nx->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        nx->v = nv;
        nx->cap = cap;
    }
    nx->v[nx->n++] = state;
    return 0;
}

/* ---- shared helpers --------------------------------------------------- */

enum { OP_BAD = 0 };

/* What every built-in model keeps: the history, a code per operation and
 * up to two precomputed value ids (or an integer) per operation. */
struct base {
    struct ravel__lin_history *h;
    uint8_t *code;
    uint32_t *a, *b;
    int64_t *n;
    uint64_t init; /* the initial state word */
    /* Transition cache: (state, op) -> next state id, open addressing. */
    struct tc_slot {
        uint64_t state;
        uint32_t op; /* op + 1, 0 = empty */
        uint32_t next;
    } *tc;
    uint32_t tc_n, tc_cap;
};

/*
 * The transition cache grows without bound only as far as the search
 * visits distinct (state, operation) pairs, which the checker's own
 * memory limit bounds (each pair comes from a remembered configuration).
 */
static bool tc_get(struct base *m, uint64_t state, uint32_t op, uint32_t *out)
{
    if (!m->tc_cap)
        return false;
    uint64_t hsh = (state * 0x9e3779b97f4a7c15ULL) ^ (op * 0xc2b2ae3d27d4eb4fULL);
    uint32_t j = (uint32_t)(hsh >> 32) & (m->tc_cap - 1);
    for (; m->tc[j].op; j = (j + 1) & (m->tc_cap - 1))
        if (m->tc[j].state == state && m->tc[j].op == op + 1) {
            *out = m->tc[j].next;
            return true;
        }
    return false;
}

static void tc_put(struct base *m, uint64_t state, uint32_t op, uint32_t next)
{
    if ((m->tc_n + 1) * 2 > m->tc_cap) {
        uint32_t cap = m->tc_cap ? m->tc_cap * 2 : 1024;
        struct tc_slot *nt = calloc(cap, sizeof *nt);
        if (!nt)
            return; /* a cache: failing to grow only costs time */
        for (uint32_t i = 0; i < m->tc_cap; i++) {
            if (!m->tc[i].op)
                continue;
            uint64_t hsh = (m->tc[i].state * 0x9e3779b97f4a7c15ULL) ^
                           ((m->tc[i].op - 1) * 0xc2b2ae3d27d4eb4fULL);
            uint32_t j = (uint32_t)(hsh >> 32) & (cap - 1);
            while (nt[j].op)
                j = (j + 1) & (cap - 1);
            nt[j] = m->tc[i];
        }
        free(m->tc);
        m->tc = nt;
        m->tc_cap = cap;
    }
    uint64_t hsh = (state * 0x9e3779b97f4a7c15ULL) ^ (op * 0xc2b2ae3d27d4eb4fULL);
    uint32_t j = (uint32_t)(hsh >> 32) & (m->tc_cap - 1);
    while (m->tc[j].op)
        j = (j + 1) & (m->tc_cap - 1);
    m->tc[j] = (struct tc_slot){state, op + 1, next};
    m->tc_n++;
}

static int line_err(char *err, size_t errlen, const struct ravel__lin_op *o,
                    const char *fmt, const char *what)
{
    char msg[200];
    snprintf(msg, sizeof msg, fmt, what);
    snprintf(err, errlen, "line %u: %s", o->call_line, msg);
    return -1;
}

static void fname(const struct ravel__lin_history *h, uint32_t f, char *buf,
                  size_t len)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__lin_vprint(&h->vals, f, &sb, 40);
    snprintf(buf, len, "%s", ravel__sb_str(&sb));
    ravel__sb_free(&sb);
}

/*
 * Allocates the base and gives every operation its code: the index + 1
 * of its function name in `names` (NULL-terminated), or a message.
 */
static int base_open(struct base **out, size_t size,
                     struct ravel__lin_history *h, const char *model,
                     const char *const *names, char *err, size_t errlen)
{
    struct base *m = calloc(1, size);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->h = h;
    size_t n = h->nops ? h->nops : 1;
    m->code = calloc(n, 1);
    m->a = calloc(n, sizeof *m->a);
    m->b = calloc(n, sizeof *m->b);
    m->n = calloc(n, sizeof *m->n);
    if (!m->code || !m->a || !m->b || !m->n) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    /* Function names are few: map each distinct f once. */
    uint32_t last_f = RAVEL__LIN_V_NONE;
    uint8_t last_code = 0;
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *o = &h->ops[i];
        if (o->f != last_f) {
            last_code = OP_BAD;
            for (int k = 0; names[k]; k++)
                if (ravel__lin_vis_name(&h->vals, o->f, names[k]))
                    last_code = (uint8_t)(k + 1);
            last_f = o->f;
        }
        if (last_code == OP_BAD) {
            char fn[64], list[200] = "";
            fname(h, o->f, fn, sizeof fn);
            for (int k = 0; names[k]; k++) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s:%s", k ? ", " : "",
                         names[k]);
            }
            snprintf(err, errlen,
                     "line %u: model %s has no operation %s (it has %s)",
                     o->call_line, model, fn, list);
            goto fail;
        }
        m->code[i] = last_code;
    }
    *out = m;
    return 0;
fail:
    free(m->code);
    free(m->a);
    free(m->b);
    free(m->n);
    free(m);
    return -1;
}

static void base_close(void *self)
{
    struct base *m = self;
    if (!m)
        return;
    free(m->code);
    free(m->a);
    free(m->b);
    free(m->n);
    free(m->tc);
    free(m);
}

static uint64_t base_init(void *self)
{
    return ((struct base *)self)->init;
}

static void base_describe(void *self, uint64_t state, struct ravel__strbuf *sb)
{
    struct base *m = self;
    ravel__lin_vprint(&m->h->vals, (uint32_t)state, sb, 60);
}


static int init_value(struct base *m, const struct ravel__lin_params *p,
                      uint32_t dflt, char *err, size_t errlen)
{
    m->init = dflt;
    if (p && p->init) {
        char e[200];
        uint32_t v = ravel__lin_parse_value(m->h, p->init, e, sizeof e);
        if (v == RAVEL__LIN_V_NONE) {
            snprintf(err, errlen, "--init: %s", e);
            return -1;
        }
        m->init = v;
    }
    return 0;
}

static const struct ravel__lin_vent *V(struct base *m, uint32_t id)
{
    return ravel__lin_vget(&m->h->vals, id);
}

static bool is_empty_marker(struct base *m, uint32_t v)
{
    return v == RAVEL__LIN_V_NIL ||
           (V(m, v)->kind == RAVEL__LIN_KEYWORD &&
            ravel__lin_vis_name(&m->h->vals, v, "empty"));
}

/* ---- register and cas-register ---------------------------------------- */

enum { R_READ = 1, R_WRITE, R_CAS };

static const char *const reg_names[] = {"read", "write", NULL};
static const char *const cas_names[] = {"read", "write", "cas", NULL};

static int reg_open_common(void **self, struct ravel__lin_history *h,
                           const struct ravel__lin_params *p, const char *name,
                           const char *const *names, char *err, size_t errlen)
{
    struct base *m;
    if (base_open(&m, sizeof *m, h, name, names, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *o = &h->ops[i];
        if (m->code[i] != R_CAS)
            continue;
        const struct ravel__lin_vent *e = V(m, o->in);
        if (e->kind != RAVEL__LIN_VEC || e->len != 2) {
            base_close(m);
            return line_err(err, errlen, o,
                            "cas needs a [from to] pair as its value%s", "");
        }
        m->a[i] = ravel__lin_vkids(&h->vals, o->in)[0];
        m->b[i] = ravel__lin_vkids(&h->vals, o->in)[1];
        if (o->out != RAVEL__LIN_V_NONE && o->out != RAVEL__LIN_V_TRUE &&
            o->out != RAVEL__LIN_V_FALSE && o->out != o->in) {
            base_close(m);
            return line_err(err, errlen, o,
                            "cas output must be true, false or its [from to] "
                            "pair%s",
                            "");
        }
    }
    if (init_value(m, p, RAVEL__LIN_V_NIL, err, errlen) != 0) {
        base_close(m);
        return -1;
    }
    *self = m;
    return 0;
}

static int reg_open(void **self, struct ravel__lin_history *h,
                    const struct ravel__lin_params *p, char *err,
                    size_t errlen)
{
    return reg_open_common(self, h, p, "register", reg_names, err, errlen);
}

static int cas_open(void **self, struct ravel__lin_history *h,
                    const struct ravel__lin_params *p, char *err,
                    size_t errlen)
{
    return reg_open_common(self, h, p, "cas-register", cas_names, err,
                           errlen);
}

static int reg_step(void *self, uint64_t state, uint32_t op,
                    struct ravel__lin_next *next)
{
    struct base *m = self;
    const struct ravel__lin_op *o = &m->h->ops[op];
    switch (m->code[op]) {
    case R_READ:
        if (o->out != RAVEL__LIN_V_NONE && o->out != state)
            return 0;
        return ravel__lin_next_add(next, state) ? -1 : 1;
    case R_WRITE:
        return ravel__lin_next_add(next, o->in) ? -1 : 1;
    case R_CAS: {
        bool match = state == m->a[op];
        if (o->out == RAVEL__LIN_V_FALSE) {
            if (match)
                return 0;
            return ravel__lin_next_add(next, state) ? -1 : 1;
        }
        if (o->out == RAVEL__LIN_V_NONE)
            return ravel__lin_next_add(next, match ? m->b[op] : state) ? -1
                                                                       : 1;
        if (!match)
            return 0;
        return ravel__lin_next_add(next, m->b[op]) ? -1 : 1;
    }
    }
    return 0;
}

/* ---- counter ------------------------------------------------------------ */

enum { C_ADD = 1, C_INC, C_DEC, C_READ };
static const char *const counter_names[] = {"add", "inc", "dec", "read",
                                            NULL};

static int counter_open(void **self, struct ravel__lin_history *h,
                        const struct ravel__lin_params *p, char *err,
                        size_t errlen)
{
    struct base *m;
    if (base_open(&m, sizeof *m, h, "counter", counter_names, err, errlen))
        return -1;
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *o = &h->ops[i];
        const struct ravel__lin_vent *in = V(m, o->in);
        if (m->code[i] == C_READ) {
            if (o->out != RAVEL__LIN_V_NONE &&
                V(m, o->out)->kind != RAVEL__LIN_INT) {
                base_close(m);
                return line_err(err, errlen, o,
                                "a counter read returns an integer%s", "");
            }
            continue;
        }
        int64_t d;
        if (in->kind == RAVEL__LIN_INT)
            d = in->i;
        else if (in->kind == RAVEL__LIN_NIL && m->code[i] != C_ADD)
            d = 1;
        else {
            base_close(m);
            return line_err(err, errlen, o,
                            "counter add, inc and dec take an integer%s", "");
        }
        m->n[i] = m->code[i] == C_DEC ? -d : d;
    }
    m->init = 0;
    if (p && p->init) {
        uint32_t v = ravel__lin_parse_value(h, p->init, err, errlen);
        if (v == RAVEL__LIN_V_NONE || V(m, v)->kind != RAVEL__LIN_INT) {
            if (v != RAVEL__LIN_V_NONE)
                snprintf(err, errlen, "--init: a counter starts at an "
                                      "integer");
            base_close(m);
            return -1;
        }
        m->init = (uint64_t)V(m, v)->i;
    }
    *self = m;
    return 0;
}

/* The counter's state is the integer itself (two's complement in the
 * word); it wraps around as uint64_t arithmetic does. */
static int counter_step(void *self, uint64_t state, uint32_t op,
                        struct ravel__lin_next *next)
{
    struct base *m = self;
    const struct ravel__lin_op *o = &m->h->ops[op];
    if (m->code[op] == C_READ) {
        if (o->out != RAVEL__LIN_V_NONE &&
            (uint64_t)V(m, o->out)->i != state)
            return 0;
        return ravel__lin_next_add(next, state) ? -1 : 1;
    }
    return ravel__lin_next_add(next, state + (uint64_t)m->n[op]) ? -1 : 1;
}

static void counter_describe(void *self, uint64_t state,
                             struct ravel__strbuf *sb)
{
    RAVEL__UNUSED(self);
    ravel__sb_printf(sb, "%lld", (long long)(int64_t)state);
}

/* ---- containers: set, queue, stack, unordered-queue -------------------- */

/* Interns the vector (or set) `kids` as a state; NONE when out of memory. */
static uint32_t make(struct base *m, enum ravel__lin_vkind kind,
                     const uint32_t *kids, uint32_t n)
{
    return ravel__lin_intern(&m->h->vals, kind, 0, NULL, 0, kids, n);
}

/* Position of x in the sorted children of a set/multiset, or -1. */
static int64_t find_sorted(struct base *m, uint32_t state, uint32_t x)
{
    const uint32_t *k = ravel__lin_vkids(&m->h->vals, state);
    uint32_t lo = 0, hi = V(m, state)->len;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < V(m, state)->len && k[lo] == x ? (int64_t)lo : -1;
}

/*
 * The state after adding x at position `at` (or removing the child at
 * `at` when x == NONE) of the container `state`, through the transition
 * cache when `op` is given (UINT32_MAX: not cached).
 */
static uint32_t edit(struct base *m, enum ravel__lin_vkind kind,
                     uint32_t state, uint32_t op, uint32_t at, uint32_t x)
{
    uint32_t to;
    if (op != UINT32_MAX && tc_get(m, state, op, &to))
        return to;
    uint32_t n = V(m, state)->len;
    uint32_t *k = malloc(((size_t)n + 1) * sizeof *k);
    if (!k)
        return RAVEL__LIN_V_NONE;
    const uint32_t *src = ravel__lin_vkids(&m->h->vals, state);
    uint32_t len;
    if (x != RAVEL__LIN_V_NONE) {
        memcpy(k, src, at * sizeof *k);
        k[at] = x;
        memcpy(k + at + 1, src + at, (n - at) * sizeof *k);
        len = n + 1;
    } else {
        memcpy(k, src, at * sizeof *k);
        memcpy(k + at, src + at + 1, (n - at - 1) * sizeof *k);
        len = n - 1;
    }
    to = make(m, kind, k, len);
    free(k);
    if (to != RAVEL__LIN_V_NONE && op != UINT32_MAX)
        tc_put(m, state, op, to);
    return to;
}

static int container_init(struct base *m, const struct ravel__lin_params *p,
                          enum ravel__lin_vkind kind, const char *model,
                          char *err, size_t errlen)
{
    uint32_t empty = make(m, kind, NULL, 0);
    if (empty == RAVEL__LIN_V_NONE) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (init_value(m, p, empty, err, errlen) != 0)
        return -1;
    const struct ravel__lin_vent *e = V(m, (uint32_t)m->init);
    if (e->kind != RAVEL__LIN_VEC && e->kind != RAVEL__LIN_SET) {
        snprintf(err, errlen, "--init: the %s model starts from a vector "
                              "or set of elements", model);
        return -1;
    }
    if (e->kind != kind) {
        /* Re-intern [a b] as #{a b} (or the reverse) for this model. */
        uint32_t n = e->len;
        uint32_t *k = malloc(((size_t)n + 1) * sizeof *k);
        if (!k) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(k, ravel__lin_vkids(&m->h->vals, (uint32_t)m->init),
               n * sizeof *k);
        m->init = make(m, kind, k, n);
        free(k);
        if (m->init == RAVEL__LIN_V_NONE) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

enum { S_ADD = 1, S_REMOVE, S_READ };
static const char *const set_names[] = {"add", "remove", "read", NULL};

static int set_open(void **self, struct ravel__lin_history *h,
                    const struct ravel__lin_params *p, char *err,
                    size_t errlen)
{
    struct base *m;
    if (base_open(&m, sizeof *m, h, "set", set_names, err, errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *o = &h->ops[i];
        if (m->code[i] != S_READ || o->out == RAVEL__LIN_V_NONE)
            continue;
        const struct ravel__lin_vent *e = V(m, o->out);
        if (e->kind != RAVEL__LIN_VEC && e->kind != RAVEL__LIN_SET) {
            base_close(m);
            return line_err(err, errlen, o,
                            "a set read returns a set or vector of "
                            "elements%s",
                            "");
        }
        m->a[i] = make(m, RAVEL__LIN_SET, ravel__lin_vkids(&h->vals, o->out),
                       e->len);
        if (m->a[i] == RAVEL__LIN_V_NONE) {
            base_close(m);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    if (container_init(m, p, RAVEL__LIN_SET, "set", err, errlen) != 0) {
        base_close(m);
        return -1;
    }
    *self = m;
    return 0;
}

static int set_step(void *self, uint64_t state, uint32_t op,
                    struct ravel__lin_next *next)
{
    struct base *m = self;
    const struct ravel__lin_op *o = &m->h->ops[op];
    uint32_t s = (uint32_t)state, to = s;
    switch (m->code[op]) {
    case S_READ:
        if (o->out != RAVEL__LIN_V_NONE && m->a[op] != s)
            return 0;
        break;
    case S_ADD:
    case S_REMOVE: {
        int64_t at = find_sorted(m, s, o->in);
        bool add = m->code[op] == S_ADD;
        bool changes = add ? at < 0 : at >= 0;
        /* A boolean output says whether the set changed. */
        if ((o->out == RAVEL__LIN_V_TRUE && !changes) ||
            (o->out == RAVEL__LIN_V_FALSE && changes))
            return 0;
        if (!changes)
            break;
        if (add) {
            const uint32_t *k = ravel__lin_vkids(&m->h->vals, s);
            uint32_t pos = 0, n = V(m, s)->len;
            while (pos < n && k[pos] < o->in)
                pos++;
            to = edit(m, RAVEL__LIN_SET, s, op, pos, o->in);
        } else {
            to = edit(m, RAVEL__LIN_SET, s, op, (uint32_t)at,
                      RAVEL__LIN_V_NONE);
        }
        if (to == RAVEL__LIN_V_NONE)
            return -1;
        break;
    }
    default:
        return 0;
    }
    return ravel__lin_next_add(next, to) ? -1 : 1;
}

enum { Q_PUT = 1, Q_TAKE };
static const char *const queue_names[] = {"enqueue", "dequeue", NULL};
static const char *const stack_names[] = {"push", "pop", NULL};

/* kind 0: queue (FIFO), 1: stack (LIFO), 2: unordered queue (a bag). */
struct container {
    struct base b;
    int order;
};

static int container_open(void **self, struct ravel__lin_history *h,
                          const struct ravel__lin_params *p, int order,
                          char *err, size_t errlen)
{
    static const char *const model_names[] = {"queue", "stack",
                                              "unordered-queue"};
    struct base *m;
    if (base_open(&m, sizeof(struct container), h, model_names[order],
                  order == 1 ? stack_names : queue_names, err, errlen) != 0)
        return -1;
    ((struct container *)m)->order = order;
    if (container_init(m, p, RAVEL__LIN_VEC, model_names[order], err,
                       errlen) != 0) {
        base_close(m);
        return -1;
    }
    if (order == 2) {
        /* A bag keeps its elements sorted by id, so equal contents are
         * one state whatever the order of insertion. */
        uint32_t n = V(m, (uint32_t)m->init)->len;
        uint32_t *k = malloc(((size_t)n + 1) * sizeof *k);
        if (!k) {
            base_close(m);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        memcpy(k, ravel__lin_vkids(&h->vals, (uint32_t)m->init),
               n * sizeof *k);
        for (uint32_t i = 1; i < n; i++)
            for (uint32_t j = i; j > 0 && k[j - 1] > k[j]; j--) {
                uint32_t t = k[j];
                k[j] = k[j - 1];
                k[j - 1] = t;
            }
        m->init = make(m, RAVEL__LIN_VEC, k, n);
        free(k);
    }
    *self = m;
    return 0;
}

static int queue_open(void **self, struct ravel__lin_history *h,
                      const struct ravel__lin_params *p, char *err,
                      size_t errlen)
{
    return container_open(self, h, p, 0, err, errlen);
}

static int stack_open(void **self, struct ravel__lin_history *h,
                      const struct ravel__lin_params *p, char *err,
                      size_t errlen)
{
    return container_open(self, h, p, 1, err, errlen);
}

static int bag_open(void **self, struct ravel__lin_history *h,
                    const struct ravel__lin_params *p, char *err,
                    size_t errlen)
{
    return container_open(self, h, p, 2, err, errlen);
}

static int container_step(void *self, uint64_t state, uint32_t op,
                          struct ravel__lin_next *next)
{
    struct base *m = self;
    int order = ((struct container *)self)->order;
    const struct ravel__lin_op *o = &m->h->ops[op];
    uint32_t s = (uint32_t)state, n = V(m, s)->len, to;
    const uint32_t *k = ravel__lin_vkids(&m->h->vals, s);
    if (m->code[op] == Q_PUT) {
        uint32_t at = n;
        if (order == 2)
            for (at = 0; at < n && k[at] <= o->in; at++)
                ;
        to = edit(m, RAVEL__LIN_VEC, s, op, at, o->in);
        if (to == RAVEL__LIN_V_NONE)
            return -1;
        return ravel__lin_next_add(next, to) ? -1 : 1;
    }
    /* dequeue / pop */
    bool unknown = o->out == RAVEL__LIN_V_NONE;
    if (n == 0) {
        if (!unknown && !is_empty_marker(m, o->out))
            return 0;
        return ravel__lin_next_add(next, s) ? -1 : 1;
    }
    if (!unknown && is_empty_marker(m, o->out))
        return 0;
    if (order != 2) {
        uint32_t at = order == 0 ? 0 : n - 1;
        if (!unknown && k[at] != o->out)
            return 0;
        to = edit(m, RAVEL__LIN_VEC, s, op, at, RAVEL__LIN_V_NONE);
        if (to == RAVEL__LIN_V_NONE)
            return -1;
        return ravel__lin_next_add(next, to) ? -1 : 1;
    }
    /* The bag: any element may come out. */
    int count = 0;
    for (uint32_t at = 0; at < n; at++) {
        if (at > 0 && k[at] == k[at - 1])
            continue; /* equal elements give equal successors */
        if (!unknown && k[at] != o->out)
            continue;
        to = edit(m, RAVEL__LIN_VEC, s, UINT32_MAX, at, RAVEL__LIN_V_NONE);
        if (to == RAVEL__LIN_V_NONE || ravel__lin_next_add(next, to))
            return -1;
        count++;
        k = ravel__lin_vkids(&m->h->vals, s); /* interning may move kids */
    }
    return count;
}

/* ---- mutex ----------------------------------------------------------------- */

/*
 * Knossos's mutex: acquire takes a free lock, release frees a held one;
 * either on a lock in the other state is impossible. Outputs are not
 * looked at (Jepsen's :ok echoes the input). The state is 0 (free) or
 * 1 (held); --init true starts it held.
 */
enum { MX_ACQUIRE = 1, MX_RELEASE };
static const char *const mutex_names[] = {"acquire", "release", NULL};

static int mutex_open(void **self, struct ravel__lin_history *h,
                      const struct ravel__lin_params *p, char *err,
                      size_t errlen)
{
    struct base *m;
    if (base_open(&m, sizeof *m, h, "mutex", mutex_names, err, errlen) != 0)
        return -1;
    if (init_value(m, p, RAVEL__LIN_V_FALSE, err, errlen) != 0 ||
        (m->init != RAVEL__LIN_V_FALSE && m->init != RAVEL__LIN_V_TRUE &&
         m->init != RAVEL__LIN_V_NIL)) {
        if (m->init != RAVEL__LIN_V_FALSE && m->init != RAVEL__LIN_V_TRUE &&
            m->init != RAVEL__LIN_V_NIL)
            snprintf(err, errlen, "--init: the mutex model starts free "
                                  "(false) or held (true)");
        base_close(m);
        return -1;
    }
    m->init = m->init == RAVEL__LIN_V_TRUE;
    *self = m;
    return 0;
}

static int mutex_step(void *self, uint64_t state, uint32_t op,
                      struct ravel__lin_next *next)
{
    struct base *m = self;
    bool acquire = m->code[op] == MX_ACQUIRE;
    if (state == (acquire ? 1u : 0u))
        return 0; /* already held / not held */
    return ravel__lin_next_add(next, acquire ? 1 : 0) ? -1 : 1;
}

static void mutex_describe(void *self, uint64_t state,
                           struct ravel__strbuf *sb)
{
    RAVEL__UNUSED(self);
    ravel__sb_add(sb, state ? "held" : "free");
}

/* ---- multi-register ---------------------------------------------------------- */

/*
 * Knossos's multi-register: registers named by keys, changed only by
 * transactions. The one operation is :txn, whose value is a sequence of
 * micro-operations [:read k v] and [:write k v] (Jepsen's newer [:r k v]
 * and [:w k v] too) applied in order, each read seeing the writes before
 * it; a read of nil is always possible (its value was not recorded), a
 * read of v needs register k to hold v (unset registers hold nil).
 * The micro-operations come from the completion when it is known (the
 * invocation does not know what its reads will return) and from the
 * invocation otherwise.
 *
 * A state is the vector [k1 v1 k2 v2 ...] of the registers that are
 * set, sorted by key id, interned so equal states are one id. --init
 * takes a map, {:x 0 :y 0}.
 */
enum { TX_TXN = 1 };
static const char *const txn_names[] = {"txn", NULL};

/* Is v a micro-operation? Sets *write. */
static bool micro_op(struct base *m, uint32_t v, bool *write)
{
    const struct ravel__lin_vent *e = V(m, v);
    *write = false;
    if (e->kind != RAVEL__LIN_VEC || e->len != 3)
        return false;
    uint32_t f = ravel__lin_vkids(&m->h->vals, v)[0];
    if (V(m, f)->kind != RAVEL__LIN_KEYWORD)
        return false;
    const struct ravel__lin_values *vs = &m->h->vals;
    *write = ravel__lin_vis_name(vs, f, "write") ||
             ravel__lin_vis_name(vs, f, "w");
    return *write || ravel__lin_vis_name(vs, f, "read") ||
           ravel__lin_vis_name(vs, f, "r");
}

/* Sorts the pairs of a flattened [k v ...] vector by key id (insertion:
 * states hold a handful of registers). */
static void sort_pairs(uint32_t *kv, uint32_t npairs)
{
    for (uint32_t i = 1; i < npairs; i++) {
        uint32_t k = kv[2 * i], v = kv[2 * i + 1], j = i;
        while (j > 0 && kv[2 * (j - 1)] > k) {
            kv[2 * j] = kv[2 * (j - 1)];
            kv[2 * j + 1] = kv[2 * (j - 1) + 1];
            j--;
        }
        kv[2 * j] = k;
        kv[2 * j + 1] = v;
    }
}

static int txn_open(void **self, struct ravel__lin_history *h,
                    const struct ravel__lin_params *p, char *err,
                    size_t errlen)
{
    struct base *m;
    if (base_open(&m, sizeof *m, h, "multi-register", txn_names, err,
                  errlen) != 0)
        return -1;
    for (uint32_t i = 0; i < h->nops; i++) {
        const struct ravel__lin_op *o = &h->ops[i];
        uint32_t t = o->out != RAVEL__LIN_V_NONE ? o->out : o->in;
        const struct ravel__lin_vent *e = V(m, t);
        bool ok = e->kind == RAVEL__LIN_VEC, ro = true, w = false;
        for (uint32_t k = 0; ok && k < e->len; k++) {
            ok = micro_op(m, ravel__lin_vkids(&h->vals, t)[k], &w);
            ro = ro && !w;
        }
        if (!ok) {
            base_close(m);
            snprintf(err, errlen,
                     "line %u: a multi-register :txn value is a vector of "
                     "[:read k v] and [:write k v] micro-operations",
                     o->ret_line && o->out != RAVEL__LIN_V_NONE
                         ? o->ret_line
                         : o->call_line);
            return -1;
        }
        m->a[i] = t;
        m->b[i] = ro;
    }
    uint32_t empty = make(m, RAVEL__LIN_VEC, NULL, 0);
    if (empty == RAVEL__LIN_V_NONE ||
        init_value(m, p, empty, err, errlen) != 0) {
        if (empty == RAVEL__LIN_V_NONE)
            snprintf(err, errlen, "out of memory");
        base_close(m);
        return -1;
    }
    if (m->init != empty) {
        const struct ravel__lin_vent *e = V(m, (uint32_t)m->init);
        if (e->kind != RAVEL__LIN_MAP) {
            snprintf(err, errlen, "--init: the multi-register model starts "
                                  "from a map of registers, {:x 0 :y 0}");
            base_close(m);
            return -1;
        }
        uint32_t n = e->len;
        uint32_t *kv = malloc(((size_t)n + 1) * sizeof *kv);
        if (!kv) {
            snprintf(err, errlen, "out of memory");
            base_close(m);
            return -1;
        }
        memcpy(kv, ravel__lin_vkids(&h->vals, (uint32_t)m->init),
               n * sizeof *kv);
        /* Unset and nil are one state; a key given twice keeps its last
         * value, as EDN readers do. */
        uint32_t out = 0;
        for (uint32_t i = 0; i < n; i += 2) {
            uint32_t j = 0;
            while (j < out && kv[j] != kv[i])
                j += 2;
            kv[j] = kv[i];
            kv[j + 1] = kv[i + 1];
            if (j == out)
                out += 2;
        }
        uint32_t w = 0;
        for (uint32_t i = 0; i < out; i += 2)
            if (kv[i + 1] != RAVEL__LIN_V_NIL) {
                kv[w++] = kv[i];
                kv[w++] = kv[i + 1];
            }
        sort_pairs(kv, w / 2);
        m->init = make(m, RAVEL__LIN_VEC, kv, w);
        free(kv);
        if (m->init == RAVEL__LIN_V_NONE) {
            snprintf(err, errlen, "out of memory");
            base_close(m);
            return -1;
        }
    }
    *self = m;
    return 0;
}

static int txn_step(void *self, uint64_t state, uint32_t op,
                    struct ravel__lin_next *next)
{
    struct base *m = self;
    uint32_t to;
    if (tc_get(m, state, op, &to))
        return to == RAVEL__LIN_V_NONE ? 0 : ravel__lin_next_add(next, to)
                                                 ? -1
                                                 : 1;
    const struct ravel__lin_values *vs = &m->h->vals;
    uint32_t t = m->a[op];
    uint32_t nmicro = V(m, t)->len, ns = V(m, (uint32_t)state)->len;
    /* Working copy: the state's pairs plus room for every write. */
    uint32_t *kv = malloc(((size_t)ns + 2 * nmicro + 1) * sizeof *kv);
    if (!kv)
        return -1;
    memcpy(kv, ravel__lin_vkids(vs, (uint32_t)state), ns * sizeof *kv);
    uint32_t n = ns;
    bool possible = true, wrote = false;
    for (uint32_t i = 0; i < nmicro && possible; i++) {
        const uint32_t *mo = ravel__lin_vkids(vs, ravel__lin_vkids(vs, t)[i]);
        bool w = ravel__lin_vis_name(vs, mo[0], "write") ||
                 ravel__lin_vis_name(vs, mo[0], "w");
        uint32_t j = 0;
        while (j < n && kv[j] != mo[1])
            j += 2;
        if (w) {
            wrote = true;
            if (j == n) {
                kv[n++] = mo[1];
                n++;
            }
            kv[j + 1] = mo[2];
        } else if (mo[2] != RAVEL__LIN_V_NIL) {
            possible = j < n && kv[j + 1] == mo[2];
        }
    }
    to = RAVEL__LIN_V_NONE;
    if (possible && !wrote) {
        to = (uint32_t)state;
    } else if (possible) {
        /* Writes of nil unset the register: unset and nil read alike. */
        uint32_t w = 0;
        for (uint32_t j = 0; j < n; j += 2)
            if (kv[j + 1] != RAVEL__LIN_V_NIL) {
                kv[w++] = kv[j];
                kv[w++] = kv[j + 1];
            }
        sort_pairs(kv, w / 2);
        to = make(m, RAVEL__LIN_VEC, kv, w);
        if (to == RAVEL__LIN_V_NONE) {
            free(kv);
            return -1;
        }
    }
    free(kv);
    tc_put(m, state, op, to);
    if (to == RAVEL__LIN_V_NONE)
        return 0;
    return ravel__lin_next_add(next, to) ? -1 : 1;
}

/* Prints a state as the map it stands for, {:x 0, :y 2}. */
static void txn_describe(void *self, uint64_t state, struct ravel__strbuf *sb)
{
    struct base *m = self;
    const uint32_t *kv = ravel__lin_vkids(&m->h->vals, (uint32_t)state);
    uint32_t n = V(m, (uint32_t)state)->len;
    ravel__sb_addc(sb, '{');
    for (uint32_t i = 0; i < n; i += 2) {
        if (i)
            ravel__sb_add(sb, ", ");
        ravel__lin_vprint(&m->h->vals, kv[i], sb, 30);
        ravel__sb_addc(sb, ' ');
        ravel__lin_vprint(&m->h->vals, kv[i + 1], sb, 30);
    }
    ravel__sb_addc(sb, '}');
}

/* ---- noop ------------------------------------------------------------------- */

/* Knossos's noop: every operation is possible in its one state (a
 * baseline; only a malformed history fails it). */
static int noop_open(void **self, struct ravel__lin_history *h,
                     const struct ravel__lin_params *p, char *err,
                     size_t errlen)
{
    RAVEL__UNUSED(p);
    RAVEL__UNUSED(err);
    RAVEL__UNUSED(errlen);
    struct base *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->h = h;
    *self = m;
    return 0;
}

static int noop_step(void *self, uint64_t state, uint32_t op,
                     struct ravel__lin_next *next)
{
    RAVEL__UNUSED(self);
    RAVEL__UNUSED(op);
    return ravel__lin_next_add(next, state) ? -1 : 1;
}

static void noop_describe(void *self, uint64_t state,
                          struct ravel__strbuf *sb)
{
    RAVEL__UNUSED(self);
    RAVEL__UNUSED(state);
    ravel__sb_add(sb, "noop");
}

/* ---- which operations never change the state ----------------------------- */

static bool reg_ro(void *self, uint32_t op)
{
    struct base *m = self;
    return m->code[op] == R_READ ||
           (m->code[op] == R_CAS && m->h->ops[op].out == RAVEL__LIN_V_FALSE);
}

static bool counter_ro(void *self, uint32_t op)
{
    struct base *m = self;
    return m->code[op] == C_READ || m->n[op] == 0;
}

static bool set_ro(void *self, uint32_t op)
{
    struct base *m = self;
    return m->code[op] == S_READ || m->h->ops[op].out == RAVEL__LIN_V_FALSE;
}

static bool container_ro(void *self, uint32_t op)
{
    struct base *m = self;
    const struct ravel__lin_op *o = &m->h->ops[op];
    return m->code[op] == Q_TAKE && o->out != RAVEL__LIN_V_NONE &&
           is_empty_marker(m, o->out);
}

static bool txn_ro(void *self, uint32_t op)
{
    return ((struct base *)self)->b[op] != 0;
}

static bool noop_ro(void *self, uint32_t op)
{
    RAVEL__UNUSED(self);
    RAVEL__UNUSED(op);
    return true;
}

/* ---- the table ---------------------------------------------------------- */

static const struct ravel__lin_model m_register = {
    "register", "a read/write register (read, write)",
    reg_open, base_close, base_init, reg_step, NULL, NULL, NULL,
    base_describe, reg_ro, NULL};
static const struct ravel__lin_model m_cas = {
    "cas-register",
    "a register with compare-and-set (read, write, cas [from to])",
    cas_open, base_close, base_init, reg_step, NULL, NULL, NULL,
    base_describe, reg_ro, NULL};
static const struct ravel__lin_model m_counter = {
    "counter", "an integer counter (add n, inc, dec, read)",
    counter_open, base_close, base_init, counter_step, NULL, NULL, NULL,
    counter_describe, counter_ro, NULL};
static const struct ravel__lin_model m_set = {
    "set", "a set (add x, remove x, read -> #{...})",
    set_open, base_close, base_init, set_step, NULL, NULL, NULL,
    base_describe, set_ro, NULL};
static const struct ravel__lin_model m_queue = {
    "queue", "a FIFO queue (enqueue x, dequeue -> x or :empty)",
    queue_open, base_close, base_init, container_step, NULL, NULL, NULL,
    base_describe, container_ro, NULL};
static const struct ravel__lin_model m_stack = {
    "stack", "a LIFO stack (push x, pop -> x or :empty)",
    stack_open, base_close, base_init, container_step, NULL, NULL, NULL,
    base_describe, container_ro, NULL};
static const struct ravel__lin_model m_bag = {
    "unordered-queue",
    "a queue that may hand out any element (enqueue x, dequeue -> x)",
    bag_open, base_close, base_init, container_step, NULL, NULL, NULL,
    base_describe, container_ro, NULL};

static const struct ravel__lin_model m_fifo = {
    "fifo-queue", "Knossos's name for queue",
    queue_open, base_close, base_init, container_step, NULL, NULL, NULL,
    base_describe, container_ro, NULL};
static const struct ravel__lin_model m_mutex = {
    "mutex", "a lock (acquire, release)",
    mutex_open, base_close, base_init, mutex_step, NULL, NULL, NULL,
    mutex_describe, NULL, NULL};
static const struct ravel__lin_model m_txn = {
    "multi-register",
    "registers by key in transactions (txn [[:read k v] [:write k v]])",
    txn_open, base_close, base_init, txn_step, NULL, NULL, NULL,
    txn_describe, txn_ro, NULL};
static const struct ravel__lin_model m_noop = {
    "noop", "accepts every operation (a baseline)",
    noop_open, base_close, base_init, noop_step, NULL, NULL, NULL,
    noop_describe, noop_ro, NULL};

const struct ravel__lin_model *const ravel__lin_models[] = {
    &m_register, &m_cas,  &ravel__lin_model_kv, &m_counter, &m_set,
    &m_queue,    &m_fifo, &m_stack, &m_bag, &m_mutex, &m_txn, &m_noop,
    NULL};

const struct ravel__lin_model *ravel__lin_model_find(const char *name)
{
    for (int i = 0; ravel__lin_models[i]; i++)
        if (!strcmp(ravel__lin_models[i]->name, name))
            return ravel__lin_models[i];
    return NULL;
}
