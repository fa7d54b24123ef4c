/*
 * options.c - parsing, validating and printing options (see options.def).
 */
#include "options.h"
#include "shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum opt_type { T_STR, T_U64, T_DBL, T_BOOL };

struct opt_desc {
    const char *name;
    enum opt_type type;
    const char *metavar;
    const char *help;
    size_t offset;
};

static const struct opt_desc opt_table[] = {
#define RAVEL_OPT(f, t, d, m, h)                                               \
    {#f, T_##t, m, h, offsetof(struct ravel__options, f)},
#include "options.def"
#undef RAVEL_OPT
};

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    RAVEL__CHECK(d != NULL);
    return d;
}

void ravel__options_defaults(struct ravel__options *o)
{
    memset(o, 0, sizeof *o);
#define RAVEL_OPT(f, t, d, m, h) ravel__options_default_##t(&o->f, d);
#define ravel__options_default_STR(p, d) (*(p) = dup_or_null(d))
#define ravel__options_default_U64(p, d) (*(p) = (uint64_t)(d))
#define ravel__options_default_DBL(p, d) (*(p) = (double)(d))
#define ravel__options_default_BOOL(p, d) (*(p) = (d) != 0)
#include "options.def"
#undef RAVEL_OPT
}

void ravel__options_free(struct ravel__options *o)
{
    for (size_t i = 0; i < RAVEL__COUNT(opt_table); i++) {
        if (opt_table[i].type == T_STR) {
            char **p = (char **)((char *)o + opt_table[i].offset);
            free(*p);
            *p = NULL;
        }
    }
}

/* Finds an option by name, '-' and '_' being equivalent. */
static int find_opt(const char *name, size_t len)
{
    for (size_t i = 0; i < RAVEL__COUNT(opt_table); i++) {
        const char *n = opt_table[i].name;
        if (strlen(n) != len)
            continue;
        size_t k = 0;
        for (; k < len; k++) {
            char a = name[k] == '-' ? '_' : name[k];
            if (a != n[k])
                break;
        }
        if (k == len)
            return (int)i;
    }
    return -1;
}

bool ravel__options_known(const char *name, bool *is_bool)
{
    int i = find_opt(name, strlen(name));
    if (i < 0 || !opt_table[i].help[0])
        return false;
    if (is_bool)
        *is_bool = opt_table[i].type == T_BOOL;
    return true;
}

static int parse_bool(const char *v, bool *out)
{
    static const char *yes[] = {"1", "true", "yes", "on"};
    static const char *no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (!strcmp(v, yes[i])) {
            *out = true;
            return 0;
        }
        if (!strcmp(v, no[i])) {
            *out = false;
            return 0;
        }
    }
    return -1;
}

static void dashed(const char *name, char *out, size_t n)
{
    size_t i = 0;
    for (; name[i] && i + 1 < n; i++)
        out[i] = name[i] == '_' ? '-' : name[i];
    out[i] = 0;
}

static int set_by_index(struct ravel__options *o, int i, const char *value,
                        char *err, size_t errlen)
{
    const struct opt_desc *d = &opt_table[i];
    void *p = (char *)o + d->offset;
    char dname[64];
    dashed(d->name, dname, sizeof dname);
    switch (d->type) {
    case T_STR: {
        char *copy = strdup(value);
        RAVEL__CHECK(copy != NULL);
        free(*(char **)p);
        *(char **)p = copy;
        break;
    }
    case T_U64:
        if (ravel__parse_u64(value, (uint64_t *)p) != 0) {
            snprintf(err, errlen,
                     "option '%s' needs a non-negative integer, not '%s'",
                     dname, value);
            return -1;
        }
        break;
    case T_DBL:
        if (ravel__parse_double(value, (double *)p) != 0) {
            snprintf(err, errlen,
                     "option '%s' needs a non-negative number, not '%s'",
                     dname, value);
            return -1;
        }
        break;
    case T_BOOL:
        if (parse_bool(value, (bool *)p) != 0) {
            snprintf(err, errlen,
                     "option '%s' needs a boolean (1/0, yes/no, true/false), "
                     "not '%s'",
                     dname, value);
            return -1;
        }
        break;
    }
    o->set[i] = true;
    return 0;
}

int ravel__options_set(struct ravel__options *o, const char *name,
                       const char *value, char *err, size_t errlen)
{
    int i = find_opt(name, strlen(name));
    if (i < 0) {
        snprintf(err, errlen, "unknown option '%s'", name);
        return -1;
    }
    return set_by_index(o, i, value, err, errlen);
}

int ravel__options_parse(struct ravel__options *o, const char *text,
                         char *err, size_t errlen)
{
    const char *p = text;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ':')
            p++;
        if (!*p)
            return 0;
        const char *name = p;
        while (*p && *p != '=' && *p != ' ' && *p != '\t' && *p != ':' &&
               *p != '\n')
            p++;
        size_t nlen = (size_t)(p - name);
        if (*p != '=') {
            snprintf(err, errlen,
                     "expected name=value, got '%.*s'",
                     (int)(nlen > 60 ? 60 : nlen), name);
            return -1;
        }
        p++;
        char *v;
        if (*p == '\'' || *p == '"') {
            /* '...' is literal; "..." knows \" and \\ escapes. */
            char q = *p++;
            struct ravel__strbuf quoted = RAVEL__STRBUF_INIT;
            ravel__sb_add(&quoted, "");
            while (*p && *p != q) {
                if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
                    p++;
                ravel__sb_addc(&quoted, *p++);
            }
            if (!*p) {
                ravel__sb_free(&quoted);
                snprintf(err, errlen,
                         "unterminated quote in value of '%.*s'",
                         (int)(nlen > 60 ? 60 : nlen), name);
                return -1;
            }
            p++;
            v = quoted.data;
        } else {
            const char *start = p;
            while (*p && *p != ' ' && *p != '\t' && *p != ':' && *p != '\n')
                p++;
            v = strndup(start, (size_t)(p - start));
            RAVEL__CHECK(v != NULL);
        }
        int i = find_opt(name, nlen);
        if (i < 0) {
            free(v);
            snprintf(err, errlen, "unknown option '%.*s'",
                     (int)(nlen > 60 ? 60 : nlen), name);
            return -1;
        }
        int rc = set_by_index(o, i, v, err, errlen);
        free(v);
        if (rc)
            return rc;
    }
}

static bool one_of(const char *v, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(v, *list))
            return true;
    return false;
}

int ravel__options_validate(const struct ravel__options *o, char *err,
                            size_t errlen)
{
    static const char *const strategies[] = {"auto", "dpor", "dfs", "pct",
                                             "random", "replay", NULL};
    static const char *const whens[] = {"auto", "always", "never", NULL};
    if (!o->strategy || !one_of(o->strategy, strategies)) {
        snprintf(err, errlen,
                 "unknown strategy '%s' (available: auto, dpor, dfs, pct, "
                 "random, replay)",
                 o->strategy ? o->strategy : "");
        return -1;
    }
    if (o->exitcode > 255) {
        snprintf(err, errlen, "exitcode must be between 0 and 255, not %llu",
                 (unsigned long long)o->exitcode);
        return -1;
    }
    if (o->tap && !strcmp(o->tap, "-") && o->json) {
        snprintf(err, errlen, "--tap - and --json both write to standard "
                              "output: use one, or give --tap a file");
        return -1;
    }
    if (!strcmp(o->strategy, "replay") && !o->ticket) {
        snprintf(err, errlen, "strategy 'replay' needs a ticket (--ticket)");
        return -1;
    }
    bool systematic = !strcmp(o->strategy, "dfs") ||
                      !strcmp(o->strategy, "dpor");
    if ((o->set[RAVEL__OPT_preemption_bound] ||
         o->set[RAVEL__OPT_delay_bound]) &&
        !systematic) {
        snprintf(err, errlen, "--preemption-bound and --delay-bound need "
                              "--strategy dfs or dpor");
        return -1;
    }
    if (o->set[RAVEL__OPT_preemption_bound] && o->set[RAVEL__OPT_delay_bound]) {
        snprintf(err, errlen,
                 "use either --preemption-bound or --delay-bound, not both");
        return -1;
    }
    if ((o->shard || o->fingerprints_file) && !systematic &&
        strcmp(o->strategy, "auto") != 0) {
        snprintf(err, errlen, "%s needs --strategy dfs, dpor or auto",
                 o->shard ? "--shard" : "--fingerprints-file");
        return -1;
    }
    if ((o->checkpoint || o->resume) && !systematic) {
        snprintf(err, errlen, "%s needs --strategy dfs or dpor",
                 o->checkpoint ? "--checkpoint" : "--resume");
        return -1;
    }
    if ((o->checkpoint || o->resume || o->shard) &&
        (o->set[RAVEL__OPT_preemption_bound] ||
         o->set[RAVEL__OPT_delay_bound])) {
        snprintf(err, errlen, "%s explores in work units, which bounded "
                              "searches do not: drop the bound",
                 o->shard ? "--shard" : o->checkpoint ? "--checkpoint"
                                                      : "--resume");
        return -1;
    }
    if (o->shard_units == 0 || o->shard_units > 4096) {
        snprintf(err, errlen, "--shard-units must be between 1 and 4096");
        return -1;
    }
    if (o->checkpoint_interval < 0) {
        snprintf(err, errlen, "--checkpoint-interval must be >= 0");
        return -1;
    }
    if (o->shard) {
        uint32_t i, n;
        if (ravel__shard_resolve(o->shard, &i, &n, NULL, err, errlen) != 0)
            return -1;
    }
    static const char *const models[] = {"sc", "tso", "rc11", NULL};
    if (!o->memory_model || !one_of(o->memory_model, models)) {
        snprintf(err, errlen, "--memory-model must be sc, tso or rc11");
        return -1;
    }
    static const char *const timeouts[] = {"any", "late", NULL};
    if (!o->timeouts || !one_of(o->timeouts, timeouts)) {
        snprintf(err, errlen, "--timeouts must be any or late");
        return -1;
    }
    static const char *const dpor_modes[] = {"optimal", "source", NULL};
    if (!o->dpor_mode || !one_of(o->dpor_mode, dpor_modes)) {
        snprintf(err, errlen, "--dpor-mode must be optimal or source");
        return -1;
    }
    static const char *const backends[] = {"auto", "fibers", "threads", NULL};
    if (!o->backend || !one_of(o->backend, backends)) {
        snprintf(err, errlen, "--backend must be auto, fibers or threads");
        return -1;
    }
    static const char *const modes[] = {"random", "exhaustive", NULL};
    if (!o->mode || !one_of(o->mode, modes)) {
        snprintf(err, errlen, "--mode must be random or exhaustive");
        return -1;
    }
    if (o->branches > 4) {
        snprintf(err, errlen, "--branches must be between 0 and 4");
        return -1;
    }
    if (o->ops > 64 || o->prefix > 64 || (o->set[RAVEL__OPT_ops] && !o->ops) ||
        (o->set[RAVEL__OPT_prefix] && !o->prefix)) {
        snprintf(err, errlen, "--ops and --prefix must be between 1 and 64");
        return -1;
    }
    if (o->tests == 0 || o->tests > 100000000) {
        snprintf(err, errlen, "--tests must be between 1 and 100000000");
        return -1;
    }
    if (o->pct_depth == 0 || o->pct_depth > 32) {
        snprintf(err, errlen, "--pct-depth must be between 1 and 32");
        return -1;
    }
    if (!o->progress || !one_of(o->progress, whens)) {
        snprintf(err, errlen, "--progress must be auto, always or never");
        return -1;
    }
    if (!o->color || !one_of(o->color, whens)) {
        snprintf(err, errlen, "--color must be auto, always or never");
        return -1;
    }
    if (o->max_steps == 0 || o->max_steps > 100000000) {
        snprintf(err, errlen, "--max-steps must be between 1 and 100000000");
        return -1;
    }
    if (!o->ticket_dir || !o->ticket_dir[0]) {
        snprintf(err, errlen, "--ticket-dir must not be empty");
        return -1;
    }
    return 0;
}

static bool needs_quotes(const char *s)
{
    if (!*s)
        return true;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == ':' || *s == '\n' ||
            *s == '\'' || *s == '"')
            return true;
    return false;
}

void ravel__options_serialize(const struct ravel__options *o,
                              struct ravel__strbuf *sb)
{
    for (size_t i = 0; i < RAVEL__COUNT(opt_table); i++) {
        if (!o->set[i])
            continue;
        const struct opt_desc *d = &opt_table[i];
        const void *p = (const char *)o + d->offset;
        if (sb->len)
            ravel__sb_addc(sb, ' ');
        ravel__sb_printf(sb, "%s=", d->name);
        switch (d->type) {
        case T_STR: {
            const char *s = *(const char *const *)p;
            if (!s)
                s = "";
            if (!needs_quotes(s)) {
                ravel__sb_add(sb, s);
            } else if (!strchr(s, '\'')) {
                ravel__sb_printf(sb, "'%s'", s);
            } else {
                ravel__sb_addc(sb, '"');
                for (const char *c = s; *c; c++) {
                    if (*c == '"' || *c == '\\')
                        ravel__sb_addc(sb, '\\');
                    ravel__sb_addc(sb, *c);
                }
                ravel__sb_addc(sb, '"');
            }
            break;
        }
        case T_U64:
            ravel__sb_printf(sb, "%llu",
                             (unsigned long long)*(const uint64_t *)p);
            break;
        case T_DBL:
            ravel__sb_printf(sb, "%.17g", *(const double *)p);
            break;
        case T_BOOL:
            ravel__sb_add(sb, *(const bool *)p ? "1" : "0");
            break;
        }
    }
}

/* Appends text wrapped at 76 columns with the given indent. */
static void wrap(struct ravel__strbuf *sb, const char *text, size_t indent)
{
    size_t col = indent;
    ravel__sb_pad(sb, ' ', indent);
    const char *p = text;
    while (*p) {
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        size_t wl = (size_t)(p - w);
        if (col > indent && col + 1 + wl > 76) {
            ravel__sb_addc(sb, '\n');
            ravel__sb_pad(sb, ' ', indent);
            col = indent;
        } else if (col > indent) {
            ravel__sb_addc(sb, ' ');
            col++;
        }
        ravel__sb_addn(sb, w, wl);
        col += wl;
        while (*p == ' ')
            p++;
    }
    ravel__sb_addc(sb, '\n');
}

void ravel__options_help(struct ravel__strbuf *sb)
{
    struct ravel__options def;
    ravel__options_defaults(&def);
    for (size_t i = 0; i < RAVEL__COUNT(opt_table); i++) {
        const struct opt_desc *d = &opt_table[i];
        if (!d->help[0])
            continue;
        char dname[64];
        dashed(d->name, dname, sizeof dname);
        ravel__sb_printf(sb, "  --%s%s%s", dname, d->metavar[0] ? " " : "",
                         d->metavar);
        const void *p = (const char *)&def + d->offset;
        char dflt[96] = "";
        switch (d->type) {
        case T_STR:
            if (*(const char *const *)p)
                snprintf(dflt, sizeof dflt, "%s", *(const char *const *)p);
            break;
        case T_U64:
            if (*(const uint64_t *)p)
                snprintf(dflt, sizeof dflt, "%llu",
                         (unsigned long long)*(const uint64_t *)p);
            break;
        case T_DBL:
            if (*(const double *)p != 0)
                snprintf(dflt, sizeof dflt, "%g", *(const double *)p);
            break;
        case T_BOOL:
            break;
        }
        if (dflt[0])
            ravel__sb_printf(sb, "   (default: %s)", dflt);
        ravel__sb_addc(sb, '\n');
        wrap(sb, d->help, 8);
    }
    ravel__options_free(&def);
}
