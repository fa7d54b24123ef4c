/*
 * read_edn.c - Jepsen's EDN histories, and the EDN value parser that the
 * log reader and --init share.
 *
 * A Jepsen history is a sequence of maps, one event each, usually one
 * per line (history.edn, Porcupine's kv files) or all inside one vector
 * (Knossos's test data):
 *
 *     {:process 6, :type :invoke, :f :append, :key "0", :value "x 6 0 y"}
 *     {:process 6, :type :ok, :f :append, :key "0", :value "x 6 0 y"}
 *
 * Knossos's conventions give the event types their meaning: :invoke
 * opens a call; :ok completes it with :value as its output, where nil
 * means the output is unknown (a read of nil read something unknown);
 * :fail means the operation did not happen, so it is removed; :info means
 * it may or may not have happened, so it never returns. Events of the
 * nemesis (a keyword :process) are not client operations and are
 * skipped. Event order is real-time order; :time and other keys are
 * ignored.
 *
 * The value parser covers the EDN a history holds: nil, booleans,
 * integers (floats and big numbers are kept as text), strings with
 * escapes, characters, keywords, symbols, vectors, lists, sets, maps,
 * tagged values (#inst "..." keeps the value) and #_ discards; commas
 * are whitespace and ; starts a comment.
 */
#include "read.h"

#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Keywords repeat on every line of a history (:process, :type, :invoke,
 * :f...): a small cache from their text to their id spares the hashing
 * and the table probe. Direct-mapped by length and first bytes; a hit is
 * confirmed byte for byte against the interned text.
 */
#define KW_CACHE 64
struct kwc {
    uint32_t id; /* id + 1; 0: empty */
    uint32_t len;
};

struct ps {
    const char *p, *end;
    uint32_t line;
    struct ravel__lin_values *vs;
    char *err;
    size_t errlen;
    int depth;
    bool failed;
    struct kwc *kw; /* keyword cache, or NULL */
};

static uint32_t fail(struct ps *ps, const char *msg)
{
    if (!ps->failed)
        snprintf(ps->err, ps->errlen, "line %u: %s", ps->line, msg);
    ps->failed = true;
    return RAVEL__LIN_V_NONE;
}

static void skip_ws(struct ps *ps)
{
    while (ps->p < ps->end) {
        char c = *ps->p;
        if (c == '\n') {
            ps->line++;
            ps->p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == ',' ||
                   c == '\f' || c == '\v') {
            ps->p++;
        } else if (c == ';') {
            while (ps->p < ps->end && *ps->p != '\n')
                ps->p++;
        } else {
            break;
        }
    }
}

static bool sym_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || (c && strchr(".*+!-_?$%&=<>/:#'", c)) ||
           (unsigned char)c >= 0x80;
}

static bool delim(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' ||
           c == '(' || c == ')' || c == '[' || c == ']' || c == '{' ||
           c == '}' || c == '"' || c == ';' || c == '\f' || c == '\v';
}

static uint32_t value(struct ps *ps);

/* Appends a UTF-8 encoding of cp. */
static void utf8(struct ravel__strbuf *sb, unsigned cp)
{
    if (cp < 0x80) {
        ravel__sb_addc(sb, (char)cp);
    } else if (cp < 0x800) {
        ravel__sb_addc(sb, (char)(0xc0 | (cp >> 6)));
        ravel__sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
    } else {
        ravel__sb_addc(sb, (char)(0xe0 | (cp >> 12)));
        ravel__sb_addc(sb, (char)(0x80 | ((cp >> 6) & 0x3f)));
        ravel__sb_addc(sb, (char)(0x80 | (cp & 0x3f)));
    }
}

static int hex4(const char *p, const char *end, unsigned *out)
{
    if (end - p < 4)
        return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + (unsigned)d;
    }
    *out = v;
    return 0;
}

static uint32_t string(struct ps *ps)
{
    uint32_t start_line = ps->line;
    ps->p++; /* opening quote */
    /* Most strings have no escapes: intern them straight from the input. */
    {
        size_t n = (size_t)(ps->end - ps->p);
        const char *q = memchr(ps->p, '"', n);
        if (q && !memchr(ps->p, '\\', (size_t)(q - ps->p))) {
            for (const char *l = ps->p;
                 (l = memchr(l, '\n', (size_t)(q - l))) != NULL; l++)
                ps->line++;
            uint32_t id = ravel__lin_str(ps->vs, ps->p, (size_t)(q - ps->p));
            ps->p = q + 1;
            return id == RAVEL__LIN_V_NONE ? fail(ps, "too many values") : id;
        }
    }
    struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
    for (;;) {
        if (ps->p >= ps->end) {
            ravel__sb_free(&sb);
            ps->line = start_line;
            return fail(ps, "unterminated string (truncated file?)");
        }
        char c = *ps->p++;
        if (c == '"')
            break;
        if (c == '\n')
            ps->line++;
        if (c != '\\') {
            ravel__sb_addc(&sb, c);
            continue;
        }
        if (ps->p >= ps->end)
            continue; /* reported as unterminated above */
        char e = *ps->p++;
        unsigned cp;
        switch (e) {
        case 'n': ravel__sb_addc(&sb, '\n'); break;
        case 't': ravel__sb_addc(&sb, '\t'); break;
        case 'r': ravel__sb_addc(&sb, '\r'); break;
        case 'b': ravel__sb_addc(&sb, '\b'); break;
        case 'f': ravel__sb_addc(&sb, '\f'); break;
        case '"': ravel__sb_addc(&sb, '"'); break;
        case '\\': ravel__sb_addc(&sb, '\\'); break;
        case 'u':
            if (hex4(ps->p, ps->end, &cp) != 0) {
                ravel__sb_free(&sb);
                return fail(ps, "bad \\u escape in string");
            }
            ps->p += 4;
            utf8(&sb, cp);
            break;
        default:
            ravel__sb_free(&sb);
            return fail(ps, "unknown escape in string");
        }
    }
    uint32_t id = ravel__lin_str(ps->vs, ravel__sb_str(&sb), sb.len);
    ravel__sb_free(&sb);
    return id == RAVEL__LIN_V_NONE ? fail(ps, "too many values") : id;
}

/* A token of symbol characters: number, nil/true/false, symbol. */
static uint32_t atom(struct ps *ps)
{
    const char *s = ps->p;
    while (ps->p < ps->end && !delim(*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - s);
    for (size_t i = 0; i < n; i++)
        if (!sym_char(s[i]))
            return fail(ps, "unexpected character");
    if (n == 3 && !memcmp(s, "nil", 3))
        return RAVEL__LIN_V_NIL;
    if (n == 4 && !memcmp(s, "true", 4))
        return RAVEL__LIN_V_TRUE;
    if (n == 5 && !memcmp(s, "false", 5))
        return RAVEL__LIN_V_FALSE;
    const char *d = s;
    if (n > 1 && (*d == '-' || *d == '+'))
        d++;
    uint32_t id;
    if (d < s + n && *d >= '0' && *d <= '9') {
        size_t digits = 0;
        while (d + digits < s + n && d[digits] >= '0' && d[digits] <= '9')
            digits++;
        bool plain = d + digits == s + n ||
                     (d + digits + 1 == s + n && d[digits] == 'N');
        if (plain && digits <= 18) {
            char buf[24];
            size_t len = (size_t)(d + digits - s);
            memcpy(buf, s, len);
            buf[len] = 0;
            id = ravel__lin_int(ps->vs, strtoll(buf, NULL, 10));
        } else {
            /* Floats, ratios, big integers: kept as their text. */
            for (size_t i = 0; i < n; i++)
                if (!s[i] || !strchr("0123456789+-.eENM/", s[i]))
                    return fail(ps, "malformed number");
            id = ravel__lin_intern(ps->vs, RAVEL__LIN_FLOAT, 0, s, n, NULL,
                                   0);
        }
    } else {
        if (n == 0)
            return fail(ps, "unexpected character");
        id = ravel__lin_intern(ps->vs, RAVEL__LIN_SYMBOL, 0, s, n, NULL, 0);
    }
    return id == RAVEL__LIN_V_NONE ? fail(ps, "too many values") : id;
}

static uint32_t keyword(struct ps *ps)
{
    ps->p++;
    const char *s = ps->p;
    while (ps->p < ps->end && !delim(*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - s);
    if (n == 0)
        return fail(ps, "empty keyword");
    struct kwc *c = NULL;
    if (ps->kw) {
        unsigned slot = ((unsigned)n * 31u + (unsigned char)s[0] * 7u +
                         (unsigned char)s[n - 1]) %
                        KW_CACHE;
        c = &ps->kw[slot];
        if (c->id && c->len == n &&
            !memcmp(ravel__lin_vtext(ps->vs, c->id - 1), s, n))
            return c->id - 1;
    }
    for (size_t i = 0; i < n; i++)
        if (!sym_char(s[i]))
            return fail(ps, "bad character in keyword");
    uint32_t id = ravel__lin_intern(ps->vs, RAVEL__LIN_KEYWORD, 0, s, n, NULL,
                                    0);
    if (id == RAVEL__LIN_V_NONE)
        return fail(ps, "too many values");
    if (c)
        *c = (struct kwc){id + 1, (uint32_t)n};
    return id;
}

static uint32_t character(struct ps *ps)
{
    ps->p++;
    const char *s = ps->p;
    if (s >= ps->end)
        return fail(ps, "unexpected end of file after \\");
    ps->p++; /* the character itself, even a delimiter */
    while (ps->p < ps->end && !delim(*ps->p))
        ps->p++;
    size_t n = (size_t)(ps->p - s);
    char c;
    if (n == 1)
        c = *s;
    else if (n == 7 && !memcmp(s, "newline", 7))
        c = '\n';
    else if (n == 5 && !memcmp(s, "space", 5))
        c = ' ';
    else if (n == 3 && !memcmp(s, "tab", 3))
        c = '\t';
    else if (n == 6 && !memcmp(s, "return", 6))
        c = '\r';
    else
        return fail(ps, "unknown character literal");
    uint32_t id = ravel__lin_str(ps->vs, &c, 1);
    return id == RAVEL__LIN_V_NONE ? fail(ps, "too many values") : id;
}

/*
 * The elements of [ ... ], ( ... ), #{ ... } or { ... } after the opening
 * delimiter, into a malloc'ed array (*out, caller frees; NULL when
 * empty). Returns the count, or -1 after an error.
 */
static int64_t elements(struct ps *ps, char close, bool map, uint32_t **out)
{
    uint32_t start_line = ps->line;
    *out = NULL;
    if (++ps->depth > RAVEL__LIN_MAX_DEPTH)
        return fail(ps, "values nested too deeply"), -1;
    uint32_t *kids = NULL;
    uint32_t n = 0, cap = 0;
    for (;;) {
        skip_ws(ps);
        if (ps->p >= ps->end) {
            free(kids);
            ps->line = start_line;
            return fail(ps, map ? "unterminated map (truncated file?)"
                                         : "unterminated collection "
                                           "(truncated file?)"),
                   -1;
        }
        if (*ps->p == close) {
            ps->p++;
            break;
        }
        if (*ps->p == ')' || *ps->p == ']' || *ps->p == '}') {
            free(kids);
            return fail(ps, "mismatched closing bracket"), -1;
        }
        uint32_t v = value(ps);
        if (v == RAVEL__LIN_V_NONE) {
            free(kids);
            return -1;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            uint32_t *nk = realloc(kids, cap * sizeof *nk);
            if (!nk) {
                free(kids);
                return fail(ps, "out of memory"), -1;
            }
            kids = nk;
        }
        kids[n++] = v;
    }
    ps->depth--;
    if (map && n % 2) {
        free(kids);
        ps->line = start_line;
        return fail(ps, "map with an odd number of forms"), -1;
    }
    *out = kids;
    return n;
}

static uint32_t collection(struct ps *ps, enum ravel__lin_vkind kind,
                           char close)
{
    uint32_t *kids;
    int64_t n = elements(ps, close, kind == RAVEL__LIN_MAP, &kids);
    if (n < 0)
        return RAVEL__LIN_V_NONE;
    uint32_t id = ravel__lin_intern(ps->vs, kind, 0, NULL, 0, kids,
                                    (uint32_t)n);
    free(kids);
    return id == RAVEL__LIN_V_NONE ? fail(ps, "too many values") : id;
}

static uint32_t value(struct ps *ps)
{
    skip_ws(ps);
    if (ps->p >= ps->end)
        return fail(ps, "unexpected end of file (truncated?)");
    char c = *ps->p;
    switch (c) {
    case '"':
        return string(ps);
    case ':':
        return keyword(ps);
    case '\\':
        return character(ps);
    case '[':
        ps->p++;
        return collection(ps, RAVEL__LIN_VEC, ']');
    case '(':
        ps->p++;
        return collection(ps, RAVEL__LIN_VEC, ')');
    case '{':
        ps->p++;
        return collection(ps, RAVEL__LIN_MAP, '}');
    case ')':
    case ']':
    case '}':
        return fail(ps, "unexpected closing bracket");
    case '#':
        if (ps->p + 1 < ps->end && ps->p[1] == '{') {
            ps->p += 2;
            return collection(ps, RAVEL__LIN_SET, '}');
        }
        if (ps->p + 1 < ps->end && ps->p[1] == '_') {
            ps->p += 2;
            if (++ps->depth > RAVEL__LIN_MAX_DEPTH)
                return fail(ps, "values nested too deeply");
            if (value(ps) == RAVEL__LIN_V_NONE)
                return RAVEL__LIN_V_NONE;
            ps->depth--;
            return value(ps);
        }
        /* A tagged value: #tag value keeps the value. */
        ps->p++;
        if (ps->p >= ps->end || delim(*ps->p))
            return fail(ps, "bad # dispatch");
        while (ps->p < ps->end && !delim(*ps->p))
            ps->p++;
        if (++ps->depth > RAVEL__LIN_MAX_DEPTH)
            return fail(ps, "values nested too deeply");
        {
            uint32_t v = value(ps);
            ps->depth--;
            return v;
        }
    default:
        return atom(ps);
    }
}

uint32_t ravel__lin_edn_value(const char **p, const char *end,
                              uint32_t *line, struct ravel__lin_values *vs,
                              char *err, size_t errlen)
{
    struct ps ps = {*p, end, *line, vs, err, errlen, 0, false, NULL};
    uint32_t v = value(&ps);
    *p = ps.p;
    *line = ps.line;
    return v;
}

uint32_t ravel__lin_parse_value(struct ravel__lin_history *h, const char *s,
                                char *err, size_t errlen)
{
    const char *p = s, *end = s + strlen(s);
    uint32_t line = 1;
    char e[200];
    uint32_t v = ravel__lin_edn_value(&p, end, &line, &h->vals, e, sizeof e);
    if (v == RAVEL__LIN_V_NONE) {
        /* "line 1: " is noise for a one-line value. */
        snprintf(err, errlen, "'%s': %s", s,
                 strncmp(e, "line 1: ", 8) ? e : e + 8);
        return v;
    }
    while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
        p++;
    if (p != end) {
        snprintf(err, errlen, "'%s': more than one value", s);
        return RAVEL__LIN_V_NONE;
    }
    return v;
}

/* ---- histories ---------------------------------------------------------- */

/* Ids of the keywords an event map is read by, interned once. */
enum { N_PROCESS, N_TYPE, N_F, N_VALUE, N_KEY, N_INVOKE, N_OK, N_FAIL,
       N_INFO, N_NAMES };
static const char *const names[N_NAMES] = {
    "process", "type", "f", "value", "key", "invoke", "ok", "fail", "info"};

/* Handles one event map, given as its forms: key, value, key, value... */
static int event(struct ps *ps, struct ravel__lin_history *h,
                 const uint32_t *kv, uint32_t nkv, uint32_t line,
                 const uint32_t *id)
{
    struct ravel__lin_values *vs = &h->vals;
    uint32_t process = RAVEL__LIN_V_NONE, type = RAVEL__LIN_V_NONE,
             f = RAVEL__LIN_V_NONE, val = RAVEL__LIN_V_NIL,
             key = RAVEL__LIN_V_NONE;
    for (uint32_t i = 0; i + 1 < nkv; i += 2) {
        uint32_t k = kv[i], v = kv[i + 1];
        if (k == id[N_PROCESS])
            process = v;
        else if (k == id[N_TYPE])
            type = v;
        else if (k == id[N_F])
            f = v;
        else if (k == id[N_VALUE])
            val = v;
        else if (k == id[N_KEY])
            key = v;
    }
    ps->line = line;
    if (process == RAVEL__LIN_V_NONE)
        return fail(ps, "event map without :process"), -1;
    if (type == RAVEL__LIN_V_NONE)
        return fail(ps, "event map without :type"), -1;
    if (ravel__lin_vget(vs, process)->kind == RAVEL__LIN_KEYWORD)
        return 0; /* the nemesis: not a client operation */
    if (f == RAVEL__LIN_V_NONE)
        return fail(ps, "event map without :f"), -1;
    if (ravel__lin_vget(vs, f)->kind != RAVEL__LIN_KEYWORD &&
        ravel__lin_vget(vs, f)->kind != RAVEL__LIN_STR)
        return fail(ps, ":f must be a keyword"), -1;
    char msg[300];
    int rc;
    if (type == id[N_INVOKE])
        rc = ravel__lin_invoke(h, process, f, key, val, line,
                               RAVEL__LIN_NEVER, msg, sizeof msg);
    else if (type == id[N_OK])
        rc = ravel__lin_complete(
            h, process, f, val == RAVEL__LIN_V_NIL ? RAVEL__LIN_V_NONE : val,
            line, RAVEL__LIN_NEVER, msg, sizeof msg);
    else if (type == id[N_FAIL])
        rc = ravel__lin_forget(h, process, f, line, msg, sizeof msg);
    else if (type == id[N_INFO])
        rc = ravel__lin_abandon(h, process, f, line, msg, sizeof msg);
    else
        return fail(ps, ":type must be :invoke, :ok, :fail or :info"), -1;
    if (rc != 0)
        return fail(ps, msg), -1;
    return 0;
}

int ravel__lin_read_edn(const char *buf, size_t len,
                        struct ravel__lin_history *h, char *err,
                        size_t errlen)
{
    struct kwc cache[KW_CACHE];
    memset(cache, 0, sizeof cache);
    struct ps ps = {buf, buf + len, 1, &h->vals, err, errlen, 0, false, cache};
    uint32_t id[N_NAMES];
    for (int i = 0; i < N_NAMES; i++) {
        id[i] = ravel__lin_intern(&h->vals, RAVEL__LIN_KEYWORD, 0, names[i],
                                  strlen(names[i]), NULL, 0);
        if (id[i] == RAVEL__LIN_V_NONE)
            return fail(&ps, "out of memory"), -1;
    }
    skip_ws(&ps);
    /* Events one after another, or all inside one vector or list. */
    char close = 0;
    uint32_t open_line = ps.line;
    if (ps.p < ps.end && (*ps.p == '[' || *ps.p == '(')) {
        close = *ps.p == '[' ? ']' : ')';
        ps.p++;
    }
    bool in_vector = close != 0;
    for (;;) {
        skip_ws(&ps);
        if (ps.p >= ps.end) {
            ps.line = open_line; /* where the vector or list opened */
            if (in_vector)
                return fail(&ps, close == ']'
                                     ? "unterminated history vector "
                                       "(truncated file?)"
                                     : "unterminated history list "
                                       "(truncated file?)"),
                       -1;
            break;
        }
        if (in_vector && *ps.p == close) {
            ps.p++;
            skip_ws(&ps);
            if (ps.p < ps.end)
                return fail(&ps, "text after the history vector or "
                                 "list"),
                       -1;
            break;
        }
        if (ps.p + 1 < ps.end && ps.p[0] == '#' && ps.p[1] == '_') {
            ps.p += 2; /* a discarded form between events */
            if (value(&ps) == RAVEL__LIN_V_NONE)
                return -1;
            continue;
        }
        if (*ps.p == '#' && ps.p + 1 < ps.end && ps.p[1] != '{') {
            /* A tagged event (#jepsen.history.Op{...}): the tag goes. */
            while (ps.p < ps.end && !delim(*ps.p))
                ps.p++;
            skip_ws(&ps);
        }
        if (ps.p >= ps.end || *ps.p != '{')
            return fail(&ps, "expected an event map {:process ... :type "
                             "...}"),
                   -1;
        /* The event map itself is not interned: only its values are. */
        uint32_t line = ps.line;
        ps.p++;
        uint32_t *kv;
        int64_t nkv = elements(&ps, '}', true, &kv);
        if (nkv < 0)
            return -1;
        int rc = event(&ps, h, kv, (uint32_t)nkv, line, id);
        free(kv);
        if (rc != 0)
            return -1;
    }
    return ravel__lin_finish(h, err, errlen);
}
