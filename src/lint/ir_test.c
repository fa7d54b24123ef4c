/*
 * ir_test.c - unit tests of the program model: interning, normalisation
 * and substitution of access paths, values and their sameness, rendering.
 */
#include "ir.h"

#include "../../tests/check.h"

CHECK_TEST(paths_are_interned_and_normalised)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t g = ravel__lint_sym(&p, "table", RAVEL__LINT_NONE, RAVEL__SYM_GLOBAL);
    uint32_t a = ravel__lint_ap_root(&p, RAVEL__AP_GLOBAL, g, 0);
    CHECK_EQ(a, ravel__lint_ap_root(&p, RAVEL__AP_GLOBAL, g, 0));
    /* A zero offset is the path itself; offsets add up. */
    CHECK_EQ(ravel__lint_ap_offset(&p, a, 0), a);
    uint32_t o8 = ravel__lint_ap_offset(&p, ravel__lint_ap_offset(&p, a, 4), 4);
    CHECK_EQ(o8, ravel__lint_ap_offset(&p, a, 8));
    CHECK_EQ(p.aps[o8].depth, 1);
    /* A constant index is an offset. */
    uint32_t three = ravel__lint_ap_root(&p, RAVEL__AP_INT, 3, 0);
    CHECK_EQ(ravel__lint_ap_index(&p, a, three, 8), ravel__lint_ap_offset(&p, a, 24));
    /* Steps on UNKNOWN stay UNKNOWN; too deep becomes UNKNOWN. */
    CHECK_EQ(ravel__lint_ap_deref(&p, 0), 0);
    uint32_t d = a;
    for (int i = 0; i < RAVEL__LINT_AP_DEPTH; i++)
        d = ravel__lint_ap_deref(&p, d);
    CHECK(d != 0);
    CHECK_EQ(ravel__lint_ap_deref(&p, d), 0);
    CHECK(ravel__lint_ap_has_deref(&p, d));
    CHECK(!ravel__lint_ap_has_deref(&p, o8));
    ravel__lint_prog_free(&p);
}

CHECK_TEST(static_symbols_stay_apart)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t a = ravel__lint_sym(&p, "count", 0, RAVEL__SYM_GLOBAL);
    uint32_t b = ravel__lint_sym(&p, "count", 1, RAVEL__SYM_GLOBAL);
    uint32_t c = ravel__lint_sym(&p, "count", RAVEL__LINT_NONE, RAVEL__SYM_GLOBAL);
    CHECK(a != b && b != c && a != c);
    CHECK_EQ(a, ravel__lint_sym(&p, "count", 0, RAVEL__SYM_GLOBAL));
    /* Many symbols: the table grows and still finds them all. */
    char name[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "f%d", i);
        ravel__lint_sym(&p, name, RAVEL__LINT_NONE, RAVEL__SYM_FUNC);
    }
    CHECK_EQ(ravel__lint_sym(&p, "count", 1, RAVEL__SYM_GLOBAL), b);
    CHECK_EQ(p.nsyms, 1003);
    ravel__lint_prog_free(&p);
}

CHECK_TEST(parameters_are_substituted)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t g = ravel__lint_sym(&p, "ctx", RAVEL__LINT_NONE, RAVEL__SYM_GLOBAL);
    uint32_t ctx = ravel__lint_ap_root(&p, RAVEL__AP_GLOBAL, g, 0);
    uint32_t p0 = ravel__lint_ap_root(&p, RAVEL__AP_PARAM, 0, 0);
    uint32_t p1 = ravel__lint_ap_root(&p, RAVEL__AP_PARAM, 1, 0);
    /* p0->table (offset 8), loaded; indexed by p1. */
    uint32_t field = ravel__lint_ap_offset(&p, p0, 8);
    ravel__lint_ap_setname(&p, field, "table");
    uint32_t path = ravel__lint_ap_index(&p, ravel__lint_ap_deref(&p, field), p1, 4);
    CHECK(p.aps[path].has_param && p.aps[path].has_index);
    uint32_t k = ravel__lint_ap_root(&p, RAVEL__AP_INT, 5, 0);
    uint32_t args[2] = {ravel__lint_val1(&p, ctx), ravel__lint_val1(&p, k)};
    uint32_t s = ravel__lint_ap_subst(&p, path, args, 2);
    /* &ctx + 8, loaded, + 5*4: the constant index folds. */
    uint32_t want = ravel__lint_ap_offset(
        &p, ravel__lint_ap_deref(&p, ravel__lint_ap_offset(&p, ctx, 8)), 20);
    CHECK_EQ(s, want);
    CHECK(!p.aps[s].has_param);
    /* The field's name carried over. */
    char buf[64];
    ravel__lint_ap_lvalue(&p, ravel__lint_ap_offset(&p, ctx, 8), buf, sizeof buf);
    CHECK_STR(buf, "ctx.table");
    /* A missing argument makes the path unknown. */
    CHECK_EQ(ravel__lint_ap_subst(&p, p1, args, 1), 0);
    ravel__lint_prog_free(&p);
}

CHECK_TEST(values_are_same_or_might_be)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t a = ravel__lint_ap_root(&p, RAVEL__AP_PARAM, 0, 0);
    uint32_t b = ravel__lint_ap_root(&p, RAVEL__AP_PARAM, 1, 0);
    uint32_t phi = ravel__lint_ap_root(&p, RAVEL__AP_VALUE, 0, 7);
    uint32_t va = ravel__lint_val1(&p, a), vb = ravel__lint_val1(&p, b);
    uint32_t m[3] = {phi, a, b};
    uint32_t vphi = ravel__lint_val(&p, m, 3);
    CHECK_EQ(ravel__lint_val_same(&p, va, ravel__lint_val1(&p, a)), RAVEL__SAME_YES);
    CHECK_EQ(ravel__lint_val_same(&p, va, vb), RAVEL__SAME_NO);
    CHECK_EQ(ravel__lint_val_same(&p, vphi, va), RAVEL__SAME_MIGHT);
    CHECK_EQ(ravel__lint_val_same(&p, vb, vphi), RAVEL__SAME_MIGHT);
    /* Unknown is never the same as anything. */
    CHECK_EQ(ravel__lint_val_same(&p, ravel__lint_val1(&p, 0), ravel__lint_val1(&p, 0)),
             RAVEL__SAME_NO);
    /* Substituting a phi argument gives the alternatives as members. */
    uint32_t deref = ravel__lint_val1(&p, ravel__lint_ap_deref(&p, a));
    uint32_t s = ravel__lint_val_subst(&p, deref, &vphi, 1);
    CHECK_EQ(p.vals[s].n, 3);
    CHECK_EQ(p.vals[s].ap[0], ravel__lint_ap_deref(&p, phi));
    ravel__lint_prog_free(&p);
}

CHECK_TEST(indexes_may_alias)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t g = ravel__lint_ap_root(&p, RAVEL__AP_GLOBAL,
                                     ravel__lint_sym(&p, "a", RAVEL__LINT_NONE, RAVEL__SYM_GLOBAL), 0);
    uint32_t i = ravel__lint_ap_root(&p, RAVEL__AP_VALUE, 0, 1);
    uint32_t j = ravel__lint_ap_root(&p, RAVEL__AP_VALUE, 0, 2);
    uint32_t ai = ravel__lint_ap_index(&p, g, i, 4), aj = ravel__lint_ap_index(&p, g, j, 4);
    uint32_t aj8 = ravel__lint_ap_index(&p, g, j, 8);
    CHECK(ravel__lint_ap_may_alias(&p, ai, aj));
    CHECK(!ravel__lint_ap_may_alias(&p, ai, ai));
    CHECK(!ravel__lint_ap_may_alias(&p, ai, aj8));
    CHECK(!ravel__lint_ap_may_alias(&p, ai, ravel__lint_ap_offset(&p, g, 4)));
    /* a[i] against a fixed element: a[1] and a[0] may be it, a byte
     * inside an element or before the array may not; two indexed paths
     * are may_alias's business. */
    CHECK(ravel__lint_ap_may_overlap(&p, ai, ravel__lint_ap_offset(&p, g, 4)));
    CHECK(ravel__lint_ap_may_overlap(&p, ravel__lint_ap_offset(&p, g, 4), ai));
    CHECK(ravel__lint_ap_may_overlap(&p, ai, g));
    CHECK(!ravel__lint_ap_may_overlap(&p, ai, ravel__lint_ap_offset(&p, g, 2)));
    CHECK(!ravel__lint_ap_may_overlap(&p, ai, ravel__lint_ap_offset(&p, g, -4)));
    CHECK(!ravel__lint_ap_may_overlap(&p, ai, aj));
    /* Through a pointer: q->f[i] against q->f[3], not against r->f[3]. */
    uint32_t q = ravel__lint_ap_deref(&p, ravel__lint_ap_offset(&p, g, 64));
    uint32_t r = ravel__lint_ap_deref(&p, ravel__lint_ap_offset(&p, g, 72));
    uint32_t qfi = ravel__lint_ap_index(&p, ravel__lint_ap_offset(&p, q, 8), i, 4);
    CHECK(ravel__lint_ap_may_overlap(&p, qfi, ravel__lint_ap_offset(&p, q, 20)));
    CHECK(!ravel__lint_ap_may_overlap(&p, qfi, ravel__lint_ap_offset(&p, r, 20)));
    char buf[64];
    ravel__lint_ap_setname(&p, i, "i");
    ravel__lint_ap_lvalue(&p, ai, buf, sizeof buf);
    CHECK_STR(buf, "a[i]");
    ravel__lint_prog_free(&p);
}

CHECK_TEST(functions_are_built_and_linked)
{
    struct ravel__lint_prog p;
    ravel__lint_prog_init(&p);
    uint32_t f = ravel__lint_sym(&p, "f", RAVEL__LINT_NONE, RAVEL__SYM_FUNC);
    uint32_t g = ravel__lint_sym(&p, "g", 0, RAVEL__SYM_FUNC);
    uint32_t file = ravel__lint_file(&p, "a.c", "/src/a.c");
    CHECK_EQ(file, ravel__lint_file(&p, "a.c", "/src/a.c"));
    uint32_t id = ravel__lint_func_begin(&p, f, 1, 2, file, 1, 0);
    ravel__lint_block_begin(&p);
    uint32_t v = ravel__lint_val1(&p, ravel__lint_ap_root(&p, RAVEL__AP_PARAM, 0, 0));
    uint32_t e = ravel__lint_add_event(&p, RAVEL__EV_CALL, g, &v, 1, file, 2, 5, 0);
    ravel__lint_add_succ(&p, 1);
    ravel__lint_block_begin(&p);
    ravel__lint_add_event(&p, RAVEL__EV_RET, RAVEL__LINT_NONE, NULL, 0, file, 3, 1, 0);
    ravel__lint_func_end(&p);
    ravel__lint_prog_link(&p);
    CHECK_EQ(p.syms[f].def, id);
    CHECK_EQ(p.syms[g].def, RAVEL__LINT_NONE);
    CHECK_EQ(ravel__lint_ev_arg(&p, &p.events[e], 0), v);
    CHECK_EQ(p.blocks[p.funcs[id].first_block].nsucc, 1);
    CHECK_STR(ravel__lint_func_name(&p, id), "f");
    ravel__lint_prog_free(&p);
}

int main(void)
{
    return CHECK_RUN(paths_are_interned_and_normalised, static_symbols_stay_apart,
                     parameters_are_substituted, values_are_same_or_might_be,
                     indexes_may_alias, functions_are_built_and_linked);
}
