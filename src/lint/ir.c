/*
 * ir.c - the program model of ravel lint (see ir.h): growable arrays,
 * interning of symbols, strings and access paths, substitution of
 * parameters, and the builder the front end and the tests use.
 *
 * Interning uses open-addressing tables of ids (a power of two, at most
 * half full, linear probing); an id is an index into the owning array, so
 * equal paths compare as equal integers everywhere in the analyses.
 */
#include "ir.h"

#include "../common/hash.h"
#include "../common/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows array `a` (count n, capacity cap) to hold one more element. */
#define GROW(a, n, cap)                                                        \
    do {                                                                       \
        if ((n) == (cap)) {                                                    \
            uint32_t nc_ = (cap) ? (cap) * 2 : 16;                             \
            void *np_ = realloc((a), (size_t)nc_ * sizeof(*(a)));              \
            RAVEL__CHECK(np_ != NULL);                                         \
            (a) = np_;                                                         \
            (cap) = nc_;                                                       \
        }                                                                      \
    } while (0)

static char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    RAVEL__CHECK(d != NULL);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static uint32_t *table_new(uint32_t cap)
{
    uint32_t *t = malloc((size_t)cap * sizeof *t);
    RAVEL__CHECK(t != NULL);
    memset(t, 0xff, (size_t)cap * sizeof *t);
    return t;
}

void ravel__lint_prog_init(struct ravel__lint_prog *p)
{
    memset(p, 0, sizeof *p);
    p->cur_func = RAVEL__LINT_NONE;
    /* Path 0 is UNKNOWN, so that a zeroed id means "unknown". */
    uint32_t u = ravel__lint_ap(p, RAVEL__AP_UNKNOWN, RAVEL__LINT_NONE, 0, 0);
    RAVEL__CHECK(u == 0);
}

void ravel__lint_prog_free(struct ravel__lint_prog *p)
{
    for (uint32_t i = 0; i < p->nsyms; i++)
        free(p->syms[i].name);
    for (uint32_t i = 0; i < p->nfiles; i++) {
        free(p->files[i].shown);
        free(p->files[i].path);
    }
    for (uint32_t i = 0; i < p->nstrs; i++)
        free(p->strs[i]);
    for (uint32_t i = 0; i < p->naps; i++)
        free(p->apname[i]);
    free(p->syms);
    free(p->symhash);
    free(p->files);
    free(p->strs);
    free(p->strhash);
    free(p->aps);
    free(p->aphash);
    free(p->apname);
    free(p->vals);
    free(p->argv);
    free(p->events);
    free(p->blocks);
    free(p->succs);
    free(p->succon);
    free(p->funcs);
    free(p->fpflows);
    free(p->fpuses);
    free(p->callrets);
    free(p->ranges);
    free(p->published);
    memset(p, 0, sizeof *p);
}

uint32_t ravel__lint_file(struct ravel__lint_prog *p, const char *shown,
                          const char *path)
{
    /* Few files per program: a linear search is fine and keeps order. */
    for (uint32_t i = 0; i < p->nfiles; i++)
        if (!strcmp(p->files[i].shown, shown) && !strcmp(p->files[i].path, path))
            return i;
    GROW(p->files, p->nfiles, p->capfiles);
    p->files[p->nfiles].shown = xstrndup(shown, strlen(shown));
    p->files[p->nfiles].path = xstrndup(path, strlen(path));
    return p->nfiles++;
}

/* ---- symbols ------------------------------------------------------------ */

static uint64_t sym_hash(const char *name, uint32_t tu)
{
    return ravel__fnv1a(name, strlen(name), RAVEL__FNV_INIT ^ tu);
}

static void sym_rehash(struct ravel__lint_prog *p)
{
    uint32_t cap = p->symhash_cap ? p->symhash_cap * 2 : 64;
    free(p->symhash);
    p->symhash = table_new(cap);
    p->symhash_cap = cap;
    for (uint32_t i = 0; i < p->nsyms; i++) {
        uint32_t h = (uint32_t)sym_hash(p->syms[i].name, p->syms[i].tu) & (cap - 1);
        while (p->symhash[h] != RAVEL__LINT_NONE)
            h = (h + 1) & (cap - 1);
        p->symhash[h] = i;
    }
}

uint32_t ravel__lint_sym(struct ravel__lint_prog *p, const char *name,
                         uint32_t tu, enum ravel__lint_sym_kind kind)
{
    if ((p->nsyms + 1) * 2 > p->symhash_cap)
        sym_rehash(p);
    uint32_t mask = p->symhash_cap - 1;
    uint32_t h = (uint32_t)sym_hash(name, tu) & mask;
    while (p->symhash[h] != RAVEL__LINT_NONE) {
        struct ravel__lint_sym *s = &p->syms[p->symhash[h]];
        if (s->tu == tu && !strcmp(s->name, name))
            return p->symhash[h];
        h = (h + 1) & mask;
    }
    GROW(p->syms, p->nsyms, p->capsyms);
    struct ravel__lint_sym *s = &p->syms[p->nsyms];
    s->name = xstrndup(name, strlen(name));
    s->tu = tu;
    s->kind = (uint8_t)kind;
    s->flags = 0;
    s->def = RAVEL__LINT_NONE;
    s->init = 0;
    p->symhash[h] = p->nsyms;
    return p->nsyms++;
}

/* ---- strings ------------------------------------------------------------ */

static void str_rehash(struct ravel__lint_prog *p)
{
    uint32_t cap = p->strhash_cap ? p->strhash_cap * 2 : 64;
    free(p->strhash);
    p->strhash = table_new(cap);
    p->strhash_cap = cap;
    for (uint32_t i = 0; i < p->nstrs; i++) {
        uint32_t h = (uint32_t)ravel__fnv1a(p->strs[i], strlen(p->strs[i]),
                                            RAVEL__FNV_INIT) & (cap - 1);
        while (p->strhash[h] != RAVEL__LINT_NONE)
            h = (h + 1) & (cap - 1);
        p->strhash[h] = i;
    }
}

uint32_t ravel__lint_str(struct ravel__lint_prog *p, const char *s, size_t n)
{
    /* Literals are compared as C strings: text up to the first NUL. */
    const char *nul = memchr(s, 0, n);
    if (nul)
        n = (size_t)(nul - s);
    if ((p->nstrs + 1) * 2 > p->strhash_cap)
        str_rehash(p);
    uint32_t mask = p->strhash_cap - 1;
    uint32_t h = (uint32_t)ravel__fnv1a(s, n, RAVEL__FNV_INIT) & mask;
    while (p->strhash[h] != RAVEL__LINT_NONE) {
        const char *t = p->strs[p->strhash[h]];
        if (strlen(t) == n && !memcmp(t, s, n))
            return p->strhash[h];
        h = (h + 1) & mask;
    }
    GROW(p->strs, p->nstrs, p->capstrs);
    p->strs[p->nstrs] = xstrndup(s, n);
    p->strhash[h] = p->nstrs;
    return p->nstrs++;
}

/* ---- access paths ------------------------------------------------------- */

static uint64_t ap_hash(uint8_t kind, uint32_t parent, int64_t a, int64_t b)
{
    uint64_t h = ravel__hash_ptr(((uint64_t)kind << 32) ^ parent);
    h = ravel__hash_ptr(h ^ (uint64_t)a);
    return ravel__hash_ptr(h ^ ((uint64_t)b * 0x9e3779b97f4a7c15ULL));
}

static void ap_rehash(struct ravel__lint_prog *p)
{
    uint32_t cap = p->aphash_cap ? p->aphash_cap * 2 : 1024;
    free(p->aphash);
    p->aphash = table_new(cap);
    p->aphash_cap = cap;
    for (uint32_t i = 0; i < p->naps; i++) {
        const struct ravel__lint_ap *x = &p->aps[i];
        uint32_t h = (uint32_t)ap_hash(x->kind, x->parent, x->a, x->b) & (cap - 1);
        while (p->aphash[h] != RAVEL__LINT_NONE)
            h = (h + 1) & (cap - 1);
        p->aphash[h] = i;
    }
}

static bool is_step(enum ravel__lint_ap_kind k)
{
    return k == RAVEL__AP_OFFSET || k == RAVEL__AP_INDEX || k == RAVEL__AP_DEREF;
}

uint32_t ravel__lint_ap(struct ravel__lint_prog *p, enum ravel__lint_ap_kind k,
                        uint32_t parent, int64_t a, int64_t b)
{
    if (is_step(k)) {
        if (parent == RAVEL__LINT_NONE || parent == 0)
            return 0;
        const struct ravel__lint_ap *par = &p->aps[parent];
        if (k == RAVEL__AP_OFFSET) {
            if (a == 0)
                return parent;
            if (par->kind == RAVEL__AP_OFFSET)
                return ravel__lint_ap(p, k, par->parent,
                                      (int64_t)((uint64_t)par->a + (uint64_t)a), 0);
        }
        if (k == RAVEL__AP_INDEX) {
            if (a < 0 || (uint64_t)a >= p->naps || a == 0)
                return 0;
            const struct ravel__lint_ap *ix = &p->aps[a];
            if (ix->kind == RAVEL__AP_INT)
                return ravel__lint_ap(p, RAVEL__AP_OFFSET, parent,
                                      (int64_t)((uint64_t)ix->a * (uint64_t)b), 0);
        }
        if (par->depth + 1 > RAVEL__LINT_AP_DEPTH)
            return 0;
    } else {
        parent = RAVEL__LINT_NONE;
        if (k == RAVEL__AP_UNKNOWN)
            a = b = 0;
    }
    if ((p->naps + 1) * 2 > p->aphash_cap)
        ap_rehash(p);
    uint32_t mask = p->aphash_cap - 1;
    uint32_t h = (uint32_t)ap_hash((uint8_t)k, parent, a, b) & mask;
    while (p->aphash[h] != RAVEL__LINT_NONE) {
        const struct ravel__lint_ap *x = &p->aps[p->aphash[h]];
        if (x->kind == k && x->parent == parent && x->a == a && x->b == b)
            return p->aphash[h];
        h = (h + 1) & mask;
    }
    GROW(p->aps, p->naps, p->capaps);
    if (p->capapname < p->capaps) {
        char **nn = realloc(p->apname, (size_t)p->capaps * sizeof *nn);
        RAVEL__CHECK(nn != NULL);
        for (uint32_t i = p->capapname; i < p->capaps; i++)
            nn[i] = NULL;
        p->apname = nn;
        p->capapname = p->capaps;
    }
    struct ravel__lint_ap *x = &p->aps[p->naps];
    x->kind = (uint8_t)k;
    x->parent = parent;
    x->a = a;
    x->b = b;
    if (is_step(k)) {
        const struct ravel__lint_ap *par = &p->aps[parent];
        x->depth = (uint8_t)(par->depth + 1);
        x->root = par->root;
        x->has_param = par->has_param;
        x->has_index = par->has_index;
        if (k == RAVEL__AP_INDEX) {
            x->has_index = 1;
            x->has_param |= p->aps[a].has_param;
        }
    } else {
        x->depth = 0;
        x->root = p->naps;
        x->has_param = k == RAVEL__AP_PARAM;
        x->has_index = 0;
    }
    p->apname[p->naps] = NULL;
    p->aphash[h] = p->naps;
    return p->naps++;
}

uint32_t ravel__lint_ap_root(struct ravel__lint_prog *p,
                             enum ravel__lint_ap_kind k, int64_t a, int64_t b)
{
    return ravel__lint_ap(p, k, RAVEL__LINT_NONE, a, b);
}

uint32_t ravel__lint_ap_deref(struct ravel__lint_prog *p, uint32_t ap)
{
    return ravel__lint_ap(p, RAVEL__AP_DEREF, ap, 0, 0);
}

uint32_t ravel__lint_ap_offset(struct ravel__lint_prog *p, uint32_t ap,
                               int64_t off)
{
    return ravel__lint_ap(p, RAVEL__AP_OFFSET, ap, off, 0);
}

uint32_t ravel__lint_ap_index(struct ravel__lint_prog *p, uint32_t ap,
                              uint32_t index_ap, int64_t scale)
{
    return ravel__lint_ap(p, RAVEL__AP_INDEX, ap, (int64_t)index_ap, scale);
}

void ravel__lint_ap_setname(struct ravel__lint_prog *p, uint32_t ap,
                            const char *name)
{
    if (ap == 0 || ap >= p->naps || p->apname[ap] || !name || !*name)
        return;
    p->apname[ap] = xstrndup(name, strlen(name));
}

bool ravel__lint_ap_has_deref(const struct ravel__lint_prog *p, uint32_t ap)
{
    while (ap != RAVEL__LINT_NONE && is_step((enum ravel__lint_ap_kind)p->aps[ap].kind)) {
        if (p->aps[ap].kind == RAVEL__AP_DEREF)
            return true;
        ap = p->aps[ap].parent;
    }
    return false;
}

uint32_t ravel__lint_ap_subst(struct ravel__lint_prog *p, uint32_t ap,
                              const uint32_t *args, uint32_t nargs)
{
    const struct ravel__lint_ap x = p->aps[ap];
    if (!x.has_param)
        return ap;
    uint32_t r;
    switch ((enum ravel__lint_ap_kind)x.kind) {
    case RAVEL__AP_PARAM:
        if (x.a < 0 || (uint64_t)x.a >= nargs || args[x.a] == RAVEL__LINT_NONE)
            return 0;
        return p->vals[args[x.a]].ap[0];
    case RAVEL__AP_OFFSET:
        r = ravel__lint_ap_offset(p, ravel__lint_ap_subst(p, x.parent, args, nargs), x.a);
        break;
    case RAVEL__AP_DEREF:
        r = ravel__lint_ap_deref(p, ravel__lint_ap_subst(p, x.parent, args, nargs));
        break;
    case RAVEL__AP_INDEX: {
        uint32_t par = ravel__lint_ap_subst(p, x.parent, args, nargs);
        uint32_t ix = ravel__lint_ap_subst(p, (uint32_t)x.a, args, nargs);
        r = ravel__lint_ap_index(p, par, ix, x.b);
        break;
    }
    default:
        return 0;
    }
    if (r != 0 && p->apname[ap] && !p->apname[r])
        ravel__lint_ap_setname(p, r, p->apname[ap]);
    return r;
}

bool ravel__lint_ap_may_alias(const struct ravel__lint_prog *p, uint32_t a,
                              uint32_t b)
{
    if (a == b || a == 0 || b == 0)
        return false;
    const struct ravel__lint_ap *x = &p->aps[a], *y = &p->aps[b];
    if (x->root != y->root || x->depth != y->depth ||
        !(x->has_index && y->has_index))
        return false;
    while (a != b) {
        x = &p->aps[a];
        y = &p->aps[b];
        if (x->kind != y->kind)
            return false;
        if (x->kind == RAVEL__AP_OFFSET && x->a != y->a)
            return false;
        if (x->kind == RAVEL__AP_INDEX && x->b != y->b)
            return false;
        if (!is_step((enum ravel__lint_ap_kind)x->kind))
            return false;
        a = x->parent;
        b = y->parent;
    }
    return true;
}

/* One segment of a path, from ap up to the nearest DEREF step or the
 * root: its constant offset, the gcd of its index scales (0: no index),
 * and the node it stops at. */
static uint32_t segment(const struct ravel__lint_prog *p, uint32_t ap, int64_t *off,
                        int64_t *g)
{
    *off = 0;
    *g = 0;
    for (;;) {
        const struct ravel__lint_ap *x = &p->aps[ap];
        if (x->kind == RAVEL__AP_OFFSET) {
            *off += x->a;
        } else if (x->kind == RAVEL__AP_INDEX) {
            int64_t a = *g, b = x->b < 0 ? -x->b : x->b;
            while (b) {
                int64_t t = a % b;
                a = b;
                b = t;
            }
            *g = a;
        } else {
            return ap;
        }
        ap = x->parent;
    }
}

bool ravel__lint_ap_may_overlap(const struct ravel__lint_prog *p, uint32_t a, uint32_t b)
{
    if (a == b || a == 0 || b == 0)
        return false;
    const struct ravel__lint_ap *x = &p->aps[a], *y = &p->aps[b];
    if (x->root != y->root || x->has_index == y->has_index)
        return false;
    if (y->has_index) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    /* a has the index steps, b has none. */
    for (;;) {
        int64_t oa, ga, ob, gb;
        uint32_t ua = segment(p, a, &oa, &ga), ub = segment(p, b, &ob, &gb);
        if (ga == 0 ? oa != ob : (ob < oa || (ob - oa) % ga != 0))
            return false;
        const struct ravel__lint_ap *xa = &p->aps[ua], *xb = &p->aps[ub];
        if (xa->kind == RAVEL__AP_DEREF && xb->kind == RAVEL__AP_DEREF) {
            a = xa->parent;
            b = xb->parent;
            continue;
        }
        return ua == ub;
    }
}

/* ---- rendering ---------------------------------------------------------- */

static void render_rvalue(const struct ravel__lint_prog *p, uint32_t ap,
                          struct ravel__strbuf *out, int depth);

static bool is_object_address(const struct ravel__lint_prog *p, uint32_t ap)
{
    /* An object's own address (global, local, literal, allocation, or a
     * field/element of one) as opposed to a pointer value held somewhere. */
    while (p->aps[ap].kind == RAVEL__AP_OFFSET || p->aps[ap].kind == RAVEL__AP_INDEX)
        ap = p->aps[ap].parent;
    switch (p->aps[ap].kind) {
    case RAVEL__AP_GLOBAL:
    case RAVEL__AP_LOCAL:
    case RAVEL__AP_STR:
    case RAVEL__AP_ALLOC:
        return true;
    default:
        return false;
    }
}

/* An index value's name as the source had it: clang names a variable's
 * SSA copies after it (`i.0`, `i1`), and computed values after the
 * operation (`call`, `idxprom`, `and`): those show as `?`. */
static void index_name(const char *name, struct ravel__strbuf *out)
{
    static const char *const made[] = {
        "call", "add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr",
        "conv", "idxprom", "idx", "inc", "dec", "cond", "tobool", "lnot", "neg", "not",
        "cmp", "frombool", "arrayidx", "sext", "zext", "trunc", "phi", "sel", "mod",
    };
    char n[64];
    size_t k = 0;
    while (name && name[k] && name[k] != '.' && k < sizeof n - 1) {
        n[k] = name[k];
        k++;
    }
    while (k > 1 && n[k - 1] >= '0' && n[k - 1] <= '9')
        k--;
    n[k] = 0;
    bool ok = k > 0;
    for (size_t i = 0; ok && i < sizeof made / sizeof made[0]; i++)
        ok = strcmp(n, made[i]) != 0;
    ravel__sb_add(out, ok ? n : "?");
}

static void render_lvalue(const struct ravel__lint_prog *p, uint32_t ap,
                          struct ravel__strbuf *out, int depth)
{
    const struct ravel__lint_ap *x = &p->aps[ap];
    const char *name = p->apname[ap];
    if (depth > 2 * RAVEL__LINT_AP_DEPTH) {
        ravel__sb_add(out, "...");
        return;
    }
    switch ((enum ravel__lint_ap_kind)x->kind) {
    case RAVEL__AP_GLOBAL: {
        const char *n = p->syms[x->a].name;
        /* clang names a function's static local "func.var". */
        const char *dot = strrchr(n, '.');
        ravel__sb_add(out, dot && dot[1] ? dot + 1 : n);
        return;
    }
    case RAVEL__AP_LOCAL:
        ravel__sb_add(out, name ? name : "a local variable");
        return;
    case RAVEL__AP_STR:
        ravel__sb_add(out, "a string literal");
        return;
    case RAVEL__AP_ALLOC:
        ravel__sb_add(out, "a heap object");
        return;
    case RAVEL__AP_INDEX: {
        render_lvalue(p, x->parent, out, depth + 1);
        ravel__sb_addc(out, '[');
        /* An index computed in the function carries the compiler's name
         * (`call`, `idxprom`, `i.0`): show `?` rather than those. */
        uint32_t ix = (uint32_t)x->a;
        if (p->aps[ix].kind == RAVEL__AP_VALUE || p->aps[ix].kind == RAVEL__AP_UNKNOWN)
            index_name(p->apname[ix], out);
        else if (p->aps[ix].depth > 0)
            ravel__sb_addc(out, '?');
        else
            render_rvalue(p, ix, out, depth + 1);
        ravel__sb_addc(out, ']');
        return;
    }
    case RAVEL__AP_OFFSET:
        if (name && is_object_address(p, x->parent)) {
            render_lvalue(p, x->parent, out, depth + 1);
            ravel__sb_printf(out, ".%s", name);
        } else if (name) {
            render_rvalue(p, x->parent, out, depth + 1);
            ravel__sb_printf(out, "->%s", name);
        } else {
            render_lvalue(p, x->parent, out, depth + 1);
            ravel__sb_printf(out, "+%lld", (long long)x->a);
        }
        return;
    default:
        ravel__sb_addc(out, '*');
        render_rvalue(p, ap, out, depth + 1);
        return;
    }
}

static void render_rvalue(const struct ravel__lint_prog *p, uint32_t ap,
                          struct ravel__strbuf *out, int depth)
{
    const struct ravel__lint_ap *x = &p->aps[ap];
    const char *name = p->apname[ap];
    if (depth > 2 * RAVEL__LINT_AP_DEPTH) {
        ravel__sb_add(out, "...");
        return;
    }
    switch ((enum ravel__lint_ap_kind)x->kind) {
    case RAVEL__AP_PARAM:
        if (name)
            ravel__sb_add(out, name);
        else
            ravel__sb_printf(out, "parameter %lld", (long long)x->a + 1);
        return;
    case RAVEL__AP_ARG:
    case RAVEL__AP_VALUE:
        ravel__sb_add(out, name ? name : "a value");
        return;
    case RAVEL__AP_INT:
        ravel__sb_printf(out, "%lld", (long long)x->a);
        return;
    case RAVEL__AP_FUNC:
        ravel__sb_add(out, p->syms[x->a].name);
        return;
    case RAVEL__AP_DEREF:
        render_lvalue(p, x->parent, out, depth + 1);
        return;
    case RAVEL__AP_UNKNOWN:
        ravel__sb_addc(out, '?');
        return;
    default:
        ravel__sb_addc(out, '&');
        render_lvalue(p, ap, out, depth + 1);
        return;
    }
}

void ravel__lint_ap_lvalue(const struct ravel__lint_prog *p, uint32_t ap,
                           char *buf, size_t len)
{
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    render_lvalue(p, ap, &sb, 0);
    if (len) {
        size_t n = sb.len < len - 1 ? sb.len : len - 1;
        memcpy(buf, ravel__sb_str(&sb), n);
        buf[n] = 0;
    }
    ravel__sb_free(&sb);
}

/* ---- values ------------------------------------------------------------- */

uint32_t ravel__lint_val(struct ravel__lint_prog *p, const uint32_t *aps,
                         uint32_t n)
{
    GROW(p->vals, p->nvals, p->capvals);
    struct ravel__lint_val *v = &p->vals[p->nvals];
    v->n = 0;
    for (uint32_t i = 0; i < n && v->n < RAVEL__LINT_VAL_MAX; i++) {
        bool dup = false;
        for (uint32_t j = 0; j < v->n; j++)
            dup |= v->ap[j] == aps[i];
        if (!dup)
            v->ap[v->n++] = aps[i];
    }
    if (v->n == 0)
        v->ap[v->n++] = 0;
    return p->nvals++;
}

uint32_t ravel__lint_val1(struct ravel__lint_prog *p, uint32_t ap)
{
    return ravel__lint_val(p, &ap, 1);
}

uint32_t ravel__lint_val_subst(struct ravel__lint_prog *p, uint32_t v,
                               const uint32_t *args, uint32_t nargs)
{
    struct ravel__lint_val src = p->vals[v];
    bool any = false;
    for (uint32_t i = 0; i < src.n; i++)
        any |= p->aps[src.ap[i]].has_param;
    if (!any)
        return v;
    uint32_t out[RAVEL__LINT_VAL_MAX * RAVEL__LINT_VAL_MAX];
    uint32_t n = 0;
    /* Choice k substitutes each parameter by member k of its argument
     * (the primary when the argument has fewer members). */
    uint32_t alt[64];
    uint32_t na = nargs < 64 ? nargs : 64;
    for (uint32_t k = 0; k < RAVEL__LINT_VAL_MAX; k++) {
        bool differs = k == 0;
        for (uint32_t i = 0; i < na; i++) {
            if (args[i] == RAVEL__LINT_NONE) {
                alt[i] = RAVEL__LINT_NONE;
                continue;
            }
            const struct ravel__lint_val *av = &p->vals[args[i]];
            if (k < av->n && k > 0) {
                alt[i] = ravel__lint_val1(p, av->ap[k]);
                differs = true;
            } else {
                alt[i] = args[i];
            }
        }
        if (!differs)
            break;
        for (uint32_t m = 0; m < src.n; m++)
            out[n++] = ravel__lint_ap_subst(p, src.ap[m], alt, na);
    }
    return ravel__lint_val(p, out, n);
}

enum ravel__lint_same ravel__lint_val_same(const struct ravel__lint_prog *p,
                                           uint32_t v, uint32_t w)
{
    const struct ravel__lint_val *a = &p->vals[v], *b = &p->vals[w];
    if (a->ap[0] != 0 && a->ap[0] == b->ap[0])
        return RAVEL__SAME_YES;
    /* Only where control flow joined two values: paths[i] and paths[j]
     * are two values as surely as two variables are (Dialyzer, too,
     * compares variables, not what they might hold). */
    for (uint32_t i = 0; i < a->n; i++)
        for (uint32_t j = 0; j < b->n; j++)
            if (a->ap[i] != 0 && a->ap[i] == b->ap[j])
                return RAVEL__SAME_MIGHT;
    return RAVEL__SAME_NO;
}

/* ---- building functions ------------------------------------------------- */

uint32_t ravel__lint_func_begin(struct ravel__lint_prog *p, uint32_t sym,
                                uint32_t nparams, uint32_t nblocks,
                                uint32_t file, uint32_t line, uint32_t tu)
{
    RAVEL__CHECK(p->cur_func == RAVEL__LINT_NONE);
    GROW(p->funcs, p->nfuncs, p->capfuncs);
    struct ravel__lint_func *f = &p->funcs[p->nfuncs];
    f->sym = sym;
    f->nparams = nparams;
    f->first_block = p->nblocks;
    f->nblocks = nblocks;
    f->file = file;
    f->line = line;
    f->tu = tu;
    f->dispatch = 0;
    if (tu != RAVEL__LINT_NONE && tu + 1 > p->ntus)
        p->ntus = tu + 1;
    p->cur_func = p->nfuncs;
    return p->nfuncs++;
}

void ravel__lint_block_begin(struct ravel__lint_prog *p)
{
    RAVEL__CHECK(p->cur_func != RAVEL__LINT_NONE);
    GROW(p->blocks, p->nblocks, p->capblocks);
    struct ravel__lint_block *b = &p->blocks[p->nblocks++];
    b->first_event = p->nevents;
    b->nevents = 0;
    b->first_succ = p->nsuccs;
    b->nsucc = 0;
}

uint32_t ravel__lint_add_event(struct ravel__lint_prog *p,
                               enum ravel__lint_ev_kind kind, uint32_t callee,
                               const uint32_t *args, uint32_t nargs,
                               uint32_t file, uint32_t line, uint32_t col,
                               unsigned flags)
{
    RAVEL__CHECK(p->nblocks > 0 && p->cur_func != RAVEL__LINT_NONE);
    if (nargs > UINT16_MAX)
        nargs = UINT16_MAX;
    GROW(p->events, p->nevents, p->capevents);
    struct ravel__lint_event *e = &p->events[p->nevents];
    e->kind = (uint8_t)kind;
    e->flags = (uint8_t)flags;
    e->nargs = (uint16_t)nargs;
    e->callee = callee;
    e->args = p->nargv;
    e->file = file;
    e->line = line;
    e->col = col;
    for (uint32_t i = 0; i < nargs; i++) {
        GROW(p->argv, p->nargv, p->capargv);
        p->argv[p->nargv++] = args[i];
    }
    p->blocks[p->nblocks - 1].nevents++;
    return p->nevents++;
}

void ravel__lint_add_succ_on(struct ravel__lint_prog *p, uint32_t block,
                             uint32_t ev, bool ok)
{
    RAVEL__CHECK(p->nblocks > 0 && p->cur_func != RAVEL__LINT_NONE);
    GROW(p->succs, p->nsuccs, p->capsuccs);
    if (p->capsuccon != p->capsuccs) {
        uint32_t *n = realloc(p->succon, (size_t)p->capsuccs * sizeof *n);
        RAVEL__CHECK(n != NULL);
        p->succon = n;
        p->capsuccon = p->capsuccs;
    }
    p->succon[p->nsuccs] = ev == RAVEL__LINT_NONE ? ev : ok ? ev : ev | RAVEL__LINT_ON_FAIL;
    p->succs[p->nsuccs++] = block;
    p->blocks[p->nblocks - 1].nsucc++;
}

void ravel__lint_add_succ(struct ravel__lint_prog *p, uint32_t block)
{
    ravel__lint_add_succ_on(p, block, RAVEL__LINT_NONE, true);
}

void ravel__lint_func_end(struct ravel__lint_prog *p)
{
    RAVEL__CHECK(p->cur_func != RAVEL__LINT_NONE);
    struct ravel__lint_func *f = &p->funcs[p->cur_func];
    RAVEL__CHECK(p->nblocks - f->first_block == f->nblocks);
    /* A successor outside the function would be a front-end bug. */
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const struct ravel__lint_block *bl = &p->blocks[f->first_block + b];
        for (uint32_t s = 0; s < bl->nsucc; s++)
            RAVEL__CHECK(p->succs[bl->first_succ + s] < f->nblocks);
    }
    p->cur_func = RAVEL__LINT_NONE;
}

void ravel__lint_fp_flow(struct ravel__lint_prog *p, uint32_t from, uint32_t to)
{
    GROW(p->fpflows, p->nfpflows, p->capfpflows);
    p->fpflows[p->nfpflows++] = (struct ravel__lint_fpflow){from, to};
}

void ravel__lint_fp_use(struct ravel__lint_prog *p, uint32_t ev, uint32_t argi,
                        uint32_t from)
{
    GROW(p->fpuses, p->nfpuses, p->capfpuses);
    p->fpuses[p->nfpuses++] = (struct ravel__lint_fpuse){ev, argi, from};
}

void ravel__lint_call_ret(struct ravel__lint_prog *p, uint32_t ev, uint32_t ap)
{
    GROW(p->callrets, p->ncallrets, p->capcallrets);
    p->callrets[p->ncallrets++] = (struct ravel__lint_callret){ev, ap};
}

void ravel__lint_range_add(struct ravel__lint_prog *p, uint32_t ev, int64_t lo, int64_t hi)
{
    RAVEL__CHECK(p->nranges == 0 || p->ranges[p->nranges - 1].ev < ev);
    GROW(p->ranges, p->nranges, p->capranges);
    p->ranges[p->nranges++] = (struct ravel__lint_range){ev, lo, hi};
}

bool ravel__lint_range_of(const struct ravel__lint_prog *p, uint32_t ev, int64_t *lo,
                          int64_t *hi)
{
    uint32_t a = 0, b = p->nranges;
    while (a < b) {
        uint32_t m = a + (b - a) / 2;
        if (p->ranges[m].ev < ev)
            a = m + 1;
        else
            b = m;
    }
    if (a == p->nranges || p->ranges[a].ev != ev)
        return false;
    *lo = p->ranges[a].lo;
    *hi = p->ranges[a].hi;
    return true;
}

void ravel__lint_prog_link(struct ravel__lint_prog *p)
{
    for (uint32_t i = 0; i < p->nsyms; i++)
        p->syms[i].def = RAVEL__LINT_NONE;
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        struct ravel__lint_sym *s = &p->syms[p->funcs[f].sym];
        if (s->def == RAVEL__LINT_NONE)
            s->def = f;
    }
}
