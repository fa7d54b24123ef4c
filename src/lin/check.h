/*
 * check.h - is a history linearizable with respect to a model?
 *
 * A history is linearizable when its operations can be put in one
 * sequence that the model accepts step by step and that keeps real-time
 * order (an operation that returned before another was called comes
 * first), where each operation that never returned is either placed
 * after its call or left out. The checker searches for such a sequence
 * (docs/lin.md explains the algorithm and its limits):
 *
 *   - Wing & Gong's backtracking over the operations that may go next,
 *     on a doubly linked list of call and return events (Lowe's
 *     formulation, as in Porcupine), so backtracking is O(1);
 *   - Lowe's memoisation: a (set of operations done, model state) pair
 *     that was reached before is not explored again, since what can
 *     follow depends on nothing else; the set is a bitset with an
 *     incrementally maintained Zobrist hash, remembered as a compact
 *     key (the window of concurrent operations, never-returned ones
 *     apart);
 *   - four exact prunings and an ordering on top (read-only operations
 *     first without alternatives, interchangeable never-returned
 *     operations, domination, doomed configurations; candidates by
 *     return time with a lookahead), which --no-prune turns off;
 *   - P-compositionality: when the model partitions operations (by key),
 *     each partition is checked on its own, and partitions are run
 *     round-robin with doubling step budgets so one that fails ends the
 *     check at once;
 *   - a step budget and a deadline that give "unknown", never a guess.
 *
 * Memory: the memo holds at most `max_memory` bytes (entries of a state
 * word, a length and the key, plus 12 bytes per slot of a table kept at
 * most half full); past that the search goes on without remembering
 * more, which is slower but still exact. Everything else is O(n) per
 * partition, plus the states the model interns.
 */
#ifndef RAVEL_LIN_CHECK_H
#define RAVEL_LIN_CHECK_H

#include "model.h"

enum ravel__lin_verdict {
    RAVEL__LIN_OK = 0,      /* linearizable */
    RAVEL__LIN_FAIL = 1,    /* not linearizable */
    RAVEL__LIN_UNKNOWN = 2, /* budget or deadline reached first */
};

/* Default memo limit: 1 GiB. The hardest history in the test data
 * needs a few megabytes; a gigabyte leaves room for histories a hundred
 * times harder while fitting a CI machine or a laptop. */
#define RAVEL__LIN_DEFAULT_MEMORY (1ull << 30)

struct ravel__lin_options {
    double timeout;       /* seconds of search; 0: none */
    uint64_t max_steps;   /* search steps (one candidate tried); 0: none */
    uint64_t max_memory;  /* memo bytes; 0: RAVEL__LIN_DEFAULT_MEMORY */
    bool no_partition;    /* check all operations together */
    bool no_prune;        /* plain Wing & Gong + Lowe, as Porcupine does:
                             no read-only forcing, no symmetry, domination
                             or doomed pruning, candidates in call order
                             (for comparison in bench/) */
    bool no_explain;      /* skip computing the explanation */
    bool by_key;          /* partition by the operations' own keys (Jepsen
                             independent histories), for any model */
    bool all_keys;        /* decide every partition, not just the first
                             that fails (one verdict per key) */
};

/* Why an operation cannot come next after the longest prefix. */
enum ravel__lin_stuck_kind {
    RAVEL__LIN_REJECTED = 0, /* the model rejects it in that state */
    RAVEL__LIN_DEAD_END = 1, /* accepted, but nothing works after it */
};

struct ravel__lin_result {
    enum ravel__lin_verdict verdict;
    const char *unknown_why; /* "timeout" or "step limit" when UNKNOWN */
    /* UNKNOWN: progress of the unfinished partition that got least far:
     * its key (or V_NONE), longest linearizable prefix seen, size. */
    uint32_t unknown_key, unknown_best, unknown_ops;
    uint64_t steps;          /* candidates tried, all partitions */
    uint64_t memo_entries;
    uint64_t memo_bytes;     /* peak memo memory */
    bool memo_full;          /* the memory limit was reached */
    uint32_t nparts;         /* partitions checked */
    /* Per partition, in key order (owned): its key (V_NONE when not
     * partitioned), verdict and number of operations. A partition left
     * unfinished by a budget is UNKNOWN; without all_keys the ones not
     * needed after a failure are UNKNOWN too. */
    uint32_t *keys;
    uint8_t *key_verdict;
    uint32_t *key_ops;
    double seconds;          /* search time */

    /* Explanation, for FAIL (owned; freed by ravel__lin_result_free). */
    uint32_t part_key; /* key of the failing partition, or V_NONE */
    uint32_t *part_ops;
    uint32_t npart_ops; /* the failing partition's operations */
    uint32_t *prefix;   /* longest linearizable prefix, in order */
    uint64_t *prefix_states; /* state after each prefix operation */
    uint32_t nprefix;
    uint64_t initial_state;
    uint32_t *stuck; /* operations that cannot come next after it */
    uint8_t *stuck_kind;
    uint32_t nstuck;
    uint32_t deadline_op; /* the returned op that must be placed next
                             (earliest return not in the prefix) */
};

/*
 * Checks h against model m, opened on h as `self`. Fills r (which the
 * caller frees with ravel__lin_result_free) and returns 0, or returns -1
 * with a message on a tool error (out of memory in a model step).
 */
int ravel__lin_check(const struct ravel__lin_history *h,
                     const struct ravel__lin_model *m, void *self,
                     const struct ravel__lin_options *o,
                     struct ravel__lin_result *r, char *err, size_t errlen);

void ravel__lin_result_free(struct ravel__lin_result *r);

#endif
