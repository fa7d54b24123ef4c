/*
 * table.c - the declarative form of a model (docs/pbt.md, "The table
 * form").
 *
 * With the function-pointer form every command needs a generator, a
 * printer and often a weight and a precondition, each starting with
 * casts of `void *`, and weight, gen and pre repeat the same test ("is
 * there a pid to kill?"). A struct ravel_op states the common case as
 * data: the arguments' generators (an integer range, one of some
 * strings, one of the variables the model holds), a fixed weight, and
 * the call and the model as functions of typed arguments. From the
 * table this file derives what the other form writes by hand: the
 * argument block (an array of ravel_arg), the generator, the printer,
 * the weight (0 while an argument's variables are none) and the
 * precondition (every drawn variable is still held). pbt.c calls these
 * through its c_* dispatch, so the runner, judge and shrinker are the
 * same for both forms.
 */
#include "pbt.h"

#include <stdio.h>
#include <string.h>

/* Variables one argument can draw from (a test case has at most 512
 * calls, hence at most 512 variables). */
#define MAX_VARS 512
static ravel_var vars_buf[MAX_VARS];

size_t ravel__pbt_op_args_size(void)
{
    return RAVEL_MAX_OP_ARGS * sizeof(ravel_arg);
}

static size_t vars_of(const struct ravel_argspec *a, const void *state)
{
    size_t n = a->vars(state, vars_buf, MAX_VARS);
    return n > MAX_VARS ? MAX_VARS : n;
}

unsigned ravel__pbt_op_weight(const struct ravel_op *op, const void *state)
{
    for (int i = 0; i < RAVEL_MAX_OP_ARGS; i++)
        if (op->args[i].kind == RAVEL__ARG_VAR &&
            vars_of(&op->args[i], state) == 0)
            return 0;
    return op->weight ? op->weight : 1;
}

void ravel__pbt_op_gen(const struct ravel_op *op, ravel_gen *g,
                       const void *state, void *args)
{
    ravel_arg *a = args;
    for (int i = 0; i < RAVEL_MAX_OP_ARGS; i++) {
        const struct ravel_argspec *s = &op->args[i];
        switch (s->kind) {
        case RAVEL__ARG_NONE:
            break;
        case RAVEL__ARG_INT:
            a[i].i = (long)ravel_gen_int(g, s->lo, s->hi);
            break;
        case RAVEL__ARG_STR:
            a[i].s = s->strings[ravel_gen_element(g, s->nstrings)];
            break;
        case RAVEL__ARG_VAR: {
            size_t n = vars_of(s, state);
            a[i].var = n ? ravel_gen_var(g, vars_buf, n) : 0;
            break;
        }
        }
    }
}

int ravel__pbt_op_pre(const struct ravel_op *op, const void *state,
                      const void *args)
{
    const ravel_arg *a = args;
    for (int i = 0; i < RAVEL_MAX_OP_ARGS; i++) {
        if (op->args[i].kind != RAVEL__ARG_VAR)
            continue;
        size_t n = vars_of(&op->args[i], state), j = 0;
        while (j < n && vars_buf[j] != a[i].var)
            j++;
        if (j == n)
            return 0;
    }
    return op->pre ? op->pre(state, a) : 1;
}

void ravel__pbt_op_print(const struct ravel_op *op, char *buf, size_t size,
                         const void *args)
{
    const ravel_arg *a = args;
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    for (int i = 0; i < RAVEL_MAX_OP_ARGS; i++) {
        const struct ravel_argspec *s = &op->args[i];
        if (s->kind == RAVEL__ARG_NONE)
            continue;
        if (sb.len)
            ravel__sb_add(&sb, ", ");
        ravel_value v = s->kind == RAVEL__ARG_INT ? ravel_int(a[i].i)
                        : s->kind == RAVEL__ARG_STR ? ravel_str(a[i].s)
                                                    : ravel_ref(a[i].var);
        ravel__pbt_value_print(&sb, &v, NULL);
    }
    snprintf(buf, size, "%s", sb.data ? sb.data : "");
    ravel__sb_free(&sb);
}

int ravel__pbt_ops_check(const struct ravel_model *m, char *err, size_t len)
{
    if (m->nops == 0 || m->nops > 64) {
        snprintf(err, len, "the model needs 1 to 64 ops");
        return -1;
    }
    for (unsigned i = 0; i < m->nops; i++) {
        const struct ravel_op *o = &m->ops[i];
        if (!o->name || !o->run) {
            snprintf(err, len, "op %u has no name or no run function", i);
            return -1;
        }
        if (o->result > RAVEL_USER ||
            (o->result == RAVEL_USER &&
             (!o->result_type || o->result_type->size == 0 ||
              o->result_type->size > RAVEL__PBT_MAX_RESULT))) {
            snprintf(err, len, "op %s: a bad result kind, or RAVEL_USER "
                               "without a result_type of 1 to %d bytes",
                     o->name, RAVEL__PBT_MAX_RESULT);
            return -1;
        }
        for (int j = 0; j < RAVEL_MAX_OP_ARGS; j++) {
            const struct ravel_argspec *s = &o->args[j];
            bool bad = s->kind > RAVEL__ARG_VAR ||
                       (s->kind == RAVEL__ARG_INT && s->lo > s->hi) ||
                       (s->kind == RAVEL__ARG_STR &&
                        (!s->strings || !s->nstrings)) ||
                       (s->kind == RAVEL__ARG_VAR && !s->vars);
            if (bad) {
                snprintf(err, len, "op %s: argument %d is not a valid "
                                   "RAVEL_ARG_INT (lo <= hi), RAVEL_ARG_STR "
                                   "(a non-empty array) or RAVEL_ARG_VAR "
                                   "(a function)",
                         o->name, j + 1);
                return -1;
            }
        }
    }
    return 0;
}
