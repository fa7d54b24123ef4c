/*
 * history.h - a concurrent history: operations with call and return times.
 *
 * Every reader (Jepsen log lines, Jepsen EDN maps, ravel's JSON) turns
 * its file into the same thing: a list of operations, each done by one
 * process, called at one time and returned at a later time or never, with
 * an input and an output that may be unknown. Times are only compared:
 * operation A precedes B in real time when A returned strictly before B
 * was called; otherwise they overlap. Readers without clocks use the
 * position of the event in the file as its time.
 *
 *   process 0  |--write 1--|            |--read -> 1--|
 *   process 1        |----cas [1 2] -> true----|
 *   process 2     |--write 3---------------------------------- (never)
 *
 * Readers build histories through the event interface below (invoke,
 * complete, forget, abandon), which enforces the rules every format
 * shares and reports a broken one with the line number: a process has at
 * most one pending call, a completion needs a pending call of the same
 * function. An operation whose process never completes it is pending
 * forever ("never returned"): it may have taken effect at any time after
 * its call, or not at all.
 */
#ifndef RAVEL_LIN_HISTORY_H
#define RAVEL_LIN_HISTORY_H

#include "value.h"

/* Return time of an operation that never returned. */
#define RAVEL__LIN_NEVER UINT64_MAX

/*
 * Largest number of operations in one history. Bounds the bitsets of the
 * checker (n/8 bytes per remembered configuration); 2^24 is far beyond
 * any recorded history that a search could finish on.
 */
#define RAVEL__LIN_MAX_OPS (1u << 24)

struct ravel__lin_op {
    uint32_t process;   /* index into history.procs */
    uint32_t f;         /* value id of the function name (:read, "put"...) */
    uint32_t key;       /* value id of the key, or RAVEL__LIN_V_NONE */
    uint32_t in;        /* value id of the input (nil when there is none) */
    uint32_t out;       /* value id of the output, RAVEL__LIN_V_NONE: unknown */
    uint64_t call, ret; /* ret == RAVEL__LIN_NEVER: never returned */
    uint32_t call_line; /* source lines, for messages (0: none) */
    uint32_t ret_line;
};

struct ravel__lin_history {
    struct ravel__lin_values vals; /* owned */
    struct ravel__lin_op *ops;     /* in order of call */
    uint32_t nops, ops_cap;
    uint32_t *procs; /* value ids of process names, by first appearance */
    uint32_t nprocs, procs_cap;
    uint32_t *pending; /* per process: op index + 1 of its open call, or 0 */
    uint32_t *ptable;  /* process value id -> index + 1, open addressing */
    uint32_t ptable_cap;
    bool *dropped;     /* per op: removed by forget() (compacted at finish) */
    uint64_t clock;    /* next automatic time */
};

/* Creates an empty history. Returns 0, or -1 when out of memory. */
int ravel__lin_history_init(struct ravel__lin_history *h);
/* Frees everything the history owns. */
void ravel__lin_history_free(struct ravel__lin_history *h);

/*
 * Event interface for readers. `proc` is the value id of the process
 * name, `line` the source line (for messages), `time` the event time or
 * RAVEL__LIN_NEVER to take the next tick of an internal clock (event
 * order). Each returns 0, or -1 with a one-line message in err
 * ("process 3 ...", without the line number: the reader adds it).
 *
 * invoke:   opens a call; fails if proc already has an open call.
 * complete: closes proc's open call with output `out` (RAVEL__LIN_V_NONE
 *           for unknown); fails without an open call or when `f` differs
 *           from the call's function (f = RAVEL__LIN_V_NONE: not checked).
 * forget:   the open call did not happen (Knossos's :fail); removes it.
 * abandon:  the open call may or may not happen (:info, a timeout): it
 *           stays pending forever and the process is free again.
 */
int ravel__lin_invoke(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                      uint32_t key, uint32_t in, uint32_t line, uint64_t time,
                      char *err, size_t errlen);
int ravel__lin_complete(struct ravel__lin_history *h, uint32_t proc,
                        uint32_t f, uint32_t out, uint32_t line, uint64_t time,
                        char *err, size_t errlen);
int ravel__lin_forget(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                      uint32_t line, char *err, size_t errlen);
int ravel__lin_abandon(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                       uint32_t line, char *err, size_t errlen);

/*
 * Adds a whole operation at once (the JSON reader, tests): call < ret or
 * ret == RAVEL__LIN_NEVER. Returns 0 or -1 with a message.
 */
int ravel__lin_add_op(struct ravel__lin_history *h, uint32_t proc, uint32_t f,
                      uint32_t key, uint32_t in, uint32_t out, uint64_t call,
                      uint64_t ret, uint32_t line, char *err, size_t errlen);

/*
 * Ends reading: removes forgotten operations and sorts the operations by
 * call time (stable). Calls still open stay pending forever. Returns 0 or
 * -1 when out of memory.
 */
int ravel__lin_finish(struct ravel__lin_history *h, char *err, size_t errlen);

/*
 * Unwraps a Jepsen `independent` history: every operation's input is a
 * [key value] tuple, which becomes its key and input; a known output must
 * be a tuple of the same key (its value becomes the output; with
 * nil_unknown, EDN's convention, a nil there is an unknown output) or a
 * bare true/false (how the log format records a failed cas). Returns 0,
 * or -1 with "line N: ..." naming the first operation that does not fit.
 */
int ravel__lin_independent(struct ravel__lin_history *h, bool nil_unknown,
                           char *err, size_t errlen);

/* Index of process `proc` (a value id), adding it if new; -1 when out of
 * memory. */
int ravel__lin_proc_index(struct ravel__lin_history *h, uint32_t proc);

/* Appends "p<name> <f> <key> <in> -> <out>" style text for messages. */
void ravel__lin_describe_op(const struct ravel__lin_history *h, uint32_t op,
                            struct ravel__strbuf *sb);

#endif
