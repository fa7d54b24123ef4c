/*
 * history.c - building histories from events (see history.h).
 *
 * Readers report events in file order; this file pairs each completion
 * with its process's open call, which is where the format-independent
 * mistakes (a return without a call, two open calls on one process, a
 * completion of another function) are caught.
 */
#include "history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ravel__lin_history_init(struct ravel__lin_history *h)
{
    memset(h, 0, sizeof *h);
    return ravel__lin_values_init(&h->vals);
}

void ravel__lin_history_free(struct ravel__lin_history *h)
{
    ravel__lin_values_free(&h->vals);
    free(h->ops);
    free(h->procs);
    free(h->pending);
    free(h->ptable);
    free(h->dropped);
    memset(h, 0, sizeof *h);
}

/* Index of process `proc`, or -1 if it is new. A small open-addressing
 * table (load <= 1/2) from value id to index: about one probe per event
 * whatever the number of processes. */
static int proc_find(const struct ravel__lin_history *h, uint32_t proc)
{
    if (!h->ptable_cap)
        return -1;
    uint32_t j = (uint32_t)(proc * 0x9e3779b1u) & (h->ptable_cap - 1);
    for (; h->ptable[j]; j = (j + 1) & (h->ptable_cap - 1))
        if (h->procs[h->ptable[j] - 1] == proc)
            return (int)h->ptable[j] - 1;
    return -1;
}

int ravel__lin_proc_index(struct ravel__lin_history *h, uint32_t proc)
{
    int found = proc_find(h, proc);
    if (found >= 0)
        return found;
    if (h->nprocs == h->procs_cap) {
        uint32_t cap = h->procs_cap ? h->procs_cap * 2 : 16;
        uint32_t *np = realloc(h->procs, cap * sizeof *np);
        if (!np)
            return -1;
        h->procs = np;
        uint32_t *pp = realloc(h->pending, cap * sizeof *pp);
        if (!pp)
            return -1;
        h->pending = pp;
        h->procs_cap = cap;
    }
    if ((h->nprocs + 1) * 2 > h->ptable_cap) {
        uint32_t cap = h->ptable_cap ? h->ptable_cap * 2 : 64;
        uint32_t *nt = calloc(cap, sizeof *nt);
        if (!nt)
            return -1;
        for (uint32_t i = 0; i < h->nprocs; i++) {
            uint32_t j = (uint32_t)(h->procs[i] * 0x9e3779b1u) & (cap - 1);
            while (nt[j])
                j = (j + 1) & (cap - 1);
            nt[j] = i + 1;
        }
        free(h->ptable);
        h->ptable = nt;
        h->ptable_cap = cap;
    }
    h->procs[h->nprocs] = proc;
    h->pending[h->nprocs] = 0;
    uint32_t j = (uint32_t)(proc * 0x9e3779b1u) & (h->ptable_cap - 1);
    while (h->ptable[j])
        j = (j + 1) & (h->ptable_cap - 1);
    h->ptable[j] = h->nprocs + 1;
    return (int)h->nprocs++;
}

/*
 * Jepsen gives a crashed process a new number, so a long history may
 * have thousands; 2^22 keeps the per-process tables (12 bytes each) of a
 * hostile file under 64 MiB.
 */
#define MAX_PROCS (1u << 22)

static int proc_slot(struct ravel__lin_history *h, uint32_t proc, char *err,
                     size_t errlen)
{
    if (h->nprocs >= MAX_PROCS) {
        int found = proc_find(h, proc);
        if (found < 0)
            snprintf(err, errlen, "more than %u processes", MAX_PROCS);
        return found;
    }
    int p = ravel__lin_proc_index(h, proc);
    if (p < 0)
        snprintf(err, errlen, "out of memory");
    return p;
}

static void proc_name(const struct ravel__lin_history *h, uint32_t proc,
                      char *buf, size_t len)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__lin_vprint(&h->vals, proc, &sb, 40);
    snprintf(buf, len, "%s", ravel__sb_str(&sb));
    ravel__sb_free(&sb);
}

static void value_text(const struct ravel__lin_history *h, uint32_t v,
                       char *buf, size_t len)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    ravel__lin_vprint(&h->vals, v, &sb, 40);
    snprintf(buf, len, "%s", ravel__sb_str(&sb));
    ravel__sb_free(&sb);
}

static struct ravel__lin_op *new_op(struct ravel__lin_history *h, char *err,
                                    size_t errlen)
{
    if (h->nops >= RAVEL__LIN_MAX_OPS) {
        snprintf(err, errlen, "more than %u operations", RAVEL__LIN_MAX_OPS);
        return NULL;
    }
    if (h->nops == h->ops_cap) {
        uint32_t cap = h->ops_cap ? h->ops_cap * 2 : 256;
        struct ravel__lin_op *no = realloc(h->ops, cap * sizeof *no);
        bool *nd = no ? realloc(h->dropped, cap * sizeof *nd) : NULL;
        if (no)
            h->ops = no;
        if (!no || !nd) {
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        h->dropped = nd;
        h->ops_cap = cap;
    }
    h->dropped[h->nops] = false;
    return &h->ops[h->nops++];
}

static uint64_t tick(struct ravel__lin_history *h, uint64_t time)
{
    if (time != RAVEL__LIN_NEVER)
        return time;
    return h->clock++;
}

int ravel__lin_invoke(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                      uint32_t key, uint32_t in, uint32_t line, uint64_t time,
                      char *err, size_t errlen)
{
    int p = proc_slot(h, proc, err, errlen);
    if (p < 0)
        return -1;
    if (h->pending[p]) {
        char pn[64], fn[64];
        const struct ravel__lin_op *o = &h->ops[h->pending[p] - 1];
        proc_name(h, proc, pn, sizeof pn);
        value_text(h, o->f, fn, sizeof fn);
        snprintf(err, errlen,
                 "process %s invokes again while its call %s from line %u "
                 "has not returned (duplicate call)",
                 pn, fn, o->call_line);
        return -1;
    }
    struct ravel__lin_op *o = new_op(h, err, errlen);
    if (!o)
        return -1;
    *o = (struct ravel__lin_op){(uint32_t)p, f,
                                key,         in,
                                RAVEL__LIN_V_NONE, tick(h, time),
                                RAVEL__LIN_NEVER,  line,
                                0};
    h->pending[p] = h->nops;
    return 0;
}

/* The open call of proc, checked against f; NULL with a message if none. */
static struct ravel__lin_op *open_call(struct ravel__lin_history *h,
                                       uint32_t proc, uint32_t f,
                                       const char *what, int *pslot,
                                       char *err, size_t errlen)
{
    int p = proc_slot(h, proc, err, errlen);
    if (p < 0)
        return NULL;
    char pn[64], fn[64];
    if (!h->pending[p]) {
        proc_name(h, proc, pn, sizeof pn);
        value_text(h, f, fn, sizeof fn);
        snprintf(err, errlen,
                 "process %s %s %s without a pending call (a return without "
                 "a call)",
                 pn, what, f == RAVEL__LIN_V_NONE ? "an operation" : fn);
        return NULL;
    }
    struct ravel__lin_op *o = &h->ops[h->pending[p] - 1];
    if (f != RAVEL__LIN_V_NONE && f != o->f) {
        char gn[64];
        proc_name(h, proc, pn, sizeof pn);
        value_text(h, f, fn, sizeof fn);
        value_text(h, o->f, gn, sizeof gn);
        snprintf(err, errlen,
                 "process %s %s %s but its pending call from line %u is %s",
                 pn, what, fn, o->call_line, gn);
        return NULL;
    }
    *pslot = p;
    return o;
}

int ravel__lin_complete(struct ravel__lin_history *h, uint32_t proc,
                        uint32_t f, uint32_t out, uint32_t line, uint64_t time,
                        char *err, size_t errlen)
{
    int p;
    struct ravel__lin_op *o =
        open_call(h, proc, f, "completes", &p, err, errlen);
    if (!o)
        return -1;
    uint64_t t = tick(h, time);
    if (t < o->call) {
        snprintf(err, errlen, "return time %llu is before the call time %llu",
                 (unsigned long long)t, (unsigned long long)o->call);
        return -1;
    }
    o->out = out;
    o->ret = t == RAVEL__LIN_NEVER ? RAVEL__LIN_NEVER - 1 : t;
    o->ret_line = line;
    h->pending[p] = 0;
    return 0;
}

int ravel__lin_forget(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                      uint32_t line, char *err, size_t errlen)
{
    int p;
    struct ravel__lin_op *o = open_call(h, proc, f, "fails", &p, err, errlen);
    if (!o)
        return -1;
    h->dropped[h->pending[p] - 1] = true;
    o->ret_line = line;
    h->pending[p] = 0;
    return 0;
}

int ravel__lin_abandon(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                       uint32_t line, char *err, size_t errlen)
{
    int p;
    struct ravel__lin_op *o =
        open_call(h, proc, f, "times out", &p, err, errlen);
    if (!o)
        return -1;
    o->ret_line = line;
    h->pending[p] = 0;
    return 0;
}

int ravel__lin_add_op(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                      uint32_t key, uint32_t in, uint32_t out, uint64_t call,
                      uint64_t ret, uint32_t line, char *err, size_t errlen)
{
    if (ret != RAVEL__LIN_NEVER && ret < call) {
        snprintf(err, errlen, "return time %llu is before the call time %llu",
                 (unsigned long long)ret, (unsigned long long)call);
        return -1;
    }
    int p = proc_slot(h, proc, err, errlen);
    if (p < 0)
        return -1;
    struct ravel__lin_op *o = new_op(h, err, errlen);
    if (!o)
        return -1;
    *o = (struct ravel__lin_op){(uint32_t)p, f,   key,  in,  out,
                                call,        ret, line, line};
    return 0;
}

static int cmp_call(const void *a, const void *b)
{
    const struct ravel__lin_op *x = a, *y = b;
    if (x->call != y->call)
        return x->call < y->call ? -1 : 1;
    /* Stable on equal times: keep source order (lines, then process). */
    if (x->call_line != y->call_line)
        return x->call_line < y->call_line ? -1 : 1;
    return x->process < y->process ? -1 : x->process > y->process;
}

int ravel__lin_finish(struct ravel__lin_history *h, char *err, size_t errlen)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < h->nops; i++)
        if (!h->dropped[i])
            h->ops[m++] = h->ops[i];
    h->nops = m;
    for (uint32_t p = 0; p < h->nprocs; p++)
        h->pending[p] = 0;
    /* Readers add operations in call order almost always: sort only when
     * needed (the sort is stable either way, see cmp_call). */
    bool sorted = true;
    for (uint32_t i = 1; i < h->nops && sorted; i++)
        sorted = cmp_call(&h->ops[i - 1], &h->ops[i]) <= 0;
    if (!sorted)
        qsort(h->ops, h->nops, sizeof *h->ops, cmp_call);
    RAVEL__UNUSED(err);
    RAVEL__UNUSED(errlen);
    return 0;
}

int ravel__lin_independent(struct ravel__lin_history *h, bool nil_unknown,
                           char *err, size_t errlen)
{
    const struct ravel__lin_values *vs = &h->vals;
    for (uint32_t i = 0; i < h->nops; i++) {
        struct ravel__lin_op *o = &h->ops[i];
        const struct ravel__lin_vent *e = ravel__lin_vget(vs, o->in);
        if (o->key != RAVEL__LIN_V_NONE) {
            snprintf(err, errlen, "line %u: an independent history keeps "
                                  "the key in the [key value] tuple, not "
                                  "in :key",
                     o->call_line);
            return -1;
        }
        if (e->kind != RAVEL__LIN_VEC || e->len != 2) {
            snprintf(err, errlen, "line %u: an independent history's "
                                  "values are [key value] tuples",
                     o->call_line);
            return -1;
        }
        o->key = ravel__lin_vkids(vs, o->in)[0];
        o->in = ravel__lin_vkids(vs, o->in)[1];
        if (o->out == RAVEL__LIN_V_NONE || o->out == RAVEL__LIN_V_TRUE ||
            o->out == RAVEL__LIN_V_FALSE)
            continue;
        e = ravel__lin_vget(vs, o->out);
        if (e->kind != RAVEL__LIN_VEC || e->len != 2 ||
            ravel__lin_vkids(vs, o->out)[0] != o->key) {
            snprintf(err, errlen, "line %u: the completion's value is not "
                                  "a [key value] tuple of the invocation's "
                                  "key",
                     o->ret_line ? o->ret_line : o->call_line);
            return -1;
        }
        o->out = ravel__lin_vkids(vs, o->out)[1];
        if (nil_unknown && o->out == RAVEL__LIN_V_NIL)
            o->out = RAVEL__LIN_V_NONE;
    }
    return 0;
}

void ravel__lin_describe_op(const struct ravel__lin_history *h, uint32_t op,
                            struct ravel__strbuf *sb)
{
    const struct ravel__lin_op *o = &h->ops[op];
    ravel__sb_add(sb, "p");
    const struct ravel__lin_vent *pe = ravel__lin_vget(&h->vals,
                                                       h->procs[o->process]);
    if (pe->kind == RAVEL__LIN_KEYWORD)
        ravel__sb_addn(sb, ravel__lin_vtext(&h->vals, h->procs[o->process]),
                       pe->len);
    else
        ravel__lin_vprint(&h->vals, h->procs[o->process], sb, 24);
    ravel__sb_addc(sb, ' ');
    const struct ravel__lin_vent *fe = ravel__lin_vget(&h->vals, o->f);
    if (fe->kind == RAVEL__LIN_KEYWORD || fe->kind == RAVEL__LIN_STR)
        ravel__sb_addn(sb, ravel__lin_vtext(&h->vals, o->f), fe->len);
    else
        ravel__lin_vprint(&h->vals, o->f, sb, 24);
    if (o->key != RAVEL__LIN_V_NONE) {
        ravel__sb_add(sb, " key=");
        ravel__lin_vprint(&h->vals, o->key, sb, 24);
    }
    ravel__sb_addc(sb, ' ');
    ravel__lin_vprint(&h->vals, o->in, sb, 40);
    if (o->ret == RAVEL__LIN_NEVER) {
        ravel__sb_add(sb, " -> ? (never returned)");
    } else {
        ravel__sb_add(sb, " -> ");
        ravel__lin_vprint(&h->vals, o->out, sb, 40);
    }
}
