/*
 * shards.c - reading shards' --json summaries and fingerprint files (see
 * shards.h).
 *
 * The summary is parsed into a JSON tree by the strict reader, then each
 * field merge relies on is looked up and checked for its type; a field
 * that is missing or of the wrong type makes the whole summary unreadable
 * (one line saying which), never a default. Fields merge does not use are
 * ignored, so a summary of a newer ravel with more fields still reads.
 *
 * The "search" object (program, arguments, and the options that decide
 * which traces exist) is kept as compact JSON text, written back from the
 * tree in the order its members came: shards of one search, written by
 * the same ravel, produce the same text, and two texts that differ name
 * different searches.
 */
#include "shards.h"

#include "../common/json.h"
#include "../common/jsonr.h"
#include "../explore/tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup(const char *s)
{
    char *d = strdup(s ? s : "");
    RAVEL__CHECK(d != NULL);
    return d;
}

/* Appends v as compact JSON (the canonical text of "search"). */
static void write_jv(struct ravel__strbuf *sb, const struct ravel__jv *v)
{
    switch (v->type) {
    case RAVEL__JV_NULL:
        ravel__sb_add(sb, "null");
        break;
    case RAVEL__JV_BOOL:
        ravel__sb_add(sb, v->b ? "true" : "false");
        break;
    case RAVEL__JV_NUM:
        ravel__sb_printf(sb, "%.17g", v->num);
        break;
    case RAVEL__JV_STR:
        ravel__json_str(sb, v->str);
        break;
    case RAVEL__JV_ARR:
        ravel__sb_addc(sb, '[');
        for (size_t i = 0; i < v->len; i++) {
            if (i)
                ravel__sb_addc(sb, ',');
            write_jv(sb, &v->items[i]);
        }
        ravel__sb_addc(sb, ']');
        break;
    case RAVEL__JV_OBJ: {
        bool first = true;
        ravel__sb_addc(sb, '{');
        for (size_t i = 0; i < v->len; i++) {
            ravel__json_key(sb, &first, v->keys[i]);
            write_jv(sb, &v->items[i]);
        }
        ravel__sb_addc(sb, '}');
        break;
    }
    }
}

struct reader {
    const struct ravel__jv *obj;
    char *err;
    size_t errlen;
    bool failed;
};

static const struct ravel__jv *field(struct reader *r,
                                     const struct ravel__jv *obj,
                                     const char *key, enum ravel__jv_type t,
                                     bool nullable)
{
    static const char *const names[] = {"null",   "true or false", "a number",
                                        "a string", "an array",    "an object"};
    if (r->failed)
        return NULL;
    const struct ravel__jv *v = ravel__jv_get(obj, key);
    if (!v) {
        snprintf(r->err, r->errlen, "no \"%s\" field", key);
        r->failed = true;
        return NULL;
    }
    if (v->type == RAVEL__JV_NULL && nullable)
        return NULL;
    if (v->type != t) {
        snprintf(r->err, r->errlen, "\"%s\" is not %s", key, names[t]);
        r->failed = true;
        return NULL;
    }
    return v;
}

static char *str_field(struct reader *r, const struct ravel__jv *obj,
                       const char *key, bool nullable)
{
    const struct ravel__jv *v = field(r, obj, key, RAVEL__JV_STR, nullable);
    return v ? dup(v->str) : NULL;
}

static bool bool_field(struct reader *r, const struct ravel__jv *obj,
                       const char *key)
{
    const struct ravel__jv *v = field(r, obj, key, RAVEL__JV_BOOL, false);
    return v && v->b;
}

/* A count: a whole number from 0 to 2^53 (exact in a double). */
static uint64_t count_field(struct reader *r, const struct ravel__jv *obj,
                            const char *key)
{
    const struct ravel__jv *v = field(r, obj, key, RAVEL__JV_NUM, false);
    if (!v)
        return 0;
    if (!(v->num >= 0 && v->num <= 9007199254740992.0) ||
        v->num != floor(v->num)) {
        snprintf(r->err, r->errlen, "\"%s\" is not a count", key);
        r->failed = true;
        return 0;
    }
    return (uint64_t)v->num;
}

static bool parse_hex64(const char *s, uint64_t *out)
{
    if (strlen(s) != 16)
        return false;
    uint64_t v = 0;
    for (int i = 0; i < 16; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else
            return false;
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

void ravel__shard_summary_free(struct ravel__shard_summary *s)
{
    free(s->program);
    free(s->search);
    free(s->result);
    free(s->error);
    free(s->guarantee);
    free(s->fingerprints_file);
    for (uint32_t i = 0; i < s->nbugs; i++) {
        struct ravel__shard_bug *b = &s->bugs[i];
        free(b->kind);
        free(b->message);
        free(b->location);
        free(b->function);
        free(b->ticket);
        free(b->threads);
    }
    free(s->bugs);
    memset(s, 0, sizeof *s);
}

int ravel__shard_summary_parse(const char *text, size_t len,
                               struct ravel__shard_summary *out, char *err,
                               size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct ravel__jv root;
    char perr[200];
    if (ravel__jv_parse(text, len, &root, perr, sizeof perr) != 0) {
        snprintf(err, errlen, "not JSON (%s)", perr);
        return -1;
    }
    struct reader r = {&root, err, errlen, false};
    struct ravel__shard_summary *s = out;
    if (root.type != RAVEL__JV_OBJ || !ravel__jv_get(&root, "ravel")) {
        snprintf(err, errlen, "not a ravel --json summary");
        ravel__jv_free(&root);
        return -1;
    }
    s->program = str_field(&r, &root, "program", false);
    const struct ravel__jv *search =
        field(&r, &root, "search", RAVEL__JV_OBJ, false);
    if (search) {
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        write_jv(&sb, search);
        s->search = dup(ravel__sb_str(&sb));
        ravel__sb_free(&sb);
    }
    const struct ravel__jv *shard =
        field(&r, &root, "shard", RAVEL__JV_OBJ, true);
    if (!r.failed && !shard) {
        snprintf(err, errlen, "a run without --shard (\"shard\": null)");
        r.failed = true;
    }
    if (shard) {
        uint64_t i = count_field(&r, shard, "index");
        uint64_t n = count_field(&r, shard, "count");
        if (!r.failed && (n == 0 || n > 65536 || i == 0 || i > n)) {
            snprintf(err, errlen, "\"shard\" is not I of N with 1 <= I <= N");
            r.failed = true;
        }
        s->index = (uint32_t)i;
        s->count = (uint32_t)n;
    }
    s->result = str_field(&r, &root, "result", false);
    if (s->result && strcmp(s->result, "clean") != 0 &&
        strcmp(s->result, "bug") != 0 && strcmp(s->result, "error") != 0) {
        snprintf(err, errlen, "\"result\" is not clean, bug or error");
        r.failed = true;
    }
    if (s->result && !strcmp(s->result, "error") && !r.failed)
        s->error = str_field(&r, &root, "error", false);
    s->guarantee = str_field(&r, &root, "guarantee", false);
    s->complete = bool_field(&r, &root, "complete");
    s->interrupted = bool_field(&r, &root, "interrupted");
    s->executions = count_field(&r, &root, "executions");
    s->traces = count_field(&r, &root, "traces");
    const struct ravel__jv *dg =
        field(&r, &root, "trace_digest", RAVEL__JV_STR, true);
    if (dg) {
        if (!parse_hex64(dg->str, &s->digest)) {
            snprintf(err, errlen, "\"trace_digest\" is not 16 hex digits");
            r.failed = true;
        }
        s->have_digest = true;
    }
    if (!r.failed && ravel__jv_get(&root, "fingerprints_file"))
        s->fingerprints_file =
            str_field(&r, &root, "fingerprints_file", false);
    const struct ravel__jv *bugs =
        field(&r, &root, "bugs", RAVEL__JV_ARR, false);
    if (bugs && bugs->len) {
        s->bugs = calloc(bugs->len, sizeof *s->bugs);
        RAVEL__CHECK(s->bugs != NULL);
        for (size_t i = 0; i < bugs->len && !r.failed; i++) {
            const struct ravel__jv *b = &bugs->items[i];
            if (b->type != RAVEL__JV_OBJ) {
                snprintf(err, errlen, "\"bugs\" holds something else than "
                                      "objects");
                r.failed = true;
                break;
            }
            struct ravel__shard_bug *o = &s->bugs[s->nbugs++];
            o->kind = str_field(&r, b, "kind", false);
            o->message = str_field(&r, b, "message", false);
            o->location = str_field(&r, b, "location", false);
            o->function = str_field(&r, b, "function", false);
            o->ticket = str_field(&r, b, "ticket", false);
            /* Both only for the HTML report: the schedule-dependence
             * finding has neither. */
            o->threads = ravel__jv_get(b, "threads")
                             ? str_field(&r, b, "threads", false)
                             : dup("");
            o->execution = ravel__jv_get(b, "execution")
                               ? count_field(&r, b, "execution")
                               : 0;
            /* The schedule-dependence finding has no count. */
            o->occurrences = ravel__jv_get(b, "occurrences")
                                 ? count_field(&r, b, "occurrences")
                                 : 1;
        }
    }
    ravel__jv_free(&root);
    if (r.failed) {
        ravel__shard_summary_free(s);
        return -1;
    }
    return 0;
}

int ravel__fingerprints_parse(const char *text, size_t len, uint64_t **out,
                              size_t *n, char *err, size_t errlen)
{
    size_t cap = len / 17 + 1, count = 0, line = 1;
    uint64_t *fps = malloc(cap * sizeof *fps);
    RAVEL__CHECK(fps != NULL);
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        char buf[17];
        uint64_t v;
        if (j - i != 16 || j == len) {
            snprintf(err, errlen,
                     "line %zu: not a 16-digit fingerprint ending with a "
                     "newline",
                     line);
            free(fps);
            return -1;
        }
        memcpy(buf, text + i, 16);
        buf[16] = 0;
        if (!parse_hex64(buf, &v)) {
            snprintf(err, errlen, "line %zu: not a hexadecimal fingerprint",
                     line);
            free(fps);
            return -1;
        }
        fps[count++] = v; /* count <= len / 17 < cap */
        i = j + 1;
        line++;
    }
    *out = fps;
    *n = count;
    return 0;
}

uint64_t ravel__fingerprints_digest(const uint64_t *fps, size_t n)
{
    uint64_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += ravel__fp_digest_term(fps[i]);
    return d;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

size_t ravel__fingerprints_unique(uint64_t *fps, size_t n)
{
    if (n == 0)
        return 0;
    qsort(fps, n, sizeof *fps, cmp_u64);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (fps[i] != fps[k - 1])
            fps[k++] = fps[i];
    return k;
}
