/*
 * jsonr.h - reading JSON (RFC 8259) into a tree.
 *
 * Most of ravel only writes JSON (json.h); two tools read it back: ravel
 * lint reads a compilation database, and ravel merge reads the --json
 * summaries of the shards of a split search. Both are untrusted input,
 * files anyone can hand them. So this reader is strict (no trailing commas, no comments, no
 * leading zeros), bounded (nesting depth RAVEL__JSONR_DEPTH), decodes
 * \uXXXX escapes including surrogate pairs into UTF-8, and reports the
 * line and column of the first error. It is fuzzed by
 * fuzz/fuzz_lint_cdb.c and fuzz/fuzz_merge.c.
 */
#ifndef RAVEL_JSONR_H
#define RAVEL_JSONR_H

#include "../common/common.h"

/* Deepest nesting accepted: a compilation database needs 3 levels; 64 is
 * far beyond any real one and keeps the recursive parser's stack small. */
#define RAVEL__JSONR_DEPTH 64

enum ravel__jv_type {
    RAVEL__JV_NULL,
    RAVEL__JV_BOOL,
    RAVEL__JV_NUM,
    RAVEL__JV_STR,
    RAVEL__JV_ARR,
    RAVEL__JV_OBJ,
};

struct ravel__jv {
    enum ravel__jv_type type;
    bool b;
    double num;
    char *str;          /* STR: decoded UTF-8, NUL-terminated (owned) */
    size_t len;         /* STR: bytes; ARR/OBJ: number of items */
    struct ravel__jv *items; /* ARR/OBJ: values (owned) */
    char **keys;        /* OBJ: keys (owned) */
};

/*
 * Parses text[0..len) into *out. Returns 0, or -1 with "line L, column C:
 * reason" in err (and *out left empty). Free with ravel__jv_free.
 */
int ravel__jv_parse(const char *text, size_t len, struct ravel__jv *out,
                    char *err, size_t errlen);
void ravel__jv_free(struct ravel__jv *v);

/* Member `key` of an object (the last one if repeated), or NULL. */
const struct ravel__jv *ravel__jv_get(const struct ravel__jv *obj,
                                      const char *key);

#endif
