/*
 * source_test.c - unit tests of quoting calls from the source and of
 * reading ravel-lint directives in comments.
 */
#include "source.h"

#include "../../tests/check.h"

#include <stdlib.h>
#include <unistd.h>

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/ravel-source-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return path;
    if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        path[0] = 0;
    close(fd);
    return path;
}

static const char text[] =
    "int f(void)\n"                                   /* 1 */
    "{\n"                                             /* 2 */
    "    if (lookup(t->names[i],\n"                   /* 3 */
    "               \"a(b\" ))\n"                     /* 4 */
    "        ops->insert(t, key(k), 'x');\n"          /* 5 */
    "    return 1 + access(p, 0);\r\n"                /* 6 */
    "    very_long_function_name(aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbb, "
    "cccccccccccccccccccccccc, dddddddddddddddddd);\n" /* 7 */
    "    broken(;\n";                                 /* 8 */

CHECK_TEST(quotes_calls)
{
    char *path = write_temp(text);
    struct ravel__lint_sources s;
    ravel__lint_sources_init(&s);
    char buf[200];
    ravel__lint_quote_call(&s, path, 3, 9, "lookup", buf, sizeof buf);
    CHECK_STR(buf, "lookup(t->names[i], \"a(b\")");
    ravel__lint_quote_call(&s, path, 5, 9, "insert", buf, sizeof buf);
    CHECK_STR(buf, "ops->insert(t, key(k), 'x')");
    ravel__lint_quote_call(&s, path, 6, 16, "access", buf, sizeof buf);
    CHECK_STR(buf, "access(p, 0)");
    ravel__lint_quote_call(&s, path, 7, 5, "f", buf, sizeof buf);
    CHECK_EQ(strlen(buf), RAVEL__LINT_QUOTE_MAX);
    CHECK(!strncmp(buf, "very_long_function_name(aaaa", 28));
    CHECK(!strcmp(buf + strlen(buf) - 4, "...)"));
    /* Not a call there, no closing parenthesis, no such line or file. */
    ravel__lint_quote_call(&s, path, 6, 5, "access", buf, sizeof buf);
    CHECK_STR(buf, "access(...)");
    ravel__lint_quote_call(&s, path, 8, 5, "broken", buf, sizeof buf);
    CHECK_STR(buf, "broken(...)");
    ravel__lint_quote_call(&s, path, 99, 1, "gone", buf, sizeof buf);
    CHECK_STR(buf, "gone(...)");
    ravel__lint_quote_call(&s, "/nonexistent/x.c", 1, 1, "nofile", buf, sizeof buf);
    CHECK_STR(buf, "nofile(...)");
    const char *line;
    size_t len;
    CHECK(ravel__lint_source_line(&s, path, 6, &line, &len));
    CHECK_EQ(len, 28); /* without the \r\n */
    CHECK(!ravel__lint_source_line(&s, path, 9, &line, &len));
    ravel__lint_sources_free(&s);
    unlink(path);
    free(path);
}

CHECK_TEST(reads_directives_in_comments)
{
    char *path = write_temp("// ravel-lint: pair a(1) -> b(1)\n"
                            "/* ravel-lint: lock l(1) */\n"
                            "/*\n * ravel-lint: unlock u(1)\n */\n"
                            " * ravel-lint: unlock v(1)\n"
                            "const char *s = \"ravel-lint: pair x(1) -> y(1)\";\n");
    struct ravel__lint_sources s;
    struct ravel__lint_specs sp;
    ravel__lint_sources_init(&s);
    ravel__lint_specs_init(&sp, false);
    char err[300];
    CHECK_EQ(ravel__lint_scan_directives(&s, path, &sp, err, sizeof err), 0);
    CHECK(ravel__lint_specs_find(&sp, "a") && ravel__lint_specs_find(&sp, "b"));
    CHECK(ravel__lint_specs_find(&sp, "l") && ravel__lint_specs_find(&sp, "u"));
    /* Not in a string literal, nor in code that looks like a comment. */
    CHECK(ravel__lint_specs_find(&sp, "x") == NULL);
    CHECK(ravel__lint_specs_find(&sp, "v") == NULL);
    ravel__lint_specs_free(&sp);
    ravel__lint_sources_free(&s);
    unlink(path);
    free(path);

    /* Prose about the tag is not a directive; a keyword makes one. */
    path = write_temp("/* ravel-lint: directives are comments\n"
                      "   ravel-lint: lock m(1) */ int x; char c = '\"';\n"
                      "// ravel-lint: pair a(1) ->\n");
    ravel__lint_sources_init(&s);
    ravel__lint_specs_init(&sp, false);
    CHECK_EQ(ravel__lint_scan_directives(&s, path, &sp, err, sizeof err), -1);
    char want[300];
    snprintf(want, sizeof want, "%s:3: bad ravel-lint directive: expected a function name", path);
    CHECK_STR(err, want);
    CHECK(ravel__lint_specs_find(&sp, "m") != NULL);
    ravel__lint_specs_free(&sp);
    ravel__lint_sources_free(&s);
    unlink(path);
    free(path);
}

/* The places clang gives loads and stores (checked against clang 14's
 * debug locations for the same text). */
static const char lv[] =
    "    g = x;\n"                      /* 1: store at '=' col 7 */
    "    g++; ++g; g += 2;\n"           /* 2: cols 6, 10, 17 */
    "    pool->queue.len = 1;\n"        /* 3: store col 21 */
    "    x = pool->queue.len;\n"        /* 4: load at 'len' col 21 */
    "    x = a [ i ];\n"                /* 5: load at 'a' col 9 */
    "    *gp = 1; x = *gp;\n"           /* 6: store col 9, load col 18 */
    "    pool->qp->next->len++;\n"      /* 7: load of pool->qp col 11, store col 24 */
    "    x = arr[i].a[i+1] * y;\n"      /* 8: load col 9 */
    "    PP->qp->a[i] = 2;\n"           /* 9: load of PP col 5, store col 18 */
    "    memcpy(&g, p, 4); x == y;\n"   /* 10: call col 5, compare col 24 */
    "    (*p).n = 1; x = y * *q;\n"     /* 11: store col 12, load col 25 */
    "    x = mem0.mutex;\n";            /* 12: load at 'mutex' col 14 */

CHECK_TEST(quotes_lvalues)
{
    char *path = write_temp(lv);
    struct ravel__lint_sources s;
    ravel__lint_sources_init(&s);
    static const struct {
        uint32_t line, col;
        bool whole;
        const char *want;
    } cases[] = {
        {1, 7, false, "g"},         {2, 6, false, "g"},
        {2, 10, false, "g"},        {2, 17, false, "g"},
        {3, 21, true, "pool->queue.len"}, {4, 21, true, "pool->queue.len"},
        {5, 9, true, "a[i]"},       {5, 9, false, "a"},
        {6, 9, true, "*gp"},        {6, 18, true, "*gp"},
        {7, 11, true, "pool->qp"},  {7, 24, true, "pool->qp->next->len"},
        {8, 9, true, "arr[i].a[i+1]"}, {9, 5, false, "PP"},
        {9, 18, true, "PP->qp->a[i]"}, {11, 12, true, "(*p).n"},
        {11, 25, true, "*q"},       {3, 16, true, "pool->queue.len"},
        {7, 9, true, "pool->qp"},   {12, 14, true, "mem0.mutex"},
        {12, 16, true, "mem0.mutex"},
    };
    char buf[100];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf[0] = 0;
        CHECK(ravel__lint_quote_lvalue(&s, path, cases[i].line, cases[i].col, cases[i].whole,
                                       buf, sizeof buf));
        CHECK_STR(buf, cases[i].want);
    }
    /* A call and a comparison are not lvalues. */
    CHECK(!ravel__lint_quote_lvalue(&s, path, 10, 5, true, buf, sizeof buf));
    CHECK(!ravel__lint_quote_lvalue(&s, path, 10, 24, true, buf, sizeof buf));
    CHECK(!ravel__lint_quote_lvalue(&s, path, 99, 1, true, buf, sizeof buf));
    ravel__lint_sources_free(&s);
    unlink(path);
    free(path);
}

int main(void)
{
    return CHECK_RUN(quotes_calls, reads_directives_in_comments, quotes_lvalues);
}
