/*
 * read_json.c - ravel's JSON history format (docs/lin.md, "JSON").
 *
 *     {"ops": [
 *       {"process": 0, "f": "write", "value": 1, "call": 0, "return": 3},
 *       {"process": 1, "f": "read", "output": 1, "call": 2, "return": 5},
 *       {"process": 2, "f": "cas", "value": [1, 2], "call": 4}
 *     ]}
 *
 * One object per operation rather than one per event, because programs
 * that record histories (a test harness, a tracing proxy) know both
 * times of an operation when they write it. A missing "return" (or null)
 * means the operation never returned; a missing "output" means its
 * output is unknown ("output": null is the value nil). "key" is
 * optional. Times are non-negative integers in any unit; A precedes B
 * when A's return is strictly less than B's call. A bare array of
 * operations is accepted too. Unknown fields are errors, so a typo
 * ("retrun") is caught rather than read as "never returned".
 *
 * Strings become string values, numbers integers (or their text when
 * they are not integers), arrays vectors and objects maps, so "f": "cas"
 * and :cas name the same function.
 */
#include "read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
    const char *p, *end;
    uint32_t line;
    struct ravel__lin_values *vs;
    char *err;
    size_t errlen;
    int depth;
    bool failed;
};

static uint32_t jfail(struct jp *j, const char *msg)
{
    if (!j->failed)
        snprintf(j->err, j->errlen, "line %u: %s", j->line, msg);
    j->failed = true;
    return RAVEL__LIN_V_NONE;
}

static void jws(struct jp *j)
{
    while (j->p < j->end) {
        char c = *j->p;
        if (c == '\n')
            j->line++;
        else if (c != ' ' && c != '\t' && c != '\r')
            break;
        j->p++;
    }
}

static bool lit(struct jp *j, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, s, n))
        return false;
    j->p += n;
    return true;
}

static void put_utf8(struct ravel__strbuf *sb, unsigned cp)
{
    if (cp < 0x80) {
        ravel__sb_addc(sb, (char)cp);
    } else if (cp < 0x800) {
        ravel__sb_addc(sb, (char)(0xc0 | (cp >> 6)));
        ravel__sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        ravel__sb_addc(sb, (char)(0xe0 | (cp >> 12)));
        ravel__sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
        ravel__sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
    } else {
        ravel__sb_addc(sb, (char)(0xf0 | (cp >> 18)));
        ravel__sb_addc(sb, (char)(0x80 | ((cp >> 12) & 0x3f)));
        ravel__sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
        ravel__sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
    }
}

static int hex4(struct jp *j, unsigned *out)
{
    if (j->end - j->p < 4)
        return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = j->p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + (unsigned)d;
    }
    j->p += 4;
    *out = v;
    return 0;
}

/* A JSON string into sb (without quotes); -1 on error. */
static int jstring(struct jp *j, struct ravel__strbuf *sb)
{
    j->p++;
    for (;;) {
        if (j->p >= j->end)
            return jfail(j, "unterminated string (truncated file?)"), -1;
        unsigned char c = (unsigned char)*j->p++;
        if (c == '"')
            return 0;
        if (c < 0x20)
            return jfail(j, "control character in string"), -1;
        if (c != '\\') {
            ravel__sb_addc(sb, (char)c);
            continue;
        }
        if (j->p >= j->end)
            return jfail(j, "unterminated string (truncated file?)"), -1;
        char e = *j->p++;
        unsigned cp, lo;
        switch (e) {
        case '"': ravel__sb_addc(sb, '"'); break;
        case '\\': ravel__sb_addc(sb, '\\'); break;
        case '/': ravel__sb_addc(sb, '/'); break;
        case 'b': ravel__sb_addc(sb, '\b'); break;
        case 'f': ravel__sb_addc(sb, '\f'); break;
        case 'n': ravel__sb_addc(sb, '\n'); break;
        case 'r': ravel__sb_addc(sb, '\r'); break;
        case 't': ravel__sb_addc(sb, '\t'); break;
        case 'u':
            if (hex4(j, &cp) != 0)
                return jfail(j, "bad \\u escape"), -1;
            if (cp >= 0xd800 && cp < 0xdc00 && j->end - j->p >= 6 &&
                j->p[0] == '\\' && j->p[1] == 'u') {
                j->p += 2;
                if (hex4(j, &lo) != 0 || lo < 0xdc00 || lo > 0xdfff)
                    return jfail(j, "bad surrogate pair"), -1;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            put_utf8(sb, cp);
            break;
        default:
            return jfail(j, "unknown escape in string"), -1;
        }
    }
}

static uint32_t jvalue(struct jp *j);

static uint32_t jnumber(struct jp *j)
{
    const char *s = j->p;
    if (j->p < j->end && *j->p == '-')
        j->p++;
    const char *digits = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    size_t nd = (size_t)(j->p - digits);
    if (nd == 0 || (nd > 1 && *digits == '0'))
        return jfail(j, "malformed number");
    bool integer = true;
    if (j->p < j->end && *j->p == '.') {
        integer = false;
        j->p++;
        const char *f = j->p;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
        if (j->p == f)
            return jfail(j, "malformed number");
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        integer = false;
        j->p++;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        const char *x = j->p;
        while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
            j->p++;
        if (j->p == x)
            return jfail(j, "malformed number");
    }
    uint32_t id;
    if (integer && nd <= 18) {
        char buf[24];
        size_t n = (size_t)(j->p - s);
        memcpy(buf, s, n);
        buf[n] = 0;
        id = ravel__lin_int(j->vs, strtoll(buf, NULL, 10));
    } else {
        id = ravel__lin_intern(j->vs, RAVEL__LIN_FLOAT, 0, s,
                               (size_t)(j->p - s), NULL, 0);
    }
    return id == RAVEL__LIN_V_NONE ? jfail(j, "too many values") : id;
}

static uint32_t jcollection(struct jp *j, bool object)
{
    uint32_t start = j->line;
    if (++j->depth > RAVEL__LIN_MAX_DEPTH)
        return jfail(j, "values nested too deeply");
    j->p++;
    uint32_t *kids = NULL, n = 0, cap = 0;
    jws(j);
    bool first = true;
    for (;;) {
        jws(j);
        if (j->p >= j->end) {
            free(kids);
            j->line = start;
            return jfail(j, object ? "unterminated object (truncated file?)"
                                   : "unterminated array (truncated file?)");
        }
        if (*j->p == (object ? '}' : ']')) {
            j->p++;
            break;
        }
        if (!first) {
            if (*j->p != ',') {
                free(kids);
                return jfail(j, "expected ',' between elements");
            }
            j->p++;
            jws(j);
        }
        first = false;
        uint32_t v[2];
        int nv = 0;
        if (object) {
            if (j->p >= j->end || *j->p != '"') {
                free(kids);
                return jfail(j, "expected a string key");
            }
            v[nv] = jvalue(j);
            if (v[nv++] == RAVEL__LIN_V_NONE) {
                free(kids);
                return RAVEL__LIN_V_NONE;
            }
            jws(j);
            if (j->p >= j->end || *j->p != ':') {
                free(kids);
                return jfail(j, "expected ':' after a key");
            }
            j->p++;
        }
        v[nv] = jvalue(j);
        if (v[nv++] == RAVEL__LIN_V_NONE) {
            free(kids);
            return RAVEL__LIN_V_NONE;
        }
        if (n + 2 > cap) {
            cap = cap ? cap * 2 : 8;
            uint32_t *nk = realloc(kids, cap * sizeof *nk);
            if (!nk) {
                free(kids);
                return jfail(j, "out of memory");
            }
            kids = nk;
        }
        for (int i = 0; i < nv; i++)
            kids[n++] = v[i];
    }
    j->depth--;
    uint32_t id = ravel__lin_intern(j->vs,
                                    object ? RAVEL__LIN_MAP : RAVEL__LIN_VEC,
                                    0, NULL, 0, kids, n);
    free(kids);
    return id == RAVEL__LIN_V_NONE ? jfail(j, "too many values") : id;
}

static uint32_t jvalue(struct jp *j)
{
    jws(j);
    if (j->p >= j->end)
        return jfail(j, "unexpected end of file (truncated?)");
    char c = *j->p;
    if (c == '{' || c == '[')
        return jcollection(j, c == '{');
    if (c == '"') {
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        if (jstring(j, &sb) != 0) {
            ravel__sb_free(&sb);
            return RAVEL__LIN_V_NONE;
        }
        uint32_t id = ravel__lin_str(j->vs, ravel__sb_str(&sb), sb.len);
        ravel__sb_free(&sb);
        return id == RAVEL__LIN_V_NONE ? jfail(j, "too many values") : id;
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return jnumber(j);
    if (lit(j, "null"))
        return RAVEL__LIN_V_NIL;
    if (lit(j, "true"))
        return RAVEL__LIN_V_TRUE;
    if (lit(j, "false"))
        return RAVEL__LIN_V_FALSE;
    return jfail(j, "unexpected character");
}

/* A time field: a non-negative integer below RAVEL__LIN_NEVER. */
static int time_of(struct jp *j, uint32_t v, const char *what, uint64_t *out)
{
    const struct ravel__lin_vent *e = ravel__lin_vget(j->vs, v);
    if (e->kind != RAVEL__LIN_INT || e->i < 0) {
        char msg[80];
        snprintf(msg, sizeof msg, "\"%s\" must be a non-negative integer",
                 what);
        jfail(j, msg);
        return -1;
    }
    *out = (uint64_t)e->i;
    return 0;
}

static int op_object(struct jp *j, struct ravel__lin_history *h)
{
    uint32_t line = j->line;
    if (j->p >= j->end || *j->p != '{')
        return jfail(j, "expected an operation object"), -1;
    uint32_t obj = jcollection(j, true);
    if (obj == RAVEL__LIN_V_NONE)
        return -1;
    struct ravel__lin_values *vs = j->vs;
    uint32_t process = RAVEL__LIN_V_NONE, f = RAVEL__LIN_V_NONE,
             key = RAVEL__LIN_V_NONE, in = RAVEL__LIN_V_NIL,
             out = RAVEL__LIN_V_NONE, call = RAVEL__LIN_V_NONE,
             ret = RAVEL__LIN_V_NONE;
    uint32_t n = ravel__lin_vget(vs, obj)->len;
    uint32_t seen = 0;
    static const char *const fields[] = {"process", "f",    "key",    "value",
                                         "output",  "call", "return", NULL};
    uint32_t *slots[] = {&process, &f, &key, &in, &out, &call, &ret};
    j->line = line;
    for (uint32_t i = 0; i + 1 < n; i += 2) {
        uint32_t k = ravel__lin_vkids(vs, obj)[i];
        uint32_t v = ravel__lin_vkids(vs, obj)[i + 1];
        int which = -1;
        for (int w = 0; fields[w]; w++)
            if (ravel__lin_vis_name(vs, k, fields[w]))
                which = w;
        if (which < 0) {
            struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
            ravel__sb_add(&sb, "unknown field ");
            ravel__lin_vprint(vs, k, &sb, 40);
            ravel__sb_add(&sb, " (fields: process, f, key, value, output, "
                               "call, return)");
            jfail(j, ravel__sb_str(&sb));
            ravel__sb_free(&sb);
            return -1;
        }
        if (seen & (1u << which)) {
            char msg[80];
            snprintf(msg, sizeof msg, "duplicate field \"%s\"", fields[which]);
            return jfail(j, msg), -1;
        }
        seen |= 1u << which;
        *slots[which] = v;
    }
    if (process == RAVEL__LIN_V_NONE)
        return jfail(j, "operation without \"process\""), -1;
    if (f == RAVEL__LIN_V_NONE)
        return jfail(j, "operation without \"f\""), -1;
    if (ravel__lin_vget(vs, f)->kind != RAVEL__LIN_STR)
        return jfail(j, "\"f\" must be a string"), -1;
    if (call == RAVEL__LIN_V_NONE)
        return jfail(j, "operation without \"call\" time"), -1;
    uint64_t tc, tr = RAVEL__LIN_NEVER;
    if (time_of(j, call, "call", &tc) != 0)
        return -1;
    if (ret != RAVEL__LIN_V_NONE && ret != RAVEL__LIN_V_NIL &&
        time_of(j, ret, "return", &tr) != 0)
        return -1;
    if (tr == RAVEL__LIN_NEVER && out != RAVEL__LIN_V_NONE)
        return jfail(j, "an operation that never returned has no output"), -1;
    char msg[300];
    if (ravel__lin_add_op(h, process, f, key, in, out, tc, tr, line, msg,
                          sizeof msg) != 0)
        return jfail(j, msg), -1;
    return 0;
}

int ravel__lin_read_json(const char *buf, size_t len,
                         struct ravel__lin_history *h, char *err,
                         size_t errlen)
{
    struct jp j = {buf, buf + len, 1, &h->vals, err, errlen, 0, false};
    jws(&j);
    if (j.p >= j.end)
        return ravel__lin_finish(h, err, errlen);
    bool wrapped = false;
    if (*j.p == '{') {
        /* {"ops": [ ... ]} */
        j.p++;
        jws(&j);
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        if (j.p >= j.end || *j.p != '"' || jstring(&j, &sb) != 0 ||
            strcmp(ravel__sb_str(&sb), "ops") != 0) {
            ravel__sb_free(&sb);
            return jfail(&j, "expected {\"ops\": [...]}"), -1;
        }
        ravel__sb_free(&sb);
        jws(&j);
        if (j.p >= j.end || *j.p != ':')
            return jfail(&j, "expected ':' after \"ops\""), -1;
        j.p++;
        jws(&j);
        wrapped = true;
    }
    if (j.p >= j.end || *j.p != '[')
        return jfail(&j, "expected an array of operations"), -1;
    j.p++;
    bool first = true;
    for (;;) {
        jws(&j);
        if (j.p >= j.end)
            return jfail(&j, "unterminated array of operations (truncated "
                             "file?)"),
                   -1;
        if (*j.p == ']') {
            j.p++;
            break;
        }
        if (!first) {
            if (*j.p != ',')
                return jfail(&j, "expected ',' between operations"), -1;
            j.p++;
            jws(&j);
        }
        first = false;
        if (op_object(&j, h) != 0)
            return -1;
    }
    jws(&j);
    if (wrapped) {
        if (j.p >= j.end)
            return jfail(&j, "unterminated object (truncated file?)"), -1;
        if (*j.p != '}')
            return jfail(&j, "expected '}' after the operations (only "
                             "\"ops\" is allowed)"),
                   -1;
        j.p++;
        jws(&j);
    }
    if (j.p < j.end)
        return jfail(&j, "text after the history"), -1;
    return ravel__lin_finish(h, err, errlen);
}

/* ---- format detection and dispatch (shared by all readers) ------------- */

/* Skips blanks, commas and ; comments (EDN's, to the end of the line). */
static size_t skip_blank(const char *buf, size_t len, size_t i)
{
    while (i < len) {
        char c = buf[i];
        if (c == ';') {
            while (i < len && buf[i] != '\n')
                i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
                   c == ',' || c == '\f' || c == '\v') {
            i++;
        } else {
            break;
        }
    }
    return i;
}

/*
 * Looks at the first forms, not just the first character: Knossos's
 * files open with ; comments and hold their events in ( ... ) or
 * [ ... ]; a JSON array and an EDN vector both open with [. So: skip
 * blanks and comments; ( or # is EDN; { then a keyword is EDN, { then a
 * string JSON; [ then { decides by the map's first key the same way,
 * [ then ] is an empty JSON array; anything else is log lines.
 */
enum ravel__lin_format ravel__lin_detect(const char *buf, size_t len)
{
    size_t i = skip_blank(buf, len, 0);
    if (i >= len)
        return RAVEL__LIN_FMT_LOG;
    char c = buf[i];
    if (c == '(' || c == '#')
        return RAVEL__LIN_FMT_EDN; /* a list, a tagged #...Op{...} event */
    if (c != '{' && c != '[')
        return RAVEL__LIN_FMT_LOG;
    size_t k = skip_blank(buf, len, i + 1);
    if (c == '[' && k < len && buf[k] == '{')
        k = skip_blank(buf, len, k + 1);
    else if (c == '[' && k < len && (buf[k] == '(' || buf[k] == '#'))
        return RAVEL__LIN_FMT_EDN; /* a vector holding a list, #_ ... */
    if (k < len && buf[k] == ':')
        return RAVEL__LIN_FMT_EDN;
    return RAVEL__LIN_FMT_JSON;
}

const char *ravel__lin_format_name(enum ravel__lin_format fmt)
{
    switch (fmt) {
    case RAVEL__LIN_FMT_LOG: return "log";
    case RAVEL__LIN_FMT_EDN: return "edn";
    case RAVEL__LIN_FMT_JSON: return "json";
    default: return "auto";
    }
}

int ravel__lin_format_parse(const char *s, enum ravel__lin_format *out)
{
    static const enum ravel__lin_format all[] = {
        RAVEL__LIN_FMT_AUTO, RAVEL__LIN_FMT_LOG, RAVEL__LIN_FMT_EDN,
        RAVEL__LIN_FMT_JSON};
    for (size_t i = 0; i < RAVEL__COUNT(all); i++)
        if (!strcmp(s, ravel__lin_format_name(all[i]))) {
            *out = all[i];
            return 0;
        }
    return -1;
}

int ravel__lin_read(const char *buf, size_t len, enum ravel__lin_format fmt,
                    struct ravel__lin_history *h, char *err, size_t errlen)
{
    if (fmt == RAVEL__LIN_FMT_AUTO)
        fmt = ravel__lin_detect(buf, len);
    switch (fmt) {
    case RAVEL__LIN_FMT_EDN:
        return ravel__lin_read_edn(buf, len, h, err, errlen);
    case RAVEL__LIN_FMT_JSON:
        return ravel__lin_read_json(buf, len, h, err, errlen);
    default:
        return ravel__lin_read_log(buf, len, h, err, errlen);
    }
}
