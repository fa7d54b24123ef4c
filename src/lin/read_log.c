/*
 * read_log.c - Jepsen's log lines, as in the etcd histories Porcupine
 * and the Horn & Kroening checker were measured on.
 *
 *     INFO  jepsen.util - 4	:invoke	:cas	[1 2]
 *     INFO  jepsen.util - 4	:fail	:cas	[1 2]
 *
 * Every non-blank line must be an event of this shape (fields separated
 * by spaces or tabs): a process number, a type, a function keyword and a
 * value in EDN. Line order is real-time order. The types mean what the
 * data's README and Porcupine's reader make them mean:
 *
 *   :invoke          opens a call with the value as input
 *   :ok              completes it; the value is the output
 *   :fail ... :timed-out   completed, output unknown
 *   :fail :cas       completed; the cas did not apply (output false)
 *   :fail otherwise  did not happen (Knossos)
 *   :info            timed out: may take effect at any later time or
 *                    never (never returns)
 *
 * Anything else on a line (another logger, a missing field, a value that
 * is not EDN, text after the value) stops the reader with the line
 * number: a log that is not understood is not checked.
 */
#include "read.h"

#include <stdio.h>
#include <string.h>

static int lerr(char *err, size_t errlen, uint32_t line, const char *msg)
{
    snprintf(err, errlen, "line %u: %s", line, msg);
    return -1;
}

static void skip_blank(const char **p, const char *end)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
}

/* The next blank-separated word of the line into [*w, *w + return). */
static size_t word(const char **p, const char *end, const char **w)
{
    skip_blank(p, end);
    *w = *p;
    while (*p < end && **p != ' ' && **p != '\t')
        (*p)++;
    return (size_t)(*p - *w);
}

static bool is(const char *w, size_t n, const char *s)
{
    return n == strlen(s) && !memcmp(w, s, n);
}

#define SHAPE                                                                  \
    "not a Jepsen log line (expected 'INFO jepsen.util - PROCESS :TYPE :F "    \
    "VALUE')"

static int line_event(const char *p, const char *end, uint32_t line,
                      struct ravel__lin_history *h, char *err, size_t errlen)
{
    struct ravel__lin_values *vs = &h->vals;
    const char *w;
    size_t n = word(&p, end, &w);
    if (!is(w, n, "INFO"))
        return lerr(err, errlen, line, SHAPE);
    n = word(&p, end, &w);
    if (!is(w, n, "jepsen.util"))
        return lerr(err, errlen, line, SHAPE);
    n = word(&p, end, &w);
    if (!is(w, n, "-"))
        return lerr(err, errlen, line, SHAPE);
    n = word(&p, end, &w);
    if (n == 0 || n > 9)
        return lerr(err, errlen, line, "missing or bad process number");
    int64_t pn = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < '0' || w[i] > '9')
            return lerr(err, errlen, line, "missing or bad process number");
        pn = pn * 10 + (w[i] - '0');
    }
    uint32_t proc = ravel__lin_int(vs, pn);
    const char *type;
    size_t tn = word(&p, end, &type);
    if (tn == 0)
        return lerr(err, errlen, line, "missing event type (truncated line?)");
    if (!is(type, tn, ":invoke") && !is(type, tn, ":ok") &&
        !is(type, tn, ":fail") && !is(type, tn, ":info"))
        return lerr(err, errlen, line,
                    "event type must be :invoke, :ok, :fail or :info");
    n = word(&p, end, &w);
    if (n < 2 || w[0] != ':')
        return lerr(err, errlen, line,
                    "missing function keyword (truncated line?)");
    uint32_t f =
        ravel__lin_intern(vs, RAVEL__LIN_KEYWORD, 0, w + 1, n - 1, NULL, 0);
    skip_blank(&p, end);
    if (p >= end)
        return lerr(err, errlen, line, "missing value (truncated line?)");
    char e[300];
    uint32_t vline = line;
    uint32_t v = ravel__lin_edn_value(&p, end, &vline, vs, e, sizeof e);
    if (v == RAVEL__LIN_V_NONE) {
        snprintf(err, errlen, "line %u: bad value: %s", line,
                 strncmp(e, "line ", 5) ? e : strchr(e, ':') + 2);
        return -1;
    }
    skip_blank(&p, end);
    if (p < end)
        return lerr(err, errlen, line, "unexpected text after the value");
    if (proc == RAVEL__LIN_V_NONE || f == RAVEL__LIN_V_NONE)
        return lerr(err, errlen, line, "too many values");
    int rc;
    if (is(type, tn, ":invoke")) {
        rc = ravel__lin_invoke(h, proc, f, RAVEL__LIN_V_NONE, v, line,
                               RAVEL__LIN_NEVER, e, sizeof e);
    } else if (is(type, tn, ":ok")) {
        rc = ravel__lin_complete(h, proc, f, v, line, RAVEL__LIN_NEVER, e,
                                 sizeof e);
    } else if (is(type, tn, ":info")) {
        rc = ravel__lin_abandon(h, proc, f, line, e, sizeof e);
    } else if (ravel__lin_vis_name(vs, v, "timed-out") &&
               ravel__lin_vget(vs, v)->kind == RAVEL__LIN_KEYWORD) {
        rc = ravel__lin_complete(h, proc, f, RAVEL__LIN_V_NONE, line,
                                 RAVEL__LIN_NEVER, e, sizeof e);
    } else if (ravel__lin_vis_name(vs, f, "cas")) {
        rc = ravel__lin_complete(h, proc, f, RAVEL__LIN_V_FALSE, line,
                                 RAVEL__LIN_NEVER, e, sizeof e);
    } else {
        rc = ravel__lin_forget(h, proc, f, line, e, sizeof e);
    }
    if (rc != 0)
        return lerr(err, errlen, line, e);
    return 0;
}

int ravel__lin_read_log(const char *buf, size_t len,
                        struct ravel__lin_history *h, char *err,
                        size_t errlen)
{
    const char *p = buf, *end = buf + len;
    uint32_t line = 0;
    while (p < end) {
        line++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        const char *le = eol;
        if (le > p && le[-1] == '\r')
            le--;
        const char *q = p;
        while (q < le && (*q == ' ' || *q == '\t'))
            q++;
        if (q < le && memchr(q, '\0', (size_t)(le - q)))
            return lerr(err, errlen, line, "NUL byte in a log line");
        if (q < le && line_event(q, le, line, h, err, errlen) != 0)
            return -1;
        p = nl ? nl + 1 : end;
    }
    return ravel__lin_finish(h, err, errlen);
}
