/*
 * value.c - interned history values (see value.h).
 *
 * Hashing is FNV-1a over a kind tag and the value's content (children by
 * their own hash), and the table is open addressing with linear probing
 * at load factor <= 1/2, so a lookup is one or two cache lines.
 */
#include "value.h"

#include "../common/hash.h"
#include "../common/json.h"

#include <stdlib.h>
#include <string.h>

/*
 * Hash of a value's bytes, eight at a time (get outputs of kv histories
 * run to kilobytes, and byte-at-a-time FNV was a tenth of the time of
 * reading one). Only compared within this table, so any good mix works.
 */
static uint64_t bytes_hash(const char *s, size_t len, uint64_t h)
{
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    if (len > i)
        memcpy(&w, s + i, len - i);
    h = (h ^ w ^ (uint64_t)len << 56) * 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 32);
}

static uint64_t content_hash(enum ravel__lin_vkind kind, int64_t i,
                             const char *s, size_t len,
                             const struct ravel__lin_values *vs,
                             const uint32_t *kids, uint32_t nkids)
{
    uint8_t k = (uint8_t)kind;
    uint64_t h = ravel__fnv1a(&k, 1, RAVEL__FNV_INIT);
    switch (kind) {
    case RAVEL__LIN_NIL:
        break;
    case RAVEL__LIN_BOOL:
    case RAVEL__LIN_INT:
        h = ravel__fnv1a(&i, sizeof i, h);
        break;
    case RAVEL__LIN_STR:
    case RAVEL__LIN_KEYWORD:
    case RAVEL__LIN_SYMBOL:
    case RAVEL__LIN_FLOAT:
        h = bytes_hash(s, len, h);
        break;
    case RAVEL__LIN_VEC:
    case RAVEL__LIN_SET:
    case RAVEL__LIN_MAP:
        for (uint32_t j = 0; j < nkids; j++)
            h = ravel__fnv1a(&vs->v[kids[j]].hash, 8, h);
        h = ravel__fnv1a(&nkids, sizeof nkids, h);
        break;
    }
    return ravel__hash_ptr(h);
}

static bool same(const struct ravel__lin_values *vs, uint32_t id,
                 enum ravel__lin_vkind kind, int64_t i, const char *s,
                 size_t len, const uint32_t *kids, uint32_t nkids)
{
    const struct ravel__lin_vent *e = &vs->v[id];
    if (e->kind != kind)
        return false;
    switch (kind) {
    case RAVEL__LIN_NIL:
        return true;
    case RAVEL__LIN_BOOL:
    case RAVEL__LIN_INT:
        return e->i == i;
    case RAVEL__LIN_VEC:
    case RAVEL__LIN_SET:
    case RAVEL__LIN_MAP:
        return e->len == nkids &&
               (nkids == 0 ||
                !memcmp(vs->kids + e->off, kids, nkids * sizeof *kids));
    default:
        return e->len == len &&
               (len == 0 || !memcmp(vs->bytes + e->off, s, len));
    }
}

static int grow_table(struct ravel__lin_values *vs)
{
    uint32_t cap = vs->table_cap ? vs->table_cap * 2 : 1024;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return -1;
    for (uint32_t id = 0; id < vs->n; id++) {
        uint32_t j = (uint32_t)vs->v[id].hash & (cap - 1);
        while (t[j])
            j = (j + 1) & (cap - 1);
        t[j] = id + 1;
    }
    free(vs->table);
    vs->table = t;
    vs->table_cap = cap;
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t ravel__lin_intern(struct ravel__lin_values *vs,
                           enum ravel__lin_vkind kind, int64_t i,
                           const char *s, size_t len, const uint32_t *kids,
                           uint32_t nkids)
{
    bool text = kind == RAVEL__LIN_STR || kind == RAVEL__LIN_KEYWORD ||
                kind == RAVEL__LIN_SYMBOL || kind == RAVEL__LIN_FLOAT;
    bool nested = kind == RAVEL__LIN_VEC || kind == RAVEL__LIN_SET ||
                  kind == RAVEL__LIN_MAP;
    if (!text)
        len = 0;
    if (!nested)
        nkids = 0;
    if (kind == RAVEL__LIN_NIL)
        i = 0;
    if (kind == RAVEL__LIN_BOOL)
        i = !!i;
    uint32_t *sorted = NULL;
    if (kind == RAVEL__LIN_SET && nkids > 1) {
        sorted = malloc(nkids * sizeof *sorted);
        if (!sorted)
            return RAVEL__LIN_V_NONE;
        memcpy(sorted, kids, nkids * sizeof *sorted);
        qsort(sorted, nkids, sizeof *sorted, cmp_u32);
        uint32_t m = 1;
        for (uint32_t j = 1; j < nkids; j++)
            if (sorted[j] != sorted[m - 1])
                sorted[m++] = sorted[j];
        nkids = m;
        kids = sorted;
    }
    uint32_t result = RAVEL__LIN_V_NONE;
    uint64_t h = content_hash(kind, i, s, len, vs, kids, nkids);
    if (vs->table_cap) {
        uint32_t j = (uint32_t)h & (vs->table_cap - 1);
        for (; vs->table[j]; j = (j + 1) & (vs->table_cap - 1)) {
            uint32_t id = vs->table[j] - 1;
            if (vs->v[id].hash == h &&
                same(vs, id, kind, i, s, len, kids, nkids)) {
                result = id;
                goto out;
            }
        }
    }
    if (vs->n >= RAVEL__LIN_MAX_VALUES ||
        vs->nbytes + len > RAVEL__LIN_MAX_VBYTES ||
        vs->nkids + nkids > RAVEL__LIN_MAX_VALUES * 4ull)
        goto out;
    if ((vs->n + 1) * 2 > vs->table_cap && grow_table(vs) != 0)
        goto out;
    if (vs->n == vs->cap) {
        uint32_t cap = vs->cap ? vs->cap * 2 : 256;
        struct ravel__lin_vent *nv = realloc(vs->v, cap * sizeof *nv);
        if (!nv)
            goto out;
        vs->v = nv;
        vs->cap = cap;
    }
    uint32_t off = 0;
    if (text) {
        if (vs->nbytes + len + 1 > vs->bytes_cap) {
            size_t cap = vs->bytes_cap ? vs->bytes_cap : 4096;
            while (cap < vs->nbytes + len + 1)
                cap *= 2;
            char *nb = realloc(vs->bytes, cap);
            if (!nb)
                goto out;
            vs->bytes = nb;
            vs->bytes_cap = cap;
        }
        off = (uint32_t)vs->nbytes;
        if (len)
            memcpy(vs->bytes + off, s, len);
        vs->bytes[off + len] = 0; /* convenience for strtoll and printing */
        vs->nbytes += len + 1;
    } else if (nested) {
        if (vs->nkids + nkids > vs->kids_cap) {
            size_t cap = vs->kids_cap ? vs->kids_cap : 256;
            while (cap < vs->nkids + nkids)
                cap *= 2;
            uint32_t *nk = realloc(vs->kids, cap * sizeof *nk);
            if (!nk)
                goto out;
            vs->kids = nk;
            vs->kids_cap = cap;
        }
        off = (uint32_t)vs->nkids;
        if (nkids)
            memcpy(vs->kids + off, kids, nkids * sizeof *kids);
        vs->nkids += nkids;
    }
    uint32_t id = vs->n++;
    vs->v[id] = (struct ravel__lin_vent){(uint8_t)kind,
                                         text ? (uint32_t)len : nkids, off, i,
                                         h};
    uint32_t j = (uint32_t)h & (vs->table_cap - 1);
    while (vs->table[j])
        j = (j + 1) & (vs->table_cap - 1);
    vs->table[j] = id + 1;
    result = id;
out:
    free(sorted);
    return result;
}

int ravel__lin_values_init(struct ravel__lin_values *vs)
{
    memset(vs, 0, sizeof *vs);
    /* Both arenas exist from the start, so an empty string or vector
     * points into real memory (pointer arithmetic on NULL is undefined). */
    vs->bytes_cap = 4096;
    vs->kids_cap = 256;
    vs->bytes = malloc(vs->bytes_cap);
    vs->kids = malloc(vs->kids_cap * sizeof *vs->kids);
    if (!vs->bytes || !vs->kids ||
        ravel__lin_intern(vs, RAVEL__LIN_NIL, 0, NULL, 0, NULL, 0) !=
            RAVEL__LIN_V_NIL ||
        ravel__lin_intern(vs, RAVEL__LIN_BOOL, 0, NULL, 0, NULL, 0) !=
            RAVEL__LIN_V_FALSE ||
        ravel__lin_intern(vs, RAVEL__LIN_BOOL, 1, NULL, 0, NULL, 0) !=
            RAVEL__LIN_V_TRUE) {
        ravel__lin_values_free(vs);
        return -1;
    }
    return 0;
}

void ravel__lin_values_free(struct ravel__lin_values *vs)
{
    free(vs->v);
    free(vs->bytes);
    free(vs->kids);
    free(vs->table);
    memset(vs, 0, sizeof *vs);
}

bool ravel__lin_vis_name(const struct ravel__lin_values *vs, uint32_t id,
                         const char *name)
{
    if (id >= vs->n)
        return false;
    const struct ravel__lin_vent *e = &vs->v[id];
    if (e->kind != RAVEL__LIN_KEYWORD && e->kind != RAVEL__LIN_STR)
        return false;
    size_t n = strlen(name);
    return e->len == n && !memcmp(vs->bytes + e->off, name, n);
}

static void print_str(struct ravel__strbuf *sb, const char *s, size_t len,
                      size_t max)
{
    ravel__sb_addc(sb, '"');
    size_t n = max && len > max ? max : len;
    for (size_t j = 0; j < n; j++) {
        unsigned char c = (unsigned char)s[j];
        if (c == '"' || c == '\\') {
            ravel__sb_addc(sb, '\\');
            ravel__sb_addc(sb, (char)c);
        } else if (c == '\n') {
            ravel__sb_add(sb, "\\n");
        } else if (c == '\t') {
            ravel__sb_add(sb, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            ravel__sb_printf(sb, "\\u%04x", c);
        } else {
            ravel__sb_addc(sb, (char)c);
        }
    }
    if (n < len)
        ravel__sb_add(sb, "...");
    ravel__sb_addc(sb, '"');
}

void ravel__lin_vprint(const struct ravel__lin_values *vs, uint32_t id,
                       struct ravel__strbuf *sb, size_t max)
{
    if (id == RAVEL__LIN_V_NONE || id >= vs->n) {
        ravel__sb_addc(sb, '?');
        return;
    }
    const struct ravel__lin_vent *e = &vs->v[id];
    const char *t = vs->bytes + e->off;
    const uint32_t *k = vs->kids + e->off;
    switch ((enum ravel__lin_vkind)e->kind) {
    case RAVEL__LIN_NIL:
        ravel__sb_add(sb, "nil");
        break;
    case RAVEL__LIN_BOOL:
        ravel__sb_add(sb, e->i ? "true" : "false");
        break;
    case RAVEL__LIN_INT:
        ravel__sb_printf(sb, "%lld", (long long)e->i);
        break;
    case RAVEL__LIN_STR:
        print_str(sb, t, e->len, max);
        break;
    case RAVEL__LIN_KEYWORD:
        ravel__sb_addc(sb, ':');
        ravel__sb_addn(sb, t, e->len);
        break;
    case RAVEL__LIN_SYMBOL:
    case RAVEL__LIN_FLOAT:
        ravel__sb_addn(sb, t, e->len);
        break;
    case RAVEL__LIN_VEC:
    case RAVEL__LIN_SET:
    case RAVEL__LIN_MAP:
        ravel__sb_add(sb, e->kind == RAVEL__LIN_VEC   ? "["
                          : e->kind == RAVEL__LIN_SET ? "#{"
                                                      : "{");
        for (uint32_t j = 0; j < e->len; j++) {
            if (j)
                ravel__sb_add(sb, e->kind == RAVEL__LIN_MAP && j % 2 == 0
                                      ? ", "
                                      : " ");
            ravel__lin_vprint(vs, k[j], sb, max);
        }
        ravel__sb_add(sb, e->kind == RAVEL__LIN_VEC ? "]" : "}");
        break;
    }
}

void ravel__lin_vjson(const struct ravel__lin_values *vs, uint32_t id,
                      struct ravel__strbuf *sb)
{
    if (id == RAVEL__LIN_V_NONE || id >= vs->n) {
        ravel__sb_add(sb, "null");
        return;
    }
    const struct ravel__lin_vent *e = &vs->v[id];
    const uint32_t *k = vs->kids + e->off;
    struct ravel__strbuf tmp = RAVEL__STRBUF_INIT;
    switch ((enum ravel__lin_vkind)e->kind) {
    case RAVEL__LIN_NIL:
        ravel__sb_add(sb, "null");
        break;
    case RAVEL__LIN_BOOL:
        ravel__sb_add(sb, e->i ? "true" : "false");
        break;
    case RAVEL__LIN_INT:
        ravel__sb_printf(sb, "%lld", (long long)e->i);
        break;
    case RAVEL__LIN_STR:
    case RAVEL__LIN_SYMBOL:
    case RAVEL__LIN_FLOAT:
        /* Strings may hold NUL bytes; JSON-escape byte by byte via a copy
         * cut at the first NUL (histories with NULs are not realistic). */
        ravel__sb_addn(&tmp, vs->bytes + e->off, e->len);
        if (e->kind == RAVEL__LIN_FLOAT)
            ravel__sb_add(sb, ravel__sb_str(&tmp));
        else
            ravel__json_str(sb, ravel__sb_str(&tmp));
        break;
    case RAVEL__LIN_KEYWORD:
        ravel__sb_addc(&tmp, ':');
        ravel__sb_addn(&tmp, vs->bytes + e->off, e->len);
        ravel__json_str(sb, ravel__sb_str(&tmp));
        break;
    case RAVEL__LIN_VEC:
    case RAVEL__LIN_SET:
        ravel__sb_addc(sb, '[');
        for (uint32_t j = 0; j < e->len; j++) {
            if (j)
                ravel__sb_addc(sb, ',');
            ravel__lin_vjson(vs, k[j], sb);
        }
        ravel__sb_addc(sb, ']');
        break;
    case RAVEL__LIN_MAP:
        ravel__sb_addc(sb, '[');
        for (uint32_t j = 0; j + 1 < e->len; j += 2) {
            if (j)
                ravel__sb_addc(sb, ',');
            ravel__sb_addc(sb, '[');
            ravel__lin_vjson(vs, k[j], sb);
            ravel__sb_addc(sb, ',');
            ravel__lin_vjson(vs, k[j + 1], sb);
            ravel__sb_addc(sb, ']');
        }
        ravel__sb_addc(sb, ']');
        break;
    }
    ravel__sb_free(&tmp);
}
