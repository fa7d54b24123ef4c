/*
 * source.c - reading, quoting and scanning source files (see source.h).
 */
#include "source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ravel__lint_sources_init(struct ravel__lint_sources *s)
{
    memset(s, 0, sizeof *s);
}

void ravel__lint_sources_free(struct ravel__lint_sources *s)
{
    for (uint32_t i = 0; i < s->n; i++) {
        free(s->v[i].path);
        free(s->v[i].text);
        free(s->v[i].line_at);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

static struct ravel__lint_srcfile *get(struct ravel__lint_sources *s,
                                       const char *path)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].path, path))
            return &s->v[i];
    if (s->n == s->cap) {
        uint32_t nc = s->cap ? s->cap * 2 : 16;
        struct ravel__lint_srcfile *nv = realloc(s->v, (size_t)nc * sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        s->v = nv;
        s->cap = nc;
    }
    struct ravel__lint_srcfile *f = &s->v[s->n++];
    memset(f, 0, sizeof *f);
    size_t n = strlen(path);
    f->path = malloc(n + 1);
    RAVEL__CHECK(f->path != NULL);
    memcpy(f->path, path, n + 1);
    f->text = ravel__read_file(path, RAVEL__LINT_SOURCE_LIMIT, &f->len);
    if (!f->text)
        return f;
    uint32_t cap = 1024;
    f->line_at = malloc(cap * sizeof *f->line_at);
    RAVEL__CHECK(f->line_at != NULL);
    f->line_at[0] = 0; /* unused: lines count from 1 */
    f->line_at[1] = 0;
    f->nlines = 1;
    for (size_t i = 0; i < f->len; i++) {
        if (f->text[i] != '\n' || i + 1 >= f->len)
            continue;
        if (f->nlines + 2 > cap) {
            cap *= 2;
            uint32_t *nl = realloc(f->line_at, cap * sizeof *nl);
            RAVEL__CHECK(nl != NULL);
            f->line_at = nl;
        }
        f->line_at[++f->nlines] = (uint32_t)(i + 1);
    }
    return f;
}

bool ravel__lint_source_line(struct ravel__lint_sources *s, const char *path,
                             uint32_t line, const char **out, size_t *len)
{
    struct ravel__lint_srcfile *f = get(s, path);
    if (!f->text || line == 0 || line > f->nlines)
        return false;
    const char *p = f->text + f->line_at[line];
    const char *e = memchr(p, '\n', f->len - f->line_at[line]);
    *out = p;
    *len = e ? (size_t)(e - p) : f->len - f->line_at[line];
    if (*len && p[*len - 1] == '\r')
        (*len)--;
    return true;
}

void ravel__lint_quote_call(struct ravel__lint_sources *s, const char *path,
                            uint32_t line, uint32_t col, const char *fallback,
                            char *buf, size_t len)
{
    struct ravel__lint_srcfile *f = path ? get(s, path) : NULL;
    if (!f || !f->text || line == 0 || line > f->nlines || col == 0)
        goto fallback;
    size_t at = f->line_at[line] + col - 1;
    if (at >= f->len)
        goto fallback;
    const char *p = f->text + at, *end = f->text + f->len;
    /* A callee: identifiers joined by . or -> (p->ops.open(...)). */
    if (!(isalpha((unsigned char)*p) || *p == '_'))
        goto fallback;
    char out[RAVEL__LINT_QUOTE_MAX * 2];
    size_t n = 0;
    for (;;) {
        while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
            out[n < sizeof out - 1 ? n++ : n] = *p++;
        if (end - p >= 2 && p[0] == '-' && p[1] == '>')
            out[n++] = *p++, out[n++] = *p++;
        else if (p < end && *p == '.')
            out[n++] = *p++;
        else
            break;
        if (n > RAVEL__LINT_QUOTE_MAX)
            goto fallback;
    }
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || *p != '(')
        goto fallback;
    int depth = 0;
    bool cut = false, blank = false;
    char quote = 0;
    for (; p < end; p++) {
        char c = *p;
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' ';
        if (!quote && c == ' ') {
            blank = true;
            continue;
        }
        if (blank && n && out[n - 1] != '(' && c != ')' && c != ',') {
            if (n < RAVEL__LINT_QUOTE_MAX)
                out[n++] = ' ';
            else
                cut = true;
        }
        blank = false;
        if (n < RAVEL__LINT_QUOTE_MAX)
            out[n++] = c;
        else
            cut = true;
        if (quote) {
            if (c == '\\' && p + 1 < end) {
                p++;
                if (n < RAVEL__LINT_QUOTE_MAX)
                    out[n++] = *p;
            } else if (c == quote) {
                quote = 0;
            }
            continue;
        }
        if (c == '"' || c == '\'')
            quote = c;
        else if (c == '(')
            depth++;
        else if (c == ')' && --depth == 0)
            break;
        if (p - (f->text + at) > 4096)
            goto fallback; /* no closing parenthesis nearby */
    }
    if (depth != 0)
        goto fallback;
    if (cut) {
        n = RAVEL__LINT_QUOTE_MAX - 4;
        snprintf(buf, len, "%.*s...)", (int)n, out);
    } else {
        snprintf(buf, len, "%.*s", (int)n, out);
    }
    return;
fallback:
    snprintf(buf, len, "%s(...)", fallback ? fallback : "?");
}

/* Is "ravel-lint:" followed by a directive keyword? Prose that mentions
 * the tag ("ravel-lint: directives are ...") is not a directive. */
/* ---- lvalues ---- */

static bool idch(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Index of the last non-blank character at or before i (>= lo), or -1. */
static long back_nb(const char *t, long i, long lo)
{
    while (i >= lo && blank(t[i]))
        i--;
    return i >= lo ? i : -1;
}

/* Start of the postfix expression ending at index e (a->b.c[i], (*p).x),
 * with a unary '*' before it; -1 when there is none. */
static long back_postfix(const char *t, long e, long lo)
{
    long i = back_nb(t, e, lo), start = -1;
    while (i >= 0) {
        if (t[i] == ']' || t[i] == ')') {
            char open = t[i] == ']' ? '[' : '(', close = t[i];
            int depth = 0;
            for (; i >= lo; i--) {
                if (t[i] == close)
                    depth++;
                else if (t[i] == open && --depth == 0)
                    break;
            }
            if (i < lo)
                return -1;
            start = i;
            long j = back_nb(t, i - 1, lo);
            if (close == ']') { /* a subscript: its base comes right before */
                if (j < 0)
                    return -1;
                i = j;
                continue;
            }
            if (j >= 0 && idch(t[j])) { /* a call: f(x)->y */
                i = j;
                continue;
            }
            i = j; /* a parenthesised expression: (*p).x */
        } else if (idch(t[i])) {
            while (i >= lo && idch(t[i]))
                i--;
            start = i + 1;
            i = back_nb(t, i, lo);
        } else {
            return -1;
        }
        /* What joins this piece to the one before it. */
        if (i >= 0 && t[i] == '.') {
            i = back_nb(t, i - 1, lo);
        } else if (i >= 1 && t[i] == '>' && t[i - 1] == '-') {
            i = back_nb(t, i - 2, lo);
        } else {
            break;
        }
    }
    /* A unary '*' (or several) in front. */
    for (;;) {
        long j = back_nb(t, start - 1, lo);
        if (j < 0 || t[j] != '*')
            break;
        long k = back_nb(t, j - 1, lo);
        if (k >= 0 && (idch(t[k]) || t[k] == ')' || t[k] == ']'))
            break; /* a multiplication */
        start = j;
    }
    return start;
}

/* End (exclusive) of the postfix expression starting at index i. */
static long fwd_postfix(const char *t, long i, long hi, bool whole)
{
    if (i >= hi || !(isalpha((unsigned char)t[i]) || t[i] == '_'))
        return -1;
    while (i < hi && idch(t[i]))
        i++;
    long end = i;
    while (whole) {
        long j = i;
        while (j < hi && blank(t[j]))
            j++;
        if (j < hi && t[j] == '[') {
            int depth = 0;
            for (; j < hi; j++) {
                if (t[j] == '[')
                    depth++;
                else if (t[j] == ']' && --depth == 0)
                    break;
            }
            if (j >= hi)
                break;
            i = end = j + 1;
        } else if (j < hi && (t[j] == '.' || (t[j] == '-' && j + 1 < hi && t[j + 1] == '>'))) {
            j += t[j] == '.' ? 1 : 2;
            while (j < hi && blank(t[j]))
                j++;
            if (j >= hi || !(isalpha((unsigned char)t[j]) || t[j] == '_'))
                break;
            while (j < hi && idch(t[j]))
                j++;
            i = end = j;
        } else {
            break;
        }
    }
    return end;
}

bool ravel__lint_quote_lvalue(struct ravel__lint_sources *s, const char *path,
                              uint32_t line, uint32_t col, bool whole, char *buf,
                              size_t len)
{
    struct ravel__lint_srcfile *f = path ? get(s, path) : NULL;
    if (!f || !f->text || line == 0 || line > f->nlines || col == 0 || len == 0)
        return false;
    const char *t = f->text;
    long at = (long)f->line_at[line] + (long)col - 1;
    if (at >= (long)f->len)
        return false;
    /* Look no further than a few lines either way. */
    long lo = at > 400 ? at - 400 : 0;
    long hi = at + 400 < (long)f->len ? at + 400 : (long)f->len;
    long b = -1, e = -1;
    /* Inside a name (clang places some members reached through macros
     * there): from its start. */
    while (at > lo && idch(t[at]) && idch(t[at - 1]))
        at--;
    char c = t[at], c1 = at + 1 < hi ? t[at + 1] : 0;
    bool incdec = (c == '+' && c1 == '+') || (c == '-' && c1 == '-');
    long prev = back_nb(t, at - 1, lo);
    if (incdec && prev >= 0 && (idch(t[prev]) || t[prev] == ']' || t[prev] == ')')) {
        e = prev + 1; /* x++ */
        b = back_postfix(t, prev, lo);
    } else if (incdec || c == '*') {
        long j = at + (incdec ? 2 : 0);
        int stars = 0;
        while (j < hi && (t[j] == '*' || blank(t[j])))
            stars += t[j++] == '*';
        e = fwd_postfix(t, j, hi, true);
        b = incdec ? j : at;
        if (!incdec && stars == 0)
            return false;
    } else if (c == '=' || ((c == '<' || c == '>') && c1 == c) ||
               (strchr("+-*/%&|^", c) && c1 == '=')) {
        if (c == '=' && c1 == '=')
            return false;
        e = prev + 1;
        b = prev >= 0 ? back_postfix(t, prev, lo) : -1;
    } else if (c == '.' || (c == '-' && c1 == '>')) {
        /* A member reached through a macro (`mem0.mutex` with mem0 a
         * macro) is placed at the '.' or '->'. */
        e = at + (c == '.' ? 1 : 2);
        while (e < hi && blank(t[e]))
            e++;
        if (e >= hi || !(isalpha((unsigned char)t[e]) || t[e] == '_'))
            return false;
        while (e < hi && idch(t[e]))
            e++;
        b = back_postfix(t, e - 1, lo);
    } else if (isalpha((unsigned char)c) || c == '_') {
        bool member = (prev >= 0 && t[prev] == '.') ||
                      (prev >= 1 && t[prev] == '>' && t[prev - 1] == '-');
        if (member && t[prev] == '.') { /* not the fraction of 1.5 */
            long k = prev - 1;
            while (k >= lo && idch(t[k]))
                k--;
            if (k + 1 < prev && isdigit((unsigned char)t[k + 1]))
                member = false;
        }
        if (member) {
            e = at;
            while (e < hi && idch(t[e]))
                e++;
            b = back_postfix(t, e - 1, lo);
        } else {
            b = at;
            e = fwd_postfix(t, at, hi, whole);
        }
    } else {
        return false;
    }
    if (b < 0 || e <= b)
        return false;
    /* A call (memcpy(&x, ...) is a store at the call) is not an lvalue. */
    long nx = e;
    while (nx < hi && blank(t[nx]))
        nx++;
    if (nx < hi && t[nx] == '(')
        return false;
    char out[RAVEL__LINT_QUOTE_MAX + 4];
    size_t n = 0;
    for (long i = b; i < e; i++) {
        if (blank(t[i])) {
            long k = i;
            while (k < e && blank(t[k]))
                k++;
            if (n && k < e && idch(out[n - 1]) && idch(t[k]))
                out[n++] = ' ';
            i = k - 1;
            continue;
        }
        if (t[i] == ';' || t[i] == '{' || t[i] == '}' || t[i] == '"' || t[i] == '\'')
            return false;
        if (n >= RAVEL__LINT_QUOTE_MAX)
            return false;
        out[n++] = t[i];
    }
    if (!n)
        return false;
    out[n] = 0;
    snprintf(buf, len, "%s", out);
    return true;
}

static bool directive_follows(const char *d, const char *e)
{
    while (d < e && (*d == ' ' || *d == '\t'))
        d++;
    static const char *const kw[] = {"pair", "lock", "unlock"};
    for (size_t i = 0; i < RAVEL__COUNT(kw); i++) {
        size_t n = strlen(kw[i]);
        if ((size_t)(e - d) > n && !memcmp(d, kw[i], n) && (d[n] == ' ' || d[n] == '\t'))
            return true;
    }
    return false;
}

int ravel__lint_scan_directives(struct ravel__lint_sources *s, const char *path,
                                struct ravel__lint_specs *specs, char *err,
                                size_t errlen)
{
    static const char tag[] = "ravel-lint:";
    const size_t taglen = sizeof tag - 1;
    struct ravel__lint_srcfile *f = get(s, path);
    if (!f->text)
        return 0;
    /* A small lexer: directives count only inside comments, never in
     * string or character literals. */
    enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STRING, CHAR } st = CODE;
    const char *t = f->text, *end = f->text + f->len;
    uint32_t line = 1;
    for (const char *p = t; p < end; p++) {
        char c = *p;
        if (c == '\n') {
            line++;
            if (st == LINE_COMMENT)
                st = CODE;
            continue;
        }
        switch (st) {
        case CODE:
            if (c == '/' && p + 1 < end && p[1] == '/')
                st = LINE_COMMENT, p++;
            else if (c == '/' && p + 1 < end && p[1] == '*')
                st = BLOCK_COMMENT, p++;
            else if (c == '"')
                st = STRING;
            else if (c == '\'')
                st = CHAR;
            continue;
        case STRING:
        case CHAR:
            if (c == '\\' && p + 1 < end && p[1] != '\n')
                p++;
            else if (c == (st == STRING ? '"' : '\''))
                st = CODE;
            continue;
        case BLOCK_COMMENT:
            if (c == '*' && p + 1 < end && p[1] == '/') {
                st = CODE;
                p++;
                continue;
            }
            break;
        case LINE_COMMENT:
            break;
        }
        if (c != 'r' || (size_t)(end - p) < taglen || memcmp(p, tag, taglen) != 0)
            continue;
        const char *d = p + taglen;
        const char *e = memchr(d, '\n', (size_t)(end - d));
        if (!e)
            e = end;
        if (st == BLOCK_COMMENT) {
            for (const char *q = d; q + 1 < e; q++)
                if (q[0] == '*' && q[1] == '/') {
                    e = q;
                    break;
                }
        }
        if (!directive_follows(d, e))
            continue;
        char why[256];
        if (ravel__lint_specs_directive(specs, d, (size_t)(e - d), why, sizeof why) != 0) {
            snprintf(err, errlen, "%s:%u: bad ravel-lint directive: %s", path, line, why);
            return -1;
        }
        p = e - 1;
    }
    return 0;
}
