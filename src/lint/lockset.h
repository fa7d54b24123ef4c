/*
 * lockset.h - inconsistently locked shared data (lockset.c).
 *
 * flow.c provides the per-function summaries; lockset.c only uses them.
 * The caller runs ravel__lint_analyze first, then this.
 */
#ifndef RAVEL_LINT_LOCKSET_H
#define RAVEL_LINT_LOCKSET_H

#include "flow.h"

/* Compares the threads' accesses from the roots of the call graph and
 * appends a finding to cx->out for each inconsistently locked pair. Needs
 * the summaries of ravel__lint_analyze; does nothing unless cx->lockset. */
void ravel__lint_lockset_roots(struct ravel__lint_ctx *cx);

#endif
