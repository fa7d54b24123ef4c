/*
 * points.c - what pointers point to, as far as ravel lint needs it:
 * which functions a call through a pointer reaches, and which object a
 * pointer read from memory or returned by a call denotes.
 *
 * It runs once, between reading the program (front.c) and analysing it
 * (flow.c), and rewrites the program model in place, so that the
 * analyses see direct calls and named objects and need no points-to
 * queries of their own.
 *
 * Function pointers (field-based, flow- and context-insensitive). The
 * front end records where function pointers flow between *cells* (ir.h:
 * struct ravel__lint_fpflow): a struct field by its type (every object of
 * type `struct methods` shares the cell of its field `enter`), a global or
 * a global array, a parameter, a function's result, memory of a pointer
 * type otherwise. Solving is inclusion (Andersen-style) over those few
 * cells: each cell's set of functions grows until nothing changes; a set
 * larger than RAVEL__LINT_FP_MAX is "too many" and its calls stay
 * unresolved. Field-based is the classic cheap choice for C function
 * pointers: tables of methods are nearly always typed structs
 * (sqlite3_mutex_methods, a pool's callbacks), and a field is filled from
 * one of a few implementations.
 *
 * An indirect call with one target becomes a direct call. With several,
 * it becomes a call of a *dispatcher*, a function made here that calls
 * each target on its own path (struct ravel__lint_func.dispatch); flow.c
 * gives a dispatcher's summary the locks any of its targets takes (see
 * there: a do-nothing lock method is what a program configures when it
 * runs no threads). A start routine given to pthread_create as a loaded
 * pointer is replaced the same way.
 *
 * Objects (Steensgaard-like, for the common cases only). A global pointer
 * variable that the whole program only ever sets to one object (`p = q =
 * &g`), whose address is never taken and that has no initializer, reads
 * as that object: `*p` is `g`. A call of a function that returns the same
 * object on every path (`get()` returning `&the`, or `&x->field` of its
 * parameter x) denotes that object, with the call's arguments put in:
 * `get()->field` is `the.field`. A call whose arguments are all constants
 * and whose result is not one object stands for the same opaque value at
 * every such call, so a lock looked up by a constant key
 * (`sqlite3MutexAlloc(SQLITE_MUTEX_STATIC_VFS1)`) is one lock in every
 * function that takes it. Objects from malloc already have their
 * allocation site as their name (ir.h: ALLOC). Rewriting repeats twice,
 * so one rule's result can feed the other (a pointer set to what a call
 * returns).
 */
#include "points.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE RAVEL__LINT_NONE

/* ---- function pointers ---------------------------------------------------- */

struct fset {
    uint32_t n;
    bool over; /* more than RAVEL__LINT_FP_MAX: unknown */
    uint32_t v[RAVEL__LINT_FP_MAX];
};

static bool fset_add(struct fset *s, uint32_t sym)
{
    if (s->over)
        return false;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == sym)
            return false;
    if (s->n == RAVEL__LINT_FP_MAX) {
        s->over = true;
        return true;
    }
    uint32_t i = s->n++;
    while (i > 0 && s->v[i - 1] > sym) {
        s->v[i] = s->v[i - 1];
        i--;
    }
    s->v[i] = sym;
    return true;
}

static bool fset_union(struct fset *d, const struct fset *o)
{
    bool ch = false;
    if (o->over && !d->over) {
        d->over = true;
        return true;
    }
    for (uint32_t i = 0; i < o->n; i++)
        ch |= fset_add(d, o->v[i]);
    return ch;
}

/* Adds source `from` (a function or a cell) to s. */
static bool fset_from(struct fset *s, const struct fset *cells, uint32_t from)
{
    if (from & RAVEL__LINT_FP_FUNC)
        return fset_add(s, from & ~RAVEL__LINT_FP_FUNC);
    return fset_union(s, &cells[from]);
}

/* Dispatchers made so far, to share one among calls with the same
 * targets and number of arguments. */
struct disp {
    struct fset targets;
    uint32_t nargs;
    uint32_t sym;
};

static uint32_t dispatcher(struct ravel__lint_prog *p, struct disp **d, uint32_t *nd,
                           uint32_t *capd, const struct fset *targets, uint32_t nargs,
                           const struct ravel__lint_event *at)
{
    for (uint32_t i = 0; i < *nd; i++)
        if ((*d)[i].nargs == nargs && (*d)[i].targets.n == targets->n &&
            !memcmp((*d)[i].targets.v, targets->v, targets->n * sizeof targets->v[0]))
            return (*d)[i].sym;
    char name[512];
    size_t len = (size_t)snprintf(name, sizeof name, "one of ");
    for (uint32_t i = 0; i < targets->n && len < sizeof name; i++)
        len += (size_t)snprintf(name + len, sizeof name - len, "%s%s", i ? ", " : "",
                                p->syms[targets->v[i]].name);
    /* A C name has no spaces, so no program symbol can take it; the same
     * targets with another number of arguments get the count added. */
    for (uint32_t i = 0; i < *nd && len < sizeof name; i++)
        if ((*d)[i].targets.n == targets->n &&
            !memcmp((*d)[i].targets.v, targets->v, targets->n * sizeof targets->v[0])) {
            snprintf(name + len, sizeof name - len, " (%u arguments)", nargs);
            break;
        }
    uint32_t sym = ravel__lint_sym(p, name, NONE, RAVEL__SYM_FUNC);
    uint32_t k = targets->n;
    uint32_t f = ravel__lint_func_begin(p, sym, nargs, k + 2, at->file, at->line, NONE);
    p->funcs[f].dispatch = 1;
    uint32_t *args = malloc(((size_t)nargs + 1) * sizeof *args);
    RAVEL__CHECK(args != NULL);
    for (uint32_t i = 0; i < nargs; i++)
        args[i] = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_PARAM, i, 0));
    ravel__lint_block_begin(p);
    for (uint32_t i = 0; i < k; i++)
        ravel__lint_add_succ(p, 1 + i);
    for (uint32_t i = 0; i < k; i++) {
        ravel__lint_block_begin(p);
        ravel__lint_add_event(p, RAVEL__EV_CALL, targets->v[i], args, nargs, at->file,
                              at->line, at->col, 0);
        ravel__lint_add_succ(p, k + 1);
    }
    ravel__lint_block_begin(p);
    ravel__lint_add_event(p, RAVEL__EV_RET, NONE, NULL, 0, at->file, at->line, at->col, 0);
    ravel__lint_func_end(p);
    free(args);
    if (*nd == *capd) {
        *capd = *capd ? *capd * 2 : 16;
        *d = realloc(*d, (size_t)*capd * sizeof **d);
        RAVEL__CHECK(*d != NULL);
    }
    (*d)[(*nd)++] = (struct disp){*targets, nargs, sym};
    return sym;
}

static int cmp_use(const void *x, const void *y)
{
    const struct ravel__lint_fpuse *a = x, *b = y;
    if (a->ev != b->ev)
        return a->ev < b->ev ? -1 : 1;
    if (a->argi != b->argi)
        return a->argi < b->argi ? -1 : 1;
    return 0;
}

static void resolve_calls(struct ravel__lint_prog *p, struct ravel__lint_points_stats *st)
{
    uint32_t nc = p->nstrs;
    struct fset *cells = calloc(nc ? nc : 1, sizeof *cells);
    RAVEL__CHECK(cells != NULL);
    /* Inclusion to a fixpoint; sets only grow and are bounded. */
    for (int round = 0; round < 100; round++) {
        bool ch = false;
        for (uint32_t i = 0; i < p->nfpflows; i++) {
            const struct ravel__lint_fpflow *fl = &p->fpflows[i];
            if (fl->to < nc && ((fl->from & RAVEL__LINT_FP_FUNC) || fl->from < nc))
                ch |= fset_from(&cells[fl->to], cells, fl->from);
        }
        if (!ch)
            break;
    }
    if (p->nfpuses > 1)
        qsort(p->fpuses, p->nfpuses, sizeof *p->fpuses, cmp_use);
    struct disp *d = NULL;
    uint32_t nd = 0, capd = 0;
    uint32_t nevents = p->nevents;
    for (uint32_t i = 0; i < p->nfpuses;) {
        uint32_t j = i;
        struct fset t;
        memset(&t, 0, sizeof t);
        while (j < p->nfpuses && p->fpuses[j].ev == p->fpuses[i].ev &&
               p->fpuses[j].argi == p->fpuses[i].argi) {
            uint32_t from = p->fpuses[j].from;
            if ((from & RAVEL__LINT_FP_FUNC) || from < nc)
                fset_from(&t, cells, from);
            j++;
        }
        const struct ravel__lint_fpuse u = p->fpuses[i];
        i = j;
        if (u.ev >= nevents)
            continue;
        if (t.over || t.n == 0) {
            st->unresolved++;
            continue;
        }
        const struct ravel__lint_event e = p->events[u.ev];
        if (u.argi == NONE) {
            uint32_t sym = t.n == 1 ? t.v[0]
                                    : dispatcher(p, &d, &nd, &capd, &t, e.nargs, &e);
            p->events[u.ev].callee = sym;
        } else if (u.argi < e.nargs) {
            uint32_t sym = t.n == 1 ? t.v[0] : dispatcher(p, &d, &nd, &capd, &t, 1, &e);
            p->argv[e.args + u.argi] =
                ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_FUNC, sym, 0));
        }
        st->resolved++;
        if (t.n > 1)
            st->multi++;
    }
    st->dispatchers = nd;
    free(d);
    free(cells);
    ravel__lint_prog_link(p);
}

/* ---- objects ------------------------------------------------------------- */

#define MANY UINT32_MAX

struct rw {
    struct ravel__lint_prog *p;
    uint32_t n;      /* paths that existed when the round began */
    uint32_t *obj;   /* per path: the one object stored there, 0, or MANY */
    uint32_t *rootto; /* per VALUE root of a call's result: what it is */
    uint32_t *memo;  /* per path: rewritten id + 1 */
};

/* An address whose stored values are tracked: a part of a global that is
 * not thread-local, has no initializer and whose address is not taken. */
static bool tracked(const struct ravel__lint_prog *p, uint32_t ap, const uint8_t *taken)
{
    if (ap == 0)
        return false;
    const struct ravel__lint_ap *x = &p->aps[ap];
    const struct ravel__lint_ap *r = &p->aps[x->root];
    if (r->kind != RAVEL__AP_GLOBAL || x->has_index || ravel__lint_ap_has_deref(p, ap))
        return false;
    if (p->syms[r->a].flags & (RAVEL__SYMF_TLS | RAVEL__SYMF_INIT))
        return false;
    return !taken[r->a];
}

/* A value that is one fixed object: a global, a stack object or an
 * allocation site, or a field of one (no pointer followed). */
static bool fixed_object(const struct ravel__lint_prog *p, uint32_t ap)
{
    if (ap == 0 || p->aps[ap].has_index || ravel__lint_ap_has_deref(p, ap))
        return false;
    switch (ravel__lint_ap_rootkind(p, ap)) {
    case RAVEL__AP_GLOBAL:
    case RAVEL__AP_LOCAL:
    case RAVEL__AP_ALLOC:
        return true;
    default:
        return false;
    }
}

static uint32_t rewrite(struct rw *w, uint32_t ap)
{
    struct ravel__lint_prog *p = w->p;
    if (ap == 0 || ap >= w->n)
        return ap;
    if (w->memo[ap])
        return w->memo[ap] - 1;
    const struct ravel__lint_ap x = p->aps[ap];
    uint32_t r = ap;
    switch ((enum ravel__lint_ap_kind)x.kind) {
    case RAVEL__AP_VALUE:
        if (w->rootto[ap])
            r = w->rootto[ap];
        break;
    case RAVEL__AP_OFFSET: {
        uint32_t par = rewrite(w, x.parent);
        if (par != x.parent)
            r = ravel__lint_ap_offset(p, par, x.a);
        break;
    }
    case RAVEL__AP_INDEX: {
        uint32_t par = rewrite(w, x.parent);
        uint32_t ix = rewrite(w, (uint32_t)x.a);
        if (par != x.parent || ix != (uint32_t)x.a)
            r = ravel__lint_ap_index(p, par, ix, x.b);
        break;
    }
    case RAVEL__AP_DEREF: {
        uint32_t par = rewrite(w, x.parent);
        if (par < w->n && w->obj[par] != 0 && w->obj[par] != MANY) {
            r = w->obj[par];
            uint32_t root = p->aps[r].root;
            if (root >= p->npublished) {
                uint32_t n = p->naps;
                uint8_t *np = realloc(p->published, n);
                RAVEL__CHECK(np != NULL);
                memset(np + p->npublished, 0, n - p->npublished);
                p->published = np;
                p->npublished = n;
            }
            p->published[root] = 1;
        }
        else if (par != x.parent)
            r = ravel__lint_ap_deref(p, par);
        break;
    }
    default:
        break;
    }
    if (r != ap && p->apname[ap] && !p->apname[r])
        ravel__lint_ap_setname(p, r, p->apname[ap]);
    w->memo[ap] = r + 1;
    return r;
}

static void mark_taken(const struct ravel__lint_prog *p, uint8_t *taken, uint32_t v)
{
    if (v == NONE)
        return;
    const struct ravel__lint_val *val = &p->vals[v];
    for (uint32_t m = 0; m < val->n; m++) {
        uint32_t ap = val->ap[m];
        if (ap == 0 || ravel__lint_ap_has_deref(p, ap))
            continue;
        const struct ravel__lint_ap *r = &p->aps[p->aps[ap].root];
        if (r->kind == RAVEL__AP_GLOBAL)
            taken[r->a] = 1;
    }
}

/* The one object a returned value denotes, or MANY: a global, heap or
 * parameter-based object, also when the value joins it with NULL (one
 * return of the object and one of NULL on an error path, merged into a
 * phi at -O0). */
static uint32_t returned_object(const struct ravel__lint_prog *p, uint32_t v)
{
    if (v == NONE)
        return MANY;
    const struct ravel__lint_val *val = &p->vals[v];
    uint32_t ap = val->ap[0];
    if (val->n > 1) {
        /* A phi: its own opaque primary, then the inputs. */
        ap = 0;
        for (uint32_t m = 1; m < val->n; m++) {
            uint32_t x = val->ap[m];
            if (x && p->aps[x].kind == RAVEL__AP_INT && p->aps[x].a == 0)
                continue;
            if (ap && ap != x)
                return MANY;
            ap = x;
        }
    }
    if (ap == 0 || p->aps[ap].has_index)
        return MANY;
    enum ravel__lint_ap_kind rk = ravel__lint_ap_rootkind(p, ap);
    return rk == RAVEL__AP_GLOBAL || rk == RAVEL__AP_ALLOC || rk == RAVEL__AP_PARAM ? ap
                                                                                    : MANY;
}

static void note(uint32_t *slot, uint32_t ap)
{
    if (*slot == 0)
        *slot = ap;
    else if (*slot != ap)
        *slot = MANY;
}

/* The result of a call whose arguments are all constants, as one opaque
 * value shared by every such call (`sqlite3MutexAlloc(SQLITE_MUTEX_
 * STATIC_VFS1)` in two functions is one lock): a lookup of a static
 * object by a constant key gives the same object each time. An opaque
 * value, not an object: memory reached through it is still never
 * compared, only locks named by it are. 0 when an argument varies. */
static uint32_t same_call_root(struct ravel__lint_prog *p, const struct ravel__lint_event *e)
{
    char key[256];
    int len = snprintf(key, sizeof key, "%s(", p->syms[e->callee].name);
    for (uint32_t i = 0; i < e->nargs; i++) {
        uint32_t v = ravel__lint_ev_arg(p, e, i);
        uint32_t ap = v == NONE || p->vals[v].n != 1 ? 0 : p->vals[v].ap[0];
        if (ap == 0 || p->aps[ap].kind != RAVEL__AP_INT || len >= (int)sizeof key)
            return 0;
        len += snprintf(key + len, sizeof key - (size_t)len, "%s%lld", i ? ", " : "",
                        (long long)p->aps[ap].a);
    }
    if (len >= (int)sizeof key - 1)
        return 0;
    key[len++] = ')';
    key[len] = 0;
    uint32_t r = ravel__lint_ap_root(p, RAVEL__AP_VALUE, NONE, ravel__lint_str(p, key, (size_t)len));
    ravel__lint_ap_setname(p, r, key);
    return r;
}

/* One round: find the tracked pointers and the functions' results, then
 * rewrite every event's values. Returns the number of values changed. */
static uint32_t objects_round(struct ravel__lint_prog *p)
{
    uint32_t n = p->naps;
    uint8_t *taken = calloc(p->nsyms ? p->nsyms : 1, 1);
    struct rw w = {p, n, calloc(n ? n : 1, sizeof *w.obj), calloc(n ? n : 1, sizeof *w.rootto),
                   calloc(n ? n : 1, sizeof *w.memo)};
    uint32_t *ret = calloc(p->nfuncs ? p->nfuncs : 1, sizeof *ret);
    RAVEL__CHECK(taken && w.obj && w.rootto && w.memo && ret);

    /* Addresses taken: passed to a call, stored, returned. */
    for (uint32_t ev = 0; ev < p->nevents; ev++) {
        const struct ravel__lint_event *e = &p->events[ev];
        if (e->kind == RAVEL__EV_CALL)
            for (uint32_t i = 0; i < e->nargs; i++)
                mark_taken(p, taken, ravel__lint_ev_arg(p, e, i));
        else if (e->kind == RAVEL__EV_STORE && e->nargs > 1)
            mark_taken(p, taken, ravel__lint_ev_arg(p, e, 1));
        else if (e->kind == RAVEL__EV_RET && e->nargs > 0)
            mark_taken(p, taken, ravel__lint_ev_arg(p, e, 0));
    }
    /* What each tracked address is ever set to, and each function's result. */
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const struct ravel__lint_func *fn = &p->funcs[f];
        for (uint32_t b = 0; b < fn->nblocks; b++) {
            const struct ravel__lint_block *bl = &p->blocks[fn->first_block + b];
            for (uint32_t k = 0; k < bl->nevents; k++) {
                const struct ravel__lint_event *e = &p->events[bl->first_event + k];
                if (e->kind == RAVEL__EV_STORE) {
                    uint32_t a = ravel__lint_val_primary(p, ravel__lint_ev_arg(p, e, 0));
                    if (!tracked(p, a, taken))
                        continue;
                    uint32_t v = e->nargs > 1 ? ravel__lint_ev_arg(p, e, 1) : NONE;
                    if (v == NONE || p->vals[v].n != 1 ||
                        !fixed_object(p, p->vals[v].ap[0]))
                        w.obj[a] = MANY;
                    else
                        note(&w.obj[a], p->vals[v].ap[0]);
                } else if (e->kind == RAVEL__EV_RET) {
                    uint32_t v = e->nargs ? ravel__lint_ev_arg(p, e, 0) : NONE;
                    note(&ret[f], returned_object(p, v));
                }
            }
        }
    }
    /* Calls whose result is known: their opaque root becomes the object. */
    for (uint32_t i = 0; i < p->ncallrets; i++) {
        const struct ravel__lint_callret *cr = &p->callrets[i];
        const struct ravel__lint_event *e = &p->events[cr->ev];
        if (cr->ap >= n || e->callee == NONE || p->syms[e->callee].def == NONE)
            continue;
        uint32_t r = ret[p->syms[e->callee].def];
        if (r == 0 || r == MANY) {
            uint32_t same = same_call_root(p, e);
            if (same)
                w.rootto[cr->ap] = same;
            continue;
        }
        uint32_t to = ravel__lint_ap_subst(p, r, p->argv + e->args, e->nargs);
        if (to != 0 && p->aps[to].depth < RAVEL__LINT_AP_DEPTH)
            w.rootto[cr->ap] = to;
    }
    /* Rewrite. */
    uint32_t changed = 0;
    uint32_t nv = p->nvals;
    uint32_t *vmemo = calloc(nv ? nv : 1, sizeof *vmemo);
    RAVEL__CHECK(vmemo != NULL);
    for (uint32_t i = 0; i < p->nargv; i++) {
        uint32_t v = p->argv[i];
        if (v == NONE || v >= nv)
            continue;
        if (!vmemo[v]) {
            struct ravel__lint_val val = p->vals[v];
            uint32_t out[RAVEL__LINT_VAL_MAX];
            bool diff = false;
            for (uint32_t m = 0; m < val.n; m++) {
                out[m] = rewrite(&w, val.ap[m]);
                diff |= out[m] != val.ap[m];
            }
            vmemo[v] = (diff ? ravel__lint_val(p, out, val.n) : v) + 1;
        }
        if (vmemo[v] - 1 != v) {
            p->argv[i] = vmemo[v] - 1;
            changed++;
        }
    }
    free(vmemo);
    free(taken);
    free(w.obj);
    free(w.rootto);
    free(w.memo);
    free(ret);
    return changed;
}

void ravel__lint_points(struct ravel__lint_prog *p, struct ravel__lint_points_stats *st)
{
    memset(st, 0, sizeof *st);
    resolve_calls(p, st);
    for (int round = 0; round < 2; round++) {
        uint32_t c = objects_round(p);
        st->rewritten += c;
        if (!c)
            break;
    }
}
