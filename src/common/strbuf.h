/*
 * strbuf.h - a growable, always NUL-terminated string buffer.
 *
 * Reports are built as text in a strbuf first and written out in one go,
 * so that a report is never interleaved with other output. Allocation
 * failure is treated as fatal (RAVEL__CHECK): a tool that cannot allocate
 * a few kilobytes for a report has nothing better to do.
 */
#ifndef RAVEL_STRBUF_H
#define RAVEL_STRBUF_H

#include "common.h"
#include <stdarg.h>

struct ravel__strbuf {
    char *data; /* NUL-terminated; owned by the buffer */
    size_t len;
    size_t cap;
};

#define RAVEL__STRBUF_INIT {NULL, 0, 0}

void ravel__sb_free(struct ravel__strbuf *sb);
void ravel__sb_reset(struct ravel__strbuf *sb);
void ravel__sb_add(struct ravel__strbuf *sb, const char *s);
void ravel__sb_addn(struct ravel__strbuf *sb, const char *s, size_t n);
void ravel__sb_addc(struct ravel__strbuf *sb, char c);
void ravel__sb_printf(struct ravel__strbuf *sb, const char *fmt, ...)
    RAVEL__PRINTF(2, 3);
void ravel__sb_vprintf(struct ravel__strbuf *sb, const char *fmt, va_list ap);
/* Appends n copies of c (padding). */
void ravel__sb_pad(struct ravel__strbuf *sb, char c, size_t n);
/* Returns the buffer's text ("" when empty); stays owned by sb. */
const char *ravel__sb_str(const struct ravel__strbuf *sb);

#endif
