/*
 * systematic.c - stateless systematic exploration: bounded depth-first
 * search and dynamic partial-order reduction (DPOR).
 *
 * The program is re-executed from the start for every execution. The
 * search tree (tree.h) holds one node per choice point; each lane (an
 * executor process; one unless --jobs) has a path through it. An
 * execution first replays the choices of path[0..prefix), then makes
 * default choices (the running thread if it can go on: fewest preemptions
 * first), adding nodes. When it ends, the lane records what must still be
 * explored and takes the next branch (tree.h says which).
 *
 * What must still be explored depends on the search:
 *
 *   dfs     every enabled thread at every node (within the preemption or
 *           delay bound, which grows 0, 1, 2 ... when iterating);
 *   dpor    optimal DPOR (Abdulla, Aronis, Jonsson, Sagonas, POPL 2014):
 *           for each race of the finished execution, the wakeup sequence
 *           that reverses it goes into the wakeup tree of the node where
 *           the race's first step was chosen (wakeup.h), unless sleep sets
 *           show it redundant. Each complete execution is a distinct
 *           Mazurkiewicz trace, every trace is explored, and no execution
 *           is abandoned as redundant, except where steps are treated
 *           conservatively (atomic sections);
 *   source  source-set DPOR (same paper): for each race, one thread that
 *           can start the reversal is added to the node's backtrack set.
 *           Cheaper per race, but some executions end up redundant and are
 *           abandoned ("blocked"). Used with a bound, where wakeup trees
 *           would replay sequences that exceed it.
 *
 * Sleep sets: after a thread's branch at a node is taken, executions
 * through later branches of that node keep it asleep until something
 * dependent with its next step runs; an execution in which every enabled
 * thread sleeps is abandoned ("blocked").
 *
 * Data choices (ravel_choose, which waiter a signal wakes) are nodes whose
 * every value is explored.
 *
 * Races whose later step was replayed were handled by the execution that
 * first ran it, so only races ending in the new part of an execution are
 * analysed.
 */
#include "strategy.h"

#include "depend.h"
#include "../common/hash.h"
#include "tree.h"
#include "wakeup.h"

#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum mode { MODE_DFS, MODE_SOURCE, MODE_OPTIMAL };
enum bound_kind { BOUND_NONE, BOUND_PREEMPTION, BOUND_DELAY };

struct race {
    uint32_t e1, e2;
};

struct sys {
    struct ravel__strategy base;
    bool diverged_now; /* this execution left its prefix (diverged()) */
    enum mode mode;
    /* The mode of the work units' run (units): a split always runs with
     * source sets (its alternatives are threads, split_expand), and the
     * units may then each be explored with wakeup trees. */
    enum mode run_mode;
    enum bound_kind bk;
    int64_t max_bound;
    struct ravel__tree *t;
    uint32_t lane;
    /* This execution. */
    uint32_t cursor;     /* next path entry */
    uint32_t cost;       /* preemptions/delays so far */
    uint64_t next_sleep; /* sleep set for the next node */
    uint64_t next_read;  /* its threads known to do a failing CAS */
    uint32_t settled;    /* next_sleep accounts for events before this
                            (NONE: for those of the next node too) */
    uint32_t record_node, record_event; /* a branch's first step, whose
                            outcome the node records (done_read) */
    uint32_t follow;     /* wakeup steps to replay at the next thread node */
    uint32_t follow_value; /* value to take first at the next value node */
    uint32_t follow_vmore; /* the values after it, for the value nodes of
                              the same block (ravel__wnode.vmore) */
    uint32_t follow_valts; /* the followed thread's steps for its other
                              values, for that value node (tnode.wut) */
    bool asleep;         /* this execution was abandoned here because
                            every enabled thread slept (not by the
                            program: a false ravel_assume, say) */
    uint64_t sleepers;   /* if so, the threads that slept there */
    /* Scratch for analysing a finished execution. */
    uint32_t *ev_pidx;   /* event -> path entry of its block's node */
    uint32_t *blk_first, *blk_last, *ev_value, *thr_ev;
    uint32_t *ev_vidx, *ev_vn; /* a block's data choices (ravel__wctx) */
    uint32_t thr_off[RAVEL__HB_THREADS + 1];
    uint32_t ev_cap;
    uint32_t map_n;      /* events map_events last mapped (0: none, or
                            the scratch was reallocated since) */
    uint32_t first_multi; /* of those, the first that is not the first of
                             its block (RAVEL__NONE: none) */
    uint32_t *ev_waits;  /* descriptor waits (is_wait) before each event,
                            of those mapped */
    uint32_t nwaits;     /* descriptor waits among them (is_wait) */
    struct race *races;
    uint32_t nraces, races_cap;
    uint32_t race_from; /* analyse races ending at or after this event */
    uint32_t hb_keep;   /* the clocks of events before this one, computed
                           for the previous execution, still hold */
    uint32_t resume_upto; /* the next execution is the last one up to
                             this choice point (take_own; RAVEL__NONE: not
                             known to be): a snapshot taken before a
                             choice up to it holds (sys_here) */
    bool hb_valid;      /* s->hb holds the last execution's analysis */
    struct ravel__hb hb;
    struct ravel__wseq v;
    bool multi;        /* this execution has blocks of several events */
    bool fingerprints; /* also count traces by fingerprint */
    bool rc11; /* --memory-model rc11: "traces" are execution graphs */
    bool lanes_fp;     /* ... only because there are several lanes */
    uint32_t shard, shards; /* --shard (shards 0: not sharded) */
    bool units;             /* explore in work units (--shard, --checkpoint) */
    bool xlanes; /* optimal DPOR on several lanes (steal_unit) */
    /* Optimal DPOR in a work unit: the unit's entries (the copies of the
     * nodes down to its branch; 0 outside a unit), and for each path
     * entry the threads asleep or taken before there whose branches
     * other units explore (cover_by_initial). */
    uint32_t unit_top;
    uint64_t *xsleep;
    uint32_t xsleep_cap;
    uint32_t xsleep_valid; /* entries of xsleep still right */
    uint32_t since_publish; /* executions since publish_stats */
    uint32_t units_per_shard;
    bool fp_full;
    uint64_t wut_misses; /* replayed wakeup steps that were not possible */
    bool debug;          /* RAVEL_DEBUG_DPOR: log decisions, to stderr or
                            (when it names a file) to FILE.laneN */
    char debug_path[256];
};

/* A line (or part of one) of the RAVEL_DEBUG_DPOR log, a maintainer's
 * aid. The file is opened for each write: the executor closes the
 * descriptors a program leaves open between executions. */
__attribute__((format(printf, 2, 3))) static void dbg(struct sys *s,
                                                      const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    if ((size_t)n >= sizeof buf)
        n = sizeof buf - 1;
    int fd = s->debug_path[0]
                 ? open(s->debug_path, O_WRONLY | O_CREAT | O_APPEND, 0644)
                 : 2;
    if (fd < 0)
        return;
    (void)!write(fd, buf, (size_t)n);
    if (fd != 2)
        close(fd);
}

size_t ravel__strategy_shared_size(uint64_t max_steps, uint32_t lanes)
{
    return ravel__tree_size(max_steps, lanes);
}

static inline uint64_t bit(uint32_t t)
{
    return 1ULL << t;
}

static uint32_t lowest(uint64_t m)
{
    return (uint32_t)__builtin_ctzll(m);
}

static struct ravel__lane *my_lane(struct sys *s)
{
    return ravel__tree_lane(s->t, s->lane);
}

static struct ravel__pathent *my_path(struct sys *s)
{
    return ravel__tree_path(s->t, s->lane);
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

static bool within_bound(const struct sys *s, const struct ravel__tnode *nd,
                         uint32_t p)
{
    return s->bk == BOUND_NONE ||
           (int64_t)(nd->cost + choice_cost(s, nd->current, p, nd->enabled)) <=
               s->t->bound;
}

/* The default choice among `avail`: the current thread when it can go on,
 * otherwise the next one round-robin (zero cost for both bounds). */
static uint32_t default_choice(uint32_t current, uint64_t avail)
{
    if (current < 64 && (avail & bit(current)))
        return current;
    uint32_t start = current < 64 ? current : 0;
    /* The first thread after start, wrapping round: the lowest one above
     * it, else the lowest one (start itself last). */
    uint64_t above = start < 63 ? avail & (~0ULL << (start + 1)) : 0;
    if (above)
        return lowest(above);
    return lowest(avail);
}

static uint32_t index_of(const uint32_t *enabled, uint32_t n, uint32_t t)
{
    for (uint32_t i = 0; i < n; i++)
        if (enabled[i] == t)
            return i;
    return RAVEL__NONE;
}

/*
 * The program did not repeat the prefix recorded for this branch: it
 * depends on something ravel does not control (input, addresses ...).
 * That execution ends (blocked, with nothing learnt from it: its events
 * are not the tree's), the search goes on with the next branch, and the
 * summary says the search is no longer exhaustive (sys_finish).
 */
static uint32_t diverged(struct sys *s, const struct ravel__exec *x)
{
    s->diverged_now = true;
    if (s->debug)
        dbg(s, "diverged at cursor %u event %u\n", s->cursor, x->nevents);
    if (atomic_fetch_add(&s->t->diverged, 1) == 0)
        s->t->diverged_step = x->nevents + 1;
    return RAVEL__CHOICE_BLOCKED;
}

static uint32_t tree_full(struct sys *s, const char *what)
{
    snprintf(s->base.error, sizeof s->base.error,
             "the search tree is full (%s)", what);
    return RAVEL__CHOICE_ERROR;
}

/*
 * Sleep sets. After thread p is chosen, the threads of the candidate set
 * (asleep on arrival, or whose branch was taken here) stay asleep while
 * what p does commutes with their next step. What p does is known exactly
 * once it has done it, so the set is refined with each event p logs
 * (every event of p's block, atomic sections included), just before the
 * next choice. A sleeping thread whose next step is a compare-exchange
 * known to fail (it failed where its branch was taken, and nothing wrote
 * its object since, or it would have been woken) only reads.
 */
static void sleep_candidates(struct sys *s, const struct ravel__exec *x,
                             uint64_t cand, uint64_t cand_read, uint32_t p,
                             uint32_t node)
{
    if (node != RAVEL__NONE)
        cand &= ~ravel__tree_node(s->t, my_path(s)[node].node)->done_multi;
    s->next_sleep = cand & ~bit(p);
    s->next_read = cand_read & s->next_sleep;
    s->settled = x->nevents;
    s->record_node = node;
    s->record_event = x->nevents;
}

/* Replaying a prefix: the next node was reached before, with the sleep
 * set it recorded (already refined by the events in between). */
static void replayed_sleep(struct sys *s, uint32_t next_node)
{
    const struct ravel__tnode *next = ravel__tree_node(s->t, next_node);
    s->next_sleep = next->sleep;
    s->next_read = next->sleep_read;
    s->settled = RAVEL__NONE;
}

static __attribute__((noinline)) void
sleep_refine_events(struct sys *s, const struct ravel__exec *x)
{
    for (uint32_t e = s->settled; e < x->nevents; e++) {
        const struct ravel__event *ev = &x->events[e];
        if (s->record_node != RAVEL__NONE && e <= s->record_event + 1) {
            struct ravel__tnode *nd =
                ravel__tree_node(s->t, my_path(s)[s->record_node].node);
            if (e == s->record_event && ev->kind == RAVEL__OP_ATOMIC_CAS &&
                !ev->aux)
                nd->done_read |= bit(ev->thread);
            if (e == s->record_event + 1) { /* a second event: a block */
                nd->done_multi |= bit(ev->thread);
                /* Wakeup trees count a block of several operations as
                 * dependent with everything (wakeup.c, block_access), so
                 * optimal DPOR's sleep sets must too: a thread left
                 * asleep through such a block claimed to cover
                 * reversals that the tree, which had put the block
                 * first in a branch of its own, never ran
                 * (tests/oracle/regress/optimal_sections_4026_36). */
                if (s->mode == MODE_OPTIMAL) {
                    s->next_sleep = 0;
                    s->next_read = 0;
                }
            }
        }
        if (!s->next_sleep)
            continue;
        struct ravel__access ae, aq;
        ravel__event_access(ev, &ae);
        for (uint64_t m = s->next_sleep; m; m &= m - 1) {
            uint32_t q = lowest(m);
            const struct ravel__thread *th = &x->threads[q];
            bool dependent = true;
            if (q < x->nthreads && th->state == RAVEL__T_LIVE && !th->atomic) {
                ravel__op_access(&th->pending, q, &aq);
                if ((s->next_read & bit(q)) && aq.n == 1 &&
                    aq.cls[0] == RAVEL__ACC_WRITE &&
                    th->pending.kind == RAVEL__OP_ATOMIC_CAS)
                    aq.cls[0] = RAVEL__ACC_READ;
                dependent = ravel__access_dependent(&ae, &aq);
            }
            if (dependent) {
                s->next_sleep &= ~bit(q);
                s->next_read &= ~bit(q);
            }
        }
    }
    s->settled = x->nevents;
}

/* Before every choice: the events since the last one refine the sleep
 * set. Inline for what most choices find - a replayed node, whose sleep
 * set was recorded (settled NONE), or no event since - and out of line
 * for the events. */
static inline void sleep_refine(struct sys *s, const struct ravel__exec *x)
{
    if (s->settled == RAVEL__NONE || s->settled >= x->nevents) {
        s->settled = x->nevents;
        return;
    }
    sleep_refine_events(s, x);
}

/* Frees the followed thread's steps for other values when no value node
 * took them (the execution went another way, or ended). */
static void drop_valts(struct sys *s)
{
    /* At every choice; there is rarely anything to free. */
    if (RAVEL__LIKELY(s->follow_vmore == RAVEL__NIL &&
                      s->follow_valts == RAVEL__NIL))
        return;
    ravel__tree_wchain_free(s->t, s->follow_vmore);
    s->follow_vmore = RAVEL__NIL;
    if (s->follow_valts == RAVEL__NIL)
        return;
    ravel__tree_wlist_free(s->t, s->follow_valts);
    s->follow_valts = RAVEL__NIL;
}

/* The index of the thread with key `key` in this execution, or NONE. */
static uint32_t slot_of(const struct ravel__exec *x, uint64_t key)
{
    for (uint32_t t = 0; t < x->nthreads; t++)
        if (x->threads[t].key == key)
            return t;
    return RAVEL__NONE;
}

/*
 * At a new node reached while replaying a wakeup tree: takes the leftmost
 * step of *list that can run here and returns it (RAVEL__NIL if none);
 * the other steps of the same thread (other values of its data choice)
 * go to s->follow_valts; the other steps stay in *list as the node's
 * pending branches, with their thread indices filled in. Steps that cannot run here are dropped
 * (they cannot exist unless the program or the dependency relation is
 * imprecise).
 */
static uint32_t follow_step(struct sys *s, const struct ravel__exec *x,
                            uint32_t *list, uint64_t avail)
{
    uint32_t chosen = RAVEL__NIL;
    uint32_t *link = list;
    while (*link != RAVEL__NIL) {
        uint32_t i = *link;
        struct ravel__wnode *w = ravel__tree_wnode(s->t, i);
        if (chosen != RAVEL__NIL &&
            w->tkey == ravel__tree_wnode(s->t, chosen)->tkey) {
            /* The chosen thread again, with another value: replayed
             * from the value node its data choice creates. */
            *link = w->sibling;
            w->sibling = s->follow_valts;
            s->follow_valts = i;
            continue;
        }
        w->slot = slot_of(x, w->tkey);
        bool ok = w->slot < 64 && (avail & bit(w->slot));
        if (ok && chosen == RAVEL__NIL) {
            chosen = i;
            *link = w->sibling;
            w->sibling = RAVEL__NIL;
            continue;
        }
        if (!ok && chosen == RAVEL__NIL) {
            s->wut_misses++;
            *link = w->sibling;
            w->sibling = RAVEL__NIL;
            ravel__tree_wlist_free(s->t, i);
            continue;
        }
        link = &w->sibling;
    }
    return chosen;
}

static uint32_t sys_choose_thread(struct ravel__strategy *base,
                                  const struct ravel__exec *x,
                                  const uint32_t *enabled, uint32_t n,
                                  uint32_t current)
{
    struct sys *s = (struct sys *)base;
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    struct ravel__pathent *path = my_path(s);
    if (x->nthreads > 64) {
        snprintf(base->error, sizeof base->error,
                 "the systematic strategies handle executions of up to 64 "
                 "threads; this one creates more (use --strategy random or "
                 "pct)");
        return RAVEL__CHOICE_ERROR;
    }
    /* enabled[] as a mask: the scheduler's (it has it already). */
    uint64_t en = x->choice_mask;
    uint32_t c = s->cursor;
    if (c >= t->path_cap)
        return tree_full(s, "an execution has more choice points than "
                            "--max-steps allows");
    uint32_t p;
    struct ravel__tnode *nd;
    bool sleeping = s->mode != MODE_DFS;
    if (sleeping)
        sleep_refine(s, x);
    drop_valts(s);
    if (c < ln->prefix) {
        nd = ravel__tree_node(t, path[c].node);
        if (nd->nvalues != 0 || nd->enabled != en)
            return diverged(s, x);
        p = path[c].chosen;
        if (c + 1 < ln->prefix) {
            replayed_sleep(s, path[c + 1].node);
        } else {
            /* The branch taken for this execution. */
            if (sleeping)
                sleep_candidates(s, x, ln->branch_sleep, ln->branch_read,
                                 p, c);
            s->follow = ln->branch_wut;
            ln->branch_wut = RAVEL__NIL;
            s->follow_value = ln->branch_value;
            s->follow_vmore = ln->branch_vmore;
            ln->branch_vmore = RAVEL__NIL;
            s->follow_valts = ln->branch_valts;
            ln->branch_valts = RAVEL__NIL;
        }
    } else {
        uint64_t avail = en & ~s->next_sleep;
        uint32_t wut = s->follow, step = RAVEL__NIL;
        s->follow = RAVEL__NIL;
        s->follow_value = RAVEL__NONE;
        if (wut != RAVEL__NIL)
            step = follow_step(s, x, &wut, avail);
        if (step == RAVEL__NIL && !avail) {
            if (s->debug) {
                dbg(s, "blocked at %u (event %u): asleep", c,
                        x->nevents);
                for (uint64_t m = en; m; m &= m - 1) {
                    const struct ravel__op *op = &x->threads[lowest(m)].pending;
                    dbg(s, " %s(kind %u obj %u)",
                            x->threads[lowest(m)].name, op->kind, op->obj);
                }
                dbg(s, "\n");
            }
            ravel__tree_wlist_free(t, wut);
            s->asleep = true;
            s->sleepers = en & s->next_sleep;
            return RAVEL__CHOICE_BLOCKED;
        }
        uint32_t ni = ravel__tree_node_new(t, s->lane);
        if (ni == RAVEL__NIL) {
            ravel__tree_wlist_free(t, wut);
            if (step != RAVEL__NIL)
                ravel__tree_wlist_free(t, step);
            return tree_full(s, "too many choice points");
        }
        nd = ravel__tree_node(t, ni);
        nd->enabled = en;
        nd->sleep = s->next_sleep;
        nd->sleep_read = s->next_read;
        nd->current = current;
        nd->cost = s->cost;
        nd->wut = wut;
        if (step != RAVEL__NIL) {
            struct ravel__wnode *w = ravel__tree_wnode(t, step);
            p = w->slot;
            s->follow = w->child;
            s->follow_value = w->value;
            s->follow_vmore = w->vmore;
            ravel__tree_wnode_free(t, step);
        } else {
            p = default_choice(current, avail);
            /* A timed wait that would time out now waits, natively, for
             * its delay, while the others run on: a new branch lets them
             * (8 threads polling a listening socket for 2 s, started just
             * before main connects, each accept one connection rather
             * than all time out). The timeouts stay enabled, and DPOR
             * reverses them with the steps they race with, as any. */
            if (ravel__op_times_out(x, p)) {
                uint64_t rest = 0;
                for (uint64_t m = avail & ~bit(p); m; m &= m - 1)
                    if (!ravel__op_times_out(x, lowest(m)))
                        rest |= bit(lowest(m));
                if (rest)
                    p = default_choice(current, rest);
            }
        }
        if (s->mode == MODE_DFS) {
            nd->backtrack = 0;
            for (uint64_t m = avail; m; m &= m - 1)
                if (within_bound(s, nd, lowest(m)))
                    nd->backtrack |= bit(lowest(m));
        }
        nd->backtrack |= bit(p);
        nd->done = bit(p);
        nd->step = x->nevents;
        path[c].node = ni;
        path[c].chosen = p;
        path[c].before = 0;
        ln->depth = c + 1;
        if (sleeping)
            sleep_candidates(s, x, nd->sleep, nd->sleep_read, p, c);
    }
    if (s->bk != BOUND_NONE)
        s->cost += choice_cost(s, current, p, en);
    s->cursor = c + 1;
    uint32_t i = index_of(enabled, n, p);
    return i == RAVEL__NONE ? diverged(s, x) : i;
}

static uint32_t sys_choose_value(struct ravel__strategy *base,
                                 const struct ravel__exec *x, uint32_t n)
{
    struct sys *s = (struct sys *)base;
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    struct ravel__pathent *path = my_path(s);
    uint32_t c = s->cursor;
    if (c >= t->path_cap)
        return tree_full(s, "an execution has more choice points than "
                            "--max-steps allows");
    uint32_t v;
    if (s->mode != MODE_DFS)
        sleep_refine(s, x);
    if (c < ln->prefix) {
        struct ravel__tnode *nd = ravel__tree_node(t, path[c].node);
        if (nd->nvalues != n)
            return diverged(s, x);
        v = path[c].chosen;
        if (c + 1 < ln->prefix) {
            replayed_sleep(s, path[c + 1].node);
        } else {
            /* The branch: the block that made the choice goes on,
             * replaying the wakeup steps recorded for this value. */
            s->next_sleep = nd->sleep;
            s->next_read = nd->sleep_read;
            s->settled = x->nevents;
            s->follow = ln->branch_wut;
            ln->branch_wut = RAVEL__NIL;
            /* The block's next data choice, if it makes another. */
            s->follow_value = ln->branch_value;
            s->follow_vmore = ln->branch_vmore;
            ln->branch_vmore = RAVEL__NIL;
            s->follow_valts = ln->branch_valts;
            ln->branch_valts = RAVEL__NIL;
        }
    } else {
        uint32_t ni = ravel__tree_node_new(t, s->lane);
        if (ni == RAVEL__NIL)
            return tree_full(s, "too many choice points");
        struct ravel__tnode *nd = ravel__tree_node(t, ni);
        nd->nvalues = n;
        nd->sleep = s->next_sleep;
        nd->sleep_read = s->next_read;
        nd->vfirst = s->follow_value < n ? s->follow_value : 0;
        nd->vtaken = 1;
        nd->step = x->nevents;
        /* The next value node of this block takes the chain's next. */
        s->follow_value = RAVEL__NONE;
        if (s->follow_vmore != RAVEL__NIL) {
            struct ravel__wnode tmp = {.vmore = s->follow_vmore};
            ravel__tree_wvalue_pop(t, &tmp);
            s->follow_value = tmp.value;
            s->follow_vmore = tmp.vmore;
        }
        /* The other values' continuations, one step per value; steps
         * that take this node's value too but differ at a later data
         * choice of the block go on to the next value node. */
        uint32_t later = RAVEL__NIL;
        while (s->follow_valts != RAVEL__NIL) {
            uint32_t i = s->follow_valts;
            struct ravel__wnode *w = ravel__tree_wnode(t, i);
            s->follow_valts = w->sibling;
            w->sibling = RAVEL__NIL;
            if (w->value == nd->vfirst && w->vmore != RAVEL__NIL) {
                ravel__tree_wvalue_pop(t, w);
                w->sibling = later;
                later = i;
                continue;
            }
            bool dup = w->value >= n || w->value == nd->vfirst;
            for (uint32_t k = nd->wut;
                 k != RAVEL__NIL && !dup && w->vmore == RAVEL__NIL;
                 k = ravel__tree_wnode(t, k)->sibling)
                dup = ravel__tree_wnode(t, k)->value == w->value;
            if (dup) {
                s->wut_misses++;
                ravel__tree_wlist_free(t, i);
                continue;
            }
            w->sibling = nd->wut;
            nd->wut = i;
        }
        s->follow_valts = later;
        v = nd->vfirst;
        path[c].node = ni;
        path[c].chosen = v;
        path[c].before = 0;
        ln->depth = c + 1;
    }
    s->cursor = c + 1;
    return v;
}

static void sys_begin(struct ravel__strategy *base, uint64_t number)
{
    struct sys *s = (struct sys *)base;
    (void)number;
    s->cursor = 0;
    s->cost = 0;
    s->next_sleep = s->next_read = 0;
    s->settled = 0;
    s->record_node = RAVEL__NONE;
    s->follow = RAVEL__NIL;
    s->follow_value = RAVEL__NONE;
    drop_valts(s);
    s->asleep = false;
    s->sleepers = 0;
}

/* ---- analysing a finished execution -------------------------------------- */

static void grow_scratch(struct sys *s, uint32_t n)
{
    if (n <= s->ev_cap)
        return;
    uint32_t cap = n + n / 2 + 1024;
    free(s->ev_pidx);
    free(s->blk_first);
    free(s->blk_last);
    free(s->ev_value);
    free(s->ev_vidx);
    free(s->ev_vn);
    free(s->thr_ev);
    free(s->ev_waits);
    s->ev_waits = malloc((cap + 1) * sizeof *s->ev_waits);
    s->ev_pidx = malloc(cap * sizeof *s->ev_pidx);
    s->blk_first = malloc(cap * sizeof *s->blk_first);
    s->blk_last = malloc(cap * sizeof *s->blk_last);
    s->ev_value = malloc(cap * sizeof *s->ev_value);
    s->ev_vidx = malloc(cap * sizeof *s->ev_vidx);
    s->ev_vn = malloc(cap * sizeof *s->ev_vn);
    s->thr_ev = malloc(cap * sizeof *s->thr_ev);
    RAVEL__CHECK(s->ev_pidx && s->blk_first && s->blk_last && s->ev_value &&
                 s->ev_vidx && s->ev_vn && s->thr_ev && s->ev_waits);
    s->ev_cap = cap;
    s->map_n = 0; /* what was mapped is gone */
}

static bool is_wait(const struct ravel__event *w);

/*
 * Maps events to the nodes where they were chosen and to their blocks (an
 * event inside an atomic section belongs to the block of the choice that
 * began it), and lists each thread's events. Returns whether some block
 * has more than one event.
 */
static bool map_events(struct sys *s, const struct ravel__exec *x)
{
    struct ravel__tree *t = s->t;
    const struct ravel__pathent *path = my_path(s);
    uint32_t depth = my_lane(s)->depth;
    uint32_t n = x->nevents;
    grow_scratch(s, n);
    /* The events before s->hb_keep are the last execution's, chosen at
     * the same nodes (the happens-before analysis keeps their clocks for
     * the same reason): their blocks and nodes are mapped already, and
     * the walk along the path resumes where the last of them was. */
    uint32_t from = s->hb_keep;
    if (from > s->map_n || from > n)
        from = 0;
    /* What the last mapping found before `from` (the same events). */
    if (from == 0 || s->first_multi >= from)
        s->first_multi = RAVEL__NONE;
    bool multi = s->first_multi != RAVEL__NONE;
    uint32_t pi = 0, cur = RAVEL__NONE, first = 0;
    if (from > 0) {
        cur = s->ev_pidx[from - 1];
        first = s->blk_first[from - 1];
        pi = cur == RAVEL__NONE ? 0 : cur;
    }
    /* Data choices are mapped again below, from the start. */
    uint32_t reset = x->nvchoices ? 0 : from;
    for (uint32_t e = reset; e < from; e++)
        s->ev_value[e] = RAVEL__NONE;
    for (uint32_t e = from; e < n; e++) {
        while (pi < depth) {
            const struct ravel__tnode *nd = ravel__tree_node(t, path[pi].node);
            if (!nd->nvalues && nd->step > e)
                break;
            if (!nd->nvalues && nd->step == e) {
                cur = pi;
                first = e;
            }
            pi++;
        }
        if (e > 0 && first != e && !multi) {
            multi = true;
            s->first_multi = e;
        }
        s->ev_pidx[e] = cur;
        s->blk_first[e] = first;
        s->ev_value[e] = RAVEL__NONE;
    }
    s->map_n = n;
    /* Descriptor waits (for wait_races), counted on from the prefix's. */
    s->ev_waits[0] = 0;
    uint32_t waits = s->ev_waits[from]; /* in a register, not reloaded */
    for (uint32_t e = from; e < n; e++) {
        waits += is_wait(&x->events[e]);
        s->ev_waits[e + 1] = waits;
    }
    s->nwaits = s->ev_waits[n];
    /* The prefix's blocks end before `from` (a block starts there, as it
     * did in the last execution). */
    for (uint32_t e = n; e-- > from;)
        s->blk_last[e] = (e + 1 < n && s->blk_first[e + 1] == s->blk_first[e])
                             ? s->blk_last[e + 1]
                             : e;
    /* Each thread's events, in order (counting sort by thread). The
     * counts are the threads' steps (one per event it logged), unless
     * they do not add up: counting them was a chain of increments in
     * memory, 2% of fib_bench's time. */
    uint32_t nt = x->nthreads;
    s->thr_off[0] = 0;
    for (uint32_t u = 0; u < nt; u++)
        s->thr_off[u + 1] = s->thr_off[u] + x->threads[u].steps;
    if (RAVEL__UNLIKELY(s->thr_off[nt] != n)) {
        ravel__words_zero(s->thr_off, nt + 1);
        for (uint32_t e = 0; e < n; e++)
            s->thr_off[x->events[e].thread + 1]++;
        for (uint32_t u = 0; u < nt; u++)
            s->thr_off[u + 1] += s->thr_off[u];
    }
    uint32_t fill[RAVEL__HB_THREADS];
    ravel__words_copy(fill, s->thr_off, nt);
    for (uint32_t e = 0; e < n; e++)
        s->thr_ev[fill[x->events[e].thread]++] = e;
    /* A data choice belongs to the block of its thread's event before it
     * (made during that event, or by the code after it). */
    for (uint32_t i = 0; i < x->nvchoices; i++) {
        const struct ravel__vchoice *v = &x->vchoices[i];
        if (v->thread >= nt || v->tstep == 0 ||
            v->tstep > s->thr_off[v->thread + 1] - s->thr_off[v->thread])
            continue;
        uint32_t e = s->thr_ev[s->thr_off[v->thread] + v->tstep - 1];
        uint32_t f = s->blk_first[e];
        if (s->ev_value[f] == RAVEL__NONE) {
            s->ev_value[f] = v->value;
            s->ev_vidx[f] = i;
            s->ev_vn[f] = 1;
        } else if (s->ev_vidx[f] + s->ev_vn[f] == i) {
            s->ev_vn[f]++; /* the block's next choice */
        }
    }
    return multi;
}

static void collect_race(void *ctx, uint32_t e1, uint32_t e2)
{
    struct sys *s = ctx;
    if (e2 < s->race_from)
        return;
    if (s->nraces == s->races_cap) {
        s->races_cap = s->races_cap ? s->races_cap * 2 : 256;
        s->races = realloc(s->races, s->races_cap * sizeof *s->races);
        RAVEL__CHECK(s->races != NULL);
    }
    s->races[s->nraces++] = (struct race){e1, e2};
}

/* Races no schedule can reverse, because e1 is what enabled e2: a join
 * and the finish of the thread it waited for; a wake and the signal that
 * chose that waiter. */
static bool unreversible(const struct ravel__exec *x, uint32_t e1,
                         uint32_t e2)
{
    const struct ravel__event *a = &x->events[e1], *b = &x->events[e2];
    if (a->kind == RAVEL__OP_FINISH && b->kind == RAVEL__OP_JOIN &&
        b->obj == a->thread)
        return true;
    if (a->kind == RAVEL__OP_COND_SIGNAL && b->kind == RAVEL__OP_COND_WAKE &&
        a->aux == b->thread && !(b->flags & RAVEL__EV_TIMEDOUT))
        return true;
    return false;
}

/* A wait that any of several objects can end: a poll of two descriptor
 * channels, or of many (an epoll_wait). Where it was not enabled, e1 is
 * not necessarily what enabled it - an independent event on another of
 * its channels could have, and the two are never reordered, since they
 * commute. So a race with such a wait falls back to the classic rule:
 * every thread enabled at e1's node gets its turn there. */
static bool multi_wait(const struct ravel__event *ev)
{
    return ev->kind == RAVEL__OP_FD_POLL_ALL ||
           (ev->kind == RAVEL__OP_FD_POLL && ev->aux != RAVEL__NONE);
}

/* Thread u's first event after event e (RAVEL__NONE if none): a binary
 * search of its events in order (map_events). */
static uint32_t next_of_thread(const struct sys *s, uint32_t u, uint32_t e)
{
    uint32_t lo = s->thr_off[u], hi = s->thr_off[u + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->thr_ev[mid] <= e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->thr_off[u + 1] ? s->thr_ev[lo] : RAVEL__NONE;
}

/* A pending operation: the next step of a live thread of an execution
 * that was cut short, which never ran (cut_races). */
struct pending {
    uint32_t thread;
    const struct ravel__kaccess *k; /* what it accesses */
};

/* Whether event f of v (the reversal of a race of e1 with pending
 * operation pd) happens before pd: f, or an event of v that f happens
 * before, is dependent with it. pd's thread has no event in v here, and
 * its last event comes before e1 (cut_races), so nothing else orders
 * them. */
static bool before_pending(struct sys *s, const struct ravel__exec *x,
                           uint32_t e1, uint32_t f, const struct pending *pd)
{
    for (uint32_t e = f; e < x->nevents; e++) {
        if (e != f && (!ravel__hb_before(&s->hb, x, f, e) ||
                       ravel__hb_before(&s->hb, x, e1, e)))
            continue;
        struct ravel__access a;
        struct ravel__kaccess k;
        ravel__event_access_any(&x->events[e], &a);
        ravel__access_keys(&a, x, &k);
        if (ravel__kaccess_dependent(pd->k, &k))
            return true;
    }
    return false;
}

/* Source DPOR: one thread that can start v goes into the backtrack set.
 * The race is e1's with event e2, or, when pd is given, with thread
 * pd->thread's pending operation (e2 is then x->nevents, one past the
 * last event). */
static void source_race(struct sys *s, const struct ravel__exec *x,
                        struct ravel__tnode *nd, uint32_t e1, uint32_t e2,
                        const struct pending *pd)
{
    /* v: events after e1 that do not happen after it, then e2. For each
     * thread, its first event in v; the initials are the threads whose
     * first event has no other event of v before it in happens-before.
     *
     * Happening after e1 is kept along a thread's program order (its
     * clocks only grow), so a thread's first event in v, if any, is its
     * first event after e1: found per thread by binary search, O(threads
     * x log events) a race instead of a scan of every event between e1
     * and e2 (which made the analysis quadratic when races span far, as
     * in two threads taking the same many locks one after the other). */
    /* Read for the threads of in_v, and for th2 (not cleared whole: a
     * 256-byte clear at every race was a string instruction's start-up
     * cost, more than the loop below). */
    uint32_t first[64];
    uint64_t in_v = 0;
    uint32_t th2 = pd ? pd->thread : x->events[e2].thread;
    first[th2] = 0;
    for (uint32_t u = 0; u < x->nthreads && u < 64; u++) {
        uint32_t f = next_of_thread(s, u, e1);
        if (f == RAVEL__NONE || f > e2)
            continue;
        if (f != e2 && ravel__hb_before(&s->hb, x, e1, f)) {
            if (u != th2)
                continue; /* all of u after f happens after e1 too */
            f = e2;       /* e2 itself is in v */
        }
        in_v |= bit(u);
        first[u] = f;
    }
    if (pd && !(in_v & bit(th2))) {
        in_v |= bit(th2);
        first[th2] = e2;
    }
    /* If e2 is the first event of its thread in v, it was that thread's
     * pending operation where e1 was chosen: it must have been enabled
     * there, or e1 is what enabled it and the race cannot be reversed. */
    /* Under --memory-model tso a thread can also be enabled by what
     * happens before it in v: a store buffer's flush by its store, a
     * draining operation by its buffer's flushes (ravel__hb_compute). */
    if (first[th2] == e2 && !(nd->enabled & bit(th2)) &&
        !ravel__is_sb(x, th2) && !x->threads[th2].sb) {
        if (!pd && multi_wait(&x->events[e2]))
            nd->backtrack |= nd->enabled & ~nd->sleep;
        return;
    }
    /* u's first step in v is the whole block that starts at first[u]
     * (replayed, it runs to its end): what happens before any of its
     * events keeps u from starting v. Tested on the block's first event
     * only, a section whose atomic_begin races with another section's
     * counted as an initial although its later operations had to follow
     * a third thread's step in v, and that reversal was never run (the
     * differential oracle's source_section_block: 8 of 9 traces). */
    uint64_t initials = 0;
    for (uint64_t m = in_v; m; m &= m - 1) {
        uint32_t u = lowest(m);
        bool initial = true;
        uint32_t ulast = first[u] < x->nevents ? s->blk_last[first[u]]
                                               : first[u];
        for (uint64_t k = in_v & ~bit(u); k && initial; k &= k - 1) {
            uint32_t w = lowest(k);
            if (first[w] >= first[u])
                continue;
            if (pd && first[u] == e2
                    ? before_pending(s, x, e1, first[w], pd)
                    : ravel__hb_before(&s->hb, x, first[w], ulast))
                initial = false;
        }
        if (initial)
            initials |= bit(u);
    }
    if (initials & nd->backtrack)
        return; /* already an alternative that starts v */
    uint64_t cand = initials & nd->enabled & ~nd->sleep;
    if (!cand)
        return; /* not reversible here, or explored already (asleep) */
    nd->backtrack |= (cand & bit(th2)) ? bit(th2) : bit(lowest(cand));
}

/* Inserts s->v into nd's wakeup tree unless it is covered: by a thread
 * asleep here, or by one whose branch here was taken before this one
 * (explored with this one asleep), that is a weak initial of v.
 *
 * A thread whose step here was a block of several operations, or ended
 * the execution (a failure, a false assumption: exit_race), counts as
 * dependent with everything (done_multi), as in the sleep sets: it is a
 * weak initial of v only by being an initial. Its step in this execution
 * is no guide: a failed assertion is no event, and the same operation,
 * run later here, may read another value and not fail. Taken for the
 * bare operation, an exchange that made its thread's assertion fail
 * covered the reversal of two other threads' locks, which it commutes
 * with, though its branch had ended at once and run neither lock: the
 * final states after the other order were never seen
 * (tests/oracle/regress/optimal_failing_step_cover, reduced from
 * optimal_choose_17856_12). */
static int insert_uncovered(struct sys *s, const struct ravel__wctx *c,
                            struct ravel__tnode *nd,
                            const struct ravel__pathent *pe)
{
    /* A foreign thread's branch here is a work unit's, explored
     * completely with those before it asleep: it covers v as one taken
     * before would, but only as an initial (cover_by_initial). */
    uint64_t cover = (nd->sleep | pe->before | nd->foreign) &
                     ~bit(pe->chosen);
    uint64_t cross = s->unit_top || s->xlanes
                         ? s->xsleep[pe - my_path(s)] | nd->foreign
                         : 0;
    for (uint64_t m = cover; m; m &= m - 1) {
        uint32_t q = lowest(m);
        struct ravel__kaccess a;
        if (nd->done_multi & bit(q)) {
            memset(&a, 0, sizeof a);
            a.global = true;
        } else {
            ravel__wnext_access(c, q, nd->step, &a);
        }
        uint64_t key = c->x->threads[q].key;
        if ((cross & bit(q)) ? ravel__wseq_initial(&s->v, key)
                             : ravel__wseq_weak_initial(&s->v, key, &a)) {
            if (s->debug)
                dbg(s, "covered by %s (sleep %llx before %llx foreign %llx)\n",
                    c->x->threads[q].name, (unsigned long long)nd->sleep,
                    (unsigned long long)pe->before,
                    (unsigned long long)nd->foreign);
            return 0;
        }
    }
    return ravel__wseq_insert(s->t, &nd->wut, &s->v);
}

/* Optimal DPOR: the wakeup sequence reversing the race goes into the
 * node's wakeup tree unless a sleeping or taken thread covers it. */
static int optimal_race(struct sys *s, const struct ravel__wctx *c,
                        struct ravel__tnode *nd,
                        const struct ravel__pathent *pe, uint32_t e2)
{
    const struct ravel__exec *x = c->x;
    uint32_t st = nd->step;
    if (!ravel__wseq_build(&s->v, c, st, e2)) {
        if (s->v.no_unit)
            atomic_fetch_add(&s->t->unfollowed, 1);
        return 0;
    }
    /* e2's thread, if v holds nothing else of it, must have been enabled
     * here (or e1 is what enabled it). */
    uint32_t th2 = x->events[e2].thread;
    bool only = true;
    for (uint32_t k = 0; k + 1 < s->v.n && only; k++)
        only = s->v.e[k].thread != th2;
    if (only && !(nd->enabled & bit(th2))) {
        if (!multi_wait(&x->events[e2]))
            return 0;
        /* Every other thread enabled here goes first once. */
        uint64_t others = nd->enabled & ~nd->sleep & ~pe->before &
                          ~nd->foreign & ~bit(pe->chosen);
        for (uint64_t m = others; m; m &= m - 1) {
            ravel__wseq_single(&s->v, c, lowest(m), st);
            if (ravel__wseq_insert(s->t, &nd->wut, &s->v) < 0)
                return -1;
        }
        return 0;
    }
    return insert_uncovered(s, c, nd, pe);
}

/* Optimal DPOR, for a race of an event chosen at node nd (path entry pe)
 * with thread u's pending operation in an execution cut short: the
 * wakeup sequence is the steps after it that do not happen after it,
 * then u's pending step (not u's step alone: u's turn may have been
 * taken here already, or u may sleep here, while a third thread's steps
 * must precede u's). Covered as in optimal_race. */
static int optimal_pending(struct sys *s, const struct ravel__wctx *c,
                           struct ravel__tnode *nd,
                           const struct ravel__pathent *pe, uint32_t u)
{
    if (!ravel__wseq_build_pending(&s->v, c, nd->step, u)) {
        if (s->v.no_unit)
            atomic_fetch_add(&s->t->unfollowed, 1);
        return 0;
    }
    bool only = true;
    for (uint32_t k = 0; k + 1 < s->v.n && only; k++)
        only = s->v.e[k].thread != u;
    if (only && !(nd->enabled & bit(u)))
        return 0;
    return insert_uncovered(s, c, nd, pe);
}

/* exit() ends every other thread: a thread that could still have run
 * where the exit was chosen must get its turn before it. So does a
 * failure (a failed assertion, abort, a crash): it ends the execution
 * right after the failing thread's last step, so the other threads'
 * next steps race with that step (another thread's assertion may fail
 * only when it runs first: the differential oracle found one missed).
 * So does a false ravel_assume: the races among the steps it cut off
 * are seen only in an execution where the other threads go first. */
static int exit_race(struct sys *s, const struct ravel__exec *x,
                     const struct ravel__wctx *c)
{
    uint32_t e = x->nevents - 1;
    uint32_t pi = s->ev_pidx[e];
    if (pi == RAVEL__NONE)
        return 0;
    const struct ravel__pathent *pe = &my_path(s)[pi];
    struct ravel__tnode *nd = ravel__tree_node(s->t, pe->node);
    uint32_t et = x->events[e].thread;
    /* The step that ended the execution depends on everything after it
     * that never ran: like a block, it never sleeps in the branches
     * taken here later (asleep, it would keep the other threads from
     * ever running past it), nor covers their reversals as a weak
     * initial (insert_uncovered: its branch ran none of them). */
    bool is_exit = x->events[e].kind == RAVEL__OP_EXIT;
    if (!is_exit)
        nd->done_multi |= bit(et);
    uint64_t others = nd->enabled & ~nd->sleep & ~bit(et);
    if (!others)
        return 0;
    if (!is_exit) {
        /* A failure or a false assumption may end each of the others'
         * turns too (their own failures, found only when they go
         * first): every one of them goes first once. */
        for (uint64_t m = others & ~nd->done & ~nd->foreign; m;
             m &= m - 1) {
            if (s->mode != MODE_OPTIMAL) {
                nd->backtrack |= bit(lowest(m));
                continue;
            }
            ravel__wseq_single(&s->v, c, lowest(m), nd->step);
            if (ravel__wseq_insert(s->t, &nd->wut, &s->v) < 0)
                return -1;
        }
        return 0;
    }
    if (s->mode != MODE_OPTIMAL) {
        if (!(nd->backtrack & others))
            nd->backtrack |= bit(lowest(others));
        return 0;
    }
    if (((pe->before | nd->foreign) & others) || nd->wut != RAVEL__NIL)
        return 0;
    ravel__wseq_single(&s->v, c, lowest(others), nd->step);
    return ravel__wseq_insert(s->t, &nd->wut, &s->v);
}

/*
 * The execution was cut short (a failure, a false ravel_assume): the
 * other live threads' pending operations never ran, so their races with
 * the events before them were never seen, yet in a complete execution
 * they would be. For each such thread u, every earlier event of another
 * thread that its pending operation depends on, and that does not happen
 * before u's last event, is reversed where it was chosen, as the race of
 * two events would be: v is the steps after it that do not happen after
 * it, then u's pending step, and an initial of v (source sets) or v
 * itself (wakeup trees) is added there. Letting u go first is not enough:
 * u may sleep there, or have had its turn there already, while v must
 * begin with a third thread's steps (tests/oracle/regress/
 * source_pending_asleep: 'exhausted' was printed with a final state
 * missed). Only races are reversed: per other thread, its latest
 * dependent event that happens before no other such event (an earlier
 * one is ordered before the pending operation through it).
 *
 * An execution abandoned because every enabled thread slept is cut short
 * too. The sleepers (skip) are covered: each one's next step was explored
 * first where it fell asleep, and is independent of everything since.
 * But the threads that were not enabled there (waiting for a mutex whose
 * holder waits too, say) are not: their pending steps' races with the
 * earlier events are seen nowhere else. A lock-order deadlock whose
 * bystander thread slept hid 'lock m1 by the other thread first' this
 * way, and with it a final state (tests/oracle/regress/
 * source_cas_deadlock).
 */
static int cut_races(struct sys *s, const struct ravel__exec *x,
                     const struct ravel__wctx *c, uint64_t skip)
{
    uint32_t n = x->nevents;
    /* The thread that ended it has nothing pending, unless nobody could
     * move (a deadlock: every live thread waits at its operation; or
     * every enabled one slept). */
    uint32_t et = x->failure.kind == RAVEL__FAIL_DEADLOCK ||
                          (x->ended == RAVEL__END_BLOCKED && s->asleep)
                      ? RAVEL__NONE
                      : x->events[n - 1].thread;
    for (uint32_t u = 0; u < x->nthreads && u < 64; u++) {
        const struct ravel__thread *th = &x->threads[u];
        if (u == et || th->state != RAVEL__T_LIVE || (skip & bit(u)))
            continue;
        struct ravel__access pa;
        struct ravel__kaccess pk;
        ravel__op_access(&th->pending, u, &pa);
        ravel__access_keys(&pa, x, &pk);
        uint32_t ulast = s->thr_off[u + 1] > s->thr_off[u]
                             ? s->thr_ev[s->thr_off[u + 1] - 1]
                             : RAVEL__NONE;
        /* Only the races: a dependent event that happens before another
         * one (of its own thread, or through it) is ordered before the
         * pending operation by it, and reversing it alone is no
         * reordering. One per thread at most, so the work is linear in
         * the execution's length. */
        uint32_t raced[64];
        uint32_t nraced = 0;
        uint64_t raced_threads = 0;
        for (uint32_t e1 = n; e1-- > 0;) {
            const struct ravel__event *ev = &x->events[e1];
            if (ev->thread == u || ev->thread >= 64 ||
                (raced_threads & bit(ev->thread)))
                continue;
            if (ulast != RAVEL__NONE && e1 < ulast &&
                ravel__hb_before(&s->hb, x, e1, ulast))
                continue;
            struct ravel__access ea;
            struct ravel__kaccess ek;
            ravel__event_access_any(ev, &ea);
            ravel__access_keys(&ea, x, &ek);
            if (!ravel__kaccess_dependent(&pk, &ek))
                continue;
            bool hidden = false;
            for (uint32_t k = 0; k < nraced && !hidden; k++)
                hidden = ravel__hb_before(&s->hb, x, e1, raced[k]);
            if (hidden)
                continue;
            raced[nraced++] = e1;
            raced_threads |= bit(ev->thread);
            uint32_t pi = s->ev_pidx[s->blk_first[e1]];
            if (pi == RAVEL__NONE || pi >= my_lane(s)->depth)
                continue;
            const struct ravel__pathent *pe = &my_path(s)[pi];
            struct ravel__tnode *nd = ravel__tree_node(s->t, pe->node);
            if (s->debug)
                dbg(s, "cut race %u(%s) < pending %s: node %u%s%s%s\n", e1,
                    x->threads[ev->thread].name, th->name, pi,
                    (nd->enabled & bit(u)) ? "" : " disabled",
                    (nd->done & bit(u)) ? " done" : "",
                    (nd->sleep & bit(u)) ? " asleep" : "");
            if (nd->nvalues)
                continue;
            if (s->mode != MODE_OPTIMAL) {
                /* u's own turn may be explored already here, or u may
                 * sleep here, and yet v not be covered: another thread
                 * may have to go first (a third thread whose steps
                 * precede u's in v; tests/oracle/regress/
                 * source_seed_5056_29). As for a race of two events. */
                struct pending pd = {u, &pk};
                source_race(s, x, nd, e1, n, &pd);
                continue;
            }
            if (optimal_pending(s, c, nd, pe, u) < 0)
                return -1;
        }
    }
    return 0;
}

/*
 * Descriptor waits. Every operation on a channel is dependent with every
 * other one on it, so a read that waited for a write happens after it,
 * and that edge can hide the read's race with an earlier operation of
 * another thread on the channel: with a pipe used as a token, A's read,
 * A's write back, B's read - B's read never races with A's, and the race
 * DPOR does see (A's write, B's read) cannot be reversed (B could not
 * read before it). So for each descriptor operation that could wait,
 * every earlier dependent event of another thread that does not happen
 * before the waiting thread's previous event is reversed where it was
 * chosen, by letting the waiting thread go first there when it was
 * enabled (as cut_races does for pending operations). Conservative.
 *
 * Cost. Scanning every earlier event for every wait was quadratic in the
 * number of waits (a pipe passed back and forth a million times). So one
 * pass over the execution indexes, for the objects some wait touches
 * only, each thread's events by object key and access class (a "group",
 * its events in order); at a wait, the events of a group that happen
 * before the waiting thread's previous event are a prefix of it (happening
 * before is kept along program order), skipped by binary search, and
 * only groups of classes dependent with the wait's are read. Each event
 * read is dependent with the wait, so happens before it, so is skipped
 * at the thread's later waits: O(events x threads) reads in all, plus
 * O(threads x classes x log events) a wait. The events found, and the
 * order they are handled in (each wait in order, the events before it
 * newest first), are those of the scan.
 */
struct wgroup {
    uint64_t key;  /* the object's key (ravel__access_keys) */
    uint32_t next; /* the next group of the same key, or RAVEL__NONE */
    uint8_t cls;
    uint8_t thread;
    uint32_t *ev, n, cap;
};

struct windex {
    struct wgroup *g;
    uint32_t ng, gcap;
    uint64_t *keys; /* open addressing over the keys waits touch */
    uint8_t *used;
    uint32_t *head; /* per key slot: its first group */
    uint32_t kcap;
};

/* The slot of `key`: where it is, or the empty one where it would go. */
static uint32_t wkey_slot(const struct windex *w, uint64_t key)
{
    uint32_t j = (uint32_t)ravel__hash_ptr(key) & (w->kcap - 1);
    while (w->used[j] && w->keys[j] != key)
        j = (j + 1) & (w->kcap - 1);
    return j;
}

/* The group of (key slot j, class, thread), made if there is none. */
static struct wgroup *wgroup_of(struct windex *w, uint32_t j, uint8_t cls,
                                uint32_t th)
{
    for (uint32_t i = w->head[j]; i != RAVEL__NONE; i = w->g[i].next)
        if (w->g[i].cls == cls && w->g[i].thread == th)
            return &w->g[i];
    if (w->ng == w->gcap) {
        w->gcap = w->gcap ? w->gcap * 2 : 64;
        w->g = realloc(w->g, w->gcap * sizeof *w->g);
        RAVEL__CHECK(w->g != NULL);
    }
    struct wgroup *g = &w->g[w->ng];
    memset(g, 0, sizeof *g);
    g->key = w->keys[j];
    g->cls = cls;
    g->thread = (uint8_t)th;
    g->next = w->head[j];
    w->head[j] = w->ng++;
    return g;
}

static void wgroup_push(struct wgroup *g, uint32_t e)
{
    if (g->n && g->ev[g->n - 1] == e)
        return;
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 16;
        g->ev = realloc(g->ev, g->cap * sizeof *g->ev);
        RAVEL__CHECK(g->ev != NULL);
    }
    g->ev[g->n++] = e;
}

static bool is_wait(const struct ravel__event *w)
{
    return (w->flags & RAVEL__EV_BLOCKING) && w->thread < 64 &&
           w->kind >= RAVEL__OP_FD_NEW && w->kind <= RAVEL__OP_FD_POLL_ALL;
}

static int cmp_u32_desc(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The reversal of the race between event e1 and thread u's wait e2. */
static int wait_race(struct sys *s, const struct ravel__exec *x,
                     const struct ravel__wctx *c, uint32_t e1, uint32_t e2)
{
    uint32_t u = x->events[e2].thread;
    uint32_t pi = s->ev_pidx[s->blk_first[e1]];
    if (pi == RAVEL__NONE || pi >= my_lane(s)->depth)
        return 0;
    const struct ravel__pathent *pe = &my_path(s)[pi];
    struct ravel__tnode *nd = ravel__tree_node(s->t, pe->node);
    if (nd->nvalues || !(nd->enabled & bit(u)) || (nd->done & bit(u)) ||
        (nd->sleep & bit(u)) || (nd->backtrack & bit(u)) ||
        (nd->foreign & bit(u)))
        return 0;
    if (s->debug)
        dbg(s, "wait race %u(%s) < %u(%s): node %u\n", e1,
            x->threads[x->events[e1].thread].name, e2, x->threads[u].name,
            pi);
    if (s->mode != MODE_OPTIMAL) {
        nd->backtrack |= bit(u);
        return 0;
    }
    ravel__wseq_single(&s->v, c, u, nd->step);
    return ravel__wseq_insert(s->t, &nd->wut, &s->v) < 0 ? -1 : 0;
}

/* Appends to cand the events of g after the first `have` of its thread's
 * (those happen before the waiting thread's previous event). */
static void wgroup_after(const struct wgroup *g, const struct ravel__hb *hb,
                         uint32_t have, uint32_t **cand, uint32_t *ncand,
                         uint32_t *candcap)
{
    uint32_t lo = 0, hi = g->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (hb->tindex[g->ev[mid]] <= have)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (*ncand + (g->n - lo) > *candcap) {
        *candcap = *ncand + (g->n - lo) + 64;
        *cand = realloc(*cand, *candcap * sizeof **cand);
        RAVEL__CHECK(*cand != NULL);
    }
    for (uint32_t k = lo; k < g->n; k++)
        (*cand)[(*ncand)++] = g->ev[k];
}

static int wait_races(struct sys *s, const struct ravel__exec *x,
                      const struct ravel__wctx *c)
{
    uint32_t n = x->nevents;
    uint32_t nwaits = s->nwaits; /* counted by map_events */
    if (!nwaits || x->nthreads > 64)
        return 0;
    /* The keys the waits touch. */
    struct windex w = {0};
    w.kcap = 64;
    while (w.kcap < 4 * nwaits)
        w.kcap *= 2;
    w.keys = malloc(w.kcap * sizeof *w.keys);
    w.used = calloc(w.kcap, 1);
    w.head = malloc(w.kcap * sizeof *w.head);
    RAVEL__CHECK(w.keys && w.used && w.head);
    for (uint32_t j = 0; j < w.kcap; j++)
        w.head[j] = RAVEL__NONE;
    for (uint32_t e = 0; e < n; e++) {
        if (!is_wait(&x->events[e]))
            continue;
        struct ravel__access pa;
        struct ravel__kaccess pk;
        ravel__event_access_any(&x->events[e], &pa);
        ravel__access_keys(&pa, x, &pk);
        for (uint8_t i = 0; i < pk.n; i++) {
            uint32_t j = wkey_slot(&w, pk.key[i]);
            w.keys[j] = pk.key[i];
            w.used[j] = 1;
        }
    }
    /* exit()'s events (global: dependent with every access), few. */
    uint32_t *glob = NULL, nglob = 0, globcap = 0;
    uint32_t tlast[64];
    for (uint32_t u = 0; u < 64; u++)
        tlast[u] = RAVEL__NONE;
    uint32_t *cand = NULL;
    uint32_t ncand = 0, candcap = 0;
    int rc = 0;
    for (uint32_t e2 = 0; e2 < n && rc == 0; e2++) {
        const struct ravel__event *ev = &x->events[e2];
        uint32_t th = ev->thread;
        struct ravel__access ea;
        struct ravel__kaccess ek;
        ravel__event_access_any(ev, &ea);
        ravel__access_keys(&ea, x, &ek);
        if (is_wait(ev)) {
            /* Candidates: events before e2 of other threads, dependent
             * with it, not happening before th's previous event (whose
             * clock counts, per thread, the events that do). */
            const uint32_t *clk =
                tlast[th] != RAVEL__NONE
                    ? ravel__hb_clock(&s->hb, tlast[th])
                    : NULL;
            ncand = 0;
            for (uint8_t i = 0; i < ek.n; i++) {
                uint32_t j = wkey_slot(&w, ek.key[i]);
                for (uint32_t gi = w.head[j]; gi != RAVEL__NONE;
                     gi = w.g[gi].next) {
                    const struct wgroup *g = &w.g[gi];
                    if (g->thread == th)
                        continue;
                    struct ravel__kaccess one = {0}, mine = {0};
                    one.n = mine.n = 1;
                    one.key[0] = mine.key[0] = g->key;
                    one.cls[0] = g->cls;
                    mine.cls[0] = ek.cls[i];
                    if (!ravel__kaccess_dependent(&mine, &one))
                        continue;
                    wgroup_after(g, &s->hb, clk ? clk[g->thread] : 0, &cand,
                                 &ncand, &candcap);
                }
            }
            for (uint32_t k = 0; k < nglob; k++) {
                uint32_t e1 = glob[k], t1 = x->events[e1].thread;
                if (t1 == th || (clk && s->hb.tindex[e1] <= clk[t1]))
                    continue;
                if (ncand == candcap) {
                    candcap = candcap * 2 + 64;
                    cand = realloc(cand, candcap * sizeof *cand);
                    RAVEL__CHECK(cand != NULL);
                }
                cand[ncand++] = e1;
            }
            if (ncand > 1)
                qsort(cand, ncand, sizeof *cand, cmp_u32_desc);
            uint32_t prev = RAVEL__NONE;
            for (uint32_t k = 0; k < ncand && rc == 0; k++) {
                if (cand[k] == prev)
                    continue;
                prev = cand[k];
                rc = wait_race(s, x, c, cand[k], e2);
            }
        }
        /* Index e2 under the keys waits touch. */
        for (uint8_t i = 0; i < ek.n; i++) {
            uint32_t j = wkey_slot(&w, ek.key[i]);
            if (w.used[j])
                wgroup_push(wgroup_of(&w, j, ek.cls[i], th), e2);
        }
        if (ek.global) {
            if (nglob == globcap) {
                globcap = globcap * 2 + 4;
                glob = realloc(glob, globcap * sizeof *glob);
                RAVEL__CHECK(glob != NULL);
            }
            glob[nglob++] = e2;
        }
        tlast[th] = e2;
    }
    for (uint32_t gi = 0; gi < w.ng; gi++)
        free(w.g[gi].ev);
    free(w.g);
    free(w.keys);
    free(w.used);
    free(w.head);
    free(cand);
    free(glob);
    return rc;
}

/* Records what the finished execution shows must still be explored.
 * Called with the tree locked. Returns -1 when the tree is full. */
/*
 * Optimal DPOR in work units (cover_by_initial). A thread asleep at a
 * node, or taken there before this path's branch, covers a wakeup
 * sequence of which it is a weak initial: its own branch explored every
 * trace it can start, and one search's later branches received, as
 * wakeup sequences, the reversals its executions found there. That is
 * how an earlier sibling hands work to a later one, and it holds inside
 * a unit. It does not hold across units: a branch explored by another
 * unit (taken before, or foreign, at the nodes the unit copied, and
 * every thread that has slept since because of them) inserted nothing
 * here. Such a thread covers v only when it is an initial of v (its step
 * in v can go first), as in source-set DPOR: the trace of v then starts
 * with it, and its branch, complete on its own, explored it. lastzero(2)
 * in one unit per branch found 3 of its 5 traces with the weak rule
 * everywhere (a writer's reversal covered by the sleeping finder, whose
 * branch would have handed it to the writer's).
 *
 * xsleep[i]: the threads at path entry i whose cover is another unit's:
 * at the copied entries, everything asleep or taken before; below them,
 * those of the entry above still asleep.
 */
static int cross_sleepers(struct sys *s)
{
    uint32_t depth = my_lane(s)->depth;
    if (depth > s->xsleep_cap) {
        uint64_t *p = realloc(s->xsleep, depth * sizeof *p);
        if (!p)
            return -1;
        s->xsleep = p;
        s->xsleep_cap = depth;
    }
    const struct ravel__pathent *path = my_path(s);
    /* The entries above the branch this execution took are the last
     * execution's: a steal from one of them adds to its xdone a thread
     * not taken before this path's branch there. */
    struct ravel__lane *ln = my_lane(s);
    uint32_t from = ln->prefix ? ln->prefix - 1 : 0;
    if (from > s->xsleep_valid)
        from = s->xsleep_valid;
    uint64_t carry = from ? s->xsleep[from - 1] : 0;
    for (uint32_t i = from; i < depth; i++) {
        const struct ravel__tnode *nd = ravel__tree_node(s->t, path[i].node);
        if (i < s->unit_top) {
            carry = nd->sleep | path[i].before;
        } else {
            /* A branch another lane took here (xdone) is another unit:
             * the branches taken after it sleep on it as on a foreign
             * one. */
            carry = (carry & nd->sleep) | (path[i].before & nd->xdone);
        }
        s->xsleep[i] = carry;
    }
    s->xsleep_valid = depth;
    return 0;
}

static int analyse(struct sys *s, const struct ravel__exec *x)
{
    struct ravel__pathent *path = my_path(s);
    struct ravel__wctx c = {
        .x = x,
        .hb = &s->hb,
        .blk_first = s->blk_first,
        .blk_last = s->blk_last,
        .multi = s->multi,
        .thr_ev = s->thr_ev,
        .thr_off = s->thr_off,
        .ev_value = s->ev_value,
        .ev_vidx = s->ev_vidx,
        .ev_vn = s->ev_vn,
    };
    if ((s->unit_top || s->xlanes) && s->mode == MODE_OPTIMAL &&
        cross_sleepers(s) < 0)
        return -1;
    for (uint32_t r = 0; r < s->nraces; r++) {
        uint32_t e1 = s->races[r].e1, e2 = s->races[r].e2;
        if (unreversible(x, e1, e2))
            continue;
        uint32_t pi = s->ev_pidx[e1];
        if (pi == RAVEL__NONE || pi >= my_lane(s)->depth)
            continue;
        struct ravel__tnode *nd = ravel__tree_node(s->t, path[pi].node);
        if (s->mode == MODE_SOURCE) {
            source_race(s, x, nd, e1, e2, NULL);
            if (s->debug)
                dbg(s, "race %u(%s) < %u(%s): node %u\n", e1,
                        x->threads[x->events[e1].thread].name, e2,
                        x->threads[x->events[e2].thread].name, pi);
        } else {
            int rc = optimal_race(s, &c, nd, &path[pi], e2);
            if (rc < 0)
                return -1;
            if (s->debug) {
                dbg(s, "race %u(%s) < %u(%s): node %u%s", e1,
                        x->threads[x->events[e1].thread].name, e2,
                        x->threads[x->events[e2].thread].name, pi,
                        rc > 0 ? " inserted" : "");
                for (uint32_t k = 0; rc > 0 && k < s->v.n; k++)
                    dbg(s, " %s@%u%s",
                            x->threads[s->v.e[k].thread].name,
                            s->v.e[k].first, s->v.e[k].removed ? "-" : "");
                dbg(s, "\n");
            }
        }
    }
    bool cut = x->nevents &&
               ((x->ended == RAVEL__END_EXIT &&
                 x->events[x->nevents - 1].kind == RAVEL__OP_EXIT) ||
                x->failure.kind != RAVEL__FAIL_NONE ||
                (x->ended == RAVEL__END_BLOCKED && !s->asleep));
    if (wait_races(s, x, &c) < 0)
        return -1;
    if (cut && exit_race(s, x, &c) < 0)
        return -1;
    if (cut && x->events[x->nevents - 1].kind != RAVEL__OP_EXIT &&
        cut_races(s, x, &c, 0) < 0)
        return -1;
    if (!cut && x->ended == RAVEL__END_BLOCKED && s->asleep &&
        cut_races(s, x, &c, s->sleepers) < 0)
        return -1;
    return 0;
}

/* ---- taking the next branch --------------------------------------------- */

/* Records that thread p's branch at nd is taken now; returns the threads
 * taken there before it. */
static uint64_t mark_taken(struct ravel__tnode *nd, uint32_t p)
{
    uint64_t before = nd->done;
    nd->done |= bit(p);
    return before;
}

/* Takes a branch at node nd if one is pending; returns the choice or
 * RAVEL__NONE. Fills the lane's branch fields. Called with the lock. */
static uint32_t take_branch(struct sys *s, struct ravel__tnode *nd,
                            struct ravel__lane *ln)
{
    if (nd->nvalues) {
        if (nd->vtaken >= nd->nvalues || nd->vforeign)
            return RAVEL__NONE;
        uint32_t v = (nd->vfirst + nd->vtaken++) % nd->nvalues;
        ln->branch_sleep = nd->sleep;
        ln->branch_read = nd->sleep_read;
        ln->branch_before = 0;
        ln->branch_wut = RAVEL__NIL;
        ln->branch_value = RAVEL__NONE;
        ln->branch_vmore = RAVEL__NIL;
        ln->branch_valts = RAVEL__NIL;
        /* The first step recorded for v is followed; the others for v
         * differ at a later data choice of the block and go to the next
         * value node (their chains popped past this one). */
        bool found = false;
        for (uint32_t *link = &nd->wut; *link != RAVEL__NIL;) {
            struct ravel__wnode *w = ravel__tree_wnode(s->t, *link);
            if (w->value != v) {
                link = &w->sibling;
                continue;
            }
            uint32_t i = *link;
            *link = w->sibling;
            w->sibling = RAVEL__NIL;
            ravel__tree_wvalue_pop(s->t, w);
            if (!found) {
                found = true;
                ln->branch_wut = w->child;
                ln->branch_value = w->value;
                ln->branch_vmore = w->vmore;
                ravel__tree_wnode_free(s->t, i);
            } else if (w->value == RAVEL__NONE) {
                s->wut_misses++;
                ravel__tree_wlist_free(s->t, i);
            } else {
                w->sibling = ln->branch_valts;
                ln->branch_valts = i;
            }
        }
        return v;
    }
    if (s->mode == MODE_OPTIMAL) {
        while (nd->wut != RAVEL__NIL) {
            uint32_t i = nd->wut;
            struct ravel__wnode *w = ravel__tree_wnode(s->t, i);
            nd->wut = w->sibling;
            uint32_t p = w->slot;
            if (p >= 64 || !(nd->enabled & bit(p)) || (nd->done & bit(p))) {
                /* Not possible here (imprecision): drop it. */
                s->wut_misses++;
                w->sibling = RAVEL__NIL;
                ravel__tree_wlist_free(s->t, i);
                continue;
            }
            uint64_t before = mark_taken(nd, p);
            ln->branch_before = before;
            ln->branch_sleep = nd->sleep | before;
            ln->branch_read = nd->sleep_read | (nd->done_read & before);
            ln->branch_wut = w->child;
            ln->branch_value = w->value;
            ln->branch_vmore = w->vmore;
            /* p's other steps here take other values at its data choice:
             * they go to the value node it creates. */
            ln->branch_valts = RAVEL__NIL;
            for (uint32_t *link = &nd->wut; *link != RAVEL__NIL;) {
                struct ravel__wnode *o = ravel__tree_wnode(s->t, *link);
                if (o->tkey != w->tkey) {
                    link = &o->sibling;
                    continue;
                }
                uint32_t k = *link;
                *link = o->sibling;
                o->sibling = ln->branch_valts;
                ln->branch_valts = k;
            }
            ravel__tree_wnode_free(s->t, i);
            return p;
        }
        /* No wakeup sequence left: a work unit's node may still hold the
         * alternatives its split gave it (backtrack, never set otherwise
         * in this mode beyond the threads taken). */
    }
    uint64_t cand =
        nd->backtrack & ~nd->done & ~nd->sleep & ~nd->foreign & nd->enabled;
    for (uint64_t m = cand; m; m &= m - 1)
        if (!within_bound(s, nd, lowest(m)))
            cand &= ~bit(lowest(m));
    if (!cand)
        return RAVEL__NONE;
    uint32_t p = lowest(cand);
    uint64_t before = mark_taken(nd, p);
    ln->branch_before = before;
    ln->branch_sleep = nd->sleep | before;
    ln->branch_read = nd->sleep_read | (nd->done_read & before);
    ln->branch_wut = RAVEL__NIL;
    ln->branch_value = RAVEL__NONE;
    ln->branch_vmore = RAVEL__NIL;
    ln->branch_valts = RAVEL__NIL;
    return p;
}

static void release_path(struct sys *s, struct ravel__lane *ln,
                         uint32_t from)
{
    struct ravel__pathent *path = my_path(s);
    for (uint32_t i = ln->depth; i-- > from;)
        ravel__tree_node_unref(s->t, path[i].node, s->lane);
    if (ln->depth > from)
        ln->depth = from;
}

/* The deepest pending branch on this lane's own path. */
static bool take_own(struct sys *s, struct ravel__lane *ln)
{
    struct ravel__pathent *path = my_path(s);
    for (uint32_t i = ln->depth; i-- > 0;) {
        struct ravel__tnode *nd = ravel__tree_node(s->t, path[i].node);
        uint32_t ch = take_branch(s, nd, ln);
        if (ch == RAVEL__NONE)
            continue;
        release_path(s, ln, i + 1);
        /* The next execution replays this one up to node i. */
        if (s->hb_valid)
            s->hb_keep = nd->step;
        /* The same condition: the path is the last execution's (a unit
         * just loaded is not, load_unit). */
        s->resume_upto = s->hb_valid ? i : RAVEL__NONE;
        if (s->debug)
            dbg(s, "take node %u: %u (was %u)\n", i, ch,
                    path[i].chosen);
        path[i].chosen = ch;
        path[i].before = ln->branch_before;
        ln->prefix = ln->depth = ln->committed = i + 1;
        return true;
    }
    return false;
}

/*
 * Optimal DPOR on several lanes (--jobs, --dpor-mode optimal).
 *
 * The lanes cannot share one search tree as source-set DPOR's do: a
 * wakeup sequence found below one branch of a node may belong in a later
 * branch's wakeup tree, and a branch another lane has already taken
 * cannot receive it. So a lane that has nothing to do steals a branch
 * and explores it as a work unit (like a shard's, "work units" below):
 * a search of its own, on copies of the nodes above it.
 *
 * Lane 0 starts at the root; an idle lane takes the shallowest pending
 * branch on another lane's path (a wakeup-tree branch with the steps to
 * replay after it, or a data choice's next value), copies the path down
 * to it into its own nodes and explores it. At the copies, every branch
 * the victim has taken or still holds is another unit's: taken before,
 * it is asleep in the stolen branch; pending, it is foreign. At the
 * victim's node the stolen thread is taken (xdone): asleep in the
 * victim's later branches, as another unit's.
 *
 * A thread whose cover is another unit's covers a wakeup sequence only
 * as an initial (cover_by_initial, above cross_sleepers): the stolen
 * branch never receives the sequences the victim's running branch would
 * have handed it, so each unit explores everything its branch can start
 * by itself. The price is executions that sleep sets end (blocked) near
 * the steal points, and now and then one trace explored by two units:
 * traces are counted by fingerprint. Each lane's nodes are its own; the
 * lane's lock keeps the entries others may steal from still while a
 * stealer copies them, and the lane analyses its executions holding its
 * own lock only, so the lanes do not wait for each other.
 */
static void lane_lock(struct ravel__lane *ln)
{
    for (unsigned k = 0;
         atomic_exchange_explicit(&ln->lock, 1, memory_order_acquire); k++) {
        if (k % 256 == 255)
            sched_yield(); /* its holder may be descheduled */
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
}

static void lane_unlock(struct ravel__lane *ln)
{
    atomic_store_explicit(&ln->lock, 0, memory_order_release);
}

/* A pending branch at nd (a value not taken, a wakeup-tree branch, an
 * alternative of a copied split node)? */
static bool has_pending(const struct ravel__tnode *nd)
{
    if (nd->nvalues)
        return nd->vtaken < nd->nvalues && !nd->vforeign;
    return nd->wut != RAVEL__NIL ||
           (nd->backtrack & ~nd->done & ~nd->sleep & ~nd->foreign &
            nd->enabled) != 0;
}

/* The shallowest entry with a pending branch on another lane's path, its
 * lane in *lane; RAVEL__NONE when there is none. With `lock`, each path is
 * read under its lane's lock (optimal DPOR's lanes analyse without the
 * tree's). */
static uint32_t shallowest_pending(struct sys *s, bool lock, uint32_t *lane)
{
    struct ravel__tree *t = s->t;
    uint32_t best = RAVEL__NONE;
    for (uint32_t l = 0; l < t->nlanes; l++) {
        if (l == s->lane)
            continue;
        struct ravel__lane *o = ravel__tree_lane(t, l);
        const struct ravel__pathent *op = ravel__tree_path(t, l);
        if (lock)
            lane_lock(o);
        uint32_t lim = o->committed < best ? o->committed : best;
        for (uint32_t i = 0; i < lim; i++)
            if (has_pending(ravel__tree_node(t, op[i].node))) {
                *lane = l;
                best = i;
                break;
            }
        if (lock)
            lane_unlock(o);
    }
    return best;
}

/* The shallowest pending branch on another lane's path. */
static bool steal(struct sys *s, struct ravel__lane *ln)
{
    struct ravel__tree *t = s->t;
    uint32_t best_lane, best_i = shallowest_pending(s, false, &best_lane);
    if (best_i == RAVEL__NONE)
        return false;
    struct ravel__pathent *op = ravel__tree_path(t, best_lane);
    struct ravel__tnode *nd = ravel__tree_node(t, op[best_i].node);
    uint32_t ch = take_branch(s, nd, ln);
    if (ch == RAVEL__NONE)
        return false; /* only impossible steps were left: look again */
    release_path(s, ln, 0);
    struct ravel__pathent *path = my_path(s);
    for (uint32_t i = 0; i <= best_i; i++) {
        path[i] = op[i];
        atomic_fetch_add(&ravel__tree_node(t, op[i].node)->refs, 1);
    }
    path[best_i].chosen = ch;
    path[best_i].before = ln->branch_before;
    ln->prefix = ln->depth = ln->committed = best_i + 1;
    if (s->debug)
        dbg(s, "steal node %u of lane %u: %u\n", best_i,
                best_lane, ch);
    return true;
}

/* The threads of nd's pending branches, which the copy of nd in a stolen
 * unit must leave to the victim (foreign there). */
static uint64_t pending_threads(struct sys *s, const struct ravel__tnode *nd)
{
    uint64_t m =
        nd->backtrack & ~nd->done & ~nd->sleep & ~nd->foreign & nd->enabled;
    for (uint32_t w = nd->wut; w != RAVEL__NIL;
         w = ravel__tree_wnode(s->t, w)->sibling) {
        uint32_t p = ravel__tree_wnode(s->t, w)->slot;
        if (p < 64)
            m |= bit(p);
    }
    return m;
}

/* Takes the shallowest pending branch on another lane's path as a unit
 * of this lane's (called with the tree's lock, this lane idle). */
static bool steal_unit(struct sys *s, struct ravel__lane *ln)
{
    struct ravel__tree *t = s->t;
    uint32_t best_lane, best_i = shallowest_pending(s, true, &best_lane);
    if (best_i == RAVEL__NONE)
        return false;
    struct ravel__lane *o = ravel__tree_lane(t, best_lane);
    const struct ravel__pathent *op = ravel__tree_path(t, best_lane);
    lane_lock(ln);
    release_path(s, ln, 0);
    ln->prefix = ln->committed = 0;
    lane_unlock(ln);
    lane_lock(o);
    uint32_t i = best_i;
    struct ravel__tnode *vn =
        i < o->committed ? ravel__tree_node(t, op[i].node) : NULL;
    uint32_t ch = vn && has_pending(vn) ? take_branch(s, vn, ln) : RAVEL__NONE;
    if (ch == RAVEL__NONE) {
        lane_unlock(o);
        return false; /* taken meanwhile, or impossible steps only */
    }
    if (!vn->nvalues)
        vn->xdone |= bit(ch);
    struct ravel__pathent *path = my_path(s);
    bool ok = true;
    for (uint32_t k = 0; k <= i && ok; k++) {
        uint32_t ni = ravel__tree_node_new(t, s->lane);
        if (ni == RAVEL__NIL) {
            ok = false;
            break;
        }
        const struct ravel__tnode *from = ravel__tree_node(t, op[k].node);
        struct ravel__tnode *nd = ravel__tree_node(t, ni);
        memcpy(nd, from, sizeof *nd);
        nd->foreign |= nd->nvalues ? 0 : pending_threads(s, from);
        if (nd->nvalues && (k == i || nd->vtaken < nd->nvalues))
            nd->vforeign = 1;
        nd->wut = RAVEL__NIL;
        atomic_store(&nd->refs, 1);
        path[k] = op[k];
        path[k].node = ni;
        ln->depth = k + 1;
    }
    lane_unlock(o);
    if (!ok) {
        /* No room for the copies: the branch is lost, so the search
         * cannot be complete. */
        ravel__tree_wlist_free(t, ln->branch_wut);
        ln->branch_wut = RAVEL__NIL;
        snprintf(t->abandon_why, sizeof t->abandon_why,
                 "the search tree is full (a stolen branch's copies)");
        t->abandoned = 1;
        release_path(s, ln, 0);
        return false;
    }
    path[i].chosen = ch;
    path[i].before = ln->branch_before;
    lane_lock(ln);
    ln->prefix = ln->depth = ln->committed = i + 1;
    ln->xtop = s->unit_top = i + 1;
    lane_unlock(ln);
    s->hb_valid = false;
    s->xsleep_valid = 0;
    s->hb_keep = 0;
    if (!atomic_load_explicit(&t->units_stolen, memory_order_relaxed))
        atomic_store(&t->units_stolen, 1);
    if (s->debug)
        dbg(s, "steal node %u of lane %u: %u (unit)\n", i, best_lane, ch);
    return true;
}

/* Adds the lane's batch of fingerprints to the shared set (with the
 * tree's lock held). A lane that leaves adds its batch, so that when the
 * last one has left every fingerprint is in the set. */
static void fp_flush_locked(struct sys *s)
{
    struct ravel__lane *ln = my_lane(s);
    enum { AHEAD = 8 };
    for (uint32_t i = 0; i < ln->nfpbuf && i < AHEAD; i++)
        ravel__tree_fp_prefetch(s->t, ln->fpbuf[i]);
    for (uint32_t i = 0; i < ln->nfpbuf && !s->fp_full; i++) {
        if (i + AHEAD < ln->nfpbuf)
            ravel__tree_fp_prefetch(s->t, ln->fpbuf[i + AHEAD]);
        ravel__tree_fp_add(s->t, ln->fpbuf[i], &s->fp_full);
    }
    ln->nfpbuf = 0;
}

static void fp_flush(struct sys *s)
{
    if (!my_lane(s)->nfpbuf)
        return;
    ravel__tree_lock(s->t);
    fp_flush_locked(s);
    ravel__tree_unlock(s->t);
}

/* This lane holds no branch any more. Called with the lock. */
static void leave(struct sys *s, struct ravel__lane *ln)
{
    fp_flush_locked(s);
    if (s->xlanes)
        lane_lock(ln);
    release_path(s, ln, 0);
    ln->prefix = ln->committed = 0;
    if (s->xlanes)
        lane_unlock(ln);
    if (ln->busy) {
        ln->busy = 0;
        s->t->busy--;
    }
}

bool ravel__systematic_diverged(struct ravel__strategy *base)
{
    return atomic_load(&((struct sys *)base)->t->diverged) != 0;
}

void ravel__systematic_abandon(struct ravel__strategy *base, const char *why)
{
    struct sys *s = (struct sys *)base;
    ravel__tree_lock(s->t);
    s->t->abandoned = 1;
    if (why && !s->t->abandon_why[0])
        snprintf(s->t->abandon_why, sizeof s->t->abandon_why, "%s", why);
    leave(s, my_lane(s));
    ravel__tree_unlock(s->t);
}

/* The run was interrupted (strategy op `abandon`). */
static void sys_abandon(struct ravel__strategy *base)
{
    ravel__systematic_abandon(base, NULL);
}

const char *ravel__systematic_abandoned_why(struct ravel__strategy *base)
{
    return ((struct sys *)base)->t->abandon_why;
}

static void pause_briefly(unsigned round)
{
    struct timespec ts = {0, round < 10 ? 50000 : 1000000};
    nanosleep(&ts, NULL);
}

/* ---- work units ----------------------------------------------------------
 *
 * With --shard or --checkpoint the search is cut into work units, many
 * more than shards, each explored as a search of its own:
 *
 *   split  Every shard makes the same units the same way, by expanding
 *          one node at a time. The whole search is run one execution
 *          deep; its first choice point is expanded: every alternative
 *          there is run once, and each becomes a unit (the root's
 *          children). Then the pending unit whose branch is shallowest
 *          (the largest piece of work, as far as anything tells) is
 *          loaded and run one execution deep, the first choice point
 *          after its branch is expanded the same way, and its children
 *          take its place; and so on until there are --shard-units units
 *          per shard, or none left to split.
 *
 *          Which alternatives a node has: at a thread node of at most
 *          SPLIT_FULL threads enabled and not asleep, every one of them
 *          (the node is expanded fully); at a larger one, those DPOR's
 *          races call for; at a data choice, each value (up to
 *          SPLIT_VALUES). Children are ordered as one search would take
 *          them (the execution's own choice first, then by thread), and
 *          each child has the ones before it asleep in its branch, as one
 *          search would; every later one is foreign to it (another unit
 *          takes it). Alternatives the split's executions find at the
 *          nodes above (larger nodes, not expanded fully) become units
 *          of their own, foreign to the children.
 *
 *          A child whose first execution (the one the split ran) left
 *          nothing pending below its branch is that execution alone: the
 *          split ran it, in every shard, so it is not dealt. The others
 *          weigh what their first execution left pending below the
 *          branch.
 *   deal   The pending units, heaviest first (then shallowest), are
 *          dealt back and forth (0 1 2 3 3 2 1 0 0 1 ...), so that every
 *          shard gets as many of the big ones as of the small.
 *   run    A shard explores its units one after the other. Each is loaded
 *          into the lane's path (fresh nodes, copied from the unit's
 *          entries) and explored depth-first like any search, including
 *          what it finds at the nodes above its branch; when nothing is
 *          left on its path, it is done.
 *
 * Why the union of the units' traces is the whole search's: it is one
 * search's, in which the split's nodes were given more alternatives
 * (every enabled thread not asleep, at a node expanded fully: more is
 * sound) and took them in the children's order, with the sleep sets that
 * order gives, except that a unit never takes an alternative foreign to
 * it, and explores any alternative it finds at a node above its branch
 * that is neither foreign nor taken there itself, with a sleep set no
 * larger than that one search would give it. Each alternative of a split
 * node is explored completely by exactly one unit, which is what lets
 * the later ones sleep on it.
 *
 * Why nodes are expanded fully: a node expanded with DPOR's alternatives
 * only gains alternatives when the units below it find races with its
 * step, and every unit below it that finds one explores it, itself
 * (units cannot tell each other). fib_bench (three threads racing on
 * everything) explored 10.9x the unsharded executions with 4 shards, 17x
 * with 8, that way. A node expanded fully has nothing left to find. But
 * at a node of many threads, most of them independent (lastzero's), it
 * makes many units that sleep sets end at once: hence SPLIT_FULL.
 * Traces are counted by fingerprint (the split's executions run in every
 * shard, and units below a larger node can explore one trace twice).
 *
 * Units explore independently, so a unit is done or not: a checkpoint
 * (--checkpoint) records the units done and the fingerprints found, and
 * a resumed search (--resume) makes the same units, skips the ones done
 * and redoes the others from their start.
 */

/* The path entry the split is expanding (split_expand): the first
 * choice point after the branch of the unit being split, the root's
 * first when it is the whole search. */
static uint32_t split_at(struct ravel__tree *t)
{
    return t->unit_cur == RAVEL__NONE ? 0
                                      : ravel__tree_unit(t, t->unit_cur)->len;
}

/* Splitting makes one unit per value of a data choice, up to this many;
 * the last of them takes every value left, and is never split (its
 * node keeps values pending). It bounds the units one expansion makes,
 * like the 64 threads a thread node can have. */
#define SPLIT_VALUES 64

/* A thread node is expanded fully (every enabled thread not asleep
 * becomes a unit) when it has at most this many; a node of more keeps
 * the alternatives DPOR found for it. Full expansion is what keeps units
 * from finding new alternatives above their branch and exploring them
 * each (fib_bench, 3 threads racing on everything: 10.9x the unsharded
 * executions with 4 shards before it). At a node of many threads, most
 * of them independent, it makes units that sleep sets end at once: with
 * every node expanded fully they filled the unit count while one unit
 * kept nearly all the work (lastzero(15), 4 shards: slowest/mean 3.98),
 * and when they were not counted the split ran 118k executions a shard
 * on lastzero(11), whose whole search is 24.6k. 4 lets fib_bench's
 * nodes (3 threads) and lastzero's first ones be expanded. */
#define SPLIT_FULL 4

/* A unit for alternative q of the node at path entry m, which has been
 * expanded fully (split_expand): copies of entries 0..m. At m, the
 * alternatives `before` (taken before q in the split's order) are done,
 * so asleep in q's branch as in one search that took them first, and
 * the later ones `later` are foreign: another unit takes each. For a
 * data choice, q is the index of the value in the order the node takes
 * them, and the unit takes that value only. Returns false when the unit
 * tables are full. */
static bool make_child(struct sys *s, uint32_t m, uint32_t q, uint64_t before,
                       uint64_t later, uint32_t weight)
{
    struct ravel__tree *t = s->t;
    if (t->nunits >= t->units_cap || t->nuentries + m + 1 > t->uentries_cap)
        return false;
    const struct ravel__pathent *path = my_path(s);
    struct ravel__unit *u = ravel__tree_unit(t, t->nunits++);
    u->first = t->nuentries;
    u->len = m + 1;
    u->state = RAVEL__UNIT_PENDING; /* `done` may be set by --resume */
    u->only = 0;
    u->leaf = 0;
    u->taken = 0;
    u->weight = weight;
    t->nuentries += m + 1;
    for (uint32_t k = 0; k <= m; k++) {
        struct ravel__unit_entry *e = ravel__tree_uentry(t, u->first + k);
        memcpy(&e->node, ravel__tree_node(t, path[k].node), sizeof e->node);
        e->node.wut = RAVEL__NIL;
        e->pe = path[k];
    }
    struct ravel__tnode *nd = &ravel__tree_uentry(t, u->first + m)->node;
    if (nd->nvalues) {
        nd->vtaken = q;
        nd->vforeign = 0;
        u->only = 1;
    } else {
        nd->done = before;
        nd->foreign = later;
        nd->backtrack |= bit(q);
    }
    return true;
}

/* The alternatives pending on the lane's path below entry m: how large
 * the subtree of the branch at m looks after its first execution. */
static uint32_t path_weight(struct sys *s, uint32_t m)
{
    const struct ravel__pathent *path = my_path(s);
    uint32_t w = 0;
    for (uint32_t i = m + 1; i < my_lane(s)->depth; i++) {
        const struct ravel__tnode *nd = ravel__tree_node(s->t, path[i].node);
        if (nd->nvalues)
            w += nd->vforeign ? 0 : nd->nvalues - nd->vtaken;
        else
            w += (uint32_t)__builtin_popcountll(nd->backtrack & ~nd->done &
                                                ~nd->sleep & ~nd->foreign &
                                                nd->enabled);
    }
    return w;
}

/* The alternatives a full expansion of node nd runs: every enabled
 * thread not asleep on arrival (bounds are refused with units). */
static uint64_t split_alts(const struct ravel__tnode *nd)
{
    return nd->enabled & ~nd->sleep;
}

/* Takes the next pending branch of the node at path entry m, the one the
 * split expands (nothing above it: take_own would go on to those). */
static bool take_at(struct sys *s, struct ravel__lane *ln, uint32_t m)
{
    struct ravel__pathent *path = my_path(s);
    struct ravel__tnode *nd = ravel__tree_node(s->t, path[m].node);
    uint32_t ch = take_branch(s, nd, ln);
    if (ch == RAVEL__NONE)
        return false;
    if (s->hb_valid)
        s->hb_keep = nd->step;
    path[m].chosen = ch;
    path[m].before = ln->branch_before;
    s->t->split_before[ch] = ln->branch_before;
    ln->prefix = ln->depth = ln->committed = m + 1;
    return true;
}

/* Alternatives pending at the nodes above entry m that are not foreign:
 * found by the split's own executions at a node that was not expanded
 * fully. Marks them foreign in the unit entries [first, first + m) when
 * `mark`, and returns how many there are. */
static uint32_t above_pending(struct ravel__tree *t, uint32_t first,
                              uint32_t m, bool mark)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < m; k++) {
        struct ravel__tnode *nd = &ravel__tree_uentry(t, first + k)->node;
        if (nd->nvalues) {
            if (nd->vtaken < nd->nvalues && !nd->vforeign) {
                n++;
                if (mark)
                    nd->vforeign = 1;
            }
            continue;
        }
        uint64_t p = nd->backtrack & ~nd->done & ~nd->sleep & ~nd->foreign &
                     nd->enabled;
        n += (uint32_t)__builtin_popcountll(p);
        if (mark)
            nd->foreign |= p;
    }
    return n;
}

/* A unit for alternative q (RAVEL__NONE: a data choice's values left)
 * of the node at path entry k < m, pending there and not foreign: found
 * by the split's executions. Copies of entries 0..k with every other
 * pending alternative foreign, as units were made before nodes were
 * expanded fully; its branch node may gain alternatives that it then
 * explores itself. */
static bool make_above(struct sys *s, uint32_t k, uint32_t q)
{
    struct ravel__tree *t = s->t;
    if (!make_child(s, k, 0, 0, 0, path_weight(s, k)))
        return false;
    struct ravel__unit *u = ravel__tree_unit(t, t->nunits - 1);
    above_pending(t, u->first, k, true);
    struct ravel__tnode *nd = &ravel__tree_uentry(t, u->first + k)->node;
    memcpy(nd, ravel__tree_node(t, my_path(s)[k].node), sizeof *nd);
    nd->wut = RAVEL__NIL;
    u->only = 0;
    if (q == RAVEL__NONE) {
        u->leaf = 1; /* its node keeps values pending */
    } else {
        uint64_t p = nd->backtrack & ~nd->done & ~nd->sleep & ~nd->foreign &
                     nd->enabled;
        nd->foreign |= p & ~bit(q);
    }
    return true;
}

/* Every alternative pending above entry m on the lane's path becomes a
 * unit (make_above). */
static bool split_above(struct sys *s, uint32_t m)
{
    const struct ravel__pathent *path = my_path(s);
    for (uint32_t k = 0; k < m; k++) {
        const struct ravel__tnode *nd = ravel__tree_node(s->t, path[k].node);
        if (nd->nvalues) {
            if (nd->vtaken < nd->nvalues && !nd->vforeign &&
                !make_above(s, k, RAVEL__NONE))
                return false;
            continue;
        }
        uint64_t p = nd->backtrack & ~nd->done & ~nd->sleep & ~nd->foreign &
                     nd->enabled;
        for (; p; p &= p - 1)
            if (!make_above(s, k, lowest(p)))
                return false;
    }
    return true;
}

/* The units below the node at path entry m, whose every alternative has
 * been run once (split_expand): one for each, the first (the expanded
 * unit's own execution's choice) with nothing asleep, each later one
 * with the ones run before it asleep. */
static bool split_children(struct sys *s, uint32_t m)
{
    struct ravel__tree *t = s->t;
    const struct ravel__tnode *nd = ravel__tree_node(t, my_path(s)[m].node);
    if (nd->nvalues) {
        uint32_t n = nd->nvalues < SPLIT_VALUES ? nd->nvalues : SPLIT_VALUES;
        /* The values' own first executions were not run: each gets
         * the first one's weight. */
        for (uint32_t k = 0; k < n; k++)
            if (!make_child(s, m, k, 0, 0, t->split_weight[0] + 1))
                return false;
        if (n < nd->nvalues) {
            struct ravel__unit *rest = ravel__tree_unit(t, t->nunits - 1);
            rest->only = 0;
            rest->leaf = 1;
        }
        return true;
    }
    uint64_t alts = nd->done; /* every alternative run at m */
    uint32_t first = t->split_first;
    /* What the split's executions found above m (at nodes not expanded
     * fully, or owned by the unit being split) become units of their
     * own, and are foreign to those below m. */
    if (!split_above(s, m))
        return false;
    uint32_t u0 = t->nunits;
    if (!make_child(s, m, first, 0, alts & ~bit(first),
                    t->split_weight[first]))
        return false;
    above_pending(t, ravel__tree_unit(t, u0)->first, m, true);
    /* In the order they ran (a race found by a later one can add an
     * alternative of a lower thread): each child's first execution is
     * then the one the split ran for it, with the same sleep set. */
    for (uint64_t r = alts & ~bit(first); r; r &= r - 1) {
        uint32_t q = lowest(r);
        uint64_t before = t->split_before[q];
        if (!make_child(s, m, q, before, alts & ~before & ~bit(q),
                        t->split_weight[q]))
            return false;
        above_pending(t, ravel__tree_unit(t, t->nunits - 1)->first, m, true);
    }
    /* A unit of weight 0 is its first execution alone (nothing pending
     * below its branch, nothing above it): the split ran it already, in
     * every shard. */
    for (uint32_t i = u0; i < t->nunits; i++) {
        struct ravel__unit *u = ravel__tree_unit(t, i);
        if (u->weight == 0)
            u->state = RAVEL__UNIT_SPLIT;
    }
    return true;
}

/*
 * After an execution of the split (lock held): the execution that
 * expanded unit t->unit_cur (the root when RAVEL__NONE), or one that ran
 * another alternative of the node being expanded. Returns 1 when the
 * lane has the next alternative to run, 0 when the node is done (its
 * units made, or the unit found a leaf), -1 when the unit tables are
 * full.
 */
static int split_expand(struct sys *s)
{
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    uint32_t m = t->split_node;
    if (m == RAVEL__NONE) {
        /* The first choice point after the unit's branch. */
        m = split_at(t);
        struct ravel__tnode *nd =
            m < ln->depth ? ravel__tree_node(t, my_path(s)[m].node) : NULL;
        if (!nd) {
            if (t->unit_cur != RAVEL__NONE)
                ravel__tree_unit(t, t->unit_cur)->leaf = 1;
            return 0;
        }
        if (!nd->nvalues) {
            uint64_t alts = split_alts(nd);
            if (__builtin_popcountll(alts) <= SPLIT_FULL)
                nd->backtrack |= alts;
            t->split_first = my_path(s)[m].chosen;
            t->split_before[t->split_first] = 0;
        }
        t->split_node = m;
    }
    struct ravel__tnode *nd = ravel__tree_node(t, my_path(s)[m].node);
    uint32_t chosen = my_path(s)[m].chosen;
    t->split_weight[nd->nvalues ? 0 : chosen] = path_weight(s, m);
    /* Each alternative once, so that the node records how each one's
     * step turned out (a compare-exchange that failed, a block): the
     * units that keep it asleep need to know. Values never sleep. */
    release_path(s, ln, m + 1);
    if (!nd->nvalues && take_at(s, ln, m))
        return 1;
    t->split_node = RAVEL__NONE;
    if (!split_children(s, m))
        return -1;
    if (t->unit_cur != RAVEL__NONE)
        ravel__tree_unit(t, t->unit_cur)->state = RAVEL__UNIT_SPLIT;
    return 0;
}

/* Loads unit u into the lane's path and takes its branch. */
static bool load_unit(struct sys *s, uint32_t ui)
{
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    struct ravel__unit *u = ravel__tree_unit(t, ui);
    release_path(s, ln, 0);
    struct ravel__pathent *path = my_path(s);
    for (uint32_t k = 0; k < u->len; k++) {
        uint32_t ni = ravel__tree_node_new(t, s->lane);
        if (ni == RAVEL__NIL) {
            release_path(s, ln, 0);
            return false;
        }
        struct ravel__tnode *nd = ravel__tree_node(t, ni);
        const struct ravel__unit_entry *e = ravel__tree_uentry(t, u->first + k);
        memcpy(nd, &e->node, sizeof *nd);
        atomic_store(&nd->refs, 1);
        path[k] = e->pe;
        path[k].node = ni;
        ln->depth = k + 1;
    }
    /* The last execution's analysis is not this path's. */
    s->hb_valid = false;
    s->xsleep_valid = 0;
    s->hb_keep = 0;
    t->unit_cur = ui;
    ln->unit = ui;
    s->unit_top = u->len;
    if (s->debug)
        dbg(s, "unit %u (%u entries)\n", ui, u->len);
    if (!take_own(s, ln))
        return false;
    if (u->only) /* its value only: the others are other units' */
        ravel__tree_node(t, path[u->len - 1].node)->vforeign = 1;
    return true;
}

static int cmp_units(const void *a, const void *b, void *tree)
{
    struct ravel__tree *t = tree;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    const struct ravel__unit *ux = ravel__tree_unit(t, x),
                             *uy = ravel__tree_unit(t, y);
    if (ux->weight != uy->weight)
        return ux->weight > uy->weight ? -1 : 1;
    if (ux->len != uy->len)
        return ux->len < uy->len ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Deals the pending units to the shards (all of them to this search
 * when it is not sharded). */
static void deal_units(struct sys *s)
{
    struct ravel__tree *t = s->t;
    uint32_t *order = malloc((t->nunits + 1) * sizeof *order);
    RAVEL__CHECK(order != NULL);
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->nunits; i++)
        if (ravel__tree_unit(t, i)->state == RAVEL__UNIT_PENDING)
            order[n++] = i;
    qsort_r(order, n, sizeof *order, cmp_units, t);
    uint32_t shards = s->shards ? s->shards : 1;
    for (uint32_t k = 0; k < n; k++) {
        struct ravel__unit *u = ravel__tree_unit(t, order[k]);
        /* Back and forth (0 1 2 3 3 2 1 0 0 1 ...): sizes fall with
         * depth, and a plain round-robin gives the first shards the
         * larger unit of every round. */
        uint32_t round = k / shards, pos = k % shards;
        uint32_t to = round % 2 ? shards - 1 - pos : pos;
        u->state = to == s->shard ? RAVEL__UNIT_OWN : RAVEL__UNIT_OTHER;
        if (s->debug)
            dbg(s, "deal unit %u (depth %u, weight %u) to shard %u\n",
                order[k], u->len, u->weight, to + 1);
        if (u->state == RAVEL__UNIT_OWN)
            t->units_own++;
    }
    free(order);
    if (t->units_expect && t->units_expect != t->nunits)
        t->units_mismatch = 1;
    t->unit_phase = RAVEL__UNITS_RUN;
    s->mode = s->run_mode;
    t->unit_cur = RAVEL__NONE;
}

/* The search is over (lock held): as next_branch says it. */
static bool units_over(struct sys *s)
{
    struct ravel__tree *t = s->t;
    leave(s, my_lane(s));
    ravel__tree_unlock(t);
    return false;
}

/*
 * The work-unit search's next branch (lock held on entry, released on
 * return), after an execution or at the start: split, deal or go on
 * with the units as the phase says. Returns false when the search is
 * over.
 */
static bool units_next(struct sys *s)
{
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    if (t->abandoned)
        return units_over(s);
    if (t->unit_phase == RAVEL__UNITS_SPLIT) {
        int rc = ln->busy ? split_expand(s) : 0;
        if (rc < 0) {
            snprintf(s->base.error, sizeof s->base.error,
                     "the search tree is full (too many work units)");
            s->base.failed = true;
            return units_over(s);
        }
        if (rc > 0) {
            ravel__tree_unlock(t);
            return true;
        }
        release_path(s, ln, 0);
        uint32_t target = s->units_per_shard * (s->shards ? s->shards : 1);
        for (;;) {
            uint32_t pending = 0, best = RAVEL__NONE;
            for (uint32_t i = 0; i < t->nunits; i++) {
                const struct ravel__unit *u = ravel__tree_unit(t, i);
                if (u->state != RAVEL__UNIT_PENDING)
                    continue;
                pending++;
                if (u->leaf)
                    continue;
                const struct ravel__unit *b =
                    best == RAVEL__NONE ? NULL : ravel__tree_unit(t, best);
                if (!b || u->len < b->len ||
                    (u->len == b->len && u->weight > b->weight))
                    best = i;
            }
            if (best == RAVEL__NONE || pending >= target)
                break;
            if (load_unit(s, best)) {
                ravel__tree_unlock(t);
                return true;
            }
            /* Nothing to take there after all: nothing to split. */
            ravel__tree_unit(t, best)->leaf = 1;
            release_path(s, ln, 0);
        }
        deal_units(s);
    } else if (ln->busy && ln->unit != RAVEL__NONE) {
        if (take_own(s, ln)) {
            ravel__tree_unlock(t);
            return true;
        }
        /* Every trace it found is in the set: done. */
        atomic_store_explicit(&ravel__tree_unit(t, ln->unit)->done, 1,
                              memory_order_release);
        t->units_done++;
        ln->unit = RAVEL__NONE;
        s->unit_top = 0;
    }
    s->mode = s->run_mode;
    if (t->units_mismatch) {
        snprintf(s->base.error, sizeof s->base.error,
                 "the checkpoint does not belong to this search: it was "
                 "cut into %u work units, this one into %u",
                 t->units_expect, t->nunits);
        s->base.failed = true;
        return units_over(s);
    }
    /* The heaviest unit not taken yet (cmp_units' order). */
    for (;;) {
        uint32_t i = RAVEL__NONE;
        for (uint32_t k = 0; k < t->nunits; k++) {
            struct ravel__unit *u = ravel__tree_unit(t, k);
            if (u->state != RAVEL__UNIT_OWN || u->taken)
                continue;
            if (atomic_load(&u->done)) {
                u->taken = 1;
                t->units_done++; /* done before the checkpoint it resumes */
                continue;
            }
            if (i == RAVEL__NONE || cmp_units(&k, &i, t) < 0)
                i = k;
        }
        if (i == RAVEL__NONE)
            break;
        ravel__tree_unit(t, i)->taken = 1;
        if (load_unit(s, i)) {
            if (!ln->busy) {
                ln->busy = 1;
                t->busy++;
            }
            ravel__tree_unlock(t);
            return true;
        }
        atomic_store(&ravel__tree_unit(t, i)->done, 1);
        t->units_done++;
        ln->unit = RAVEL__NONE;
        s->unit_top = 0;
    }
    t->exhausted = 1;
    return units_over(s);
}

bool ravel__systematic_units(struct ravel__strategy *base, uint32_t *made,
                             uint32_t *own, uint32_t *done)
{
    struct sys *s = (struct sys *)base;
    if (!s->units || s->t->unit_phase != RAVEL__UNITS_RUN)
        return false;
    *made = s->t->nunits;
    *own = s->t->units_own;
    *done = s->t->units_done;
    return true;
}

/*
 * Finds this lane's next branch (with the lock held on entry; released
 * on return). Returns false when the search (all bounds) is over.
 */
static bool next_branch(struct sys *s)
{
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    if (t->abandoned) {
        leave(s, ln);
        ravel__tree_unlock(t);
        return false;
    }
    if (ln->busy) {
        if (s->xlanes)
            lane_lock(ln);
        ln->committed = ln->depth;
        bool own = take_own(s, ln);
        if (s->xlanes)
            lane_unlock(ln);
        if (own || (t->nlanes > 1 &&
                    (s->xlanes ? steal_unit(s, ln) : steal(s, ln)))) {
            ravel__tree_unlock(t);
            return true;
        }
        /* Nothing here: wait for the other lanes, which may still add
         * work. */
        leave(s, ln);
    }
    for (unsigned round = 0;; round++) {
        if (t->abandoned) {
            ravel__tree_unlock(t);
            return false;
        }
        if (t->busy == 0) {
            if (t->exhausted) {
                ravel__tree_unlock(t);
                return false;
            }
            /* This bound is exhausted: the next one, if any. */
            if (s->bk != BOUND_NONE && t->bound < s->max_bound) {
                ravel__tree_clear(t);
                t->bound++;
                ln->busy = 1;
                t->busy = 1;
                ravel__tree_unlock(t);
                return true;
            }
            t->exhausted = 1;
            ravel__tree_unlock(t);
            return false;
        }
        if (t->nlanes > 1 && (s->xlanes ? steal_unit(s, ln) : steal(s, ln))) {
            ln->busy = 1;
            t->busy++;
            ravel__tree_unlock(t);
            return true;
        }
        ravel__tree_unlock(t);
        pause_briefly(round);
        ravel__tree_lock(t);
    }
}

#define LANES_COUNT(t, field) \
    ravel__tree_count(t, offsetof(struct ravel__lane, field))

static void publish_stats(struct sys *s)
{
    struct ravel__tree *t = s->t;
    fp_flush(s);
    struct ravel__explore_stats *st = s->base.stats;
    /* DPOR explores each trace once, except that a thread whose step is
     * an atomic section never sleeps: executions with such blocks are
     * counted by fingerprint. So are all executions with several lanes
     * (two lanes can now and then explore one trace each; not
     * diagnosed), and of DFS and bounded searches. */
    bool by_fp = s->mode == MODE_DFS || s->bk != BOUND_NONE || s->fingerprints;
    st->traces =
        by_fp ? atomic_load(&t->fp_count)
              : LANES_COUNT(t, complete_plain) + atomic_load(&t->fp_count);
    st->traces_inexact = 0;
    if (atomic_load(&t->fp_full)) { /* some fingerprint was not counted */
        st->traces_inexact = 1;
        if (by_fp && s->lanes_fp) {
            st->traces = LANES_COUNT(t, complete);
            st->traces_inexact = 2;
        }
    }
    st->blocked = LANES_COUNT(t, blocked);
    st->bound = t->bound;
    st->digest = by_fp ? atomic_load(&t->fp_digest) : 0;
}

/* How this search explores, for the summary (once). */
static void describe_method(struct sys *s, uint32_t lanes)
{
    static const char *const names[] = {"DFS", "source-set DPOR",
                                        "optimal DPOR"};
    struct ravel__explore_stats *st = s->base.stats;
    if (lanes > 1)
        snprintf(st->method, sizeof st->method, "%s, %u jobs",
                 names[s->run_mode], lanes);
    else
        snprintf(st->method, sizeof st->method, "%s", names[s->run_mode]);
}

/* Optimal DPOR's lanes stole work and ran blocks of several operations
 * (tree.h, lane_blocks): no proof. */
static bool lanes_unsure(struct ravel__tree *t)
{
    return atomic_load(&t->units_stolen) && atomic_load(&t->lane_blocks);
}

static bool sys_end(struct ravel__strategy *base, const struct ravel__exec *x,
                    bool blocked)
{
    struct sys *s = (struct sys *)base;
    struct ravel__tree *t = s->t;
    struct ravel__lane *ln = my_lane(s);
    if (s->debug) {
        dbg(s, "execution %llu%s:",
                (unsigned long long)LANES_COUNT(t, executions),
                blocked ? " BLOCKED" : "");
        for (uint32_t i = 0; i < ln->depth; i++) {
            const struct ravel__tnode *nd =
                ravel__tree_node(t, my_path(s)[i].node);
            uint32_t ch = my_path(s)[i].chosen;
            if (nd->nvalues)
                dbg(s, " %u:=%u", i, ch);
            else
                dbg(s, " %u:%s%s", i,
                        ch < x->nthreads ? x->threads[ch].name : "?",
                        nd->sleep ? "z" : "");
        }
        dbg(s, "\n");
        if (getenv("RAVEL_DEBUG_DPOR_EVENTS")) {
            for (uint32_t e = 0; e < x->nevents; e++) {
                const struct ravel__event *ev = &x->events[e];
                dbg(s, " %u:%s:%s(%u)%s", e, x->threads[ev->thread].name,
                    ravel__op_name(ev->kind), ev->obj,
                    ev->kind == RAVEL__OP_ATOMIC_CAS && !ev->aux ? "fail"
                                                                 : "");
            }
            dbg(s, " end %u fail %u\n", x->ended, x->failure.kind);
        }
    }
    ravel__lane_count(&ln->executions);
    ravel__lane_count(blocked ? &ln->blocked : &ln->complete);
    s->resume_upto = RAVEL__NONE; /* until take_own says otherwise */
    if (s->diverged_now) {
        /* Not the execution the tree describes: learn nothing from it. */
        s->diverged_now = false;
        s->hb_keep = 0;
        s->hb_valid = false;
        ravel__tree_lock(t);
        bool more = s->units ? units_next(s) : next_branch(s);
        /* Nor keep what it left: its snapshots may be of another
         * program state than the tree's. */
        s->resume_upto = RAVEL__NONE;
        publish_stats(s);
        if (!more && !t->abandoned)
            t->exhausted = 1; /* the search is over, not exhaustive */
        return more;
    }
    if (s->mode != MODE_DFS)
        sleep_refine(s, x); /* records the last step's outcome */

    s->multi = map_events(s, x);
    if (s->multi && s->xlanes &&
        !atomic_load_explicit(&t->lane_blocks, memory_order_relaxed))
        atomic_store(&t->lane_blocks, 1);
    if (!blocked && !s->multi)
        ravel__lane_count(&ln->complete_plain);
    /* Events before the branch this execution took were replayed. */
    s->race_from = 0;
    if (ln->prefix > 0) {
        const struct ravel__tnode *bn =
            ravel__tree_node(t, my_path(s)[ln->prefix - 1].node);
        s->race_from = bn->step;
    }
    s->nraces = 0;
    bool need_hb = s->mode != MODE_DFS || !blocked;
    int hb_ok = -1;
    /* --memory-model rc11: executions are counted by the fingerprint of
     * their graph (reads-from and modification order, src/rt/rc11.c),
     * which several traces and choices share. */
    if (x->memory_model == RAVEL__MM_RC11) {
        s->fingerprints = true;
        s->rc11 = true;
    }
    bool by_fp = s->mode == MODE_DFS || s->bk != BOUND_NONE ||
                 s->fingerprints || s->multi;
    /* The analysis keeps the clock sums the fingerprint hashes (below)
     * when it will be wanted. */
    s->hb.sums = by_fp;
    if (need_hb)
        hb_ok = ravel__hb_compute(&s->hb, x, s->hb_keep,
                                  s->mode == MODE_DFS ? NULL : collect_race,
                                  s);
    s->hb_valid = hb_ok == 0;
    s->hb_keep = 0;
    uint64_t fp = 0;
    if (hb_ok == 0 && !blocked && by_fp && !s->fp_full)
        fp = s->rc11 && x->graph_fp ? x->graph_fp
                                    : ravel__hb_fingerprint(&s->hb, x);

    /* Optimal DPOR's lanes own the nodes of their paths (steal_unit):
     * only the fingerprint set is shared, and the analysis and the next
     * branch of the lane's own path need its own lock only (against a
     * lane stealing from it), so the lanes do not wait for each other. */
    bool own_path = s->xlanes;
    bool add_fp = hb_ok == 0 && !blocked && by_fp && !s->fp_full;
    if (own_path && add_fp) {
        ln->fpbuf[ln->nfpbuf++] = fp;
        if (ln->nfpbuf == sizeof ln->fpbuf / sizeof *ln->fpbuf)
            fp_flush(s);
        add_fp = false;
    }
    if (!own_path)
        ravel__tree_lock(t);
    else
        lane_lock(ln);
    if (add_fp)
        ravel__tree_fp_add(t, fp, &s->fp_full);
    if (hb_ok == 0 && s->mode != MODE_DFS && analyse(s, x) < 0) {
        if (!own_path)
            ravel__tree_unlock(t);
        else
            lane_unlock(ln);
        snprintf(base->error, sizeof base->error,
                 "the search tree is full (too many pending wakeup "
                 "sequences)");
        base->failed = true;
        return false;
    }
    if (own_path) {
        ln->committed = ln->depth;
        bool own = !__atomic_load_n(&t->abandoned, __ATOMIC_RELAXED) &&
                   take_own(s, ln);
        lane_unlock(ln);
        if (own) {
            /* The totals read every lane's counters: now and then (the
             * progress line), and whenever the lane stops. */
            if ((++s->since_publish & 63) == 0)
                publish_stats(s);
            return true;
        }
        ravel__tree_lock(t);
    }
    bool more = s->units ? units_next(s) : next_branch(s);
    publish_stats(s);
    if (!more && !t->abandoned && !base->failed) {
        t->exhausted = 1;
        /* Not exhaustive when an execution diverged (sys_finish). */
        base->exhausted = !atomic_load(&t->diverged) &&
                          !atomic_load(&t->unfollowed) && !lanes_unsure(t);
        base->stats->complete = base->exhausted;
    }
    return more;
}

/* --memory-model rc11 counts execution graphs, not traces: says so in
 * the guarantee (every " traces" becomes " execution graphs"). */
static void rc11_words(char *g, size_t n)
{
    char out[sizeof ((struct ravel__explore_stats *)0)->guarantee];
    size_t o = 0;
    for (const char *p = g; *p && o + 1 < sizeof out;) {
        if (!strncmp(p, " traces", 7)) {
            int k = snprintf(out + o, sizeof out - o, " execution graphs");
            o = k < 0 ? o : o + (size_t)k;
            if (o >= sizeof out)
                o = sizeof out - 1;
            p += 7;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = 0;
    snprintf(g, n, "%s", out);
}

static void sys_finish(struct ravel__strategy *base)
{
    struct sys *s = (struct sys *)base;
    struct ravel__explore_stats *st = base->stats;
    publish_stats(s);
    const char *what = s->mode == MODE_DFS ? "DFS" : "DPOR";
    int32_t bound = s->t->bound;
    char shard[48] = "";
    if (s->shards > 1)
        snprintf(shard, sizeof shard, "shard %u/%u: ", s->shard + 1,
                 s->shards);
    const char *bname =
        s->bk == BOUND_PREEMPTION ? "preemption" : "delay";
    uint32_t made = 0, own = 0, done = 0;
    bool units = ravel__systematic_units(base, &made, &own, &done);
    if (s->t->exhausted && s->bk == BOUND_NONE && s->shards > 1 && units)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%sexhausted: all %" PRIu64 " traces of this shard's %u "
                 "work unit%s of %u (with the other %u shard%s: every trace)",
                 shard, st->traces, own, own == 1 ? "" : "s", made,
                 s->shards - 1, s->shards > 2 ? "s" : "");
    else if (s->t->exhausted && s->bk == BOUND_NONE && s->shards > 1)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%sexhausted: all %" PRIu64 " traces of this shard (with "
                 "the other %u shard%s: every trace)",
                 shard, st->traces, s->shards - 1, s->shards > 2 ? "s" : "");
    else if (s->t->exhausted && s->bk == BOUND_NONE && st->traces_inexact)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "exhausted: all traces%s (%s %" PRIu64 ": more than the "
                 "trace-fingerprint set holds%s)",
                 s->mode == MODE_DFS ? ", every interleaving tried" : "",
                 st->traces_inexact == 1 ? "at least" : "about",
                 st->traces,
                 st->traces_inexact == 1 ? ""
                                         : "; counted per execution, and "
                                           "lanes can count one twice");
    else if (s->t->exhausted && s->bk == BOUND_NONE)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "exhausted: all %" PRIu64 " traces%s", st->traces,
                 s->mode == MODE_DFS ? " (every interleaving tried)" : "");
    else if (s->t->exhausted)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s bound %d exhausted: all %" PRIu64
                 " traces with at most %d %ss",
                 bname, bound, st->traces, bound, bname);
    else if (s->bk != BOUND_NONE && bound > 0)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s bound %d exhausted (bound %d not finished): %" PRIu64
                 " traces",
                 bname, bound - 1, bound, st->traces);
    else if (units)
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s%s stopped before exhausting the space: %" PRIu64
                 " traces explored, %u of %u work units done",
                 shard, what, st->traces, done, own);
    else
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s%s stopped before exhausting the space: %" PRIu64
                 " traces explored",
                 shard, what, st->traces);
    st->complete = s->t->exhausted;
    uint64_t dv = atomic_load(&s->t->diverged);
    if (dv) {
        /* No promise of every trace: some branches were never run. */
        snprintf(st->guarantee, sizeof st->guarantee,
                 "%s explored %" PRIu64 " traces, not all: %" PRIu64
                 " execution%s did not repeat the recorded schedule (first "
                 "at step %u: the program depends on something ravel does "
                 "not control, such as input or addresses) and %s abandoned",
                 what, st->traces, dv, dv == 1 ? "" : "s",
                 s->t->diverged_step, dv == 1 ? "was" : "were");
        st->complete = 0;
    }
    uint64_t uf = atomic_load(&s->t->unfollowed);
    if (uf && !dv && s->t->exhausted) {
        snprintf(st->guarantee, sizeof st->guarantee,
                 "optimal DPOR explored %" PRIu64 " traces, not a proof "
                 "of all: %" PRIu64 " reversal%s through a semaphore wait "
                 "could not be followed (another post might serve the "
                 "wait); --dpor-mode source covers them",
                 st->traces, uf, uf == 1 ? "" : "s");
        st->complete = 0;
    }
    if (lanes_unsure(s->t) && !uf && !dv && s->t->exhausted) {
        snprintf(st->guarantee, sizeof st->guarantee,
                 "optimal DPOR on %u lanes explored %" PRIu64 " traces, not "
                 "a proof of all: with atomic sections, lanes that share "
                 "the search were seen to miss traces (tests/oracle/open); "
                 "--jobs 1 or --dpor-mode source covers them",
                 s->t->nlanes, st->traces);
        st->complete = 0;
    }
    if (ravel__depend_rc11 || s->rc11)
        rc11_words(st->guarantee, sizeof st->guarantee);
    if (s->debug && s->wut_misses)
        dbg(s, "wakeup steps not replayable: %llu\n",
                (unsigned long long)s->wut_misses);
}

static void sys_destroy(struct ravel__strategy *base)
{
    struct sys *s = (struct sys *)base;
    ravel__hb_free(&s->hb);
    ravel__wseq_free(&s->v);
    free(s->ev_pidx);
    free(s->blk_first);
    free(s->blk_last);
    free(s->ev_value);
    free(s->ev_vidx);
    free(s->ev_vn);
    free(s->ev_waits);
    free(s->thr_ev);
    free(s->races);
    free(s->xsleep);
    free(s);
}

/* Before this process's first execution: a lane other than 0 starting
 * afresh waits for the tree, then for a branch to take. */
static bool sys_start(struct ravel__strategy *base)
{
    struct sys *s = (struct sys *)base;
    struct ravel__tree *t = s->t;
    for (unsigned round = 0; !ravel__tree_valid(t); round++)
        pause_briefly(round);
    struct ravel__lane *ln = my_lane(s);
    if (s->units && t->unit_phase == RAVEL__UNITS_RUN) {
        /* A new executor of a lane (the last one crashed) goes on with
         * the lane's unit, as the units are explored. */
        s->mode = s->run_mode;
        if (ln->unit != RAVEL__NONE)
            s->unit_top = ravel__tree_unit(t, ln->unit)->len;
    }
    if (s->xlanes)
        s->unit_top = ln->xtop; /* the same for a stolen branch */
    if (ln->busy)
        return true; /* lane 0, or resuming a lane that had work */
    ravel__tree_lock(t);
    bool more = s->units ? units_next(s) : next_branch(s);
    s->resume_upto = RAVEL__NONE; /* a new executor keeps nothing */
    publish_stats(s);
    /* Not exhaustive when an execution diverged (sys_end, sys_finish):
     * a lane that finds the tree empty must not claim more than the
     * lane that ended the search. */
    if (!more && !t->abandoned)
        base->exhausted = !atomic_load(&t->diverged) &&
                          !atomic_load(&t->unfollowed) && !lanes_unsure(t);
    return more;
}

/*
 * Snapshots (src/rt/process/resume.c). A snapshot taken before choice c
 * holds for a later execution whose path has the same nodes down to c
 * and the same choices before it: exactly while every branch taken
 * since was at c or deeper on this lane's own path (take_own). The
 * runtime drops the deeper ones at each execution's start (sys_kept);
 * the node before c, kept in the ident, is checked again. Resuming at c
 * sets what replaying choices 0 .. c-1 would have left (sys_choose_thread,
 * sys_choose_value): the cursor, the cost of the bound so far and node
 * c's sleep set, which its replay would have read (replayed_sleep).
 */
static uint32_t sys_here(struct ravel__strategy *base, uint64_t *ident)
{
    struct sys *s = (struct sys *)base;
    uint32_t c = s->cursor;
    if (c == 0 || c >= s->t->path_cap || c > my_lane(s)->depth ||
        s->diverged_now)
        return RAVEL__NONE;
    *ident = my_path(s)[c - 1].node;
    return c;
}

static uint32_t sys_kept(struct ravel__strategy *base, uint32_t *at,
                         bool *more)
{
    struct sys *s = (struct sys *)base;
    uint32_t c = s->resume_upto;
    if (c != RAVEL__NONE) {
        const struct ravel__tnode *nd =
            ravel__tree_node(s->t, my_path(s)[c].node);
        *at = nd->step;
        *more = has_pending(nd);
    }
    return c;
}

static bool sys_resume(struct ravel__strategy *base, uint32_t cursor,
                       uint64_t ident)
{
    struct sys *s = (struct sys *)base;
    struct ravel__lane *ln = my_lane(s);
    const struct ravel__pathent *path = my_path(s);
    if (s->resume_upto == RAVEL__NONE || cursor == 0 ||
        cursor > s->resume_upto || cursor + 1 > ln->prefix ||
        path[cursor - 1].node != ident)
        return false;
    const struct ravel__tnode *nd = ravel__tree_node(s->t, path[cursor].node);
    if (nd->nvalues)
        return false; /* snapshots are taken at thread choices */
    if (s->debug)
        dbg(s, "resume at %u (prefix %u, upto %u)\n", cursor, ln->prefix,
            s->resume_upto);
    s->cursor = cursor;
    s->cost = nd->cost;
    s->next_sleep = nd->sleep;
    s->next_read = nd->sleep_read;
    s->settled = RAVEL__NONE;
    return true;
}

static const struct ravel__strategy_ops dfs_ops = {
    "dfs",   sys_begin,  sys_choose_thread, sys_choose_value,
    sys_end, sys_finish, sys_destroy,       sys_start,
    sys_abandon, sys_here, sys_kept, sys_resume,
};

static const struct ravel__strategy_ops dpor_ops = {
    "dpor",  sys_begin,  sys_choose_thread, sys_choose_value,
    sys_end, sys_finish, sys_destroy,       sys_start,
    sys_abandon, sys_here, sys_kept, sys_resume,
};

struct ravel__strategy *ravel__systematic_new(
    const struct ravel__strategy_config *c, bool dpor)
{
    if (!c->shared)
        return NULL;
    struct sys *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->base.ops = dpor ? &dpor_ops : &dfs_ops;
    s->base.stats = c->stats;
    s->fingerprints = c->fingerprints;
    const char *dbg = getenv("RAVEL_DEBUG_DPOR");
    s->debug = dbg != NULL;
    if (dbg && dbg[0] == '/')
        snprintf(s->debug_path, sizeof s->debug_path, "%s.lane%u", dbg,
                 c->lane);
    s->lane = c->lane;
    s->resume_upto = RAVEL__NONE;
    ravel__tree_use_lane(c->lane);
    s->shard = c->shard;
    s->shards = c->shards;
    if (c->preemption_bound >= 0) {
        s->bk = BOUND_PREEMPTION;
        s->max_bound = c->preemption_bound;
    } else if (c->delay_bound >= 0) {
        s->bk = BOUND_DELAY;
        s->max_bound = c->delay_bound;
    }
    /* Optimal DPOR under --memory-model tso explored 2 of the 4 traces
     * of store buffering (relaxed.litmus, once optimal DPOR's lanes were
     * really optimal: with two lanes it used to fall back to source
     * sets, and with one it printed "exhausted" falsely). Not diagnosed:
     * tso uses source sets. */
    bool optimal = dpor && s->bk == BOUND_NONE && !ravel__depend_tso &&
                   !(c->dpor_mode && !strcmp(c->dpor_mode, "source"));
    /* Units (--shard, --checkpoint) are explored one after the other on
     * one lane, and counted by fingerprint (two units can explore one
     * trace). So are the branches optimal DPOR's lanes steal from each
     * other (steal_unit). */
    s->units = c->units && c->lanes <= 1;
    s->xlanes = optimal && c->lanes > 1 && !c->units;
    s->units_per_shard = c->units_per_shard ? c->units_per_shard : 1;
    if (s->units || s->xlanes)
        s->fingerprints = true;
    /* Bounds use source sets (a wakeup sequence could exceed the
     * bound). */
    if (!dpor)
        s->mode = MODE_DFS;
    else if (!optimal)
        s->mode = MODE_SOURCE;
    else
        s->mode = MODE_OPTIMAL;
    s->run_mode = s->mode;
    if (s->units && s->mode == MODE_OPTIMAL)
        s->mode = MODE_SOURCE; /* until the split is over (deal_units) */
    /* Several lanes count traces by fingerprint: now and then two of
     * them explore one trace (docs/limits.md). */
    if (c->lanes > 1 && !s->fingerprints && s->mode != MODE_DFS) {
        s->fingerprints = true;
        s->lanes_fp = true;
    }
    struct ravel__tree *t = c->shared;
    if (c->lane == 0 && !(c->resume && ravel__tree_valid(t))) {
        /* Lane 0 lays out the tree and starts at the root; the other
         * lanes wait for branches to take (sys_start). */
        t = ravel__tree_init(c->shared, c->shared_size, c->max_steps,
                             c->lanes);
        if (!t) {
            free(s);
            return NULL;
        }
        if (s->bk != BOUND_NONE)
            t->bound = 0;
        t->private_nodes = s->xlanes;
        if (s->units) {
            t->unit_phase = RAVEL__UNITS_SPLIT;
            /* Resuming: what the checkpoint says was explored. */
            bool full = false;
            for (size_t i = 0; i < c->nresume_fps; i++)
                ravel__tree_fp_add(t, c->resume_fps[i], &full);
            for (uint32_t i = 0; i < c->nresume_done; i++)
                if (c->resume_done[i] < t->units_cap)
                    atomic_store(&ravel__tree_unit(t, c->resume_done[i])->done,
                                 1);
            t->units_expect = c->resume_units;
        }
        ravel__tree_lane(t, 0)->busy = 1;
        t->busy = 1;
        ravel__tree_publish(t);
    }
    s->t = t;
    c->stats->bound = t->bound;
    describe_method(s, c->lanes);
    return &s->base;
}
