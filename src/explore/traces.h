/*
 * traces.h - counting distinct Mazurkiewicz traces among executions.
 *
 * Two executions are the same trace when they differ only in the order of
 * independent operations (depend.h). Each complete execution is reduced to
 * a 64-bit fingerprint of its happens-before order, and the distinct
 * fingerprints are counted: exact for the systematic strategies, a
 * measure of coverage for random ones. Random and PCT count this way;
 * the fingerprint is computed in one pass that keeps no clock per event
 * (ravel__hbfp_fingerprint), so a long execution costs them the event
 * log and little more. A run of one execution in all (--executions 1:
 * the race benchmarks, a long test run once) has one trace whatever its
 * fingerprint, and computes none.
 */
#ifndef RAVEL_TRACES_H
#define RAVEL_TRACES_H

#include "depend.h"

struct ravel__traces {
    struct ravel__hbfp fp; /* the fingerprint in one pass */
    struct ravel__hb hb;   /* where that pass cannot (tso) */
    uint64_t *set; /* open addressing; 0 = empty */
    size_t cap, n;
    uint64_t unknown; /* executions with too many threads to analyse, or
                         not fingerprinted (below) */
    bool one_run; /* the run's budget is one execution: the first is a
                     distinct trace with no fingerprint; a later one
                     (none should come) is unknown, never counted */
};

/* Adds execution x; returns true if its trace is new. */
bool ravel__traces_add(struct ravel__traces *t, const struct ravel__exec *x);
/* Adds a fingerprint computed elsewhere (hb already filled for x). */
bool ravel__traces_add_fingerprint(struct ravel__traces *t, uint64_t fp);
void ravel__traces_free(struct ravel__traces *t);

#endif
