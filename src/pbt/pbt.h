/*
 * pbt.h - what the files of src/pbt share (docs/pbt.md).
 *
 * pbt.c is the runner, judge and driver of property tests; value.c is
 * typed results (their constructors, equality and printed form); table.c
 * is the declarative form of a model (struct ravel_op), dispatched by
 * pbt.c through the ravel__pbt_op_* calls below. Nothing here is public:
 * include/ravel.h is.
 */
#ifndef RAVEL_PBT_H
#define RAVEL_PBT_H

#include "../../include/ravel.h"
#include "../common/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest result of a string, bytes or user kind (bytes). */
#define RAVEL__PBT_MAX_RESULT 4096

/* Are a and b the same value? Both concrete (no ravel_ref); values of
 * different kinds differ, except that a RAVEL_INT 0 equals a NULL
 * pointer or string (a model's long-returning next said "0"). Not a
 * scheduling point. */
bool ravel__pbt_value_equal(const ravel_value *a, const ravel_value *b);

/* Appends v as C would write it: integers in decimal, strings quoted
 * and escaped, bytes in hex, user values by their printer, pointers as
 * NULL or by `ptr_name` (pbt.c names them `new` or `$k`; NULL: hex).
 * A ravel_ref prints as `$k`. */
void ravel__pbt_value_print(struct ravel__strbuf *sb, const ravel_value *v,
                            const char *ptr_name);

/* The declarative form (table.c). `op` indexes model->ops; `args` is
 * the command's argument block, an array of RAVEL_MAX_OP_ARGS ravel_arg.
 * None is a scheduling point except run, which calls the system under
 * test. */
size_t ravel__pbt_op_args_size(void);
unsigned ravel__pbt_op_weight(const struct ravel_op *op, const void *state);
void ravel__pbt_op_gen(const struct ravel_op *op, ravel_gen *g,
                       const void *state, void *args);
int ravel__pbt_op_pre(const struct ravel_op *op, const void *state,
                      const void *args);
void ravel__pbt_op_print(const struct ravel_op *op, char *buf, size_t size,
                         const void *args);
/* Checks the table; returns 0, or -1 with a message. */
int ravel__pbt_ops_check(const struct ravel_model *m, char *err, size_t len);

#endif
