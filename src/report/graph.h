/*
 * graph.h - the happens-before arrows worth drawing in a trace.
 *
 * A trace is drawn as one lane per thread, time downward. Program order
 * is the lane itself; what a reader needs besides is how the threads
 * constrained each other: which step of one thread had to come before
 * which step of another. Drawing every such pair buries the picture, so
 * (as the first seed system's trace visualizer did) only the transitive
 * reduction of inter-thread happens-before is kept: an arrow a -> b is
 * drawn when a happens before b and no other path of program order and
 * arrows leads from a to b.
 *
 * Synchronisation edges, following C11 and POSIX (docs/output.md has the
 * table):
 *
 *     create of T            -> T's start
 *     T's finish             -> a join of T that returned it
 *     release of a lock      -> the next acquisition of it by another
 *                               thread (mutex, spinlock, rwlock, a
 *                               condition wait's release and wake's
 *                               re-acquisition)
 *     signal / broadcast     -> the wake of a thread it woke
 *     sem_post               -> the sem_wait that took its token (the
 *                               latest post before it)
 *     barrier arrivals       -> every other thread's leave of that round
 *     pthread_once's end     -> the calls that found it done
 *     release atomic write   -> an acquire atomic read of it (reads-from,
 *                               release sequences through RMWs; relaxed
 *                               accesses do not synchronise)
 *
 * The reduction is exact: an edge a -> b (threads A != B) is redundant
 * iff some other immediate predecessor of b - its predecessor in B's
 * lane, or the source of another edge into b - is a or has a after it
 * in happens-before. Vector clocks of the edge sources answer that; only
 * sources' clocks are kept.
 */
#ifndef RAVEL_REPORT_GRAPH_H
#define RAVEL_REPORT_GRAPH_H

#include "../model/model.h"

/* Why an arrow exists. */
enum ravel__arrow_kind {
    RAVEL__ARROW_CREATE,
    RAVEL__ARROW_JOIN,
    RAVEL__ARROW_LOCK,
    RAVEL__ARROW_SIGNAL,
    RAVEL__ARROW_SEM,
    RAVEL__ARROW_BARRIER,
    RAVEL__ARROW_ONCE,
    RAVEL__ARROW_ATOMIC,
    /* Not happens-before: a read of a descriptor took bytes (messages,
     * eventfd units) this write put in the channel. Never produced by
     * ravel__graph_edges/_arrows; the trace picture adds these beside
     * the reduction so a lost or reordered message is visible. */
    RAVEL__ARROW_DATA,
    /* Not happens-before either: under --memory-model rc11, a load that
     * did not read the newest store of its location read this one (the
     * trace picture adds these too; the report's "Weak memory (RC11)"
     * section says why RC11 allows it). */
    RAVEL__ARROW_READ,
};

/* An inter-thread happens-before edge between two events (indices into
 * x->events; from < to, different threads). */
struct ravel__arrow {
    uint32_t from, to;
    uint8_t kind; /* enum ravel__arrow_kind */
};

/*
 * Every synchronisation edge of the first `n` events of x (before
 * reduction), in order of their target event. Returns the count and sets
 * *out (malloc'ed, the caller frees), or -1 when memory runs out. Not a
 * scheduling point.
 */
int64_t ravel__graph_edges(const struct ravel__exec *x, uint32_t n,
                           struct ravel__arrow **out);

/*
 * The transitive reduction of inter-thread happens-before over the
 * first n events of x: the arrows to draw, in order of their target.
 * Same ownership and errors as ravel__graph_edges.
 */
int64_t ravel__graph_arrows(const struct ravel__exec *x, uint32_t n,
                            struct ravel__arrow **out);

/* "create", "join", "lock", ... */
const char *ravel__arrow_kind_name(uint8_t kind);

#endif
