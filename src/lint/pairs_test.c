/*
 * pairs_test.c - unit tests of the call table: built-ins, directives, and
 * their errors.
 */
#include "pairs.h"

#include "../../tests/check.h"

static int count_role(const struct ravel__lint_specs *s, const char *name, int role)
{
    int n = 0;
    for (const struct ravel__lint_spec *p = ravel__lint_specs_find(s, name); p;
         p = p->next == UINT32_MAX ? NULL : &s->v[p->next])
        n += p->role == role;
    return n;
}

CHECK_TEST(knows_the_built_ins)
{
    struct ravel__lint_specs s;
    ravel__lint_specs_init(&s, true);
    const char *checks[] = {"access", "faccessat", "stat", "lstat", "fstatat", "statx",
                            "realpath", "readlink"};
    const char *acts[] = {"open", "openat", "fopen", "creat", "unlink", "unlinkat", "rename",
                          "renameat", "chmod", "chown", "lchown", "truncate", "mkdir",
                          "rmdir", "link", "symlink", "execve"};
    for (size_t i = 0; i < RAVEL__COUNT(checks); i++)
        CHECK_EQ(count_role(&s, checks[i], RAVEL__ROLE_CHECK), 1);
    for (size_t i = 0; i < RAVEL__COUNT(acts); i++)
        CHECK(count_role(&s, acts[i], RAVEL__ROLE_ACT) >= 1);
    /* rename acts on both its paths; open is safe with O_EXCL. */
    CHECK_EQ(count_role(&s, "rename", RAVEL__ROLE_ACT), 2);
    const struct ravel__lint_spec *o = ravel__lint_specs_find(&s, "openat");
    CHECK(o && o->res[0] == 1 && o->excl_flags == 2);
    CHECK_EQ(s.fam[o->family].scope, RAVEL__SCOPE_PROCESS);
    CHECK_EQ(count_role(&s, "pthread_mutex_lock", RAVEL__ROLE_LOCK), 1);
    CHECK_EQ(count_role(&s, "pthread_cond_wait", RAVEL__ROLE_WAIT), 1);
    CHECK_EQ(count_role(&s, "malloc", RAVEL__ROLE_ALLOC), 1);
    const struct ravel__lint_spec *c = ravel__lint_specs_find(&s, "pthread_create");
    CHECK(c && c->role == RAVEL__ROLE_CREATE && c->res[1] == 2 && c->res[2] == 3);
    CHECK(ravel__lint_specs_find(&s, "printf") == NULL);
    ravel__lint_specs_free(&s);
    ravel__lint_specs_init(&s, false);
    CHECK_EQ(count_role(&s, "access", RAVEL__ROLE_CHECK), 0);
    CHECK_EQ(count_role(&s, "pthread_mutex_unlock", RAVEL__ROLE_UNLOCK), 1);
    ravel__lint_specs_free(&s);
}

static int directive(struct ravel__lint_specs *s, const char *line, char *err)
{
    return ravel__lint_specs_directive(s, line, strlen(line), err, 200);
}

CHECK_TEST(reads_directives)
{
    struct ravel__lint_specs s;
    char err[200];
    ravel__lint_specs_init(&s, false);
    CHECK_EQ(directive(&s, " pair lookup(1,2), has(1,2) -> insert(1,2), put( 1 , 2 ) */", err), 0);
    CHECK_EQ(directive(&s, "pair is_ready() -> make_ready()", err), 0);
    CHECK_EQ(directive(&s, "lock my_lock(1)", err), 0);
    CHECK_EQ(directive(&s, "unlock my_unlock(2)", err), 0);
    CHECK_EQ(directive(&s, "# a comment", err), 0);
    CHECK_EQ(directive(&s, "   ", err), 0);
    CHECK_EQ(count_role(&s, "has", RAVEL__ROLE_CHECK), 1);
    CHECK_EQ(count_role(&s, "put", RAVEL__ROLE_ACT), 1);
    const struct ravel__lint_spec *l = ravel__lint_specs_find(&s, "lookup");
    const struct ravel__lint_spec *p = ravel__lint_specs_find(&s, "put");
    CHECK(l && p && l->family == p->family && l->nres == 2 && l->res[1] == 1);
    CHECK_STR(s.fam[l->family].name, "lookup -> insert");
    CHECK_EQ(s.fam[l->family].scope, RAVEL__SCOPE_THREAD);
    CHECK_EQ(ravel__lint_specs_find(&s, "is_ready")->nres, 0);
    CHECK_EQ(ravel__lint_specs_find(&s, "my_unlock")->res[0], 1);
    /* The same directive again (a header seen from two files): once. */
    uint32_t n = s.n;
    CHECK_EQ(directive(&s, "pair lookup(1, 2), has(1,2) -> insert(1,2), put(1,2)", err), 0);
    CHECK_EQ(s.n, n);
    ravel__lint_specs_free(&s);
}

CHECK_TEST(rejects_bad_directives)
{
    struct ravel__lint_specs s;
    char err[200];
    ravel__lint_specs_init(&s, false);
    uint32_t builtins = s.n;
    struct {
        const char *line, *want;
    } cases[] = {
        {"pair a(1) b(1)", "expected '->' between the checks and the acts"},
        {"pair a(0) -> b(1)", "argument positions count from 1"},
        {"pair a(33) -> b(1)", "argument position out of range (1 to 32)"},
        {"pair a(1) -> b(1,2)", "every call of a pair must name the same number of arguments"},
        {"pair a(1 -> b(1)", "expected ',' or ')' in the argument positions"},
        {"pair a -> b(1)", "expected '(' and argument positions after the name"},
        {"pair (1) -> b(1)", "expected a function name"},
        {"pair a(1) -> b(1) extra", "unexpected text after the pair"},
        {"pair a(1,2,3,4,5) -> b(1,2,3,4,5)", "too many argument positions (at most 4)"},
        {"lock m(1,2)", "a lock function names exactly one argument: the lock"},
        {"frob x(1)", "unknown directive (expected 'pair', 'lock' or 'unlock')"},
        {"pair a(x) -> b(1)", "expected an argument position (1, 2, ...)"},
    };
    for (size_t i = 0; i < RAVEL__COUNT(cases); i++) {
        CHECK_EQ(directive(&s, cases[i].line, err), -1);
        CHECK_STR(err, cases[i].want);
    }
    char name[400];
    memset(name, 'a', sizeof name - 1);
    name[sizeof name - 1] = 0;
    char line[500];
    snprintf(line, sizeof line, "lock %s(1)", name);
    CHECK_EQ(directive(&s, line, err), -1);
    CHECK_STR(err, "function name too long");
    CHECK_EQ(s.n, builtins); /* nothing half-added */
    const char *file = "# pairs\npair a(1) -> b(1)\n\nlock c)\n";
    CHECK_EQ(ravel__lint_specs_parse(&s, file, strlen(file), err, sizeof err), -1);
    CHECK_STR(err, "4: expected '(' and argument positions after the name");
    ravel__lint_specs_free(&s);
}

int main(void)
{
    return CHECK_RUN(knows_the_built_ins, reads_directives, rejects_bad_directives);
}
