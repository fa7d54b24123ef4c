/*
 * strbuf.c - growable string buffer (see strbuf.h).
 */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_grow(struct ravel__strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    char *d = realloc(sb->data, cap);
    RAVEL__CHECK(d != NULL);
    sb->data = d;
    sb->cap = cap;
}

void ravel__sb_free(struct ravel__strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

void ravel__sb_reset(struct ravel__strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = 0;
}

void ravel__sb_addn(struct ravel__strbuf *sb, const char *s, size_t n)
{
    sb_grow(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void ravel__sb_add(struct ravel__strbuf *sb, const char *s)
{
    ravel__sb_addn(sb, s, strlen(s));
}

void ravel__sb_addc(struct ravel__strbuf *sb, char c)
{
    ravel__sb_addn(sb, &c, 1);
}

void ravel__sb_pad(struct ravel__strbuf *sb, char c, size_t n)
{
    sb_grow(sb, n);
    memset(sb->data + sb->len, c, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void ravel__sb_vprintf(struct ravel__strbuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    RAVEL__CHECK(n >= 0);
    if ((size_t)n < sizeof small) {
        ravel__sb_addn(sb, small, (size_t)n);
    } else {
        sb_grow(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
        sb->len += (size_t)n;
    }
    va_end(ap2);
}

void ravel__sb_printf(struct ravel__strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ravel__sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *ravel__sb_str(const struct ravel__strbuf *sb)
{
    return sb->data ? sb->data : "";
}
