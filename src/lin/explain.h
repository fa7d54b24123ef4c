/*
 * explain.h - showing a person why a history is not linearizable.
 *
 * The checker's result carries the longest linearizable prefix it found
 * in the failing partition and the operations that cannot come next
 * after it. These functions render that as text (a summary and a
 * per-process timeline around the failure), as JSON (for --json) and as
 * a self-contained HTML page (one lane per process, operations as bars,
 * the linearization points of the prefix joined in order, the operations
 * that cannot be placed in red).
 */
#ifndef RAVEL_LIN_EXPLAIN_H
#define RAVEL_LIN_EXPLAIN_H

#include "check.h"

/* Appends a short label for an operation: "cas [1 2] -> true". */
void ravel__lin_op_label(const struct ravel__lin_history *h, uint32_t op,
                         struct ravel__strbuf *sb);

/* Appends the text explanation of a FAIL result (indented lines). */
void ravel__lin_explain_text(const struct ravel__lin_history *h,
                             const struct ravel__lin_model *m, void *self,
                             const struct ravel__lin_result *r,
                             struct ravel__strbuf *sb);

/* Appends "explanation": {...} members' JSON object for a FAIL result. */
void ravel__lin_explain_json(const struct ravel__lin_history *h,
                             const struct ravel__lin_model *m, void *self,
                             const struct ravel__lin_result *r,
                             struct ravel__strbuf *sb);

/* Appends a whole HTML page showing the history (the failing partition
 * for FAIL, every operation otherwise) titled `title`. */
void ravel__lin_explain_html(const struct ravel__lin_history *h,
                             const struct ravel__lin_model *m, void *self,
                             const struct ravel__lin_result *r,
                             const char *title, struct ravel__strbuf *sb);

/* Appends the JSON the HTML timeline is drawn from: {"procs": [...],
 * "ops": [{id, proc, call, ret, label, lines, pos, stuck, why}]} (the
 * failing partition for FAIL, every operation otherwise). */
void ravel__lin_explain_data(const struct ravel__lin_history *h,
                             const struct ravel__lin_result *r,
                             struct ravel__strbuf *sb);

/* The timeline drawing for other pages: a script defining
 * ravelLinTimeline(data, container), which appends an <svg
 * class="timeline"> with one <g class="lane"> per process, one <g
 * class="op ..." data-op=N> per operation (classes lin, fail, never)
 * and a <circle class="lp"> per linearization point of the prefix; and
 * the style rules it needs. */
extern const char ravel__lin_timeline_js[];
extern const char ravel__lin_timeline_css[];

#endif
