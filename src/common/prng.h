/*
 * prng.h - the seeded pseudo-random generator behind every random choice.
 *
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64. It is fast,
 * has 256 bits of state, and - what matters most here - is fully specified,
 * so a seed means the same schedule on every machine and every build.
 * Each execution gets its own stream derived from (run seed, execution
 * number), so execution k can be reproduced without running 1..k-1.
 */
#ifndef RAVEL_PRNG_H
#define RAVEL_PRNG_H

#include "common.h"

struct ravel__prng {
    uint64_t s[4];
};

/* Seeds the generator from a 64-bit seed and a stream number. */
void ravel__prng_seed(struct ravel__prng *r, uint64_t seed, uint64_t stream);
uint64_t ravel__prng_next(struct ravel__prng *r);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t ravel__prng_below(struct ravel__prng *r, uint64_t n);

#endif
