/*
 * check.c - ravel_assert and its comparisons (include/ravel.h).
 *
 * A failing check is a failure of the program under test, so it is
 * recorded like a failed assert(): kind "assertion", with the check's
 * own file:line and function (the report's headline and location use
 * them, as they use assert()'s), and the execution ends there. What a
 * check adds over assert() is the values: `ravel_assert_eq(count, 2)`
 * fails with "count == 2 failed: count is 1", so the report says what
 * the interleaving produced, not only that it was wrong.
 *
 * The message also goes to the execution's stderr in the shape assert()
 * prints, so the report's "program output" shows it where the program's
 * own output puts it. Outside ravel's control (a thread ravel did not
 * create, or the program run without the runtime taking over) a failing
 * check prints the same line and aborts, as assert() would.
 *
 * None of these is a scheduling point; a failing one does not return.
 */
#include "unit.h"

#include "../../include/ravel.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Ends the execution with the failure `what` at file:line in func. */
RAVEL__NORETURN static void check_fail(const char *file, int line,
                                       const char *func, uint64_t pc,
                                       const char *what)
{
    struct ravel__worker *w = ravel__controlled();
    fprintf(stderr, "%s:%d: %s%s%s\n", file ? file : "?", line,
            func ? func : "", func ? ": " : "", what);
    fflush(stderr);
    if (!w)
        abort();
    struct ravel__exec *x = ravel__rt.x;
    ravel__fail(x, RAVEL__FAIL_ASSERTION, w->slot, pc, "%s", what);
    snprintf(x->failure.file, sizeof x->failure.file, "%s", file ? file : "");
    snprintf(x->failure.func, sizeof x->failure.func, "%s", func ? func : "");
    x->failure.line = line > 0 ? (uint32_t)line : 0;
    x->ended = RAVEL__END_FAILURE;
    ravel__end_execution(w);
}

RAVEL__EXPORT void ravel_check_failed(const char *file, int line,
                                      const char *func, const char *expr)
{
    char what[RAVEL__MSG_MAX];
    snprintf(what, sizeof what, "ravel_assert(%s) failed", expr);
    check_fail(file, line, func, RAVEL__CALLER_PC, what);
}

/* "a is 1", or nothing when the text of `a` is its value (a literal). */
static void value_part(char *buf, size_t len, const char *text,
                       const char *value)
{
    if (!strcmp(text, value))
        buf[0] = 0;
    else
        snprintf(buf, len, "%s is %s", text, value);
}

RAVEL__NORETURN static void compare_fail(const char *file, int line, const char *func,
                         uint64_t pc, const char *a_text, const char *op,
                         const char *b_text, const char *a, const char *b)
{
    char pa[RAVEL__MSG_MAX / 2], pb[RAVEL__MSG_MAX / 2];
    value_part(pa, sizeof pa, a_text, a);
    value_part(pb, sizeof pb, b_text, b);
    char what[RAVEL__MSG_MAX];
    int n = snprintf(what, sizeof what, "%s %s %s failed: %s%s%s", a_text,
                     op, b_text, pa, pa[0] && pb[0] ? ", " : "", pb);
    if (n >= (int)sizeof what) /* a message is cut at RAVEL__MSG_MAX */
        memcpy(what + sizeof what - 4, "...", 4);
    check_fail(file, line, func, pc, what);
}

RAVEL__EXPORT void ravel_check_failed_int(const char *file, int line,
                                          const char *func,
                                          const char *a_text, const char *op,
                                          const char *b_text, long long a,
                                          long long b)
{
    char va[32], vb[32];
    snprintf(va, sizeof va, "%lld", a);
    snprintf(vb, sizeof vb, "%lld", b);
    compare_fail(file, line, func, RAVEL__CALLER_PC, a_text, op, b_text, va,
                 vb);
}

RAVEL__EXPORT void ravel_check_failed_uint(const char *file, int line,
                                           const char *func,
                                           const char *a_text, const char *op,
                                           const char *b_text,
                                           unsigned long long a,
                                           unsigned long long b)
{
    char va[32], vb[32];
    snprintf(va, sizeof va, "%llu", a);
    snprintf(vb, sizeof vb, "%llu", b);
    compare_fail(file, line, func, RAVEL__CALLER_PC, a_text, op, b_text, va,
                 vb);
}

/* A string for a message: quoted and cut short, or NULL. */
static void quote(char *buf, size_t len, const char *s)
{
    if (!s) {
        snprintf(buf, len, "NULL");
        return;
    }
    size_t n = strlen(s);
    size_t room = len > 8 ? len - 8 : 0;
    if (n <= room)
        snprintf(buf, len, "\"%s\"", s);
    else
        snprintf(buf, len, "\"%.*s\"...", (int)room, s);
}

RAVEL__EXPORT void ravel_check_str_eq(const char *file, int line,
                                      const char *func, const char *a_text,
                                      const char *b_text, const char *a,
                                      const char *b)
{
    if (a == b || (a && b && !strcmp(a, b)))
        return;
    char va[RAVEL__MSG_MAX / 4], vb[RAVEL__MSG_MAX / 4];
    quote(va, sizeof va, a);
    quote(vb, sizeof vb, b);
    compare_fail(file, line, func, RAVEL__CALLER_PC, a_text, "==", b_text, va,
                 vb);
}
