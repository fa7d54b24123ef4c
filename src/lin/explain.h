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

#endif
