/*
 * jsonr.c - a strict, bounded JSON reader (see jsonr.h).
 *
 * Recursive descent over the text with an explicit depth bound. Arrays
 * and objects grow by doubling. On error everything built so far is freed
 * and the position of the error is reported.
 */
#include "jsonr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const char *s, *p, *end;
    char *err;
    size_t errlen;
    bool failed;
};

static void fail(struct parser *ps, const char *why)
{
    if (ps->failed)
        return;
    ps->failed = true;
    unsigned line = 1, col = 1;
    for (const char *q = ps->s; q < ps->p && q < ps->end; q++) {
        if (*q == '\n')
            line++, col = 1;
        else
            col++;
    }
    snprintf(ps->err, ps->errlen, "line %u, column %u: %s", line, col, why);
}

static void ws(struct parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static bool lit(struct parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, word, n)) {
        ps->p += n;
        return true;
    }
    return false;
}

static int hex4(struct parser *ps, unsigned *out)
{
    if (ps->end - ps->p < 4) {
        fail(ps, "truncated \\u escape");
        return -1;
    }
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = ps->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else {
            fail(ps, "bad hex digit in \\u escape");
            return -1;
        }
    }
    ps->p += 4;
    *out = v;
    return 0;
}

struct buf {
    char *d;
    size_t n, cap;
};

static void put(struct buf *b, char c)
{
    if (b->n + 1 >= b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 32;
        char *nd = realloc(b->d, nc);
        RAVEL__CHECK(nd != NULL);
        b->d = nd;
        b->cap = nc;
    }
    b->d[b->n++] = c;
}

static void put_utf8(struct buf *b, unsigned cp)
{
    if (cp < 0x80) {
        put(b, (char)cp);
    } else if (cp < 0x800) {
        put(b, (char)(0xc0 | (cp >> 6)));
        put(b, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        put(b, (char)(0xe0 | (cp >> 12)));
        put(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        put(b, (char)(0x80 | (cp & 0x3f)));
    } else {
        put(b, (char)(0xf0 | (cp >> 18)));
        put(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
        put(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
        put(b, (char)(0x80 | (cp & 0x3f)));
    }
}

/* Parses a string at ps->p (which is at the opening quote). */
static char *string(struct parser *ps, size_t *len)
{
    struct buf b = {NULL, 0, 0};
    ps->p++;
    for (;;) {
        if (ps->p >= ps->end) {
            fail(ps, "unterminated string");
            goto bad;
        }
        unsigned char c = (unsigned char)*ps->p;
        if (c == '"') {
            ps->p++;
            break;
        }
        if (c < 0x20) {
            fail(ps, "control character in string");
            goto bad;
        }
        if (c != '\\') {
            put(&b, (char)c);
            ps->p++;
            continue;
        }
        ps->p++;
        if (ps->p >= ps->end) {
            fail(ps, "unterminated string");
            goto bad;
        }
        char e = *ps->p++;
        switch (e) {
        case '"': put(&b, '"'); break;
        case '\\': put(&b, '\\'); break;
        case '/': put(&b, '/'); break;
        case 'b': put(&b, '\b'); break;
        case 'f': put(&b, '\f'); break;
        case 'n': put(&b, '\n'); break;
        case 'r': put(&b, '\r'); break;
        case 't': put(&b, '\t'); break;
        case 'u': {
            unsigned cp;
            if (hex4(ps, &cp) != 0)
                goto bad;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                unsigned lo;
                if (!lit(ps, "\\u") || hex4(ps, &lo) != 0 || lo < 0xdc00 ||
                    lo > 0xdfff) {
                    fail(ps, "unpaired surrogate in \\u escape");
                    goto bad;
                }
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            } else if (cp >= 0xdc00 && cp <= 0xdfff) {
                fail(ps, "unpaired surrogate in \\u escape");
                goto bad;
            }
            put_utf8(&b, cp);
            break;
        }
        default:
            fail(ps, "bad escape in string");
            goto bad;
        }
    }
    put(&b, 0);
    *len = b.n - 1;
    return b.d;
bad:
    free(b.d);
    return NULL;
}

static int value(struct parser *ps, struct ravel__jv *v, int depth);

static int grow_items(struct ravel__jv *v, size_t *cap, bool keys)
{
    if (v->len < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 8;
    struct ravel__jv *ni = realloc(v->items, nc * sizeof *ni);
    RAVEL__CHECK(ni != NULL);
    v->items = ni;
    if (keys) {
        char **nk = realloc(v->keys, nc * sizeof *nk);
        RAVEL__CHECK(nk != NULL);
        v->keys = nk;
    }
    *cap = nc;
    return 0;
}

static int value(struct parser *ps, struct ravel__jv *v, int depth)
{
    memset(v, 0, sizeof *v);
    ws(ps);
    if (ps->p >= ps->end) {
        fail(ps, "unexpected end of input");
        return -1;
    }
    char c = *ps->p;
    if (c == '{' || c == '[') {
        if (depth >= RAVEL__JSONR_DEPTH) {
            fail(ps, "nested too deeply");
            return -1;
        }
        bool obj = c == '{';
        v->type = obj ? RAVEL__JV_OBJ : RAVEL__JV_ARR;
        ps->p++;
        size_t cap = 0;
        ws(ps);
        if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
            ps->p++;
            return 0;
        }
        for (;;) {
            grow_items(v, &cap, obj);
            if (obj) {
                ws(ps);
                if (ps->p >= ps->end || *ps->p != '"') {
                    fail(ps, "expected a string key");
                    return -1;
                }
                size_t kl;
                char *k = string(ps, &kl);
                if (!k)
                    return -1;
                ws(ps);
                if (ps->p >= ps->end || *ps->p != ':') {
                    free(k);
                    fail(ps, "expected ':' after the key");
                    return -1;
                }
                ps->p++;
                v->keys[v->len] = k;
            }
            if (value(ps, &v->items[v->len], depth + 1) != 0) {
                ravel__jv_free(&v->items[v->len]);
                if (obj)
                    free(v->keys[v->len]);
                return -1;
            }
            v->len++;
            ws(ps);
            if (ps->p < ps->end && *ps->p == ',') {
                ps->p++;
                continue;
            }
            if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
                ps->p++;
                return 0;
            }
            fail(ps, obj ? "expected ',' or '}'" : "expected ',' or ']'");
            return -1;
        }
    }
    if (c == '"') {
        v->type = RAVEL__JV_STR;
        v->str = string(ps, &v->len);
        return v->str ? 0 : -1;
    }
    if (lit(ps, "true")) {
        v->type = RAVEL__JV_BOOL;
        v->b = true;
        return 0;
    }
    if (lit(ps, "false")) {
        v->type = RAVEL__JV_BOOL;
        return 0;
    }
    if (lit(ps, "null")) {
        v->type = RAVEL__JV_NULL;
        return 0;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        const char *q = ps->p;
        if (*q == '-')
            q++;
        if (q >= ps->end || !(*q >= '0' && *q <= '9')) {
            fail(ps, "bad number");
            return -1;
        }
        if (*q == '0' && q + 1 < ps->end && q[1] >= '0' && q[1] <= '9') {
            fail(ps, "leading zero in number");
            return -1;
        }
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
        if (q < ps->end && *q == '.') {
            q++;
            if (q >= ps->end || !(*q >= '0' && *q <= '9')) {
                fail(ps, "bad number");
                return -1;
            }
            while (q < ps->end && *q >= '0' && *q <= '9')
                q++;
        }
        if (q < ps->end && (*q == 'e' || *q == 'E')) {
            q++;
            if (q < ps->end && (*q == '+' || *q == '-'))
                q++;
            if (q >= ps->end || !(*q >= '0' && *q <= '9')) {
                fail(ps, "bad number");
                return -1;
            }
            while (q < ps->end && *q >= '0' && *q <= '9')
                q++;
        }
        char tmp[64];
        size_t n = (size_t)(q - ps->p);
        if (n >= sizeof tmp)
            n = sizeof tmp - 1; /* precision past 63 digits is not needed */
        memcpy(tmp, ps->p, n);
        tmp[n] = 0;
        v->type = RAVEL__JV_NUM;
        v->num = strtod(tmp, NULL);
        ps->p = q;
        return 0;
    }
    fail(ps, "unexpected character");
    return -1;
}

int ravel__jv_parse(const char *text, size_t len, struct ravel__jv *out,
                    char *err, size_t errlen)
{
    struct parser ps = {text, text, text + len, err, errlen, false};
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
        ps.p += 3; /* a UTF-8 byte-order mark, as some editors write */
    if (value(&ps, out, 0) != 0) {
        ravel__jv_free(out);
        return -1;
    }
    ws(&ps);
    if (ps.p != ps.end) {
        fail(&ps, "text after the JSON value");
        ravel__jv_free(out);
        return -1;
    }
    return 0;
}

void ravel__jv_free(struct ravel__jv *v)
{
    if (v->type == RAVEL__JV_ARR || v->type == RAVEL__JV_OBJ) {
        for (size_t i = 0; i < v->len; i++) {
            ravel__jv_free(&v->items[i]);
            if (v->keys)
                free(v->keys[i]);
        }
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

const struct ravel__jv *ravel__jv_get(const struct ravel__jv *obj,
                                      const char *key)
{
    if (obj->type != RAVEL__JV_OBJ)
        return NULL;
    const struct ravel__jv *found = NULL;
    for (size_t i = 0; i < obj->len; i++)
        if (!strcmp(obj->keys[i], key))
            found = &obj->items[i];
    return found;
}
