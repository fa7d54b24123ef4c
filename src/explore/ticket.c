/*
 * ticket.c - reading and writing replay tickets (format in ticket.h and
 * docs/tickets.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ticket.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 100000000u
#define MAX_NAMES 4096u
#define MAX_ARGS 4096

void ravel__ticket_free(struct ravel__ticket *t)
{
    free(t->program);
    for (int i = 0; i < t->argc; i++)
        free(t->argv[i]);
    free(t->argv);
    free(t->strategy);
    free(t->kind);
    free(t->memory_model);
    free(t->timeouts);
    for (uint32_t i = 0; i < t->nnames; i++)
        free(t->names[i]);
    free(t->names);
    free(t->runs);
    free(t->vchoices);
    memset(t, 0, sizeof *t);
}

bool ravel__thread_name_valid(const char *s)
{
    if (!*s || strlen(s) >= 48)
        return false;
    for (;;) {
        if (*s < '1' || *s > '9')
            return false;
        s++;
        while (*s >= '0' && *s <= '9')
            s++;
        if (!*s || !strcmp(s, "/sb")) /* a store buffer (src/rt/tso.c) */
            return true;
        if (*s != '.')
            return false;
        s++;
    }
}

static int name_index(struct ravel__ticket *t, const char *name, size_t len)
{
    for (uint32_t i = 0; i < t->nnames; i++)
        if (strlen(t->names[i]) == len && !memcmp(t->names[i], name, len))
            return (int)i;
    if (t->nnames >= MAX_NAMES)
        return -1;
    if ((t->nnames & (t->nnames - 1)) == 0) {
        size_t cap = t->nnames ? t->nnames * 2 : 4;
        char **nn = realloc(t->names, cap * sizeof *nn);
        if (!nn)
            return -1;
        t->names = nn;
    }
    char *copy = strndup(name, len);
    if (!copy)
        return -1;
    t->names[t->nnames] = copy;
    return (int)t->nnames++;
}

static int add_steps(struct ravel__ticket *t, uint32_t idx, uint64_t count)
{
    if (count == 0 || count > MAX_STEPS - t->nsteps)
        return -1;
    if (t->nruns && t->runs[t->nruns - 1].name == idx) {
        t->runs[t->nruns - 1].count += (uint32_t)count;
        t->nsteps += (uint32_t)count;
        return 0;
    }
    if (t->nruns == t->runs_cap) {
        uint32_t cap = t->runs_cap ? t->runs_cap * 2 : 16;
        struct ravel__ticket_run *nr = realloc(t->runs, cap * sizeof *nr);
        if (!nr)
            return -1;
        t->runs = nr;
        t->runs_cap = cap;
    }
    t->runs[t->nruns++] = (struct ravel__ticket_run){idx, (uint32_t)count};
    t->nsteps += (uint32_t)count;
    return 0;
}

int ravel__ticket_add_step(struct ravel__ticket *t, const char *name)
{
    int idx = name_index(t, name, strlen(name));
    if (idx < 0)
        return -1;
    return add_steps(t, (uint32_t)idx, 1);
}

/* ---- parsing ---------------------------------------------------------- */

struct parser {
    const char *p, *end;
    unsigned line;
    char *err;
    size_t errlen;
};

static int perr(struct parser *ps, const char *fmt, const char *detail)
{
    char msg[200];
    snprintf(msg, sizeof msg, fmt, detail ? detail : "");
    snprintf(ps->err, ps->errlen, "line %u: %s", ps->line, msg);
    return -1;
}

static bool at_eol(struct parser *ps)
{
    return ps->p >= ps->end || *ps->p == '\n';
}

static void skip_spaces(struct parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
        ps->p++;
}

/* Next space-separated token of the line; returns its length (0: none). */
static size_t token(struct parser *ps, const char **tok)
{
    skip_spaces(ps);
    *tok = ps->p;
    while (ps->p < ps->end && *ps->p != ' ' && *ps->p != '\t' &&
           *ps->p != '\n' && *ps->p != '\r')
        ps->p++;
    return (size_t)(ps->p - *tok);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A "quoted string" with \\ \" \n \t \r \xHH escapes; result malloc'ed. */
static int qstring(struct parser *ps, char **out)
{
    skip_spaces(ps);
    if (ps->p >= ps->end || *ps->p != '"')
        return perr(ps, "expected a quoted string", NULL);
    ps->p++;
    size_t cap = 32, len = 0;
    char *s = malloc(cap);
    if (!s)
        return perr(ps, "out of memory", NULL);
    for (;;) {
        if (ps->p >= ps->end || *ps->p == '\n') {
            free(s);
            return perr(ps, "unterminated string", NULL);
        }
        unsigned char c = (unsigned char)*ps->p++;
        if (c == '"')
            break;
        if (c < 0x20) {
            free(s);
            return perr(ps, "control character in string", NULL);
        }
        if (c == '\\') {
            if (ps->p >= ps->end) {
                free(s);
                return perr(ps, "unterminated string", NULL);
            }
            char e = *ps->p++;
            switch (e) {
            case '\\': c = '\\'; break;
            case '"': c = '"'; break;
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'x': {
                int h = ps->p + 1 < ps->end ? hexval(ps->p[0]) : -1;
                int l = h >= 0 ? hexval(ps->p[1]) : -1;
                if (h < 0 || l < 0 || (h == 0 && l == 0)) {
                    free(s);
                    return perr(ps, "bad \\x escape in string", NULL);
                }
                c = (unsigned char)(h * 16 + l);
                ps->p += 2;
                break;
            }
            default:
                free(s);
                return perr(ps, "unknown escape in string", NULL);
            }
        }
        if (len + 2 > cap) {
            if (cap > (1u << 20)) {
                free(s);
                return perr(ps, "string too long", NULL);
            }
            cap *= 2;
            char *ns = realloc(s, cap);
            if (!ns) {
                free(s);
                return perr(ps, "out of memory", NULL);
            }
            s = ns;
        }
        s[len++] = (char)c;
    }
    s[len] = 0;
    *out = s;
    return 0;
}

static int number(struct parser *ps, uint64_t *out, const char *what)
{
    const char *tok;
    size_t n = token(ps, &tok);
    if (n == 0 || n > 20)
        return perr(ps, "expected %s", what);
    char buf[24];
    memcpy(buf, tok, n);
    buf[n] = 0;
    if (ravel__parse_u64(buf, out) != 0)
        return perr(ps, "bad %s", what);
    return 0;
}

static int word(struct parser *ps, char **out, const char *what)
{
    const char *tok;
    size_t n = token(ps, &tok);
    if (n == 0 || n > 64)
        return perr(ps, "expected %s", what);
    for (size_t i = 0; i < n; i++) {
        char c = tok[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return perr(ps, "bad %s", what);
    }
    *out = strndup(tok, n);
    return *out ? 0 : perr(ps, "out of memory", NULL);
}

static int parse_schedule(struct parser *ps, struct ravel__ticket *t)
{
    for (;;) {
        const char *tok;
        size_t n = token(ps, &tok);
        if (n == 0)
            return 0;
        const char *star = memchr(tok, '*', n);
        size_t nlen = star ? (size_t)(star - tok) : n;
        char name[48];
        if (nlen == 0 || nlen >= sizeof name)
            return perr(ps, "bad thread name in schedule", NULL);
        memcpy(name, tok, nlen);
        name[nlen] = 0;
        if (!ravel__thread_name_valid(name))
            return perr(ps, "bad thread name '%s' in schedule", name);
        uint64_t count = 1;
        if (star) {
            size_t clen = n - nlen - 1;
            char buf[24];
            if (clen == 0 || clen > 20)
                return perr(ps, "bad repeat count in schedule", NULL);
            memcpy(buf, star + 1, clen);
            buf[clen] = 0;
            if (ravel__parse_u64(buf, &count) != 0 || count == 0)
                return perr(ps, "bad repeat count in schedule", NULL);
        }
        int idx = name_index(t, name, nlen);
        if (idx < 0)
            return perr(ps, "too many threads in schedule", NULL);
        if (add_steps(t, (uint32_t)idx, count) != 0)
            return perr(ps, "schedule too long", NULL);
    }
}

static int parse_choices(struct parser *ps, struct ravel__ticket *t)
{
    for (;;) {
        const char *tok;
        size_t n = token(ps, &tok);
        if (n == 0)
            return 0;
        char buf[72];
        if (n >= sizeof buf)
            return perr(ps, "bad data choice", NULL);
        memcpy(buf, tok, n);
        buf[n] = 0;
        char *a = buf, *b = strchr(a, ':');
        char *c = b ? strchr(b + 1, ':') : NULL;
        if (!b || !c)
            return perr(ps, "bad data choice '%s' (want STEP:N:VALUE)", buf);
        *b++ = 0;
        *c++ = 0;
        uint64_t step, cnt, val;
        if (ravel__parse_u64(a, &step) || ravel__parse_u64(b, &cnt) ||
            ravel__parse_u64(c, &val) || step >= MAX_STEPS || cnt < 2 ||
            cnt > 1000000 || val >= cnt)
            return perr(ps, "bad data choice", NULL);
        if (t->nvchoices && t->vchoices[t->nvchoices - 1].step > step)
            return perr(ps, "data choices out of order", NULL);
        if (t->nvchoices >= MAX_STEPS)
            return perr(ps, "too many data choices", NULL);
        if ((t->nvchoices & (t->nvchoices - 1)) == 0) {
            size_t cap = t->nvchoices ? t->nvchoices * 2 : 4;
            struct ravel__ticket_vchoice *nv =
                realloc(t->vchoices, cap * sizeof *nv);
            if (!nv)
                return perr(ps, "out of memory", NULL);
            t->vchoices = nv;
        }
        t->vchoices[t->nvchoices++] = (struct ravel__ticket_vchoice){
            (uint32_t)step, (uint32_t)cnt, (uint32_t)val};
    }
}

enum {
    F_PROGRAM = 1 << 0,
    F_HASH = 1 << 1,
    F_ARGV = 1 << 2,
    F_STRATEGY = 1 << 3,
    F_SEED = 1 << 4,
    F_EXECUTION = 1 << 5,
    F_MAXSTEPS = 1 << 6,
    F_KIND = 1 << 7,
    F_SCHEDULE = 1 << 8,
};

static int parse_line(struct parser *ps, struct ravel__ticket *t,
                      unsigned *seen, bool *ended)
{
    const char *key;
    size_t klen = token(ps, &key);
    if (klen == 0)
        return 0; /* blank line */
    if (*ended)
        return perr(ps, "text after 'end'", NULL);
#define KEY(s) (klen == sizeof(s) - 1 && !memcmp(key, s, klen))
#define ONCE(flag, s)                                                          \
    do {                                                                       \
        if (*seen & (flag))                                                    \
            return perr(ps, "duplicate '%s'", s);                              \
        *seen |= (flag);                                                       \
    } while (0)
    if (KEY("program")) {
        ONCE(F_PROGRAM, "program");
        if (qstring(ps, &t->program))
            return -1;
        if (t->program[0] != '/')
            return perr(ps, "program path must be absolute", NULL);
    } else if (KEY("program-hash")) {
        ONCE(F_HASH, "program-hash");
        const char *tok;
        size_t n = token(ps, &tok);
        if (n != 16)
            return perr(ps, "program-hash must be 16 hex digits", NULL);
        uint64_t h = 0;
        for (size_t i = 0; i < n; i++) {
            int v = hexval(tok[i]);
            if (v < 0)
                return perr(ps, "program-hash must be 16 hex digits", NULL);
            h = h * 16 + (uint64_t)v;
        }
        t->program_hash = h;
    } else if (KEY("argv")) {
        ONCE(F_ARGV, "argv");
        for (;;) {
            skip_spaces(ps);
            if (at_eol(ps) || *ps->p == '\r')
                break;
            if (t->argc >= MAX_ARGS)
                return perr(ps, "too many arguments", NULL);
            char **na = realloc(t->argv, (size_t)(t->argc + 2) * sizeof *na);
            if (!na)
                return perr(ps, "out of memory", NULL);
            t->argv = na;
            if (qstring(ps, &t->argv[t->argc]))
                return -1;
            t->argc++;
            t->argv[t->argc] = NULL;
        }
        if (t->argc == 0)
            return perr(ps, "argv needs at least the program name", NULL);
    } else if (KEY("strategy")) {
        ONCE(F_STRATEGY, "strategy");
        if (word(ps, &t->strategy, "strategy name"))
            return -1;
    } else if (KEY("seed")) {
        ONCE(F_SEED, "seed");
        if (number(ps, &t->seed, "seed"))
            return -1;
    } else if (KEY("execution")) {
        ONCE(F_EXECUTION, "execution");
        if (number(ps, &t->execution, "execution number"))
            return -1;
    } else if (KEY("max-steps")) {
        ONCE(F_MAXSTEPS, "max-steps");
        if (number(ps, &t->max_steps, "max-steps"))
            return -1;
        if (t->max_steps == 0 || t->max_steps > MAX_STEPS)
            return perr(ps, "max-steps out of range", NULL);
    } else if (KEY("kind")) {
        ONCE(F_KIND, "kind");
        if (word(ps, &t->kind, "kind"))
            return -1;
    } else if (KEY("memory-model")) {
        if (t->memory_model)
            return perr(ps, "duplicate '%s'", "memory-model");
        if (word(ps, &t->memory_model, "memory model"))
            return -1;
        if (strcmp(t->memory_model, "sc") && strcmp(t->memory_model, "tso") &&
            strcmp(t->memory_model, "rc11"))
            return perr(ps, "memory-model must be sc, tso or rc11", NULL);
    } else if (KEY("timeouts")) {
        if (t->timeouts)
            return perr(ps, "duplicate '%s'", "timeouts");
        if (word(ps, &t->timeouts, "timeouts"))
            return -1;
        if (strcmp(t->timeouts, "any") && strcmp(t->timeouts, "late"))
            return perr(ps, "timeouts must be any or late", NULL);
    } else if (KEY("schedule")) {
        *seen |= F_SCHEDULE;
        if (parse_schedule(ps, t))
            return -1;
    } else if (KEY("choices")) {
        if (parse_choices(ps, t))
            return -1;
    } else if (KEY("promote-data")) {
        /* hex where ... */
        for (;;) {
            skip_spaces(ps);
            if (at_eol(ps) || *ps->p == '\r')
                break;
            const char *tok;
            size_t n = token(ps, &tok);
            if (n > 16)
                return perr(ps, "promote-data: location too long", NULL);
            uint64_t where = 0;
            for (const char *q = tok; q < tok + n; q++) {
                int v = hexval(*q);
                if (v < 0)
                    return perr(ps, "promote-data: location must be "
                                    "hexadecimal",
                                NULL);
                where = where * 16 + (uint64_t)v;
            }
            if (t->npromote_data >= RAVEL__TICKET_MAX_PROMOTE)
                return perr(ps, "too many promoted data locations", NULL);
            t->promote_data[t->npromote_data++].where = where;
        }
    } else if (KEY("promote")) {
        /* module:hex-offset ... */
        for (;;) {
            skip_spaces(ps);
            if (at_eol(ps) || *ps->p == '\r')
                break;
            const char *tok;
            size_t n = token(ps, &tok);
            const char *colon = memchr(tok, ':', n);
            if (!colon || colon == tok || colon + 1 == tok + n)
                return perr(ps, "promote wants MODULE:OFFSET", NULL);
            uint64_t mod = 0, off = 0;
            for (const char *q = tok; q < colon; q++) {
                if (*q < '0' || *q > '9' || mod > 1000)
                    return perr(ps, "promote: bad module number", NULL);
                mod = mod * 10 + (uint64_t)(*q - '0');
            }
            if ((size_t)(tok + n - colon - 1) > 16)
                return perr(ps, "promote: offset too long", NULL);
            for (const char *q = colon + 1; q < tok + n; q++) {
                int v = hexval(*q);
                if (v < 0)
                    return perr(ps, "promote: offset must be hexadecimal",
                                NULL);
                off = off * 16 + (uint64_t)v;
            }
            if (t->npromote >= RAVEL__TICKET_MAX_PROMOTE)
                return perr(ps, "too many promoted locations", NULL);
            t->promote[t->npromote].module = (uint32_t)mod;
            t->promote[t->npromote].offset = off;
            t->npromote++;
        }
    } else if (KEY("end")) {
        *ended = true;
    } else {
        char k[40];
        size_t n = klen < sizeof k - 1 ? klen : sizeof k - 1;
        memcpy(k, key, n);
        k[n] = 0;
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)k[i] < 0x20 || (unsigned char)k[i] > 0x7e)
                k[i] = '?';
        return perr(ps, "unknown field '%s'", k);
    }
#undef KEY
#undef ONCE
    skip_spaces(ps);
    if (ps->p < ps->end && *ps->p == '\r')
        ps->p++;
    if (!at_eol(ps))
        return perr(ps, "unexpected text at end of line", NULL);
    return 0;
}

int ravel__ticket_parse(const char *text, size_t len, struct ravel__ticket *t,
                        char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    struct parser ps = {text, text + len, 1, err, errlen};
    if (memchr(text, 0, len)) {
        snprintf(err, errlen, "not a ravel ticket (binary data)");
        return -1;
    }
    /* Header: first non-comment line. */
    static const char magic[] = "ravel-ticket ";
    unsigned seen = 0;
    bool header = false, ended = false;
    while (ps.p < ps.end) {
        const char *nl = memchr(ps.p, '\n', (size_t)(ps.end - ps.p));
        const char *eol = nl ? nl : ps.end;
        if (ps.p < eol && *ps.p == '#') {
            /* comment */
        } else if (!header) {
            size_t l = (size_t)(eol - ps.p);
            if (l == 0)
                goto next;
            if (l < sizeof magic || memcmp(ps.p, magic, sizeof magic - 1)) {
                snprintf(err, errlen,
                         "not a ravel ticket (no 'ravel-ticket' header)");
                ravel__ticket_free(t);
                return -1;
            }
            ps.p += sizeof magic - 1;
            uint64_t v;
            if (number(&ps, &v, "version")) {
                ravel__ticket_free(t);
                return -1;
            }
            if (v != RAVEL__TICKET_VERSION) {
                snprintf(err, errlen,
                         "ticket format version %llu is not supported (this "
                         "ravel reads version %d)",
                         (unsigned long long)v, RAVEL__TICKET_VERSION);
                ravel__ticket_free(t);
                return -1;
            }
            t->version = (unsigned)v;
            header = true;
        } else if (parse_line(&ps, t, &seen, &ended)) {
            ravel__ticket_free(t);
            return -1;
        }
    next:
        if (!nl)
            break;
        ps.p = nl + 1;
        ps.line++;
    }
    if (!header) {
        snprintf(err, errlen, "not a ravel ticket (empty)");
        ravel__ticket_free(t);
        return -1;
    }
    if (!ended) {
        snprintf(err, errlen,
                 "ticket is truncated (no 'end' line after line %u)",
                 ps.line);
        ravel__ticket_free(t);
        return -1;
    }
    static const struct {
        unsigned flag;
        const char *name;
    } required[] = {
        {F_PROGRAM, "program"}, {F_HASH, "program-hash"},
        {F_ARGV, "argv"},       {F_STRATEGY, "strategy"},
        {F_SEED, "seed"},       {F_EXECUTION, "execution"},
        {F_MAXSTEPS, "max-steps"}, {F_KIND, "kind"},
        {F_SCHEDULE, "schedule"},
    };
    for (size_t i = 0; i < RAVEL__COUNT(required); i++) {
        if (!(seen & required[i].flag)) {
            snprintf(err, errlen, "ticket has no '%s' line", required[i].name);
            ravel__ticket_free(t);
            return -1;
        }
    }
    if (t->nsteps == 0 || t->nsteps > t->max_steps) {
        snprintf(err, errlen, "ticket schedule length %u does not fit "
                 "max-steps %llu", t->nsteps,
                 (unsigned long long)t->max_steps);
        ravel__ticket_free(t);
        return -1;
    }
    /* A choice's step is the number of steps made before it: a program
     * may choose after its last step (ravel_choose, then a failed
     * assertion), so nsteps itself is a place for one. */
    for (uint32_t i = 0; i < t->nvchoices; i++) {
        if (t->vchoices[i].step > t->nsteps) {
            snprintf(err, errlen, "data choice at step %u is past the end of "
                     "the schedule", t->vchoices[i].step + 1);
            ravel__ticket_free(t);
            return -1;
        }
    }
    return 0;
}

int ravel__ticket_load(const char *path, struct ravel__ticket *t, char *err,
                       size_t errlen)
{
    size_t len;
    char *text = ravel__read_file(path, RAVEL__TICKET_MAX_BYTES, &len);
    if (!text) {
        snprintf(err, errlen, "cannot read ticket %s: %s", path,
                 errno == EFBIG ? "file too large" : strerror(errno));
        return -1;
    }
    char perrbuf[256];
    int rc = ravel__ticket_parse(text, len, t, perrbuf, sizeof perrbuf);
    free(text);
    if (rc)
        snprintf(err, errlen, "%s: %s", path, perrbuf);
    return rc;
}

/* ---- writing ---------------------------------------------------------- */

static void put_qstring(struct ravel__strbuf *sb, const char *s)
{
    ravel__sb_addc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            ravel__sb_printf(sb, "\\%c", *p);
        else if (*p == '\n')
            ravel__sb_add(sb, "\\n");
        else if (*p == '\t')
            ravel__sb_add(sb, "\\t");
        else if (*p == '\r')
            ravel__sb_add(sb, "\\r");
        else if (*p < 0x20)
            ravel__sb_printf(sb, "\\x%02x", *p);
        else
            ravel__sb_addc(sb, (char)*p);
    }
    ravel__sb_addc(sb, '"');
}

void ravel__ticket_format(const struct ravel__ticket *t,
                          struct ravel__strbuf *sb)
{
    ravel__sb_add(sb, "# ravel replay ticket: re-run this exact schedule with\n"
                      "#   ravel replay THIS_FILE\n");
    ravel__sb_printf(sb, "ravel-ticket %d\n", RAVEL__TICKET_VERSION);
    ravel__sb_add(sb, "program ");
    put_qstring(sb, t->program ? t->program : "/");
    ravel__sb_printf(sb, "\nprogram-hash %016llx\nargv",
                     (unsigned long long)t->program_hash);
    for (int i = 0; i < t->argc; i++) {
        ravel__sb_addc(sb, ' ');
        put_qstring(sb, t->argv[i]);
    }
    ravel__sb_printf(sb,
                     "\nstrategy %s\nseed %llu\nexecution %llu\n"
                     "max-steps %llu\nkind %s\n",
                     t->strategy, (unsigned long long)t->seed,
                     (unsigned long long)t->execution,
                     (unsigned long long)t->max_steps, t->kind);
    if (t->memory_model && strcmp(t->memory_model, "sc") != 0)
        ravel__sb_printf(sb, "memory-model %s\n", t->memory_model);
    if (t->timeouts && strcmp(t->timeouts, "any") != 0)
        ravel__sb_printf(sb, "timeouts %s\n", t->timeouts);
    size_t col = 0;
    for (uint32_t i = 0; i < t->nruns; i++) {
        char tok[80];
        if (t->runs[i].count > 1)
            snprintf(tok, sizeof tok, "%s*%u", t->names[t->runs[i].name],
                     t->runs[i].count);
        else
            snprintf(tok, sizeof tok, "%s", t->names[t->runs[i].name]);
        if (col == 0) {
            ravel__sb_add(sb, "schedule");
            col = 8;
        }
        ravel__sb_addc(sb, ' ');
        ravel__sb_add(sb, tok);
        col += strlen(tok) + 1;
        if (col > 68) {
            ravel__sb_addc(sb, '\n');
            col = 0;
        }
    }
    if (col)
        ravel__sb_addc(sb, '\n');
    col = 0;
    for (uint32_t i = 0; i < t->nvchoices; i++) {
        if (col == 0) {
            ravel__sb_add(sb, "choices");
            col = 7;
        }
        char tok[48];
        snprintf(tok, sizeof tok, " %u:%u:%u", t->vchoices[i].step,
                 t->vchoices[i].n, t->vchoices[i].value);
        ravel__sb_add(sb, tok);
        col += strlen(tok);
        if (col > 68) {
            ravel__sb_addc(sb, '\n');
            col = 0;
        }
    }
    if (col)
        ravel__sb_addc(sb, '\n');
    if (t->npromote) {
        ravel__sb_add(sb, "promote");
        for (uint32_t i = 0; i < t->npromote; i++)
            ravel__sb_printf(sb, " %u:%llx", t->promote[i].module,
                             (unsigned long long)t->promote[i].offset);
        ravel__sb_addc(sb, '\n');
    }
    if (t->npromote_data) {
        ravel__sb_add(sb, "promote-data");
        for (uint32_t i = 0; i < t->npromote_data; i++)
            ravel__sb_printf(sb, " %llx",
                             (unsigned long long)t->promote_data[i].where);
        ravel__sb_addc(sb, '\n');
    }
    ravel__sb_add(sb, "end\n");
}
