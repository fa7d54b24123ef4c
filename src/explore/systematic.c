/*
 * systematic.c - stateless systematic exploration: bounded depth-first
 * search and dynamic partial-order reduction (DPOR).
 *
 * The program is re-executed from the start for every execution. The
 * search tree is a stack with one node per choice point of the current
 * execution (a scheduling point, or a data choice):
 *
 *     node 0        node 1        node 2 ...            (shared memory)
 *     enabled {1}   enabled {1,   enabled {1.1, 1.2}
 *     chose 1         1.1}        chose 1.2
 *                   chose 1.1     backtrack {1.1,1.2} done {1.2}
 *
 * An execution first replays the choices of nodes[0..prefix), then makes
 * default choices (the running thread if it can go on: fewest
 * preemptions first), adding nodes. When it ends, the deepest node with
 * something left in its backtrack set gets its next choice and becomes the
 * end of the next prefix.
 *
 * DFS puts every enabled thread in a new node's backtrack set (within the
 * preemption or delay bound, which grows 0, 1, 2 ... when iterating).
 * DPOR puts only the first, then adds alternatives where the execution
 * shows they matter: Source-DPOR (Abdulla, Aronis, Jonsson, Sagonas, POPL
 * 2014) with sleep sets. For each race e < e' in the finished execution,
 * with v the events after e that do not happen after it, then e', some
 * thread that can start v is added at the node where e was chosen, unless
 * one already is. Sleep sets keep equivalent executions from being
 * explored twice; an execution that reaches a point where every enabled
 * thread sleeps is abandoned ("blocked"). Every complete DPOR execution is
 * a distinct Mazurkiewicz trace, and every trace is explored.
 *
 * Data choices (ravel_choose, which waiter a signal wakes) are nodes whose
 * every value is explored.
 *
 * The tree lives in memory shared with the supervisor, so that after a
 * crash a new executor can continue the search where it stopped.
 */
#include "strategy.h"

#include "depend.h"
#include "traces.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TREE_MAGIC 0x7261766c74726565ULL

struct node {
    uint64_t enabled;   /* thread node: enabled threads */
    uint64_t backtrack; /* thread node: threads to explore here */
    uint64_t done;      /* thread node: threads explored (or being) */
    uint64_t sleep;     /* thread node: sleep set on arrival */
    uint32_t chosen;    /* the thread or value chosen this execution */
    uint32_t nvalues;   /* value node: number of values; thread node: 0 */
    uint32_t current;   /* thread that reached the scheduling point */
    uint32_t step;      /* thread node: index of the event chosen here */
    uint32_t cost;      /* preemptions or delays before this choice */
};

struct tree {
    uint64_t magic;
    uint64_t executions;
    uint32_t depth;  /* nodes of the current execution */
    uint32_t prefix; /* the next execution replays nodes[0..prefix) */
    uint32_t cap;
    int32_t bound;   /* current bound of an iterated bounded search */
    uint8_t exhausted;
    struct node nodes[];
};

enum bound_kind { BOUND_NONE, BOUND_PREEMPTION, BOUND_DELAY };

struct sys {
    struct ravel__strategy base;
    bool dpor;
    enum bound_kind bk;
    int64_t max_bound;
    struct tree *t;
    uint32_t cursor;     /* next node of this execution */
    uint32_t cost;       /* preemptions/delays so far this execution */
    uint64_t next_sleep; /* sleep set for the next thread node */
    uint32_t *event_node; /* event index -> node index (this execution) */
    uint32_t event_cap;
    struct ravel__hb hb;
    struct ravel__traces traces;
    uint64_t complete_execs;
    bool fingerprints; /* DPOR: also count traces by fingerprint */
    bool debug;        /* RAVEL_DEBUG_DPOR: print decisions */
};

size_t ravel__strategy_shared_size(uint64_t max_steps)
{
    uint64_t nodes = max_steps + RAVEL__MAX_VCHOICES + 16;
    return sizeof(struct tree) + nodes * sizeof(struct node);
}

static inline uint64_t bit(uint32_t t)
{
    return 1ULL << t;
}

static uint32_t lowest(uint64_t m)
{
    return (uint32_t)__builtin_ctzll(m);
}

/* Cost of choosing p at a point reached by `current` with enabled `en`. */
static uint32_t choice_cost(const struct sys *s, uint32_t current, uint32_t p,
                            uint64_t en)
{
    if (s->bk == BOUND_PREEMPTION)
        return p != current && current < 64 && (en & bit(current)) ? 1 : 0;
    if (s->bk == BOUND_DELAY) {
        /* Round-robin from the current thread: every enabled thread passed
         * over on the way to p is one delay. */
        uint32_t d = 0;
        uint32_t start = current < 64 ? current : 0;
        for (uint32_t k = 0; k < 64; k++) {
            uint32_t q = (start + k) % 64;
            if (!(en & bit(q)))
                continue;
            if (q == p)
                return d;
            d++;
        }
        return d;
    }
    return 0;
}

/* The default choice among `avail`: the current thread when it can go on,
 * otherwise the next one round-robin (zero cost for both bounds). */
static uint32_t default_choice(uint32_t current, uint64_t avail)
{
    if (current < 64 && (avail & bit(current)))
        return current;
    uint32_t start = current < 64 ? current : 0;
    for (uint32_t k = 1; k <= 64; k++) {
        uint32_t q = (start + k) % 64;
        if (avail & bit(q))
            return q;
    }
    return lowest(avail);
}

static uint32_t index_of(const uint32_t *enabled, uint32_t n, uint32_t t)
{
    for (uint32_t i = 0; i < n; i++)
        if (enabled[i] == t)
            return i;
    return RAVEL__NONE;
}

static uint32_t diverged(struct sys *s, const struct ravel__exec *x)
{
    snprintf(s->base.error, sizeof s->base.error,
             "the program behaved differently when re-executed (step %u): it "
             "depends on something ravel does not control (time, input, "
             "addresses), so it cannot be explored systematically",
             x->nevents + 1);
    return RAVEL__CHOICE_ERROR;
}

static void remember_event(struct sys *s, uint32_t event, uint32_t node)
{
    if (event >= s->event_cap) {
        uint32_t ncap = event + event / 2 + 1024;
        uint32_t *ne = realloc(s->event_node, ncap * sizeof *ne);
        RAVEL__CHECK(ne != NULL);
        s->event_node = ne;
        s->event_cap = ncap;
    }
    s->event_node[event] = node;
}

static uint32_t sys_choose_thread(struct ravel__strategy *base,
                                  const struct ravel__exec *x,
                                  const uint32_t *enabled, uint32_t n,
                                  uint32_t current)
{
    struct sys *s = (struct sys *)base;
    struct tree *t = s->t;
    if (x->nthreads > 64) {
        snprintf(base->error, sizeof base->error,
                 "the systematic strategies handle executions of up to 64 "
                 "threads; this one creates more (use --strategy random or "
                 "pct)");
        return RAVEL__CHOICE_ERROR;
    }
    uint64_t en = 0;
    for (uint32_t i = 0; i < n; i++)
        en |= bit(enabled[i]);
    uint32_t c = s->cursor;
    if (c >= t->cap) {
        snprintf(base->error, sizeof base->error,
                 "the search tree is full (more than %u choice points)",
                 t->cap);
        return RAVEL__CHOICE_ERROR;
    }
    struct node *nd = &t->nodes[c];
    uint32_t p;
    if (c < t->prefix) {
        if (nd->nvalues != 0 || nd->enabled != en)
            return diverged(s, x);
        p = nd->chosen;
    } else {
        uint64_t avail = en & ~s->next_sleep;
        if (!avail)
            return RAVEL__CHOICE_BLOCKED;
        nd->enabled = en;
        nd->sleep = s->next_sleep;
        nd->current = current;
        nd->nvalues = 0;
        nd->cost = s->cost;
        p = default_choice(current, avail);
        if (s->dpor) {
            nd->backtrack = bit(p);
        } else if (s->bk != BOUND_NONE) {
            nd->backtrack = 0;
            for (uint64_t m = avail; m; m &= m - 1) {
                uint32_t q = lowest(m);
                if ((int64_t)(s->cost + choice_cost(s, current, q, en)) <=
                    t->bound)
                    nd->backtrack |= bit(q);
            }
            nd->backtrack |= bit(p);
        } else {
            nd->backtrack = avail;
        }
        nd->done = bit(p);
        nd->chosen = p;
        t->depth = c + 1;
    }
    s->cost += choice_cost(s, current, p, en);
    if (s->dpor) {
        /* Threads asleep after this step: those asleep here or explored
         * here before, whose next operation does not depend on p's. */
        uint64_t z = (nd->sleep | nd->done) & ~bit(p) & ~((uint64_t)0);
        uint64_t next = 0;
        if (z) {
            struct ravel__access ap, aq;
            ravel__op_access(&x->threads[p].pending, p, &ap);
            for (uint64_t m = z; m; m &= m - 1) {
                uint32_t q = lowest(m);
                if (q >= x->nthreads || x->threads[q].state != RAVEL__T_LIVE)
                    continue;
                ravel__op_access(&x->threads[q].pending, q, &aq);
                if (!ravel__access_dependent(&ap, &aq))
                    next |= bit(q);
            }
        }
        s->next_sleep = next;
    }
    nd->step = x->nevents;
    s->cursor = c + 1;
    uint32_t i = index_of(enabled, n, p);
    return i == RAVEL__NONE ? diverged(s, x) : i;
}

static uint32_t sys_choose_value(struct ravel__strategy *base,
                                 const struct ravel__exec *x, uint32_t n)
{
    struct sys *s = (struct sys *)base;
    struct tree *t = s->t;
    uint32_t c = s->cursor;
    if (c >= t->cap) {
        snprintf(base->error, sizeof base->error,
                 "the search tree is full (more than %u choice points)",
                 t->cap);
        return RAVEL__CHOICE_ERROR;
    }
    struct node *nd = &t->nodes[c];
    uint32_t v;
    if (c < t->prefix) {
        if (nd->nvalues != n)
            return diverged(s, x);
        v = nd->chosen;
    } else {
        memset(nd, 0, sizeof *nd);
        nd->nvalues = n;
        nd->chosen = 0;
        nd->step = x->nevents;
        t->depth = c + 1;
        v = 0;
    }
    s->cursor = c + 1;
    return v;
}

static void sys_begin(struct ravel__strategy *base, uint64_t number)
{
    struct sys *s = (struct sys *)base;
    s->cursor = 0;
    s->cost = 0;
    s->next_sleep = 0;
}

/* ---- DPOR: races add alternatives --------------------------------------- */

struct race_ctx {
    struct sys *s;
    const struct ravel__exec *x;
};

static void on_race(void *ctx, uint32_t e1, uint32_t e2)
{
    struct race_ctx *rc = ctx;
    struct sys *s = rc->s;
    const struct ravel__exec *x = rc->x;
    if (e1 >= s->event_cap)
        return;
    /* Races that no schedule can reverse, because e1 is what enabled e2:
     * a join and the finish of the thread it waited for; a wake and the
     * signal that chose that waiter. */
    const struct ravel__event *a = &x->events[e1], *b = &x->events[e2];
    if (a->kind == RAVEL__OP_FINISH && b->kind == RAVEL__OP_JOIN &&
        b->obj == a->thread)
        return;
    if (a->kind == RAVEL__OP_COND_SIGNAL && b->kind == RAVEL__OP_COND_WAKE &&
        a->aux == b->thread && !(b->flags & RAVEL__EV_TIMEDOUT))
        return;
    uint32_t ni = s->event_node[e1];
    if (ni >= s->t->depth)
        return;
    struct node *nd = &s->t->nodes[ni];
    /* v: events after e1 that do not happen after it, then e2. For each
     * thread, its first event in v; the initials are the threads whose
     * first event has no other event of v before it in happens-before. */
    uint32_t first[64];
    uint64_t in_v = 0;
    for (uint32_t e = e1 + 1; e <= e2; e++) {
        uint32_t th = x->events[e].thread;
        if (th >= 64 || (in_v & bit(th)))
            continue;
        if (e != e2 && ravel__hb_before(&s->hb, x, e1, e))
            continue;
        in_v |= bit(th);
        first[th] = e;
    }
    /* If e2 is the first event of its thread in v, it was that thread's
     * pending operation where e1 was chosen: it must have been enabled
     * there, or e1 is what enabled it (a join waits for the finish, a
     * wait for the signal) and the race cannot be reversed. */
    uint32_t th2 = x->events[e2].thread;
    if (th2 < 64 && first[th2] == e2 && !(nd->enabled & bit(th2)))
        return;
    uint64_t initials = 0;
    for (uint64_t m = in_v; m; m &= m - 1) {
        uint32_t u = lowest(m);
        bool initial = true;
        for (uint64_t k = in_v & ~bit(u); k && initial; k &= k - 1) {
            uint32_t w = lowest(k);
            if (first[w] < first[u] &&
                ravel__hb_before(&s->hb, x, first[w], first[u]))
                initial = false;
        }
        if (initial)
            initials |= bit(u);
    }
    if (initials & nd->backtrack)
        return; /* already an alternative that starts v */
    uint64_t cand = initials & nd->enabled;
    if (!cand)
        return; /* no thread of v could go first there: not reversible */
    if (!(cand & ~nd->sleep))
        return; /* explored already, equivalently (sleep set) */
    cand &= ~nd->sleep;
    nd->backtrack |= (cand & bit(th2)) ? bit(th2) : bit(lowest(cand));
    if (s->debug)
        fprintf(stderr, "race %u(%s) < %u(%s): node %u backtrack %llx\n", e1,
                x->threads[x->events[e1].thread].name, e2,
                x->threads[th2].name, ni, (unsigned long long)nd->backtrack);
}

/* ---- ending an execution: the next prefix --------------------------------- */

static bool next_prefix(struct sys *s)
{
    struct tree *t = s->t;
    for (uint32_t i = t->depth; i-- > 0;) {
        struct node *nd = &t->nodes[i];
        if (nd->nvalues) {
            if (nd->chosen + 1 < nd->nvalues) {
                nd->chosen++;
                t->prefix = i + 1;
                t->depth = i + 1;
                return true;
            }
            continue;
        }
        uint64_t cand = nd->backtrack & ~nd->done & ~nd->sleep & nd->enabled;
        if (s->bk != BOUND_NONE) {
            /* Bounded: only alternatives within the current bound. */
            for (uint64_t m = cand; m; m &= m - 1) {
                uint32_t q = lowest(m);
                if ((int64_t)(nd->cost + choice_cost(s, nd->current, q,
                                                     nd->enabled)) >
                    t->bound)
                    cand &= ~bit(q);
            }
        }
        if (cand) {
            uint32_t p = lowest(cand);
            nd->done |= bit(p);
            nd->chosen = p;
            t->prefix = i + 1;
            t->depth = i + 1;
            return true;
        }
    }
    return false;
}

static bool sys_end(struct ravel__strategy *base, const struct ravel__exec *x,
                    bool blocked)
{
    struct sys *s = (struct sys *)base;
    struct tree *t = s->t;
    if (s->debug) {
        fprintf(stderr, "execution %llu%s:", (unsigned long long)t->executions,
                blocked ? " BLOCKED" : "");
        for (uint32_t i = 0; i < t->depth; i++)
            fprintf(stderr, " %u:%s%s", i, x->threads[t->nodes[i].chosen].name,
                    t->nodes[i].sleep ? "z" : "");
        fprintf(stderr, "\n");
    }
    t->executions++;
    if (blocked)
        base->stats->blocked++;
    /* Events that happened got here through choices: map them back (an
     * event inside an atomic section maps to the choice that began it). */
    uint32_t last_node = RAVEL__NONE, ni = 0;
    for (uint32_t e = 0; e < x->nevents; e++) {
        while (ni < t->depth && (t->nodes[ni].nvalues ||
                                 t->nodes[ni].step < e)) {
            if (!t->nodes[ni].nvalues && t->nodes[ni].step <= e)
                last_node = ni;
            ni++;
        }
        if (ni < t->depth && !t->nodes[ni].nvalues && t->nodes[ni].step == e)
            last_node = ni;
        remember_event(s, e, last_node == RAVEL__NONE ? t->depth : last_node);
    }
    if (s->dpor) {
        struct race_ctx rc = {s, x};
        /* exit() ends every other thread: a thread that could still have
         * run there must get its turn before the exit. */
        if (x->ended == RAVEL__END_EXIT && x->nevents &&
            x->events[x->nevents - 1].kind == RAVEL__OP_EXIT) {
            uint32_t en = s->event_node[x->nevents - 1];
            if (en < t->depth) {
                struct node *nd = &t->nodes[en];
                uint64_t others = nd->enabled & ~nd->sleep &
                                  ~bit(x->events[x->nevents - 1].thread);
                if (others && !(nd->backtrack & others))
                    nd->backtrack |= bit(lowest(others));
            }
        }
        if (ravel__hb_compute(&s->hb, x, on_race, &rc) == 0 && !blocked &&
            s->fingerprints)
            ravel__traces_add_fingerprint(&s->traces,
                                          ravel__hb_fingerprint(&s->hb, x));
        if (!blocked)
            s->complete_execs++;
    } else if (!blocked) {
        ravel__traces_add(&s->traces, x);
        s->complete_execs++;
    }
    /* Every complete DPOR execution is a distinct trace; fingerprints,
     * when asked for, check that. */
    base->stats->traces =
        s->dpor && !s->fingerprints ? s->complete_execs : s->traces.n;
    if (next_prefix(s))
        return true;
    /* This bound is exhausted: the next one, if any. */
    if (s->bk != BOUND_NONE && t->bound < s->max_bound) {
        t->bound++;
        base->stats->bound = t->bound;
        t->prefix = 0;
        t->depth = 0;
        return true;
    }
    t->exhausted = 1;
    base->exhausted = true;
    base->stats->complete = 1;
    return false;
}

static void sys_finish(struct ravel__strategy *base)
{
    struct sys *s = (struct sys *)base;
    struct ravel__explore_stats *st = base->stats;
    const char *what = s->dpor ? "DPOR" : "DFS";
    if (s->t->exhausted && s->bk == BOUND_NONE)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "exhausted: all %" PRIu64 " traces%s", st->traces,
                 s->dpor ? "" : " (every interleaving tried)");
    else if (s->t->exhausted)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s bound %d exhausted: all %" PRIu64
                 " traces with at most %d %s",
                 s->bk == BOUND_PREEMPTION ? "preemption" : "delay",
                 s->t->bound, st->traces, s->t->bound,
                 s->bk == BOUND_PREEMPTION ? "preemptions" : "delays");
    else if (s->bk != BOUND_NONE && s->t->bound > 0)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s bound %d exhausted (bound %d not finished): %" PRIu64
                 " traces",
                 s->bk == BOUND_PREEMPTION ? "preemption" : "delay",
                 s->t->bound - 1, s->t->bound, st->traces);
    else
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s stopped before exhausting the space: %" PRIu64
                 " traces explored",
                 what, st->traces);
    st->complete = s->t->exhausted;
}

static void sys_destroy(struct ravel__strategy *base)
{
    struct sys *s = (struct sys *)base;
    ravel__hb_free(&s->hb);
    ravel__traces_free(&s->traces);
    free(s->event_node);
    free(s);
}

static const struct ravel__strategy_ops dfs_ops = {
    "dfs",   sys_begin,  sys_choose_thread, sys_choose_value,
    sys_end, sys_finish, sys_destroy,
};

static const struct ravel__strategy_ops dpor_ops = {
    "dpor",  sys_begin,  sys_choose_thread, sys_choose_value,
    sys_end, sys_finish, sys_destroy,
};

struct ravel__strategy *ravel__systematic_new(
    const struct ravel__strategy_config *c, bool dpor)
{
    if (!c->shared || c->shared_size < sizeof(struct tree) + sizeof(struct node))
        return NULL;
    struct sys *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->base.ops = dpor ? &dpor_ops : &dfs_ops;
    s->base.stats = c->stats;
    s->dpor = dpor;
    s->fingerprints = c->fingerprints;
    s->debug = getenv("RAVEL_DEBUG_DPOR") != NULL;
    s->t = c->shared;
    if (c->preemption_bound >= 0) {
        s->bk = BOUND_PREEMPTION;
        s->max_bound = c->preemption_bound;
    } else if (c->delay_bound >= 0) {
        s->bk = BOUND_DELAY;
        s->max_bound = c->delay_bound;
    }
    if (!c->resume || s->t->magic != TREE_MAGIC) {
        memset(s->t, 0, sizeof *s->t);
        s->t->magic = TREE_MAGIC;
        s->t->cap = (uint32_t)((c->shared_size - sizeof(struct tree)) /
                               sizeof(struct node));
        s->t->bound = s->bk == BOUND_NONE ? -1 : 0;
    }
    c->stats->bound = s->t->bound;
    return &s->base;
}
