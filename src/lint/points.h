/*
 * points.h - function-pointer targets and pointed-to objects for ravel
 * lint (points.c says how). One call, between reading the program and
 * analysing it; it rewrites the model in place.
 */
#ifndef RAVEL_LINT_POINTS_H
#define RAVEL_LINT_POINTS_H

#include "ir.h"

/* Targets one indirect call may have before it counts as unknown: a
 * method field filled from a handful of implementations resolves, a
 * catch-all `void (*)(void *)` cell does not. */
#define RAVEL__LINT_FP_MAX 8

struct ravel__lint_points_stats {
    uint32_t resolved;    /* indirect calls and start routines resolved */
    uint32_t multi;       /* ... of them with several targets */
    uint32_t unresolved;  /* with facts, but none or too many targets */
    uint32_t dispatchers; /* functions made to call several targets */
    uint32_t rewritten;   /* event values naming a pointed-to object now */
};

/*
 * Resolves calls through function pointers (an event's callee becomes a
 * target, or a dispatcher function added to p that calls each target),
 * start routines given as loaded pointers, global pointers set to one
 * object and calls returning one object; relinks p. Call after
 * ravel__lint_prog_link, before the analyses. Not a scheduling point;
 * allocates only inside p.
 */
void ravel__lint_points(struct ravel__lint_prog *p, struct ravel__lint_points_stats *st);

#endif
