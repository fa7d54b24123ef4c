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

int main(void)
{
    return CHECK_RUN(quotes_calls, reads_directives_in_comments);
}
