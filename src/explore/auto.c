/*
 * auto.c - the default strategy: DPOR while the space fits the budget,
 * then PCT.
 *
 * DPOR gives the strongest promise (every trace explored) when the program
 * is small enough; when it is not, half the budget (executions or time) is
 * spent on DPOR and the rest on PCT at depth 3, whose promise is
 * probabilistic. With no budget at all, DPOR runs until done. The summary
 * says which promise the run ended with.
 *
 * `--strategy dpor` and `--strategy dfs` are this strategy with the
 * budget rule off (ravel__fallback_new): the systematic search runs to
 * its end with the bounds asked for, and only an execution with more
 * threads than the search can hold (64) switches the run to PCT, with
 * the same one line of why in the guarantee, instead of stopping it.
 */
#include "strategy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct autos {
    struct ravel__strategy base;
    struct ravel__strategy *dpor, *pct;
    struct ravel__explore_stats dpor_stats, pct_stats;
    bool switched;
    bool midway; /* this lane switched in the middle of an execution */
    bool fallback_only; /* --strategy dpor/dfs: switch only at 65 threads */
    const char *what;   /* "auto", "DPOR", "DFS": who switched */
    uint32_t lane; /* lanes (--jobs): only lane 0 goes on with PCT */
    uint64_t budget;
    double time_budget, start;
    uint64_t dpor_execs, pct_execs;
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static struct ravel__strategy *active(struct autos *a)
{
    return a->switched ? a->pct : a->dpor;
}

static void auto_begin(struct ravel__strategy *base, uint64_t number)
{
    struct autos *a = (struct autos *)base;
    base->wake_spins = a->switched;
    active(a)->ops->begin(active(a), number);
}

/*
 * DPOR's dependency bitsets hold 64 threads. An execution that creates
 * more switches the run to PCT on the spot: this execution goes on under
 * PCT (no execution is lost), DPOR's search ends on every lane, and only
 * lane 0 goes on with PCT. The summary's guarantee line says why.
 */
#define DPOR_MAX_THREADS 64

/* Out of line: inlined, its buffer and calls made every thread choice
 * (below) save six registers and a frame, a third of fib_bench's cost
 * of this wrapper. */
static __attribute__((noinline)) void
switch_midway(struct autos *a, const struct ravel__exec *x)
{
    char why[160];
    snprintf(why, sizeof why,
             "an execution created %u threads, more than DPOR's %d",
             x->nthreads, DPOR_MAX_THREADS);
    ravel__systematic_abandon(a->dpor, why);
    a->switched = true;
    a->midway = true;
    a->base.wake_spins = true;
    a->pct->ops->begin(a->pct, x->number);
}

static uint32_t auto_choose_thread(struct ravel__strategy *base,
                                   const struct ravel__exec *x,
                                   const uint32_t *enabled, uint32_t n,
                                   uint32_t current)
{
    struct autos *a = (struct autos *)base;
    if (!a->switched && x->nthreads > DPOR_MAX_THREADS)
        switch_midway(a, x);
    struct ravel__strategy *s = active(a);
    uint32_t r = s->ops->choose_thread(s, x, enabled, n, current);
    if (r == RAVEL__CHOICE_ERROR)
        memcpy(base->error, s->error, sizeof base->error);
    return r;
}

static uint32_t auto_choose_value(struct ravel__strategy *base,
                                  const struct ravel__exec *x, uint32_t n)
{
    struct autos *a = (struct autos *)base;
    struct ravel__strategy *s = active(a);
    uint32_t r = s->ops->choose_value(s, x, n);
    if (r == RAVEL__CHOICE_ERROR)
        memcpy(base->error, s->error, sizeof base->error);
    return r;
}

static void merge_stats(struct autos *a)
{
    struct ravel__explore_stats *st = a->base.stats;
    if (a->fallback_only && !a->switched) {
        /* The search's own figures, digest, bound; not its guarantee,
         * written only when it finishes (auto_finish copies it): copying
         * the whole struct was 430 bytes an execution. */
        const struct ravel__explore_stats *d = &a->dpor_stats;
        st->traces = d->traces;
        st->blocked = d->blocked;
        st->bound = d->bound;
        st->digest = d->digest;
        st->complete = d->complete;
        st->traces_inexact = d->traces_inexact;
        memcpy(st->method, d->method, sizeof st->method);
        return;
    }
    st->traces = a->dpor_stats.traces + a->pct_stats.traces;
    st->blocked = a->dpor_stats.blocked + a->pct_stats.blocked;
    st->bound = -1;
    snprintf(st->method, sizeof st->method, "%s",
             a->switched && a->pct_execs ? "PCT after DPOR"
                                           : a->dpor_stats.method);
}

static bool auto_end(struct ravel__strategy *base, const struct ravel__exec *x,
                     bool blocked)
{
    struct autos *a = (struct autos *)base;
    bool more;
    if (!a->switched) {
        a->dpor_execs++;
        more = a->dpor->ops->end(a->dpor, x, blocked);
        merge_stats(a);
        if (a->dpor->failed) {
            memcpy(base->error, a->dpor->error, sizeof base->error);
            base->failed = true;
            return false;
        }
        if (!more && a->dpor->exhausted) {
            base->exhausted = true;
            base->stats->complete = 1;
            return false;
        }
        if (a->fallback_only)
            return more;
        if (!more && ravel__systematic_diverged(a->dpor))
            return false; /* DPOR's search is over, not exhaustive */
        /* Half the budget, counted over all lanes (execution numbers
         * are). */
        bool half_execs = a->budget && (x->number + 1) * 2 >= a->budget;
        bool half_time =
            a->time_budget > 0 && now() - a->start >= a->time_budget / 2;
        if (more && !half_execs && !half_time)
            return true;
        /* Time for PCT (decided here, or by another lane, which made DPOR
         * stop): lane 0 runs it, the other lanes end. */
        ravel__systematic_abandon(a->dpor, NULL);
        a->switched = true;
        merge_stats(a);
        return a->lane == 0;
    }
    a->pct_execs++;
    more = a->pct->ops->end(a->pct, x, blocked);
    merge_stats(a);
    if (!more)
        base->exhausted = true;
    /* A lane that switched midway finished its execution under PCT; lane
     * 0 runs the rest. */
    return more && a->lane == 0;
}

static void auto_finish(struct ravel__strategy *base)
{
    struct autos *a = (struct autos *)base;
    a->dpor->ops->finish(a->dpor);
    const char *why = ravel__systematic_abandoned_why(a->dpor);
    /* Switched for the budget but no PCT run followed (the run was
     * interrupted): DPOR's figures are all there is to say. */
    if (!a->switched || (a->pct_execs == 0 && !why[0])) {
        snprintf(base->stats->guarantee, sizeof base->stats->guarantee,
                 "%s", a->dpor_stats.guarantee);
        base->stats->complete = a->dpor_stats.complete;
        return;
    }
    a->pct->ops->finish(a->pct);
    char first[120];
    if (why[0])
        snprintf(first, sizeof first, "%s switched to PCT: %s", a->what,
                 why);
    else
        snprintf(first, sizeof first,
                 "DPOR did not finish in half the budget (%llu traces)",
                 (unsigned long long)a->dpor_stats.traces);
    /* No guarantee for PCT runs that did not happen. */
    snprintf(base->stats->guarantee, sizeof base->stats->guarantee,
             "%s; then %.190s", first,
             a->pct_stats.guarantee[0] ? a->pct_stats.guarantee
                                       : "no PCT execution ran");
    base->stats->complete = 0;
}

static void auto_destroy(struct ravel__strategy *base)
{
    struct autos *a = (struct autos *)base;
    a->dpor->ops->destroy(a->dpor);
    a->pct->ops->destroy(a->pct);
    free(a);
}

static bool auto_start(struct ravel__strategy *base)
{
    struct autos *a = (struct autos *)base;
    if (a->dpor->ops->start(a->dpor))
        return true;
    merge_stats(a);
    base->exhausted = a->dpor->exhausted;
    base->stats->complete = a->dpor_stats.complete;
    if (!a->dpor->exhausted && a->lane == 0 &&
        (!a->fallback_only || ravel__systematic_abandoned_why(a->dpor)[0])) {
        a->switched = true; /* another lane switched to PCT */
        return true;
    }
    return false;
}

/* Interrupted: the DPOR part gives up its branch (PCT has nothing
 * shared to give up). */
static void auto_abandon(struct ravel__strategy *base)
{
    struct autos *a = (struct autos *)base;
    if (!a->switched)
        ravel__systematic_abandon(a->dpor, NULL);
}

/* Snapshots (strategy.h): DPOR's, until the switch; PCT has none. */
static uint32_t auto_here(struct ravel__strategy *base, uint64_t *ident)
{
    struct autos *a = (struct autos *)base;
    return a->switched ? RAVEL__NONE : a->dpor->ops->here(a->dpor, ident);
}

static uint32_t auto_kept(struct ravel__strategy *base, uint32_t *at,
                          bool *more)
{
    struct autos *a = (struct autos *)base;
    return a->switched ? RAVEL__NONE : a->dpor->ops->kept(a->dpor, at, more);
}

static bool auto_resume(struct ravel__strategy *base, uint32_t cursor,
                        uint64_t ident)
{
    struct autos *a = (struct autos *)base;
    return !a->switched && a->dpor->ops->resume(a->dpor, cursor, ident);
}

static const struct ravel__strategy_ops auto_ops = {
    "auto",   auto_begin,  auto_choose_thread, auto_choose_value,
    auto_end, auto_finish, auto_destroy,       auto_start,
    auto_abandon, auto_here, auto_kept, auto_resume,
};

static struct ravel__strategy *make(const struct ravel__strategy_config *c,
                                    bool fallback_only, bool dpor)
{
    struct autos *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    struct ravel__strategy_config dc = *c, pc = *c;
    dc.stats = &a->dpor_stats;
    if (!fallback_only)
        dc.preemption_bound = dc.delay_bound = -1;
    pc.stats = &a->pct_stats;
    pc.pct_depth = c->pct_depth ? c->pct_depth : 3;
    pc.preemption_bound = pc.delay_bound = -1;
    a->fallback_only = fallback_only;
    a->what = !fallback_only ? "auto" : dpor ? "DPOR" : "DFS";
    a->dpor = ravel__systematic_new(&dc, dpor);
    a->pct = ravel__pct_new(&pc);
    if (!a->dpor || !a->pct) {
        if (a->dpor)
            a->dpor->ops->destroy(a->dpor);
        if (a->pct)
            a->pct->ops->destroy(a->pct);
        free(a);
        return NULL;
    }
    a->base.ops = &auto_ops;
    a->base.stats = c->stats;
    a->budget = c->executions;
    a->lane = c->lane;
    a->time_budget = c->time;
    a->start = now();
    c->stats->bound = -1;
    if (fallback_only)
        *c->stats = a->dpor_stats;
    return &a->base;
}

struct ravel__strategy *ravel__auto_new(const struct ravel__strategy_config *c)
{
    return make(c, false, true);
}

struct ravel__strategy *ravel__fallback_new(
    const struct ravel__strategy_config *c, bool dpor)
{
    return make(c, true, dpor);
}
