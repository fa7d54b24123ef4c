/*
 * merge.c - `ravel merge`: one summary and one guarantee for the shards
 * of a split search (docs/scale-out.md).
 *
 * The shards of `ravel run --shard I/N` ran wherever a batch system put
 * them; each left a --json summary and its set of trace fingerprints.
 * Merging them answers the user's question "did the N of them together
 * cover the search?", so the one thing merge must never do is claim more
 * than the shards earned:
 *
 *   - every shard's summary must be there, readable, of the same search
 *     (program, arguments, options that decide the traces) and of the
 *     same split (N), each index once: otherwise one line naming the
 *     problem, exit 2, and nothing merged;
 *   - every fingerprint file must match its summary (count and digest):
 *     a truncated or swapped file is refused the same way;
 *   - the merged search is exhausted only if every shard exhausted its
 *     part (complete, not interrupted, no error); otherwise the guarantee
 *     names the shards that did not.
 *
 * The traces are the union of the shards' fingerprint sets (shards may
 * explore some traces twice), so the merged count and trace_digest are
 * those of one unsharded run with --fingerprints-file. Findings are
 * deduplicated by kind and location, their occurrences summed.
 */
#include "cli.h"

#include "../common/json.h"
#include "../report/shards.h"
#include "../report/view.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ravel__help_merge(void)
{
    fputs(
        "NAME\n"
        "    ravel merge - combine the shards of a split search\n"
        "\n"
        "SYNOPSIS\n"
        "    ravel merge [--json] [--html FILE] [--fingerprints-file FILE]\n"
        "                SUMMARY.json...\n"
        "\n"
        "DESCRIPTION\n"
        "    Reads the --json summaries of the N shards of one search (each\n"
        "    run with `ravel run --shard I/N --json --fingerprints-file F`)\n"
        "    and the fingerprint file each names (as written, else next to\n"
        "    the summary). Prints one summary and one guarantee: the traces\n"
        "    are the union of the shards' sets, and the search is exhausted\n"
        "    only if every shard exhausted its part; shards that did not are\n"
        "    named. Findings of several shards are listed once.\n"
        "\n"
        "    A missing shard, a summary or fingerprint file that cannot be\n"
        "    read, or shards of different searches (another program, other\n"
        "    arguments or options, another N): one line, exit 2, nothing\n"
        "    merged.\n"
        "\n"
        "OPTIONS\n"
        "  --json\n"
        "        Write the merged summary as JSON to stdout.\n"
        "  --html FILE\n"
        "        Write the merged report as one self-contained HTML page (the\n"
        "        page of `ravel run --html`): the merged guarantee and one row\n"
        "        per distinct finding, with the shards that found it and the\n"
        "        first one's replay ticket. The summaries hold no report text\n"
        "        or diagram; replay a ticket with --html for those.\n"
        "  --fingerprints-file FILE\n"
        "        Write the union of the fingerprint sets to FILE.\n"
        "  -h, --help\n"
        "        Show this manual.\n"
        "\n"
        "EXIT STATUS\n"
        "    0  merged, no bug found    1  a shard found a bug\n"
        "    2  bad input, or a shard failed\n"
        "\n"
        "EXAMPLES\n"
        "    parallel ravel run --shard auto/4 --strategy dpor --executions 0 \\\n"
        "      --json --fingerprints-file fp.{} -- ./prog '>' s.{}.json \\\n"
        "      ::: 1 2 3 4\n"
        "    ravel merge s.*.json\n",
        stdout);
}

/* Summaries and fingerprint files are read whole; far above any real one. */
#define SUMMARY_LIMIT (64u << 20)
#define FP_LIMIT (1u << 30)

struct finding {
    const struct ravel__shard_bug *b;
    uint64_t occurrences;
    char shards[200]; /* "1, 3" */
};

/* Reads the fingerprint file a summary names: as written (relative to
 * the current directory), else the same name next to the summary. */
static char *read_fps(const char *summary_path, const char *name,
                      size_t *len, char *used, size_t usedlen)
{
    snprintf(used, usedlen, "%s", name);
    char *text = ravel__read_file(name, FP_LIMIT, len);
    if (text || name[0] == '/')
        return text;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", summary_path);
    char *base = strdup(name);
    RAVEL__CHECK(base != NULL);
    snprintf(used, usedlen, "%s/%s", dirname(dir), basename(base));
    free(base);
    text = ravel__read_file(used, FP_LIMIT, len);
    if (!text)
        snprintf(used, usedlen, "%s", name);
    return text;
}

/* The member where two "search" texts first differ ("arguments":["9"]),
 * into out. */
static void differing(const char *a, const char *b, char *out, size_t len)
{
    size_t d = 0;
    while (a[d] && a[d] == b[d])
        d++;
    size_t start = d;
    while (start > 0 && a[start - 1] != ',' && a[start - 1] != '{')
        start--;
    size_t ea = d, eb = d;
    while (a[ea] && a[ea] != ',' && a[ea] != '}')
        ea++;
    while (b[eb] && b[eb] != ',' && b[eb] != '}')
        eb++;
    snprintf(out, len, "%.*s vs %.*s", (int)(ea - start), a + start,
             (int)(eb - start), b + start);
}

/*
 * Writes the merged HTML report to path (src/report/view.c, the page of
 * `ravel run --html`): what was merged, the merged guarantee, and one
 * row per distinct finding with the shards that found it and the replay
 * ticket of the first. The summaries carry no report text or execution
 * diagram, so the page has none; each finding says how to get them (a
 * replay of its ticket with --html). A file that cannot be written is a
 * usage error (exit 2), like --fingerprints-file.
 */
static void write_html(const char *path, const char *prog, uint32_t n,
                       uint64_t executions, const char *guarantee,
                       const char *summary, const struct finding *fs,
                       uint32_t nf)
{
    char mode[96];
    snprintf(mode, sizeof mode, "ravel merge of %u shard%s of one search", n,
             n == 1 ? "" : "s");
    struct ravel__view_run run = {
        .program = prog,
        .mode = mode,
        .executions = executions,
        .guarantee = guarantee,
        .summary = summary,
        .merged = true,
    };
    struct ravel__view_finding *f = calloc(nf + 1, sizeof *f);
    char (*where)[96] = calloc(nf + 1, sizeof *where);
    char **note = calloc(nf + 1, sizeof *note);
    RAVEL__CHECK(f != NULL && where != NULL && note != NULL);
    for (uint32_t k = 0; k < nf; k++) {
        const struct ravel__shard_bug *b = fs[k].b;
        /* The first shard listed is the one whose ticket is shown. */
        unsigned first = (unsigned)strtoul(fs[k].shards, NULL, 10);
        if (b->execution)
            snprintf(where[k], sizeof where[k], "shard %u, execution %" PRIu64,
                     first, b->execution);
        else
            snprintf(where[k], sizeof where[k], "shard %u", first);
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        ravel__sb_printf(&sb, "Found by shard%s %s (%" PRIu64
                              " execution%s in all).\n",
                         strchr(fs[k].shards, ',') ? "s" : "", fs[k].shards,
                         fs[k].occurrences, fs[k].occurrences == 1 ? "" : "s");
        if (b->ticket[0])
            ravel__sb_printf(&sb, "Its report and diagram: ravel replay "
                                  "--html FILE %s\n(where shard %u ran, or "
                                  "with its ticket copied here).\n",
                             b->ticket, first);
        note[k] = sb.data;
        f[k] = (struct ravel__view_finding){
            .kind = b->kind,
            .headline = b->message,
            .location = b->location,
            .function = b->function,
            .threads = b->threads ? b->threads : "",
            .hits = fs[k].occurrences,
            .execution = b->execution,
            .ticket = b->ticket,
            .report = note[k],
            .first_in = where[k],
        };
    }
    struct ravel__strbuf page = RAVEL__STRBUF_INIT;
    ravel__view_html(&page, &run, f, nf);
    FILE *out = fopen(path, "w");
    bool ok = out && fwrite(page.data, 1, page.len, out) == page.len;
    if (out && fclose(out) != 0)
        ok = false;
    if (!ok)
        ravel__usage_error("merge", "cannot write %s: %s", path,
                           strerror(errno));
    ravel__sb_free(&page);
    for (uint32_t k = 0; k < nf; k++)
        free(note[k]);
    free(note);
    free(where);
    free(f);
}

static bool same_kind(const struct ravel__shard_bug *a,
                      const struct ravel__shard_bug *b)
{
    return !strcmp(a->kind, b->kind) && !strcmp(a->location, b->location) &&
           !strcmp(a->function, b->function);
}

int ravel__cmd_merge(int argc, char **argv)
{
    bool json = false;
    const char *fp_out = NULL, *html = NULL;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            ravel__help_merge();
            return 0;
        }
        if (!strcmp(a, "--json"))
            json = true;
        else if (!strcmp(a, "--html")) {
            if (i + 1 >= argc)
                ravel__usage_error("merge", "--html needs a FILE");
            html = argv[++i];
        } else if (!strncmp(a, "--html=", 7))
            html = a + 7;
        else if (!strcmp(a, "--fingerprints-file")) {
            if (i + 1 >= argc)
                ravel__usage_error("merge", "--fingerprints-file needs a "
                                            "FILE");
            fp_out = argv[++i];
        } else if (!strncmp(a, "--fingerprints-file=", 20))
            fp_out = a + 20;
        else if (a[0] == '-' && a[1])
            ravel__usage_error("merge", "unknown option '%s' (see 'ravel "
                                        "merge --help')",
                               a);
        else
            break;
    }
    int nfiles = argc - i;
    if (nfiles <= 0)
        ravel__usage_error("merge", "no summaries given (usage: ravel merge "
                                    "[--json] SUMMARY.json...)");
    char **files = argv + i;
    struct ravel__shard_summary *s = calloc((size_t)nfiles, sizeof *s);
    RAVEL__CHECK(s != NULL);
    char err[512];
    for (int k = 0; k < nfiles; k++) {
        size_t len;
        char *text = ravel__read_file(files[k], SUMMARY_LIMIT, &len);
        if (!text)
            ravel__usage_error("merge", "%s: %s", files[k], strerror(errno));
        int rc = ravel__shard_summary_parse(text, len, &s[k], err, sizeof err);
        free(text);
        if (rc != 0)
            ravel__usage_error("merge", "%s: not a shard's summary: %s",
                               files[k], err);
    }
    /* One search, one split, each shard once. */
    uint32_t n = s[0].count;
    for (int k = 1; k < nfiles; k++) {
        if (strcmp(s[k].search, s[0].search) != 0) {
            char what[600];
            differing(s[0].search, s[k].search, what, sizeof what);
            ravel__usage_error("merge",
                               "%s and %s are shards of different searches "
                               "(%s): not merged",
                               files[0], files[k], what);
        }
        if (s[k].count != n)
            ravel__usage_error("merge",
                               "%s is shard %u/%u but %s is shard %u/%u: "
                               "not one split, not merged",
                               files[0], s[0].index, n, files[k], s[k].index,
                               s[k].count);
    }
    int *by_index = calloc(n + 1, sizeof *by_index);
    RAVEL__CHECK(by_index != NULL);
    for (int k = 0; k < nfiles; k++) {
        if (by_index[s[k].index])
            ravel__usage_error("merge",
                               "shard %u/%u given twice (%s and %s): not "
                               "merged",
                               s[k].index, n, files[by_index[s[k].index] - 1],
                               files[k]);
        by_index[s[k].index] = k + 1;
    }
    if ((uint32_t)nfiles != n) {
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        uint32_t missing = 0;
        for (uint32_t x = 1; x <= n; x++)
            if (!by_index[x]) {
                if (missing < 20)
                    ravel__sb_printf(&sb, "%s%u", missing ? ", " : "", x);
                missing++;
            }
        ravel__usage_error("merge",
                           "shard%s %s%s of %u missing (%d summar%s given): "
                           "not merged, no claim of completeness",
                           missing == 1 ? "" : "s", ravel__sb_str(&sb),
                           missing > 20 ? ", ..." : "", n, nfiles,
                           nfiles == 1 ? "y" : "ies");
    }
    /* The traces: the union of the fingerprint sets, each file checked
     * against its summary. */
    uint64_t *all = NULL;
    size_t nall = 0, sum = 0;
    uint64_t executions = 0;
    for (int k = 0; k < nfiles; k++) {
        executions += s[k].executions;
        if (!s[k].fingerprints_file)
            ravel__usage_error("merge",
                               "%s names no fingerprints file (run the "
                               "shards with --fingerprints-file): not merged",
                               files[k]);
        size_t len;
        char used[PATH_MAX + 256];
        char *text = read_fps(files[k], s[k].fingerprints_file, &len, used,
                              sizeof used);
        if (!text)
            ravel__usage_error("merge", "%s: %s (fingerprints of %s)", used,
                               strerror(errno), files[k]);
        uint64_t *fps;
        size_t nfp;
        int rc = ravel__fingerprints_parse(text, len, &fps, &nfp, err,
                                           sizeof err);
        free(text);
        if (rc != 0)
            ravel__usage_error("merge", "%s: not a fingerprints file: %s",
                               used, err);
        size_t distinct = ravel__fingerprints_unique(fps, nfp);
        uint64_t d = ravel__fingerprints_digest(fps, distinct);
        if (distinct != nfp || nfp != s[k].traces ||
            (s[k].have_digest && d != s[k].digest) ||
            (!s[k].have_digest && nfp))
            ravel__usage_error(
                "merge",
                "%s does not match %s (%zu fingerprints, digest %016" PRIx64
                "; the summary says %" PRIu64 " traces, digest %s): not "
                "merged",
                used, files[k], nfp, d, s[k].traces,
                s[k].have_digest ? "given" : "none");
        uint64_t *grown = realloc(all, (nall + nfp + 1) * sizeof *all);
        RAVEL__CHECK(grown != NULL);
        all = grown;
        memcpy(all + nall, fps, nfp * sizeof *fps);
        nall += nfp;
        sum += nfp;
        free(fps);
    }
    nall = ravel__fingerprints_unique(all, nall);
    uint64_t digest = ravel__fingerprints_digest(all, nall);
    if (fp_out) {
        FILE *f = fopen(fp_out, "w");
        bool ok = f != NULL;
        for (size_t x = 0; ok && x < nall; x++)
            ok = fprintf(f, "%016" PRIx64 "\n", all[x]) > 0;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok)
            ravel__usage_error("merge", "cannot write %s: %s", fp_out,
                               strerror(errno));
    }
    free(all);

    /* The guarantee: every shard exhausted its part, or which did not. */
    struct ravel__strbuf why = RAVEL__STRBUF_INIT;
    bool complete = true, failed = false;
    for (uint32_t x = 1; x <= n; x++) {
        const struct ravel__shard_summary *t = &s[by_index[x] - 1];
        const char *what = NULL;
        if (!strcmp(t->result, "error")) {
            what = "failed";
            failed = true;
        } else if (t->interrupted)
            what = "was interrupted";
        else if (!t->complete)
            what = "did not exhaust its part";
        if (!what)
            continue;
        complete = false;
        ravel__sb_printf(&why, "%sshard %u/%u %s (%s)", why.len ? "; " : "", x,
                         n, what, t->error ? t->error : t->guarantee);
    }
    char guarantee[4096];
    if (complete)
        snprintf(guarantee, sizeof guarantee,
                 "exhausted: all %zu traces (each of the %u shard%s "
                 "exhausted its part)",
                 nall, n, n == 1 ? "" : "s");
    else
        snprintf(guarantee, sizeof guarantee,
                 "not exhausted: %zu traces explored; %s", nall,
                 ravel__sb_str(&why));
    ravel__sb_free(&why);

    /* Findings, once each. */
    uint32_t nb = 0;
    for (int k = 0; k < nfiles; k++)
        nb += s[k].nbugs;
    struct finding *fs = calloc(nb + 1, sizeof *fs);
    RAVEL__CHECK(fs != NULL);
    uint32_t nf = 0;
    for (uint32_t x = 1; x <= n; x++) {
        const struct ravel__shard_summary *t = &s[by_index[x] - 1];
        for (uint32_t b = 0; b < t->nbugs; b++) {
            uint32_t f = 0;
            while (f < nf && !same_kind(fs[f].b, &t->bugs[b]))
                f++;
            if (f == nf)
                fs[nf++].b = &t->bugs[b];
            fs[f].occurrences += t->bugs[b].occurrences;
            size_t l = strlen(fs[f].shards);
            snprintf(fs[f].shards + l, sizeof fs[f].shards - l, "%s%u",
                     l ? ", " : "", x);
        }
    }

    const char *prog = s[0].program;
    struct ravel__strbuf lines = RAVEL__STRBUF_INIT;
    ravel__sb_printf(&lines,
                     "ravel merge: %u shard%s of %s: %" PRIu64
                     " executions, %zu traces (digest %016" PRIx64
                     "; %zu explored by more than one shard)\n",
                     n, n == 1 ? "" : "s", prog, executions, nall, digest,
                     sum - nall);
    ravel__sb_printf(&lines, "ravel merge: %s\n", guarantee);
    if (nf == 0)
        ravel__sb_add(&lines, "ravel merge: no bugs found\n");
    for (uint32_t f = 0; f < nf; f++)
        ravel__sb_printf(&lines,
                         "ravel merge: %s at %s (%s): %" PRIu64
                         " occurrence%s, shard%s %s; ticket %s\n",
                         fs[f].b->kind,
                         fs[f].b->location[0] ? fs[f].b->location : "?",
                         fs[f].b->message, fs[f].occurrences,
                         fs[f].occurrences == 1 ? "" : "s",
                         strchr(fs[f].shards, ',') ? "s" : "", fs[f].shards,
                         fs[f].b->ticket);
    fputs(ravel__sb_str(&lines), stderr);
    if (html)
        write_html(html, prog, n, executions, guarantee, ravel__sb_str(&lines),
                   fs, nf);
    ravel__sb_free(&lines);
    if (json) {
        struct ravel__strbuf sb = RAVEL__STRBUF_INIT;
        bool first = true;
        ravel__sb_addc(&sb, '{');
        ravel__json_key(&sb, &first, "ravel");
        ravel__json_str(&sb, RAVEL__VERSION);
        ravel__json_key(&sb, &first, "result");
        ravel__json_str(&sb, failed ? "error" : nf ? "bug" : "clean");
        ravel__json_key(&sb, &first, "program");
        ravel__json_str(&sb, prog);
        ravel__json_key(&sb, &first, "search");
        ravel__sb_add(&sb, s[0].search);
        ravel__json_key(&sb, &first, "shards");
        ravel__sb_printf(&sb, "%u", n);
        ravel__json_key(&sb, &first, "executions");
        ravel__sb_printf(&sb, "%" PRIu64, executions);
        ravel__json_key(&sb, &first, "complete");
        ravel__sb_add(&sb, complete ? "true" : "false");
        ravel__json_key(&sb, &first, "traces");
        ravel__sb_printf(&sb, "%zu", nall);
        ravel__json_key(&sb, &first, "trace_digest");
        ravel__sb_printf(&sb, "\"%016" PRIx64 "\"", digest);
        ravel__json_key(&sb, &first, "traces_explored_twice");
        ravel__sb_printf(&sb, "%zu", sum - nall);
        ravel__json_key(&sb, &first, "guarantee");
        ravel__json_str(&sb, guarantee);
        ravel__json_key(&sb, &first, "per_shard");
        ravel__sb_addc(&sb, '[');
        for (uint32_t x = 1; x <= n; x++) {
            const struct ravel__shard_summary *t = &s[by_index[x] - 1];
            bool f2 = true;
            ravel__sb_add(&sb, x > 1 ? ",{" : "{");
            ravel__json_key(&sb, &f2, "summary");
            ravel__json_str(&sb, files[by_index[x] - 1]);
            ravel__json_key(&sb, &f2, "shard");
            ravel__sb_printf(&sb, "%u", x);
            ravel__json_key(&sb, &f2, "result");
            ravel__json_str(&sb, t->result);
            ravel__json_key(&sb, &f2, "complete");
            ravel__sb_add(&sb, t->complete && !t->interrupted ? "true"
                                                              : "false");
            ravel__json_key(&sb, &f2, "executions");
            ravel__sb_printf(&sb, "%" PRIu64, t->executions);
            ravel__json_key(&sb, &f2, "traces");
            ravel__sb_printf(&sb, "%" PRIu64, t->traces);
            ravel__sb_addc(&sb, '}');
        }
        ravel__sb_addc(&sb, ']');
        ravel__json_key(&sb, &first, "bugs");
        ravel__sb_addc(&sb, '[');
        for (uint32_t f = 0; f < nf; f++) {
            bool f2 = true;
            ravel__sb_add(&sb, f ? ",{" : "{");
            ravel__json_key(&sb, &f2, "kind");
            ravel__json_str(&sb, fs[f].b->kind);
            ravel__json_key(&sb, &f2, "message");
            ravel__json_str(&sb, fs[f].b->message);
            ravel__json_key(&sb, &f2, "location");
            ravel__json_str(&sb, fs[f].b->location);
            ravel__json_key(&sb, &f2, "function");
            ravel__json_str(&sb, fs[f].b->function);
            ravel__json_key(&sb, &f2, "occurrences");
            ravel__sb_printf(&sb, "%" PRIu64, fs[f].occurrences);
            ravel__json_key(&sb, &f2, "shards");
            ravel__sb_printf(&sb, "[%s]", fs[f].shards);
            ravel__json_key(&sb, &f2, "ticket");
            ravel__json_str(&sb, fs[f].b->ticket);
            ravel__sb_addc(&sb, '}');
        }
        ravel__sb_add(&sb, "]}\n");
        fputs(ravel__sb_str(&sb), stdout);
        ravel__sb_free(&sb);
    }
    fflush(stdout);
    for (int k = 0; k < nfiles; k++)
        ravel__shard_summary_free(&s[k]);
    free(s);
    free(by_index);
    free(fs);
    return failed ? RAVEL__EXIT_USAGE : nf ? 1 : 0;
}
