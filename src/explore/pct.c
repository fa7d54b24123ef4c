/*
 * pct.c - probabilistic concurrency testing (Burckhardt, Kothari,
 * Musuvathi, Nagarakatte, ASPLOS 2010).
 *
 * Each execution gives every thread a random priority when it first
 * appears, all of them above d, and picks d-1 change points uniformly
 * among the k steps an execution takes. At every scheduling point the
 * enabled thread with the highest priority runs; at the i-th change point
 * the running thread drops to priority i. A bug of depth d (d ordering
 * constraints between operations) is found by one execution with
 * probability at least 1/(n k^(d-1)) for n threads; after R executions it
 * is missed with probability at most (1 - 1/(n k^(d-1)))^R, which the
 * summary reports. n and k are measured: the largest thread count and step
 * count seen so far (the first execution measures them).
 */
#include "strategy.h"

#include "../common/prng.h"
#include "traces.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHANGE 32

struct pct {
    struct ravel__strategy base;
    uint64_t seed;
    uint32_t depth;
    uint32_t n_est;
    uint64_t k_est;
    uint64_t runs;
    struct ravel__prng prng;
    uint64_t change[MAX_CHANGE]; /* steps where the running thread drops */
    uint32_t nchange;
    uint64_t prio[RAVEL__MAX_THREADS]; /* 0: not assigned yet */
    struct ravel__traces traces;
};

static void pct_begin(struct ravel__strategy *base, uint64_t number)
{
    struct pct *p = (struct pct *)base;
    ravel__prng_seed(&p->prng, p->seed, number);
    memset(p->prio, 0, sizeof p->prio);
    p->nchange = 0;
    uint64_t k = p->k_est ? p->k_est : 1;
    for (uint32_t i = 0; i + 1 < p->depth && i < MAX_CHANGE; i++)
        p->change[p->nchange++] = 1 + ravel__prng_below(&p->prng, k);
}

static uint64_t priority(struct pct *p, uint32_t t)
{
    if (!p->prio[t])
        p->prio[t] = (uint64_t)p->depth + 1 +
                     (ravel__prng_next(&p->prng) >> 2); /* distinct w.h.p. */
    return p->prio[t];
}

static uint32_t pct_choose_thread(struct ravel__strategy *base,
                                  const struct ravel__exec *x,
                                  const uint32_t *enabled, uint32_t n,
                                  uint32_t current)
{
    struct pct *p = (struct pct *)base;
    uint64_t step = x->nevents;
    for (uint32_t i = 0; i < p->nchange; i++)
        if (p->change[i] == step && current < RAVEL__MAX_THREADS)
            p->prio[current] = i + 1; /* below every initial priority */
    uint32_t best = 0;
    uint64_t bestp = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t pr = priority(p, enabled[i]);
        if (pr > bestp) {
            bestp = pr;
            best = i;
        }
    }
    return best;
}

static uint32_t pct_choose_value(struct ravel__strategy *base,
                                 const struct ravel__exec *x, uint32_t n)
{
    struct pct *p = (struct pct *)base;
    return (uint32_t)ravel__prng_below(&p->prng, n);
}

static bool pct_end(struct ravel__strategy *base, const struct ravel__exec *x,
                    bool blocked)
{
    struct pct *p = (struct pct *)base;
    p->runs++;
    if (x->nevents > p->k_est)
        p->k_est = x->nevents;
    if (x->nthreads > p->n_est)
        p->n_est = x->nthreads;
    if (blocked) {
        base->stats->blocked++;
    } else {
        ravel__traces_add(&p->traces, x);
        base->stats->traces = p->traces.n;
    }
    if (x->choice_points == 0 && x->number == 0 && !blocked) {
        base->exhausted = true;
        base->stats->complete = 1;
        return false;
    }
    return true;
}

/* Probability that R runs all miss a depth-d bug. */
static double miss_probability(const struct pct *p)
{
    if (p->runs == 0)
        return 1; /* nothing ran: nothing is promised */
    double n = p->n_est ? p->n_est : 1;
    double k = p->k_est ? (double)p->k_est : 1;
    double hit = 1.0 / (n * pow(k, (double)p->depth - 1));
    if (hit >= 1)
        return 0;
    return exp((double)p->runs * log1p(-hit));
}

static void pct_finish(struct ravel__strategy *base)
{
    struct pct *p = (struct pct *)base;
    if (base->exhausted) {
        snprintf(base->stats->guarantee, sizeof base->stats->guarantee,
                 "exhausted: the program has a single schedule");
        return;
    }
    if (p->runs == 0) { /* nothing ran: nothing is promised */
        base->stats->guarantee[0] = 0;
        return;
    }
    if (ravel__depend_rc11) {
        /* The bound is over schedules; a weak-memory bug also needs its
         * reads-from and placement choices, which are sampled with the
         * probabilities src/rt/rc11.c gives them, not covered by it. */
        snprintf(base->stats->guarantee, sizeof base->stats->guarantee,
                 "PCT d=%u, %llu runs (n=%u threads, k=%llu steps): no "
                 "miss-probability bound under --memory-model rc11 (its "
                 "reads-from choices are sampled, not covered by PCT's "
                 "bound)",
                 p->depth, (unsigned long long)p->runs, p->n_est,
                 (unsigned long long)p->k_est);
        return;
    }
    snprintf(base->stats->guarantee, sizeof base->stats->guarantee,
             "PCT d=%u, %llu runs (n=%u threads, k=%llu steps): a depth-%u "
             "bug is missed with probability below %.3g",
             p->depth, (unsigned long long)p->runs, p->n_est,
             (unsigned long long)p->k_est, p->depth, miss_probability(p));
}

static void pct_destroy(struct ravel__strategy *base)
{
    struct pct *p = (struct pct *)base;
    ravel__traces_free(&p->traces);
    free(p);
}

static const struct ravel__strategy_ops pct_ops = {
    "pct",   pct_begin,  pct_choose_thread, pct_choose_value,
    pct_end, pct_finish, pct_destroy,       NULL,
    NULL,
    NULL, NULL, NULL,
};

struct ravel__strategy *ravel__pct_new(const struct ravel__strategy_config *c)
{
    struct pct *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->base.ops = &pct_ops;
    p->base.stats = c->stats;
    p->base.wake_spins = true;
    p->seed = c->seed;
    p->traces.one_run = c->executions == 1;
    p->depth = c->pct_depth ? c->pct_depth : 3;
    if (p->depth > MAX_CHANGE)
        p->depth = MAX_CHANGE;
    c->stats->bound = -1;
    return &p->base;
}
