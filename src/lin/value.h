/*
 * value.h - the values that appear in recorded histories, interned.
 *
 * A history read from Jepsen's EDN, its log lines or JSON carries inputs
 * and outputs such as nil, 3, "x 6 0 y", :timed-out or [1 2]. The checker
 * compares them millions of times (is the value read the value in the
 * register?), so every value is interned once into a table and named by a
 * 32-bit id: two values are equal exactly when their ids are equal, and a
 * model state that is "the value in the register" is just an id.
 *
 * Models may add values of their own (the key/value model appends strings
 * and interns the result), so the table stays growable after parsing.
 *
 *     ids ──► struct entry {kind, len, int, off, hash}
 *                   │ STR/KEYWORD/SYMBOL/FLOAT: bytes[off .. off+len)
 *                   │ VEC/SET/MAP: kids[off .. off+len) (child ids)
 *     open-addressing table: hash ──► id   (lookup before insert)
 *
 * Sets are stored with their elements sorted by id and deduplicated, so
 * #{1 2} and #{2 1} are one value. Maps keep their pairs in source order
 * (no model compares maps).
 */
#ifndef RAVEL_LIN_VALUE_H
#define RAVEL_LIN_VALUE_H

#include "../common/strbuf.h"

enum ravel__lin_vkind {
    RAVEL__LIN_NIL,
    RAVEL__LIN_BOOL,
    RAVEL__LIN_INT,
    RAVEL__LIN_STR,
    RAVEL__LIN_KEYWORD, /* :name, stored without the colon */
    RAVEL__LIN_SYMBOL,  /* a bare EDN symbol */
    RAVEL__LIN_FLOAT,   /* kept as its text: no model does arithmetic on it */
    RAVEL__LIN_VEC,     /* EDN vector or list, JSON array */
    RAVEL__LIN_SET,
    RAVEL__LIN_MAP,
};

/* Ids fixed at creation. */
#define RAVEL__LIN_V_NIL 0u
#define RAVEL__LIN_V_FALSE 1u
#define RAVEL__LIN_V_TRUE 2u
/* Not a value: an output nobody saw, or "no key". */
#define RAVEL__LIN_V_NONE UINT32_MAX

/*
 * Upper bounds that keep a hostile file from exhausting memory through the
 * value table alone: 2^26 distinct values and 1 GiB of string bytes are
 * far beyond any recorded history (the largest test history has ~10^4).
 */
#define RAVEL__LIN_MAX_VALUES (1u << 26)
#define RAVEL__LIN_MAX_VBYTES (1u << 30)

struct ravel__lin_vent {
    uint8_t kind;
    uint32_t len; /* bytes (text kinds) or children (VEC/SET/MAP: 2 per pair) */
    uint32_t off; /* into bytes or kids */
    int64_t i;    /* INT and BOOL */
    uint64_t hash;
};

struct ravel__lin_values {
    struct ravel__lin_vent *v;
    uint32_t n, cap;
    char *bytes;
    size_t nbytes, bytes_cap;
    uint32_t *kids;
    size_t nkids, kids_cap;
    uint32_t *table; /* id + 1, 0 = empty */
    uint32_t table_cap;
};

/* Creates an empty table holding nil, false and true. Returns 0 or -1
 * (out of memory). */
int ravel__lin_values_init(struct ravel__lin_values *vs);
void ravel__lin_values_free(struct ravel__lin_values *vs);

/*
 * Interns a value and returns its id, or RAVEL__LIN_V_NONE when a limit
 * above is reached or memory runs out. `s` (text kinds) and `kids`
 * (VEC/SET/MAP) are copied; for SET the children are sorted and
 * deduplicated first. Other arguments are ignored for kinds that do not
 * use them.
 */
uint32_t ravel__lin_intern(struct ravel__lin_values *vs,
                           enum ravel__lin_vkind kind, int64_t i,
                           const char *s, size_t len, const uint32_t *kids,
                           uint32_t nkids);

static inline uint32_t ravel__lin_int(struct ravel__lin_values *vs, int64_t i)
{
    return ravel__lin_intern(vs, RAVEL__LIN_INT, i, NULL, 0, NULL, 0);
}

static inline uint32_t ravel__lin_str(struct ravel__lin_values *vs,
                                      const char *s, size_t len)
{
    return ravel__lin_intern(vs, RAVEL__LIN_STR, 0, s, len, NULL, 0);
}

/* Accessors; `id` must be a valid id. Text is not NUL-terminated. */
static inline const struct ravel__lin_vent *
ravel__lin_vget(const struct ravel__lin_values *vs, uint32_t id)
{
    return &vs->v[id];
}
static inline const char *ravel__lin_vtext(const struct ravel__lin_values *vs,
                                           uint32_t id)
{
    return vs->bytes + vs->v[id].off;
}
static inline const uint32_t *
ravel__lin_vkids(const struct ravel__lin_values *vs, uint32_t id)
{
    return vs->kids + vs->v[id].off;
}

/* True if id is a keyword or string spelled `name` (e.g. "read"). */
bool ravel__lin_vis_name(const struct ravel__lin_values *vs, uint32_t id,
                         const char *name);

/*
 * Appends the value in EDN notation (nil, 3, "a\"b", :kw, [1 2], #{1},
 * {:a 1}); RAVEL__LIN_V_NONE prints as "?". Strings longer than `max`
 * bytes (0: no limit) are cut with "...".
 */
void ravel__lin_vprint(const struct ravel__lin_values *vs, uint32_t id,
                       struct ravel__strbuf *sb, size_t max);

/* Appends the value as JSON: nil as null, keywords as ":kw" strings,
 * symbols and floats as their text, vectors and sets as arrays, maps as
 * arrays of [key, value] pairs. `id` must not be RAVEL__LIN_V_NONE. */
void ravel__lin_vjson(const struct ravel__lin_values *vs, uint32_t id,
                      struct ravel__strbuf *sb);

#endif
