/*
 * lin.c - `ravel lin`: check recorded histories for linearizability.
 *
 * Reads each HISTORY (Jepsen log lines, Jepsen EDN or ravel's JSON),
 * opens the model on it, runs the checker and prints one verdict line
 * per history, followed by an explanation for a history that is not
 * linearizable. Several histories may be given so a whole test run is
 * checked by one process (the bench does that for the 102 etcd logs).
 * Bad input of any kind is one line "ravel lin: FILE:LINE: message" and
 * exit status 2; the other histories are still checked.
 */
#include "cli.h"

#include "../common/json.h"
#include "../common/strbuf.h"
#include "../lin/check.h"
#include "../lin/explain.h"
#include "../lin/read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ravel__help_lin(void)
{
    fputs(
        "NAME\n"
        "    ravel lin - check recorded histories for linearizability\n"
        "\n"
        "SYNOPSIS\n"
        "    ravel lin --model NAME [OPTIONS] HISTORY...\n"
        "\n"
        "DESCRIPTION\n"
        "    Decides whether each HISTORY of concurrent operations is\n"
        "    linearizable with respect to a sequential model: whether its\n"
        "    operations can be ordered in one sequence that the model\n"
        "    accepts and that keeps real-time order (an operation that\n"
        "    returned before another was called comes first). Operations\n"
        "    that never returned (Jepsen's :info, timeouts) may take effect\n"
        "    at any time after their call, or not at all.\n"
        "\n"
        "    The search is Wing & Gong's with Lowe's memoisation, as in\n"
        "    Knossos and Porcupine; models with keys (kv) are checked key\n"
        "    by key. It is exact: the answer is linearizable, not\n"
        "    linearizable, or unknown when --timeout or --max-steps stops\n"
        "    it first. For a history that is not linearizable it prints the\n"
        "    longest linearizable prefix it found, the operations that\n"
        "    cannot come next, and a timeline around them.\n"
        "\n"
        "HISTORY FORMATS (see docs/lin.md)\n"
        "    log   Jepsen log lines, e.g. from Porcupine's etcd tests:\n"
        "              INFO  jepsen.util - 3  :invoke  :cas  [1 2]\n"
        "          :fail of a cas means it did not apply; :fail with\n"
        "          :timed-out means the output is unknown; :info means the\n"
        "          operation never returned.\n"
        "    edn   Jepsen history maps, one per line or in one vector or\n"
        "          list, ; comments allowed; maps may span lines:\n"
        "              {:process 0, :type :invoke, :f :read, :value nil}\n"
        "          Knossos's conventions: :fail did not happen, :info may\n"
        "          or may not have happened, an :ok :value of nil is an\n"
        "          unknown output; nemesis events are skipped.\n"
        "    json  {\"ops\": [{\"process\": 0, \"f\": \"write\", \"value\": 1,\n"
        "          \"output\": ..., \"call\": 0, \"return\": 3}, ...]}; no\n"
        "          \"return\": never returned; no \"output\": unknown.\n"
        "    The format is recognised from the first forms (after blanks\n"
        "    and ; comments); --format forces one. Event order is real-time\n"
        "    order, as in Knossos (:time is not used to reorder). A HISTORY\n"
        "    of - is read from standard input.\n"
        "\n"
        "MODELS\n",
        stdout);
    for (int i = 0; ravel__lin_models[i]; i++)
        printf("    %-16s %s\n", ravel__lin_models[i]->name,
               ravel__lin_models[i]->summary);
    fputs(
        "\n"
        "OPTIONS\n"
        "  --model NAME\n"
        "        The sequential model (required; see MODELS).\n"
        "  --init VALUE\n"
        "        Initial state in EDN: a register's value (default nil), a\n"
        "        counter's integer (0), kv's value of every key (\"\"), a\n"
        "        set's or container's elements as [a b] (empty).\n"
        "  --format auto|log|edn|json\n"
        "        History format (default auto).\n"
        "  --timeout SECONDS\n"
        "        Give up on a history after this much search time and\n"
        "        answer unknown (default: no limit).\n"
        "  --max-steps N\n"
        "        Give up after N search steps (default: no limit).\n"
        "  --max-memory MB\n"
        "        Memory for remembered configurations, per history (default\n"
        "        1024). When full the search continues without remembering\n"
        "        more: slower, never wrong.\n"
        "  --independent\n"
        "        A Jepsen independent history: every value is a [key value]\n"
        "        tuple. Each key is checked on its own with the model and\n"
        "        gets its verdict; the history is linearizable when every\n"
        "        key is.\n"
        "  --no-partition\n"
        "        Check a keyed model's operations all together instead of\n"
        "        key by key (for comparison; much slower).\n"
        "  --no-prune\n"
        "        Search as Porcupine does (memoised Wing & Gong only),\n"
        "        without ravel's further prunings (for comparison).\n"
        "  --json\n"
        "        Print one JSON object: the verdict, counts and the\n"
        "        explanation (with several histories, one per history\n"
        "        under \"histories\").\n"
        "  --html FILE\n"
        "        Write a self-contained HTML page drawing the history (the\n"
        "        failing key's operations when not linearizable): one lane\n"
        "        per process, operations as bars, linearization points,\n"
        "        the operations that cannot come next in red. Needs exactly\n"
        "        one HISTORY.\n"
        "  -q, --quiet\n"
        "        Print only the verdict lines.\n"
        "  -h, --help\n"
        "        Show this manual.\n"
        "\n"
        "EXIT STATUS\n"
        "    0  every history is linearizable\n"
        "    1  some history is not linearizable (and none was unknown\n"
        "       or unreadable)\n"
        "    2  usage error, unreadable or malformed history, unknown\n"
        "       model, or a verdict that is unknown (timeout, step limit)\n"
        "\n"
        "EXAMPLES\n"
        "    ravel lin --model cas-register etcd_002.log\n"
        "    ravel lin --model kv --html why.html c50-bad.txt\n"
        "    ravel lin --model cas-register --json --timeout 10 jepsen/*.log\n",
        stdout);
}

struct lin_args {
    const struct ravel__lin_model *model;
    struct ravel__lin_params params;
    struct ravel__lin_options opts;
    enum ravel__lin_format format;
    bool json, quiet, independent;
    const char *html;
};

/* Reports bad input or a tool error for one file: one line on stderr
 * ("ravel lin: FILE:LINE: message" when the message names a line) and,
 * with --json, an object with "verdict": "error". */
static void file_error(const char *path, const char *msg,
                       struct ravel__strbuf *js)
{
    if (!strncmp(msg, "line ", 5))
        fprintf(stderr, "ravel lin: %s:%s\n", path, msg + 5);
    else
        fprintf(stderr, "ravel lin: %s: %s\n", path, msg);
    if (js) {
        bool first = true;
        ravel__sb_addc(js, '{');
        ravel__json_key(js, &first, "history");
        ravel__json_str(js, path);
        ravel__json_key(js, &first, "verdict");
        ravel__json_str(js, "error");
        ravel__json_key(js, &first, "error");
        ravel__json_str(js, msg);
        ravel__sb_addc(js, '}');
    }
}

/* Key order for printing per-key verdicts: integers by value, other
 * keys by their printed form (value ids follow first appearance, which
 * would list 10 before 2 for no visible reason). qsort has no context
 * argument, hence the two statics (the command is single-threaded). */
static const struct ravel__lin_values *key_vals;
static const uint32_t *key_ids;
static int cmp_keys(const void *pa, const void *pb)
{
    uint32_t a = key_ids[*(const uint32_t *)pa],
             b = key_ids[*(const uint32_t *)pb];
    const struct ravel__lin_vent *x = ravel__lin_vget(key_vals, a),
                                 *y = ravel__lin_vget(key_vals, b);
    if (x->kind == RAVEL__LIN_INT && y->kind == RAVEL__LIN_INT)
        return x->i < y->i ? -1 : x->i > y->i;
    struct ravel__strbuf sa = RAVEL__STRBUF_INIT, sb = RAVEL__STRBUF_INIT;
    ravel__lin_vprint(key_vals, a, &sa, 0);
    ravel__lin_vprint(key_vals, b, &sb, 0);
    int c = strcmp(ravel__sb_str(&sa), ravel__sb_str(&sb));
    ravel__sb_free(&sa);
    ravel__sb_free(&sb);
    return c;
}

/* Sorts the result's per-key arrays into key order. */
static void sort_keys(const struct ravel__lin_history *h,
                      struct ravel__lin_result *r)
{
    if (!r->keys || r->nparts < 2)
        return;
    uint32_t n = r->nparts;
    uint32_t *idx = malloc(n * sizeof *idx), *k = malloc(n * sizeof *k),
             *ops = malloc(n * sizeof *ops);
    uint8_t *v = malloc(n);
    if (idx && k && ops && v) {
        for (uint32_t i = 0; i < n; i++)
            idx[i] = i;
        key_vals = &h->vals;
        key_ids = r->keys;
        qsort(idx, n, sizeof *idx, cmp_keys);
        for (uint32_t i = 0; i < n; i++) {
            k[i] = r->keys[idx[i]];
            ops[i] = r->key_ops[idx[i]];
            v[i] = r->key_verdict[idx[i]];
        }
        memcpy(r->keys, k, n * sizeof *k);
        memcpy(r->key_ops, ops, n * sizeof *ops);
        memcpy(r->key_verdict, v, n);
    } /* else: printed in id order */
    free(idx);
    free(k);
    free(ops);
    free(v);
}

/* Checks one file; returns its exit status (0, 1 or 2) and appends its
 * JSON object to js when --json. */
static int check_file(const struct lin_args *a, const char *path,
                      struct ravel__strbuf *out, struct ravel__strbuf *js)
{
    size_t len;
    /* "-" is standard input, so a history can be piped in. */
    char *buf = ravel__read_file(strcmp(path, "-") ? path : "/dev/stdin",
                                 RAVEL__LIN_MAX_FILE, &len);
    if (!buf) {
        file_error(path, strerror(errno), js);
        return RAVEL__EXIT_USAGE;
    }
    struct ravel__lin_history h;
    char err[512];
    void *self = NULL;
    int status = RAVEL__EXIT_USAGE;
    if (ravel__lin_history_init(&h) != 0) {
        file_error(path, "out of memory", js);
        free(buf);
        return status;
    }
    if (ravel__lin_read(buf, len, a->format, &h, err, sizeof err) != 0) {
        file_error(path, err, js);
        goto out;
    }
    if (a->independent) {
        enum ravel__lin_format f = a->format != RAVEL__LIN_FMT_AUTO
                                       ? a->format
                                       : ravel__lin_detect(buf, len);
        if (ravel__lin_independent(&h, f == RAVEL__LIN_FMT_EDN, err,
                                   sizeof err) != 0) {
            file_error(path, err, js);
            goto out;
        }
    }
    if (a->model->open(&self, &h, &a->params, err, sizeof err) != 0) {
        file_error(path, err, js);
        self = NULL;
        goto out;
    }
    struct ravel__lin_result r;
    if (ravel__lin_check(&h, a->model, self, &a->opts, &r, err,
                         sizeof err) != 0) {
        file_error(path, err, js);
        goto out;
    }
    const char *verdict = r.verdict == RAVEL__LIN_OK     ? "linearizable"
                          : r.verdict == RAVEL__LIN_FAIL ? "NOT linearizable"
                                                         : "unknown";
    if (a->independent)
        sort_keys(&h, &r);
    uint32_t kcount[3] = {0, 0, 0};
    for (uint32_t k = 0; k < r.nparts && r.key_verdict; k++)
        kcount[r.key_verdict[k] <= 2 ? r.key_verdict[k] : 2]++;
    status = r.verdict == RAVEL__LIN_OK     ? RAVEL__EXIT_CLEAN
             : r.verdict == RAVEL__LIN_FAIL ? RAVEL__EXIT_BUG
                                            : RAVEL__EXIT_USAGE;
    if (js) {
        bool first = true;
        ravel__sb_addc(js, '{');
        ravel__json_key(js, &first, "history");
        ravel__json_str(js, path);
        ravel__json_key(js, &first, "model");
        ravel__json_str(js, a->model->name);
        ravel__json_key(js, &first, "verdict");
        ravel__json_str(js, r.verdict == RAVEL__LIN_OK ? "linearizable"
                            : r.verdict == RAVEL__LIN_FAIL
                                ? "not linearizable"
                                : "unknown");
        if (r.verdict == RAVEL__LIN_UNKNOWN) {
            ravel__json_key(js, &first, "unknown_because");
            ravel__json_str(js, r.unknown_why);
            ravel__json_key(js, &first, "progress");
            ravel__sb_printf(js, "{\"prefix\":%u,\"operations\":%u",
                             r.unknown_best, r.unknown_ops);
            if (r.unknown_key != RAVEL__LIN_V_NONE) {
                ravel__sb_add(js, ",\"key\":");
                ravel__lin_vjson(&h.vals, r.unknown_key, js);
            }
            ravel__sb_addc(js, '}');
        }
        ravel__json_key(js, &first, "operations");
        ravel__sb_printf(js, "%u", h.nops);
        ravel__json_key(js, &first, "processes");
        ravel__sb_printf(js, "%u", h.nprocs);
        ravel__json_key(js, &first, "partitions");
        ravel__sb_printf(js, "%u", r.nparts);
        ravel__json_key(js, &first, "steps");
        ravel__sb_printf(js, "%llu", (unsigned long long)r.steps);
        ravel__json_key(js, &first, "memo_entries");
        ravel__sb_printf(js, "%llu", (unsigned long long)r.memo_entries);
        ravel__json_key(js, &first, "memo_bytes");
        ravel__sb_printf(js, "%llu", (unsigned long long)r.memo_bytes);
        ravel__json_key(js, &first, "seconds");
        ravel__sb_printf(js, "%.6f", r.seconds);
        if (a->independent) {
            /* One verdict per key, as Jepsen's independent checker. */
            static const char *const kv_names[] = {
                "linearizable", "not linearizable", "unknown"};
            ravel__json_key(js, &first, "keys");
            ravel__sb_addc(js, '[');
            for (uint32_t k = 0; k < r.nparts; k++) {
                ravel__sb_add(js, k ? ",{\"key\":" : "{\"key\":");
                ravel__lin_vjson(&h.vals, r.keys[k], js);
                ravel__sb_add(js, ",\"verdict\":");
                ravel__json_str(js, kv_names[r.key_verdict[k]]);
                ravel__sb_printf(js, ",\"operations\":%u}", r.key_ops[k]);
            }
            ravel__sb_addc(js, ']');
        }
        if (r.verdict == RAVEL__LIN_FAIL && r.part_ops) {
            ravel__json_key(js, &first, "explanation");
            ravel__lin_explain_json(&h, a->model, self, &r, js);
        }
        ravel__sb_addc(js, '}');
    } else {
        ravel__sb_printf(out, "%s: %s (model %s, %u operations, %u "
                              "processes",
                         path, verdict, a->model->name, h.nops, h.nprocs);
        if (a->independent) {
            ravel__sb_printf(out, ", %u key%s: %u linearizable, %u not",
                             r.nparts, r.nparts == 1 ? "" : "s", kcount[0],
                             kcount[1]);
            if (kcount[2])
                ravel__sb_printf(out, ", %u unknown", kcount[2]);
        } else if (r.nparts > 1) {
            ravel__sb_printf(out, ", %u keys", r.nparts);
        }
        if (h.nops == 0)
            ravel__sb_add(out, "; empty history");
        if (r.verdict == RAVEL__LIN_UNKNOWN)
            ravel__sb_printf(out, "; %s reached after %llu steps",
                             r.unknown_why, (unsigned long long)r.steps);
        ravel__sb_add(out, ")\n");
        if (a->independent && !a->quiet)
            for (uint32_t k = 0; k < r.nparts; k++) {
                ravel__sb_add(out, "  key ");
                ravel__lin_vprint(&h.vals, r.keys[k], out, 40);
                ravel__sb_printf(out, ": %s (%u operations)\n",
                                 r.key_verdict[k] == RAVEL__LIN_OK
                                     ? "linearizable"
                                 : r.key_verdict[k] == RAVEL__LIN_FAIL
                                     ? "NOT linearizable"
                                     : "unknown",
                                 r.key_ops[k]);
            }
        if (r.verdict == RAVEL__LIN_UNKNOWN && !a->quiet) {
            ravel__sb_printf(out, "  the search got least far ");
            if (r.unknown_key != RAVEL__LIN_V_NONE) {
                ravel__sb_add(out, "on key ");
                ravel__lin_vprint(&h.vals, r.unknown_key, out, 40);
                ravel__sb_addc(out, ' ');
            }
            ravel__sb_printf(out, "with a linearizable prefix of %u of %u "
                                  "operations; a longer --timeout or "
                                  "--max-steps may decide it\n",
                             r.unknown_best, r.unknown_ops);
        }
        if (r.memo_full && !a->quiet)
            ravel__sb_add(out, "  note: the memory limit was reached; the "
                               "search went on without remembering more\n");
        if (r.verdict == RAVEL__LIN_FAIL && !a->quiet)
            ravel__lin_explain_text(&h, a->model, self, &r, out);
    }
    if (a->html) {
        struct ravel__strbuf page = RAVEL__STRBUF_INIT;
        ravel__lin_explain_html(&h, a->model, self, &r, path, &page);
        FILE *f = fopen(a->html, "w");
        if (!f || fwrite(page.data, 1, page.len, f) != page.len ||
            fclose(f) != 0) {
            fprintf(stderr, "ravel lin: %s: %s\n", a->html, strerror(errno));
            status = RAVEL__EXIT_USAGE;
        }
        ravel__sb_free(&page);
    }
    ravel__lin_result_free(&r);
out:
    if (self)
        a->model->close(self);
    ravel__lin_history_free(&h);
    free(buf);
    return status;
}

static const char *value_of(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc)
        ravel__usage_error("lin", "option '%s' needs a value", name);
    return argv[++*i];
}

static bool is_opt(const char *a, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(a, name, n) && (a[n] == 0 || a[n] == '=');
}

int ravel__cmd_lin(int argc, char **argv)
{
    struct lin_args a;
    memset(&a, 0, sizeof a);
    const char *model = NULL;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    if (!files)
        ravel__usage_error("lin", "out of memory");
    bool opts_done = false;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (opts_done || s[0] != '-' || !s[1]) { /* "-": stdin */
            files[nfiles++] = s;
        } else if (!strcmp(s, "--")) {
            opts_done = true;
        } else if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
            ravel__help_lin();
            free(files);
            return 0;
        } else if (is_opt(s, "--model")) {
            model = value_of(argc, argv, &i, "--model");
        } else if (is_opt(s, "--init")) {
            a.params.init = value_of(argc, argv, &i, "--init");
        } else if (is_opt(s, "--format")) {
            const char *v = value_of(argc, argv, &i, "--format");
            if (ravel__lin_format_parse(v, &a.format) != 0)
                ravel__usage_error("lin", "unknown format '%s' (formats: "
                                          "auto, log, edn, json)",
                                   v);
        } else if (is_opt(s, "--timeout")) {
            const char *v = value_of(argc, argv, &i, "--timeout");
            if (ravel__parse_double(v, &a.opts.timeout) != 0 ||
                a.opts.timeout <= 0)
                ravel__usage_error("lin", "--timeout needs a positive "
                                          "number of seconds, not '%s'",
                                   v);
        } else if (is_opt(s, "--max-steps")) {
            const char *v = value_of(argc, argv, &i, "--max-steps");
            if (ravel__parse_u64(v, &a.opts.max_steps) != 0 ||
                a.opts.max_steps == 0)
                ravel__usage_error("lin", "--max-steps needs a positive "
                                          "integer, not '%s'",
                                   v);
        } else if (is_opt(s, "--max-memory")) {
            const char *v = value_of(argc, argv, &i, "--max-memory");
            uint64_t mb;
            if (ravel__parse_u64(v, &mb) != 0 || mb == 0 || mb > (1u << 24))
                ravel__usage_error("lin", "--max-memory needs a size in "
                                          "megabytes, not '%s'",
                                   v);
            a.opts.max_memory = mb << 20;
        } else if (!strcmp(s, "--no-partition")) {
            a.opts.no_partition = true;
        } else if (!strcmp(s, "--independent")) {
            a.independent = true;
            a.opts.by_key = a.opts.all_keys = true;
        } else if (!strcmp(s, "--no-prune")) {
            a.opts.no_prune = true;
        } else if (!strcmp(s, "--json")) {
            a.json = true;
        } else if (!strcmp(s, "-q") || !strcmp(s, "--quiet")) {
            a.quiet = true;
        } else if (is_opt(s, "--html")) {
            a.html = value_of(argc, argv, &i, "--html");
        } else {
            ravel__usage_error("lin", "unknown option '%s' (see 'ravel lin "
                                      "--help')",
                               s);
        }
    }
    char names[400] = "";
    for (int i = 0; ravel__lin_models[i]; i++) {
        size_t l = strlen(names);
        snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "",
                 ravel__lin_models[i]->name);
    }
    if (!model)
        ravel__usage_error("lin", "--model NAME is required (models: %s)",
                           names);
    a.model = ravel__lin_model_find(model);
    if (!a.model)
        ravel__usage_error("lin", "unknown model '%s' (models: %s)", model,
                           names);
    if (nfiles == 0)
        ravel__usage_error("lin", "no history given (usage: ravel lin "
                                  "--model NAME [OPTIONS] HISTORY...)");
    if (a.html && nfiles != 1)
        ravel__usage_error("lin", "--html needs exactly one history");
    a.opts.no_explain = a.quiet && !a.json && !a.html;
    int status = RAVEL__EXIT_CLEAN;
    struct ravel__strbuf out = RAVEL__STRBUF_INIT, js = RAVEL__STRBUF_INIT;
    if (a.json && nfiles > 1)
        ravel__sb_add(&js, "{\"histories\":[");
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < nfiles; i++) {
        if (a.json && nfiles > 1 && i)
            ravel__sb_addc(&js, ',');
        int st = check_file(&a, files[i], &out, a.json ? &js : NULL);
        counts[st]++;
        /* 2 beats 1 beats 0: any doubt makes the run inconclusive. */
        if (st == RAVEL__EXIT_USAGE || status == RAVEL__EXIT_USAGE)
            status = RAVEL__EXIT_USAGE;
        else if (st == RAVEL__EXIT_BUG)
            status = RAVEL__EXIT_BUG;
        if (out.len) {
            fputs(ravel__sb_str(&out), stdout);
            ravel__sb_reset(&out);
        }
    }
    if (a.json) {
        if (nfiles > 1)
            ravel__sb_printf(&js, "],\"linearizable\":%d,"
                                  "\"not_linearizable\":%d,"
                                  "\"unknown_or_error\":%d}",
                             counts[0], counts[1], counts[2]);
        ravel__sb_addc(&js, '\n');
        fputs(ravel__sb_str(&js), stdout);
    } else if (nfiles > 1) {
        printf("%d histories: %d linearizable, %d not linearizable, %d "
               "unknown or unreadable\n",
               nfiles, counts[0], counts[1], counts[2]);
    }
    ravel__sb_free(&out);
    ravel__sb_free(&js);
    free(files);
    return status;
}
