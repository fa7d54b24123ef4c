/*
 * random.c - the random strategy: at every scheduling point, choose
 * uniformly among the enabled threads with a seeded PRNG (PULSE).
 *
 * Each execution draws from its own stream, seeded by (run seed, execution
 * number), so execution k is reproducible on its own, and a run that was
 * interrupted by a crash resumes at k+1 with exactly the schedules the
 * uninterrupted run would have used. No random number is drawn when only
 * one thread is enabled, which keeps schedules of deterministic stretches
 * from consuming the stream.
 *
 * If an execution never had a real choice (one thread enabled at every
 * point, no data choice), every execution of a deterministic program is
 * the same; the strategy then reports the space exhausted after one.
 * Random scheduling promises nothing; the summary says how many distinct
 * traces it saw.
 */
#include "strategy.h"

#include "../common/prng.h"
#include "traces.h"

#include <stdio.h>
#include <stdlib.h>

struct random_strategy {
    struct ravel__strategy base;
    uint64_t seed;
    uint64_t executions;
    struct ravel__prng prng;
    struct ravel__traces traces;
};

static void random_begin(struct ravel__strategy *s, uint64_t number)
{
    struct random_strategy *r = (struct random_strategy *)s;
    ravel__prng_seed(&r->prng, r->seed, number);
}

static uint32_t random_choose_thread(struct ravel__strategy *s,
                                     const struct ravel__exec *x,
                                     const uint32_t *enabled, uint32_t n,
                                     uint32_t current)
{
    struct random_strategy *r = (struct random_strategy *)s;
    if (n == 1)
        return 0;
    return (uint32_t)ravel__prng_below(&r->prng, n);
}

static uint32_t random_choose_value(struct ravel__strategy *s,
                                    const struct ravel__exec *x, uint32_t n)
{
    struct random_strategy *r = (struct random_strategy *)s;
    return (uint32_t)ravel__prng_below(&r->prng, n);
}

static bool random_end(struct ravel__strategy *s, const struct ravel__exec *x,
                       bool blocked)
{
    struct random_strategy *r = (struct random_strategy *)s;
    r->executions++;
    if (blocked) {
        s->stats->blocked++;
    } else {
        ravel__traces_add(&r->traces, x);
        s->stats->traces = r->traces.n;
    }
    if (x->choice_points == 0 && x->number == 0 && !blocked) {
        s->exhausted = true;
        s->stats->complete = 1;
        return false;
    }
    return true;
}

static void random_finish(struct ravel__strategy *s)
{
    struct random_strategy *r = (struct random_strategy *)s;
    if (s->exhausted)
        snprintf(s->stats->guarantee, sizeof s->stats->guarantee,
                 "exhausted: the program has a single schedule");
    else
        snprintf(s->stats->guarantee, sizeof s->stats->guarantee,
                 "random: %llu distinct %s%s seen, no coverage guarantee",
                 (unsigned long long)r->traces.n,
                 /* --memory-model rc11 counts graphs (traces.c) */
                 ravel__depend_rc11 ? "execution graph" : "trace",
                 r->traces.n == 1 ? "" : "s");
}

static void random_destroy(struct ravel__strategy *s)
{
    struct random_strategy *r = (struct random_strategy *)s;
    ravel__traces_free(&r->traces);
    free(s);
}

static const struct ravel__strategy_ops random_ops = {
    "random",   random_begin,  random_choose_thread, random_choose_value,
    random_end, random_finish, random_destroy,       NULL,
    NULL,
    NULL, NULL, NULL,
};

struct ravel__strategy *ravel__random_new(const struct ravel__strategy_config *c)
{
    struct random_strategy *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->base.ops = &random_ops;
    r->base.stats = c->stats;
    r->base.wake_spins = true;
    r->seed = c->seed;
    r->traces.one_run = c->executions == 1;
    c->stats->bound = -1;
    return &r->base;
}
