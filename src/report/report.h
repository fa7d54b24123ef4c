/*
 * report.h - failures and traces as text.
 *
 * Everything here reads a finished (or crashed) execution from the model
 * and writes text; nothing reaches back into the runtime. Two products:
 *
 *  - the trace: the interleaving as a table with one column per thread,
 *    then the compact schedule (`S1-- S1.1- P1.2 ...`). It depends only on
 *    the schedule and the program, never on addresses or timing, so the
 *    same schedule gives byte-identical traces in every run and replay;
 *  - the bug report around it, in the shape ThreadSanitizer users know: a
 *    banner, what happened and where (file:line stacks), the trace, the
 *    program's output, the replay command and a SUMMARY line.
 */
#ifndef RAVEL_REPORT_H
#define RAVEL_REPORT_H

#include "../common/strbuf.h"
#include "../model/model.h"

struct ravel__report_ctx {
    const struct ravel__exec *x;
    const char *program;  /* as the user named it */
    const char *strategy;
    uint64_t seed;
    const char *ticket;   /* path of the replay ticket, or NULL */
    const char *output;   /* the execution's captured output, or NULL */
    size_t output_len;
    bool color;
    uint32_t max_rows;    /* trace rows to show (0: all) */
    const char *history;  /* a linearizability failure's history as
                             lin/explain.h's timeline JSON, or NULL */
    uint64_t execution;   /* its number in the run, from 1 (0: the
                             exec's own; a replay names the ticket's) */
};

/* The interleaving table and compact schedule (deterministic). */
void ravel__report_trace(struct ravel__strbuf *sb, const struct ravel__exec *x,
                         uint32_t max_rows);
/* The compact schedule alone, e.g. "S1-- S1.1- P1.2 S1---". */
void ravel__report_compact(struct ravel__strbuf *sb,
                           const struct ravel__exec *x);
uint32_t ravel__report_preemptions(const struct ravel__exec *x);
/* Data flow through descriptors: the write events whose units (bytes,
 * messages, eventfd increments) read event e took, oldest first, at most
 * max of them into out[]; returns how many (0 for any other event). */
uint32_t ravel__report_flow(const struct ravel__exec *x, uint32_t e,
                            uint32_t *out, uint32_t max);
/* Indexes x's writes so that ravel__report_flow answers in logarithmic
 * time until the release (without: a scan of every earlier event). The
 * index belongs to the calling thread; x must not change meanwhile. */
void ravel__report_flow_index(const struct ravel__exec *x);
void ravel__report_flow_release(void);

/*
 * Repeated blocks in a sequence of steps: a block of `period` steps
 * (at most RAVEL__FOLD_PERIOD) that occurs `reps` times in a row (at
 * least RAVEL__FOLD_REPS) from position `start`. Views show the first
 * copy and fold the rest into one line ("steps 121-99,800: thread 1.2
 * repeats `load flag; load turn` 49,840 more times").
 */
#define RAVEL__FOLD_PERIOD 8
#define RAVEL__FOLD_REPS 3
struct ravel__fold {
    uint32_t start, period, reps;
};
/* Finds the folds of key[0..n) greedily from the left, preferring the
 * block that covers most; a pinned position (may be NULL) is never
 * folded away (it can only be in a block's first copy). Returns how
 * many and sets *out (malloc'ed, the caller frees; NULL when none). */
size_t ravel__report_fold(const uint64_t *key, const bool *pinned, size_t n,
                          struct ravel__fold **out);

/* Calls fn for events [from, to) of x with the text the trace table
 * shows for it ("lock m", valid during the call) and its location (NULL
 * when unknown). Symbolizes once for the whole range. */
struct ravel__frame;
typedef void (*ravel__report_step_fn)(void *ctx, uint32_t event,
                                      const char *text,
                                      const struct ravel__frame *where);
void ravel__report_steps(const struct ravel__exec *x, uint32_t from,
                         uint32_t to, ravel__report_step_fn fn, void *ctx);

/* What live thread t is doing when the execution ended, after its name:
 * "is blocked in lock bob+16, held by thread 1.2", "is at lock m", "has
 * not started yet". Returns 2 blocked, 1 at an enabled operation, 0 not
 * started. */
int ravel__report_pending(const struct ravel__exec *x, uint32_t t, char *buf,
                          size_t n);

/* The whole report of the execution's failure. */
void ravel__report_bug(struct ravel__strbuf *sb,
                       const struct ravel__report_ctx *c);

/* One-line description of the failure ("assertion `n == 2' failed"). */
void ravel__report_headline(const struct ravel__exec *x, char *buf, size_t n);
/* Where it happened, "file:line" (or "" when unknown), and in which
 * function. */
void ravel__report_location(const struct ravel__exec *x, char *file,
                            size_t nfile, char *func, size_t nfunc);
/* A data race's other access (the earlier one), the same way; "" for
 * every other kind of failure. */
void ravel__report_race_other(const struct ravel__exec *x, char *file,
                              size_t nfile, char *func, size_t nfunc);
/* Set by the runtime: is pc in the program's own (instrumented) code?
 * Locations prefer such frames over the C library's. NULL: any frame. */
extern bool (*ravel__report_program_pc)(uint64_t pc);

/* How many events of the execution are promoted plain accesses (race-
 * directed scheduling made them visible). */
uint32_t ravel__report_promoted(const struct ravel__exec *x);

/* Identity of a bug for "report each distinct bug once": its kind and the
 * code locations involved, not the schedule. */
uint64_t ravel__report_signature(const struct ravel__exec *x);

#endif
