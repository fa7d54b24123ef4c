/*
 * lockset.c - inconsistently locked shared data, found from the roots of
 * the call graph (Eraser's lockset idea, applied statically).
 *
 * A root is a function nobody calls directly and that is not a thread's
 * start routine: main, or an entry point of a library. Its summary
 * (flow.c) lists every access made by it and its callees - with the locks
 * surely held, and the threads perhaps running, at each - and every thread
 * it creates, with the value passed to it and the threads perhaps running
 * when it was created. Each created thread contributes the accesses of its
 * start routine's summary, with the routine's parameter replaced by the
 * value passed to it, so `c->count` in a worker and `ctx.count` in main
 * become the same path when main passed &ctx.
 *
 * Two accesses race when they may touch the same location (equal paths, or
 * paths that differ only in array indexes: "perhaps"), at least one
 * writes, neither is atomic, no lock is surely held at both, and they can
 * run at the same time:
 *
 *     root and thread T      T was perhaps running at the root's access
 *                            (created before it, not yet joined)
 *     threads T and U        one was running when the other was created
 *     thread T with itself   T is created in a loop, and the location is
 *                            not its own (not reached through a value that
 *                            differs per thread, like &args[i]); the same
 *                            holds for two threads from one pthread_create
 *                            call reached along different paths
 *
 * So accesses before the first create and after the last join are never
 * reported, and two threads run one after the other never race.
 *
 * Threads created by threads are contexts of their own (struct tctx):
 * a descendant races with an ancestor's access made while the child
 * leading to it was running, and two threads in different branches race
 * as the two children of their common ancestor where the branches part.
 *
 * A thread's accesses and the locks it holds at them are both put in the
 * root's terms through the value passed to it (`&pool->lock` in a worker
 * is main's pool's lock). Start routines and locks reached through
 * function pointers, and objects behind pointers, arrive here already
 * resolved by points.c.
 *
 * A child that outlives its parent (still running when the parent's
 * start routine returns: detached, or never joined) is also compared with
 * what its ancestors do after creating the parent, joined or not.
 *
 * Two paths may touch the same location when equal, when they differ in
 * index values only, or when one has an index where the other has a
 * constant element (`a[i]` and `a[2]`: ravel__lint_ap_may_overlap); in
 * the last case per-element locks overlapping the same way count as one.
 *
 * What is left out, and said in docs/lint.md: a leaked child against its
 * parent's siblings' branches, and memory reached only through pointers
 * the analysis cannot name.
 */
#include "lockset.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE RAVEL__LINT_NONE

/* One access as seen from a root: in one context (0: the root, k: the
 * root's thread instance k-1). */
struct racc {
    uint32_t ap;
    uint32_t ev;
    uint8_t write;
    uint8_t priv; /* reached through an argument that differs per thread */
    uint32_t ctx;
    struct ravel__lint_lockset held;
    struct ravel__lint_tset live; /* root context: threads perhaps running */
    struct ravel__lint_tset created; /* ... and perhaps created before */
    uint32_t partner;             /* first access it races with, or NONE */
    uint8_t partner_same;         /* RAVEL__SAME_* of that pair */
};

struct rvec {
    struct racc *v;
    uint32_t n, cap;
};

static void push(struct rvec *r, const struct racc *a)
{
    if (r->n == r->cap) {
        uint32_t nc = r->cap ? r->cap * 2 : 64;
        struct racc *nv = realloc(r->v, (size_t)nc * sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        r->v = nv;
        r->cap = nc;
    }
    r->v[r->n++] = *a;
}

static bool candidate(const struct ravel__lint_prog *p, uint32_t ap)
{
    if (ap == 0)
        return false;
    const struct ravel__lint_ap *r = &p->aps[p->aps[ap].root];
    switch ((enum ravel__lint_ap_kind)r->kind) {
    case RAVEL__AP_GLOBAL:
        return !(p->syms[r->a].flags & (RAVEL__SYMF_TLS | RAVEL__SYMF_CONST));
    case RAVEL__AP_LOCAL:
    case RAVEL__AP_ALLOC:
    case RAVEL__AP_ARG:
        return true;
    default:
        return false;
    }
}

/* Does each instance of a thread get its own value (&args[i], (void *)i,
 * a block malloc'ed in the loop)? */
static bool per_instance(const struct ravel__lint_ctx *cx, uint32_t v)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (v == NONE)
        return false;
    uint32_t ap = ravel__lint_val_primary(p, v);
    const struct ravel__lint_ap *x = &p->aps[ap];
    const struct ravel__lint_ap *r = &p->aps[x->root];
    if (x->has_index || r->kind == RAVEL__AP_VALUE || r->kind == RAVEL__AP_UNKNOWN)
        return true;
    if (r->kind == RAVEL__AP_ALLOC && r->b >= 0 && (uint64_t)r->b < p->nevents)
        return cx->ev_loop[r->b] != 0;
    return false;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* A context accesses are made in: the root (0), a thread the root
 * creates, or a thread such a thread creates, and so on. */
#define CTX_MAX 256
#define CTX_DEPTH 4
struct tctx {
    uint32_t parent; /* context that creates it (0: the root) */
    uint32_t inst;   /* its index in the parent's summary's insts */
    uint32_t start;  /* function it runs */
    uint32_t arg;    /* value passed to it, in the root's terms */
    uint32_t depth;
    bool multi;      /* several instances at once (its own loop or a parent's) */
    bool leaked;     /* perhaps still running when its parent thread returns
                        (detached, or never joined there) */
    const struct ravel__lint_summary *sum;
};

struct ctxs {
    struct tctx v[CTX_MAX];
    uint32_t n;
};

static const struct ravel__lint_inst *inst_of(const struct ctxs *T, uint32_t c)
{
    return &T->v[T->v[c].parent].sum->insts[T->v[c].inst];
}

static void describe(const struct ravel__lint_ctx *cx, uint32_t root,
                     const struct ctxs *T, uint32_t ctx, bool another, char *buf,
                     size_t len)
{
    const struct ravel__lint_prog *p = cx->prog;
    if (ctx == 0) {
        snprintf(buf, len, "%s", ravel__lint_func_name(p, root));
        return;
    }
    const struct ravel__lint_inst *in = inst_of(T, ctx);
    const struct ravel__lint_event *e = &p->events[in->site];
    snprintf(buf, len, "%sthread running %s (created at %s:%u)",
             another ? "another " : "the ", ravel__lint_func_name(p, in->start),
             base(p->files[e->file].shown), e->line);
}

/* The child of `anc` on the way from it down to c, or NONE when anc is
 * not an ancestor of c. */
static uint32_t child_toward(const struct ctxs *T, uint32_t anc, uint32_t c)
{
    while (c != 0) {
        if (T->v[c].parent == anc)
            return c;
        c = T->v[c].parent;
    }
    return NONE;
}

/* An access of context `up` and one of its descendant `down`: the one in
 * `up` is made while the child leading to `down` was perhaps running -
 * or after that child was created, when a thread on the way from it down
 * to `down` outlives its parent (a detached grandchild runs on after
 * the child that started it was joined). */
static bool concurrent_down(const struct ctxs *T, const struct racc *up, uint32_t down)
{
    if (up->ctx != 0 && T->v[up->ctx].multi)
        return true; /* another instance of `up` runs any time */
    uint32_t ch = child_toward(T, up->ctx, down);
    if (ch == NONE)
        return false;
    if (ravel__lint_ts_has(&up->live, T->v[ch].inst))
        return true;
    for (uint32_t c = down; c != ch; c = T->v[c].parent)
        if (T->v[c].leaked)
            return ravel__lint_ts_has(&up->created, T->v[ch].inst);
    return false;
}

static bool concurrent(const struct ctxs *T, const struct racc *a, const struct racc *b)
{
    if (a->ctx == b->ctx)
        return a->ctx != 0 && T->v[a->ctx].multi && !a->priv && !b->priv;
    if (a->ctx == 0 || child_toward(T, a->ctx, b->ctx) != NONE)
        return concurrent_down(T, a, b->ctx);
    if (b->ctx == 0 || child_toward(T, b->ctx, a->ctx) != NONE)
        return concurrent_down(T, b, a->ctx);
    /* Neither is the other's ancestor: their lines part at a common
     * ancestor z, into two of z's threads x and y. */
    uint32_t x = a->ctx, y = b->ctx;
    while (T->v[x].depth > T->v[y].depth)
        x = T->v[x].parent;
    while (T->v[y].depth > T->v[x].depth)
        y = T->v[y].parent;
    while (T->v[x].parent != T->v[y].parent) {
        x = T->v[x].parent;
        y = T->v[y].parent;
    }
    uint32_t z = T->v[x].parent;
    if (z != 0 && T->v[z].multi)
        return true;
    if (x == y) /* cannot happen: neither is an ancestor of the other */
        return true;
    const struct ravel__lint_inst *xi = inst_of(T, x), *yi = inst_of(T, y);
    /* Two threads from one pthread_create, each given its own object:
     * what each reaches through its argument is its own. */
    if (x == a->ctx && y == b->ctx && xi->site == yi->site && a->priv && b->priv)
        return false;
    return ravel__lint_ts_has(&xi->live_at, T->v[y].inst) ||
           ravel__lint_ts_has(&yi->live_at, T->v[x].inst);
}

/* Accesses grouped by the root object of their path, and in a group by
 * path, place and context. qsort's context-free comparator reaches the
 * program through this (set by analyze_root for the one sort). */
static const struct ravel__lint_prog *sort_prog;

/* For `a[i].v` against `a[2].v`: the two are the same element only when
 * i is 2, and then per-element locks `a[i].m` and `a[2].m` are the same
 * lock too. Some pair of held locks that overlap the same way (one in
 * write mode) counts as one lock. */
static bool element_locks(const struct ravel__lint_prog *p,
                          const struct ravel__lint_lockset *a,
                          const struct ravel__lint_lockset *b)
{
    for (uint32_t i = 0; i < a->n; i++)
        for (uint32_t k = 0; k < b->n; k++) {
            uint32_t la = a->v[i], lb = b->v[k];
            if ((la & lb & RAVEL__LINT_LS_SHARED) != 0)
                continue;
            if (ravel__lint_ap_may_overlap(p, la & ~RAVEL__LINT_LS_SHARED,
                                           lb & ~RAVEL__LINT_LS_SHARED))
                return true;
        }
    return false;
}

static int cmp_root(const void *x, const void *y)
{
    const struct racc *a = x, *b = y;
    uint32_t ra = sort_prog->aps[a->ap].root, rb = sort_prog->aps[b->ap].root;
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (a->ap != b->ap)
        return a->ap < b->ap ? -1 : 1;
    if (a->ev != b->ev)
        return a->ev < b->ev ? -1 : 1;
    return (int)a->ctx - (int)b->ctx;
}

static void report(struct ravel__lint_ctx *cx, uint32_t root, const struct ctxs *T,
                   const struct racc *a, const struct racc *b)
{
    struct ravel__lint_prog *p = cx->prog;
    char what[256], ca[200], cb[200], msg[900], note[300];
    describe(cx, root, T, a->ctx, false, ca, sizeof ca);
    describe(cx, root, T, b->ctx, a->ctx == b->ctx, cb, sizeof cb);
    const struct ravel__lint_event *ea = &p->events[a->ev], *eb = &p->events[b->ev];
    /* Named as written at the access (`pool->queue.len`), else from the
     * path (`ctx.count`). */
    uint32_t own = ea->nargs ? ravel__lint_val_primary(p, ravel__lint_ev_arg(p, ea, 0)) : 0;
    if (!ravel__lint_quote_lvalue(cx->src, p->files[ea->file].path, ea->line, ea->col,
                                  p->aps[own].depth > 0, what, sizeof what))
        ravel__lint_ap_lvalue(p, a->ap, what, sizeof what);
    /* One finding per place, also across roots (two API functions that
     * both reach the same racy code). */
    for (uint32_t i = 0; i < cx->out->n; i++) {
        const struct ravel__lint_finding *o = &cx->out->v[i];
        if (o->rule == RAVEL__RULE_LOCKSET && o->file == ea->file && o->line == ea->line &&
            o->col == ea->col)
            return;
    }
    snprintf(msg, sizeof msg,
             "data race on '%s'%s: %s in %s, %s in %s at %s:%u, and no lock is "
             "held at both",
             what, a->partner_same == RAVEL__SAME_MIGHT ? " (perhaps the same element)" : "",
             a->write ? "written" : "read", ca, b->write ? "written" : "read", cb,
             base(p->files[eb->file].shown), eb->line);
    struct ravel__lint_finding *f = ravel__lint_finding_add(
        cx->out, RAVEL__RULE_LOCKSET, ea->file, ea->line, ea->col, msg);
    if (!f)
        return;
    snprintf(note, sizeof note, "the other access, %s in %s",
             b->write ? "a write" : "a read", cb);
    ravel__lint_note_add(f, eb->file, eb->line, eb->col, note);
}

static void analyze_root(struct ravel__lint_ctx *cx, uint32_t root)
{
    struct ravel__lint_prog *p = cx->prog;
    const struct ravel__lint_summary *rs = &cx->sum[root];
    uint32_t np = p->funcs[root].nparams;
    /* The root's parameters come from an unknown caller: name them. */
    uint32_t *rargs = malloc(((size_t)np + 1) * sizeof *rargs);
    RAVEL__CHECK(rargs != NULL);
    for (uint32_t i = 0; i < np; i++)
        rargs[i] = ravel__lint_val1(p, ravel__lint_ap_root(p, RAVEL__AP_ARG, root, i));

    /* Initialisation done once: an access made only past a `G.flag == 0`
     * test of a flag its function sets, and reached by the root with no
     * thread running, is done by that first call, before any thread
     * exists; later calls find the flag set and skip it, in the root and
     * in the threads alike. */
    uint8_t *first_only = calloc(p->nevents ? p->nevents : 1, 1);
    RAVEL__CHECK(first_only != NULL);
    for (uint32_t i = 0; i < rs->naccs; i++)
        if (rs->accs[i].once && rs->accs[i].early)
            first_only[rs->accs[i].ev] = 1;

    struct rvec all = {NULL, 0, 0};
    for (uint32_t i = 0; i < rs->naccs; i++) {
        const struct ravel__lint_acc *a = &rs->accs[i];
        if (a->once && first_only[a->ev])
            continue;
        struct racc r;
        memset(&r, 0, sizeof r);
        r.ap = ravel__lint_ap_subst(p, a->ap, rargs, np);
        if (!candidate(p, r.ap) || (p->events[a->ev].flags & RAVEL__EVF_ATOMIC))
            continue;
        r.ev = a->ev;
        r.write = a->write;
        r.held = *ravel__lint_ls_get(cx, a->held);
        r.live = *ravel__lint_ts_get(cx, a->live);
        r.created = *ravel__lint_ts_get(cx, a->created);
        r.partner = NONE;
        push(&all, &r);
    }
    /* The contexts: the root's threads, the threads they create, ... */
    struct ctxs *T = calloc(1, sizeof *T);
    RAVEL__CHECK(T != NULL);
    T->v[0].sum = rs;
    T->v[0].start = root;
    T->n = 1;
    for (uint32_t c = 0; c < T->n; c++) {
        const struct tctx *pc = &T->v[c];
        if (pc->depth >= CTX_DEPTH)
            continue;
        for (uint32_t k = 0; k < pc->sum->ninsts && T->n < CTX_MAX; k++) {
            const struct ravel__lint_inst *in = &pc->sum->insts[k];
            if (in->start == NONE)
                continue;
            /* A thread that (transitively) starts itself: once is enough. */
            bool again = false;
            for (uint32_t u = c; u != 0 && !again; u = T->v[u].parent)
                again = T->v[u].start == in->start;
            if (again)
                continue;
            struct tctx *nc = &T->v[T->n];
            nc->parent = c;
            nc->inst = k;
            nc->start = in->start;
            nc->depth = pc->depth + 1;
            nc->multi = in->multi || (c != 0 && pc->multi);
            nc->leaked = c != 0 && ravel__lint_ts_has(&pc->sum->live_out, k);
            nc->sum = &cx->sum[in->start];
            if (in->arg == NONE)
                nc->arg = NONE;
            else if (c == 0)
                nc->arg = ravel__lint_val_subst(p, in->arg, rargs, np);
            else
                nc->arg = ravel__lint_val_subst(p, in->arg, &pc->arg, 1);
            T->n++;
        }
    }
    for (uint32_t c = 1; c < T->n; c++) {
        const struct ravel__lint_summary *ss = T->v[c].sum;
        uint32_t targ = T->v[c].arg;
        bool own = per_instance(cx, targ);
        for (uint32_t i = 0; i < ss->naccs; i++) {
            const struct ravel__lint_acc *a = &ss->accs[i];
            if (a->once && first_only[a->ev])
                continue;
            enum ravel__lint_ap_kind rk = ravel__lint_ap_rootkind(p, a->ap);
            /* The thread's own stack and heap blocks are its own. */
            if ((rk == RAVEL__AP_LOCAL || rk == RAVEL__AP_ALLOC || rk == RAVEL__AP_VALUE) &&
                !ravel__lint_ap_published(p, a->ap))
                continue;
            struct racc r;
            memset(&r, 0, sizeof r);
            r.ap = ravel__lint_ap_subst(p, a->ap, &targ, 1);
            if (!candidate(p, r.ap))
                continue;
            r.ev = a->ev;
            r.write = a->write;
            r.priv = own && p->aps[a->ap].has_param;
            r.ctx = c;
            /* Locks reached through the thread's argument (`&pool->lock`)
             * in the root's terms, like the accesses. */
            memset(&r.held, 0, sizeof r.held);
            const struct ravel__lint_lockset *ah = ravel__lint_ls_get(cx, a->held);
            for (uint32_t k = 0; k < ah->n; k++) {
                uint32_t mode = ah->v[k] & RAVEL__LINT_LS_SHARED;
                uint32_t l = ravel__lint_ap_subst(p, ah->v[k] & ~RAVEL__LINT_LS_SHARED,
                                                  &targ, 1);
                if (l)
                    r.held.v[r.held.n++] = l | mode;
            }
            r.live = *ravel__lint_ts_get(cx, a->live);
            r.created = *ravel__lint_ts_get(cx, a->created);
            r.partner = NONE;
            push(&all, &r);
        }
    }
    free(rargs);
    free(first_only);

    /* Compare accesses that share a root object; sorting by root, then
     * path, brings equal paths together inside a group, and may-alias
     * pairs share their root. */
    sort_prog = p;
    if (all.n > 1)
        qsort(all.v, all.n, sizeof *all.v, cmp_root);
    uint32_t *idx = malloc(((size_t)all.n + 1) * sizeof *idx), nidx = 0;
    RAVEL__CHECK(idx != NULL);
    for (uint32_t i = 0; i < all.n;) {
        uint32_t r0 = p->aps[all.v[i].ap].root;
        uint32_t j = i;
        while (j < all.n && p->aps[all.v[j].ap].root == r0)
            j++;
        uint32_t gidx = nidx; /* the group's indexed accesses, ascending */
        for (uint32_t x = i; x < j; x++)
            if (p->aps[all.v[x].ap].has_index)
                idx[nidx++] = x;
        uint32_t kx = gidx; /* the first of them past x */
        for (uint32_t x = i; x < j; x++) {
            /* A write made by a thread started several times races with
             * itself (`g = 1` in a thread created in a loop). */
            struct racc *s0 = &all.v[x];
            if (s0->write && concurrent(T, s0, s0) &&
                !ravel__lint_ls_excludes(&s0->held, &s0->held) &&
                (s0->partner == NONE || s0->partner_same < RAVEL__SAME_YES)) {
                s0->partner = x;
                s0->partner_same = RAVEL__SAME_YES;
            }
            /* Paths without an index step alias only themselves (right
             * after x) and paths with one (`a[2]` and `a[i]`): past its
             * own run, x meets only the group's indexed accesses. */
            bool indexed = p->aps[s0->ap].has_index;
            uint32_t run = x + 1;
            while (run < j && all.v[run].ap == s0->ap)
                run++;
            while (kx < nidx && idx[kx] <= x)
                kx++;
            uint32_t k = kx;
            for (uint32_t y = x + 1; y < j; y++) {
                if (!indexed && y >= run) {
                    if (k == nidx)
                        break;
                    y = idx[k++]; /* ascending, all past run - 1 */
                }
                struct racc *a = &all.v[x], *b = &all.v[y];
                if (!a->write && !b->write)
                    continue;
                bool overlap = false;
                enum ravel__lint_same same =
                    a->ap == b->ap ? RAVEL__SAME_YES
                    : ravel__lint_ap_may_alias(p, a->ap, b->ap) ? RAVEL__SAME_MIGHT
                    : (overlap = ravel__lint_ap_may_overlap(p, a->ap, b->ap)) ? RAVEL__SAME_MIGHT
                                                                               : RAVEL__SAME_NO;
                if (same == RAVEL__SAME_NO || !concurrent(T, a, b) ||
                    ravel__lint_ls_excludes(&a->held, &b->held) ||
                    (overlap && element_locks(p, &a->held, &b->held)))
                    continue;
                if (a->partner == NONE || (same > a->partner_same)) {
                    a->partner = y;
                    a->partner_same = (uint8_t)same;
                }
                if (b->partner == NONE || (same > b->partner_same)) {
                    b->partner = x;
                    b->partner_same = (uint8_t)same;
                }
            }
        }
        i = j;
    }
    /* One finding per place: the read and the write of x++ are one race
     * to whoever reads the diagnostics, so writes are reported first and
     * a place already reported is not reported again. */
    struct ravel__lint_event *places = malloc(((size_t)all.n + 1) * sizeof *places);
    RAVEL__CHECK(places != NULL);
    uint32_t nplaces = 0;
    for (int pass = 1; pass >= 0; pass--) {
        for (uint32_t i = 0; i < all.n; i++) {
            const struct racc *a = &all.v[i];
            if (a->partner == NONE || a->write != pass)
                continue;
            const struct ravel__lint_event *ea = &p->events[a->ev];
            bool seen = false;
            for (uint32_t k = 0; k < nplaces && !seen; k++)
                seen = places[k].file == ea->file && places[k].line == ea->line &&
                       places[k].col == ea->col;
            if (seen)
                continue;
            places[nplaces++] = *ea;
            report(cx, root, T, a, &all.v[a->partner]);
        }
    }
    free(places);
    free(idx);
    free(all.v);
    free(T);
}

void ravel__lint_lockset_roots(struct ravel__lint_ctx *cx)
{
    if (!cx->lockset)
        return;
    const struct ravel__lint_prog *p = cx->prog;
    uint32_t nf = p->nfuncs;
    uint8_t *called = calloc(nf ? nf : 1, 1);
    uint8_t *start = calloc(nf ? nf : 1, 1);
    RAVEL__CHECK(called && start);
    for (uint32_t e = 0; e < p->nevents; e++) {
        const struct ravel__lint_event *ev = &p->events[e];
        if (ev->kind == RAVEL__EV_CALL && ev->callee != NONE &&
            p->syms[ev->callee].def != NONE)
            called[p->syms[ev->callee].def] = 1;
    }
    for (uint32_t f = 0; f < nf; f++)
        for (uint32_t k = 0; k < cx->sum[f].ninsts; k++)
            if (cx->sum[f].insts[k].start != NONE)
                start[cx->sum[f].insts[k].start] = 1;
    for (uint32_t f = 0; f < nf; f++)
        if (!called[f] && !start[f] && cx->sum[f].ninsts > 0)
            analyze_root(cx, f);
    free(called);
    free(start);
}
