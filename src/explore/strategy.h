/*
 * strategy.h - the one interface every exploration strategy implements.
 *
 * A strategy is asked three things: at the start of each execution to get
 * ready, at each scheduling point which enabled thread runs next (and, at a
 * data choice, which value), and at the end whether another execution
 * should follow. Random, PCT, bounded DFS, DPOR, replay and the automatic
 * choice between them plug in through this table, so they run on the same
 * programs and report comparable figures (docs/exploration.md).
 *
 * What a strategy has done and can promise is kept in struct
 * ravel__explore_stats, which lives in memory shared with the supervisor,
 * like the systematic strategies' search tree: a crash of the program
 * does not lose the search.
 */
#ifndef RAVEL_STRATEGY_H
#define RAVEL_STRATEGY_H

#include "../common/strbuf.h"
#include "../model/model.h"
#include "ticket.h"

/* choose_* results besides an index. */
#define RAVEL__CHOICE_ERROR RAVEL__NONE          /* see `error` */
#define RAVEL__CHOICE_BLOCKED (RAVEL__NONE - 1)  /* abandon: redundant */

struct ravel__explore_stats {
    uint64_t traces;  /* distinct Mazurkiewicz traces among complete
                         executions (systematic strategies: exact) */
    uint64_t blocked; /* executions cut short: redundant by sleep sets, or
                         a false ravel_assume() */
    int32_t bound;    /* bound explored so far, -1 when unbounded */
    uint64_t digest;  /* order-independent digest of the set of traces
                         counted by fingerprint (0: not counted so) */
    uint8_t complete; /* the whole space (or the bound) was explored */
    /* traces is not exact: 1, a lower bound (the fingerprint set filled);
     * 2, counted per execution by parallel lanes, which can count a
     * trace twice (when the fingerprint set filled) */
    uint8_t traces_inexact;
    char guarantee[320]; /* what the run guarantees, for the summary */
    char method[64];     /* how it explored ("optimal DPOR", ...) */
};

struct ravel__strategy;

struct ravel__strategy_ops {
    const char *name;
    /* Prepares execution `number` (0-based). */
    void (*begin)(struct ravel__strategy *s, uint64_t number);
    /*
     * Chooses the thread to run among enabled[0..n) (n >= 1, creation
     * order); `current` is the thread that reached the scheduling point.
     * Returns an index into enabled, RAVEL__CHOICE_BLOCKED to abandon the
     * execution as redundant, or RAVEL__CHOICE_ERROR (see `error`).
     */
    uint32_t (*choose_thread)(struct ravel__strategy *s,
                              const struct ravel__exec *x,
                              const uint32_t *enabled, uint32_t n,
                              uint32_t current);
    /* Chooses a value in [0, n) (n >= 2); RAVEL__CHOICE_* as above. */
    uint32_t (*choose_value)(struct ravel__strategy *s,
                             const struct ravel__exec *x, uint32_t n);
    /* The execution ended (`blocked`: abandoned); returns true when
     * another one should run. Updates the stats. */
    bool (*end)(struct ravel__strategy *s, const struct ravel__exec *x,
                bool blocked);
    /* The run is over (for whatever reason): fill in stats->guarantee and
     * stats->complete. */
    void (*finish)(struct ravel__strategy *s);
    void (*destroy)(struct ravel__strategy *s);
    /* Optional: called once before the first execution of this process;
     * false when there is nothing to run (another lane finished the
     * search). May wait for work. */
    bool (*start)(struct ravel__strategy *s);
    /* Optional: the run is being stopped before the search is over (it
     * was interrupted): give up this lane's share of the work, so that no
     * other lane waits for it and none claims the search exhausted. */
    void (*abandon)(struct ravel__strategy *s);
    /*
     * Optional, all three or none: snapshots (src/rt/process/resume.c),
     * which let an execution start at a choice point of an earlier one
     * instead of replaying the choices before it.
     *
     * here: the next choice this execution will ask for, as a number a
     * later execution can start at (RAVEL__NONE: none can), and in
     * *ident what identifies the place in the search.
     * kept: after begin, the deepest such number at which this execution
     * is still the last one (the same choices before it, the same choice
     * point); RAVEL__NONE when nothing of the last execution is kept.
     * Then *at is the number of events logged before that choice point,
     * and *more says whether later executions will branch there too (it
     * has alternatives left).
     * resume: this execution starts at choice `cursor`, where a snapshot
     * with this ident was taken: set the state that replaying the
     * choices before it would have left, and return true (false: it
     * cannot, and the execution runs from the start).
     */
    uint32_t (*here)(struct ravel__strategy *s, uint64_t *ident);
    uint32_t (*kept)(struct ravel__strategy *s, uint32_t *at, bool *more);
    bool (*resume)(struct ravel__strategy *s, uint32_t cursor,
                   uint64_t ident);
};

struct ravel__strategy {
    const struct ravel__strategy_ops *ops;
    /* Set when the strategy has explored everything it can. */
    bool exhausted;
    /* Set when it stopped because of a tool error (see `error`). */
    bool failed;
    struct ravel__explore_stats *stats; /* shared; never NULL */
    /* A thread waiting in a spin loop (src/model/spin.c) is woken by a
     * write to what its loop read, and the execution goes on as a real
     * one (random, PCT, replay); when false (DPOR, DFS) the execution is
     * cut there instead, since it only repeats one the search explores
     * without the vain iteration. The strategy may change it at any
     * step (auto, switching to PCT). */
    bool wake_spins;
    /* Why choose_* returned RAVEL__CHOICE_ERROR. */
    char error[256];
};

/* How to build a strategy (from the run's options). */
struct ravel__strategy_config {
    const char *name; /* random, pct, dfs, dpor, auto, replay */
    uint64_t seed;
    int64_t preemption_bound; /* -1: none */
    int64_t delay_bound;      /* -1: none */
    uint32_t pct_depth;
    uint64_t executions; /* budget (0: none) */
    double time;         /* budget in seconds (0: none) */
    const struct ravel__ticket *ticket;
    /* Shared memory for the search state of systematic strategies, and
     * whether it holds a search to resume (after a crash). */
    void *shared;
    size_t shared_size;
    bool resume;
    uint64_t max_steps;     /* the shared memory was sized for these */
    uint32_t lane, lanes;   /* this executor's lane of `lanes` (--jobs) */
    uint32_t shard, shards; /* explore only shard `shard` (0-based) of
                               `shards` (0: not sharded) */
    const char *dpor_mode;  /* "optimal" or "source" */
    /* Explore in work units (--shard, --checkpoint): one lane. Resuming
     * (--resume), the units the checkpoint says were done (of
     * resume_units made) and the traces found are taken as explored. */
    bool units;
    uint32_t units_per_shard; /* --shard-units */
    const uint32_t *resume_done;
    uint32_t nresume_done, resume_units;
    const uint64_t *resume_fps;
    size_t nresume_fps;
    bool fingerprints;      /* dpor: count traces by fingerprint */
    struct ravel__explore_stats *stats;
};

/* Bytes of shared memory the systematic strategies need for `lanes`
 * lanes of executions of up to max_steps steps. */
size_t ravel__strategy_shared_size(uint64_t max_steps, uint32_t lanes);

/* Builds the strategy; NULL with a message in err on a bad configuration. */
struct ravel__strategy *ravel__strategy_new(
    const struct ravel__strategy_config *cfg, char *err, size_t errlen);

/* The individual strategies (called by ravel__strategy_new). */
struct ravel__strategy *ravel__random_new(const struct ravel__strategy_config *c);
struct ravel__strategy *ravel__replay_new(const struct ravel__strategy_config *c);
struct ravel__strategy *ravel__pct_new(const struct ravel__strategy_config *c);
struct ravel__strategy *ravel__systematic_new(
    const struct ravel__strategy_config *c, bool dpor);
struct ravel__strategy *ravel__auto_new(const struct ravel__strategy_config *c);
/* --strategy dpor (dpor true) or dfs: the systematic search, which
 * switches the run to PCT (auto.c) in an execution with more threads than
 * it can hold, instead of stopping with an error. */
struct ravel__strategy *ravel__fallback_new(
    const struct ravel__strategy_config *c, bool dpor);
/* Stops a systematic search before it is exhausted (auto switching to
 * PCT): this lane gives up its branch, and every lane's search ends. `why`
 * (copied; NULL: the budget) is kept for every lane to read with
 * ravel__systematic_abandoned_why ("" when abandoned for the budget). */
void ravel__systematic_abandon(struct ravel__strategy *s, const char *why);
const char *ravel__systematic_abandoned_why(struct ravel__strategy *s);
/* A search in work units, once they are dealt: the units made, this
 * shard's, and those of its units done. False before, or otherwise. */
bool ravel__systematic_units(struct ravel__strategy *s, uint32_t *made,
                             uint32_t *own, uint32_t *done);
/* Did an execution of the search not repeat its recorded prefix? */
bool ravel__systematic_diverged(struct ravel__strategy *s);

#endif
