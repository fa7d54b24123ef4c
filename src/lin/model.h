/*
 * model.h - sequential specifications the checker tests histories against.
 *
 * A model is a small table of C functions over states that are 64-bit
 * words. Small states (a register's value id, a counter) are the word
 * itself; larger ones (a queue's contents, a set) are ids the model
 * interns in tables of its own, so that equal states get equal words and
 * the checker can remember (set of operations done, state) pairs in a
 * few bytes. Models whose words are not canonical supply `equal` and
 * `hash`; the checker uses them for everything it remembers.
 *
 * `step` is the specification: given a state and an operation of the
 * history (with its output, or RAVEL__LIN_V_NONE when unknown), it lists
 * every state the operation can lead to while producing that output. No
 * state means the output is impossible there. More than one means the
 * model is nondeterministic (a dequeue of unknown output from a bag can
 * remove any element), and the checker tries each.
 *
 * Models are opened on one history: `open` checks every operation is one
 * the model knows (with a message naming its line otherwise) and may
 * precompute per-operation data, so `step` does no parsing.
 */
#ifndef RAVEL_LIN_MODEL_H
#define RAVEL_LIN_MODEL_H

#include "history.h"

/* Successor states produced by one step (grown by ravel__lin_next_add). */
struct ravel__lin_next {
    uint64_t *v;
    uint32_t n, cap;
};

/* Adds a successor; returns -1 when out of memory (the step then fails
 * the whole check with a tool error). */
int ravel__lin_next_add(struct ravel__lin_next *nx, uint64_t state);

/* Parameters a user can give a model on the command line. */
struct ravel__lin_params {
    const char *init; /* --init VALUE in EDN notation, or NULL */
};

struct ravel__lin_model {
    const char *name;
    const char *summary; /* one line for --help */
    /*
     * Opens the model on history h (which must outlive it): checks that
     * every operation is one the model understands and precomputes.
     * Returns 0 and sets *self (owned by the model; freed by close), or -1
     * with "line N: ..." in err.
     */
    int (*open)(void **self, struct ravel__lin_history *h,
                const struct ravel__lin_params *p, char *err, size_t errlen);
    void (*close)(void *self);
    uint64_t (*init)(void *self);
    /* Adds the states `op` (an index into h->ops) can lead to from
     * `state`; returns the number added or -1 when out of memory. */
    int (*step)(void *self, uint64_t state, uint32_t op,
                struct ravel__lin_next *next);
    /* Optional (NULL: words compare and hash as integers). */
    bool (*equal)(void *self, uint64_t a, uint64_t b);
    uint64_t (*hash)(void *self, uint64_t state);
    /* Optional: the partition (e.g. key) an operation belongs to, as a
     * value id; operations of different partitions never interact. */
    uint32_t (*partition)(void *self, uint32_t op);
    /* Optional: appends a readable form of the state. */
    void (*describe)(void *self, uint64_t state, struct ravel__strbuf *sb);
    /*
     * Optional: true if `op` never changes the state: in every state its
     * step gives no successor or exactly that state (a read, a cas that
     * returned false). The checker linearizes such an operation as soon
     * as it may, without trying alternatives (see check.c), so a wrong
     * "true" gives wrong verdicts; when in doubt return false.
     */
    bool (*read_only)(void *self, uint32_t op);
    /*
     * Optional: true only if `op` can be accepted in no state reachable
     * from `state` by steps of the operations not yet done that may
     * still precede it (called no later than `op` returned) (an append-
     * only string that no longer is a prefix of what a get returned,
     * with no put left that could start it again). done(ctx, x) tells
     * whether operation x has already taken effect. The checker abandons
     * a configuration where a pending operation that must still take
     * effect is doomed, and asks about required operations not yet
     * called as well (check.c, future_doomed). "false" is always safe.
     */
    bool (*doomed)(void *self, uint64_t state, uint32_t op,
                   bool (*done)(const void *ctx, uint32_t op),
                   const void *ctx);
};

/*
 * What the checker assumes of every model: `step` depends only on the
 * operation's f, key, input and output (not on its process or times),
 * so two operations that agree on those are interchangeable; and it is a
 * function (the same arguments give the same successors in the same
 * order).
 */

extern const struct ravel__lin_model ravel__lin_model_kv;

/* The built-in models, NULL-terminated, and lookup by name (NULL if
 * unknown). */
extern const struct ravel__lin_model *const ravel__lin_models[];
const struct ravel__lin_model *ravel__lin_model_find(const char *name);

/*
 * Parses an EDN value (as --init takes it: nil, 3, "s", :k, [1 2], #{1})
 * into h's value table. Returns the id, or RAVEL__LIN_V_NONE with a
 * message.
 */
uint32_t ravel__lin_parse_value(struct ravel__lin_history *h, const char *s,
                                char *err, size_t errlen);

#endif
