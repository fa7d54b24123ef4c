/*
 * suppress.c - data races the user asked not to hear about.
 *
 * The file named by --suppressions has ThreadSanitizer's shape, for the
 * one kind ravel has:
 *
 *     # comment
 *     race:PATTERN
 *
 * A race is suppressed when PATTERN matches the function name or the
 * source file of any frame of either access's stack, or the name of the
 * global variable raced on. A pattern matches a name when it occurs in
 * it; `*` stands for any text, a leading `^` anchors it at the start of
 * the name and a trailing `$` at its end (so `race:^worker$` is exactly
 * the function worker, `race:third_party/` everything under that folder).
 *
 * The file is read once, before the executor forks, so that a bad file is
 * a usage error (one line, exit status 2) and not a failure in the middle
 * of a run. Matching symbolizes the two stacks, which is slow, so each
 * pair of code locations is judged once and the verdict remembered.
 */
#include "../rt.h"

#include "../../report/symbolize.h"

#include <errno.h>
#include <string.h>

#define MAX_SUPP 256
#define PATTERN_MAX 256
#define VERDICTS 256

static char patterns[MAX_SUPP][PATTERN_MAX];
static unsigned npatterns;

static struct {
    uint64_t a, b;
    bool suppressed;
} verdicts[VERDICTS];
static unsigned nverdicts;

void ravel__race_suppressions_load(void)
{
    const char *path = ravel__rt.opt.suppressions;
    if (!path || !path[0])
        return;
    FILE *f = fopen(path, "r");
    if (!f)
        ravel__fatal("--suppressions %s: %s", path, strerror(errno));
    char line[1024];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        if (n == sizeof line - 1 && line[n - 1] != '\n')
            ravel__fatal("%s:%u: line too long", path, lineno);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' ||
                     line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = 0;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        if (strncmp(p, "race:", 5) != 0) {
            const char *colon = strchr(p, ':');
            if (colon)
                ravel__fatal("%s:%u: unknown suppression kind '%.*s' "
                             "(ravel knows 'race:')",
                             path, lineno, (int)(colon - p), p);
            ravel__fatal("%s:%u: expected 'race:PATTERN'", path, lineno);
        }
        p += 5;
        if (!*p)
            ravel__fatal("%s:%u: empty pattern after 'race:'", path, lineno);
        if (strlen(p) >= PATTERN_MAX)
            ravel__fatal("%s:%u: pattern longer than %d characters", path,
                         lineno, PATTERN_MAX - 1);
        if (npatterns >= MAX_SUPP)
            ravel__fatal("%s: more than %d suppressions", path, MAX_SUPP);
        strcpy(patterns[npatterns++], p);
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad)
        ravel__fatal("--suppressions %s: read error", path);
}

/* Does pattern p (with * wildcards, no anchors left) match text t from
 * its start? `end`: must also consume all of t. */
static bool glob_at(const char *p, const char *t, bool end)
{
    for (;;) {
        if (*p == 0)
            return !end || *t == 0;
        if (*p == '*') {
            while (*p == '*')
                p++;
            for (const char *s = t;; s++) {
                if (glob_at(p, s, end))
                    return true;
                if (!*s)
                    return false;
            }
        }
        if (*t == 0 || *p != *t)
            return false;
        p++;
        t++;
    }
}

static bool matches(const char *pattern, const char *text)
{
    if (!text || !text[0])
        return false;
    char p[PATTERN_MAX];
    bool start = pattern[0] == '^';
    snprintf(p, sizeof p, "%s", pattern + start);
    size_t n = strlen(p);
    bool end = n && p[n - 1] == '$';
    if (end)
        p[n - 1] = 0;
    if (start)
        return glob_at(p, text, end);
    for (const char *s = text;; s++) {
        if (glob_at(p, s, end))
            return true;
        if (!*s)
            return false;
    }
}

static bool any_pattern(const char *text)
{
    for (unsigned i = 0; i < npatterns; i++)
        if (matches(patterns[i], text))
            return true;
    return false;
}

static bool stack_matches(uint64_t pc, uint32_t stack)
{
    uint64_t pcs[RAVEL__RACE_FRAMES];
    bool exact[RAVEL__RACE_FRAMES];
    struct ravel__frame fr[RAVEL__RACE_FRAMES];
    uint32_t n = 0;
    pcs[n++] = pc;
    n += ravel__race_frames(stack, pcs + 1, RAVEL__RACE_FRAMES - 1);
    memset(exact, 0, sizeof exact);
    ravel__symbolize(pcs, exact, n, fr);
    for (uint32_t i = 0; i < n; i++)
        if (!fr[i].runtime &&
            (any_pattern(fr[i].func) || any_pattern(fr[i].file)))
            return true;
    return false;
}

bool ravel__race_suppressed(uint64_t pc, uint32_t stack, uint64_t prev_pc,
                            uint32_t prev_stack, uint64_t addr)
{
    if (!npatterns)
        return false;
    for (unsigned i = 0; i < nverdicts; i++)
        if (verdicts[i].a == pc && verdicts[i].b == prev_pc)
            return verdicts[i].suppressed;
    char global[128];
    bool s = stack_matches(pc, stack) || stack_matches(prev_pc, prev_stack);
    if (!s && ravel__symbolize_data(addr, global, sizeof global)) {
        /* "table+8": the variable's name is what users write. */
        char *plus = strchr(global, '+');
        if (plus)
            *plus = 0;
        s = any_pattern(global);
    }
    if (nverdicts < VERDICTS) {
        verdicts[nverdicts].a = pc;
        verdicts[nverdicts].b = prev_pc;
        verdicts[nverdicts].suppressed = s;
        nverdicts++;
    }
    return s;
}
