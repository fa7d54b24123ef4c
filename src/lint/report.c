/*
 * report.c - findings, diagnostics text and SARIF (see report.h).
 *
 * SARIF follows the OASIS SARIF 2.1.0 standard (errata 01): one run, the
 * driver with its rules, results with ruleId/ruleIndex/level/message/
 * locations, notes as relatedLocations, and a partialFingerprints entry
 * so code-scanning services can follow a finding across commits.
 */
#include "report.h"

#include "../common/hash.h"
#include "../common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    RAVEL__CHECK(d != NULL);
    memcpy(d, s, n + 1);
    return d;
}

struct rule_info {
    const char *id, *name, *short_text, *full_text;
};

static const struct rule_info rules[] = {
    {"ravel-check-then-act", "CheckThenAct", "Check-then-act race",
     "A call acts on a resource (a file, an entry of a shared table) after "
     "another call checked it, and another thread or process can change the "
     "resource in between, so the act may rely on a stale check (time of "
     "check to time of use)."},
    {"ravel-lockset", "InconsistentLocking", "Inconsistently locked shared data",
     "Data shared between threads that can run at the same time is accessed "
     "without a lock common to all the accesses, and at least one of them "
     "writes: a data race, undefined behaviour in C11."},
};

const char *ravel__lint_rule_id(enum ravel__lint_rule r)
{
    return rules[r].id;
}

struct ravel__lint_finding *ravel__lint_finding_add(struct ravel__lint_findings *fs,
                                                    enum ravel__lint_rule rule,
                                                    uint32_t file, uint32_t line,
                                                    uint32_t col, const char *msg)
{
    for (uint32_t i = 0; i < fs->n; i++) {
        const struct ravel__lint_finding *f = &fs->v[i];
        if (f->rule == rule && f->file == file && f->line == line &&
            f->col == col && !strcmp(f->msg, msg))
            return NULL;
    }
    if (fs->n == fs->cap) {
        uint32_t nc = fs->cap ? fs->cap * 2 : 16;
        struct ravel__lint_finding *nv = realloc(fs->v, (size_t)nc * sizeof *nv);
        RAVEL__CHECK(nv != NULL);
        fs->v = nv;
        fs->cap = nc;
    }
    struct ravel__lint_finding *f = &fs->v[fs->n++];
    memset(f, 0, sizeof *f);
    f->rule = (uint8_t)rule;
    f->file = file;
    f->line = line;
    f->col = col;
    f->msg = xstrdup(msg);
    return f;
}

void ravel__lint_note_add(struct ravel__lint_finding *f, uint32_t file,
                          uint32_t line, uint32_t col, const char *msg)
{
    if (!f || f->nnotes == RAVEL__LINT_NOTES_MAX)
        return;
    struct ravel__lint_note *n = &f->notes[f->nnotes++];
    n->file = file;
    n->line = line;
    n->col = col;
    n->msg = xstrdup(msg);
}

static void finding_free(struct ravel__lint_finding *f)
{
    free(f->msg);
    for (uint32_t k = 0; k < f->nnotes; k++)
        free(f->notes[k].msg);
}

void ravel__lint_findings_free(struct ravel__lint_findings *fs)
{
    for (uint32_t i = 0; i < fs->n; i++)
        finding_free(&fs->v[i]);
    free(fs->v);
    memset(fs, 0, sizeof *fs);
}

static const struct ravel__lint_prog *sort_prog;

static int cmp_finding(const void *a, const void *b)
{
    const struct ravel__lint_finding *x = a, *y = b;
    int c = strcmp(sort_prog->files[x->file].shown, sort_prog->files[y->file].shown);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    return strcmp(x->msg, y->msg);
}

void ravel__lint_findings_sort(struct ravel__lint_findings *fs,
                               const struct ravel__lint_prog *p)
{
    sort_prog = p;
    if (fs->n > 1)
        qsort(fs->v, fs->n, sizeof *fs->v, cmp_finding);
    sort_prog = NULL;
}

void ravel__lint_findings_keep(struct ravel__lint_findings *fs,
                               const struct ravel__lint_prog *p,
                               char *const *paths, size_t n)
{
    uint32_t o = 0;
    for (uint32_t i = 0; i < fs->n; i++) {
        bool keep = false;
        for (size_t k = 0; k < n && !keep; k++)
            keep = !strcmp(p->files[fs->v[i].file].path, paths[k]);
        if (keep)
            fs->v[o++] = fs->v[i];
        else
            finding_free(&fs->v[i]);
    }
    fs->n = o;
}

/* ---- text ----------------------------------------------------------------- */

#define C_BOLD "\033[1m"
#define C_WARN "\033[1;35m"
#define C_NOTE "\033[1;30m"
#define C_CARET "\033[1;32m"
#define C_OFF "\033[0m"

static void caret_lines(struct ravel__strbuf *out, struct ravel__lint_sources *src,
                        const char *path, uint32_t line, uint32_t col, bool color)
{
    const char *text;
    size_t len;
    if (!ravel__lint_source_line(src, path, line, &text, &len))
        return;
    ravel__sb_addn(out, text, len);
    ravel__sb_addc(out, '\n');
    /* Tabs stay tabs so the caret lines up in any terminal. */
    for (uint32_t i = 0; col > 0 && i + 1 < col && i < len; i++)
        ravel__sb_addc(out, text[i] == '\t' ? '\t' : ' ');
    ravel__sb_add(out, color ? C_CARET "^" C_OFF "\n" : "^\n");
}

static void one(struct ravel__strbuf *out, const struct ravel__lint_prog *p,
                struct ravel__lint_sources *src, uint32_t file, uint32_t line,
                uint32_t col, bool warning, const char *msg, const char *rule,
                bool color, bool caret)
{
    const char *shown = p->files[file].shown;
    if (color)
        ravel__sb_add(out, C_BOLD);
    ravel__sb_printf(out, "%s:%u:%u: ", shown, line, col);
    if (color)
        ravel__sb_add(out, warning ? C_WARN : C_NOTE);
    ravel__sb_add(out, warning ? "warning: " : "note: ");
    if (color)
        ravel__sb_add(out, C_OFF C_BOLD);
    ravel__sb_add(out, msg);
    if (rule)
        ravel__sb_printf(out, " [%s]", rule);
    if (color)
        ravel__sb_add(out, C_OFF);
    ravel__sb_addc(out, '\n');
    if (caret)
        caret_lines(out, src, p->files[file].path, line, col, color);
}

void ravel__lint_print_text(struct ravel__strbuf *out,
                            const struct ravel__lint_findings *fs,
                            const struct ravel__lint_prog *p,
                            struct ravel__lint_sources *src, bool color,
                            bool caret)
{
    for (uint32_t i = 0; i < fs->n; i++) {
        const struct ravel__lint_finding *f = &fs->v[i];
        one(out, p, src, f->file, f->line, f->col, true, f->msg,
            rules[f->rule].id, color, caret);
        for (uint32_t k = 0; k < f->nnotes; k++) {
            const struct ravel__lint_note *n = &f->notes[k];
            one(out, p, src, n->file, n->line, n->col, false, n->msg, NULL,
                color, caret);
        }
    }
}

/* ---- SARIF ---------------------------------------------------------------- */

static void uri(struct ravel__strbuf *out, const char *path)
{
    struct ravel__strbuf u = RAVEL__STRBUF_INIT;
    if (path[0] == '/')
        ravel__sb_add(&u, "file://");
    for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
        if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
            (*c >= '0' && *c <= '9') || strchr("-._~/", *c))
            ravel__sb_addc(&u, (char)*c);
        else
            ravel__sb_printf(&u, "%%%02X", *c);
    }
    ravel__json_str(out, ravel__sb_str(&u));
    ravel__sb_free(&u);
}

static void location(struct ravel__strbuf *out, const struct ravel__lint_prog *p,
                     uint32_t file, uint32_t line, uint32_t col)
{
    ravel__sb_add(out, "{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
    uri(out, p->files[file].shown);
    ravel__sb_printf(out, "},\"region\":{\"startLine\":%u", line ? line : 1);
    if (col)
        ravel__sb_printf(out, ",\"startColumn\":%u", col);
    ravel__sb_add(out, "}}");
}

void ravel__lint_sarif(struct ravel__strbuf *out,
                       const struct ravel__lint_findings *fs,
                       const struct ravel__lint_prog *p)
{
    ravel__sb_add(out, "{\"$schema\":\"https://json.schemastore.org/"
                       "sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
                       "\"tool\":{\"driver\":{\"name\":\"ravel-lint\","
                       "\"version\":\"" RAVEL__VERSION "\",\"semanticVersion\":\""
                       RAVEL__VERSION "\",\"rules\":[");
    for (size_t r = 0; r < RAVEL__COUNT(rules); r++) {
        if (r)
            ravel__sb_addc(out, ',');
        ravel__sb_add(out, "{\"id\":");
        ravel__json_str(out, rules[r].id);
        ravel__sb_add(out, ",\"name\":");
        ravel__json_str(out, rules[r].name);
        ravel__sb_add(out, ",\"shortDescription\":{\"text\":");
        ravel__json_str(out, rules[r].short_text);
        ravel__sb_add(out, "},\"fullDescription\":{\"text\":");
        ravel__json_str(out, rules[r].full_text);
        ravel__sb_add(out, "},\"defaultConfiguration\":{\"level\":\"warning\"}}");
    }
    ravel__sb_add(out, "]}},\"columnKind\":\"utf16CodeUnits\",\"results\":[");
    for (uint32_t i = 0; i < fs->n; i++) {
        const struct ravel__lint_finding *f = &fs->v[i];
        if (i)
            ravel__sb_addc(out, ',');
        ravel__sb_add(out, "{\"ruleId\":");
        ravel__json_str(out, rules[f->rule].id);
        ravel__sb_printf(out, ",\"ruleIndex\":%u,\"level\":\"warning\","
                              "\"message\":{\"text\":",
                         (unsigned)f->rule);
        ravel__json_str(out, f->msg);
        ravel__sb_add(out, "},\"locations\":[");
        location(out, p, f->file, f->line, f->col);
        ravel__sb_add(out, "}]");
        if (f->nnotes) {
            ravel__sb_add(out, ",\"relatedLocations\":[");
            for (uint32_t k = 0; k < f->nnotes; k++) {
                const struct ravel__lint_note *n = &f->notes[k];
                if (k)
                    ravel__sb_addc(out, ',');
                ravel__sb_printf(out, "{\"id\":%u,", k);
                /* location() opens an object; splice the id into it. */
                struct ravel__strbuf loc = RAVEL__STRBUF_INIT;
                location(&loc, p, n->file, n->line, n->col);
                ravel__sb_add(out, ravel__sb_str(&loc) + 1);
                ravel__sb_free(&loc);
                ravel__sb_add(out, ",\"message\":{\"text\":");
                ravel__json_str(out, n->msg);
                ravel__sb_add(out, "}}");
            }
            ravel__sb_addc(out, ']');
        }
        /* A fingerprint that survives line shifts: rule, file, message. */
        uint64_t h = ravel__fnv1a(rules[f->rule].id, strlen(rules[f->rule].id),
                                  RAVEL__FNV_INIT);
        h = ravel__fnv1a(p->files[f->file].shown, strlen(p->files[f->file].shown), h);
        h = ravel__fnv1a(f->msg, strlen(f->msg), h);
        ravel__sb_printf(out, ",\"partialFingerprints\":{\"ravelFinding/v1\":"
                              "\"%016llx\"}}",
                         (unsigned long long)h);
    }
    ravel__sb_add(out, "]}]}\n");
}
