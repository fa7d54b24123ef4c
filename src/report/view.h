/*
 * view.h - a failing execution drawn: GraphViz DOT and a self-contained
 * HTML report.
 *
 * Both are views of one picture, built from the finished execution the
 * text report reads (report.h): one lane per thread, time downward, each
 * visible step with its source location; repeated blocks of a lane's
 * steps folded into one item with a count; arrows only for the
 * transitive reduction of inter-thread happens-before (graph.h); the
 * failing step, the racing accesses and the blocked threads (with what
 * they wait for) marked at the ends of their lanes. Long executions show
 * their last RAVEL__VIEW_STEPS steps.
 *
 * The HTML report is one file for a whole run: a first screen with what
 * ran, the strategy, the guarantee, the time and a table with one row
 * per distinct finding (data races grouped by the code they share), and
 * for each finding its report text and lane diagram, drawn by a small
 * script from data embedded in the page. Nothing is fetched. Every piece
 * of program text (operations, file names, assertion messages, output)
 * reaches the page either escaped as HTML text or inside a JSON block
 * whose '<' are escaped, and the script only ever assigns it with
 * textContent, so no program text is ever parsed as markup.
 */
#ifndef RAVEL_REPORT_VIEW_H
#define RAVEL_REPORT_VIEW_H

#include "report.h"

/* Steps drawn at most (the last ones of a longer execution). */
#define RAVEL__VIEW_STEPS 1500

/* Appends the execution of c as a DOT digraph (deterministic: one
 * schedule gives the same file in every run and replay). */
void ravel__view_dot(struct ravel__strbuf *sb,
                     const struct ravel__report_ctx *c);

/* Appends the JSON object the HTML report draws one finding from: its
 * lanes, items, arrows and source excerpts, plus `report` (the text
 * report, may be NULL). */
void ravel__view_finding_json(struct ravel__strbuf *sb,
                              const struct ravel__report_ctx *c,
                              const char *report);

/* One row of the findings table. Strings are not owned. */
struct ravel__view_finding {
    const char *kind;     /* "deadlock", "data-race" ... */
    const char *headline; /* one line */
    const char *location; /* "file:line" or "" */
    const char *function;
    const char *threads;  /* "1.1, 1.2" */
    uint64_t hits;        /* executions that ended in it */
    uint64_t execution;   /* the first, from 1 */
    const char *ticket;   /* "" when none */
    const char *json;     /* from ravel__view_finding_json, or NULL */
    const char *report;   /* the text report, or NULL */
    const char *first_in; /* where it was first seen, for the table, when
                             not `execution` alone ("shard 2, execution
                             7" in a merged report), or NULL */
};

/* What the run was, for the first screen. Strings are not owned. */
struct ravel__view_run {
    const char *program;  /* with its arguments */
    const char *mode;     /* "auto strategy (...)", "property tests ..." */
    uint64_t seed;
    uint64_t executions;
    double elapsed_s;
    const char *guarantee; /* what the run covered, or "" */
    const char *summary;   /* the text summary lines */
    const char *extra;     /* more text for the first screen (a property's
                              counterexample), or NULL */
    bool replay;
    bool merged; /* ravel merge's report of a split search: no seed (each
                    shard had its own), executions summed over shards */
};

/* Appends the whole HTML report of a run with n findings. */
void ravel__view_html(struct ravel__strbuf *sb,
                      const struct ravel__view_run *run,
                      const struct ravel__view_finding *f, size_t n);

/* The threads a finding involves, "1.1, 1.2" (racing threads, blocked
 * threads, or the failing one). */
void ravel__view_threads(const struct ravel__exec *x, char *buf, size_t n);

#endif
