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
 */
#include "strategy.h"

#include "../common/prng.h"

#include <stdlib.h>

struct random_strategy {
    struct ravel__strategy base;
    uint64_t seed;
    struct ravel__prng prng;
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

static bool random_end(struct ravel__strategy *s, const struct ravel__exec *x)
{
    if (x->choice_points == 0 && x->number == 0) {
        s->exhausted = true;
        return false;
    }
    return true;
}

static void random_destroy(struct ravel__strategy *s)
{
    free(s);
}

static const struct ravel__strategy_ops random_ops = {
    "random",           random_begin, random_choose_thread,
    random_choose_value, random_end,  random_destroy,
};

struct ravel__strategy *ravel__random_new(uint64_t seed)
{
    struct random_strategy *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->base.ops = &random_ops;
    r->seed = seed;
    return &r->base;
}
