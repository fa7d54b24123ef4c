/*
 * flow_test.c - unit tests of the analyses on programs written by hand in
 * the program model (no compiler involved): check-then-act paths, locks,
 * calls, locals, and the lockset analysis with create and join.
 */
#include "flow.h"
#include "lockset.h"

#include "../../tests/check.h"

#include <stdarg.h>

struct t {
    struct ravel__lint_prog p;
    struct ravel__lint_specs s;
    struct ravel__lint_sources src;
    struct ravel__lint_findings out;
    struct ravel__lint_ctx cx;
    uint32_t file;
};

static void setup(struct t *t, const char *directives)
{
    memset(t, 0, sizeof *t);
    ravel__lint_prog_init(&t->p);
    ravel__lint_specs_init(&t->s, true);
    char err[200];
    if (directives)
        CHECK_EQ(ravel__lint_specs_parse(&t->s, directives, strlen(directives), err,
                                         sizeof err),
                 0);
    ravel__lint_sources_init(&t->src);
    t->file = ravel__lint_file(&t->p, "t.c", "/nonexistent/t.c");
}

static void teardown(struct t *t)
{
    ravel__lint_ctx_free(&t->cx);
    ravel__lint_findings_free(&t->out);
    ravel__lint_sources_free(&t->src);
    ravel__lint_specs_free(&t->s);
    ravel__lint_prog_free(&t->p);
}

static uint32_t sym(struct t *t, const char *name)
{
    return ravel__lint_sym(&t->p, name, RAVEL__LINT_NONE, RAVEL__SYM_FUNC);
}

static uint32_t global(struct t *t, const char *name)
{
    return ravel__lint_ap_root(&t->p, RAVEL__AP_GLOBAL,
                               ravel__lint_sym(&t->p, name, RAVEL__LINT_NONE, RAVEL__SYM_GLOBAL),
                               0);
}

static uint32_t param(struct t *t, int i)
{
    return ravel__lint_ap_root(&t->p, RAVEL__AP_PARAM, i, 0);
}

static uint32_t num(struct t *t, int64_t v)
{
    return ravel__lint_ap_root(&t->p, RAVEL__AP_INT, v, 0);
}

static uint32_t func_ap(struct t *t, const char *name)
{
    return ravel__lint_ap_root(&t->p, RAVEL__AP_FUNC, sym(t, name), 0);
}

/* A call at `line` to `name` with n arguments given as paths. */
static void call(struct t *t, uint32_t line, const char *name, int n, ...)
{
    uint32_t args[8];
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        args[i] = ravel__lint_val1(&t->p, va_arg(ap, uint32_t));
    va_end(ap);
    ravel__lint_add_event(&t->p, RAVEL__EV_CALL, sym(t, name), args, (uint32_t)n, t->file,
                          line, 1, 0);
}

static void access_(struct t *t, uint32_t line, enum ravel__lint_ev_kind k, uint32_t addr,
                    uint32_t value)
{
    uint32_t args[2] = {ravel__lint_val1(&t->p, addr), ravel__lint_val1(&t->p, value)};
    ravel__lint_add_event(&t->p, k, RAVEL__LINT_NONE, args, k == RAVEL__EV_STORE ? 2 : 1,
                          t->file, line, 1, 0);
}

static void ret(struct t *t)
{
    ravel__lint_add_event(&t->p, RAVEL__EV_RET, RAVEL__LINT_NONE, NULL, 0, t->file, 99, 1, 0);
}

/* A function of one block. */
static void begin1(struct t *t, const char *name, uint32_t nparams)
{
    ravel__lint_func_begin(&t->p, sym(t, name), nparams, 1, t->file, 1, 0);
    ravel__lint_block_begin(&t->p);
}

static void end1(struct t *t)
{
    ret(t);
    ravel__lint_func_end(&t->p);
}

static uint32_t analyze(struct t *t, bool cta, bool lockset)
{
    ravel__lint_prog_link(&t->p);
    t->cx.prog = &t->p;
    t->cx.specs = &t->s;
    t->cx.src = &t->src;
    t->cx.out = &t->out;
    t->cx.cta = cta;
    t->cx.lockset = lockset;
    ravel__lint_analyze(&t->cx);
    ravel__lint_lockset_roots(&t->cx);
    ravel__lint_findings_sort(&t->out, &t->p);
    return t->out.n;
}

static bool at(struct t *t, uint32_t line)
{
    for (uint32_t i = 0; i < t->out.n; i++)
        if (t->out.v[i].line == line)
            return true;
    return false;
}

CHECK_TEST(check_then_act_on_one_path)
{
    struct t t;
    setup(&t, NULL);
    begin1(&t, "f", 1);
    call(&t, 10, "access", 2, param(&t, 0), num(&t, 0));
    call(&t, 11, "open", 2, param(&t, 0), num(&t, 0));
    /* O_CREAT|O_EXCL: safe. */
    call(&t, 12, "open", 2, param(&t, 0), num(&t, 0100 | 0200));
    /* Another path: not the same resource. */
    call(&t, 13, "unlink", 1, param(&t, 1));
    end1(&t);
    CHECK_EQ(analyze(&t, true, true), 1);
    CHECK(at(&t, 11));
    CHECK_STR(t.out.v[0].msg, "open(...) may act on a stale check: access(...) at t.c:10 can "
                              "be invalidated by another process or thread in between");
    CHECK_EQ(t.out.v[0].nnotes, 1);
    CHECK_EQ(t.out.v[0].notes[0].line, 10);
    teardown(&t);
}

CHECK_TEST(paths_follow_the_control_flow)
{
    struct t t;
    setup(&t, NULL);
    /* b0 -> b1 (check) | b2 (act); b1 -> b3; b2 -> b3; b3: act. */
    ravel__lint_func_begin(&t.p, sym(&t, "f"), 1, 4, t.file, 1, 0);
    ravel__lint_block_begin(&t.p);
    ravel__lint_add_succ(&t.p, 1);
    ravel__lint_add_succ(&t.p, 2);
    ravel__lint_block_begin(&t.p);
    call(&t, 20, "stat", 2, param(&t, 0), num(&t, 0));
    ravel__lint_add_succ(&t.p, 3);
    ravel__lint_block_begin(&t.p);
    call(&t, 21, "unlink", 1, param(&t, 0));
    ravel__lint_add_succ(&t.p, 3);
    ravel__lint_block_begin(&t.p);
    call(&t, 22, "rmdir", 1, param(&t, 0));
    ret(&t);
    ravel__lint_func_end(&t.p);
    CHECK_EQ(analyze(&t, true, false), 1);
    CHECK(at(&t, 22) && !at(&t, 21));
    teardown(&t);
}

CHECK_TEST(a_lock_held_from_check_to_act)
{
    struct t t;
    setup(&t, "pair chk(1) -> act(1)\n");
    uint32_t m = global(&t, "m");
    begin1(&t, "held", 1);
    call(&t, 30, "pthread_mutex_lock", 1, m);
    call(&t, 31, "chk", 1, param(&t, 0));
    call(&t, 32, "act", 1, param(&t, 0));
    call(&t, 33, "pthread_mutex_unlock", 1, m);
    end1(&t);
    begin1(&t, "late", 1);
    call(&t, 40, "chk", 1, param(&t, 0));
    call(&t, 41, "pthread_mutex_lock", 1, m);
    call(&t, 42, "act", 1, param(&t, 0));
    call(&t, 43, "pthread_mutex_unlock", 1, m);
    end1(&t);
    begin1(&t, "waits", 1);
    call(&t, 50, "pthread_mutex_lock", 1, m);
    call(&t, 51, "chk", 1, param(&t, 0));
    call(&t, 52, "pthread_cond_wait", 2, global(&t, "cv"), m);
    call(&t, 53, "act", 1, param(&t, 0));
    call(&t, 54, "pthread_mutex_unlock", 1, m);
    end1(&t);
    CHECK_EQ(analyze(&t, true, false), 2);
    CHECK(at(&t, 42) && at(&t, 53) && !at(&t, 32));
    CHECK(strstr(t.out.v[0].msg, "another thread in between") != NULL);
    teardown(&t);
}

CHECK_TEST(checks_and_acts_through_calls)
{
    struct t t;
    setup(&t, NULL);
    begin1(&t, "exists", 1);
    call(&t, 60, "access", 2, param(&t, 0), num(&t, 0));
    end1(&t);
    begin1(&t, "remove2", 2);
    call(&t, 61, "unlink", 1, param(&t, 1));
    end1(&t);
    begin1(&t, "same", 2);
    call(&t, 62, "exists", 1, param(&t, 0));
    call(&t, 63, "remove2", 2, param(&t, 1), param(&t, 0));
    end1(&t);
    begin1(&t, "other", 2);
    call(&t, 64, "exists", 1, param(&t, 0));
    call(&t, 65, "remove2", 2, param(&t, 0), param(&t, 1));
    end1(&t);
    CHECK_EQ(analyze(&t, true, false), 1);
    CHECK(at(&t, 63));
    const struct ravel__lint_finding *f = &t.out.v[0];
    CHECK_EQ(f->nnotes, 2);
    CHECK_EQ(f->notes[0].line, 62);
    CHECK(strstr(f->notes[0].msg, "made by access(...) at t.c:60") != NULL);
    CHECK_EQ(f->notes[1].line, 61);
    teardown(&t);
}

CHECK_TEST(local_objects_that_never_escape)
{
    struct t t;
    setup(&t, "pair has(1) -> add(1)\n");
    begin1(&t, "add", 1);
    access_(&t, 70, RAVEL__EV_STORE, param(&t, 0), num(&t, 1));
    end1(&t);
    begin1(&t, "has", 1);
    access_(&t, 71, RAVEL__EV_LOAD, param(&t, 0), 0);
    end1(&t);
    /* Function 2 owns local 0; function 3 owns local 0 and publishes it. */
    uint32_t l2 = ravel__lint_ap_root(&t.p, RAVEL__AP_LOCAL, 2, 0);
    uint32_t l3 = ravel__lint_ap_root(&t.p, RAVEL__AP_LOCAL, 3, 0);
    begin1(&t, "private", 0);
    call(&t, 72, "has", 1, l2);
    call(&t, 73, "add", 1, l2);
    end1(&t);
    begin1(&t, "published", 0);
    access_(&t, 74, RAVEL__EV_STORE, global(&t, "pub"), l3);
    call(&t, 75, "has", 1, l3);
    call(&t, 76, "add", 1, l3);
    end1(&t);
    CHECK_EQ(analyze(&t, true, false), 1);
    CHECK(at(&t, 76) && !at(&t, 73));
    teardown(&t);
}

CHECK_TEST(lockset_with_create_and_join)
{
    struct t t;
    setup(&t, NULL);
    uint32_t x = global(&t, "x"), y = global(&t, "y"), m = global(&t, "m");
    begin1(&t, "worker", 1);
    access_(&t, 80, RAVEL__EV_STORE, x, num(&t, 1));
    call(&t, 81, "pthread_mutex_lock", 1, m);
    access_(&t, 82, RAVEL__EV_STORE, y, num(&t, 1));
    call(&t, 83, "pthread_mutex_unlock", 1, m);
    end1(&t);
    uint32_t th = ravel__lint_ap_root(&t.p, RAVEL__AP_LOCAL, 1, 0);
    begin1(&t, "main", 0);
    access_(&t, 90, RAVEL__EV_STORE, x, num(&t, 0));
    call(&t, 91, "pthread_create", 4, th, num(&t, 0), func_ap(&t, "worker"), num(&t, 0));
    access_(&t, 92, RAVEL__EV_LOAD, x, 0);
    call(&t, 93, "pthread_mutex_lock", 1, m);
    access_(&t, 94, RAVEL__EV_LOAD, y, 0);
    call(&t, 95, "pthread_mutex_unlock", 1, m);
    call(&t, 96, "pthread_join", 2, ravel__lint_ap_deref(&t.p, th), num(&t, 0));
    access_(&t, 97, RAVEL__EV_STORE, x, num(&t, 2));
    end1(&t);
    CHECK_EQ(analyze(&t, true, true), 2);
    CHECK(at(&t, 80) && at(&t, 92));
    CHECK(!at(&t, 90) && !at(&t, 97) && !at(&t, 82) && !at(&t, 94));
    const struct ravel__lint_finding *f = &t.out.v[0];
    CHECK_EQ(f->rule, RAVEL__RULE_LOCKSET);
    CHECK(strstr(f->msg, "data race on 'x'") != NULL);
    teardown(&t);
}

int main(void)
{
    return CHECK_RUN(check_then_act_on_one_path, paths_follow_the_control_flow,
                     a_lock_held_from_check_to_act, checks_and_acts_through_calls,
                     local_objects_that_never_escape, lockset_with_create_and_join);
}
