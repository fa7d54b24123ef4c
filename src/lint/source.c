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
