/*
 * strategy.h - the one interface every exploration strategy implements.
 *
 * A strategy is asked three things: at the start of each execution to get
 * ready, at each scheduling point which enabled thread runs next (and, at a
 * data choice, which value), and at the end whether another execution
 * should follow. Random, replay - and later PCT, bounded DFS and DPOR -
 * plug in through this table, so they run on the same programs and report
 * comparable figures (docs/architecture.md, "Strategies").
 */
#ifndef RAVEL_STRATEGY_H
#define RAVEL_STRATEGY_H

#include "../model/model.h"
#include "ticket.h"

struct ravel__strategy;

struct ravel__strategy_ops {
    const char *name;
    /* Prepares execution `number` (0-based). */
    void (*begin)(struct ravel__strategy *s, uint64_t number);
    /*
     * Chooses the thread to run among enabled[0..n) (n >= 1, creation
     * order); `current` is the thread that reached the scheduling point.
     * Returns an index into enabled, or RAVEL__NONE when the strategy
     * cannot continue (a replay that diverged; see `error`).
     */
    uint32_t (*choose_thread)(struct ravel__strategy *s,
                              const struct ravel__exec *x,
                              const uint32_t *enabled, uint32_t n,
                              uint32_t current);
    /* Chooses a value in [0, n) (n >= 2); RAVEL__NONE as above. */
    uint32_t (*choose_value)(struct ravel__strategy *s,
                             const struct ravel__exec *x, uint32_t n);
    /* The execution ended; returns true when another one should run. */
    bool (*end)(struct ravel__strategy *s, const struct ravel__exec *x);
    void (*destroy)(struct ravel__strategy *s);
};

struct ravel__strategy {
    const struct ravel__strategy_ops *ops;
    /* Set when the strategy has explored everything it can (a program
     * with a single schedule, a finished replay). */
    bool exhausted;
    /* Why choose_* returned RAVEL__NONE. */
    char error[256];
};

/* Seeded uniform choice among enabled threads (PULSE's scheduler). */
struct ravel__strategy *ravel__random_new(uint64_t seed);
/* Follows a ticket's schedule exactly; takes ownership of nothing. */
struct ravel__strategy *ravel__replay_new(const struct ravel__ticket *t);

#endif
