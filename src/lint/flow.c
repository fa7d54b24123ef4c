/*
 * flow.c - the per-function dataflow of ravel lint, its summaries, and
 * the check-then-act analysis built on them (see flow.h for the picture).
 *
 * Order of work:
 *
 *   1. classify every called symbol once (pairs.h roles) and find the
 *      blocks that sit in a cycle (a create there makes many threads);
 *   2. split the call graph into strongly connected components (Tarjan,
 *      iterative: real call chains are deep) and visit them callees
 *      first; a component with recursion is analysed twice so that its
 *      functions see each other's summaries;
 *   3. per function: the effects prepass (which locals escape, which
 *      parameters are captured or written through), the fixpoint over
 *      its blocks, then one recording pass over the fixpoint's states
 *      that reports findings and writes the summary;
 *   then lockset.c compares the threads' accesses using these summaries
 *   (flow.c provides, lockset.c uses: nothing here calls lockset.c)
 *
 * The false-alarm filters follow Dialyzer's race analysis (Christakis and
 * Sagonas, "Static Detection of Race Conditions in Erlang", PADL 2010):
 * report a check and an act only when a control-flow path leads from one
 * to the other (here: the dataflow itself, so branches that exclude each
 * other never pair up); only when their arguments are the same variable,
 * bound through calls, or the same literal (here: equal access paths
 * after substituting parameters; different literals never pair); and
 * only for resources that can be shared (Dialyzer: public named tables;
 * here: not a local object that never escapes). C needs one more: no
 * report when one lock is held continuously from the check to the act.
 */
#include "flow.h"

#include "../common/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE RAVEL__LINT_NONE

/* ---- small sets ----------------------------------------------------------- */

bool ravel__lint_ls_has(const struct ravel__lint_lockset *s, uint32_t x)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return true;
    return false;
}

static void ls_add_must(struct ravel__lint_lockset *s, uint32_t x)
{
    if (x == 0 || ravel__lint_ls_has(s, x) || s->n == RAVEL__LINT_LOCKS_MAX)
        return;
    s->v[s->n++] = x;
}

static void ls_add_may(struct ravel__lint_lockset *s, uint32_t x)
{
    if (x == 0 || ravel__lint_ls_has(s, x))
        return;
    if (s->n == RAVEL__LINT_LOCKS_MAX) {
        s->all = 1;
        return;
    }
    s->v[s->n++] = x;
}

static void ls_del(struct ravel__lint_lockset *s, uint32_t x)
{
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->v[i] == x) {
            s->v[i] = s->v[--s->n];
            return;
        }
    }
}

/* Removes lock x from a held set, in either mode. */
static void ls_del_lock(struct ravel__lint_lockset *s, uint32_t x)
{
    x &= ~RAVEL__LINT_LS_SHARED;
    ls_del(s, x);
    ls_del(s, x | RAVEL__LINT_LS_SHARED);
}

/* Removes from s everything in the may-set r (all of it when r->all). */
static void ls_minus(struct ravel__lint_lockset *s, const struct ravel__lint_lockset *r)
{
    if (r->all) {
        s->n = 0;
        return;
    }
    for (uint32_t i = 0; i < r->n; i++)
        ls_del_lock(s, r->v[i]);
}

static void ls_intersect(struct ravel__lint_lockset *s, const struct ravel__lint_lockset *o)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (ravel__lint_ls_has(o, s->v[i]))
            s->v[k++] = s->v[i];
    s->n = (uint8_t)k;
}

static void ls_union_may(struct ravel__lint_lockset *s, const struct ravel__lint_lockset *o)
{
    if (o->all)
        s->all = 1;
    for (uint32_t i = 0; i < o->n; i++)
        ls_add_may(s, o->v[i]);
}

static void ls_union_must(struct ravel__lint_lockset *s, const struct ravel__lint_lockset *o)
{
    for (uint32_t i = 0; i < o->n; i++)
        ls_add_must(s, o->v[i]);
}

static bool ls_equal(const struct ravel__lint_lockset *a, const struct ravel__lint_lockset *b)
{
    if (a->n != b->n || a->all != b->all)
        return false;
    for (uint32_t i = 0; i < a->n; i++)
        if (!ravel__lint_ls_has(b, a->v[i]))
            return false;
    return true;
}

bool ravel__lint_ls_disjoint(const struct ravel__lint_lockset *a,
                             const struct ravel__lint_lockset *b)
{
    for (uint32_t i = 0; i < a->n; i++)
        if (ravel__lint_ls_has(b, a->v[i]))
            return false;
    return true;
}

bool ravel__lint_ls_excludes(const struct ravel__lint_lockset *a,
                             const struct ravel__lint_lockset *b)
{
    for (uint32_t i = 0; i < a->n; i++) {
        uint32_t x = a->v[i];
        if (ravel__lint_ls_has(b, x & ~RAVEL__LINT_LS_SHARED))
            return true;
        if (!(x & RAVEL__LINT_LS_SHARED) && ravel__lint_ls_has(b, x | RAVEL__LINT_LS_SHARED))
            return true;
    }
    return false;
}

bool ravel__lint_ts_has(const struct ravel__lint_tset *s, uint32_t x)
{
    if (s->all)
        return true;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return true;
    return false;
}

static void ts_add(struct ravel__lint_tset *s, uint32_t x)
{
    if (x == NONE || s->all)
        return;
    for (uint32_t i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return;
    if (s->n == RAVEL__LINT_THREADS_MAX) {
        s->all = 1;
        return;
    }
    s->v[s->n++] = x;
}

static void ts_del(struct ravel__lint_tset *s, uint32_t x)
{
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->v[i] == x) {
            s->v[i] = s->v[--s->n];
            return;
        }
    }
}

static void ts_union(struct ravel__lint_tset *s, const struct ravel__lint_tset *o)
{
    if (o->all)
        s->all = 1;
    for (uint32_t i = 0; i < o->n; i++)
        ts_add(s, o->v[i]);
}

static void ts_intersect(struct ravel__lint_tset *s, const struct ravel__lint_tset *o)
{
    if (o->all)
        return;
    if (s->all) {
        *s = *o;
        return;
    }
    uint8_t k = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (ravel__lint_ts_has(o, s->v[i]))
            s->v[k++] = s->v[i];
    s->n = k;
}

static bool ts_equal(const struct ravel__lint_tset *a, const struct ravel__lint_tset *b)
{
    if (a->n != b->n || a->all != b->all)
        return false;
    for (uint32_t i = 0; i < a->n; i++)
        if (!ravel__lint_ts_has(b, a->v[i]))
            return false;
    return true;
}

/* ---- paths in summaries ----------------------------------------------------- */

/* True when a path means the same in a caller: it mentions nothing local
 * to the function (its stack objects, its opaque values). */
static bool iface_ok(const struct ravel__lint_prog *p, uint32_t ap)
{
    if (ap == 0)
        return false;
    for (;;) {
        const struct ravel__lint_ap *x = &p->aps[ap];
        switch ((enum ravel__lint_ap_kind)x->kind) {
        case RAVEL__AP_GLOBAL:
        case RAVEL__AP_FUNC:
        case RAVEL__AP_PARAM:
        case RAVEL__AP_INT:
        case RAVEL__AP_STR:
        case RAVEL__AP_ALLOC:
        case RAVEL__AP_ARG:
            return true;
        case RAVEL__AP_INDEX:
            if (!iface_ok(p, (uint32_t)x->a))
                return false;
            ap = x->parent;
            break;
        case RAVEL__AP_OFFSET:
        case RAVEL__AP_DEREF:
            ap = x->parent;
            break;
        default:
            return false;
        }
    }
}

/* A joined handle for the summary: an index the caller cannot name (the
 * callee's loop variable in `pthread_join(pool->threads[i], 0)`) becomes
 * "any index", which may alias every element; 0 when more is local. */
static uint32_t iface_join(struct ravel__lint_prog *p, uint32_t ap)
{
    if (ap == 0 || iface_ok(p, ap))
        return ap;
    const struct ravel__lint_ap x = p->aps[ap];
    switch ((enum ravel__lint_ap_kind)x.kind) {
    case RAVEL__AP_INDEX: {
        uint32_t par = iface_join(p, x.parent);
        uint32_t ix = (uint32_t)x.a;
        if (!iface_ok(p, ix)) {
            uint32_t any = ravel__lint_sym(p, "(any index)", NONE, RAVEL__SYM_GLOBAL);
            ix = ravel__lint_ap_root(p, RAVEL__AP_GLOBAL, any, 0);
        }
        return par ? ravel__lint_ap_index(p, par, ix, x.b) : 0;
    }
    case RAVEL__AP_OFFSET: {
        uint32_t par = iface_join(p, x.parent);
        return par ? ravel__lint_ap_offset(p, par, x.a) : 0;
    }
    case RAVEL__AP_DEREF: {
        uint32_t par = iface_join(p, x.parent);
        return par ? ravel__lint_ap_deref(p, par) : 0;
    }
    default:
        return 0;
    }
}

static bool val_iface_ok(const struct ravel__lint_prog *p, uint32_t v)
{
    return iface_ok(p, ravel__lint_val_primary(p, v));
}

static void ls_subst(struct ravel__lint_prog *p, struct ravel__lint_lockset *out,
                     const struct ravel__lint_lockset *in, const uint32_t *args,
                     uint32_t nargs, bool may)
{
    memset(out, 0, sizeof *out);
    out->all = in->all;
    for (uint32_t i = 0; i < in->n; i++) {
        uint32_t mode = in->v[i] & RAVEL__LINT_LS_SHARED;
        uint32_t l = ravel__lint_ap_subst(p, in->v[i] & ~RAVEL__LINT_LS_SHARED, args, nargs);
        if (l)
            l |= mode;
        if (may)
            ls_add_may(out, l);
        else
            ls_add_must(out, l);
    }
}

static void ls_keep_iface(const struct ravel__lint_prog *p, struct ravel__lint_lockset *s)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->n; i++)
        if (iface_ok(p, s->v[i] & ~RAVEL__LINT_LS_SHARED))
            s->v[k++] = s->v[i];
    s->n = (uint8_t)k;
}

/* ---- growing summary arrays --------------------------------------------------- */

#define PUSH(arr, n, cap)                                                      \
    do {                                                                       \
        if ((n) == (cap)) {                                                    \
            uint32_t nc_ = (cap) ? (cap) * 2 : 8;                              \
            void *np_ = realloc((arr), (size_t)nc_ * sizeof(*(arr)));          \
            RAVEL__CHECK(np_ != NULL);                                         \
            (arr) = np_;                                                       \
            (cap) = nc_;                                                       \
        }                                                                      \
    } while (0)

/* ---- interned sets ------------------------------------------------------- */

static void sort_u32(uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i], j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

static uint32_t set_hash(uint32_t n, uint32_t all, const uint32_t *v)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL * (n * 2 + all + 1);
    for (uint32_t i = 0; i < n; i++)
        h = (h ^ v[i]) * 0x100000001b3ULL;
    return (uint32_t)(h ^ (h >> 29));
}

/* Both pools are the same open-addressing table over a growing array;
 * the macro keeps the two element types apart without a void* layer. */
#define INTERN(pool, T, s)                                                     \
    do {                                                                       \
        T c_;                                                                  \
        memset(&c_, 0, sizeof c_);                                             \
        c_.n = (s)->n;                                                         \
        c_.all = (s)->all;                                                     \
        memcpy(c_.v, (s)->v, (size_t)(s)->n * sizeof c_.v[0]);                 \
        sort_u32(c_.v, c_.n);                                                  \
        if ((pool)->n == 0) { /* id 0: the empty set */                        \
            (pool)->cap = 64;                                                  \
            (pool)->v = calloc((pool)->cap, sizeof *(pool)->v);                \
            (pool)->hash_cap = 128;                                            \
            (pool)->hash = malloc((pool)->hash_cap * sizeof *(pool)->hash);    \
            RAVEL__CHECK((pool)->v && (pool)->hash);                           \
            memset((pool)->hash, 0xff, (pool)->hash_cap * sizeof *(pool)->hash); \
            (pool)->hash[set_hash(0, 0, NULL) & ((pool)->hash_cap - 1)] = 0;   \
            (pool)->n = 1;                                                     \
        }                                                                      \
        if (((pool)->n + 1) * 2 > (pool)->hash_cap) {                          \
            uint32_t hc_ = (pool)->hash_cap * 2;                               \
            uint32_t *nh_ = malloc((size_t)hc_ * sizeof *nh_);                 \
            RAVEL__CHECK(nh_ != NULL);                                         \
            memset(nh_, 0xff, (size_t)hc_ * sizeof *nh_);                      \
            for (uint32_t i_ = 0; i_ < (pool)->n; i_++) {                      \
                const T *o_ = &(pool)->v[i_];                                  \
                uint32_t h_ = set_hash(o_->n, o_->all, o_->v) & (hc_ - 1);     \
                while (nh_[h_] != NONE)                                        \
                    h_ = (h_ + 1) & (hc_ - 1);                                 \
                nh_[h_] = i_;                                                  \
            }                                                                  \
            free((pool)->hash);                                                \
            (pool)->hash = nh_;                                                \
            (pool)->hash_cap = hc_;                                            \
        }                                                                      \
        uint32_t m_ = (pool)->hash_cap - 1;                                    \
        uint32_t h_ = set_hash(c_.n, c_.all, c_.v) & m_;                       \
        while ((pool)->hash[h_] != NONE) {                                     \
            const T *o_ = &(pool)->v[(pool)->hash[h_]];                        \
            if (o_->n == c_.n && o_->all == c_.all &&                          \
                !memcmp(o_->v, c_.v, (size_t)c_.n * sizeof c_.v[0]))           \
                return (pool)->hash[h_];                                       \
            h_ = (h_ + 1) & m_;                                                \
        }                                                                      \
        PUSH((pool)->v, (pool)->n, (pool)->cap);                               \
        (pool)->v[(pool)->n] = c_;                                             \
        (pool)->hash[h_] = (pool)->n;                                          \
        return (pool)->n++;                                                    \
    } while (0)

uint32_t ravel__lint_ls_intern(struct ravel__lint_ctx *cx, const struct ravel__lint_lockset *s)
{
    INTERN(&cx->lsets, struct ravel__lint_lockset, s);
}

uint32_t ravel__lint_ts_intern(struct ravel__lint_ctx *cx, const struct ravel__lint_tset *s)
{
    INTERN(&cx->tsets, struct ravel__lint_tset, s);
}

static void summary_reset(struct ravel__lint_summary *s, bool keep_insts)
{
    s->done = false;
    memset(&s->gen, 0, sizeof s->gen);
    memset(&s->kill, 0, sizeof s->kill);
    memset(&s->lost, 0, sizeof s->lost);
    memset(&s->live_out, 0, sizeof s->live_out);
    s->nout = s->nacts = s->naccs = s->njoins = 0;
    if (s->acchash)
        memset(s->acchash, 0xff, (size_t)s->acchash_cap * sizeof *s->acchash);
    if (!keep_insts)
        s->ninsts = 0;
    s->capture = s->wmask = 0;
    s->wother = 0;
}

static void summary_free(struct ravel__lint_summary *s)
{
    free(s->out);
    free(s->acts);
    free(s->accs);
    free(s->acchash);
    free(s->insts);
    free(s->joins);
}

void ravel__lint_ctx_free(struct ravel__lint_ctx *cx)
{
    if (cx->sum)
        for (uint32_t f = 0; f < cx->prog->nfuncs; f++)
            summary_free(&cx->sum[f]);
    free(cx->sum);
    free(cx->sym_spec);
    free(cx->sym_state);
    cx->sym_state = NULL;
    free(cx->ev_loop);
    free(cx->local_esc);
    free(cx->fixed_int);
    cx->fixed_int = NULL;
    free(cx->lsets.v);
    free(cx->lsets.hash);
    free(cx->tsets.v);
    free(cx->tsets.hash);
    memset(&cx->lsets, 0, sizeof cx->lsets);
    memset(&cx->tsets, 0, sizeof cx->tsets);
    cx->sum = NULL;
    cx->sym_spec = NULL;
    cx->ev_loop = NULL;
    cx->local_esc = NULL;
}

/* ---- strongly connected components ---------------------------------------------- */

/*
 * Iterative Tarjan over a graph in compressed form (node i's successors are
 * adj[first[i] .. first[i+1])). Writes each node's component into comp[]
 * and returns the number of components; components are numbered in the
 * order Tarjan closes them, i.e. every component after all it reaches.
 * cyclic[c] says whether component c has a cycle (two nodes, or a self
 * edge). Arrays are caller-allocated: comp and cyclic of n entries.
 */
static uint32_t tarjan(uint32_t n, const uint32_t *first, const uint32_t *adj,
                       uint32_t *comp, uint8_t *cyclic)
{
    uint32_t *index = malloc((size_t)n * sizeof *index);
    uint32_t *low = malloc((size_t)n * sizeof *low);
    uint32_t *stack = malloc((size_t)n * sizeof *stack);
    uint32_t *cstack = malloc((size_t)n * sizeof *cstack); /* call stack */
    uint32_t *edge = malloc((size_t)n * sizeof *edge);     /* next edge */
    uint8_t *on = calloc(n ? n : 1, 1);
    RAVEL__CHECK(index && low && stack && cstack && edge && on);
    for (uint32_t i = 0; i < n; i++)
        index[i] = NONE;
    uint32_t next = 0, sp = 0, ncomp = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (index[root] != NONE)
            continue;
        uint32_t csp = 0;
        cstack[csp++] = root;
        index[root] = low[root] = next++;
        edge[root] = first[root];
        stack[sp++] = root;
        on[root] = 1;
        while (csp) {
            uint32_t v = cstack[csp - 1];
            if (edge[v] < first[v + 1]) {
                uint32_t w = adj[edge[v]++];
                if (index[w] == NONE) {
                    index[w] = low[w] = next++;
                    edge[w] = first[w];
                    stack[sp++] = w;
                    on[w] = 1;
                    cstack[csp++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            csp--;
            if (csp && low[v] < low[cstack[csp - 1]])
                low[cstack[csp - 1]] = low[v];
            if (low[v] != index[v])
                continue;
            uint32_t size = 0, w;
            bool self = false;
            do {
                w = stack[--sp];
                on[w] = 0;
                comp[w] = ncomp;
                size++;
            } while (w != v);
            for (uint32_t e = first[v]; e < first[v + 1]; e++)
                self |= adj[e] == v;
            cyclic[ncomp] = size > 1 || self;
            ncomp++;
        }
    }
    free(index);
    free(low);
    free(stack);
    free(cstack);
    free(edge);
    free(on);
    return ncomp;
}

/* Marks events of blocks in a cycle of their function's CFG. */
static void find_loops(struct ravel__lint_ctx *cx)
{
    struct ravel__lint_prog *p = cx->prog;
    cx->ev_loop = calloc(p->nevents ? p->nevents : 1, 1);
    RAVEL__CHECK(cx->ev_loop != NULL);
    for (uint32_t f = 0; f < p->nfuncs; f++) {
        const struct ravel__lint_func *fn = &p->funcs[f];
        uint32_t nb = fn->nblocks;
        if (nb == 0)
            continue;
        uint32_t *first = malloc(((size_t)nb + 1) * sizeof *first);
        uint32_t *comp = malloc((size_t)nb * sizeof *comp);
        uint8_t *cyc = malloc(nb);
        RAVEL__CHECK(first && comp && cyc);
        const struct ravel__lint_block *b0 = &p->blocks[fn->first_block];
        for (uint32_t b = 0; b < nb; b++)
            first[b] = b0[b].first_succ - b0[0].first_succ;
        first[nb] = b0[nb - 1].first_succ + b0[nb - 1].nsucc - b0[0].first_succ;
        tarjan(nb, first, p->succs + b0[0].first_succ, comp, cyc);
        for (uint32_t b = 0; b < nb; b++)
            if (cyc[comp[b]])
                for (uint32_t e = 0; e < b0[b].nevents; e++)
                    cx->ev_loop[b0[b].first_event + e] = 1;
        free(first);
        free(comp);
        free(cyc);
    }
}

/* Integer globals that nothing writes and whose address nothing takes
 * (passed to a call, stored, returned): their loads read the initial
 * value, so a branch on one goes one way only (`int use_lock = 1;`). */
static void find_fixed_ints(struct ravel__lint_ctx *cx)
{
    const struct ravel__lint_prog *p = cx->prog;
    cx->fixed_int = calloc(p->nsyms ? p->nsyms : 1, 1);
    RAVEL__CHECK(cx->fixed_int != NULL);
    for (uint32_t i = 0; i < p->nsyms; i++)
        cx->fixed_int[i] = (p->syms[i].flags & (RAVEL__SYMF_INTVAL | RAVEL__SYMF_TLS)) ==
                           RAVEL__SYMF_INTVAL;
    for (uint32_t ev = 0; ev < p->nevents; ev++) {
        const struct ravel__lint_event *e = &p->events[ev];
        for (uint32_t i = 0; i < e->nargs; i++) {
            if (e->kind == RAVEL__EV_LOAD)
                break; /* a read, through its address */
            const struct ravel__lint_val *v = &p->vals[ravel__lint_ev_arg(p, e, i)];
            for (uint32_t m = 0; m < v->n; m++) {
                uint32_t ap = v->ap[m];
                /* A path through a pointer read from memory is a read of
                 * the global, or a store through what it points to. */
                if (ap == 0 || ravel__lint_ap_has_deref(p, ap))
                    continue;
                const struct ravel__lint_ap *r = &p->aps[p->aps[ap].root];
                if (r->kind == RAVEL__AP_GLOBAL)
                    cx->fixed_int[r->a] = 0;
            }
        }
    }
}

/* ---- dataflow state --------------------------------------------------------- */

/* Branch outcomes and conditional locks one state keeps: a lock taken
 * under a condition and used under the same one is a short-range idiom
 * (one flag, one lock), and past the bound the oldest are forgotten,
 * which only loses the correlation (more reports, never fewer). */
#define COND_MAX 4

struct state {
    bool reached;
    uint32_t guard; /* a global flag read as 0 on every path here, that this
                       function sets: we are in the once-only part */
    bool fresh;     /* some path from the entry gets here without creating
                       a thread (directly or in a callee) */
    struct ravel__lint_lockset held, released;
    struct ravel__lint_lockset lost; /* released since entry and perhaps
                                        not taken again */
    uint32_t null_ap; /* a pointer known null on every path here, or 0 */
    struct ravel__lint_lockset jh; /* thread handles joined on every path
                                      here (summary terms), for callers */
    struct ravel__lint_tset created, joined;
    /* Branch outcomes known on every path here: load event ev read 0
     * (zero) or not. mem2reg makes `c` in `if (c) lock(); ... if (c)
     * g++;` one load, so both branches test the same event. */
    uint8_t nfact;
    struct {
        uint32_t ev;
        uint8_t zero;
    } fact[COND_MAX];
    /* Locks held wherever load ev read zero (or nonzero): after `if (c)
     * lock(&m);` m is held exactly where c is true, and taken along the
     * next branch on c. */
    uint8_t ncl;
    struct {
        uint32_t lock, ev;
        uint8_t zero;
    } cl[COND_MAX];
    uint32_t npend;
    struct ravel__lint_pend *pend; /* RAVEL__LINT_PEND_MAX entries */
};

static void st_init(struct state *s)
{
    memset(s, 0, sizeof *s);
    s->pend = malloc(RAVEL__LINT_PEND_MAX * sizeof *s->pend);
    RAVEL__CHECK(s->pend != NULL);
}

static void st_copy(struct state *d, const struct state *s)
{
    struct ravel__lint_pend *keep = d->pend;
    *d = *s;
    d->pend = keep;
    memcpy(d->pend, s->pend, (size_t)s->npend * sizeof *s->pend);
}

static bool pend_key_eq(const struct ravel__lint_pend *a, const struct ravel__lint_pend *b)
{
    if (a->site != b->site || a->disp != b->disp || a->fam != b->fam ||
        a->nres != b->nres)
        return false;
    for (uint32_t k = 0; k < a->nres; k++)
        if (a->res[k] != b->res[k])
            return false;
    return true;
}

/* Adds a pending check, or narrows the one with the same key. */
static void pend_add(struct state *s, const struct ravel__lint_pend *p)
{
    for (uint32_t i = 0; i < s->npend; i++) {
        if (pend_key_eq(&s->pend[i], p)) {
            ls_intersect(&s->pend[i].held, &p->held);
            return;
        }
    }
    if (s->npend == RAVEL__LINT_PEND_MAX) {
        memmove(s->pend, s->pend + 1, (RAVEL__LINT_PEND_MAX - 1) * sizeof *s->pend);
        s->npend--;
    }
    s->pend[s->npend++] = *p;
}

/* The pointer a lock path is a field of (`p` for `&p->mutex`). */
static uint32_t lock_base(const struct ravel__lint_prog *p, uint32_t l)
{
    l &= ~RAVEL__LINT_LS_SHARED;
    while (l && p->aps[l].kind == RAVEL__AP_OFFSET)
        l = p->aps[l].parent;
    return l;
}

static int fact_of(const struct state *s, uint32_t ev)
{
    for (uint32_t i = 0; i < s->nfact; i++)
        if (s->fact[i].ev == ev)
            return s->fact[i].zero;
    return -1;
}

static bool cl_has(const struct state *s, uint32_t lock, uint32_t ev, uint8_t zero)
{
    for (uint32_t i = 0; i < s->ncl; i++)
        if (s->cl[i].lock == lock && s->cl[i].ev == ev && s->cl[i].zero == zero)
            return true;
    return false;
}

/* Does path state x hold lock l wherever load ev read `zero`? */
static bool cl_holds(const struct state *x, uint32_t l, uint32_t ev, uint8_t zero)
{
    return ravel__lint_ls_has(&x->held, l) || cl_has(x, l, ev, zero) ||
           fact_of(x, ev) == !zero;
}

static void cl_add(struct state *s, uint32_t lock, uint32_t ev, uint8_t zero)
{
    if (cl_has(s, lock, ev, zero))
        return;
    if (s->ncl == COND_MAX) {
        memmove(s->cl, s->cl + 1, (COND_MAX - 1) * sizeof s->cl[0]);
        s->ncl--;
    }
    s->cl[s->ncl].lock = lock;
    s->cl[s->ncl].ev = ev;
    s->cl[s->ncl].zero = zero;
    s->ncl++;
}

/* The conditional locks and facts where d and s meet (d's old sets). A
 * candidate (l, ev, zero) holds if on each side l is held, or held under
 * that condition, or the condition is known false there; the candidates
 * are each side's conditional locks, and each lock one side holds and
 * the other not, paired with a fact the two sides know oppositely. */
static bool cond_merge(struct state *d, const struct state *s)
{
    struct state n;
    n.ncl = 0;
    n.nfact = 0;
    for (uint32_t i = 0; i < d->nfact; i++)
        if (fact_of(s, d->fact[i].ev) == d->fact[i].zero && n.nfact < COND_MAX)
            n.fact[n.nfact++] = d->fact[i];
    for (int side = 0; side < 2; side++) {
        const struct state *x = side ? s : d, *y = side ? d : s;
        for (uint32_t i = 0; i < x->ncl; i++)
            if (cl_holds(y, x->cl[i].lock, x->cl[i].ev, x->cl[i].zero))
                cl_add(&n, x->cl[i].lock, x->cl[i].ev, x->cl[i].zero);
        for (uint32_t i = 0; i < x->held.n; i++) {
            uint32_t l = x->held.v[i];
            if (ravel__lint_ls_has(&y->held, l))
                continue;
            for (uint32_t k = 0; k < x->nfact; k++) {
                int o = fact_of(y, x->fact[k].ev);
                if (o >= 0 && o != x->fact[k].zero)
                    cl_add(&n, l, x->fact[k].ev, x->fact[k].zero);
            }
        }
    }
    bool changed = n.nfact != d->nfact || n.ncl != d->ncl;
    for (uint32_t i = 0; i < n.ncl && !changed; i++)
        changed = !cl_has(d, n.cl[i].lock, n.cl[i].ev, n.cl[i].zero);
    for (uint32_t i = 0; i < n.nfact && !changed; i++)
        changed = fact_of(d, n.fact[i].ev) != n.fact[i].zero;
    d->nfact = n.nfact;
    memcpy(d->fact, n.fact, sizeof n.fact);
    d->ncl = n.ncl;
    memcpy(d->cl, n.cl, sizeof n.cl);
    return changed;
}

/* Forgets what is known of load ev (it runs again) or of lock l (it is
 * released); NONE leaves that side alone. */
static void cond_forget(struct state *s, uint32_t ev, uint32_t l, bool all_locks)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->ncl; i++)
        if (s->cl[i].ev != ev && !all_locks &&
            (s->cl[i].lock & ~RAVEL__LINT_LS_SHARED) != (l & ~RAVEL__LINT_LS_SHARED))
            s->cl[k++] = s->cl[i];
    s->ncl = (uint8_t)k;
    if (ev == NONE)
        return;
    k = 0;
    for (uint32_t i = 0; i < s->nfact; i++)
        if (s->fact[i].ev != ev)
            s->fact[k++] = s->fact[i];
    s->nfact = (uint8_t)k;
}

/* Merges s into d (d = d join s); returns whether d changed. */
static bool st_merge(const struct ravel__lint_prog *p_of_merge, struct state *d,
                     const struct state *s, bool back)
{
    bool changed_null = false;
    if (!s->reached)
        return false;
    if (!d->reached) {
        st_copy(d, s);
        return true;
    }
    struct ravel__lint_lockset held = d->held, rel = d->released, lost = d->lost;
    struct ravel__lint_tset cr = d->created, jo = d->joined;
    bool changed_cond = cond_merge(d, s);
    ls_intersect(&d->held, &s->held);
    /* A lock on a pointer that the other path found null is as good as
     * held there: `if (p) lock(p); ... if (p) unlock(p)` wrappers. */
    for (uint32_t i = 0; i < held.n; i++)
        if (s->null_ap && !ravel__lint_ls_has(&d->held, held.v[i]) &&
            lock_base(p_of_merge, held.v[i]) == s->null_ap)
            ls_add_must(&d->held, held.v[i]);
    for (uint32_t i = 0; i < s->held.n; i++)
        if (d->null_ap && !ravel__lint_ls_has(&d->held, s->held.v[i]) &&
            lock_base(p_of_merge, s->held.v[i]) == d->null_ap)
            ls_add_must(&d->held, s->held.v[i]);
    if (d->null_ap != s->null_ap && d->null_ap) {
        d->null_ap = 0;
        changed_null = true;
    }
    ls_union_may(&d->released, &s->released);
    ls_union_may(&d->lost, &s->lost);
    ts_union(&d->created, &s->created);
    /* A thread is joined where paths meet only if it is joined on both
     * (an error path's cleanup joins nothing on the normal path), except
     * around a loop: a join loop joins one element per round, so its
     * back edge brings the joins of the rounds so far. */
    if (back) {
        ts_union(&d->joined, &s->joined);
        ls_union_must(&d->jh, &s->jh);
    } else {
        ts_intersect(&d->joined, &s->joined);
        ls_intersect(&d->jh, &s->jh);
    }
    bool changed = changed_null || changed_cond;
    if (d->guard != s->guard && d->guard) {
        d->guard = 0;
        changed = true;
    }
    if (s->fresh && !d->fresh) {
        d->fresh = true;
        changed = true;
    }
    changed |= !ls_equal(&held, &d->held) || !ls_equal(&rel, &d->released) ||
               !ls_equal(&lost, &d->lost) ||
                   !ts_equal(&cr, &d->created) || !ts_equal(&jo, &d->joined);
    for (uint32_t i = 0; i < s->npend; i++) {
        bool found = false;
        for (uint32_t j = 0; j < d->npend; j++) {
            if (pend_key_eq(&d->pend[j], &s->pend[i])) {
                struct ravel__lint_lockset h = d->pend[j].held;
                ls_intersect(&d->pend[j].held, &s->pend[i].held);
                changed |= !ls_equal(&h, &d->pend[j].held);
                found = true;
                break;
            }
        }
        if (!found) {
            /* Once the set is full, a new check only displaces an old
             * one: not a change worth another visit (in a loop that
             * meets more checks than fit, the two would take turns until
             * the visit bound). */
            if (d->npend < RAVEL__LINT_PEND_MAX)
                changed = true;
            pend_add(d, &s->pend[i]);
        }
    }
    return changed;
}

static void live_of(const struct state *s, struct ravel__lint_tset *out)
{
    *out = s->created;
    if (s->joined.all)
        return; /* joined "anything": keep the created set, stay cautious */
    for (uint32_t i = 0; i < s->joined.n; i++)
        ts_del(out, s->joined.v[i]);
}

/* ---- the per-function pass ---------------------------------------------------- */

struct fctx {
    struct ravel__lint_ctx *cx;
    uint32_t f;
    bool rec; /* the recording pass */
    struct ravel__lint_summary *sum;
    uint32_t *gstores; /* global-rooted addresses the function stores to */
    uint32_t ngstores;
    /* Calls whose callee accesses the recording pass has merged
     * (seen_call), an open-addressing table. */
    struct seen {
        uint32_t sum, args, nargs, hash;
        uint32_t held, lost, live, created;
        uint8_t flags;
    } *seen;
    uint32_t nseen, seen_cap;
    /* The last state's sets interned by add_acc_st, and their ids. */
    bool st_ok;
    struct ravel__lint_lockset st_held, st_rel;
    struct ravel__lint_tset st_live, st_created;
    uint32_t st_held_id, st_rel_id, st_live_id, st_created_id;
};

static uint32_t arg(const struct ravel__lint_prog *p, const struct ravel__lint_event *e,
                    uint32_t i)
{
    return i < e->nargs ? ravel__lint_ev_arg(p, e, i) : NONE;
}

static uint32_t arg_ap(const struct ravel__lint_prog *p, const struct ravel__lint_event *e,
                       uint32_t i)
{
    uint32_t v = arg(p, e, i);
    return v == NONE ? 0 : ravel__lint_val_primary(p, v);
}

static const struct ravel__lint_spec *spec_first(struct ravel__lint_ctx *cx,
                                                 const struct ravel__lint_event *e)
{
    if (e->kind != RAVEL__EV_CALL || e->callee == NONE)
        return NULL;
    uint32_t i = cx->sym_spec[e->callee];
    return i == NONE ? NULL : &cx->specs->v[i];
}

static const struct ravel__lint_spec *spec_next(struct ravel__lint_ctx *cx,
                                                const struct ravel__lint_spec *s)
{
    return s->next == NONE ? NULL : &cx->specs->v[s->next];
}

/* Names the C and POSIX standards reserve to the implementation
 * (C11 7.1.3: a leading underscore and a capital or a second underscore;
 * POSIX 2.2.2: the pthread_ and sem_ prefixes; C11's threads.h) and the
 * library functions that interposing runtimes (sanitizers, ravel's own)
 * define: a program that defines one of these is replacing the library. */
static bool library_name(const char *n)
{
    static const char *const prefixes[] = {"pthread_", "sem_", "mtx_", "cnd_",
                                           "thrd_", "tss_", "__"};
    static const char *const names[] = {
        "malloc", "calloc", "realloc", "free", "exit", "_exit", "_Exit", "abort",
        "atexit", "fork", "signal", "sigaction", "raise", "kill", "sleep",
        "usleep", "nanosleep", "sched_yield", "setjmp", "longjmp", "dlopen",
        "dlsym", "clock_gettime", "time", "gettimeofday", "getenv", "setenv",
        "printf", "fprintf", "puts", "fputs", "write", "read", "close", "dup",
        "dup2", "pipe", "socket", "poll", "select", "epoll_wait"};
    if (n[0] == '_' && n[1] >= 'A' && n[1] <= 'Z')
        return true;
    for (size_t i = 0; i < RAVEL__COUNT(prefixes); i++)
        if (!strncmp(n, prefixes[i], strlen(prefixes[i])))
            return true;
    for (size_t i = 0; i < RAVEL__COUNT(names); i++)
        if (!strcmp(n, names[i]))
            return true;
    return false;
}

/* ---- C library summaries ------------------------------------------------------ */

/* Functions of the C library that keep hidden static state, so that two
 * threads calling them race (POSIX lists them as not thread-safe). Each
 * call is a write of that state. */
static const char *const unsafe_fns[] = {
    "rand", "srand", "random", "srandom", "drand48", "lrand48", "mrand48", "srand48",
    "strtok", "localtime", "gmtime", "ctime", "asctime", "strerror", "readdir",
    "getpwnam", "getpwuid", "getgrnam", "getgrgid", "gethostbyname", "gethostbyaddr",
    "tmpnam", "getlogin", "ttyname", "crypt", "ecvt", "fcvt", "strsignal",
    "mblen", "mbtowc", "wctomb",
};

/* C library functions that write through pointer arguments: `from` is the
 * first argument written, `all` whether every later one is written too
 * (scanf's targets). free writes the object it frees. */
static const struct {
    const char *name;
    uint8_t from, all;
} lib_writes[] = {
    {"scanf", 1, 1},   {"fscanf", 2, 1},  {"sscanf", 2, 1},  {"vscanf", 1, 0},
    {"fgets", 0, 0},   {"gets", 0, 0},    {"fread", 0, 0},   {"read", 1, 0},
    {"pread", 1, 0},   {"recv", 1, 0},    {"strcpy", 0, 0},  {"strncpy", 0, 0},
    {"strcat", 0, 0},  {"strncat", 0, 0}, {"sprintf", 0, 0}, {"snprintf", 0, 0},
    {"vsprintf", 0, 0}, {"vsnprintf", 0, 0}, {"memcpy", 0, 0}, {"memmove", 0, 0},
    {"memset", 0, 0},  {"bzero", 0, 0},   {"free", 0, 0},    {"qsort", 0, 0},
    {"getline", 0, 1}, {"time", 0, 0},    {"pipe", 0, 0},
};

/* Gives each thread-unsafe library function in the program (declared, not
 * defined here) a global standing for its hidden state. */
static void lib_state_init(struct ravel__lint_ctx *cx)
{
    struct ravel__lint_prog *p = cx->prog;
    uint32_t n = p->nsyms;
    cx->sym_state = malloc((n ? n : 1) * sizeof *cx->sym_state);
    RAVEL__CHECK(cx->sym_state != NULL);
    for (uint32_t i = 0; i < n; i++) {
        cx->sym_state[i] = NONE;
        if (p->syms[i].kind != RAVEL__SYM_FUNC || p->syms[i].def != NONE)
            continue;
        for (size_t k = 0; k < RAVEL__COUNT(unsafe_fns); k++) {
            if (strcmp(p->syms[i].name, unsafe_fns[k]) != 0)
                continue;
            char name[96];
            snprintf(name, sizeof name, "the static state of %s()", unsafe_fns[k]);
            uint32_t g = ravel__lint_sym(p, name, RAVEL__LINT_NONE, RAVEL__SYM_GLOBAL);
            cx->sym_state[i] = ravel__lint_ap_root(p, RAVEL__AP_GLOBAL, g, 0);
            break;
        }
    }
}

static bool shareable(struct ravel__lint_ctx *cx, uint32_t ap);
static void add_acc(struct fctx *fx, uint32_t ap, uint32_t ev, uint8_t write, uint32_t held,
                    uint32_t rel, uint32_t live, uint32_t created, uint8_t once,
                    uint8_t early);
static void add_acc_st(struct fctx *fx, const struct state *st, uint32_t ap, uint32_t ev,
                       uint8_t write);

/* The memory a call of a C library function without a body accesses:
 * its hidden state, and what it writes through its arguments. */
static void lib_accesses(struct fctx *fx, struct state *st, uint32_t ev)
{
    struct ravel__lint_ctx *cx = fx->cx;
    struct ravel__lint_prog *p = cx->prog;
    const struct ravel__lint_event *e = &p->events[ev];
    if (e->callee == NONE || p->syms[e->callee].def != NONE)
        return;
    if (cx->sym_state[e->callee] != NONE)
        add_acc_st(fx, st, cx->sym_state[e->callee], ev, 1);
    const char *n = p->syms[e->callee].name;
    if (!strncmp(n, "__isoc99_", 9)) /* glibc's names for the scanf family */
        n += 9;
    for (size_t k = 0; k < RAVEL__COUNT(lib_writes); k++) {
        if (strcmp(n, lib_writes[k].name) != 0)
            continue;
        for (uint32_t i = lib_writes[k].from; i < e->nargs; i++) {
            uint32_t ap = arg_ap(p, e, i);
            if (shareable(cx, ap))
                add_acc_st(fx, st, ap, ev, 1);
            if (!lib_writes[k].all)
                break;
        }
        break;
    }
}

/* The summary of the function a call reaches, or NULL. A definition of a
 * function ravel knows by name (pthread_mutex_lock, malloc, open ...) or
 * of a standard library function is an interposer or a wrapper of the
 * real one - ravel's own runtime is - and the call means what the name
 * means, so its body is not followed. */
static struct ravel__lint_summary *callee_summary(struct ravel__lint_ctx *cx,
                                                  const struct ravel__lint_event *e)
{
    if (e->kind != RAVEL__EV_CALL || e->callee == NONE)
        return NULL;
    uint32_t d = cx->prog->syms[e->callee].def;
    if (d == NONE)
        return NULL;
    uint32_t sp = cx->sym_spec[e->callee];
    if (sp != NONE && cx->specs->v[sp].builtin)
        return NULL;
    if (cx->prog->syms[e->callee].tu == NONE && library_name(cx->prog->syms[e->callee].name))
        return NULL;
    return &cx->sum[d];
}

void ravel__lint_quote_event(struct ravel__lint_ctx *cx, uint32_t ev, char *buf,
                             size_t len)
{
    const struct ravel__lint_prog *p = cx->prog;
    const struct ravel__lint_event *e = &p->events[ev];
    const char *name = e->callee != NONE ? p->syms[e->callee].name : "(indirect call)";
    ravel__lint_quote_call(cx->src, p->files[e->file].path, e->line, e->col, name,
                           buf, len);
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Does an act rule out the race because it re-checks atomically? */
static bool act_excl(const struct ravel__lint_prog *p, const struct ravel__lint_spec *s,
                     const struct ravel__lint_event *e)
{
    if (s->excl_flags >= 0) {
        uint32_t ap = arg_ap(p, e, (uint32_t)s->excl_flags);
        if (ap && p->aps[ap].kind == RAVEL__AP_INT && (p->aps[ap].a & RAVEL__LINT_O_EXCL))
            return true;
    }
    if (s->excl_mode >= 0) {
        uint32_t ap = arg_ap(p, e, (uint32_t)s->excl_mode);
        if (ap && p->aps[ap].kind == RAVEL__AP_STR && strchr(p->strs[p->aps[ap].a], 'x'))
            return true;
    }
    return false;
}

static bool local_unescaped(struct ravel__lint_ctx *cx, uint32_t ap)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (ap == 0 || ravel__lint_ap_rootkind(p, ap) != RAVEL__AP_LOCAL)
        return false;
    uint32_t root = p->aps[ap].root;
    return !cx->local_esc[root];
}

static void report_cta(struct fctx *fx, const struct ravel__lint_pend *pc,
                       const struct ravel__lint_act *a, uint32_t disp,
                       enum ravel__lint_same same)
{
    struct ravel__lint_ctx *cx = fx->cx;
    const struct ravel__lint_prog *p = cx->prog;
    char act[160], chk[160], inner[160], msg[700], note[400];
    ravel__lint_quote_event(cx, disp, act, sizeof act);
    ravel__lint_quote_event(cx, pc->disp, chk, sizeof chk);
    const struct ravel__lint_event *ea = &p->events[disp], *ec = &p->events[pc->disp];
    const struct ravel__lint_event *site = &p->events[pc->site];
    bool spawn = false;
    for (const struct ravel__lint_spec *s = spec_first(cx, site); s; s = spec_next(cx, s))
        spawn |= s->role == RAVEL__ROLE_CREATE;
    bool process = cx->specs->fam[a->fam].scope == RAVEL__SCOPE_PROCESS;
    const char *maybe = same == RAVEL__SAME_MIGHT ? " (perhaps on the same resource)" : "";
    if (spawn)
        snprintf(msg, sizeof msg,
                 "%s may act on state that the thread started by %s at %s:%u%s "
                 "can change first",
                 act, chk, base(p->files[ec->file].shown), ec->line, maybe);
    else
        snprintf(msg, sizeof msg,
                 "%s may act on a stale check: %s at %s:%u%s can be invalidated "
                 "by another %s in between",
                 act, chk, base(p->files[ec->file].shown), ec->line, maybe,
                 process ? "process or thread" : "thread");
    struct ravel__lint_finding *fd = ravel__lint_finding_add(
        cx->out, RAVEL__RULE_CTA, ea->file, ea->line, ea->col, msg);
    if (!fd)
        return;
    if (pc->site != pc->disp) {
        ravel__lint_quote_event(cx, pc->site, inner, sizeof inner);
        snprintf(note, sizeof note, "the check, made by %s at %s:%u", inner,
                 base(p->files[site->file].shown), site->line);
    } else {
        snprintf(note, sizeof note, "the check");
    }
    ravel__lint_note_add(fd, ec->file, ec->line, ec->col, note);
    if (a->site != disp) {
        const struct ravel__lint_event *ei = &p->events[a->site];
        ravel__lint_quote_event(cx, a->site, inner, sizeof inner);
        snprintf(note, sizeof note, "the act, %s, reached through %s", inner, act);
        ravel__lint_note_add(fd, ei->file, ei->line, ei->col, note);
    }
}

/*
 * An act meets the pending checks at this point. rel_inner: locks perhaps
 * released between here and the act (inside the callee).
 */
static void meet(struct fctx *fx, const struct state *st, const struct ravel__lint_act *a,
                 const struct ravel__lint_lockset *rel_inner, uint32_t disp)
{
    struct ravel__lint_ctx *cx = fx->cx;
    if (!fx->rec || !cx->cta)
        return;
    bool thread_scope = cx->specs->fam[a->fam].scope == RAVEL__SCOPE_THREAD;
    bool local = false;
    if (thread_scope && !a->wother && a->nw > 0) {
        local = true;
        for (uint32_t k = 0; k < a->nw; k++)
            local &= local_unescaped(cx, ravel__lint_val_primary(cx->prog, a->w[k]));
    }
    if (local)
        return; /* the act changes only a local object nobody else can see */
    if (!thread_scope && a->nres == 1) {
        /* /proc/self/... names this process's own state, which no other
         * process can replace under it. */
        uint32_t ap = ravel__lint_val_primary(cx->prog, a->res[0]);
        if (ap && cx->prog->aps[ap].kind == RAVEL__AP_STR &&
            !strncmp(cx->prog->strs[cx->prog->aps[ap].a], "/proc/self/", 11))
            return;
    }
    for (uint32_t i = 0; i < st->npend; i++) {
        const struct ravel__lint_pend *pc = &st->pend[i];
        if (pc->fam != a->fam || pc->nres != a->nres)
            continue;
        enum ravel__lint_same same = RAVEL__SAME_YES;
        for (uint32_t k = 0; k < a->nres && same != RAVEL__SAME_NO; k++) {
            enum ravel__lint_same s = ravel__lint_val_same(cx->prog, pc->res[k], a->res[k]);
            if (s < same)
                same = s;
        }
        if (same == RAVEL__SAME_NO)
            continue;
        if (thread_scope) {
            struct ravel__lint_lockset cont = pc->held;
            ls_minus(&cont, rel_inner);
            if (cont.n > 0)
                continue; /* one lock held from the check to the act */
        }
        report_cta(fx, pc, a, disp, same);
    }
}

static void add_act(struct fctx *fx, const struct ravel__lint_act *a)
{
    const struct ravel__lint_prog *p = fx->cx->prog;
    for (uint32_t k = 0; k < a->nres; k++)
        if (!val_iface_ok(p, a->res[k]))
            return;
    struct ravel__lint_summary *s = fx->sum;
    for (uint32_t i = 0; i < s->nacts; i++) {
        struct ravel__lint_act *b = &s->acts[i];
        if (b->site == a->site && b->fam == a->fam && b->nres == a->nres &&
            !memcmp(b->res, a->res, a->nres * sizeof a->res[0])) {
            ls_union_may(&b->released, &a->released);
            return;
        }
    }
    if (s->nacts == RAVEL__LINT_ACTS_MAX) {
        fx->cx->dropped++;
        return;
    }
    PUSH(s->acts, s->nacts, s->capacts);
    struct ravel__lint_act *n = &s->acts[s->nacts++];
    *n = *a;
    /* Written objects that mean nothing to a caller: the act writes memory
     * the caller cannot name, which is not a local of the caller either. */
    uint32_t k = 0;
    for (uint32_t i = 0; i < n->nw; i++) {
        if (val_iface_ok(p, n->w[i]))
            n->w[k++] = n->w[i];
        else if (!local_unescaped(fx->cx, ravel__lint_val_primary(p, n->w[i])))
            n->wother = 1;
    }
    n->nw = (uint8_t)k;
    ls_keep_iface(p, &n->released);
}

/* Is an address worth tracking as perhaps shared memory? */
static bool shareable(struct ravel__lint_ctx *cx, uint32_t ap)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (ap == 0)
        return false;
    const struct ravel__lint_ap *r = &p->aps[p->aps[ap].root];
    switch ((enum ravel__lint_ap_kind)r->kind) {
    case RAVEL__AP_GLOBAL:
        return !(p->syms[r->a].flags & (RAVEL__SYMF_TLS | RAVEL__SYMF_CONST));
    case RAVEL__AP_PARAM:
    case RAVEL__AP_ALLOC:
    case RAVEL__AP_ARG:
        return true;
    case RAVEL__AP_LOCAL:
        return cx->local_esc[p->aps[ap].root] != 0;
    default:
        return false;
    }
}

/* An address through a pointer that a loop carries (`for (n = head; n;
 * n = n->next) n->count++`): its primary is the loop's own opaque value,
 * which no other thread can name, but one of the values it joins starts
 * from memory others reach (`head->count`, or the heap block points.c
 * found `head` set to). The list is then summed up by that node: every
 * node's count is the first node's. 0 when there is none. */
static uint32_t list_node(struct ravel__lint_ctx *cx, uint32_t v)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (v == NONE || p->vals[v].n < 2 ||
        ravel__lint_ap_rootkind(p, p->vals[v].ap[0]) != RAVEL__AP_VALUE)
        return 0;
    for (uint32_t m = 1; m < p->vals[v].n; m++) {
        uint32_t ap = p->vals[v].ap[m];
        if (!ap)
            continue;
        /* Read from a global or through a parameter, or a heap block
         * that points.c found the global list head set to. */
        enum ravel__lint_ap_kind k = ravel__lint_ap_rootkind(p, ap);
        if (((k == RAVEL__AP_GLOBAL || k == RAVEL__AP_PARAM) && ravel__lint_ap_has_deref(p, ap) &&
             shareable(cx, ap)) ||
            (k == RAVEL__AP_ALLOC && ravel__lint_ap_published(p, ap)))
            return ap;
    }
    return 0;
}

static uint64_t acc_hash(uint32_t ap, uint32_t ev, uint8_t w)
{
    return ((uint64_t)ap * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)ev << 1) ^ w;
}

static void add_acc(struct fctx *fx, uint32_t ap, uint32_t ev, uint8_t write, uint32_t held,
                    uint32_t rel, uint32_t live, uint32_t created, uint8_t once,
                    uint8_t early)
{
    struct ravel__lint_ctx *cx = fx->cx;
    struct ravel__lint_summary *s = fx->sum;
    if ((s->naccs + 1) * 2 > s->acchash_cap) {
        uint32_t cap = s->acchash_cap ? s->acchash_cap * 2 : 64;
        free(s->acchash);
        s->acchash = malloc((size_t)cap * sizeof *s->acchash);
        RAVEL__CHECK(s->acchash != NULL);
        memset(s->acchash, 0xff, (size_t)cap * sizeof *s->acchash);
        s->acchash_cap = cap;
        for (uint32_t i = 0; i < s->naccs; i++) {
            const struct ravel__lint_acc *a = &s->accs[i];
            uint32_t h = (uint32_t)acc_hash(a->ap, a->ev, a->write) & (cap - 1);
            while (s->acchash[h] != NONE)
                h = (h + 1) & (cap - 1);
            s->acchash[h] = i;
        }
    }
    uint32_t mask = s->acchash_cap - 1;
    uint32_t h = (uint32_t)acc_hash(ap, ev, write) & mask;
    while (s->acchash[h] != NONE) {
        struct ravel__lint_acc *a = &s->accs[s->acchash[h]];
        if (a->ap == ap && a->ev == ev && a->write == write) {
            if (a->held != held) {
                struct ravel__lint_lockset x = *ravel__lint_ls_get(cx, a->held);
                ls_intersect(&x, ravel__lint_ls_get(cx, held));
                a->held = ravel__lint_ls_intern(cx, &x);
            }
            if (a->lost != rel) {
                struct ravel__lint_lockset x = *ravel__lint_ls_get(cx, a->lost);
                ls_union_may(&x, ravel__lint_ls_get(cx, rel));
                a->lost = ravel__lint_ls_intern(cx, &x);
            }
            if (a->live != live) {
                struct ravel__lint_tset x = *ravel__lint_ts_get(cx, a->live);
                ts_union(&x, ravel__lint_ts_get(cx, live));
                a->live = ravel__lint_ts_intern(cx, &x);
            }
            if (a->created != created) {
                struct ravel__lint_tset x = *ravel__lint_ts_get(cx, a->created);
                ts_union(&x, ravel__lint_ts_get(cx, created));
                a->created = ravel__lint_ts_intern(cx, &x);
            }
            a->once &= once;
            a->early |= early;
            return;
        }
        h = (h + 1) & mask;
    }
    if (s->naccs == RAVEL__LINT_ACCS_MAX) {
        cx->dropped++;
        return;
    }
    PUSH(s->accs, s->naccs, s->capaccs);
    struct ravel__lint_acc *a = &s->accs[s->naccs];
    a->ap = ap;
    a->ev = ev;
    a->write = write;
    a->held = held;
    a->lost = rel;
    a->live = live;
    a->created = created;
    a->once = once;
    a->early = early;
    s->acchash[h] = s->naccs++;
}

/* An access made here, in state st. The state's sets are interned once
 * per state they take (fx->st_*: a block's accesses mostly share them). */
static void add_acc_st(struct fctx *fx, const struct state *st, uint32_t ap, uint32_t ev,
                       uint8_t write)
{
    struct ravel__lint_ctx *cx = fx->cx;
    struct ravel__lint_tset live;
    live_of(st, &live);
    if (!fx->st_ok || !ls_equal(&fx->st_held, &st->held))
        fx->st_held_id = ravel__lint_ls_intern(cx, &st->held), fx->st_held = st->held;
    if (!fx->st_ok || !ls_equal(&fx->st_rel, &st->lost))
        fx->st_rel_id = ravel__lint_ls_intern(cx, &st->lost), fx->st_rel = st->lost;
    if (!fx->st_ok || !ts_equal(&fx->st_live, &live))
        fx->st_live_id = ravel__lint_ts_intern(cx, &live), fx->st_live = live;
    if (!fx->st_ok || !ts_equal(&fx->st_created, &st->created))
        fx->st_created_id = ravel__lint_ts_intern(cx, &st->created), fx->st_created = st->created;
    fx->st_ok = true;
    add_acc(fx, ap, ev, write, fx->st_held_id, fx->st_rel_id, fx->st_live_id,
            fx->st_created_id, st->guard != 0, st->fresh);
}

/* Has the recording pass already merged callee S's accesses from a call
 * with the same arguments, in the same locks, threads and flags? Records
 * this one if not. The key is the interned sets, so comparing is cheap. */
static bool seen_call(struct fctx *fx, const struct state *st,
                      const struct ravel__lint_event *e, const struct ravel__lint_summary *S)
{
    struct ravel__lint_ctx *cx = fx->cx;
    const struct ravel__lint_prog *p = cx->prog;
    struct ravel__lint_tset live;
    live_of(st, &live);
    struct seen k;
    k.sum = (uint32_t)(S - cx->sum);
    k.args = e->args;
    k.nargs = e->nargs;
    k.held = ravel__lint_ls_intern(cx, &st->held);
    k.lost = ravel__lint_ls_intern(cx, &st->lost);
    k.live = ravel__lint_ts_intern(cx, &live);
    k.created = ravel__lint_ts_intern(cx, &st->created);
    k.flags = (uint8_t)((st->guard != 0) | (st->fresh << 1));
    uint64_t h = k.sum * 0x9e3779b97f4a7c15ULL;
    h = (h ^ k.held) * 0x100000001b3ULL;
    h = (h ^ k.lost) * 0x100000001b3ULL;
    h = (h ^ k.live) * 0x100000001b3ULL;
    h = (h ^ k.created) * 0x100000001b3ULL;
    h = (h ^ k.flags) * 0x100000001b3ULL;
    for (uint32_t i = 0; i < k.nargs; i++)
        h = (h ^ p->argv[k.args + i]) * 0x100000001b3ULL;
    if ((fx->nseen + 1) * 2 > fx->seen_cap) {
        uint32_t cap = fx->seen_cap ? fx->seen_cap * 2 : 64;
        struct seen *n = malloc((size_t)cap * sizeof *n);
        RAVEL__CHECK(n != NULL);
        for (uint32_t i = 0; i < cap; i++)
            n[i].sum = NONE;
        for (uint32_t i = 0; i < fx->seen_cap; i++) {
            if (fx->seen[i].sum == NONE)
                continue;
            uint32_t j = fx->seen[i].hash & (cap - 1);
            while (n[j].sum != NONE)
                j = (j + 1) & (cap - 1);
            n[j] = fx->seen[i];
        }
        free(fx->seen);
        fx->seen = n;
        fx->seen_cap = cap;
    }
    k.hash = (uint32_t)(h ^ (h >> 32));
    uint32_t j = k.hash & (fx->seen_cap - 1);
    while (fx->seen[j].sum != NONE) {
        const struct seen *o = &fx->seen[j];
        if (o->hash == k.hash && o->sum == k.sum && o->held == k.held && o->lost == k.lost &&
            o->live == k.live && o->created == k.created && o->flags == k.flags &&
            o->nargs == k.nargs &&
            !memcmp(p->argv + o->args, p->argv + k.args, k.nargs * sizeof *p->argv))
            return true;
        j = (j + 1) & (fx->seen_cap - 1);
    }
    fx->seen[j] = k;
    fx->nseen++;
    return false;
}

/* A callee's thread set (id) in the caller's terms: the caller's set
 * `base` plus the callee's instances mapped to the caller's. */
static uint32_t ts_in_caller(struct ravel__lint_ctx *cx, const struct ravel__lint_tset *base,
                             uint32_t id, uint32_t ninsts, const uint32_t *map)
{
    const struct ravel__lint_tset *cl = ravel__lint_ts_get(cx, id);
    struct ravel__lint_tset C = *base;
    if (cl->all)
        C.all = 1;
    for (uint32_t k = 0; k < cl->n; k++)
        if (cl->v[k] < ninsts)
            ts_add(&C, map[cl->v[k]]);
    return ravel__lint_ts_intern(cx, &C);
}

/* The instance of this function created by event ev (sub: the callee's
 * instance it stands for, or NONE); made on first use. */
static uint32_t inst_get(struct fctx *fx, uint32_t ev, uint32_t sub,
                         const struct ravel__lint_inst *proto)
{
    struct ravel__lint_summary *s = fx->sum;
    for (uint32_t i = 0; i < s->ninsts; i++)
        if (s->insts[i].ev == ev && s->insts[i].sub == sub)
            return i;
    PUSH(s->insts, s->ninsts, s->capinsts);
    struct ravel__lint_inst *in = &s->insts[s->ninsts];
    *in = *proto;
    in->ev = ev;
    in->sub = sub;
    return s->ninsts++;
}

static bool handle_matches(struct ravel__lint_prog *p, uint32_t inst_handle,
                           uint32_t joined_value)
{
    if (inst_handle == 0 || joined_value == 0)
        return false;
    uint32_t v = ravel__lint_ap_deref(p, inst_handle);
    return v == joined_value || ravel__lint_ap_may_alias(p, v, joined_value);
}

static void res_of(const struct ravel__lint_prog *p, const struct ravel__lint_event *e,
                   const struct ravel__lint_spec *s, uint32_t *res, uint8_t *nres)
{
    *nres = 0;
    for (uint32_t k = 0; k < s->nres; k++) {
        uint32_t v = arg(p, e, s->res[k]);
        res[(*nres)++] = v;
    }
}

static bool res_complete(const uint32_t *res, uint8_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (res[k] == NONE)
            return false;
    return true;
}

static void transfer_call(struct fctx *fx, struct state *st, uint32_t ev)
{
    struct ravel__lint_ctx *cx = fx->cx;
    struct ravel__lint_prog *p = cx->prog;
    const struct ravel__lint_event e = p->events[ev];
    const uint32_t *args = p->argv + e.args;
    const struct ravel__lint_spec *first = spec_first(cx, &e);
    struct ravel__lint_summary *S = callee_summary(cx, &e);
    if (S == fx->sum && !S->done)
        S = NULL; /* direct recursion on the first visit */
    static const struct ravel__lint_lockset empty;

    /* 1. The call itself acts. */
    for (const struct ravel__lint_spec *s = first; s; s = spec_next(cx, s)) {
        if (s->role != RAVEL__ROLE_ACT || act_excl(p, s, &e))
            continue;
        struct ravel__lint_act a;
        memset(&a, 0, sizeof a);
        a.site = ev;
        a.fam = s->family;
        res_of(p, &e, s, a.res, &a.nres);
        if (!res_complete(a.res, a.nres))
            continue;
        a.released = st->released;
        if (S) {
            for (uint32_t i = 0; i < e.nargs && i < 64; i++)
                if ((S->wmask >> i) & 1) {
                    if (a.nw < RAVEL__LINT_RES_MAX)
                        a.w[a.nw++] = args[i];
                    else
                        a.wother = 1;
                }
            a.wother |= S->wother;
        } else {
            a.wother = 1; /* no body: it may write anything */
        }
        meet(fx, st, &a, &empty, ev);
        if (fx->rec)
            add_act(fx, &a);
    }

    struct ravel__lint_lockset held_before = st->held, kill, gen;
    memset(&kill, 0, sizeof kill);
    memset(&gen, 0, sizeof gen);
    if (S) {
        /* 2. Acts inside the callee. */
        for (uint32_t i = 0; i < S->nacts; i++) {
            const struct ravel__lint_act *ca = &S->acts[i];
            struct ravel__lint_act a = *ca;
            for (uint32_t k = 0; k < a.nres; k++)
                a.res[k] = ravel__lint_val_subst(p, ca->res[k], args, e.nargs);
            for (uint32_t k = 0; k < a.nw; k++)
                a.w[k] = ravel__lint_val_subst(p, ca->w[k], args, e.nargs);
            struct ravel__lint_lockset inner;
            ls_subst(p, &inner, &ca->released, args, e.nargs, true);
            meet(fx, st, &a, &inner, ev);
            if (fx->rec) {
                a.released = st->released;
                ls_union_may(&a.released, &inner);
                add_act(fx, &a);
            }
        }
        /* 3. Threads the callee creates become ours. */
        struct ravel__lint_tset live;
        live_of(st, &live);
        uint32_t *map = malloc(((size_t)S->ninsts + 1) * sizeof *map);
        RAVEL__CHECK(map != NULL);
        for (uint32_t i = 0; i < S->ninsts; i++) {
            const struct ravel__lint_inst *ci = &S->insts[i];
            struct ravel__lint_inst proto = *ci;
            proto.arg = ci->arg == NONE ? NONE
                                        : ravel__lint_val_subst(p, ci->arg, args, e.nargs);
            proto.handle = ravel__lint_ap_subst(p, ci->handle, args, e.nargs);
            proto.start_ap = ravel__lint_ap_subst(p, ci->start_ap, args, e.nargs);
            if (proto.start == NONE && proto.start_ap &&
                p->aps[proto.start_ap].kind == RAVEL__AP_FUNC)
                proto.start = p->syms[p->aps[proto.start_ap].a].def;
            proto.multi = ci->multi || cx->ev_loop[ev];
            memset(&proto.live_at, 0, sizeof proto.live_at);
            map[i] = inst_get(fx, ev, i, &proto);
        }
        if (cx->lockset) {
            for (uint32_t i = 0; i < S->ninsts; i++) {
                struct ravel__lint_tset at = live;
                if (S->insts[i].live_at.all)
                    at.all = 1;
                for (uint32_t k = 0; k < S->insts[i].live_at.n; k++)
                    if (S->insts[i].live_at.v[k] < S->ninsts)
                        ts_add(&at, map[S->insts[i].live_at.v[k]]);
                if (fx->rec)
                    ts_union(&fx->sum->insts[map[i]].live_at, &at);
            }
            /* 4. Accesses inside the callee, in our terms. A callee's
             * accesses share a few distinct sets: each pair of its held
             * and released sets, and each of its thread sets, is put in
             * our terms once per call (a small direct-mapped memo). A
             * second call of the same callee with the same arguments in
             * the same state adds exactly what the first added (merging
             * is idempotent), so it is skipped - unless the callee is
             * this function, whose accesses grow meanwhile. */
            if (fx->rec && (S == fx->sum || !seen_call(fx, st, &e, S))) {
                enum { MEMO = 64 };
                struct {
                    uint32_t held, rel, L, K;
                } lm[MEMO];
                struct {
                    uint32_t live, C;
                } tm[MEMO], cm[MEMO];
                /* The same path is accessed at many places of the
                 * callee: each is substituted once per call too. */
                enum { APMEMO = 512 };
                uint32_t amk[APMEMO], amv[APMEMO];
                memset(amk, 0xff, sizeof amk);
                for (uint32_t i = 0; i < MEMO; i++)
                    lm[i].held = tm[i].live = cm[i].live = NONE;
                for (uint32_t i = 0; i < S->naccs; i++) {
                    const struct ravel__lint_acc ca = S->accs[i];
                    uint32_t ah = (ca.ap * 2654435761u) >> 23; /* 9 bits: APMEMO */
                    uint32_t ap;
                    if (amk[ah] == ca.ap) {
                        ap = amv[ah];
                    } else {
                        ap = ravel__lint_ap_subst(p, ca.ap, args, e.nargs);
                        amk[ah] = ca.ap;
                        amv[ah] = ap;
                    }
                    if (!shareable(cx, ap))
                        continue;
                    uint32_t li = (ca.held * 31 + ca.lost) & (MEMO - 1);
                    if (lm[li].held != ca.held || lm[li].rel != ca.lost) {
                        struct ravel__lint_lockset L, K, sk, sl;
                        ls_subst(p, &sk, ravel__lint_ls_get(cx, ca.lost), args, e.nargs,
                                 true);
                        L = st->held;
                        ls_minus(&L, &sk);
                        ls_subst(p, &sl, ravel__lint_ls_get(cx, ca.held), args, e.nargs,
                                 false);
                        ls_union_must(&L, &sl);
                        K = st->lost;
                        ls_minus(&K, &sl);
                        ls_union_may(&K, &sk);
                        lm[li].held = ca.held;
                        lm[li].rel = ca.lost;
                        lm[li].L = ravel__lint_ls_intern(cx, &L);
                        lm[li].K = ravel__lint_ls_intern(cx, &K);
                    }
                    uint32_t ti = ca.live & (MEMO - 1);
                    if (tm[ti].live != ca.live) {
                        tm[ti].live = ca.live;
                        tm[ti].C = ts_in_caller(cx, &live, ca.live, S->ninsts, map);
                    }
                    uint32_t ci = ca.created & (MEMO - 1);
                    if (cm[ci].live != ca.created) {
                        cm[ci].live = ca.created;
                        cm[ci].C = ts_in_caller(cx, &st->created, ca.created, S->ninsts, map);
                    }
                    add_acc(fx, ap, ca.ev, ca.write, lm[li].L, lm[li].K, tm[ti].C, cm[ci].C,
                            ca.once || st->guard != 0, ca.early && st->fresh);
                }
            }
        }
        /* 5. The callee's running threads and joins. */
        if (S->ninsts)
            st->fresh = false;
        if (S->live_out.all)
            st->created.all = 1;
        for (uint32_t k = 0; k < S->live_out.n; k++) {
            if (S->live_out.v[k] >= S->ninsts)
                continue;
            ts_add(&st->created, map[S->live_out.v[k]]);
            ts_del(&st->joined, map[S->live_out.v[k]]);
        }
        for (uint32_t j = 0; j < S->njoins; j++) {
            uint32_t h = ravel__lint_ap_subst(p, S->joins[j], args, e.nargs);
            for (uint32_t i = 0; i < fx->sum->ninsts; i++)
                if (ravel__lint_ts_has(&st->created, i) &&
                    handle_matches(p, fx->sum->insts[i].handle, h))
                    ts_add(&st->joined, i);
            if ((h = iface_join(p, h)) != 0)
                ls_add_must(&st->jh, h);
        }
        free(map);
        /* 6. The callee's effect on locks: what it may have released
         * and not taken again is no longer held; what it surely takes
         * is. (kill, released perhaps at some time, is what breaks a
         * check's continuous hold.) */
        struct ravel__lint_lockset lost;
        ls_subst(p, &kill, &S->kill, args, e.nargs, true);
        ls_subst(p, &gen, &S->gen, args, e.nargs, false);
        ls_subst(p, &lost, &S->lost, args, e.nargs, true);
        ls_minus(&st->held, &lost);
        ls_minus(&st->lost, &gen);
        ls_union_may(&st->lost, &lost);
        for (uint32_t i = 0; i < lost.n && st->ncl; i++)
            cond_forget(st, NONE, lost.v[i], false);
        if (lost.all)
            cond_forget(st, NONE, NONE, true);
        ls_union_must(&st->held, &gen);
        ls_union_may(&st->released, &kill);
        for (uint32_t i = 0; i < st->npend; i++)
            ls_minus(&st->pend[i].held, &kill);
    }

    /* 6b. A C library function's own accesses. */
    if (!S && fx->rec && cx->lockset)
        lib_accesses(fx, st, ev);

    /* 7. Locks, waits, threads, by name. */
    for (const struct ravel__lint_spec *s = first; s; s = spec_next(cx, s)) {
        uint32_t l = s->nres ? arg_ap(p, &e, s->res[0]) : 0;
        switch ((enum ravel__lint_role)s->role) {
        case RAVEL__ROLE_LOCK:
            /* A trylock holds the lock only on the edge where it returned
             * 0 (edge_on below). */
            if (l && !(s->lockmode & RAVEL__LOCKM_TRY)) {
                ls_add_must(&st->held, l | ((s->lockmode & RAVEL__LOCKM_SHARED)
                                                ? RAVEL__LINT_LS_SHARED : 0));
                ls_del_lock(&st->lost, l);
            }
            break;
        case RAVEL__ROLE_UNLOCK:
        case RAVEL__ROLE_WAIT:
            /* Both release the lock; a wait takes it back before returning. */
            if (s->role == RAVEL__ROLE_UNLOCK) {
                ls_del_lock(&st->held, l);
                ls_add_may(&st->lost, l);
                cond_forget(st, NONE, l, false);
            }
            ls_add_may(&st->released, l);
            for (uint32_t i = 0; i < st->npend; i++)
                ls_del_lock(&st->pend[i].held, l);
            break;
        case RAVEL__ROLE_CREATE: {
            struct ravel__lint_inst proto;
            memset(&proto, 0, sizeof proto);
            proto.site = ev;
            proto.start = NONE;
            uint32_t fn = arg_ap(p, &e, s->res[1]);
            proto.start_ap = fn;
            if (fn && p->aps[fn].kind == RAVEL__AP_FUNC)
                proto.start = p->syms[p->aps[fn].a].def;
            proto.arg = arg(p, &e, s->res[2]);
            proto.handle = arg_ap(p, &e, s->res[0]);
            proto.multi = cx->ev_loop[ev];
            uint32_t id = inst_get(fx, ev, NONE, &proto);
            if (fx->rec && cx->lockset) {
                struct ravel__lint_tset live;
                live_of(st, &live);
                ts_union(&fx->sum->insts[id].live_at, &live);
            }
            ts_add(&st->created, id);
            ts_del(&st->joined, id);
            st->fresh = false;
            break;
        }
        case RAVEL__ROLE_JOIN: {
            bool part = false;
            for (uint32_t i = 0; i < fx->sum->ninsts; i++) {
                if (!ravel__lint_ts_has(&st->created, i) ||
                    !handle_matches(p, fx->sum->insts[i].handle, l))
                    continue;
                /* A join loop over [0, 9) of threads a loop created over
                 * [0, 10) leaves one running. */
                int64_t jlo, jhi, clo, chi;
                if (ravel__lint_range_of(p, ev, &jlo, &jhi) &&
                    ravel__lint_range_of(p, fx->sum->insts[i].site, &clo, &chi) &&
                    (jlo > clo || jhi < chi)) {
                    part = true;
                    continue;
                }
                ts_add(&st->joined, i);
            }
            if (!part && (l = iface_join(p, l)) != 0)
                ls_add_must(&st->jh, l);
            break;
        }
        default:
            break;
        }
    }

    /* 8. Checks made inside the callee and still pending at its return. */
    if (S) {
        struct ravel__lint_lockset kept = held_before;
        ls_minus(&kept, &kill);
        for (uint32_t i = 0; i < S->nout; i++) {
            const struct ravel__lint_pend *cp = &S->out[i];
            struct ravel__lint_pend pc = *cp;
            for (uint32_t k = 0; k < pc.nres; k++)
                pc.res[k] = ravel__lint_val_subst(p, cp->res[k], args, e.nargs);
            ls_subst(p, &pc.held, &cp->held, args, e.nargs, false);
            ls_union_must(&pc.held, &kept);
            pc.disp = ev;
            pend_add(st, &pc);
        }
    }

    /* 9. The call itself checks. */
    for (const struct ravel__lint_spec *s = first; s; s = spec_next(cx, s)) {
        if (s->role != RAVEL__ROLE_CHECK)
            continue;
        struct ravel__lint_pend pc;
        memset(&pc, 0, sizeof pc);
        pc.site = pc.disp = ev;
        pc.fam = s->family;
        res_of(p, &e, s, pc.res, &pc.nres);
        if (!res_complete(pc.res, pc.nres))
            continue;
        pc.held = st->held;
        /* A new check of the same resource supersedes older ones. */
        uint32_t k = 0;
        for (uint32_t i = 0; i < st->npend; i++) {
            const struct ravel__lint_pend *o = &st->pend[i];
            bool same = o->fam == pc.fam && o->nres == pc.nres;
            for (uint32_t r = 0; same && r < pc.nres; r++)
                same = ravel__lint_val_same(p, o->res[r], pc.res[r]) == RAVEL__SAME_YES;
            if (!same)
                st->pend[k++] = *o;
        }
        st->npend = k;
        pend_add(st, &pc);
    }
}

static void transfer(struct fctx *fx, struct state *st, uint32_t ev)
{
    struct ravel__lint_ctx *cx = fx->cx;
    const struct ravel__lint_event *e = &cx->prog->events[ev];
    if (e->kind == RAVEL__EV_CALL) {
        transfer_call(fx, st, ev);
        return;
    }
    if (e->kind == RAVEL__EV_LOAD && (st->nfact || st->ncl))
        cond_forget(st, ev, NONE, false); /* a new value: nothing known of it */
    if (!fx->rec || !cx->lockset)
        return;
    if ((e->kind == RAVEL__EV_LOAD || e->kind == RAVEL__EV_STORE) &&
        !(e->flags & RAVEL__EVF_ATOMIC)) {
        uint32_t ap = arg_ap(cx->prog, e, 0);
        if (!shareable(cx, ap) && !(ap = list_node(cx, arg(cx->prog, e, 0))))
            return;
        add_acc_st(fx, st, ap, ev, e->kind == RAVEL__EV_STORE);
    }
}

/* Along an edge taken only when call `on` returned 0 (or nonzero, with
 * RAVEL__LINT_ON_FAIL): a lock call that returned 0 holds its lock (this
 * is where trylock takes it), one that failed does not. */
static void edge_on(struct fctx *fx, struct state *st, uint32_t on)
{
    struct ravel__lint_ctx *cx = fx->cx;
    const struct ravel__lint_prog *p = cx->prog;
    bool ok = !(on & RAVEL__LINT_ON_FAIL);
    if (on & RAVEL__LINT_ON_NULL) {
        if (ok)
            st->null_ap = on & ~(RAVEL__LINT_ON_FAIL | RAVEL__LINT_ON_NULL);
        return;
    }
    const struct ravel__lint_event *e = &p->events[on & ~RAVEL__LINT_ON_FAIL];
    if (e->kind == RAVEL__EV_LOAD) {
        uint32_t ap = arg_ap(p, e, 0);
        uint32_t lev = on & ~RAVEL__LINT_ON_FAIL;
        /* A flag nothing writes has its initial value: the other branch
         * is never taken. */
        if (ap && p->aps[ap].kind == RAVEL__AP_GLOBAL && cx->fixed_int[p->aps[ap].a] &&
            (p->syms[p->aps[ap].a].init == 0) != ok) {
            st->reached = false;
            return;
        }
        /* What this branch tells about the load, and the locks taken
         * earlier under the same outcome. */
        uint32_t k = 0;
        for (uint32_t i = 0; i < st->nfact; i++)
            if (st->fact[i].ev != lev)
                st->fact[k++] = st->fact[i];
        st->nfact = (uint8_t)k;
        for (uint32_t i = 0; i < st->ncl; i++)
            if (st->cl[i].ev == lev && st->cl[i].zero == ok) {
                ls_add_must(&st->held, st->cl[i].lock);
                ls_del_lock(&st->lost, st->cl[i].lock);
            }
        if (st->nfact == COND_MAX) {
            memmove(st->fact, st->fact + 1, (COND_MAX - 1) * sizeof st->fact[0]);
            st->nfact--;
        }
        st->fact[st->nfact].ev = lev;
        st->fact[st->nfact].zero = ok;
        st->nfact++;
        /* `if (G.flag) return;`: past it, until the paths join again, runs
         * what only a first call does - if this function sets G.flag. */
        if (!ok || st->guard || !ap || ravel__lint_ap_rootkind(p, ap) != RAVEL__AP_GLOBAL ||
            ravel__lint_ap_has_deref(p, ap))
            return;
        for (uint32_t i = 0; i < fx->ngstores; i++)
            if (fx->gstores[i] == ap)
                st->guard = ap;
        return;
    }
    for (const struct ravel__lint_spec *s = spec_first(cx, e); s; s = spec_next(cx, s)) {
        if (s->role != RAVEL__ROLE_LOCK || !s->nres)
            continue;
        uint32_t l = arg_ap(p, e, s->res[0]);
        if (!l)
            continue;
        if (ok) {
            ls_add_must(&st->held, l | ((s->lockmode & RAVEL__LOCKM_SHARED)
                                            ? RAVEL__LINT_LS_SHARED : 0));
            ls_del_lock(&st->lost, l);
        } else
            ls_del_lock(&st->held, l);
    }
}

/* ---- effects: escape, capture, writes --------------------------------------------- */

static void mark_escape(struct ravel__lint_ctx *cx, struct ravel__lint_summary *s,
                        uint32_t v)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (v == NONE)
        return;
    const struct ravel__lint_val *val = &p->vals[v];
    for (uint32_t i = 0; i < val->n; i++) {
        uint32_t ap = val->ap[i];
        if (ap == 0 || ravel__lint_ap_has_deref(p, ap))
            continue;
        const struct ravel__lint_ap *r = &p->aps[p->aps[ap].root];
        if (r->kind == RAVEL__AP_LOCAL)
            cx->local_esc[p->aps[ap].root] = 1;
        else if (r->kind == RAVEL__AP_PARAM && r->a < 64)
            s->capture |= 1ULL << r->a;
    }
}

static void mark_write(struct ravel__lint_ctx *cx, struct ravel__lint_summary *s,
                       uint32_t ap, bool globals_count)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (ap == 0)
        return;
    const struct ravel__lint_ap *r = &p->aps[p->aps[ap].root];
    if (r->kind == RAVEL__AP_PARAM && r->a < 64)
        s->wmask |= 1ULL << r->a;
    else if (globals_count && r->kind == RAVEL__AP_GLOBAL &&
             !(p->syms[r->a].flags & RAVEL__SYMF_TLS))
        s->wother = 1;
}

static void effects(struct ravel__lint_ctx *cx, uint32_t f, struct ravel__lint_summary *s)
{
    const struct ravel__lint_prog *p = cx->prog;
    const struct ravel__lint_func *fn = &p->funcs[f];
    const struct ravel__lint_block *b0 = &p->blocks[fn->first_block];
    uint32_t first = b0[0].first_event;
    uint32_t last = fn->nblocks ? b0[fn->nblocks - 1].first_event + b0[fn->nblocks - 1].nevents
                                : first;
    for (uint32_t ev = first; ev < last; ev++) {
        const struct ravel__lint_event *e = &p->events[ev];
        switch ((enum ravel__lint_ev_kind)e->kind) {
        case RAVEL__EV_STORE:
            mark_write(cx, s, arg_ap(p, e, 0), true);
            mark_escape(cx, s, arg(p, e, 1));
            break;
        case RAVEL__EV_RET:
            mark_escape(cx, s, arg(p, e, 0));
            break;
        case RAVEL__EV_LOAD:
            break;
        case RAVEL__EV_CALL: {
            const struct ravel__lint_summary *S = callee_summary(cx, e);
            for (const struct ravel__lint_spec *sp = spec_first(cx, e); sp;
                 sp = spec_next(cx, sp))
                if (sp->role == RAVEL__ROLE_CREATE)
                    mark_escape(cx, s, arg(p, e, sp->res[2]));
            if (e->flags & RAVEL__EVF_ESCAPE)
                for (uint32_t i = 0; i < e->nargs; i++)
                    mark_escape(cx, s, arg(p, e, i));
            if (S && S != s) {
                for (uint32_t i = 0; i < e->nargs && i < 64; i++) {
                    if ((S->capture >> i) & 1)
                        mark_escape(cx, s, arg(p, e, i));
                    if ((S->wmask >> i) & 1)
                        mark_write(cx, s, arg_ap(p, e, i), true);
                }
                s->wother |= S->wother;
            } else if (!S) {
                for (uint32_t i = 0; i < e->nargs; i++)
                    mark_write(cx, s, arg_ap(p, e, i), false);
            }
            break;
        }
        }
    }
}

/* ---- one function ----------------------------------------------------------------- */

static void analyze_func(struct ravel__lint_ctx *cx, uint32_t f)
{
    struct ravel__lint_prog *p = cx->prog;
    const struct ravel__lint_func *fn = &p->funcs[f];
    struct ravel__lint_summary *sum = &cx->sum[f];
    summary_reset(sum, false);
    effects(cx, f, sum);
    uint32_t nb = fn->nblocks;
    if (nb == 0) {
        sum->done = true;
        return;
    }
    const struct ravel__lint_block *b0 = &p->blocks[fn->first_block];
    struct state *in = malloc((size_t)nb * sizeof *in);
    uint32_t *queue = malloc(((size_t)nb + 1) * sizeof *queue);
    uint8_t *inq = calloc(nb, 1);
    uint32_t *visits = calloc(nb, sizeof *visits);
    RAVEL__CHECK(in && queue && inq && visits);
    for (uint32_t b = 0; b < nb; b++)
        st_init(&in[b]);
    in[0].reached = true;
    in[0].fresh = true;
    struct state cur, exit, edge;
    st_init(&cur);
    st_init(&exit);
    st_init(&edge);
    struct fctx fx;
    memset(&fx, 0, sizeof fx);
    fx.cx = cx;
    fx.f = f;
    fx.sum = sum;
    {
        /* The globals this function stores to (for the once-only guard). */
        uint32_t first = b0[0].first_event;
        uint32_t last = b0[nb - 1].first_event + b0[nb - 1].nevents;
        uint32_t cap = 0;
        for (uint32_t ev = first; ev < last; ev++) {
            const struct ravel__lint_event *e = &p->events[ev];
            if (e->kind != RAVEL__EV_STORE)
                continue;
            uint32_t ap = arg_ap(p, e, 0);
            if (!ap || ravel__lint_ap_rootkind(p, ap) != RAVEL__AP_GLOBAL)
                continue;
            PUSH(fx.gstores, fx.ngstores, cap);
            fx.gstores[fx.ngstores++] = ap;
        }
    }

    /* Joined threads are recomputed from every incoming edge's latest
     * state (not accumulated like the rest): a thread counts as joined
     * where paths meet when every forward edge joined it, or a loop's
     * back edge did (a join loop joins one element per round). An
     * accumulated intersection would keep the state of a block's first,
     * partial visit. Edges are the function's successor entries. */
    uint32_t fs = b0[0].first_succ;
    uint32_t nedge = b0[nb - 1].first_succ + b0[nb - 1].nsucc - fs;
    struct ravel__lint_tset *ej = malloc(((size_t)nedge + 1) * sizeof *ej);
    struct ravel__lint_lockset *ejh = malloc(((size_t)nedge + 1) * sizeof *ejh);
    RAVEL__CHECK(ejh != NULL);
    uint8_t *eset = calloc((size_t)nedge + 1, 1);
    uint32_t *pfirst = calloc((size_t)nb + 1, sizeof *pfirst);
    uint32_t *pedge = malloc(((size_t)nedge + 1) * sizeof *pedge);
    uint32_t *esrc = malloc(((size_t)nedge + 1) * sizeof *esrc);
    RAVEL__CHECK(ej && eset && pfirst && pedge && esrc);
    for (uint32_t b = 0; b < nb; b++)
        for (uint32_t k = 0; k < b0[b].nsucc; k++) {
            esrc[b0[b].first_succ + k - fs] = b;
            pfirst[p->succs[b0[b].first_succ + k] + 1]++;
        }
    for (uint32_t b = 0; b < nb; b++)
        pfirst[b + 1] += pfirst[b];
    {
        uint32_t *fill = malloc(((size_t)nb + 1) * sizeof *fill);
        RAVEL__CHECK(fill != NULL);
        memcpy(fill, pfirst, ((size_t)nb + 1) * sizeof *fill);
        for (uint32_t e = 0; e < nedge; e++)
            pedge[fill[p->succs[fs + e]]++] = e;
        free(fill);
    }

    /* The fixpoint: a FIFO of blocks whose entry state changed. */
    uint32_t head = 0, count = 0;
    queue[0] = 0;
    inq[0] = 1;
    count = 1;
    while (count) {
        uint32_t b = queue[head];
        head = (head + 1) % (nb + 1);
        count--;
        inq[b] = 0;
        if (visits[b]++ >= RAVEL__LINT_VISITS_MAX)
            continue;
        st_copy(&cur, &in[b]);
        for (uint32_t e = 0; e < b0[b].nevents; e++)
            transfer(&fx, &cur, b0[b].first_event + e);
        for (uint32_t s = 0; s < b0[b].nsucc; s++) {
            uint32_t t = p->succs[b0[b].first_succ + s];
            uint32_t on = p->succon ? p->succon[b0[b].first_succ + s] : NONE;
            const struct state *out = &cur;
            if (on != NONE) {
                st_copy(&edge, &cur);
                edge_on(&fx, &edge, on);
                out = &edge;
            }
            if (!out->reached)
                continue; /* a branch a fixed flag never takes */
            uint32_t ei = b0[b].first_succ + s - fs;
            ej[ei] = out->joined;
            ejh[ei] = out->jh;
            eset[ei] = 1;
            struct ravel__lint_tset oldj = in[t].joined;
            struct ravel__lint_lockset oldjh = in[t].jh;
            bool was = in[t].reached;
            bool ch = st_merge(p, &in[t], out, true);
            struct ravel__lint_tset fwd, bk;
            struct ravel__lint_lockset hfwd, hbk;
            bool any_fwd = false;
            memset(&bk, 0, sizeof bk);
            memset(&fwd, 0, sizeof fwd);
            memset(&hbk, 0, sizeof hbk);
            memset(&hfwd, 0, sizeof hfwd);
            for (uint32_t k = pfirst[t]; k < pfirst[t + 1]; k++) {
                uint32_t e2 = pedge[k];
                if (!eset[e2])
                    continue;
                if (t <= esrc[e2]) {
                    ts_union(&bk, &ej[e2]);
                    ls_union_must(&hbk, &ejh[e2]);
                } else if (!any_fwd) {
                    fwd = ej[e2];
                    hfwd = ejh[e2];
                    any_fwd = true;
                } else {
                    ts_intersect(&fwd, &ej[e2]);
                    ls_intersect(&hfwd, &ejh[e2]);
                }
            }
            ts_union(&fwd, &bk);
            ls_union_must(&hfwd, &hbk);
            in[t].joined = fwd;
            in[t].jh = hfwd;
            if (was && (!ts_equal(&fwd, &oldj) || !ls_equal(&hfwd, &oldjh)))
                ch = true;
            if (ch && !inq[t]) {
                queue[(head + count) % (nb + 1)] = t;
                count++;
                inq[t] = 1;
            }
        }
    }

    /* The recording pass, block by block from the fixpoint's states. */
    fx.rec = true;
    struct ravel__lint_lockset dgen;
    memset(&dgen, 0, sizeof dgen);
    for (uint32_t b = 0; b < nb; b++) {
        if (!in[b].reached)
            continue;
        st_copy(&cur, &in[b]);
        for (uint32_t e = 0; e < b0[b].nevents; e++)
            transfer(&fx, &cur, b0[b].first_event + e);
        if (fn->dispatch && b > 0 && b + 1 < nb)
            ls_union_must(&dgen, &cur.held);
        bool returns = b0[b].nsucc == 0 && b0[b].nevents > 0 &&
                       p->events[b0[b].first_event + b0[b].nevents - 1].kind == RAVEL__EV_RET;
        if (returns)
            st_merge(p, &exit, &cur, false);
    }

    /* The summary. */
    if (exit.reached) {
        sum->gen = exit.held;
        /* A call through a pointer that may reach several functions holds
         * afterwards the locks any one of them takes. Unsound on purpose:
         * a table of lock methods holds a real implementation and a
         * do-nothing one (SQLite's pthreadMutexEnter, noopMutexEnter), and
         * a program configures the do-nothing one only when it runs no
         * threads; intersecting would see no lock in such a program. */
        if (fn->dispatch)
            ls_union_must(&sum->gen, &dgen);
        ls_keep_iface(p, &sum->gen);
        sum->kill = exit.released;
        ls_keep_iface(p, &sum->kill);
        sum->lost = exit.lost;
        ls_keep_iface(p, &sum->lost);
        for (uint32_t i = 0; i < exit.npend; i++) {
            struct ravel__lint_pend pc = exit.pend[i];
            bool ok = true;
            for (uint32_t k = 0; k < pc.nres; k++)
                ok &= val_iface_ok(p, pc.res[k]);
            if (!ok)
                continue;
            ls_keep_iface(p, &pc.held);
            PUSH(sum->out, sum->nout, sum->capout);
            sum->out[sum->nout++] = pc;
        }
        live_of(&exit, &sum->live_out);
        for (uint32_t i = 0; i < exit.jh.n; i++) {
            PUSH(sum->joins, sum->njoins, sum->capjoins);
            sum->joins[sum->njoins++] = exit.jh.v[i];
        }
    }
    sum->done = true;

    for (uint32_t b = 0; b < nb; b++)
        free(in[b].pend);
    free(cur.pend);
    free(exit.pend);
    free(edge.pend);
    free(fx.gstores);
    free(fx.seen);
    free(ej);
    free(ejh);
    free(eset);
    free(pfirst);
    free(pedge);
    free(esrc);
    free(in);
    free(queue);
    free(inq);
    free(visits);
}

void ravel__lint_analyze(struct ravel__lint_ctx *cx)
{
    struct ravel__lint_prog *p = cx->prog;
    uint32_t nf = p->nfuncs;
    cx->sum = calloc(nf ? nf : 1, sizeof *cx->sum);
    lib_state_init(cx);
    cx->sym_spec = malloc((p->nsyms ? p->nsyms : 1) * sizeof *cx->sym_spec);
    cx->local_esc = calloc(p->naps ? p->naps : 1, 1);
    RAVEL__CHECK(cx->sum && cx->sym_spec && cx->local_esc);
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const struct ravel__lint_spec *s = ravel__lint_specs_find(cx->specs, p->syms[i].name);
        cx->sym_spec[i] = s ? (uint32_t)(s - cx->specs->v) : NONE;
    }
    find_loops(cx);
    find_fixed_ints(cx);

    /* The call graph in compressed form: direct calls to defined functions. */
    uint32_t *first = malloc(((size_t)nf + 1) * sizeof *first);
    RAVEL__CHECK(first != NULL);
    uint32_t nedges = 0, capedges = 1024;
    uint32_t *adj = malloc(capedges * sizeof *adj);
    RAVEL__CHECK(adj != NULL);
    for (uint32_t f = 0; f < nf; f++) {
        first[f] = nedges;
        const struct ravel__lint_func *fn = &p->funcs[f];
        for (uint32_t b = 0; b < fn->nblocks; b++) {
            const struct ravel__lint_block *bl = &p->blocks[fn->first_block + b];
            for (uint32_t k = 0; k < bl->nevents; k++) {
                const struct ravel__lint_event *e = &p->events[bl->first_event + k];
                if (e->kind != RAVEL__EV_CALL || e->callee == NONE ||
                    p->syms[e->callee].def == NONE)
                    continue;
                if (nedges == capedges) {
                    capedges *= 2;
                    adj = realloc(adj, capedges * sizeof *adj);
                    RAVEL__CHECK(adj != NULL);
                }
                adj[nedges++] = p->syms[e->callee].def;
            }
        }
    }
    first[nf] = nedges;
    uint32_t *comp = malloc((nf ? nf : 1) * sizeof *comp);
    uint8_t *cyc = malloc(nf ? nf : 1);
    RAVEL__CHECK(comp && cyc);
    uint32_t ncomp = tarjan(nf, first, adj, comp, cyc);

    /* Functions grouped by component, components callees first. */
    uint32_t *cstart = calloc((size_t)ncomp + 1, sizeof *cstart);
    uint32_t *order = malloc((nf ? nf : 1) * sizeof *order);
    RAVEL__CHECK(cstart && order);
    for (uint32_t f = 0; f < nf; f++)
        cstart[comp[f] + 1]++;
    for (uint32_t c = 0; c < ncomp; c++)
        cstart[c + 1] += cstart[c];
    uint32_t *fill = malloc(((size_t)ncomp + 1) * sizeof *fill);
    RAVEL__CHECK(fill != NULL);
    memcpy(fill, cstart, ((size_t)ncomp + 1) * sizeof *fill);
    for (uint32_t f = 0; f < nf; f++)
        order[fill[comp[f]]++] = f;
    for (uint32_t c = 0; c < ncomp; c++) {
        int rounds = cyc[c] ? 2 : 1;
        for (int r = 0; r < rounds; r++)
            for (uint32_t i = cstart[c]; i < cstart[c + 1]; i++)
                analyze_func(cx, order[i]);
    }
    free(fill);
    free(cstart);
    free(order);
    free(comp);
    free(cyc);
    free(first);
    free(adj);
}
