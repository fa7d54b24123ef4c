/*
 * json.c - JSON string escaping (see json.h).
 */
#include "json.h"

#include <stdio.h>

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static size_t utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    size_t n;
    unsigned min;
    unsigned cp;
    if ((p[0] & 0xe0) == 0xc0) {
        n = 2, min = 0x80, cp = p[0] & 0x1f;
    } else if ((p[0] & 0xf0) == 0xe0) {
        n = 3, min = 0x800, cp = p[0] & 0x0f;
    } else if ((p[0] & 0xf8) == 0xf0) {
        n = 4, min = 0x10000, cp = p[0] & 0x07;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void ravel__json_str(struct ravel__strbuf *sb, const char *s)
{
    ravel__sb_addc(sb, '"');
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            ravel__sb_addc(sb, '\\');
            ravel__sb_addc(sb, (char)c);
            p++;
        } else if (c == '\n') {
            ravel__sb_add(sb, "\\n");
            p++;
        } else if (c == '\t') {
            ravel__sb_add(sb, "\\t");
            p++;
        } else if (c == '\r') {
            ravel__sb_add(sb, "\\r");
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            ravel__sb_printf(sb, "\\u%04x", c);
            p++;
        } else {
            size_t n = utf8_len(p);
            if (n == 0) {
                ravel__sb_add(sb, "\\ufffd");
                p++;
            } else {
                ravel__sb_addn(sb, (const char *)p, n);
                p += n;
            }
        }
    }
    ravel__sb_addc(sb, '"');
}

void ravel__json_key(struct ravel__strbuf *sb, bool *first, const char *key)
{
    if (!*first)
        ravel__sb_addc(sb, ',');
    *first = false;
    ravel__json_str(sb, key);
    ravel__sb_addc(sb, ':');
}
